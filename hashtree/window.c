/* One window of one level: its child blocks read (or mapped, or known to
 * be holes), hashed into parent blocks, and written or compared. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "proof.h"
#include "tree_internal.h"

/* Parent p of the level: how many children it has. */
static uint32_t children_of(const struct level_pass *lp, uint64_t p)
{
	return ht_children_of(lp->g, lp->level,
			      lp->g->level_first[lp->level] + p);
}

/* Of the n child blocks from c, how many to read (0: how many are in a
 * uniform run, returned as a negative count). Only level 0 has runs. */
static int64_t plan_children(struct worker *w, uint64_t c, size_t n)
{
	const struct level_pass *lp = w->lp;
	uint64_t off = c * lp->child_size, end;
	uint32_t pattern = 0;
	int hole;

	if (lp->level || !lp->io->data_extent)
		return (int64_t)n;
	if (off < w->extent_start || off >= w->extent_end) {
		if (lp->io->data_extent(lp->io->ctx, off, &hole, &pattern,
					&end) ||
		    end <= off)
			return (int64_t)n;
		/* a block starts on the run's pattern where the run does
		 * (blocks are multiples of 4 bytes): the phase at off holds
		 * for every block after it */
		w->hole = hole;
		w->pattern = hole ? pattern : 0;
		w->extent_start = off;
		w->extent_end = end;
	}
	end = w->extent_end;
	/* data_seen sees every block but zeros: a patterned run is read */
	if (w->hole && w->pattern && lp->seen)
		return (int64_t)n;
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
			 uint8_t *buf, struct ht_error *err)
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

static int bit(const uint8_t *map, uint64_t i)
{
	return map[i / 8] >> (i % 8) & 1;
}

/* Workers of one pass may set bits of one byte at once. */
static void set_bit(uint8_t *map, uint64_t i)
{
	__atomic_fetch_or(&map[i / 8], (uint8_t)(1u << (i % 8)),
			  __ATOMIC_RELAXED);
}

/* Verify: parent p of this level is not proven (its children are then
 * unchecked). */
static int parent_untrusted(const struct level_pass *lp, uint64_t p)
{
	return lp->untrusted &&
	       bit(lp->untrusted, lp->g->level_first[lp->level] + p);
}

/* Verify: n blocks that failed to read together, again one at a time;
 * each one that cannot be read (EIO) is zeros here and marked, the
 * others are read. Any other error stops the check. */
static int read_one_by_one(struct worker *w, uint64_t c, size_t n, uint8_t *buf,
			   struct ht_error *err)
{
	const struct level_pass *lp = w->lp;

	for (size_t i = 0; i < n; i++) {
		uint8_t *b = buf + i * lp->child_size;
		int r = read_children(lp, c + i, 1, b, err);

		if (r == -EIO) {
			memset(b, 0, lp->child_size);
			set_bit(w->unread_children, c + i - w->first_child);
			w->any_unread = 1;
		} else if (r) {
			return r;
		}
	}
	return 0;
}

/* The read buffer, made when first needed (mapped data needs it only
 * where a mapping fails). */
static uint8_t *chunk_of(struct worker *w)
{
	if (!w->chunk)
		w->chunk = ht_buffer_alloc(w->chunk_bytes);
	return w->chunk;
}

/* The digests of children [c, c + n) into dst, whose block k is parent
 * first_parent + k: hashed from src (n blocks of size bytes), or, with
 * src NULL, each the digest same. A parent's slots fill its block
 * when hbs / slot is their number (format 1); format 0 packs digests
 * that are not a power of two (20-byte SHA-1: 128 in the first 2560
 * bytes of a 4 KiB block), so the digests then go a parent at a time. */
static int put_digests(const struct level_pass *lp, uint8_t *dst,
		       uint64_t first_parent, uint64_t c, size_t n,
		       const uint8_t *src, size_t size, const uint8_t *same,
		       struct ht_error *err)
{
	const struct ht_geometry *g = lp->g;
	uint32_t per = ht_digests_per_block(g);
	int filled = (size_t)per * g->slot_size == g->hash_block_size;

	while (n) {
		uint64_t in = c & (per - 1);
		size_t k = filled || n < per - in ? n : (size_t)(per - in);
		uint8_t *out =
			dst +
			((c >> g->bits) - first_parent) * g->hash_block_size +
			in * g->slot_size;
		int r = 0;

		if (!src)
			for (size_t i = 0; i < k; i++)
				memcpy(out + i * g->slot_size, same,
				       g->digest_size);
		else
			r = ht_hash_blocks(lp->h, src, size, k, out,
					   g->slot_size, err);
		if (r)
			return r;
		if (src)
			src += k * size;
		c += k;
		n -= k;
	}
	return 0;
}

