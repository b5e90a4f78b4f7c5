#include "verity/api/ops.h"

#include <errno.h>
#include <string.h>

#include "verity/api/registry.h"
#include "verity/container/source.h"
#include "verity/fec/encode.h"
#include "verity/fec/layout.h"
#include "verity/fec/repair.h"
#include "verity/tree/format.h"
#include "verity/tree/superblock.h"
#include "verity/tree/verify.h"
#include "verity/policy/trust.h"

/* An operation on a pair. */
typedef int (*verity_op_fn)(struct verity_pair *pair,
			    const struct verity_run *run,
			    struct verity_outcome *out, struct ht_error *err);

/* op with the pair's regions read through what their files hold (an
 * Android sparse image's unsparsed bytes: the registry's sources). */
static int through_sources(verity_op_fn op, struct verity_pair *pair,
			   const struct verity_run *run,
			   struct verity_outcome *out, struct ht_error *err)
{
	struct verity_sources s;
	int r;

	if ((r = verity_container_sources(pair, &s, err)))
		return r;
	r = op(pair, run, out, err);
	verity_container_sources_end(pair, &s);
	return r;
}

int verity_op_format(struct verity_pair *pair, const struct verity_run *run,
		     struct verity_outcome *out, struct ht_error *err)
{
	struct verity_sources s = {0};
	int r;

	/* the data only: tree and parity are outputs, written whole; the
	 * data of sidecar files as it is */
	if (!verity_container_as_is(pair) &&
	    (r = verity_container_region_source(&pair->data, &s, err)))
		return r;
	r = verity_format(pair, run, out, err);
	verity_container_sources_end(pair, &s);
	return r;
}

int verity_op_update(struct verity_pair *pair,
		     const struct verity_range *ranges, size_t n,
		     const struct verity_run *run,
		     struct verity_update_result *res, struct ht_error *err)
{
	struct verity_sources s;
	int r;

	/* every region read through its source; a sparse image's tree is
	 * written only where its chunks store bytes */
	if ((r = verity_container_sources(pair, &s, err)))
		return r;
	r = verity_update(pair, ranges, n, run, res, err);
	verity_container_sources_end(pair, &s);
	return r;
}

/* Over an old footer, in place: when the old vbmeta is signed by the
 * run's key (nothing else vouches for the root it holds, nor so for the
 * tree blocks update would keep) and its hashtree descriptor lays out
 * the very tree this run makes (hash, block sizes, salt, the data's
 * size, tree and parity in the same places), its root, for update to
 * rewrite only what the data's change reaches (1); else 0, a full
 * format. */
static int same_tree(const struct avb_footer_opts *o,
		     const struct avb_hashtree_job *job,
		     const struct verity_pair *pair, uint8_t *root)
{
	const struct avb_image *old = &job->old;
	const struct avb_descriptor *d =
		job->have_old ? verity_avb_image_hashtree(old) : NULL;
	const struct avb_hashtree_desc *h = d ? &d->hashtree : NULL;
	uint64_t tree = pair->layout.geo.tree_blocks * o->block_size;

	if (!h || !job->old_signed || job->staged || job->sparse ||
	    o->persistent_digest || !h->p.digest_len ||
	    h->p.digest_len != job->digest_size ||
	    old->footer.original_image_size != job->original ||
	    strcmp(h->p.hash_algorithm, o->hash_algorithm) ||
	    h->dm_verity_version != 1 || h->data_block_size != o->block_size ||
	    h->hash_block_size != o->block_size ||
	    h->p.image_size != job->image_size ||
	    h->tree_offset != job->image_size || h->tree_size != tree ||
	    h->p.salt_len != job->salt_len ||
	    memcmp(h->p.salt, job->salt, job->salt_len) ||
	    h->fec_num_roots != (o->fec ? o->roots : 0) ||
	    (o->fec && h->fec_offset != job->fec_offset))
		return 0;
	memcpy(root, h->p.digest, h->p.digest_len);
	return 1;
}

int verity_op_avb_hashtree_footer(const struct avb_footer_opts *o,
				  const struct verity_run *run,
				  struct verity_outcome *out,
				  struct ht_error *err)
{
	struct avb_hashtree_job job;
	struct verity_pair pair;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	int r;

	memset(out, 0, sizeof(*out));
	/* the old footer is read by begin, before the image is touched */
	if ((r = verity_avb_hashtree_begin(o, &job, &pair, err)))
		return r;
	r = 1;
	if (same_tree(o, &job, &pair, root)) {
		struct verity_update_result u;
		struct verity_pair up = pair;

		/* the old tree proven against its root, the changed blocks
		 * given or found by that one verify, only what they reach
		 * written; an old tree that does not prove: the full
		 * format */
		memcpy(up.root, root, job.digest_size);
		up.root_size = job.digest_size;
		up.data_blocks_given = 1; /* the image's size, given */
		r = verity_update(&up, o->changed, o->nchanged, run, &u, err);
		if (!r) {
			pair.layout = up.layout;
			memcpy(out->root, u.root, job.digest_size);
			out->layout = up.layout;
		} else if (r == -EPERM) {
			r = 1;
		}
	}
	if (r == 1)
		r = verity_format(&pair, run, out, err);
	if (r) {
		verity_avb_hashtree_abort(&job);
		return r;
	}
	/* avbtool's parity under trees of other block sizes: the parity's
	 * layout is asked of verity/fec, as its pass */
	if (job.parity_apart) {
		struct verity_fec_layout fl;

		if ((r = verity_fec_layout_flat(job.fec_offset, AVB_FEC_BLOCK,
						o->roots, job.fec_offset, &fl,
						err)) ||
		    (r = verity_fec_encode_flat(&job.image, &fl,
						run->ht.threads, err))) {
			verity_avb_hashtree_abort(&job);
			return r;
		}
	}
	return verity_avb_hashtree_end(o, &job, &pair, run, out->root, err);
}

