#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (1u << 20)	/* one sequential read of child blocks */
#define WINDOW_BYTES (256u << 10) /* parent blocks hashed before a write */

/* One level being computed: its parent blocks from its child blocks. */
struct level_pass {
	const struct ht_geometry *g;
	const struct ht_hasher *h;
	const struct ht_io *io;
	uint32_t level;
	size_t child_size;
	uint64_t child_count;
	uint8_t *chunk;
	size_t chunk_blocks;
};

static int read_children(const struct level_pass *lp, uint64_t first,
			 size_t n, struct fv_error *err)
{
	const struct ht_geometry *g = lp->g;

	if (lp->level == 0)
		return lp->io->read_data(lp->io->ctx, first * g->data_block_size,
					 lp->chunk, n * lp->child_size, err);
	return lp->io->read_tree(
		lp->io->ctx,
		(g->level_first[lp->level - 1] + first) * g->hash_block_size,
		lp->chunk, n * lp->child_size, err);
}

/* Number of children stored in parent block p of this level. */
static uint32_t children_of(const struct level_pass *lp, uint64_t p)
{
	uint64_t first = p << lp->g->bits;
	uint64_t left = lp->child_count - first;
	uint32_t per = ht_digests_per_block(lp->g);

	return left < per ? (uint32_t)left : per;
}

/* Computes parent blocks [p0, p0 + np) into window, zero-padded. */
static int hash_window(const struct level_pass *lp, uint64_t p0, size_t np,
		       uint8_t *window, struct fv_error *err)
{
	const struct ht_geometry *g = lp->g;

	memset(window, 0, np * g->hash_block_size);
	for (size_t k = 0; k < np; k++) {
		uint64_t c = (p0 + k) << g->bits;
		uint64_t end = c + children_of(lp, p0 + k);
		uint8_t *out = window + k * g->hash_block_size;

		while (c < end) {
			size_t n = end - c < lp->chunk_blocks
					   ? (size_t)(end - c)
					   : lp->chunk_blocks;
			int r = read_children(lp, c, n, err);

			if (!r)
				r = ht_hash_blocks(lp->h, lp->chunk,
						   lp->child_size, n, out,
						   g->slot_size, err);
			if (r)
				return r;
			out += n * g->slot_size;
			c += n;
		}
	}
	return 0;
}

static int pass_init(struct level_pass *lp, const struct ht_geometry *g,
		     const struct ht_hasher *h, const struct ht_io *io,
		     uint32_t level, struct fv_error *err)
{
	lp->g = g;
	lp->h = h;
	lp->io = io;
	lp->level = level;
	lp->child_size = level ? g->hash_block_size : g->data_block_size;
	lp->child_count = level ? g->level_blocks[level - 1] : g->data_blocks;
	lp->chunk_blocks = CHUNK_BYTES / lp->child_size;
	if (lp->chunk_blocks == 0)
		lp->chunk_blocks = 1;
	lp->chunk = malloc(lp->chunk_blocks * lp->child_size);
	return lp->chunk ? 0 : fv_fail(err, ENOMEM, "out of memory");
}

static size_t window_blocks(const struct ht_geometry *g)
{
	size_t w = WINDOW_BYTES / g->hash_block_size;

	return w ? w : 1;
}

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
		r = io->read_tree(io->ctx,
				  g->level_first[g->levels - 1] * size, buf,
				  size, err);
	else
		r = io->read_data(io->ctx, 0, buf, size, err);
	if (!r)
		r = ht_hash_blocks(h, buf, size, 1, root, h->digest_size, err);
	free(buf);
	return r;
}

int ht_build(const struct ht_geometry *g, const struct ht_hasher *h,
	     const struct ht_io *io, uint8_t *root, struct fv_error *err)
{
	size_t wb = window_blocks(g);
	uint8_t *window = malloc(wb * g->hash_block_size);
	int r = window ? 0 : fv_fail(err, ENOMEM, "out of memory");

	for (uint32_t level = 0; !r && level < g->levels; level++) {
		struct level_pass lp;
		uint64_t total = g->level_blocks[level];

		r = pass_init(&lp, g, h, io, level, err);
		for (uint64_t p0 = 0; !r && p0 < total; p0 += wb) {
			size_t np = total - p0 < wb ? (size_t)(total - p0) : wb;

			r = hash_window(&lp, p0, np, window, err);
			if (!r)
				r = io->write_tree(
					io->ctx,
					(g->level_first[level] + p0) *
						g->hash_block_size,
					window, np * g->hash_block_size, err);
		}
		free(lp.chunk);
	}
	free(window);
	return r ? r : compute_root(g, h, io, root, err);
}

