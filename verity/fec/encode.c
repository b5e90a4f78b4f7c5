/* The parity pass: encode or check the parity of every round, threads
 * splitting the rounds in batches; and the parity made while the tree is
 * built (fused). */
#include "verity/fec/encode.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/buffer.h"
#include "hashtree/thread.h"

/* Message bytes a batch of rounds reads: rsn runs of consecutive covered
 * blocks, each run one read. 2 MiB kept the GF(2^8) passes in cache, but
 * made 8 KiB reads (4 KiB blocks, roots 2), and the pass was bound by
 * their calls here: 1 GiB's full pass in update 305-364 ms, 210-222 ms
 * with 16 MiB (64 KiB reads); verify with parity 373-408 against 274-289
 * ms; 32 MiB was slower again. A batch is FEC_BATCH_MAX, less when
 * threads x FEC_BATCH_MAX would pass FEC_PASS_BYTES, FEC_BATCH_MIN at
 * least. */
#define FEC_BATCH_MAX  (16u << 20)
#define FEC_BATCH_MIN  (2u << 20)
#define FEC_PASS_BYTES (64u << 20)
/* Threads a parity pass starts at most, each with a batch of its own in
 * memory (its message and parity). */
#define FEC_PASS_MAX_THREADS 64
/* Pieces of the fused finish: few fresh pages to touch. */
#define CHUNK_BLOCKS_BYTES (256u << 10)

struct parity_job {
	const struct fec_source *s;
	const struct fec_rs *rs;
	enum fec_pass_mode mode;
	const uint8_t *skip;
	uint8_t *stale;
	uint64_t batch_rounds;
	uint64_t batches;
	atomic_uint_fast64_t next;
	atomic_int failed;
	pthread_mutex_t lock;
	struct fec_pass_result res;
	struct ht_error err;
	const struct ht_options *opt; /* progress, may be NULL */
	uint64_t rounds_done;         /* under lock */
};

struct parity_buffers {
	uint8_t *msg;    /* rsn runs of batch_rounds blocks */
	uint8_t *planes; /* roots planes, one per parity row */
	uint8_t *parity; /* interleaved: roots bytes per codeword */
	uint8_t *stored; /* what the device holds (check, fix) */
	uint8_t *zeros;
	uint8_t *unread; /* check: rounds of the batch with a block that
			  * cannot be read (left alone, as bad ones are) */
	uint8_t **src, **par;
	size_t len; /* batch_rounds blocks */
	unsigned rsn, roots;
};

static void buffers_free(struct parity_buffers *b)
{
	ht_buffer_free(b->msg, b->len * b->rsn);
	ht_buffer_free(b->planes, b->len * b->roots);
	ht_buffer_free(b->parity, b->len * b->roots);
	ht_buffer_free(b->stored, b->len * b->roots);
	ht_buffer_free(b->zeros, b->len);
	free(b->unread);
	free(b->src);
	free(b->par);
}

static int buffers_init(struct parity_buffers *b, const struct parity_job *j)
{
	size_t len = (size_t)j->batch_rounds * j->s->fl->block_size;
	unsigned rsn = j->rs->rsn, roots = j->rs->roots;

	memset(b, 0, sizeof(*b));
	b->len = len;
	b->rsn = rsn;
	b->roots = roots;
	b->msg = ht_buffer_alloc(len * rsn);
	b->planes = ht_buffer_alloc(len * roots);
	b->parity = ht_buffer_alloc(len * roots);
	b->stored =
		j->mode == FEC_PASS_WRITE ? NULL : ht_buffer_alloc(len * roots);
	b->zeros = ht_buffer_alloc(len);
	b->unread = calloc((j->batch_rounds + 7) / 8, 1);
	b->src = calloc(rsn, sizeof(*b->src));
	b->par = calloc(roots, sizeof(*b->par));
	if (!b->msg || !b->planes || !b->parity || !b->zeros || !b->unread ||
	    !b->src || !b->par || (j->mode != FEC_PASS_WRITE && !b->stored)) {
		buffers_free(b);
		return -ENOMEM;
	}
	for (unsigned k = 0; k < roots; k++)
		b->par[k] = b->planes + k * len;
	return 0;
}

/* Codeword x of the batch has its parity bytes at parity[x * roots]. */
void verity_fec_interleave(uint8_t *out, uint8_t *const *planes, unsigned roots,
			   size_t len)
{
	if (roots == 2) {
		const uint8_t *p0 = planes[0], *p1 = planes[1];

		for (size_t x = 0; x < len; x++) {
			out[2 * x] = p0[x];
			out[2 * x + 1] = p1[x];
		}
		return;
	}
	for (unsigned k = 0; k < roots; k++) {
		const uint8_t *p = planes[k];

		for (size_t x = 0; x < len; x++)
			out[x * roots + k] = p[x];
	}
}

