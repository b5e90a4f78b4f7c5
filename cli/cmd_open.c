/* fastverity open <data_device> <name> <hash_device> [<root_hash>]
 * fastverity create <name> <data_device> <hash_device> <root_hash>
 * fastverity close <name>, remove <name>, status <name> */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "verity/dm/activate.h"
#include "verity/sign/signature.h"
#include "cli/avb.h"
#include "cli/ddi.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "verity/container/ddi/ddi.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/cli.h"

/* At most one bit of these. */
static int several(unsigned flags, unsigned of)
{
	flags &= of;
	return flags & (flags - 1);
}

/* One corruption policy and one error policy at most, said with the
 * options (the library refuses the same flags). */
static int policies(const struct cli_opts *o)
{
	if (several(o->activation, VERITY_ACT_IGNORE_CORRUPTION |
					   VERITY_ACT_RESTART_ON_CORRUPTION |
					   VERITY_ACT_PANIC_ON_CORRUPTION))
		return cli_error(-EINVAL, "choose one of --ignore-corruption, "
					  "--restart-on-corruption and "
					  "--panic-on-corruption");
	if (several(o->activation,
		    VERITY_ACT_RESTART_ON_ERROR | VERITY_ACT_PANIC_ON_ERROR))
		return cli_error(-EINVAL, "choose one of --restart-on-error "
					  "and --panic-on-error");
	return 0;
}

/* The pair made (made: 0, or the exit code of making it) mapped as name;
 * the signature is the kernel's to check. Frees cp. */
static int open_pair(struct cli_opts *o, const char *name, struct cli_pair *cp,
		     int made)
{
	fv_options *opts = NULL;
	int r = made;

	if (!r && (!(opts = fv_options_new()) ||
		   fv_options_set_flags(opts, o->activation)))
		r = cli_lib_error(-EINVAL);
	if (!r) {
		r = fv_pair_activate(name, cp->fp, opts);
		r = r ? cli_lib_error(r) : EXIT_OK;
	}
	if (!r)
		cli_debug(o, "Activated %s from %s and %s.", name,
			  fv_pair_data_path(cp->fp), fv_pair_hash_path(cp->fp));
	fv_options_free(opts);
	cli_pair_free(cp);
	return r;
}

static int do_open(struct cli_opts *o, const char *data, const char *name,
		   const char *hash, const char *root_arg)
{
	struct cli_pair cp;
	int r;

	memset(&cp, 0, sizeof(cp));
	if ((r = policies(o)))
		return r;
	return open_pair(o, name, &cp,
			 cli_pair_make(o, data, hash, root_arg, &cp));
}

/* open IMAGE NAME: an Android image, its data mapped with its
 * descriptor's tree, root and parity. */
static int open_avb(struct cli_opts *o, const char *image, const char *name)
{
	struct cli_pair cp;
	int r;

	memset(&cp, 0, sizeof(cp));
	if ((r = policies(o)))
		return r;
	return open_pair(o, name, &cp, cli_pair_avb(o, image, &cp));
}

int cmd_open(struct cli_opts *o)
{
	if (o->nargs == 2) {
		enum cli_container kind;
		int r;

		if ((r = cli_image_kind(o, o->args[0], &kind)))
			return r;
		if (kind == CLI_AVB)
			return open_avb(o, o->args[0], o->args[1]);
		if (kind == CLI_DDI)
			return (r = policies(o)) ? r
						 : cli_ddi_open(o, o->args[0],
								o->args[1]);
	}
	if (o->nargs < 3 || o->nargs > 4)
		return cli_error(
			-EINVAL,
			"open: requires <data_device> <name> "
			"<hash_device> [<root_hash>], or <android_image> "
			"<name>, as arguments");
	if (cli_refuse_sparse(o->args[0]))
		return EXIT_PARAMS;
	return do_open(o, o->args[0], o->args[1], o->args[2],
		       o->nargs == 4 ? o->args[3] : NULL);
}

int cmd_create(struct cli_opts *o)
{
	if (o->nargs != 4)
		return cli_error(-EINVAL,
				 "create: requires <name> <data_device> "
				 "<hash_device> <root_hash> as arguments");
	return do_open(o, o->args[1], o->args[0], o->args[2], o->args[3]);
}

