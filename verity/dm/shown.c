/* What fv_status_get shows of an active target: the table read back
 * from the kernel, its devices (NULL when the kernel names none) and
 * each flag bit's word as veritysetup status prints it; and what status
 * shows of it (fv_show's FV_SHOW_STATUS): veritysetup's lines, or the
 * --json document. */
#include "verity/dm/shown.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "verity/dm/activate.h"
#include "verity/tree/params.h"
#include "verity/show/pair.h"

_Static_assert(FV_NFLAGS == VERITY_NFLAGS, "the flag counts differ");
_Static_assert((int)FV_SHARED == (int)VERITY_ACT_SHARED, "FV_SHARED");

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

/* The kernel's word for one flag, or NULL. */
static const char *flag_name(unsigned flag)
{
	for (size_t i = 0; i < VERITY_NFLAGS; i++)
		if (verity_flag_words[i].flag == flag)
			return verity_flag_words[i].word;
	return NULL;
}

void verity_dm_shown_status(const struct verity_active *a,
			    const fv_params *params, const char *root_hex,
			    struct fv_status_info *out)
{
	memset(out, 0, sizeof(*out));
	out->is_verity = a->is_verity != 0;
	out->corrupted = a->corrupted != 0;
	out->open_count = a->open_count;
	out->flags = a->flags;
	out->params = params;
	out->root_hex = root_hex;
	out->data_device = or_null(a->data_dev);
	out->hash_device = or_null(a->hash_dev);
	out->data_file = or_null(a->data_loop);
	out->hash_file = or_null(a->hash_loop);
	out->fec_device = or_null(a->fec_dev);
	out->fec_file = or_null(a->fec_loop);
	out->fec_roots = a->fec_roots;
	out->read_only = a->read_only != 0;
	out->is_signed = a->sig_key_desc[0] != 0;
	out->size_sectors = a->size_sectors;
	out->hash_start_block = a->hash_start_block;
	out->fec_start_block = a->fec_start_block;
	out->fec_blocks = a->fec_blocks;
	out->fec_repaired = a->fec_repaired;
	for (unsigned i = 0; i < FV_NFLAGS; i++)
		out->flag_name[i] = flag_name(1u << i);
}

/* veritysetup's flags line: each word followed by a space, except
 * check_at_most_once (so that with try_verify_in_tasklet the two run
 * together, as veritysetup prints them), restart_on_error (2.8's) and
 * the last. */
static void flag_words(struct show *sh, unsigned flags)
{
	verity_show_text(sh, "  flags:       ");
	for (unsigned i = 0; i < FV_NFLAGS; i++) {
		unsigned flag = 1u << i;

		if (flags & flag)
			verity_show_textf(
				sh, "%s%s", flag_name(flag),
				flag == FV_CHECK_AT_MOST_ONCE ||
						flag == FV_USE_TASKLETS ||
						flag == FV_RESTART_ON_ERROR
					? ""
					: " ");
	}
	verity_show_text(sh, "\n");
}

/* A member that is null when s is. */
static void str_or_null(struct show *sh, const char *key, const char *s)
{
	if (s)
		verity_show_str(sh, key, s);
	else
		verity_show_null(sh, key);
}

static void status_json(struct show *sh, const struct verity_active *a,
			const char *salt, const char *root)
{
	const struct verity_params *p = &a->p;

	verity_show_str(sh, "type", a->is_verity ? "VERITY" : "n/a");
	if (a->is_verity) {
		verity_show_str(sh, "status",
				a->corrupted ? "corrupted" : "verified");
		verity_show_bool(sh, "signature", a->sig_key_desc[0] != 0);
		verity_show_u64(sh, "hash_type", (uint64_t)p->hash_type);
		verity_show_u64(sh, "data_block_size", p->data_block_size);
		verity_show_u64(sh, "hash_block_size", p->hash_block_size);
		verity_show_u64(sh, "data_blocks", p->data_blocks);
		verity_show_str(sh, "hash_algorithm", p->hash_name);
		verity_show_str(sh, "salt", salt);
		verity_show_str(sh, "data_device", a->data_dev);
		str_or_null(sh, "data_loop", or_null(a->data_loop));
		verity_show_str(sh, "hash_device", a->hash_dev);
		str_or_null(sh, "hash_loop", or_null(a->hash_loop));
		verity_show_u64(sh, "size_sectors", a->size_sectors);
		verity_show_str(sh, "mode",
				a->read_only ? "readonly" : "read/write");
		verity_show_u64(sh, "hash_offset_sectors",
				a->hash_start_block * p->hash_block_size / 512);
		if (or_null(a->fec_dev)) {
			verity_show_object(sh, "fec");
			verity_show_str(sh, "device", a->fec_dev);
			str_or_null(sh, "loop", or_null(a->fec_loop));
			verity_show_u64(sh, "offset_sectors",
					a->fec_start_block *
						p->hash_block_size / 512);
			verity_show_u64(sh, "blocks", a->fec_blocks);
			verity_show_u64(sh, "roots", a->fec_roots);
			if (a->fec_repaired < 0)
				verity_show_null(sh, "repaired");
			else
				verity_show_u64(sh, "repaired",
						(uint64_t)a->fec_repaired);
			verity_show_end(sh);
		} else {
			verity_show_null(sh, "fec");
		}
		verity_show_str(sh, "root_hash", root);
	}
	/* from the flags themselves, not from the display line */
	verity_show_array(sh, "flags");
	for (unsigned i = 0; a->is_verity && i < FV_NFLAGS; i++)
		if (a->flags & (1u << i))
			verity_show_str(sh, NULL, flag_name(1u << i));
	verity_show_end(sh);
}

