/* A pair as the door's actions hold it (verity/pairs/held.h). */
#include "verity/pairs/held.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/container/sidecar.h"
#include "hashtree/hasher.h"
#include "verity/fec/rs.h"
#include "verity/files/files.h"
#include "verity/ops/ops.h"
#include "verity/sign/signature.h"
#include "verity/storage/backing.h"
#include "verity/tree/params.h"

int verity_held_string(char **dst, const char *s, struct ht_error *err)
{
	char *c = NULL;

	if (s && !(c = strdup(s)))
		return ht_fail(err, ENOMEM, "out of memory");
	free(*dst);
	*dst = c;
	return 0;
}

int verity_held_new(const char *data, const char *hash,
		    struct verity_held **out, struct ht_error *err)
{
	struct verity_held *pr;
	uint8_t rnd[16];

	*out = NULL;
	if (!(pr = calloc(1, sizeof(*pr))))
		return ht_fail(err, ENOMEM, "out of memory");
	/* the defaults, with a salt and a UUID of their own */
	verity_params_default(&pr->params);
	pr->params.salt_size = 32;
	if (verity_random(pr->params.salt, pr->params.salt_size, err) ||
	    verity_random(rnd, sizeof(rnd), err)) {
		free(pr);
		return -EIO;
	}
	verity_uuid_random(pr->params.uuid, rnd);
	if (verity_held_string(&pr->data, data, err) ||
	    verity_held_string(&pr->hash, hash, err)) {
		verity_held_free(pr);
		return -ENOMEM;
	}
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	*out = pr;
	return 0;
}

void verity_held_free(struct verity_held *pr)
{
	if (!pr)
		return;
	free(pr->data);
	free(pr->hash);
	free(pr->fec);
	free(pr->signature_name);
	free(pr->signature);
	free(pr->image);
	if (pr->src) {
		verity_extents_free(pr->src);
		free(pr->src);
	}
	free(pr);
}

void verity_held_set_params(struct verity_held *pr,
			    const struct verity_params *p)
{
	pr->params = *p;
	pr->pair.data_blocks_given = p->data_blocks != 0;
}

int verity_held_read_superblock(struct verity_held *pr, uint64_t hash_offset,
				int update, struct ht_error *err)
{
	struct verity_params p;
	int r;

	if ((r = verity_files_superblock_read(&pr->pair, hash_offset, update,
					      &p, err)))
		return r;
	pr->params = p;
	pr->pair.data_blocks_given = 0;
	return 0;
}

int verity_held_set_root(struct verity_held *pr, const uint8_t *root,
			 size_t len, struct ht_error *err)
{
	if (!len || len > HT_MAX_DIGEST_SIZE)
		return ht_fail(err, EINVAL,
			       "a root hash of %zu bytes (1 to %d)", len,
			       HT_MAX_DIGEST_SIZE);
	memcpy(pr->pair.root, root, len);
	pr->pair.root_size = len;
	verity_hex_encode(root, len, pr->root_hex);
	return 0;
}

int verity_held_set_root_hex(struct verity_held *pr, const char *hex,
			     struct ht_error *err)
{
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t len;

	if (verity_hex_decode(hex, root, sizeof(root), &len) || !len)
		return ht_fail(err, EINVAL,
			       "invalid root hash %s (hex digits, at most %d)",
			       hex, 2 * HT_MAX_DIGEST_SIZE);
	return verity_held_set_root(pr, root, len, err);
}