void verity_fec_deinterleave(uint8_t *const *planes, const uint8_t *in,
			     unsigned roots, size_t len)
{
	for (unsigned k = 0; k < roots; k++) {
		uint8_t *p = planes[k];

		for (size_t x = 0; x < len; x++)
			p[x] = in[x * roots + k];
	}
}

void verity_fec_encode_stored(const struct fec_rs *rs, size_t len,
			      uint8_t *const *src, uint8_t *const *planes,
			      uint8_t *out)
{
	verity_fec_rs_encode(rs, len, src, planes);
	verity_fec_interleave(out, planes, rs->roots, len);
}

/* Compares round by round, counting (and marking) what differs. */
static void compare_rounds(struct parity_job *j, struct parity_buffers *b,
			   uint64_t n0, uint64_t nb,
			   struct fec_pass_result *res)
{
	size_t round_bytes = (size_t)j->s->fl->block_size * j->rs->roots;
	unsigned roots = j->rs->roots;

	for (uint64_t n = n0; n < n0 + nb; n++) {
		const uint8_t *c = b->parity + (n - n0) * round_bytes;
		const uint8_t *st = b->stored + (n - n0) * round_bytes;
		uint64_t bad = 0;

		if (j->skip && (j->skip[n / 8] >> (n % 8) & 1))
			continue;
		if (b->unread[(n - n0) / 8] >> ((n - n0) % 8) & 1)
			continue;
		if (!memcmp(c, st, round_bytes))
			continue;
		for (size_t x = 0; x < round_bytes; x += roots)
			bad += memcmp(c + x, st + x, roots) != 0;
		res->stale_codewords += bad;
		res->stale_rounds++;
		/* batches of other threads may share the byte */
		if (j->stale)
			__atomic_fetch_or(&j->stale[n / 8],
					  (uint8_t)(1u << (n % 8)),
					  __ATOMIC_RELAXED);
	}
}

/* A check's run of nb covered blocks from first, read again block by
 * block after EIO: the unreadable ones are zeros, their rounds (n0 +
 * their place in the run) left alone. Writing parity never gets here:
 * every block is read. */
static int read_run_tolerant(struct parity_job *j, struct parity_buffers *b,
			     uint64_t first, uint64_t nb, uint8_t *out,
			     struct ht_error *err)
{
	size_t bs = j->s->fl->block_size;

	for (uint64_t k = 0; k < nb; k++) {
		int r = verity_fec_read_covered(j->s, first + k, 1,
						out + k * bs, err);

		if (r == -EIO) {
			memset(out + k * bs, 0, bs);
			b->unread[k / 8] |= (uint8_t)(1u << (k % 8));
		} else if (r) {
			return r;
		}
	}
	return 0;
}

static int run_batch(struct parity_job *j, struct parity_buffers *b,
		     uint64_t bi, struct fec_pass_result *res,
		     struct ht_error *err)
{
	const struct fec_source *s = j->s;
	const struct verity_fec_layout *fl = s->fl;
	uint64_t n0 = bi * j->batch_rounds;
	uint64_t nb = fl->rounds - n0 < j->batch_rounds ? fl->rounds - n0
							: j->batch_rounds;
	size_t len = (size_t)nb * fl->block_size;
	uint64_t at = fl->offset + n0 * fl->block_size * fl->roots;
	int r;

	memset(b->unread, 0, (j->batch_rounds + 7) / 8);
	for (unsigned i = 0; i < j->rs->rsn; i++) {
		uint64_t first = (uint64_t)i * fl->rounds + n0;

		if (first >= fl->blocks) {
			b->src[i] = b->zeros; /* past the end: all zeros */
			continue;
		}
		b->src[i] = b->msg + (size_t)i * len;
		r = verity_fec_read_covered(s, first, nb, b->src[i], err);
		if (r == -EIO && j->mode == FEC_PASS_CHECK)
			r = read_run_tolerant(j, b, first, nb, b->src[i], err);
		if (r)
			return r;
	}
	verity_fec_encode_stored(j->rs, len, b->src, b->par, b->parity);
	if (j->mode == FEC_PASS_WRITE)
		return verity_device_write(s->fec, at, b->parity,
					   len * fl->roots, err);
	r = verity_device_read(s->fec, at, b->stored, len * fl->roots, err);
	if (!r)
		compare_rounds(j, b, n0, nb, res);
	return r;
}