int cmd_close(struct cli_opts *o)
{
	struct verity_active st;
	struct ht_error err;
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL, "close: requires <name> as argument");
	if (o->close == (CLI_CLOSE_DEFERRED | CLI_CLOSE_CANCEL))
		return cli_error(
			-EINVAL,
			"choose --deferred or --cancel-deferred, not both");
	r = verity_close(o->args[0],
			 o->close & CLI_CLOSE_DEFERRED ? VERITY_CLOSE_DEFERRED
			 : o->close & CLI_CLOSE_CANCEL
				 ? VERITY_CLOSE_CANCEL_DEFERRED
				 : VERITY_CLOSE_NOW,
			 &err);
	if (r)
		return cli_inside_error(r, &err);
	if ((o->close & CLI_CLOSE_DEFERRED) &&
	    verity_status(o->args[0], &st, &err) == 0)
		printf("Device %s is still active and scheduled for deferred "
		       "removal.\n",
		       o->args[0]);
	return EXIT_OK;
}

/* veritysetup's status line: each word followed by a space, except
 * check_at_most_once (so that with try_verify_in_tasklet the two run
 * together, as veritysetup prints them) and the last. */
static const char *flag_words(unsigned f, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < VERITY_NFLAGS && n < len; i++) {
		const struct verity_flag_word *w = &verity_flag_words[i];

		if (!(f & w->flag))
			continue;
		n += (size_t)snprintf(
			buf + n, len - n, "%s%s", w->word,
			w->flag == VERITY_ACT_CHECK_AT_MOST_ONCE ||
					w->flag == VERITY_ACT_TASKLETS
				? ""
				: " ");
	}
	return buf;
}

static void status_json(const char *name, const struct verity_active *st)
{
	json_object *j = json_object_new_object(),
		    *flags = json_object_new_array();
	char hex[2 * VERITY_MAX_SALT_SIZE + 1];

	json_object_object_add(j, "name", cli_json_str(name));
	json_object_object_add(j, "active", json_object_new_boolean(1));
	json_object_object_add(j, "in_use",
			       json_object_new_boolean(st->open_count > 0));
	json_object_object_add(j, "type",
			       cli_json_str(st->is_verity ? "VERITY" : "n/a"));
	if (st->is_verity) {
		json_object_object_add(
			j, "status",
			cli_json_str(st->corrupted ? "corrupted" : "verified"));
		json_object_object_add(
			j, "signature",
			json_object_new_boolean(st->sig_key_desc[0] != 0));
		json_object_object_add(j, "hash_type",
				       json_object_new_int(st->p.hash_type));
		json_object_object_add(
			j, "data_block_size",
			json_object_new_int64(st->p.data_block_size));
		json_object_object_add(
			j, "hash_block_size",
			json_object_new_int64(st->p.hash_block_size));
		json_object_object_add(
			j, "data_blocks",
			json_object_new_uint64(st->p.data_blocks));
		json_object_object_add(j, "hash_algorithm",
				       cli_json_str(st->p.hash_name));
		verity_hex_encode(st->p.salt, st->p.salt_size, hex);
		json_object_object_add(j, "salt", cli_json_str(hex));
		json_object_object_add(j, "data_device",
				       cli_json_str(st->data_dev));
		json_object_object_add(
			j, "data_loop",
			st->data_loop[0] ? cli_json_str(st->data_loop) : NULL);
		json_object_object_add(j, "hash_device",
				       cli_json_str(st->hash_dev));
		json_object_object_add(
			j, "hash_loop",
			st->hash_loop[0] ? cli_json_str(st->hash_loop) : NULL);
		json_object_object_add(
			j, "size_sectors",
			json_object_new_uint64(st->size_sectors));
		json_object_object_add(j, "mode",
				       cli_json_str(st->read_only
							    ? "readonly"
							    : "read/write"));
		json_object_object_add(
			j, "hash_offset_sectors",
			json_object_new_uint64(st->hash_start_block *
					       st->p.hash_block_size / 512));
		if (st->fec_dev[0]) {
			json_object *f = json_object_new_object();

			json_object_object_add(f, "device",
					       cli_json_str(st->fec_dev));
			json_object_object_add(
				f, "loop",
				st->fec_loop[0] ? cli_json_str(st->fec_loop)
						: NULL);
			json_object_object_add(
				f, "offset_sectors",
				json_object_new_uint64(st->fec_start_block *
						       st->p.hash_block_size /
						       512));
			json_object_object_add(
				f, "blocks",
				json_object_new_uint64(st->fec_blocks));
			json_object_object_add(
				f, "roots",
				json_object_new_int((int)st->fec_roots));
			json_object_object_add(j, "fec", f);
		} else {
			json_object_object_add(j, "fec", NULL);
		}
		verity_hex_encode(st->root, st->root_size, hex);
		json_object_object_add(j, "root_hash", cli_json_str(hex));
		/* from the flags themselves, not from the display line */
		for (size_t i = 0; i < VERITY_NFLAGS; i++)
			if (st->flags & verity_flag_words[i].flag)
				json_object_array_add(
					flags,
					cli_json_str(
						verity_flag_words[i].word));
	}
	json_object_object_add(j, "flags", flags);
	cli_json_print(j);
}

