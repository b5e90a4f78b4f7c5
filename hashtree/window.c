/* One window of one level: its child blocks read (or mapped, or known to
 * be holes), hashed into parent blocks, and written or compared. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "tree_internal.h"

static uint32_t children_of(const struct level_pass *lp, uint64_t p)
{
	uint64_t first = p << lp->g->bits;
	uint64_t left = lp->child_count - first;
	uint32_t per = ht_digests_per_block(lp->g);

	return left < per ? (uint32_t)left : per;
}

/* Of the n child blocks from c, how many to read (0: how many are holes,
 * returned as a negative count). Only level 0 has holes. */
static int64_t plan_children(struct worker *w, uint64_t c, size_t n)
{
	const struct level_pass *lp = w->lp;
	uint64_t off = c * lp->child_size, end;
	int hole;

	if (lp->level || !lp->io->data_extent)
		return (int64_t)n;
	if (off < w->extent_start || off >= w->extent_end) {
		if (lp->io->data_extent(lp->io->ctx, off, &hole, &end) ||
		    end <= off)
			return (int64_t)n;
		w->hole = hole;
		w->extent_start = off;
		w->extent_end = end;
	}
	end = w->extent_end;
	if (w->hole) {
		/* whole zero blocks inside the hole */
		uint64_t k = (end - off) / lp->child_size;

		if (k == 0)
			return (int64_t)n; /* the hole ends inside this block */
		return -(int64_t)(k < n ? k : n);
	}
	/* data: read up to the block holding the end of the extent */
	uint64_t k = (end - off + lp->child_size - 1) / lp->child_size;
	return (int64_t)(k < n ? k : n);
}

static int read_children(const struct level_pass *lp, uint64_t first, size_t n,
			 uint8_t *buf, struct fv_error *err)
{
	const struct ht_geometry *g = lp->g;

	if (lp->level == 0)
		return lp->io->read_data(lp->io->ctx,
					 first * g->data_block_size, buf,
					 n * lp->child_size, err);
	return lp->io->read_tree(lp->io->ctx,
				 (g->level_first[lp->level - 1] + first) *
					 g->hash_block_size,
				 buf, n * lp->child_size, err);
}

static void unmap_current(struct worker *w)
{
	if (w->map)
		w->lp->io->unmap_data(w->lp->io->ctx, w->map, w->map_len);
	w->map = NULL;
}

/* Data blocks [c, c + n) through a mapping of up to MAP_BYTES, not past
 * the window, that moves forward with the worker; or NULL to read them
 * instead. */
static const uint8_t *map_children(struct worker *w, uint64_t c, size_t n)
{
	const struct level_pass *lp = w->lp;
	uint64_t off = c * lp->child_size, len = n * lp->child_size;
	uint64_t end = w->window_end; /* set by ht_window_run */

	if (lp->level || !lp->io->map_data || lp->opt->no_map)
		return NULL;
	if (!w->map || off < w->map_off ||
	    off + len > w->map_off + w->map_len) {
		unmap_current(w);
		w->map_off = off;
		w->map_len =
			end - off < MAP_BYTES ? (size_t)(end - off) : MAP_BYTES;
		if (w->map_len < len)
			w->map_len = (size_t)len;
		w->map = lp->io->map_data(lp->io->ctx, w->map_off, w->map_len);
		if (!w->map)
			return NULL;
	}
	return w->map + (off - w->map_off);
}

/* The read buffer, made when first needed (mapped data needs it only
 * where a mapping fails). */
static uint8_t *chunk_of(struct worker *w)
{
	if (!w->chunk)
		w->chunk = ht_buffer_alloc(w->chunk_bytes);
	return w->chunk;
}

/* Computes parent blocks [p0, p0 + np) into w->computed, zero-padded. */
static int hash_window(struct worker *w, uint64_t p0, size_t np,
		       struct fv_error *err)
{
	const struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;

	memset(w->computed, 0, np * g->hash_block_size);
	for (size_t k = 0; k < np; k++) {
		uint64_t c = (p0 + k) << g->bits;
		uint64_t end = c + children_of(lp, p0 + k);
		uint8_t *out = w->computed + k * g->hash_block_size;

		while (c < end) {
			size_t n = end - c < w->chunk_blocks ? (size_t)(end - c)
							     : w->chunk_blocks;
			int64_t plan = plan_children(w, c, n);
			int r = 0;

			if (plan < 0) {
				n = (size_t)-plan;
				for (size_t i = 0; i < n; i++)
					memcpy(out + i * g->slot_size,
					       lp->zero_digest, g->digest_size);
			} else {
				const uint8_t *src;

				n = (size_t)plan;
				src = map_children(w, c, n);
				if (!src) {
					src = chunk_of(w);
					r = src ? read_children(lp, c, n,
								w->chunk, err)
						: fv_fail(err, ENOMEM,
							  "out of memory");
				}
				if (!r)
					r = ht_hash_blocks(
						lp->h, src, lp->child_size, n,
						out, g->slot_size, err);
				if (!r && lp->seen)
					r = lp->io->data_seen(lp->io->ctx,
							      w->index, c, src,
							      n, err);
			}
			if (r)
				return r;
			out += n * g->slot_size;
			c += n;
		}
	}
	return 0;
}