static int nonzero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 1;
	return 0;
}

/* Compares one stored parent block with the computed one; reports each
 * mismatching child and the first non-zero spare area. */
static void compare_block(const struct level_pass *lp, uint64_t p,
			  const uint8_t *stored, const uint8_t *computed,
			  ht_report_fn report, void *rctx,
			  struct ht_verify_result *res)
{
	const struct ht_geometry *g = lp->g;
	uint32_t used = children_of(lp, p), spare = 0;
	struct ht_failure f;
	int pad_bad = 0;

	if (memcmp(stored, computed, g->hash_block_size) == 0)
		return;
	for (uint32_t s = 0; s < used; s++) {
		const uint8_t *a = stored + (size_t)s * g->slot_size;

		if (memcmp(a, computed + (size_t)s * g->slot_size,
			   g->digest_size) != 0) {
			f.kind = lp->level ? HT_BAD_HASH_BLOCK : HT_BAD_DATA_BLOCK;
			f.level = lp->level ? lp->level - 1 : 0;
			f.block = (p << g->bits) + s;
			if (lp->level)
				f.block += g->level_first[lp->level - 1];
			f.offset = 0;
			if (lp->level)
				res->bad_hash_blocks++;
			else
				res->bad_data_blocks++;
			if (report)
				report(rctx, &f);
		}
		if (!pad_bad && nonzero(a + g->digest_size,
					g->slot_size - g->digest_size)) {
			pad_bad = 1;
			spare = s * g->slot_size + g->digest_size;
		}
	}
	if (!pad_bad && nonzero(stored + (size_t)used * g->slot_size,
				g->hash_block_size - (size_t)used * g->slot_size)) {
		pad_bad = 1;
		spare = used * g->slot_size;
	}
	if (pad_bad) {
		f.kind = HT_BAD_PADDING;
		f.level = lp->level;
		f.block = g->level_first[lp->level] + p;
		f.offset = spare;
		res->bad_padding++;
		if (report)
			report(rctx, &f);
	}
}

int ht_verify(const struct ht_geometry *g, const struct ht_hasher *h,
	      const struct ht_io *io, const uint8_t *root, ht_report_fn report,
	      void *report_ctx, struct ht_verify_result *res,
	      struct fv_error *err)
{
	size_t wb = window_blocks(g);
	uint8_t *window = malloc(2 * wb * g->hash_block_size);
	uint8_t *stored = window + wb * g->hash_block_size;
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	int r = window ? 0 : fv_fail(err, ENOMEM, "out of memory");

	memset(res, 0, sizeof(*res));
	for (uint32_t level = 0; !r && level < g->levels; level++) {
		struct level_pass lp;
		uint64_t total = g->level_blocks[level];

		r = pass_init(&lp, g, h, io, level, err);
		for (uint64_t p0 = 0; !r && p0 < total; p0 += wb) {
			size_t np = total - p0 < wb ? (size_t)(total - p0) : wb;

			r = hash_window(&lp, p0, np, window, err);
			if (!r)
				r = io->read_tree(
					io->ctx,
					(g->level_first[level] + p0) *
						g->hash_block_size,
					stored, np * g->hash_block_size, err);
			for (size_t k = 0; !r && k < np; k++)
				compare_block(&lp, p0 + k,
					      stored + k * g->hash_block_size,
					      window + k * g->hash_block_size,
					      report, report_ctx, res);
		}
		free(lp.chunk);
	}
	free(window);
	if (!r)
		r = compute_root(g, h, io, digest, err);
	if (!r)
		res->root_matches = memcmp(digest, root, h->digest_size) == 0;
	return r;
}