static void *parity_worker(void *arg)
{
	struct parity_job *j = arg;
	struct parity_buffers b;
	struct fec_pass_result res = {0, 0, NULL};
	struct ht_error err;
	int r = buffers_init(&b, j);

	if (r)
		ht_fail(&err, ENOMEM, "out of memory");
	while (!r && !atomic_load(&j->failed)) {
		uint64_t bi = atomic_fetch_add(&j->next, 1);

		if (bi >= j->batches)
			break;
		r = run_batch(j, &b, bi, &res, &err);
		if (!r && j->opt && j->opt->progress) {
			const struct verity_fec_layout *fl = j->s->fl;
			uint64_t n0 = bi * j->batch_rounds, unit;

			unit = (uint64_t)j->rs->rsn * fl->block_size;
			pthread_mutex_lock(&j->lock);
			j->rounds_done += fl->rounds - n0 < j->batch_rounds
						  ? fl->rounds - n0
						  : j->batch_rounds;
			j->opt->progress(j->opt->progress_ctx,
					 j->rounds_done * unit,
					 fl->rounds * unit);
			pthread_mutex_unlock(&j->lock);
		}
	}
	buffers_free(&b);
	pthread_mutex_lock(&j->lock);
	j->res.stale_codewords += res.stale_codewords;
	j->res.stale_rounds += res.stale_rounds;
	if (r && !atomic_exchange(&j->failed, r))
		j->err = err;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

int verity_fec_parity_pass(const struct fec_source *s, const struct fec_rs *rs,
			   enum fec_pass_mode mode, const uint8_t *skip,
			   unsigned threads, const struct ht_options *opt,
			   struct fec_pass_result *res, struct ht_error *err)
{
	struct parity_job j;
	size_t batch = FEC_PASS_BYTES / (threads ? threads : 1);
	uint64_t per;

	if (batch > FEC_BATCH_MAX)
		batch = FEC_BATCH_MAX;
	if (batch < FEC_BATCH_MIN)
		batch = FEC_BATCH_MIN;
	per = batch / rs->rsn / s->fl->block_size;

	memset(&j, 0, sizeof(j));
	j.s = s;
	j.rs = rs;
	j.mode = mode;
	j.skip = skip;
	j.opt = opt;
	j.stale = res ? res->stale : NULL;
	j.batch_rounds = per ? per : 1;
	if (j.batch_rounds > s->fl->rounds)
		j.batch_rounds = s->fl->rounds;
	j.batches = (s->fl->rounds + j.batch_rounds - 1) / j.batch_rounds;
	atomic_init(&j.next, 0);
	atomic_init(&j.failed, 0);
	pthread_mutex_init(&j.lock, NULL);
	if (threads > j.batches)
		threads = (unsigned)j.batches;
	if (threads > FEC_PASS_MAX_THREADS)
		threads = FEC_PASS_MAX_THREADS;
	ht_fan_out(threads ? threads : 1, parity_worker, &j, 0, NULL);
	pthread_mutex_destroy(&j.lock);
	if (res) {
		res->stale_codewords = j.res.stale_codewords;
		res->stale_rounds = j.res.stale_rounds;
	}
	if (atomic_load(&j.failed)) {
		if (err)
			ht_handover(err, &j.err);
		return atomic_load(&j.failed);
	}
	return 0;
}

/* --- parity while the tree is built ------------------------------------ */

int verity_fec_fused_init(struct fec_fused *f, const struct fec_rs *rs,
			  const struct verity_fec_layout *fl, unsigned threads,
			  const struct verity_tuning *t, struct ht_error *err)
{
	size_t max_bytes = t && t->fused_max_bytes ? t->fused_max_bytes
						   : FEC_FUSED_MAX_BYTES;
	unsigned max_roots = t && t->fused_max_roots ? t->fused_max_roots
						     : FEC_FUSED_MAX_ROOTS;
	uint64_t per_thread;

	memset(f, 0, sizeof(*f));
	if (threads < 1)
		threads = 1;
	per_thread = fl->rounds * fl->block_size * fl->roots;
	if (fl->roots > max_roots || per_thread > max_bytes / (threads + 1))
		return 1;
	f->rs = rs;
	f->fl = fl;
	f->threads = threads;
	f->plane_bytes = (size_t)(fl->rounds * fl->block_size);
	/* one set of planes per worker, and one for the tree blocks */
	f->planes = ht_buffer_alloc(threads * (size_t)per_thread);
	if (!f->planes)
		return ht_fail(err, ENOMEM, "out of memory");
	return 0;
}

/* Adds covered blocks [first, first + n) into planes set `set`: each run
 * of blocks with the same message position i = block / rounds is one
 * column of consecutive rounds, added with one call. */
static void fused_add(struct fec_fused *f, unsigned set, uint64_t first,
		      const uint8_t *blocks, size_t n)
{
	const struct verity_fec_layout *fl = f->fl;
	size_t bs = fl->block_size;
	uint8_t *base = f->planes + (size_t)set * fl->roots * f->plane_bytes;
	uint8_t *par[FEC_MAX_ROOTS];
	uint64_t j = first, end = first + n;

	while (j < end) {
		uint64_t i = j / fl->rounds, round = j % fl->rounds;
		uint64_t run_end = (i + 1) * fl->rounds;
		size_t c = (size_t)((run_end < end ? run_end : end) - j);

		for (unsigned k = 0; k < fl->roots; k++)
			par[k] = base + k * f->plane_bytes + round * bs;
		verity_fec_rs_encode_update(f->rs, c * bs, (unsigned)i,
					    blocks + (j - first) * bs, par);
		j += c;
	}
}

int verity_fec_fused_data_seen(struct fec_fused *f, unsigned worker,
			       uint64_t first, const uint8_t *blocks, size_t n,
			       struct ht_error *err)
{
	if (worker >= f->threads)
		return ht_fail(err, EINVAL, "FEC: worker %u of %u", worker,
			       f->threads);
	fused_add(f, worker, first, blocks, n);
	return 0;
}

int verity_fec_fused_finish(struct fec_fused *f, const struct fec_source *s,
			    struct ht_error *err)
{
	const struct verity_fec_layout *fl = f->fl;
	size_t bs = fl->block_size, per = CHUNK_BLOCKS_BYTES / bs;
	size_t total = f->plane_bytes * fl->roots;
	size_t buf_len = per * bs * fl->roots;
	uint8_t *buf = ht_buffer_alloc(buf_len);
	uint8_t *planes[FEC_MAX_ROOTS];
	int r = 0;

	if (!buf)
		return ht_fail(err, ENOMEM, "out of memory");
	/* the covered hash blocks: the tree, then the rest of a hash
	 * device or the gap before the parity (the workers are done: into
	 * the first set) */
	for (uint64_t j = fl->data_blocks; !r && j < fl->blocks; j += per) {
		size_t n =
			fl->blocks - j < per ? (size_t)(fl->blocks - j) : per;

		r = verity_fec_read_covered(s, j, n, buf, err);
		if (!r)
			fused_add(f, 0, j, buf, n);
	}
	/* the sum over the sets, into the first */
	for (unsigned t = 1; !r && t < f->threads; t++) {
		const uint64_t *src = (const uint64_t *)(f->planes + t * total);
		uint64_t *dst = (uint64_t *)f->planes;

		for (size_t x = 0; x < total / 8; x++)
			dst[x] ^= src[x];
	}
	/* interleaved, roots bytes per codeword, written in pieces */
	for (size_t x = 0; !r && x < f->plane_bytes; x += per * bs) {
		size_t len = f->plane_bytes - x < per * bs ? f->plane_bytes - x
							   : per * bs;

		for (unsigned k = 0; k < fl->roots; k++)
			planes[k] = f->planes + k * f->plane_bytes + x;
		verity_fec_interleave(buf, planes, fl->roots, len);
		r = verity_device_write(s->fec, fl->offset + x * fl->roots, buf,
					len * fl->roots, err);
	}
	ht_buffer_free(buf, buf_len);
	return r;
}

/* All the sets' bytes. */
static size_t planes_bytes(const struct fec_fused *f)
{
	return f->threads * f->plane_bytes * f->fl->roots;
}

void verity_fec_fused_free(struct fec_fused *f)
{
	if (!f->planes)
		return;
	ht_buffer_free(f->planes, planes_bytes(f));
	f->planes = NULL;
}

int verity_fec_encode_flat(const struct verity_device *d,
			   const struct verity_fec_layout *fl, unsigned threads,
			   struct ht_error *err)
{
	struct fec_rs rs = {0};
	struct fec_source src = {d, d, d, fl, NULL};
	int r;

	if ((r = verity_fec_rs_init_encoder(&rs, fl->roots, err)))
		return r;
	r = verity_fec_parity_pass(&src, &rs, FEC_PASS_WRITE, NULL, threads,
				   NULL, NULL, err);
	verity_fec_rs_free(&rs);
	return r ? r : verity_device_flush(d, err);
}
