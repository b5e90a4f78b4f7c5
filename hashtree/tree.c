#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proof.h"
#include "tree_internal.h"

/* Hashes the top hash block, or the only data block, as the root does. */
static int compute_root(const struct ht_geometry *g, const struct ht_hasher *h,
			const struct ht_io *io, uint8_t *root,
			struct ht_error *err)
{
	size_t size = g->levels ? g->hash_block_size : g->data_block_size;
	uint8_t *buf = malloc(size);
	int r;

	if (!buf)
		return ht_fail(err, ENOMEM, "out of memory");
	if (g->levels)
		r = io->read_tree(io->ctx, g->level_first[g->levels - 1] * size,
				  buf, size, err);
	else
		r = io->read_data(io->ctx, 0, buf, size, err);
	if (!r)
		r = ht_hash_blocks(h, buf, size, 1, root, h->digest_size, err);
	free(buf);
	return r;
}

static uint64_t total_bytes(const struct ht_geometry *g)
{
	uint64_t t = g->data_blocks * g->data_block_size;

	for (uint32_t l = 1; l < g->levels; l++)
		t += g->level_blocks[l - 1] * g->hash_block_size;
	return t;
}

/* What a verify pass knows of the tree, top-down. */
struct trust {
	uint8_t *untrusted, *proven_bad; /* bits over the tree's blocks */
	int top_children_proven;
};

/* One pass over the tree, build or verify. */
struct pass {
	const struct ht_geometry *g;
	const struct ht_hasher *h;
	const struct ht_io *io;
	const struct ht_options *opt;
	enum pass_mode mode;
	uint8_t zero_digest[HT_MAX_DIGEST_SIZE];
	struct trust *tr;             /* verify */
	struct ht_verify_result *res; /* verify */
	uint64_t base;                /* bytes done, for progress */
	int leaves_only;              /* ht_build_leaves */
};

/* Runs one level: its parent blocks from its children. */
static int run_level(struct pass *ps, uint32_t level, int *fused_up,
		     struct ht_error *err)
{
	const struct ht_geometry *g = ps->g;
	struct trust *tr = ps->tr;
	struct level_pass lp = {
		.g = g,
		.h = ps->h,
		.io = ps->io,
		.mode = ps->mode,
		.level = level,
		.child_size = level ? g->hash_block_size : g->data_block_size,
		.child_count =
			level ? g->level_blocks[level - 1] : g->data_blocks,
		.parents = g->level_blocks[level],
		.zero_digest = ps->zero_digest,
		.seen = level == 0 && ps->io->data_seen,
		.untrusted = tr ? tr->untrusted : NULL,
		.proven_bad = tr ? tr->proven_bad : NULL,
		.children_proven =
			tr && tr->top_children_proven && level == g->levels - 1,
		.report = ps->opt->report,
		.report_ctx = ps->opt->report_ctx,
		.opt = ps->opt,
		.progress_base = ps->base,
		.progress_total = ps->leaves_only
					  ? g->data_blocks * g->data_block_size
					  : total_bytes(g),
		.leaves_only = ps->leaves_only,
	};
	int r = ht_level_run(&lp, ps->opt->threads, err);

	*fused_up = lp.fuse_up;
	ps->base += lp.child_count * lp.child_size;
	if (ps->res)
		ht_result_add(ps->res, &lp.res);
	return r;
}

/* Every level: leaves first for a build; top first for a check, so that
 * each level's parents are judged before their children are. */
static int run_levels(struct pass *ps, struct ht_error *err)
{
	static const struct ht_options defaults = {.threads = 1};
	const struct ht_geometry *g = ps->g;
	int r = 0;

	if (!ps->opt)
		ps->opt = &defaults;
	/* a zero block's digest, for the runs data_extent finds (none
	 * without it: one block hashed for nothing, per file of many) */
	if (ps->io->data_extent) {
		uint8_t *zero = calloc(1, g->data_block_size);

		if (!zero)
			return ht_fail(err, ENOMEM, "out of memory");
		r = ht_hash_blocks(ps->h, zero, g->data_block_size, 1,
				   ps->zero_digest, HT_MAX_DIGEST_SIZE, err);
		free(zero);
	}
	for (uint32_t i = 0; !r && i < (ps->leaves_only ? 1 : g->levels); i++) {
		int fused = 0;

		r = run_level(ps,
			      ps->mode == PASS_BUILD ? i : g->levels - 1 - i,
			      &fused, err);
		/* level 1 made with level 0 */
		if (fused) {
			ps->base += g->level_blocks[0] * g->hash_block_size;
			i++;
		}
	}
	return r;
}

int ht_build(const struct ht_geometry *g, const struct ht_hasher *h,
	     const struct ht_io *io, const struct ht_options *opt,
	     uint8_t *root, struct ht_error *err)
{
	struct pass ps = {
		.g = g, .h = h, .io = io, .opt = opt, .mode = PASS_BUILD};
	int r = run_levels(&ps, err);

	return r ? r : compute_root(g, h, io, root, err);
}

int ht_build_leaves(const struct ht_geometry *g, const struct ht_hasher *h,
		    const struct ht_io *io, const struct ht_options *opt,
		    struct ht_error *err)
{
	struct pass ps = {.g = g,
			  .h = h,
			  .io = io,
			  .opt = opt,
			  .mode = PASS_BUILD,
			  .leaves_only = 1};

