#include "tree.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES  (256u << 10) /* one read of child blocks; fits L2 */
#define WINDOW_BYTES (256u << 10) /* most parent blocks in one window */
#define MAP_BYTES    (8u << 20)   /* one mapping of data, when mapped */
#define MAX_THREADS  256

enum pass_mode { PASS_BUILD, PASS_VERIFY };

/* One level: its parent blocks computed from its child blocks, window by
 * window. Shared by the workers; the fields below `lock` change. */
struct level_pass {
	const struct ht_geometry *g;
	const struct ht_hasher *h;
	const struct ht_io *io;
	enum pass_mode mode;
	uint32_t level;
	size_t child_size;
	uint64_t child_count;
	uint64_t parents; /* parent blocks in this level */
	size_t window;    /* parent blocks per window */
	uint64_t windows;
	const uint8_t *zero_digest; /* level 0: digest of a zero block */
	ht_report_fn report;
	void *report_ctx;
	const struct ht_options *opt;
	uint64_t progress_base, progress_total;

	atomic_uint_fast64_t next_window;
	pthread_mutex_t lock;
	pthread_cond_t turn;
	uint64_t committed; /* windows whose results are out */
	uint64_t done_bytes;
	atomic_int error;
	struct fv_error err;
	struct ht_verify_result res;
};

/* What one worker owns: buffers for one window, and what it found. */
struct worker {
	struct level_pass *lp;
	uint8_t *chunk;
	size_t chunk_blocks;
	uint8_t *computed;
	uint8_t *stored;
	struct ht_failure *found;
	size_t nfound;
	struct ht_verify_result res;
	const uint8_t *map; /* current mapping of data, if any */
	uint64_t map_off;
	size_t map_len;
	int hole;            /* cached data extent: hole or data */
	uint64_t extent_end; /* ... valid below this data offset */
	uint64_t extent_start;
};

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

/* Data blocks [c, c + n) through a mapping of up to MAP_BYTES that moves
 * forward with the worker, or NULL to read them instead. */
static const uint8_t *map_children(struct worker *w, uint64_t c, size_t n)
{
	const struct level_pass *lp = w->lp;
	uint64_t off = c * lp->child_size, len = n * lp->child_size;
	uint64_t data_end = lp->child_count * lp->child_size;

	if (lp->level || !lp->io->map_data)
		return NULL;
	if (!w->map || off < w->map_off ||
	    off + len > w->map_off + w->map_len) {
		unmap_current(w);
		w->map_off = off;
		w->map_len = data_end - off < MAP_BYTES
				     ? (size_t)(data_end - off)
				     : MAP_BYTES;
		if (w->map_len < len)
			w->map_len = (size_t)len;
		w->map = lp->io->map_data(lp->io->ctx, w->map_off, w->map_len);
		if (!w->map)
			return NULL;
	}
	return w->map + (off - w->map_off);
}

/* Computes parent blocks [p0, p0 + np) into w->computed, zero-padded. */
static int hash_window(struct worker *w, uint64_t p0, size_t np,
		       struct fv_error *err)
{
	const struct level_pass *lp = w->lp;
	const struct ht_geometry *g = lp->g;

	memset(w->computed, 0, np * g->hash_block_size);
	if (lp->level == 0 && lp->io->prefetch_data)
		lp->io->prefetch_data(
			lp->io->ctx, (p0 << g->bits) * g->data_block_size,
			((uint64_t)np << g->bits) * g->data_block_size);
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
					src = w->chunk;
					r = read_children(lp, c, n, w->chunk,
							  err);
				}
				if (!r)
					r = ht_hash_blocks(
						lp->h, src, lp->child_size, n,
						out, g->slot_size, err);
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

static void fail_pass(struct level_pass *lp, int r, const struct fv_error *err)
{
	pthread_mutex_lock(&lp->lock);
	if (!lp->error) {
		lp->error = r;
		lp->err = *err;
	}
	pthread_cond_broadcast(&lp->turn);
	pthread_mutex_unlock(&lp->lock);
}

