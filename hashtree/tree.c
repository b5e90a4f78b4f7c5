#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tree_internal.h"

/* Hashes the top hash block, or the only data block, as the root does. */
static int compute_root(const struct ht_geometry *g, const struct ht_hasher *h,
			const struct ht_io *io, uint8_t *root,
			struct fv_error *err)
{
	size_t size = g->levels ? g->hash_block_size : g->data_block_size;
	uint8_t *buf = malloc(size);
	int r;

	if (!buf)
		return fv_fail(err, ENOMEM, "out of memory");
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

/* Runs every level, leaves first. */
static int run_levels(const struct ht_geometry *g, const struct ht_hasher *h,
		      const struct ht_io *io, const struct ht_options *opt,
		      enum pass_mode mode, ht_report_fn report, void *rctx,
		      struct ht_verify_result *res, struct fv_error *err)
{
	static const struct ht_options defaults = {1, NULL, NULL, 0};
	uint8_t zero_digest[HT_MAX_DIGEST_SIZE];
	uint8_t *zero = calloc(1, g->data_block_size);
	uint64_t base = 0;
	int r;

	if (!opt)
		opt = &defaults;
	if (!zero)
		return fv_fail(err, ENOMEM, "out of memory");
	r = ht_hash_blocks(h, zero, g->data_block_size, 1, zero_digest,
			   HT_MAX_DIGEST_SIZE, err);
	free(zero);
	for (uint32_t level = 0; !r && level < g->levels; level++) {
		struct level_pass lp = {
			.g = g,
			.h = h,
			.io = io,
			.mode = mode,
			.level = level,
			.child_size =
				level ? g->hash_block_size : g->data_block_size,
			.child_count = level ? g->level_blocks[level - 1]
					     : g->data_blocks,
			.parents = g->level_blocks[level],
			.zero_digest = zero_digest,
			.seen = mode == PASS_BUILD && level == 0 &&
				io->data_seen,
			.report = report,
			.report_ctx = rctx,
			.opt = opt,
			.progress_base = base,
			.progress_total = total_bytes(g),
		};

		r = ht_level_run(&lp, opt->threads, err);
		base += lp.child_count * lp.child_size;
		if (res) {
			res->bad_data_blocks += lp.res.bad_data_blocks;
			res->bad_hash_blocks += lp.res.bad_hash_blocks;
			res->bad_padding += lp.res.bad_padding;
		}
	}
	return r;
}

int ht_build(const struct ht_geometry *g, const struct ht_hasher *h,
	     const struct ht_io *io, const struct ht_options *opt,
	     uint8_t *root, struct fv_error *err)
{
	int r = run_levels(g, h, io, opt, PASS_BUILD, NULL, NULL, NULL, err);

	return r ? r : compute_root(g, h, io, root, err);
}

int ht_verify(const struct ht_geometry *g, const struct ht_hasher *h,
	      const struct ht_io *io, const struct ht_options *opt,
	      const uint8_t *root, ht_report_fn report, void *report_ctx,
	      struct ht_verify_result *res, struct fv_error *err)
{
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	int r;

	memset(res, 0, sizeof(*res));
	r = run_levels(g, h, io, opt, PASS_VERIFY, report, report_ctx, res,
		       err);
	if (!r)
		r = compute_root(g, h, io, digest, err);
	if (!r)
		res->root_matches = memcmp(digest, root, h->digest_size) == 0;
	return r;
}

int ht_check_top(const struct ht_geometry *g, const struct ht_hasher *h,
		 const struct ht_io *io, const uint8_t *root, enum ht_top *top,
		 struct fv_error *err)
{
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	size_t hbs = g->hash_block_size, csize;
	uint64_t children;
	uint8_t *block, *kids = NULL;
	int r;

	*top = HT_TOP_MISMATCH;
	r = compute_root(g, h, io, digest, err);
	if (r)
		return r;
	if (!memcmp(digest, root, h->digest_size)) {
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
		return fv_fail(err, ENOMEM, "out of memory");
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
	if (!r && !memcmp(digest, root, h->digest_size))
		*top = HT_TOP_DAMAGED;
	free(block);
	free(kids);
	return r;
}