int verity_held_set_fec(struct verity_held *pr, const char *path,
			uint64_t offset, unsigned roots, struct ht_error *err)
{
	if (path && roots && (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS))
		return ht_fail(err, EINVAL, "%u FEC roots (%d to %d)", roots,
			       FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (verity_held_string(&pr->fec, path, err))
		return -ENOMEM;
	pr->pair.fec =
		(struct verity_fec_params){{pr->fec, 0, 0, NULL}, 0, 0, 0};
	if (path) {
		pr->pair.fec.offset = offset;
		pr->pair.fec.roots = roots;
	}
	return 0;
}

int verity_held_set_signature(struct verity_held *pr, const uint8_t *der,
			      size_t len, const char *name,
			      struct ht_error *err)
{
	uint8_t *copy = NULL;

	if (der && !len)
		return ht_fail(err, EINVAL, "a signature of 0 bytes");
	if (der && !(copy = malloc(len)))
		return ht_fail(err, ENOMEM, "out of memory");
	if (der)
		memcpy(copy, der, len);
	if (verity_held_string(&pr->signature_name, der ? name : NULL, err)) {
		free(copy);
		return -ENOMEM;
	}
	free(pr->signature);
	pr->signature = copy;
	pr->pair.signature = copy;
	pr->pair.signature_size = der ? len : 0;
	pr->pair.signature_name = pr->signature_name;
	pr->pair.signature_found = 0; /* given to be checked */
	return 0;
}

int verity_held_copy(const struct verity_held *src, struct verity_held **out,
		     struct ht_error *err)
{
	struct verity_held *pr;
	int r;

	if ((r = verity_held_new(src->data, src->hash, &pr, err)))
		return r;
	pr->pair = src->pair;
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	pr->params = src->params;
	memcpy(pr->root_hex, src->root_hex, sizeof(pr->root_hex));
	r = verity_held_string(&pr->fec, src->fec, err);
	pr->pair.fec.region.path = pr->fec;
	if (!r && src->signature) {
		r = verity_held_set_signature(pr, src->signature,
					      src->pair.signature_size,
					      src->signature_name, err);
		pr->pair.signature_found = src->pair.signature_found;
	}
	if (r) {
		verity_held_free(pr);
		return r;
	}
	*out = pr;
	return 0;
}

int verity_held_of_image(const struct verity_pair *src,
			 const struct verity_held_image *img,
			 struct verity_held **out, struct ht_error *err)
{
	struct verity_held *pr;
	int r;

	if ((r = verity_held_new(src->data.path, src->hash.path, &pr, err)))
		return r;
	/* the regions as the container placed them, with the paths kept */
	pr->pair = *src;
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	pr->params = src->params;
	r = verity_held_string(&pr->fec, src->fec.region.path, err);
	pr->pair.fec.region.path = pr->fec;
	if (!r && src->signature) {
		r = verity_held_set_signature(pr, src->signature,
					      src->signature_size,
					      src->signature_name, err);
		pr->pair.signature_found = src->signature_found;
	}
	if (!r)
		r = verity_held_string(&pr->image, img->path, err);
	if (r) {
		verity_held_free(pr);
		return r;
	}
	if (src->root_size)
		verity_hex_encode(src->root, src->root_size, pr->root_hex);
	pr->of_image = 1;
	/* the container lays out the data region and its blocks */
	pr->pair.data_blocks_given = 1;
	/* a super image's pair is its logical partition's, an Android
	 * image's */
	pr->pair.container = img->kind == VERITY_CONTAINER_SUPER
				     ? VERITY_CONTAINER_AVB
				     : img->kind;
	pr->opened = img->trust;
	pr->writes = img->writes;
	if (img->ddi) {
		snprintf(pr->fingerprint, sizeof(pr->fingerprint), "%s",
			 img->ddi->fingerprint);
		pr->fingerprint_at = img->ddi->sig ? img->ddi->sig->index : 0;
	}
	/* the image's own verdict, for the check's policy */
	pr->pair.signature_found = img->from == VERITY_SIGNATURE_FOUND;
	*out = pr;
	return 0;
}

int verity_held_sidecar(const char *image, struct verity_held **out,
			struct ht_error *err)
{
	struct verity_sidecar side;
	struct verity_pair sp;
	const char *sig_path = NULL;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	struct verity_held *pr;
	int r;

	*out = NULL;
	if ((r = verity_sidecar_names(image, &side, err)))
		return r;
	memset(&sp, 0, sizeof(sp));
	verity_sidecar_pair(&side, image, &sp, &sig_path);
	if ((r = verity_held_new(image, side.tree, &pr, err))) {
		verity_sidecar_free(&side);
		return r;
	}
	if (sp.fec.region.path)
		r = verity_held_set_fec(pr, sp.fec.region.path, 0, 0, err);
	if (!r && access(side.roothash, F_OK) == 0 &&
	    !(r = verity_files_root_read(side.roothash, hex, sizeof(hex), err)))
		r = verity_held_set_root_hex(pr, hex, err);
	if (!r && sig_path) {
		uint8_t *der;
		size_t len;

		if (!(r = verity_read_signature(sig_path, &der, &len, err))) {
			r = verity_held_set_signature(pr, der, len, sig_path,
						      err);
			free(der);
			pr->pair.signature_found = 1;
		}
	}
	verity_sidecar_free(&side);
	if (r) {
		verity_held_free(pr);
		return r;
	}
	pr->pair.container = VERITY_CONTAINER_SIDECAR;
	*out = pr;
	return 0;
}

int verity_held_open_root(struct verity_held *pr, const char *hex,
			  const char *path, struct ht_error *err)
{
	char text[2 * HT_MAX_DIGEST_SIZE + 8];
	size_t size = ht_digest_size(pr->params.hash_name);
	int r;

	if (hex && path)
		return ht_fail(
			err, EINVAL,
			"the root hash given as text and in %s: give one",
			path);
	if (path && (r = verity_files_root_read(path, text, sizeof(text), err)))
		return r;
	if (path)
		hex = text;
	if (!hex)
		return 0;
	if (strlen(hex) != 2 * size ||
	    strspn(hex, "0123456789abcdefABCDEF") != 2 * size) {
		if (path)
			return ht_fail_fix(err, EINVAL, HT_PARAM_ROOT_HASH,
					   2 * size, 0,
					   "expected %2 hex digits",
					   "%s: invalid root hash string "
					   "specified",
					   path);
		return ht_fail_fix(err, EINVAL, HT_PARAM_ROOT_HASH, 2 * size, 0,
				   "expected %2 hex digits",
				   "invalid root hash string specified: '%s'",
				   hex);
	}
	return verity_held_set_root_hex(pr, hex, err);
}

int verity_held_request(struct verity_held *pr,
			const struct verity_held_request *q,
			struct ht_error *err)
{
	const char *fec = q->fec_path ? q->fec_path : pr->fec;
	int r = 0;

	if (q->params)
		verity_held_set_params(pr, q->params);
	else if ((r = verity_held_read_superblock(pr, q->hash_offset, q->update,
						  err)))
		return r;
	if (q->update && !q->params && q->data_blocks) {
		/* the tree's own count, said again, lets the data device
		 * hold more (a tree's size is fixed) */
		if (q->data_blocks != pr->params.data_blocks)
			return ht_fail(err, EINVAL,
				       "%s: %" PRIu64 " data blocks given, but "
				       "the tree covers %" PRIu64 " (its "
				       "superblock's count): a tree's size is "
				       "fixed, format again for another",
				       pr->hash, q->data_blocks,
				       pr->params.data_blocks);
		pr->pair.data_blocks_given = 1;
	}
	if (q->sidecar)
		pr->pair.container = VERITY_CONTAINER_SIDECAR;
	/* the parity given, or a sidecar image's own with the roots and
	 * offset given */
	if (fec) {
		char *path = strdup(fec);

		r = path ? verity_held_set_fec(pr, path, q->fec_offset,
					       q->fec_roots, err)
			 : ht_fail(err, ENOMEM, "out of memory");
		free(path);
		if (r)
			return r;
	}
	if (q->signature_path) {
		uint8_t *der;
		size_t len;

		if ((r = verity_read_signature(q->signature_path, &der, &len,
					       err)))
			return r;
		r = verity_held_set_signature(pr, der, len, q->signature_path,
					      err);
		free(der);
		pr->pair.signature_found = 0;
		if (r)
			return r;
	}
	if (q->root_needed && !q->root_hex && !q->root_hash_file)
		return ht_fail(err, EINVAL, "%s: no root hash to update from",
			       pr->hash);
	return verity_held_open_root(pr, q->root_hex, q->root_hash_file, err);
}

void verity_held_take(const struct verity_held *pr, struct verity_pair *pair)
{
	*pair = pr->pair;
	pair->params = pr->params;
}

int verity_held_format(struct verity_held *pr, const struct verity_run *run,
		       struct verity_outcome *out, struct ht_error *err)
{
	struct verity_pair pair;
	struct ht_error quiet;
	int r;

	verity_held_take(pr, &pair);
	pair.signature = NULL;
	if ((r = verity_op_format(&pair, run, out, err)))
		return r;
	pr->params.data_blocks = pair.params.data_blocks;
	verity_held_set_root(pr, out->root, out->layout.geo.digest_size,
			     &quiet);
	return 0;
}

int verity_held_update(struct verity_held *pr, const uint64_t *ranges, size_t n,
		       const struct verity_run *run,
		       struct verity_update_result *u,
		       struct verity_layout *layout, struct ht_error *err)
{
	struct verity_range *rv = NULL;
	struct verity_pair pair;
	struct ht_error quiet;
	int r;

	if (ranges && n && !(rv = calloc(n, sizeof(*rv))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; rv && i < n; i++)
		rv[i] = (struct verity_range){ranges[2 * i], ranges[2 * i + 1]};
	verity_held_take(pr, &pair);
	pair.signature = NULL;
	/* (ranges given with n 0: nothing changed) */
	r = verity_op_update(&pair,
			     !ranges ? NULL
			     : rv    ? rv
				     : &(struct verity_range){0, 0},
			     ranges ? n : 0, run, u, err);
	free(rv);
	if (r)
		return r;
	verity_held_set_root(pr, u->root, pair.layout.geo.digest_size, &quiet);
	*layout = pair.layout;
	return 0;
}

int verity_held_check(const struct verity_held *pr,
		      const struct verity_run *run, int repair,
		      struct verity_outcome *out, struct ht_error *err)
{
	struct verity_pair pair;
	int r;

	if (!pr->pair.root_size)
		return ht_fail(err, EINVAL,
			       "%s: no root hash to check against (the open "
			       "request's root_hex or root_hash_file)",
			       pr->data);
	/* the verdict is the open's: a write on its word needs an open
	 * that judged writing */
	if (pr->of_image && repair && !(run->flags & VERITY_RUN_DRY_RUN) &&
	    !pr->writes)
		return ht_fail(err, EINVAL,
			       "%s: opened to be read: a repair writes only to "
			       "an image opened to be written (the open "
			       "request's writes)",
			       pr->image ? pr->image : pr->data);
	if (repair && !pr->pair.fec.region.path)
		return ht_fail(err, EINVAL,
			       "%s: repair needs FEC parity (the open "
			       "request's fec_path)",
			       pr->data);
	verity_held_take(pr, &pair);
	r = repair ? verity_op_repair(&pair, run, out, err)
		   : verity_op_verify(&pair, run, out, err);
	if (r)
		return r;
	if (pr->fingerprint[0] && out->signature_checked &&
	    strcmp(pr->fingerprint, out->sig.fingerprint))
		return ht_fail(err, EINVAL,
			       "%s: partition %u: certificateFingerprint %s is "
			       "not the signer's (%s)",
			       pr->image, pr->fingerprint_at, pr->fingerprint,
			       out->sig.fingerprint);
	if (pr->pair.container == VERITY_CONTAINER_AVB)
		out->trust = pr->opened; /* the vbmeta's, judged when opened */
	return 0;
}
