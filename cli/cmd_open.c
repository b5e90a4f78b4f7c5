/* fastverity open <data_device> <name> <hash_device> [<root_hash>]
 * fastverity create <name> <data_device> <hash_device> <root_hash>
 * fastverity close <name>, remove <name>, status <name> */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/avb.h"
#include "cli/ddi.h"
#include "cli/super.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/params.h"
#include "cli/pair.h"
#include "cli/text.h"
#include "cli/cli.h"

/* At most one bit of these. */
static int several(unsigned flags, unsigned of)
{
	flags &= of;
	return flags & (flags - 1);
}

/* One corruption policy and one error policy at most, said with the
 * options (the library refuses the same flags). */
static int policies(struct cli_opts *o)
{
	if (several(o->activation, FV_IGNORE_CORRUPTION |
					   FV_RESTART_ON_CORRUPTION |
					   FV_PANIC_ON_CORRUPTION))
		return cli_error(-EINVAL, "choose one of --ignore-corruption, "
					  "--restart-on-corruption and "
					  "--panic-on-corruption");
	/* veritysetup 2.8: an I/O error handled as the corruption policy
	 * says, restart or panic */
	if (o->error_as_corruption) {
		if (!(o->activation &
		      (FV_RESTART_ON_CORRUPTION | FV_PANIC_ON_CORRUPTION)))
			return cli_error(-EINVAL,
					 "Option --error-as-corruption must be "
					 "used with --panic-on-corruption or "
					 "--restart-on-corruption.");
		int panic = !!(o->activation & FV_PANIC_ON_CORRUPTION);

		/* (said as given: the other error policy, not two) */
		if (o->activation &
		    (panic ? FV_RESTART_ON_ERROR : FV_PANIC_ON_ERROR))
			return cli_error(-EINVAL,
					 "--error-as-corruption with %s "
					 "%s on an I/O error: not with %s",
					 panic ? "--panic-on-corruption"
					       : "--restart-on-corruption",
					 panic ? "panics" : "restarts",
					 panic ? "--restart-on-error"
					       : "--panic-on-error");
		o->activation |= panic ? FV_PANIC_ON_ERROR : FV_RESTART_ON_ERROR;
	}
	if (several(o->activation, FV_RESTART_ON_ERROR | FV_PANIC_ON_ERROR))
		return cli_error(-EINVAL, "choose one of --restart-on-error "
					  "and --panic-on-error");
	return 0;
}

int cli_open_pair(struct cli_opts *o, const char *name, struct cli_pair *cp,
		  int made)
{
	fv_options opts = {.size = sizeof(opts), .flags = o->activation};
	fv_result *res = NULL;
	struct fv_report rep;
	int r = made;

	/* a signature the door judged checkable is checked first, offline,
	 * and still handed to the kernel */
	if (!r)
		r = fv_activate(name, cp->img, cp->at, &opts, &res);
	/* (the signature is checked before the mapping: said first) */
	if (res) {
		cli_report(res, &rep);
		if (rep.trust == FV_TRUST_CHECK && *rep.signer)
			cli_debug(o,
				  "The root hash signature checks out: "
				  "signed by %s.",
				  rep.signer);
	}
	if (r < 0)
		r = cli_lib_error(r);
	if (!r)
		cli_debug(o, "Activated %s from %s and %s.", name, cp->pi.data,
			  cp->pi.hash);
	fv_result_free(res);
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
	r = cli_pair_make(o, data, hash, root_arg, &cp);
	return cli_open_pair(o, name, &cp, r);
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
	return cli_open_pair(o, name, &cp, cli_pair_avb(o, image, &cp));
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
		if (kind == CLI_SUPER)
			return (r = policies(o)) ? r
						 : cli_super_open(o, o->args[0],
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
	fv_status *st;
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL, "close: requires <name> as argument");
	if (o->close == (CLI_CLOSE_DEFERRED | CLI_CLOSE_CANCEL))
		return cli_error(
			-EINVAL,
			"choose --deferred or --cancel-deferred, not both");
	r = fv_close(o->args[0],
		     o->close & CLI_CLOSE_DEFERRED ? FV_CLOSE_DEFERRED
		     : o->close & CLI_CLOSE_CANCEL ? FV_CLOSE_CANCEL_DEFERRED
						   : FV_CLOSE_NOW);
	if (r)
		return cli_lib_error(r);
	/* (with --json, stdout holds the one document: the line goes to
	 * stderr) */
	if ((o->close & CLI_CLOSE_DEFERRED) &&
	    fv_status_get(o->args[0], &st, NULL) == 0) {
		fprintf(o->json ? stderr : stdout,
			"Device %s is still active and scheduled for deferred "
			"removal.\n",
			o->args[0]);
		fv_status_free(st);
	}
	return EXIT_OK;
}

