/* update's parity (verity/tree/update_int.h): the rounds a change
 * reaches written again.
 *
 * A round with a changed data block is encoded again from its rsn
 * covered blocks (the old data block is gone: nothing else gives its
 * change). With --changed those runs are encoded while the old tree is
 * proven, by whichever thread is free, and held; their covered tree
 * blocks are then the old ones, so each rewritten tree block's change is
 * added once it is known. A round whose only changes are tree blocks is
 * its stored parity plus those changes: two reads, not rsn. */
#include "verity/tree/update_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/thread.h"
#include "verity/fec/encode.h"
#include "verity/storage/device.h"

/* Consecutive parity rounds encoded together at most. */
#define RUN_ROUNDS 8
/* Parity held while the tree is proven at most (past it: encoded after
 * the tree is written, from the blocks as they then are). */
#define HELD_MAX ((size_t)64 << 20)

/* Tree block t's covered block: its index, or -1 if the parity does not
 * cover it. */
static int64_t covered_of_tree_block(const struct update *u, uint64_t t)
{
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	uint64_t at =
		(u->pair->layout.tree_offset + t * u->hbs) / fl->block_size;

	if (at < fl->hash_start_block ||
	    at - fl->hash_start_block >= fl->hash_blocks)
		return -1;
	return (int64_t)(fl->data_blocks + at - fl->hash_start_block);
}