int verity_op_check_signature(const struct verity_pair *pair,
			      const struct verity_run *run,
			      struct verity_outcome *out, struct ht_error *err)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	const char *name =
		pair->signature_name ? pair->signature_name : "signature";
	int r;

	out->signature_checked = 0;
	out->trust = VERITY_TRUST_UNSIGNED;
	if (!pair->signature)
		return 0;
	/* the door's verdict, the policy asked once when the image opened
	 * (verity/policy/trust.h): never a signature nobody judged */
	if (!pair->judged)
		return ht_fail(err, EINVAL,
			       "%s: the signature was not judged by the trust "
			       "policy",
			       name);
	out->trust = pair->trust;
	if (out->trust != VERITY_TRUST_CHECK)
		return 0;
	verity_hex_encode(pair->root, pair->root_size, hex);
	r = verity_signature_check(
		&(struct verity_sig){pair->signature, pair->signature_size,
				     name},
		run->trusted, run->ntrusted, hex, &out->sig, err);
	out->signature_checked = !r;
	return r;
}

/* The signature checked, then op; the signature's verdict kept in out
 * (op starts out afresh). */
static int after_signature(verity_op_fn op, struct verity_pair *pair,
			   const struct verity_run *run,
			   struct verity_outcome *out, struct ht_error *err)
{
	struct verity_sig_check sig;
	enum verity_trust trust;
	int signed_ok, r;

	memset(out, 0, sizeof(*out));
	r = verity_op_check_signature(pair, run, out, err);
	if (r)
		return r;
	sig = out->sig;
	signed_ok = out->signature_checked;
	trust = out->trust;
	r = through_sources(op, pair, run, out, err);
	out->sig = sig;
	out->signature_checked = signed_ok;
	out->trust = trust;
	return r;
}

int verity_op_verify(struct verity_pair *pair, const struct verity_run *run,
		     struct verity_outcome *out, struct ht_error *err)
{
	struct verity_run checked = *run;

	checked.flags = VERITY_RUN_ROOT_FIRST;
	/* with parity, a dry-run repair: the same report, then what parity
	 * can do; parity that is not this image's fails the check */
	if (pair->fec.region.path)
		checked.flags |=
			VERITY_RUN_DRY_RUN | VERITY_RUN_PARITY_MUST_MATCH;
	return after_signature(pair->fec.region.path ? verity_fec_repair
						     : verity_tree_verify,
			       pair, &checked, out, err);
}

int verity_op_repair(struct verity_pair *pair, const struct verity_run *run,
		     struct verity_outcome *out, struct ht_error *err)
{
	/* (whether it may write on the signature's word was judged when
	 * the image opened) */
	return after_signature(verity_fec_repair, pair, run, out, err);
}

int verity_op_dump(struct verity_pair *pair, unsigned flags,
		   struct verity_outcome *out, struct ht_error *err)
{
	struct verity_sources s;
	int r = 0;

	memset(out, 0, sizeof(*out));
	/* every file read through its source (a sparse image's chunks, a
	 * logical partition's extents) */
	if ((r = verity_container_sources(pair, &s, err)))
		return r;
	if ((flags & VERITY_DUMP_READ_SUPERBLOCK) &&
	    !pair->params.no_superblock)
		r = verity_read_superblock(&pair->hash, &pair->params, err);
	if (!r)
		r = verity_layout_compute(&pair->params, &pair->layout, err);
	if (!r && pair->fec.region.path)
		r = verity_fec_describe(pair, err);
	if (!r)
		out->layout = pair->layout;
	verity_container_sources_end(pair, &s);
	return r;
}

/* A region read through a sparse image's chunks (its own, or those of
 * the super image it is a logical partition of). */
static int is_sparse(const struct verity_region *r)
{
	return r->extents && r->extents->unit &&
	       !strcmp(r->extents->unit, "sparse chunk");
}

int verity_op_open(const char *name, struct verity_pair *pair,
		   const struct verity_run *run, struct ht_error *err)
{
	struct verity_sources s;
	const char *sparse;
	int r;

	/* the kernel maps files' own bytes, never a sparse image's; a
	 * logical partition of a raw super image through a linear device
	 * over its extents */
	if ((r = verity_container_sources(pair, &s, err)))
		return r;
	sparse = is_sparse(&pair->data)         ? pair->data.path
		 : is_sparse(&pair->hash)       ? pair->hash.path
		 : is_sparse(&pair->fec.region) ? pair->fec.region.path
						: NULL;
	if (sparse)
		r = ht_fail(err, EINVAL,
			    "%s: an Android sparse image, which the kernel "
			    "cannot map: make a raw image first (simg2img "
			    "%s IMAGE.raw)",
			    sparse, sparse);
	else
		r = verity_open(name, pair, run, err);
	verity_container_sources_end(pair, &s);
	return r;
}