static void found(struct worker *w, enum ht_failure_kind kind, uint32_t level,
		  uint64_t block, uint32_t offset)
{
	struct ht_failure *f = &w->found[w->nfound++];

	f->kind = kind;
	f->level = level;
	f->block = block;
	f->offset = offset;
	if (kind == HT_BAD_DATA_BLOCK)
		w->res.bad_data_blocks++;
	else if (kind == HT_BAD_HASH_BLOCK)
		w->res.bad_hash_blocks++;
	else
		w->res.bad_padding++;
}

static int nonzero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 1;
	return 0;
}

/* Compares stored parent block p with the computed one: each mismatching
 * child, then the first non-zero spare area. */
static void compare_block(struct worker *w, uint64_t p, const uint8_t *stored,
			  const uint8_t *computed)
{
	const struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;
	uint32_t used = children_of(lp, p), spare = 0;
	int pad_bad = 0;

	if (memcmp(stored, computed, g->hash_block_size) == 0)
		return;
	for (uint32_t s = 0; s < used; s++) {
		const uint8_t *a = stored + (size_t)s * g->slot_size;

		if (memcmp(a, computed + (size_t)s * g->slot_size,
			   g->digest_size) != 0) {
			uint64_t child = (p << g->bits) + s;

			if (lp->level)
				found(w, HT_BAD_HASH_BLOCK, lp->level - 1,
				      g->level_first[lp->level - 1] + child, 0);
			else
				found(w, HT_BAD_DATA_BLOCK, 0, child, 0);
		}
		if (!pad_bad && nonzero(a + g->digest_size,
					g->slot_size - g->digest_size)) {
			pad_bad = 1;
			spare = s * g->slot_size + g->digest_size;
		}
	}
	if (!pad_bad &&
	    nonzero(stored + (size_t)used * g->slot_size,
		    g->hash_block_size - (size_t)used * g->slot_size)) {
		pad_bad = 1;
		spare = used * g->slot_size;
	}
	if (pad_bad)
		found(w, HT_BAD_PADDING, lp->level,
		      g->level_first[lp->level] + p, spare);
}

int ht_window_run(struct worker *w, uint64_t wi, uint64_t *bytes_out,
		  struct fv_error *err)
{
	struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;
	uint64_t p0 = wi * lp->window;
	size_t np = lp->parents - p0 < lp->window ? (size_t)(lp->parents - p0)
						  : lp->window;
	uint64_t off = (g->level_first[lp->level] + p0) * g->hash_block_size;
	uint64_t last = (p0 + np) << g->bits;
	uint64_t bytes;
	int r;

	if (last > lp->child_count)
		last = lp->child_count;
	bytes = (last - (p0 << g->bits)) * lp->child_size;
	w->window_end = last * lp->child_size;
	r = hash_window(w, p0, np, err);
	if (r)
		return r;
	if (lp->mode == PASS_BUILD) {
		r = lp->io->write_tree(lp->io->ctx, off, w->computed,
				       np * g->hash_block_size, err);
	} else {
		r = lp->io->read_tree(lp->io->ctx, off, w->stored,
				      np * g->hash_block_size, err);
		for (size_t k = 0; !r && k < np; k++)
			compare_block(w, p0 + k,
				      w->stored + k * g->hash_block_size,
				      w->computed + k * g->hash_block_size);
	}
	*bytes_out = bytes;
	return r;
}

int ht_worker_init(struct worker *w, struct level_pass *lp, unsigned index)
{
	const struct ht_geometry *g = lp->g;
	size_t wbytes = lp->window * g->hash_block_size;
	size_t max_found = (lp->window << g->bits) + lp->window;

	memset(w, 0, sizeof(*w));
	w->lp = lp;
	w->index = index;
	/* mapped data is hashed a whole mapping at a time, unless data_seen
	 * wants it while it is still in cache */
	w->chunk_blocks = (lp->level == 0 && lp->io->map_data &&
					   !lp->opt->no_map && !lp->seen
				   ? MAP_BYTES
				   : CHUNK_BYTES) /
			  lp->child_size;
	if (w->chunk_blocks == 0)
		w->chunk_blocks = 1;
	w->chunk_bytes = w->chunk_blocks * lp->child_size;
	w->window_bytes = wbytes;
	w->computed = ht_buffer_alloc(wbytes);
	if (lp->mode == PASS_VERIFY) {
		w->stored = ht_buffer_alloc(wbytes);
		w->found = malloc(max_found * sizeof(*w->found));
	}
	if (!w->computed ||
	    (lp->mode == PASS_VERIFY && (!w->stored || !w->found)))
		return -ENOMEM;
	return 0;
}

void ht_worker_free(struct worker *w)
{
	unmap_current(w);
	ht_buffer_free(w->chunk, w->chunk_bytes);
	ht_buffer_free(w->computed, w->window_bytes);
	ht_buffer_free(w->stored, w->window_bytes);
	free(w->found);
}