/* The digest of one block of the current run: a zero block's, known to
 * the pass, or that of a block of the run's pattern, hashed the first
 * time the worker meets the pattern (once per run, not per block). */
static const uint8_t *run_digest(struct worker *w, int *r, struct ht_error *err)
{
	const struct level_pass *lp = w->lp;
	uint8_t *b;

	*r = 0;
	if (!w->pattern)
		return lp->zero_digest;
	if (w->fill_known && w->fill_of == w->pattern)
		return w->fill_digest;
	if (!(b = chunk_of(w))) {
		*r = ht_fail(err, ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < lp->child_size; i += 4) {
		b[i] = (uint8_t)w->pattern;
		b[i + 1] = (uint8_t)(w->pattern >> 8);
		b[i + 2] = (uint8_t)(w->pattern >> 16);
		b[i + 3] = (uint8_t)(w->pattern >> 24);
	}
	*r = ht_hash_blocks(lp->h, b, lp->child_size, 1, w->fill_digest,
			    HT_MAX_DIGEST_SIZE, err);
	w->fill_known = !*r;
	w->fill_of = w->pattern;
	return w->fill_digest;
}

/* The children of parents [p0 + k, p0 + k2) are consecutive: hashed a
 * chunk at a time across parent boundaries, so that small blocks cost
 * one read and one call per chunk, not per parent. */
static int hash_run(struct worker *w, uint64_t p0, size_t k, size_t k2,
		    struct ht_error *err)
{
	const struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;
	uint64_t c = (p0 + k) << g->bits;
	uint64_t end =
		((p0 + k2 - 1) << g->bits) + children_of(lp, p0 + k2 - 1);

	while (c < end) {
		size_t n = end - c < w->chunk_blocks ? (size_t)(end - c)
						     : w->chunk_blocks;
		int64_t plan = plan_children(w, c, n);
		int r = 0;

		if (plan < 0) {
			const uint8_t *same = run_digest(w, &r, err);

			n = (size_t)-plan;
			if (!r)
				r = put_digests(lp, w->computed, p0, c, n, NULL,
						0, same, err);
		} else {
			const uint8_t *src;

			n = (size_t)plan;
			src = map_children(w, c, n);
			if (!src) {
				src = chunk_of(w);
				r = src ? read_children(lp, c, n, w->chunk, err)
					: ht_fail(err, ENOMEM, "out of memory");
				if (r == -EIO && lp->mode == PASS_VERIFY)
					r = read_one_by_one(w, c, n, w->chunk,
							    err);
			}
			if (!r)
				r = put_digests(lp, w->computed, p0, c, n, src,
						lp->child_size, NULL, err);
			if (!r && lp->seen)
				r = lp->io->data_seen(lp->io->ctx, w->index, c,
						      src, n, err);
		}
		if (r)
			return r;
		c += n;
	}
	return 0;
}

/* Computes parent blocks [p0, p0 + np) into w->computed, zero-padded. */
static int hash_window(struct worker *w, uint64_t p0, size_t np,
		       struct ht_error *err)
{
	const struct level_pass *lp = w->lp;
	size_t k = 0;

	memset(w->computed, 0, np * lp->g->hash_block_size);
	while (k < np) {
		size_t k2 = k;
		int r;

		/* under a block not proven nothing can be judged: not even
		 * read, unless the caller wants the suspects */
		if (parent_untrusted(lp, p0 + k) && !lp->opt->suspects) {
			k++;
			continue;
		}
		while (k2 < np &&
		       !(parent_untrusted(lp, p0 + k2) && !lp->opt->suspects))
			k2++;
		if ((r = hash_run(w, p0, k, k2, err)))
			return r;
		k = k2;
	}
	return 0;
}

static void found(struct worker *w, enum ht_failure_kind kind, uint32_t level,
		  uint64_t block, uint32_t offset, int suspect)
{
	struct ht_failure *f = &w->found[w->nfound++];

	f->kind = kind;
	f->level = level;
	f->block = block;
	f->offset = offset;
	f->suspect = suspect;
	f->digest = NULL;
	if (suspect)
		return;
	if (kind == HT_BAD_DATA_BLOCK)
		w->res.bad_data_blocks++;
	else if (kind == HT_BAD_HASH_BLOCK)
		w->res.bad_hash_blocks++;
	else if (kind == HT_BAD_PADDING)
		w->res.bad_padding++;
	else
		w->res.unreadable_blocks++;
}

/* The first non-zero spare area of tree block t (its used slots' tails,
 * then the rest), reported. */
static void check_padding(struct worker *w, uint64_t t, const uint8_t *stored)
{
	const struct level_pass *lp = w->lp;
	const struct ht_proof proof = {lp->g, NULL};
	uint32_t off;

	if (ht_prove(&proof, lp->level, t, NULL, NULL, stored, &off) ==
	    HT_PROOF_PADDING)
		found(w, HT_BAD_PADDING, lp->level, t, off, 0);
}

/* Judges the children of stored parent block p (k-th of the window)
 * against it. Under a proven parent a mismatching child is bad, and a bad
 * hash child is not proven for the level below; under a parent that is
 * not proven, the children are unchecked (and, with opt->suspects, the
 * mismatching ones reported as suspects). */
static void compare_block(struct worker *w, uint64_t p, size_t k,
			  const uint8_t *stored, const uint8_t *computed)
{
	const struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;
	/* every parent is stored here: the root is never asked (the top
	 * is judged against it before, tree.c) */
	const struct ht_proof proof = {g, NULL};
	uint64_t t = g->level_first[lp->level] + p;
	uint64_t child0 = p << g->bits;
	uint32_t used = children_of(lp, p);
	uint32_t child_level = lp->level ? lp->level - 1 : HT_DATA_LEVEL;
	int unread = w->any_unread && bit(w->unread_parents, k);
	int trusted = !bit(lp->untrusted, t) && !unread;
	enum ht_failure_kind bad_kind =
		lp->level ? HT_BAD_HASH_BLOCK : HT_BAD_DATA_BLOCK;

	/* proven a moment ago as a child, unreadable now */
	if (unread && !bit(lp->untrusted, t)) {
		found(w, HT_UNREADABLE_HASH, lp->level, t, 0, 0);
		set_bit(lp->untrusted, t);
		set_bit(lp->proven_bad, t);
	}
	if (trusted && !w->any_unread &&
	    memcmp(stored, computed, g->hash_block_size) == 0)
		return;
	for (uint32_t s = 0; s < used; s++) {
		uint64_t child = child0 + s;
		uint64_t idx = lp->level ? g->level_first[lp->level - 1] + child
					 : child;
		int differs;

		if (w->any_unread &&
		    bit(w->unread_children, child - w->first_child)) {
			found(w,
			      lp->level ? HT_UNREADABLE_HASH
					: HT_UNREADABLE_DATA,
			      lp->level ? lp->level - 1 : 0, idx, 0, 0);
			if (lp->level) {
				set_bit(lp->untrusted, idx);
				if (trusted)
					set_bit(lp->proven_bad, idx);
			}
			continue;
		}
		if (lp->children_proven)
			continue;
		differs = ht_prove(&proof, child_level, idx,
				   computed + (size_t)s * g->slot_size, stored,
				   NULL, NULL) != HT_PROOF_OK;
		if (!trusted) {
			if (lp->level) {
				w->res.unchecked_hash_blocks++;
				set_bit(lp->untrusted, idx);
			} else {
				w->res.unchecked_data_blocks++;
			}
			if (differs && lp->opt->suspects)
				found(w, bad_kind,
				      lp->level ? lp->level - 1 : 0, idx, 0, 1);
			continue;
		}
		if (!differs)
			continue;
		found(w, bad_kind, lp->level ? lp->level - 1 : 0, idx, 0, 0);
		/* (computed stays until the window's failures are reported) */
		w->found[w->nfound - 1].digest =
			computed + (size_t)s * g->slot_size;
		if (lp->level) {
			set_bit(lp->untrusted, idx);
			set_bit(lp->proven_bad, idx);
		}
	}
	/* the spare areas of a block that was judged: proven, or proven
	 * bad (its padding may say where) */
	if (!unread && (trusted || bit(lp->proven_bad, t)))
		check_padding(w, t, stored);
}

/* Verify: the np stored parents from tree offset off; those that cannot
 * be read are zeros, marked. */
static int read_parents(struct worker *w, uint64_t off, size_t np,
			struct ht_error *err)
{
	const struct level_pass *lp = w->lp;
	size_t hbs = lp->g->hash_block_size;
	int r = lp->io->read_tree(lp->io->ctx, off, w->stored, np * hbs, err);

	if (r != -EIO)
		return r;
	for (size_t k = 0; k < np; k++) {
		r = lp->io->read_tree(lp->io->ctx, off + k * hbs,
				      w->stored + k * hbs, hbs, err);
		if (r == -EIO) {
			memset(w->stored + k * hbs, 0, hbs);
			set_bit(w->unread_parents, k);
			w->any_unread = 1;
		} else if (r) {
			return r;
		}
	}
	return 0;
}

/* fuse_up: the window's np level-0 blocks, just computed, hashed into
 * their level-1 parents (the window starts on a level-1 block's first
 * child), written where level 1 is. */
static int hash_up(struct worker *w, uint64_t p0, size_t np,
		   struct ht_error *err)
{
	const struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;
	size_t hbs = g->hash_block_size;
	uint32_t per = ht_digests_per_block(g);
	size_t nq = (np + per - 1) / per;
	int r;

	memset(w->upper, 0, nq * hbs);
	r = put_digests(lp, w->upper, p0 / per, p0, np, w->computed, hbs, NULL,
			err);
	return r ? r
		 : lp->io->write_tree(lp->io->ctx,
				      (g->level_first[1] + p0 / per) * hbs,
				      w->upper, nq * hbs, err);
}

int ht_window_run(struct worker *w, uint64_t wi, uint64_t *bytes_out,
		  struct ht_error *err)
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
	w->first_child = p0 << g->bits;
	if (w->any_unread) {
		memset(w->unread_children, 0, w->unread_children_bytes);
		memset(w->unread_parents, 0, w->unread_parents_bytes);
		w->any_unread = 0;
	}
	r = hash_window(w, p0, np, err);
	if (r)
		return r;
	if (lp->mode == PASS_BUILD) {
		r = lp->io->write_tree(lp->io->ctx, off, w->computed,
				       np * g->hash_block_size, err);
		if (!r && lp->fuse_up) {
			r = hash_up(w, p0, np, err);
			bytes += np * g->hash_block_size;
		}
	} else {
		r = read_parents(w, off, np, err);
		for (size_t k = 0; !r && k < np; k++)
			compare_block(w, p0 + k, k,
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
	/* each child once, and each parent twice (unreadable, padding) */
	size_t max_found = (lp->window << g->bits) + 2 * lp->window;

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
	/* no bigger than a window's children (an upper level's few blocks
	 * need no 256 KiB buffer, mapped and populated, and unmapped) */
	if (w->chunk_blocks > ((uint64_t)lp->window << g->bits))
		w->chunk_blocks = (size_t)((uint64_t)lp->window << g->bits);
	/* a multiple of 48 (or of six when smaller): the kernels take two,
	 * three or sixteen blocks at a time, and what is left of a chunk
	 * runs narrower (a lone last block one-way) */
	if (w->chunk_blocks > 48)
		w->chunk_blocks -= w->chunk_blocks % 48;
	else if (w->chunk_blocks > 6)
		w->chunk_blocks -= w->chunk_blocks % 6;
	if (w->chunk_blocks == 0)
		w->chunk_blocks = 1;
	w->chunk_bytes = w->chunk_blocks * lp->child_size;
	w->window_bytes = wbytes;
	w->computed = ht_buffer_alloc(wbytes);
	if (lp->fuse_up) {
		w->upper_bytes = lp->window / ht_digests_per_block(g) *
				 g->hash_block_size;
		w->upper = ht_buffer_alloc(w->upper_bytes);
		if (!w->upper)
			return -ENOMEM;
	}
	if (lp->mode == PASS_VERIFY) {
		w->stored = ht_buffer_alloc(wbytes);
		w->found = malloc(max_found * sizeof(*w->found));
		w->unread_children_bytes = ((lp->window << g->bits) + 7) / 8;
		w->unread_parents_bytes = (lp->window + 7) / 8;
		w->unread_children = calloc(1, w->unread_children_bytes);
		w->unread_parents = calloc(1, w->unread_parents_bytes);
	}
	if (!w->computed || (lp->mode == PASS_VERIFY &&
			     (!w->stored || !w->found || !w->unread_children ||
			      !w->unread_parents)))
		return -ENOMEM;
	return 0;
}

void ht_worker_free(struct worker *w)
{
	unmap_current(w);
	ht_buffer_free(w->chunk, w->chunk_bytes);
	ht_buffer_free(w->computed, w->window_bytes);
	ht_buffer_free(w->stored, w->window_bytes);
	ht_buffer_free(w->upper, w->upper_bytes);
	free(w->found);
	free(w->unread_children);
	free(w->unread_parents);
}