/* veritysetup's status line: each word followed by a space, except
 * check_at_most_once (so that with try_verify_in_tasklet the two run
 * together, as veritysetup prints them), restart_on_error (2.8's) and
 * the last. */
static const char *flag_words(const struct fv_status_info *s, char *buf,
			      size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < FV_NFLAGS && n < len; i++) {
		unsigned flag = 1u << i;

		if (!(s->flags & flag))
			continue;
		n += (size_t)snprintf(
			buf + n, len - n, "%s%s", s->flag_name[i],
			flag == FV_CHECK_AT_MOST_ONCE ||
					flag == FV_USE_TASKLETS ||
					flag == FV_RESTART_ON_ERROR
				? ""
				: " ");
	}
	return buf;
}

/* The table's salt as hex ("-" for none when dash). */
static const char *salt_hex(const fv_params *p, char *hex, int dash)
{
	const uint8_t *salt = p->salt;
	size_t n = p->salt_len;

	cli_hex(salt, n, hex);
	return n || !dash ? hex : "-";
}

static void *str_or_null(const char *s)
{
	return s ? cli_json_str(s) : NULL;
}

static void status_json(const char *name, const struct fv_status_info *s)
{
	json_object *j = json_object_new_object(),
		    *flags = json_object_new_array();
	const fv_params *p = s->params;
	char hex[2 * FV_MAX_SALT_SIZE + 1];

	cli_jstr(j, "name", name);
	cli_jbool(j, "active", 1);
	cli_jbool(j, "in_use", s->open_count > 0);
	cli_jstr(j, "type", s->is_verity ? "VERITY" : "n/a");
	if (s->is_verity) {
		cli_jstr(j, "status", s->corrupted ? "corrupted" : "verified");
		cli_jbool(j, "signature", s->is_signed);
		cli_jint(j, "hash_type", (int)p->hash_type);
		cli_ji64(j, "data_block_size", p->data_block_size);
		cli_ji64(j, "hash_block_size", p->hash_block_size);
		cli_ju64(j, "data_blocks", p->data_blocks);
		cli_jstr(j, "hash_algorithm", p->hash);
		cli_jstr(j, "salt", salt_hex(p, hex, 0));
		cli_jstr(j, "data_device",
			 s->data_device ? s->data_device : "");
		cli_jset(j, "data_loop", str_or_null(s->data_file));
		cli_jstr(j, "hash_device",
			 s->hash_device ? s->hash_device : "");
		cli_jset(j, "hash_loop", str_or_null(s->hash_file));
		cli_ju64(j, "size_sectors", s->size_sectors);
		cli_jstr(j, "mode", s->read_only ? "readonly" : "read/write");
		cli_ju64(j, "hash_offset_sectors",
			 s->hash_start_block * p->hash_block_size / 512);
		if (s->fec_device) {
			json_object *f = json_object_new_object();

			cli_jstr(f, "device", s->fec_device);
			cli_jset(f, "loop", str_or_null(s->fec_file));
			cli_ju64(f, "offset_sectors",
				 s->fec_start_block * p->hash_block_size / 512);
			cli_ju64(f, "blocks", s->fec_blocks);
			cli_jint(f, "roots", (int)s->fec_roots);
			cli_jset(f, "repaired",
				 s->fec_repaired < 0
					 ? NULL
					 : json_object_new_int64(
						   s->fec_repaired));
			cli_jset(j, "fec", f);
		} else {
			cli_jset(j, "fec", NULL);
		}
		cli_jstr(j, "root_hash", s->root_hex);
		/* from the flags themselves, not from the display line */
		for (unsigned i = 0; i < FV_NFLAGS; i++)
			if (s->flags & (1u << i))
				json_object_array_add(
					flags, cli_json_str(s->flag_name[i]));
	}
	cli_jset(j, "flags", flags);
	cli_json_print(j);
}

