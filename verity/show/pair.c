/* A pair's header as dump shows it (verity/show/pair.h). */
#include "verity/show/pair.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/geometry.h"
#include "hashtree/hasher.h"
#include "verity/show/result.h"

/* The end of the tree as veritysetup prints it: from the tree start even
 * when there is no tree (one data block). */
static uint64_t nominal_hash_end(const fv_params *p, const struct fv_layout *l)
{
	return l->tree_offset + l->tree_blocks * (uint64_t)p->hash_block_size;
}

static void hex(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

void verity_show_pair_members(struct show *sh, const char *device,
			      const fv_params *p, const struct fv_layout *l,
			      const char *root_hex, int fec)
{
	char uuid[37], salt[2 * sizeof(p->salt) + 1];

	hex(p->salt,
	    p->salt_len < sizeof(p->salt) ? p->salt_len : sizeof(p->salt),
	    salt);

	verity_show_str(sh, "device", device);
	if (p->superblock) {
		snprintf(uuid, sizeof(uuid), "%s", p->uuid);
		verity_show_str(sh, "uuid", uuid);
	} else {
		verity_show_null(sh, "uuid");
	}
	verity_show_bool(sh, "superblock", p->superblock);
	verity_show_u64(sh, "hash_type", p->hash_type);
	verity_show_u64(sh, "data_blocks", p->data_blocks);
	verity_show_u64(sh, "data_block_size", p->data_block_size);
	verity_show_u64(sh, "hash_blocks", l->tree_blocks);
	verity_show_u64(sh, "hash_block_size", p->hash_block_size);
	verity_show_str(sh, "hash_algorithm", p->hash);
	verity_show_str(sh, "salt", salt);
	verity_show_u64(sh, "hash_offset", p->hash_offset);
	verity_show_u64(sh, "tree_offset", l->tree_offset);
	verity_show_u64(sh, "levels", l->levels);
	verity_show_u64(sh, "hash_device_size", nominal_hash_end(p, l));
	if (fec && l->fec_roots) {
		verity_show_object(sh, "fec");
		verity_show_u64(sh, "roots", l->fec_roots);
		verity_show_u64(sh, "offset", l->fec_offset);
		verity_show_u64(sh, "parity_blocks",
				l->fec_rounds * l->fec_roots);
		verity_show_u64(sh, "parity_bytes", l->fec_parity_bytes);
		verity_show_u64(sh, "covered_blocks", l->fec_blocks);
		verity_show_u64(sh, "rounds", l->fec_rounds);
		verity_show_bool(sh, "on_hash_device", l->fec_on_hash_device);
		verity_show_end(sh);
	}
	if (root_hex)
		verity_show_str(sh, "root_hash", root_hex);
}

void verity_show_pair_header(struct show *sh, const char *device,
			     const fv_params *p, const char *uuid_text,
			     const struct fv_layout *l, const char *root_hex)
{
	char salt[2 * sizeof(p->salt) + 1], *buf = NULL;
	size_t len = 0, n = p->salt_len < sizeof(p->salt) ? p->salt_len
							  : sizeof(p->salt);
	FILE *f;

	hex(p->salt, n, salt);
	if (sh->json) {
		verity_show_pair_members(sh, device, p, l, root_hex, 1);
		return;
	}
	if (!(f = open_memstream(&buf, &len))) {
		verity_show_text(sh, NULL);
		return;
	}
	fprintf(f, "VERITY header information for %s\n", device);
	fprintf(f, "UUID:            \t%s\n", uuid_text);
	fprintf(f, "Hash type:       \t%u\n", p->hash_type);
	fprintf(f, "Data blocks:     \t%" PRIu64 "\n", p->data_blocks);
	fprintf(f, "Data block size: \t%u\n", p->data_block_size);
	fprintf(f, "Hash blocks:     \t%" PRIu64 "\n", l->tree_blocks);
	fprintf(f, "Hash block size: \t%u\n", p->hash_block_size);
	fprintf(f, "Hash algorithm:  \t%s\n", p->hash);
	if (l->fec_roots) {
		fprintf(f, "FEC RS roots:   \t%u\n", l->fec_roots);
		fprintf(f, "FEC blocks:     \t%" PRIu64 "\n",
			l->fec_rounds * l->fec_roots);
	}
	fprintf(f, "Salt:            \t%s\n", n ? salt : "-");
	if (root_hex)
		fprintf(f, "Root hash:      \t%s\n", root_hex);
	/* veritysetup counts parity on the hash device as if it followed
	 * the tree directly */
	if (p->hash_offset == 0)
		fprintf(f, "Hash device size: \t%" PRIu64 " [bytes]\n",
			nominal_hash_end(p, l) + (l->fec_on_hash_device
							  ? l->fec_parity_bytes
							  : 0));
	if (l->fec_roots && !l->fec_on_hash_device && l->fec_offset == 0)
		fprintf(f, "FEC device size: \t%" PRIu64 " [bytes]\n",
			l->fec_parity_bytes);
	verity_show_stream(sh, f, &buf);
}

void verity_show_pair_of(struct show *sh, const char *device,
			 const struct verity_params *p,
			 const struct verity_layout *l, const char *uuid_text,
			 const char *root_hex)
{
	struct fv_layout fl;
	fv_params fp;

	verity_show_params(p, &fp);
	verity_show_layout(l, &fl);
	verity_show_pair_header(sh, device, &fp, uuid_text, &fl, root_hex);
}

void verity_show_params(const struct verity_params *in, fv_params *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	snprintf(out->hash, sizeof(out->hash), "%s", in->hash_name);
	out->hash_type = (unsigned)in->hash_type;
	out->data_block_size = in->data_block_size;
	out->hash_block_size = in->hash_block_size;
	out->data_blocks = in->data_blocks;
	out->hash_offset = in->hash_offset;
	memcpy(out->salt, in->salt, in->salt_size);
	out->salt_len = in->salt_size;
	verity_uuid_format(in->uuid, out->uuid);
	out->superblock = !in->no_superblock;
}

int verity_show_params_in(const fv_params *in, struct verity_params *out,
			  struct ht_error *err)
{
	unsigned size;
	size_t n;
	int r;

	if (in->size < offsetof(fv_params, superblock) + sizeof(in->superblock))
		return ht_fail(err, EINVAL,
			       "parameters of size %zu: too "
			       "small (fv_params_init)",
			       in->size);
	n = strnlen(in->hash, sizeof(in->hash));
	if (n == sizeof(in->hash) || n > VERITY_MAX_HASH_NAME)
		return ht_fail(err, EINVAL,
			       "hash algorithm %.*s not "
			       "supported",
			       (int)n, in->hash);
	if ((r = ht_digest_size_of(in->hash, &size, err)))
		return r;
	if (in->hash_type > 1)
		return ht_fail(err, EINVAL, "unsupported hash type %u (0 or 1)",
			       in->hash_type);
	if (!ht_block_size_valid(in->data_block_size))
		return ht_fail(err, EINVAL,
			       "unsupported data block size %u (a power of two "
			       "from 512 to 524288)",
			       in->data_block_size);
	if (!ht_block_size_valid(in->hash_block_size))
		return ht_fail(err, EINVAL,
			       "unsupported hash block size %u (a power of two "
			       "from 512 to 524288)",
			       in->hash_block_size);
	if (in->hash_offset > (uint64_t)INT64_MAX)
		return ht_fail(err, EINVAL, "hash offset %llu is too large",
			       (unsigned long long)in->hash_offset);
	if (in->salt_len > VERITY_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "salt of %zu bytes is too long (at most %d)",
			       in->salt_len, VERITY_MAX_SALT_SIZE);
	memset(out, 0, sizeof(*out));
	if (strnlen(in->uuid, sizeof(in->uuid)) == sizeof(in->uuid) ||
	    (in->uuid[0] && verity_uuid_parse(in->uuid, out->uuid)))
		return ht_fail(err, EINVAL, "invalid UUID %.*s",
			       (int)strnlen(in->uuid, sizeof(in->uuid)),
			       in->uuid);
	memcpy(out->hash_name, in->hash, n + 1);
	out->hash_type = (int)in->hash_type;
	out->data_block_size = in->data_block_size;
	out->hash_block_size = in->hash_block_size;
	out->data_blocks = in->data_blocks;
	out->hash_offset = in->hash_offset;
	memcpy(out->salt, in->salt, in->salt_len);
	out->salt_size = in->salt_len;
	out->no_superblock = !in->superblock;
	return 0;
}

void verity_show_described(struct show *sh, const struct fv_image_pair_info *pi,
			   const char *image, const struct fv_result *d)
{
	struct fv_report rep;

	verity_show_report(d, &rep);
	if (sh->json)
		verity_show_object(sh, NULL);
	else if (image)
		verity_show_textf(sh, "Sidecar tree of %s:\n", image);
	verity_show_pair_header(sh, pi->hash, pi->params, pi->params->uuid,
				&rep.layout, NULL);
	if (sh->json && image) {
		verity_show_str(sh, "data_device", image);
		verity_show_str(sh, "container", "sidecar");
	}
	if (sh->json)
		verity_show_end(sh);
}

void verity_show_made(struct show *sh, const char *device,
		      const struct fv_result *r, const char *uuid)
{
	struct fv_report rep;
	const fv_params *p = &rep.params;
	const struct fv_update_report *u = &rep.update;

	verity_show_report(r, &rep);
	if (sh->json)
		verity_show_object(sh, NULL);
	verity_show_pair_header(sh, device, p,
				!p->superblock ? ""
				: uuid         ? uuid
					       : p->uuid,
				&rep.layout, rep.root_hex);
	if (sh->json && (rep.has & FV_REPORT_UPDATE)) {
		verity_show_object(sh, "update");
		verity_show_u64(sh, "changed_blocks", u->changed_blocks);
		verity_show_u64(sh, "hash_blocks_written", u->tree_blocks);
		verity_show_u64(sh, "parity_rounds_written", u->parity_rounds);
		verity_show_bool(sh, "resumed", u->resumed);
		verity_show_end(sh);
	}
	if (sh->json)
		verity_show_end(sh);
}

int verity_show_params_init(fv_params *out, struct ht_error *err)
{
	struct verity_params q;
	uint8_t rnd[16];

	verity_params_default(&q);
	q.salt_size = 32;
	if (verity_random(q.salt, q.salt_size, err) ||
	    verity_random(rnd, sizeof(rnd), err))
		return -EIO;
	verity_uuid_random(q.uuid, rnd);
	verity_show_params(&q, out);
	return 0;
}

int verity_show_params_layout(const struct verity_params *q,
			      uint64_t *tree_offset, uint64_t *tree_blocks,
			      uint64_t *hash_bytes, struct ht_error *err)
{
	struct verity_layout l;
	int r;

	if (!q->data_blocks)
		return ht_fail(err, EINVAL,
			       "fv_params_layout: the data blocks are not set");
	if ((r = verity_layout_compute(q, &l, err)))
		return r;
	if (tree_offset)
		*tree_offset = l.tree_offset;
	if (tree_blocks)
		*tree_blocks = l.geo.tree_blocks;
	if (hash_bytes)
		*hash_bytes = l.hash_end;
	return 0;
}