static void status_text(struct show *sh, const struct verity_active *a,
			const char *salt, const char *root)
{
	const struct verity_params *p = &a->p;

	verity_show_textf(sh, "  type:        %s\n",
			  a->is_verity ? "VERITY" : "n/a");
	if (!a->is_verity)
		return;
	verity_show_textf(sh,
			  "  status:      %s%s\n"
			  "  hash type:   %d\n"
			  "  data block:  %u\n"
			  "  hash block:  %u\n"
			  "  hash name:   %s\n"
			  "  salt:        %s\n"
			  "  data device: %s\n",
			  a->corrupted ? "corrupted" : "verified",
			  a->sig_key_desc[0] ? " (with signature)" : "",
			  p->hash_type, p->data_block_size, p->hash_block_size,
			  p->hash_name, *salt ? salt : "-", a->data_dev);
	if (*a->data_loop)
		verity_show_textf(sh, "  data loop:   %s\n", a->data_loop);
	verity_show_textf(sh,
			  "  size:        %" PRIu64 " sectors\n"
			  "  mode:        %s\n"
			  "  hash device: %s\n",
			  a->size_sectors,
			  a->read_only ? "readonly" : "read/write",
			  a->hash_dev);
	if (*a->hash_loop)
		verity_show_textf(sh, "  hash loop:   %s\n", a->hash_loop);
	verity_show_textf(sh, "  hash offset: %" PRIu64 " sectors\n",
			  a->hash_start_block * p->hash_block_size / 512);
	if (*a->fec_dev) {
		verity_show_textf(sh, "  FEC device:  %s\n", a->fec_dev);
		if (*a->fec_loop)
			verity_show_textf(sh, "  FEC loop:    %s\n",
					  a->fec_loop);
		verity_show_textf(sh,
				  "  FEC offset:  %" PRIu64 " sectors\n"
				  "  FEC roots:   %u\n",
				  a->fec_start_block * p->hash_block_size / 512,
				  a->fec_roots);
		/* veritysetup 2.8's, where the kernel counts them */
		if (a->fec_repaired >= 0)
			verity_show_textf(
				sh, "  FEC repaired: %" PRId64 " [events]\n",
				a->fec_repaired);
	}
	verity_show_textf(sh, "  root hash:   %s\n", root);
	if (a->flags)
		flag_words(sh, a->flags);
}

int verity_dm_show_active(const char *name, const struct verity_active *a,
			  struct show *sh)
{
	char salt[2 * VERITY_MAX_SALT_SIZE + 1],
		root[2 * HT_MAX_DIGEST_SIZE + 1];

	if (sh->json) {
		verity_show_object(sh, NULL);
		verity_show_str(sh, "name", name);
		verity_show_bool(sh, "active", a != NULL);
		if (a) {
			verity_show_bool(sh, "in_use", a->open_count > 0);
		} else {
			/* veritysetup's exit code for it */
			verity_show_u64(sh, "exit_code", 4);
			verity_show_end(sh);
			return sh->r ? sh->r : ENODEV;
		}
	} else if (!a) {
		verity_show_textf(sh, "/dev/mapper/%s is inactive.\n", name);
		return sh->r ? sh->r : ENODEV;
	} else {
		verity_show_textf(sh, "/dev/mapper/%s is active%s.\n", name,
				  a->open_count ? " and is in use" : "");
	}
	verity_hex_encode(a->p.salt, a->p.salt_size, salt);
	verity_hex_encode(a->root, a->root_size, root);
	if (sh->json) {
		status_json(sh, a, salt, root);
		verity_show_end(sh);
	} else {
		status_text(sh, a, salt, root);
	}
	return sh->r;
}

int verity_dm_show_status(const char *name, struct show *sh,
			  struct ht_error *err)
{
	struct verity_active *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return ht_fail(err, ENOMEM, "out of memory");
	/* (a name given as its /dev/mapper/ path) */
	if (!strncmp(name, "/dev/mapper/", 12))
		name += 12;
	r = verity_status(name, a, err);
	if (!r || r == -ENODEV)
		r = verity_dm_show_active(name, r ? NULL : a, sh);
	free(a);
	return r;
}

int verity_dm_status_get(const char *name, fv_status **out,
			 struct ht_error *err)
{
	fv_status *s = calloc(1, sizeof(*s));
	int r;

	*out = NULL;
	if (!s)
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = verity_status(name, &s->a, err))) {
		free(s);
		return r;
	}
	verity_show_params(&s->a.p, &s->params);
	verity_hex_encode(s->a.root, s->a.root_size, s->root_hex);
	*out = s;
	return 0;
}

int verity_dm_close(const char *name, enum fv_close_how how,
		    struct ht_error *err)
{
	enum verity_close_how way =
		how == FV_CLOSE_DEFERRED          ? VERITY_CLOSE_DEFERRED
		: how == FV_CLOSE_CANCEL_DEFERRED ? VERITY_CLOSE_CANCEL_DEFERRED
						  : VERITY_CLOSE_NOW;

	if (how != FV_CLOSE_NOW && how != FV_CLOSE_DEFERRED &&
	    how != FV_CLOSE_CANCEL_DEFERRED)
		return ht_fail(err, EINVAL, "fv_close: unknown way %d",
			       (int)how);
	return verity_close(name, way, err);
}
