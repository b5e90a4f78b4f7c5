/* Workers over the windows of a level, and the one place that orders
 * them: windows are handed out in order (next_window), each is computed by
 * window.c without regard to the others, then committed here: failures
 * are published in window order, so the output does not depend on the
 * number of threads. No lock in the per-block loop. */
#include <errno.h>
#include <string.h>

#include "thread.h"
#include "tree_internal.h"

static void fail_pass(struct level_pass *lp, int r, const struct ht_error *err)
{
	pthread_mutex_lock(&lp->lock);
	if (!lp->error) {
		lp->error = r;
		lp->err = *err;
	}
	pthread_cond_broadcast(&lp->turn);
	pthread_mutex_unlock(&lp->lock);
}

/* Publishes window wi's results and the progress. Failures come out in
 * window order: a window that found some waits until every window before
 * it is done. A window that found none only marks itself done, so that
 * workers do not wait for each other in the common case (unless a window
 * lags DONE_RING windows behind). */
static void window_commit(struct worker *w, uint64_t wi, uint64_t bytes)
{
	struct level_pass *lp = w->lp;
	uint64_t ahead = lp->leaves_only ? LEAVES_AHEAD : DONE_RING;

	pthread_mutex_lock(&lp->lock);
	while ((w->nfound || wi - lp->committed >= ahead) &&
	       lp->committed != wi && !lp->error)
		pthread_cond_wait(&lp->turn, &lp->lock);
	if (!lp->error) {
		for (size_t i = 0; lp->report && i < w->nfound; i++)
			lp->report(lp->report_ctx, &w->found[i]);
		ht_result_add(&lp->res, &w->res);
		lp->done[wi % DONE_RING] = 1;
		while (lp->done[lp->committed % DONE_RING]) {
			lp->done[lp->committed % DONE_RING] = 0;
			lp->committed++;
		}
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

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct level_pass *lp = w->lp;
	struct ht_error err;

	for (;;) {
		uint64_t wi = atomic_fetch_add(&lp->next_window, 1), bytes = 0;
		int r;

		if (wi >= lp->windows || lp->error)
			break;
		r = ht_window_run(w, wi, &bytes, &err);
		if (r) {
			fail_pass(lp, r, &err);
			break;
		}
		window_commit(w, wi, bytes);
	}
	return NULL;
}

/* Level 0 with io->prefetch: asks for the data ahead of the workers, at
 * most PREFETCH_AHEAD past the windows handed out, skipping holes, so
 * that reads from a cold disk overlap the hashing instead of taking
 * turns with it. Sleeps on `turn` (every commit wakes it) when far
 * enough ahead. */
static void *prefetch_main(void *arg)
{
	struct level_pass *lp = arg;
	const struct ht_io *io = lp->io;
	uint64_t per = (uint64_t)lp->window * ht_digests_per_block(lp->g) *
		       lp->child_size;
	uint64_t end = lp->child_count * lp->child_size, pos = 0;
	/* the data extent or hole from a past pos to ext_end, asked once
	 * per extent (a file system may walk the whole file to answer
	 * SEEK_HOLE); pos only grows */
	uint64_t ext_end = 0;
	int hole = 0;
	uint32_t pattern = 0;

	pthread_mutex_lock(&lp->lock);
	while (pos < end && !lp->prefetch_stop && !lp->error) {
		uint64_t handed = atomic_load(&lp->next_window) * per, stop;

		if (handed > pos)
			pos = handed; /* the workers read those already */
		if (pos >= end)
			break;
		if (pos >= handed + PREFETCH_AHEAD) {
			pthread_cond_wait(&lp->turn, &lp->lock);
			continue;
		}
		pthread_mutex_unlock(&lp->lock);
		if (pos >= ext_end &&
		    (!io->data_extent ||
		     io->data_extent(io->ctx, pos, &hole, &pattern, &ext_end) ||
		     ext_end <= pos)) {
			hole = 0; /* no answer: read it */
			ext_end = end;
		}
		stop = ext_end < end ? ext_end : end;
		/* a hole is skipped whole, data asked for a step at a time */
		if (!hole && stop - pos > PREFETCH_STEP)
			stop = pos + PREFETCH_STEP;
		if (!hole)
			io->prefetch(io->ctx, pos, stop - pos);
		pthread_mutex_lock(&lp->lock);
		pos = stop;
	}
	pthread_mutex_unlock(&lp->lock);
	return NULL;
}

/* Splits the level into windows of about WINDOW_CHILD_BYTES of children
 * and at most WINDOW_BYTES of parents, so that every thread gets several. */
static void plan_windows(struct level_pass *lp, unsigned threads)
{
	uint64_t covers =
		(uint64_t)ht_digests_per_block(lp->g) * lp->child_size;
	uint64_t max = WINDOW_BYTES / lp->g->hash_block_size;
	uint64_t want = lp->parents / ((uint64_t)threads * 16);

	if (max > WINDOW_CHILD_BYTES / covers)
		max = WINDOW_CHILD_BYTES / covers;
	if (want > max)
		want = max;
	lp->window = want < 1 ? 1 : (size_t)want;
	lp->windows = (lp->parents + lp->window - 1) / lp->window;
}

int ht_level_run(struct level_pass *lp, unsigned threads, struct ht_error *err)
{
	struct worker workers[HT_MAX_THREADS];
	unsigned n, started = 0;
	int r = 0;

	if (threads < 1)
		threads = 1;
	if (threads > HT_MAX_THREADS)
		threads = HT_MAX_THREADS;
	plan_windows(lp, threads);
	lp->fuse_up = lp->mode == PASS_BUILD && lp->level == 0 &&
		      lp->g->levels >= 2 && !lp->leaves_only &&
		      lp->window % ht_digests_per_block(lp->g) == 0;
	n = lp->windows < threads ? (unsigned)lp->windows : threads;
	atomic_init(&lp->next_window, 0);
	pthread_mutex_init(&lp->lock, NULL);
	pthread_cond_init(&lp->turn, NULL);
	lp->committed = 0;
	lp->done_bytes = 0;
	lp->prefetch_stop = 0;
	atomic_init(&lp->error, 0);
	memset(&lp->res, 0, sizeof(lp->res));
	memset(lp->done, 0, sizeof(lp->done));

	for (unsigned i = 0; i < n && !r; i++) {
		r = ht_worker_init(&workers[i], lp, i);
		started = i + 1;
		if (r)
			ht_fail(err, ENOMEM, "out of memory");
	}
	if (!r) {
		pthread_t pf;
		int prefetching = lp->level == 0 && lp->io->prefetch &&
				  lp->windows > 1 &&
				  !ht_thread_create(&pf, prefetch_main, lp);

		/* workers[0] runs on this thread */
		ht_fan_out(n, worker_main, workers, sizeof(workers[0]), NULL);
		if (prefetching) {
			pthread_mutex_lock(&lp->lock);
			lp->prefetch_stop = 1;
			pthread_cond_broadcast(&lp->turn);
			pthread_mutex_unlock(&lp->lock);
			ht_thread_join(pf, NULL);
		}
		if (lp->error) {
			r = lp->error;
			ht_handover(err, &lp->err);
		}
	}
	for (unsigned i = 0; i < started; i++)
		ht_worker_free(&workers[i]);
	pthread_cond_destroy(&lp->turn);
	pthread_mutex_destroy(&lp->lock);
	return r;
}