int cmd_status(struct cli_opts *o)
{
	struct verity_active st;
	struct ht_error err;
	char hex[2 * VERITY_MAX_SALT_SIZE + 1], words[256];
	const char *name;
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "status: requires <name> as argument");
	name = o->args[0];
	if (!strncmp(name, "/dev/mapper/", 12))
		name += 12;
	r = verity_status(name, &st, &err);
	if (r == -ENODEV) {
		if (o->json) {
			json_object *j = json_object_new_object();

			json_object_object_add(j, "name", cli_json_str(name));
			json_object_object_add(j, "active",
					       json_object_new_boolean(0));
			cli_json_print(j);
		} else
			printf("/dev/mapper/%s is inactive.\n", name);
		return EXIT_NODEV;
	}
	if (r)
		return cli_inside_error(r, &err);
	if (o->json) {
		status_json(name, &st);
		return EXIT_OK;
	}
	printf("/dev/mapper/%s is active%s.\n", name,
	       st.open_count ? " and is in use" : "");
	printf("  type:        %s\n", st.is_verity ? "VERITY" : "n/a");
	if (!st.is_verity)
		return EXIT_OK;
	printf("  status:      %s%s\n", st.corrupted ? "corrupted" : "verified",
	       st.sig_key_desc[0] ? " (with signature)" : "");
	printf("  hash type:   %d\n", st.p.hash_type);
	printf("  data block:  %u\n", st.p.data_block_size);
	printf("  hash block:  %u\n", st.p.hash_block_size);
	printf("  hash name:   %s\n", st.p.hash_name);
	verity_hex_encode(st.p.salt, st.p.salt_size, hex);
	printf("  salt:        %s\n", st.p.salt_size ? hex : "-");
	printf("  data device: %s\n", st.data_dev);
	if (st.data_loop[0])
		printf("  data loop:   %s\n", st.data_loop);
	printf("  size:        %" PRIu64 " sectors\n", st.size_sectors);
	printf("  mode:        %s\n", st.read_only ? "readonly" : "read/write");
	printf("  hash device: %s\n", st.hash_dev);
	if (st.hash_loop[0])
		printf("  hash loop:   %s\n", st.hash_loop);
	printf("  hash offset: %" PRIu64 " sectors\n",
	       st.hash_start_block * st.p.hash_block_size / 512);
	if (st.fec_dev[0]) {
		printf("  FEC device:  %s\n", st.fec_dev);
		if (st.fec_loop[0])
			printf("  FEC loop:    %s\n", st.fec_loop);
		printf("  FEC offset:  %" PRIu64 " sectors\n",
		       st.fec_start_block * st.p.hash_block_size / 512);
		printf("  FEC roots:   %u\n", st.fec_roots);
	}
	verity_hex_encode(st.root, st.root_size, hex);
	printf("  root hash:   %s\n", hex);
	if (st.flags)
		printf("  flags:       %s\n",
		       flag_words(st.flags, words, sizeof(words)));
	return EXIT_OK;
}