static void status_text(const char *name, const struct fv_status_info *s)
{
	const fv_params *p = s->params;
	char hex[2 * FV_MAX_SALT_SIZE + 1], words[256];

	printf("/dev/mapper/%s is active%s.\n", name,
	       s->open_count ? " and is in use" : "");
	printf("  type:        %s\n", s->is_verity ? "VERITY" : "n/a");
	if (!s->is_verity)
		return;
	printf("  status:      %s%s\n", s->corrupted ? "corrupted" : "verified",
	       s->is_signed ? " (with signature)" : "");
	printf("  hash type:   %u\n", p->hash_type);
	printf("  data block:  %u\n", p->data_block_size);
	printf("  hash block:  %u\n", p->hash_block_size);
	printf("  hash name:   %s\n", p->hash);
	printf("  salt:        %s\n", salt_hex(p, hex, 1));
	printf("  data device: %s\n", s->data_device ? s->data_device : "");
	if (s->data_file)
		printf("  data loop:   %s\n", s->data_file);
	printf("  size:        %" PRIu64 " sectors\n", s->size_sectors);
	printf("  mode:        %s\n", s->read_only ? "readonly" : "read/write");
	printf("  hash device: %s\n", s->hash_device ? s->hash_device : "");
	if (s->hash_file)
		printf("  hash loop:   %s\n", s->hash_file);
	printf("  hash offset: %" PRIu64 " sectors\n",
	       s->hash_start_block * p->hash_block_size / 512);
	if (s->fec_device) {
		printf("  FEC device:  %s\n", s->fec_device);
		if (s->fec_file)
			printf("  FEC loop:    %s\n", s->fec_file);
		printf("  FEC offset:  %" PRIu64 " sectors\n",
		       s->fec_start_block * p->hash_block_size / 512);
		printf("  FEC roots:   %u\n", s->fec_roots);
		/* veritysetup 2.8's, where the kernel counts them */
		if (s->fec_repaired >= 0)
			printf("  FEC repaired: %" PRId64 " [events]\n",
			       s->fec_repaired);
	}
	printf("  root hash:   %s\n", s->root_hex);
	if (s->flags)
		printf("  flags:       %s\n",
		       flag_words(s, words, sizeof(words)));
}

int cmd_status(struct cli_opts *o)
{
	struct fv_status_info info;
	fv_status *st;
	const char *name;
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "status: requires <name> as argument");
	name = o->args[0];
	if (!strncmp(name, "/dev/mapper/", 12))
		name += 12;
	info.size = sizeof(info);
	r = fv_status_get(name, &st, &info);
	if (r == -ENODEV) {
		if (o->json) {
			json_object *j = json_object_new_object();

			cli_jstr(j, "name", name);
			cli_jbool(j, "active", 0);
			cli_jint(j, "exit_code", EXIT_NODEV);
			cli_json_print(j);
		} else
			printf("/dev/mapper/%s is inactive.\n", name);
		return EXIT_NODEV;
	}
	if (r)
		return cli_lib_error(r);
	if (o->json)
		status_json(name, &info);
	else
		status_text(name, &info);
	fv_status_free(st);
	return EXIT_OK;
}