/* Publishes window wi's results in window order, and the progress. */
static void commit_window(struct worker *w, uint64_t wi, uint64_t bytes)
{
	struct level_pass *lp = w->lp;

	pthread_mutex_lock(&lp->lock);
	while (lp->committed != wi && !lp->error)
		pthread_cond_wait(&lp->turn, &lp->lock);
	if (!lp->error) {
		for (size_t i = 0; lp->report && i < w->nfound; i++)
			lp->report(lp->report_ctx, &w->found[i]);
		lp->res.bad_data_blocks += w->res.bad_data_blocks;
		lp->res.bad_hash_blocks += w->res.bad_hash_blocks;
		lp->res.bad_padding += w->res.bad_padding;
		lp->committed++;
		lp->done_bytes += bytes;
		if (lp->opt && lp->opt->progress)
			lp->opt->progress(lp->opt->progress_ctx,
					  lp->progress_base + lp->done_bytes,
					  lp->progress_total);
		pthread_cond_broadcast(&lp->turn);
	}
	pthread_mutex_unlock(&lp->lock);
	w->nfound = 0;
	memset(&w->res, 0, sizeof(w->res));
}

static int do_window(struct worker *w, uint64_t wi, struct fv_error *err)
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
	if (!r)
		commit_window(w, wi, bytes);
	return r;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct level_pass *lp = w->lp;
	struct fv_error err;

	for (;;) {
		uint64_t wi = atomic_fetch_add(&lp->next_window, 1);
		int r;

		if (wi >= lp->windows || lp->error)
			break;
		r = do_window(w, wi, &err);
		if (r) {
			fail_pass(lp, r, &err);
			break;
		}
	}
	return NULL;
}

static int worker_init(struct worker *w, struct level_pass *lp)
{
	const struct ht_geometry *g = lp->g;
	size_t wbytes = lp->window * g->hash_block_size;
	size_t max_found = (lp->window << g->bits) + lp->window;

	memset(w, 0, sizeof(*w));
	w->lp = lp;
	w->chunk_blocks =
		(lp->level == 0 && lp->io->map_data ? MAP_BYTES : CHUNK_BYTES) /
		lp->child_size;
	if (w->chunk_blocks == 0)
		w->chunk_blocks = 1;
	w->chunk = malloc(w->chunk_blocks * lp->child_size);
	w->computed = malloc(wbytes);
	if (lp->mode == PASS_VERIFY) {
		w->stored = malloc(wbytes);
		w->found = malloc(max_found * sizeof(*w->found));
	}
	if (!w->chunk || !w->computed ||
	    (lp->mode == PASS_VERIFY && (!w->stored || !w->found)))
		return -ENOMEM;
	return 0;
}

static void worker_free(struct worker *w)
{
	unmap_current(w);
	free(w->chunk);
	free(w->computed);
	free(w->stored);
	free(w->found);
}

/* Splits the level into windows so that every thread gets several. */
static void plan_windows(struct level_pass *lp, unsigned threads)
{
	size_t max = WINDOW_BYTES / lp->g->hash_block_size;
	uint64_t want = lp->parents / ((uint64_t)threads * 16);

	if (max == 0)
		max = 1;
	lp->window = want < 1 ? 1 : want > max ? max : (size_t)want;
	lp->windows = (lp->parents + lp->window - 1) / lp->window;
}

static int run_level(struct level_pass *lp, unsigned threads,
		     struct fv_error *err)
{
	struct worker workers[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	unsigned n, started = 0;
	int r = 0;

	if (threads < 1)
		threads = 1;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	plan_windows(lp, threads);
	n = lp->windows < threads ? (unsigned)lp->windows : threads;
	atomic_init(&lp->next_window, 0);
	pthread_mutex_init(&lp->lock, NULL);
	pthread_cond_init(&lp->turn, NULL);
	lp->committed = 0;
	lp->done_bytes = 0;
	atomic_init(&lp->error, 0);
	memset(&lp->res, 0, sizeof(lp->res));

	for (unsigned i = 0; i < n && !r; i++) {
		r = worker_init(&workers[i], lp);
		started = i + 1;
		if (r)
			fv_fail(err, ENOMEM, "out of memory");
	}
	if (!r) {
		unsigned spawned = 1;

		/* workers[0] runs on this thread */
		for (unsigned i = 1; i < n; i++) {
			if (pthread_create(&tids[i], NULL, worker_main,
					   &workers[i]))
				break;
			spawned++;
		}
		worker_main(&workers[0]);
		for (unsigned i = 1; i < spawned; i++)
			pthread_join(tids[i], NULL);
		if (lp->error) {
			r = lp->error;
			*err = lp->err;
		}
	}
	for (unsigned i = 0; i < started; i++)
		worker_free(&workers[i]);
	pthread_cond_destroy(&lp->turn);
	pthread_mutex_destroy(&lp->lock);
	return r;
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
	static const struct ht_options defaults = {1, NULL, NULL};
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
			.report = report,
			.report_ctx = rctx,
			.opt = opt,
			.progress_base = base,
			.progress_total = total_bytes(g),
		};

		r = run_level(&lp, opt->threads, err);
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