int verity_update_parity_plan(struct update *u, int hold, struct ht_error *err)
{
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	struct parity_plan *pl = &u->parity;
	const size_t round_bytes = (size_t)fl->block_size * fl->roots;
	struct blocks rounds = {0};
	int r = 0;

	pl->src = (struct fec_source){&u->d.data, &u->d.hash, &u->d.fec, fl,
				      NULL};
	pl->longest = 1;
	pl->planned = 1;
	for (size_t i = 0; !r && i < u->changed.n; i++)
		r = verity_update_push(&rounds, u->changed.v[i] % fl->rounds,
				       err);
	for (size_t i = 0; !r && !u->old && i < u->dirty.n; i++) {
		int64_t c = covered_of_tree_block(u, u->dirty.v[i]);

		if (c >= 0)
			r = verity_update_push(&rounds,
					       (uint64_t)c % fl->rounds, err);
	}
	/* (the code may be set up already, for the parity seen) */
	if (r || (!pl->rs.roots &&
		  (r = verity_fec_rs_init_encoder(&pl->rs, fl->roots, err))))
		goto out;
	rounds.n = verity_update_uniq(rounds.v, rounds.n);
	/* a round alone reads its rsn blocks one by one: past a quarter of
	 * the rounds, the pass over all of them (runs of blocks, every
	 * thread) reads less per round */
	if (rounds.n * 4 > fl->rounds) {
		pl->full = 1;
		goto out;
	}
	if (!(pl->piece = calloc(rounds.n + 1, sizeof(*pl->piece)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < rounds.n;) {
		uint64_t k = 1;

		while (i + k < rounds.n && k < RUN_ROUNDS &&
		       rounds.v[i + k] == rounds.v[i] + k)
			k++;
		pl->piece[pl->n++] = (struct parity_piece){rounds.v[i], k, 0, 0,
							   i * round_bytes};
		if (k > pl->longest)
			pl->longest = k;
		i += k;
	}
	pl->encodes = pl->n;
	if (hold && rounds.n && rounds.n <= HELD_MAX / round_bytes) {
		if (!(pl->held = malloc(rounds.n * round_bytes))) {
			r = ht_fail(err, ENOMEM, "out of memory");
			goto out;
		}
		pl->held_len = rounds.n * round_bytes;
	}
out:
	free(rounds.v);
	return r;
}

/* b's buffers, taken once. */
static int bufs_get(const struct update *u, struct parity_bufs *b,
		    struct ht_error *err)
{
	const struct parity_plan *pl = &u->parity;
	const unsigned roots = pl->rs.roots;
	const size_t most =
		(size_t)pl->longest * u->pair->layout.fec.block_size;

	if (b->buf)
		return 0;
	/* one message position at a time (encode_run), its planes, the
	 * parity as stored */
	if (!(b->buf = malloc(most * (1 + 2u * roots))))
		return ht_fail(err, ENOMEM, "out of memory");
	b->msg[0] = b->buf;
	for (unsigned k = 0; k < roots; k++)
		b->planes[k] = b->buf + (1 + k) * most;
	b->out = b->buf + (1 + roots) * most;
	return 0;
}

void verity_update_parity_bufs_free(struct parity_bufs *b)
{
	free(b->buf);
	b->buf = NULL;
}

/* Run x encoded from its covered blocks as they are now, into out (the
 * parity as stored). */
static int encode_run(const struct update *u, const struct parity_piece *x,
		      struct parity_bufs *b, uint8_t *out, struct ht_error *err)
{
	const struct parity_plan *pl = &u->parity;
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	const size_t len = (size_t)(x->count * fl->block_size);
	int r = 0;

	for (unsigned k = 0; k < pl->rs.roots; k++)
		memset(b->planes[k], 0, len);
	/* codeword symbol s of round n: covered block n + s * rounds, read
	 * and added one message position at a time (parity is linear: a
	 * run needs one block's buffer, not rsn of fresh memory); past the
	 * covered blocks, zeros, which add nothing */
	for (unsigned sym = 0; !r && sym < pl->rs.rsn; sym++) {
		uint64_t c = (uint64_t)sym * fl->rounds + x->first;

		if (c >= fl->blocks)
			break;
		r = verity_fec_read_covered(&pl->src, c, x->count, b->msg[0],
					    err);
		if (!r)
			verity_fec_rs_encode_update(&pl->rs, len, sym,
						    b->msg[0], b->planes);
	}
	if (!r)
		verity_fec_interleave(out, b->planes, pl->rs.roots, len);
	return r;
}

int verity_update_parity_hold(struct update *u, struct parity_bufs *b,
			      struct ht_error *err)
{
	struct parity_plan *pl = &u->parity;
	size_t i;
	int r;

	if (!pl->held)
		return 0;
	if ((i = atomic_fetch_add(&pl->next, 1)) >= pl->encodes)
		return 0;
	if ((r = bufs_get(u, b, err)) ||
	    (r = encode_run(u, &pl->piece[i], b, pl->held + pl->piece[i].at,
			    err)))
		return r;
	return 1;
}

/* Round n's parity as stored (at parity) plus the changes of the
 * rewritten tree blocks in it. */
static void add_deltas(const struct update *u, uint64_t n, uint8_t *parity,
		       struct parity_bufs *b)
{
	const struct parity_plan *pl = &u->parity;
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	const size_t bs = fl->block_size;
	size_t lo = 0, hi = pl->ntb;

	while (lo < hi) { /* the first pair of round n or past it */
		size_t mid = lo + (hi - lo) / 2;

		if (pl->tb[2 * mid] < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == pl->ntb || pl->tb[2 * lo] != n)
		return;
	verity_fec_deinterleave(b->planes, parity, fl->roots, bs);
	for (; lo < pl->ntb && pl->tb[2 * lo] == n; lo++) {
		uint64_t t = pl->tb[2 * lo + 1];
		uint64_t c = (uint64_t)covered_of_tree_block(u, t);
		const uint8_t *was = u->old + t * u->hbs;
		const uint8_t *is = u->tree + t * u->hbs;

		for (size_t k = 0; k < bs; k++)
			b->msg[0][k] = was[k] ^ is[k];
		verity_fec_rs_encode_update(&pl->rs, bs,
					    (unsigned)(c / fl->rounds),
					    b->msg[0], b->planes);
	}
	verity_fec_interleave(parity, b->planes, fl->roots, bs);
}

/* Piece x written. */
static int write_piece(const struct update *u, const struct parity_piece *x,
		       struct parity_bufs *b, struct ht_error *err)
{
	const struct parity_plan *pl = &u->parity;
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	const size_t round_bytes = (size_t)fl->block_size * fl->roots;
	const uint64_t at = fl->offset + x->first * round_bytes;
	uint8_t *p;
	int r;

	if ((r = bufs_get(u, b, err)))
		return r;
	if (x->deltas) {
		p = b->out;
		if ((r = verity_device_read(&u->d.fec, at, p, round_bytes,
					    err)))
			return r;
		add_deltas(u, x->first, p, b);
	} else if (pl->held) {
		p = pl->held + x->at;
		for (uint64_t k = 0; u->old && k < x->count; k++)
			add_deltas(u, x->first + k, p + k * round_bytes, b);
	} else {
		p = b->out;
		if ((r = encode_run(u, x, b, p, err)))
			return r;
	}
	return verity_device_write(&u->d.fec, at, p,
				   (size_t)x->count * round_bytes, err);
}

struct parity_job {
	struct update *u;
	int r;
	struct ht_error err;
};

static void *parity_worker(void *arg)
{
	struct parity_job *j = arg;
	struct parity_plan *pl = &j->u->parity;
	struct parity_bufs b = {0};

	while (!j->r && !atomic_load(&pl->failed)) {
		size_t i = atomic_fetch_add(&pl->next, 1);

		if (i >= pl->n)
			break;
		if ((j->r = write_piece(j->u, &pl->piece[i], &b, &j->err)))
			atomic_store(&pl->failed, 1);
	}
	verity_update_parity_bufs_free(&b);
	return NULL;
}

/* The rewritten tree blocks' rounds that no run is encoded for: pieces
 * of their own (tb: every pair, kept for the runs held too). */
static int plan_deltas(struct update *u, struct ht_error *err)
{
	struct parity_plan *pl = &u->parity;
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	struct blocks tb = {0};
	struct parity_piece *more;
	size_t rounds = 0;
	int r = 0;

	for (size_t i = 0; !r && i < u->dirty.n; i++) {
		int64_t c = covered_of_tree_block(u, u->dirty.v[i]);

		if (c >= 0 && !(r = verity_update_push(
					&tb, (uint64_t)c % fl->rounds, err)))
			r = verity_update_push(&tb, u->dirty.v[i], err);
	}
	if (r) {
		free(tb.v);
		return r;
	}
	pl->tb = tb.v;
	pl->ntb = tb.n / 2;
	/* pairs, by their first: the round */
	if (pl->ntb)
		qsort(pl->tb, pl->ntb, 2 * sizeof(*pl->tb),
		      verity_update_by_u64);
	for (size_t i = 0; i < pl->ntb; i++)
		rounds += !i || pl->tb[2 * i] != pl->tb[2 * i - 2];
	if (!(more = realloc(pl->piece, (pl->n + rounds + 1) * sizeof(*more))))
		return ht_fail(err, ENOMEM, "out of memory");
	pl->piece = more;
	for (size_t i = 0; i < pl->ntb;) {
		uint64_t n = pl->tb[2 * i];
		size_t k = 1, lo = 0, hi = pl->encodes;

		while (i + k < pl->ntb && pl->tb[2 * (i + k)] == n)
			k++;
		while (lo < hi) { /* the first run past round n */
			size_t mid = lo + (hi - lo) / 2;

			if (pl->piece[mid].first <= n)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo ||
		    pl->piece[lo - 1].first + pl->piece[lo - 1].count <= n)
			pl->piece[pl->n++] =
				(struct parity_piece){n, 1, i, k, 0};
		i += k;
	}
	return 0;
}

/* ---- found by hashing: the parity made with the verify ---- */

/* Whether the changed blocks found so far, read blocks into the data,
 * make the full pass likely: start reached, or an eighth of it found at a
 * rate that gives twice start over all the data (scattered changes: the
 * parity is on after a few per cent of the reads, not a quarter of the
 * rounds' worth, and little is read again). Wrong either way costs time,
 * never bytes: on and not needed, the planes are dropped; off, the chunks
 * are read again. */
static int seen_enough(struct parity_seen *s, uint64_t read)
{
	const uint64_t f = atomic_load(&s->found);

	if (f >= s->start)
		return 1;
	if (f < s->start / 8 || !read)
		return 0;
	/* f / read * total >= 2 * start, without overflow: f < start and
	 * read <= total, both under 2^40 for any layout the library takes */
	return (double)f * (double)s->total >=
	       2.0 * (double)s->start * (double)read;
}

/* A chunk the verify read: added into the thread's planes once on, else
 * kept to be read again. */
static int seen_data(void *c, unsigned worker, uint64_t first,
		     const uint8_t *blocks, size_t n, struct ht_error *err)
{
	struct update *u = ((struct update_io *)c)->u;
	struct parity_seen *s = &u->seen;
	int r, on = atomic_load(&s->on);

	if (!on && seen_enough(s, atomic_fetch_add(&s->read, n))) {
		pthread_mutex_lock(&s->lock);
		if (!(on = atomic_load(&s->on))) {
			/* format's limits: where it would not fuse, neither
			 * does this (1: the plan's pass then) */
			r = verity_fec_fused_init(
				&s->fused, &u->parity.rs, &u->pair->layout.fec,
				s->threads, &s->run->tuning, err);
			on = r ? -1 : 1;
			atomic_store(&s->on, on);
		}
		pthread_mutex_unlock(&s->lock);
	}
	if (on > 0)
		return verity_fec_fused_data_seen(&s->fused, worker, first,
						  blocks, n, err);
	if (on < 0)
		return 0;
	if (!(r = verity_update_push(&s->missed[worker], first, err)))
		r = verity_update_push(&s->missed[worker], n, err);
	return r;
}

int verity_update_seen_start(struct update *u, const struct verity_run *run,
			     struct ht_io *io, struct ht_error *err)
{
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	struct parity_seen *s = &u->seen;
	unsigned threads = run->ht.threads ? run->ht.threads : 1;
	int r;

	if (!fl->roots || !u->g->levels || threads > UPDATE_THREADS)
		return 0;
	if (!u->parity.rs.roots &&
	    (r = verity_fec_rs_init_encoder(&u->parity.rs, fl->roots, err)))
		return r;
	s->run = run;
	s->threads = threads;
	/* a quarter of the rounds: the plan's full pass (found blocks are
	 * in as many rounds at most) */
	s->start = fl->rounds / 4 + 1;
	s->total = fl->data_blocks;
	pthread_mutex_init(&s->lock, NULL);
	s->made = 1;
	io->data_seen = seen_data;
	return 0;
}

/* The parity seen made whole: the chunks read before it was on added,
 * then the tree as rewritten and the parity written as format does. */
static int seen_finish(struct update *u, struct ht_error *err)
{
	struct parity_seen *s = &u->seen;
	const struct parity_plan *pl = &u->parity;
	const size_t bs = u->pair->layout.fec.block_size;
	const size_t per = ((size_t)1 << 20) / bs; /* bs <= 512 KiB */
	uint8_t *buf = malloc(per * bs);
	int r = buf ? 0 : ht_fail(err, ENOMEM, "out of memory");

	for (unsigned w = 0; !r && w < UPDATE_THREADS; w++)
		for (size_t i = 0; !r && i + 1 < s->missed[w].n; i += 2) {
			uint64_t first = s->missed[w].v[i];
			uint64_t n = s->missed[w].v[i + 1];

			for (uint64_t k = 0; !r && k < n; k += per) {
				size_t m = n - k < per ? (size_t)(n - k) : per;

				r = verity_fec_read_covered(&pl->src, first + k,
							    m, buf, err);
				if (!r)
					r = verity_fec_fused_data_seen(
						&s->fused, 0, first + k, buf, m,
						err);
			}
		}
	free(buf);
	return r ? r : verity_fec_fused_finish(&s->fused, &pl->src, err);
}

int verity_update_parity_write(struct update *u, int all,
			       const struct ht_options *opt,
			       struct verity_update_result *res,
			       struct ht_error *err)
{
	const unsigned threads = opt->threads;
	struct parity_plan *pl = &u->parity;
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	struct parity_job jobs[UPDATE_THREADS];
	unsigned nt = threads ? threads : 1;
	int r = 0;

	if (!pl->planned && (r = verity_update_parity_plan(u, 0, err)))
		return r;
	if (all || pl->full) {
		ht_pass(opt, "write parity");
		r = !all && u->seen.fused.planes
			    ? seen_finish(u, err)
			    : verity_fec_parity_pass(&pl->src, &pl->rs,
						     FEC_PASS_WRITE, NULL,
						     threads, opt, NULL, err);
		if (!r)
			res->parity_rounds = fl->rounds;
		return r;
	}
	if (u->old && (r = plan_deltas(u, err)))
		return r;
	/* threads for runs to encode now; the rest is a few reads */
	if (nt > UPDATE_THREADS)
		nt = UPDATE_THREADS;
	if (pl->held || !pl->encodes)
		nt = 1;
	else if (nt > pl->n)
		nt = (unsigned)pl->n;
	atomic_store(&pl->next, 0);
	/* each job's fields set, not the whole array (its error is written
	 * only by a job that fails) */
	for (unsigned i = 0; i < nt; i++) {
		jobs[i].u = u;
		jobs[i].r = 0;
	}
	ht_fan_out(nt, parity_worker, jobs, sizeof(jobs[0]), NULL);
	for (unsigned i = 0; !r && i < nt; i++)
		if ((r = jobs[i].r))
			ht_handover(err, &jobs[i].err);
	for (size_t i = 0; !r && i < pl->n; i++)
		res->parity_rounds += pl->piece[i].count;
	return r;
}

void verity_update_parity_free(struct update *u)
{
	struct parity_plan *pl = &u->parity;

	if (pl->rs.matrix)
		verity_fec_rs_free(&pl->rs);
	free(pl->piece);
	free(pl->tb);
	free(pl->held);
	memset(pl, 0, sizeof(*pl));
	verity_fec_fused_free(&u->seen.fused);
	for (unsigned w = 0; w < UPDATE_THREADS; w++)
		free(u->seen.missed[w].v);
	if (u->seen.made)
		pthread_mutex_destroy(&u->seen.lock);
	memset(&u->seen, 0, sizeof(u->seen));
}