	if (!g->levels)
		return ht_fail(err, EINVAL,
			       "one data block: no level to build (its digest "
			       "is the root)");
	return run_levels(&ps, err);
}

/* The top block (or the only data block) against the root, reported when
 * it fails; its trust, and whether its children are proven without it. */
static int judge_top(struct pass *ps, const uint8_t *root, struct ht_error *err)
{
	const struct ht_geometry *g = ps->g;
	struct ht_verify_result *res = ps->res;
	struct trust *tr = ps->tr;
	struct ht_failure f = {0};
	uint64_t top = g->levels ? g->level_first[g->levels - 1] : 0;
	enum ht_top verdict;
	int r = ht_check_top(g, ps->h, ps->io, root, &verdict, err);

	if (r)
		return r;
	res->root_matches =
		verdict == HT_TOP_MATCHES || verdict == HT_TOP_DAMAGED;
	if (verdict == HT_TOP_MATCHES)
		return 0;
	f.level = g->levels ? g->levels - 1 : 0;
	f.block = top;
	if (verdict == HT_TOP_UNREADABLE) {
		f.kind = g->levels ? HT_UNREADABLE_HASH : HT_UNREADABLE_DATA;
		res->unreadable_blocks++;
	} else if (g->levels) {
		f.kind = HT_BAD_HASH_BLOCK;
		res->bad_hash_blocks++;
	} else {
		f.kind = HT_BAD_DATA_BLOCK;
		res->bad_data_blocks++;
	}
	if (ps->opt && ps->opt->report)
		ps->opt->report(ps->opt->report_ctx, &f);
	if (g->levels) {
		tr->untrusted[top / 8] |= (uint8_t)(1u << (top % 8));
		tr->proven_bad[top / 8] |= (uint8_t)(1u << (top % 8));
	}
	/* the children rebuild a top that the root proves: they are right,
	 * only the top block is damaged */
	tr->top_children_proven = verdict == HT_TOP_DAMAGED;
	return 0;
}

int ht_verify(const struct ht_geometry *g, const struct ht_hasher *h,
	      const struct ht_io *io, const struct ht_options *opt,
	      const uint8_t *root, struct ht_verify_result *res,
	      struct ht_error *err)
{
	size_t bytes = (size_t)((g->tree_blocks + 7) / 8 + 1);
	struct trust tr = {calloc(1, bytes), calloc(1, bytes), 0};
	struct pass ps = {.g = g,
			  .h = h,
			  .io = io,
			  .opt = opt,
			  .mode = PASS_VERIFY,
			  .tr = &tr,
			  .res = res};
	int r;

	memset(res, 0, sizeof(*res));
	if (!tr.untrusted || !tr.proven_bad) {
		free(tr.untrusted);
		free(tr.proven_bad);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	r = judge_top(&ps, root, err);
	if (!r)
		r = run_levels(&ps, err);
	free(tr.untrusted);
	free(tr.proven_bad);
	return r;
}

/* The top (or the only data block), whose digest is d, is what root
 * says. */
static int top_matches(const struct ht_geometry *g, const uint8_t *d,
		       const uint8_t *root)
{
	const struct ht_proof proof = {g, root};
	uint32_t level = g->levels ? g->levels - 1 : HT_DATA_LEVEL;
	uint64_t top = g->levels ? g->level_first[g->levels - 1] : 0;

	return ht_prove(&proof, level, top, d, NULL, NULL, NULL) ==
	       HT_PROOF_OK;
}

int ht_check_top(const struct ht_geometry *g, const struct ht_hasher *h,
		 const struct ht_io *io, const uint8_t *root, enum ht_top *top,
		 struct ht_error *err)
{
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	size_t hbs = g->hash_block_size, csize;
	uint64_t children;
	uint8_t *block, *kids = NULL;
	int r;

	*top = HT_TOP_MISMATCH;
	r = compute_root(g, h, io, digest, err);
	if (r == -EIO) {
		*top = HT_TOP_UNREADABLE;
		return 0;
	}
	if (r)
		return r;
	if (top_matches(g, digest, root)) {
		*top = HT_TOP_MATCHES;
		return 0;
	}
	if (g->levels == 0)
		return 0; /* one data block: nothing to rebuild it from */
	/* the top block again, from its children as stored */
	children =
		g->levels > 1 ? g->level_blocks[g->levels - 2] : g->data_blocks;
	csize = g->levels > 1 ? hbs : g->data_block_size;
	block = calloc(1, hbs);
	kids = malloc(children * csize);
	if (!block || !kids) {
		free(block);
		free(kids);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	if (g->levels > 1)
		r = io->read_tree(io->ctx, g->level_first[g->levels - 2] * hbs,
				  kids, children * csize, err);
	else
		r = io->read_data(io->ctx, 0, kids, children * csize, err);
	if (!r)
		r = ht_hash_blocks(h, kids, csize, (size_t)children, block,
				   g->slot_size, err);
	if (!r)
		r = ht_hash_blocks(h, block, hbs, 1, digest, h->digest_size,
				   err);
	if (!r && top_matches(g, digest, root))
		*top = HT_TOP_DAMAGED;
	if (r == -EIO) {
		*top = HT_TOP_UNCERTAIN;
		r = 0;
	}
	free(block);
	free(kids);
	return r;
}
