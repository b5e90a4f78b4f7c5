/* update: the tree blocks and parity rounds a change reaches, rewritten
 * in place (verity/tree/update.h).
 *
 * The tree is read whole (1/128 of the data at 4 KiB blocks and sha256)
 * and proven against the old root, every block against its parent and
 * every byte of padding zero, before any of it is reused: the upper
 * levels held in memory, level 0 through a window, the leaves over the
 * change kept as they pass (update_parity.c encodes the parity rounds
 * of the changed data blocks meanwhile). The changed
 * data blocks are hashed, their leaves set, and each hash block they
 * reach hashed again up to the root. The superblock's place holds a
 * marker (VERITY_SB_UPDATING, with the old and the new root) while
 * tree and parity are written; the superblock, unchanged, comes back
 * last. The marker is a hint, never a proof (whoever can write the hash
 * image can write one): a re-run over it with the same old root and
 * ranges proves the tree against the old root as a fresh update does
 * (the hash blocks over the change above level 0 made again from the
 * blocks below first, as the interrupted run may have rewritten them),
 * and rebuilds the same blocks, which must give the new root the marker
 * holds; once the leaves over the change were rewritten, only a re-run
 * without ranges completes it, rebuilding the whole tree from the data
 * (as a fresh update without ranges, it vouches for every data block as
 * it now is). */
#include "verity/tree/update_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hashtree/hasher.h"
#include "hashtree/proof.h"
#include "hashtree/thread.h"
#include "verity/fec/encode.h"
#include "verity/fec/rs.h"
#include "verity/fec/source.h"
#include "verity/tree/io.h"
#include "verity/tree/superblock.h"

int verity_update_by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t verity_update_uniq(uint64_t *v, size_t n)
{
	size_t k = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), verity_update_by_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

int verity_update_push(struct blocks *b, uint64_t x, struct ht_error *err)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		uint64_t *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return ht_fail(err, ENOMEM, "out of memory");
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = x;
	return 0;
}

/* Tree block t (of level l), at b, whose digest is d, against its
 * parent's slot in the tree in memory (the root for the top), its
 * padding zero: 0, or -EPERM naming it. */
static int prove_one(struct update *u, uint64_t t, uint32_t l, const uint8_t *b,
		     const uint8_t *d, const uint8_t *root, const char *what,
		     struct ht_error *err)
{
	const struct ht_proof proof = {u->g, root};
	uint64_t parent;
	size_t slot;
	int where = ht_parent_of(u->g, l, t, &parent, &slot), top = where == 1;
	const uint8_t *above = where ? NULL : u->tree + parent * u->hbs;

	if (ht_prove(&proof, l, t, d, above, b, NULL) == HT_PROOF_OK)
		return 0;
	return ht_fail(
		err, EPERM,
		"%s: hash block %llu (level %u, at byte %llu) does not "
		"match %s: %s",
		u->pair->hash.path, (unsigned long long)t, l,
		(unsigned long long)(u->pair->layout.tree_offset + t * u->hbs),
		top ? "the root hash" : "its parent", what);
}

/* Level-0 hash blocks read and proven at a time (a window that stays in
 * the cache; the kernels hash several at once). 16, not 64: each
 * thread's window is fresh memory, a page fault a page here (1 GiB, one
 * block: 14.5 ms against 16.2). */
#define PROVE_WINDOW 16

/* Tree blocks [first, end), at b (block first), all of one level, proven
 * against root (dig: room for their digests): 0, or -EPERM naming the
 * first that is not (into err). */
static int prove_blocks(struct update *u, uint64_t first, uint64_t end,
			const uint8_t *b, uint8_t *dig, const uint8_t *root,
			const char *what, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	uint32_t l = ht_level_of(g, first);
	int r = ht_hash_blocks(&u->h, b, u->hbs, (size_t)(end - first), dig,
			       g->digest_size, err);

	for (uint64_t t = first; !r && t < end; t++)
		r = prove_one(u, t, l, b + (t - first) * u->hbs,
			      dig + (t - first) * g->digest_size, root, what,
			      err);
	return r;
}

/* A stretch of the tree proven a window at a time, by every thread that
 * takes the next window (a thread that starts late, as the second often
 * does here, takes fewer): blocks in memory (resident) proven there; the
 * others read into the window, the leaves u->need names copied out of it
 * into the tree in memory (load) or over it from there (they are the
 * ones rewritten: the tree as it will be is what is proven). */
struct prove_stretch {
	struct update *u;
	uint64_t first, end; /* tree blocks */
	int resident, load;
	int hold; /* the held parity runs encoded first */
	const uint8_t *root;
	const char *what;
	atomic_uint_fast64_t next; /* the next window's first block */
	atomic_uint_fast64_t bad;  /* the lowest window that failed */
};

struct prove_job {
	struct prove_stretch *s;
	uint64_t bad; /* the window of r, if r */
	int r;
	struct ht_error err;
};

/* Window [w, end) of s proven (win: room for a window, dig for its
 * digests). */
static int prove_window(struct prove_stretch *s, uint64_t w, uint64_t end,
			uint8_t *win, uint8_t *dig, struct ht_error *err)
{
	struct update *u = s->u;
	const struct ht_geometry *g = u->g;
	const struct blocks *need = &u->need;
	const uint8_t *b = u->tree + w * u->hbs;
	int r = 0;

	if (!s->resident) {
		size_t lo = 0, hi = need->n;

		if ((r = verity_device_read(
			     &u->d.hash,
			     u->pair->layout.tree_offset + w * u->hbs, win,
			     (size_t)((end - w) * u->hbs), err)))
			return r;
		while (lo < hi) { /* the first leaf in need at or past w */
			size_t mid = lo + (hi - lo) / 2;

			if (need->v[mid] < w)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < need->n && need->v[lo] < end; lo++) {
			uint8_t *at = win + (need->v[lo] - w) * u->hbs;
			uint8_t *t = u->tree + need->v[lo] * u->hbs;

			memcpy(s->load ? t : at, s->load ? at : t, u->hbs);
		}
		b = win;
	}
	/* one level at a time */
	for (uint64_t t0 = w; !r && t0 < end;) {
		uint32_t l = ht_level_of(g, t0);
		uint64_t lend = g->level_first[l] + g->level_blocks[l];
		uint64_t e = lend < end ? lend : end;

		r = prove_blocks(u, t0, e, b + (t0 - w) * u->hbs, dig, s->root,
				 s->what, err);
		t0 = e;
	}
	return r;
}

static void prove_job_init(struct prove_job *j, struct prove_stretch *s)
{
	j->s = s;
	j->bad = 0;
	j->r = 0;
}

static void *prove_worker(void *arg)
{
	struct prove_job *j = arg;
	struct prove_stretch *s = j->s;
	uint8_t *dig = malloc(PROVE_WINDOW * HT_MAX_DIGEST_SIZE);
	uint8_t *win = s->resident ? NULL : malloc(PROVE_WINDOW * s->u->hbs);

	struct parity_bufs pb = {0};
	int k = 1;

	if (!dig || (!s->resident && !win))
		k = j->r = ht_fail(&j->err, ENOMEM, "out of memory");
	/* the held parity runs first: the data is read once either way,
	 * and a thread that starts late finds the windows left */
	while (s->hold && k > 0)
		k = verity_update_parity_hold(s->u, &pb, &j->err);
	verity_update_parity_bufs_free(&pb);
	if (k < 0) {
		j->r = k;
		j->bad = 0;
		atomic_store(&s->bad, 0);
	}
	while (!j->r) {
		uint64_t w = atomic_fetch_add(&s->next, PROVE_WINDOW);

		/* past the end, or past a window that failed: the windows
		 * before it are all taken, and will be finished */
		if (w >= s->end || w > atomic_load(&s->bad))
			break;
		j->r = prove_window(
			s, w,
			s->end - w < PROVE_WINDOW ? s->end : w + PROVE_WINDOW,
			win, dig, &j->err);
		if (j->r) {
			uint64_t b = atomic_load(&s->bad);

			j->bad = w;
			while (w < b &&
			       !atomic_compare_exchange_weak(&s->bad, &b, w))
				;
		}
	}
	free(dig);
	free(win);
	return NULL;
}

/* Threads started before the files are read, to prove level 0 with
 * the caller's: a thread created while the caller is busy took from 0.1
 * to 3.8 ms here to run (the second virtual CPU woken), as long as the
 * whole proof of a 1 GiB image's tree. They spin until given the
 * stretch or told to stop, which keeps their CPU awake meanwhile. */
struct crew;

struct crew_member {
	struct crew *c;
	pthread_t tid;
	struct prove_job job;
};

struct crew {
	struct crew_member m[UPDATE_THREADS];
	unsigned n;
	atomic_int go; /* 1: s is set; -1: stop */
	struct prove_stretch *s;
};

static void *crew_run(void *arg)
{
	struct crew_member *m = arg;
	int go;

	while (!(go = atomic_load(&m->c->go)))
		sched_yield();
	if (go > 0) {
		m->job.s = m->c->s;
		prove_worker(&m->job);
	}
	return NULL;
}

/* No members (the fields set, not the members' errors). */
static void crew_clear(struct crew *c)
{
	c->n = 0;
	atomic_init(&c->go, 0);
	c->s = NULL;
}

/* Up to threads - 1 members (the caller is the other). */
static void crew_start(struct crew *c, unsigned threads)
{
	crew_clear(c);
	for (unsigned i = 1; i < threads && c->n < UPDATE_THREADS - 1; i++) {
		c->m[c->n].c = c;
		prove_job_init(&c->m[c->n].job, NULL);
		if (ht_thread_start(&c->m[c->n].tid, crew_run, &c->m[c->n]))
			break;
		c->n++;
	}
}

/* The members told to stop, if they were not given a stretch, and
 * joined. */
static void crew_end(struct crew *c)
{
	int idle = 0;

	if (!c->n)
		return;
	atomic_compare_exchange_strong(&c->go, &idle, -1);
	for (unsigned i = 0; i < c->n; i++)
		ht_thread_join(c->m[i].tid, NULL);
	c->n = 0;
}

/* Tree blocks [first, end) proven against root on up to threads threads
 * (the crew, if it has members, else threads started here; one that
 * will not start: the others do its share): 0, or the error of the
 * first block (top down) that failed. */
static int prove_stretch(struct update *u, uint64_t first, uint64_t end,
			 int resident, int load, int hold, unsigned threads,
			 struct crew *crew, const uint8_t *root,
			 const char *what, struct ht_error *err)
{
	struct prove_stretch s = {u,    first, end,  resident, load,
				  hold, root,  what, first,    UINT64_MAX};
	struct prove_job jobs[UPDATE_THREADS];
	struct prove_job *done[UPDATE_THREADS];
	unsigned nt = threads ? threads : 1, nd = 1;
	const struct prove_job *first_bad = NULL;

	if (nt > UPDATE_THREADS)
		nt = UPDATE_THREADS;
	/* small stretches are not worth a thread */
	if ((end - first) * u->hbs < (1u << 20))
		nt = 1;
	/* each job's fields set, not the whole array (its error is written
	 * only by a job that fails) */
	for (unsigned i = 0; i < nt; i++)
		prove_job_init(&jobs[i], &s);
	done[0] = &jobs[0];
	if (crew && crew->n && nt > 1) {
		crew->s = &s;
		atomic_store(&crew->go, 1);
		prove_worker(&jobs[0]);
		for (unsigned i = 0; i < crew->n; i++) {
			ht_thread_join(crew->m[i].tid, NULL);
			done[nd++] = &crew->m[i].job;
		}
		crew->n = 0;
	} else {
		ht_fan_out(nt, prove_worker, jobs, sizeof(jobs[0]), NULL);
		for (unsigned i = 1; i < nt; i++)
			done[nd++] = &jobs[i];
	}
	/* the first failure, in the tree's order (top levels first) */
	for (unsigned i = 0; i < nd; i++)
		if (done[i]->r && (!first_bad || done[i]->bad < first_bad->bad))
			first_bad = done[i];
	if (!first_bad)
		return 0;
	ht_handover(err, &first_bad->err);
	return first_bad->r;
}

/* Every hash block proven against root, top down: the upper levels (in
 * memory), then level 0, which is in memory only if all_leaves, else
 * streamed from the hash image with the leaves u->need names taken from
 * it into memory (load) or from memory into the proof (not load); the
 * held parity runs encoded meanwhile (hold). 0, or -EPERM naming the
 * first block that does not hold. */
static int prove_tree(struct update *u, const uint8_t *root, int all_leaves,
		      int load, int hold, unsigned threads, struct crew *crew,
		      const char *what, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	const uint64_t leaves = g->levels ? g->level_first[0] : 0;
	int r = prove_stretch(u, 0, leaves, 1, 0, 0, threads, NULL, root, what,
			      err);

	if (!r && g->levels)
		r = prove_stretch(u, leaves, g->tree_blocks, all_leaves, load,
				  hold, threads, crew, root, what, err);
	return r;
}

/* The changed data blocks: the ranges widened to whole blocks. */
static int changed_from_ranges(struct update *u,
			       const struct verity_range *ranges, size_t n,
			       struct ht_error *err)
{
	const uint64_t bytes = u->pair->layout.data_bytes;
	int r;

	for (size_t i = 0; i < n; i++) {
		uint64_t off = ranges[i].offset, len = ranges[i].length;

		if (!len)
			continue;
		if (off >= bytes || len > bytes - off)
			return ht_fail(err, EINVAL,
				       "%s: the changed range [%llu, +%llu) "
				       "lies past the data (%llu bytes)",
				       u->pair->data.path,
				       (unsigned long long)off,
				       (unsigned long long)len,
				       (unsigned long long)bytes);
		for (uint64_t b = off / u->dbs; b <= (off + len - 1) / u->dbs;
		     b++)
			if ((r = verity_update_push(&u->changed, b, err)))
				return r;
	}
	u->changed.n = verity_update_uniq(u->changed.v, u->changed.n);
	return 0;
}

/* Tree block t about to change: its bytes as they were kept first. */
static void keep_old(struct update *u, uint64_t t)
{
	if (!u->old || (u->kept[t / 64] >> (t % 64) & 1))
		return;
	u->kept[t / 64] |= (uint64_t)1 << (t % 64);
	memcpy(u->old + t * u->hbs, u->tree + t * u->hbs, u->hbs);
}

/* Tree blocks read or written at once at most (1 MiB at 4 KiB). */
#define STREAM_RUN 256

/* Tree blocks v[i..) of a run of consecutive ones: how many (at most
 * STREAM_RUN), so that they are read or written at once. */
static size_t run_of(const uint64_t *v, size_t n, size_t i)
{
	size_t k = 1;

	while (i + k < n && k < STREAM_RUN && v[i + k] == v[i] + k)
		k++;
	return k;
}

/* Data block b's leaf digest set (into the in-memory tree, or the root
 * when the tree has no level). */
static void set_leaf(struct update *u, uint64_t b, const uint8_t *digest)
{
	uint64_t parent;
	size_t slot;
	uint8_t *at = u->root;

	if (ht_data_parent(u->g, b, &parent, &slot) != 1) {
		keep_old(u, parent);
		at = u->tree + parent * u->hbs + slot;
	}
	memcpy(at, digest, u->g->digest_size);
}

/* Batches of data blocks read and hashed at a time. */
#define UPDATE_BATCH 64

/* The leaves of data blocks v[0..n) set from the data (digests into the
 * in-memory tree, or the root when the tree has no level). */
static int hash_data(struct update *u, const uint64_t *v, size_t n,
		     struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	uint8_t *buf = malloc(UPDATE_BATCH * u->dbs);
	uint8_t *dig = malloc(UPDATE_BATCH * HT_MAX_DIGEST_SIZE);
	int r = 0;

	if (!buf || !dig) {
		free(buf);
		free(dig);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; !r && i < n; i += UPDATE_BATCH) {
		size_t m = n - i < UPDATE_BATCH ? n - i : UPDATE_BATCH;

		for (size_t j = 0; !r && j < m; j++)
			r = verity_device_read(&u->d.data, v[i + j] * u->dbs,
					       buf + j * u->dbs, u->dbs, err);
		if (!r)
			r = ht_hash_blocks(&u->h, buf, u->dbs, m, dig,
					   g->digest_size, err);
		for (size_t j = 0; !r && j < m; j++)
			set_leaf(u, v[i + j], dig + j * g->digest_size);
	}
	free(buf);
	free(dig);
	return r;
}

/* Auto mode: the blocks a verify of the old tree against the old root
 * finds bad are the change (the verify's threads, windows and reads: the
 * cost of a verify); anything else it finds wrong (a hash block, the
 * padding, an unreadable block) is refused. */
struct found {
	struct update *u;
	int r;
	struct ht_error err;
	uint64_t other; /* a hash block, padding or unreadable: the first */
	int has_other;
	enum ht_failure_kind kind;
	/* the bad data blocks' digests as computed, in report order (NULL
	 * once one came without) */
	uint8_t *digests;
	size_t cap;
	int no_digests;
};

/* A bad data block's computed digest kept beside it (x->u->changed's
 * last). */
static int keep_digest(struct found *x, const uint8_t *d)
{
	const size_t ds = x->u->g->digest_size, n = x->u->changed.n;

	if (x->no_digests || !d) {
		x->no_digests = 1;
		return 0;
	}
	if (n > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 1024;
		uint8_t *p;

		if (cap < n || cap > SIZE_MAX / ds ||
		    !(p = realloc(x->digests, cap * ds)))
			return ht_fail(&x->err, ENOMEM, "out of memory");
		x->digests = p;
		x->cap = cap;
	}
	memcpy(x->digests + (n - 1) * ds, d, ds);
	return 0;
}

static void found_one(void *ctx, const struct ht_failure *f)
{
	struct found *x = ctx;

	if (f->kind == HT_BAD_DATA_BLOCK) {
		atomic_fetch_add(&x->u->seen.found, 1);
		if (!x->r)
			x->r = verity_update_push(&x->u->changed, f->block,
						  &x->err);
		if (!x->r)
			x->r = keep_digest(x, f->digest);
	} else if (!x->has_other) {
		x->has_other = 1;
		x->other = f->block;
		x->kind = f->kind;
	}
}

static int changed_by_verify(struct update *u, const struct verity_run *run,
			     struct ht_error *err)
{
	struct update_io ctx = {
		{&u->d.data, &u->d.hash, u->pair->layout.tree_offset, NULL}, u};
	struct ht_options opt = run->ht;
	struct ht_verify_result res;
	struct found x;
	struct ht_io io;
	int r;

	memset(&x, 0, sizeof(x));
	x.u = u;
	verity_io_init(&io, &ctx.io);
	/* with parity, the reads make it too once the change is large */
	if ((r = verity_update_seen_start(u, run, &io, err)))
		return r;
	opt.report = found_one;
	opt.report_ctx = &x;
	opt.suspects = 0;
	r = ht_verify(u->g, &u->h, &io, &opt, u->pair->root, &res, err);
	if (!r && x.r) {
		ht_handover(err, &x.err);
		r = x.r;
	}
	/* the digests kept if every one came, in block order (the reports
	 * come in window order) */
	for (size_t i = 1; !r && !x.no_digests && i < u->changed.n; i++)
		x.no_digests = u->changed.v[i] <= u->changed.v[i - 1];
	if (!r && !x.no_digests && u->changed.n) {
		u->found_digests = x.digests;
		x.digests = NULL;
	}
	free(x.digests);
	if (r)
		return r;
	/* a tree of one data block has no levels: the block's digest is the
	 * root, and a root that does not match is that block changed (no
	 * old tree to prove, nor to write over) */
	if (!u->g->levels && !res.root_matches && !x.has_other) {
		free(u->found_digests);
		u->found_digests = NULL;
		u->changed.n = 0;
		return verity_update_push(&u->changed, 0, err);
	}
	if (!res.root_matches || res.root_first)
		return ht_fail(err, EPERM,
			       "%s: the top of the tree does not match the old "
			       "root hash (a wrong root hash, or a damaged "
			       "tree): nothing written",
			       u->pair->hash.path);
	if (x.has_other)
		return ht_fail(
			err, EPERM,
			"%s: %s %llu of the old tree does not hold (%s): "
			"nothing written",
			u->pair->hash.path,
			x.kind == HT_UNREADABLE_DATA ? "data block"
						     : "hash block",
			(unsigned long long)x.other,
			x.kind == HT_BAD_PADDING ? "its padding"
			: x.kind == HT_UNREADABLE_DATA ||
					x.kind == HT_UNREADABLE_HASH
				? "unreadable"
				: "it does not match its parent");
	u->changed.n = verity_update_uniq(u->changed.v, u->changed.n);
	return 0;
}

/* Level 0 streamed (found by hashing, a change over many leaves, no old
 * bytes kept): the leaves in need read a run at a time into one buffer
 * and the changed blocks' digests set in them, then hashed into their
 * parents (up: the parents, or the root), or written (write). Twice
 * through a buffer of 1 MiB costs less than the tree's pages here (a
 * fault each, on memory never touched). */
static int stream_leaves(struct update *u, int write, struct blocks *up,
			 struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	const size_t ds = g->digest_size;
	uint8_t *buf = malloc(STREAM_RUN * u->hbs);
	uint8_t *dig = malloc(STREAM_RUN * HT_MAX_DIGEST_SIZE);
	size_t c = 0;
	int r = buf && dig ? 0 : ht_fail(err, ENOMEM, "out of memory");

	for (size_t i = 0, k; !r && i < u->need.n; i += k) {
		const uint64_t t0 = u->need.v[i];
		const uint64_t off = u->pair->layout.tree_offset + t0 * u->hbs;
		uint64_t parent;
		size_t slot;

		k = run_of(u->need.v, u->need.n, i);
		if ((r = verity_device_read(&u->d.hash, off, buf, k * u->hbs,
					    err)))
			break;
		/* the changed blocks under this run (both lists in order) */
		for (; c < u->changed.n; c++) {
			ht_data_parent(g, u->changed.v[c], &parent, &slot);
			if (parent >= t0 + k)
				break;
			memcpy(buf + (parent - t0) * u->hbs + slot,
			       u->found_digests + c * ds, ds);
		}
		if (write) {
			r = verity_device_write(&u->d.hash, off, buf,
						k * u->hbs, err);
			continue;
		}
		if ((r = ht_hash_blocks(&u->h, buf, u->hbs, k, dig, ds, err)))
			break;
		for (size_t j = 0; !r && j < k; j++) {
			if (ht_tree_parent(g, t0 + j, &parent, &slot) == 1) {
				memcpy(u->root, dig + j * ds, ds);
				continue;
			}
			memcpy(u->tree + parent * u->hbs + slot, dig + j * ds,
			       ds);
			if (!up->n || up->v[up->n - 1] != parent)
				r = verity_update_push(up, parent, err);
		}
	}
	free(buf);
	free(dig);
	return r;
}

/* The hash blocks over the changed leaves hashed again, level by level
 * (from: the blocks to start from, if level 0 was streamed): u->dirty
 * holds every tree block rewritten, u->root the new root. */
static int rehash_up(struct update *u, struct blocks *from,
		     struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	struct blocks level = {0};
	uint8_t d[HT_MAX_DIGEST_SIZE];
	int r = 0;

	if (from) {
		level = *from;
		memset(from, 0, sizeof(*from));
	}
	for (size_t i = 0; !r && !from && i < u->changed.n; i++) {
		uint64_t parent;
		size_t slot;

		if (ht_data_parent(g, u->changed.v[i], &parent, &slot) != 1)
			r = verity_update_push(&level, parent, err);
	}
	while (!r && level.n) {
		struct blocks up = {0};

		level.n = verity_update_uniq(level.v, level.n);
		for (size_t i = 0; !r && i < level.n; i++) {
			uint64_t t = level.v[i], parent;
			size_t slot;

			if ((r = verity_update_push(&u->dirty, t, err)) ||
			    (r = ht_hash_blocks(&u->h, u->tree + t * u->hbs,
						u->hbs, 1, d, g->digest_size,
						err)))
				break;
			if (ht_tree_parent(g, t, &parent, &slot) == 1) {
				memcpy(u->root, d, g->digest_size);
			} else {
				keep_old(u, parent);
				memcpy(u->tree + parent * u->hbs + slot, d,
				       g->digest_size);
				r = verity_update_push(&up, parent, err);
			}
		}
		free(level.v);
		level = up;
	}
	free(level.v);
	if (!r)
		u->dirty.n = verity_update_uniq(u->dirty.v, u->dirty.n);
	return r;
}

/* The tree's place in memory (and, if keep, the place of the old bytes
 * of the blocks rewritten), and its upper levels read into it (all but
 * level 0: 1/128 of the tree at 4 KiB blocks and sha256, and every
 * parent a leaf is proven against). */
static int load_tree(struct update *u, int keep, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	const uint64_t len = g->tree_blocks * u->hbs;
	void *p;

	if (len > SIZE_MAX / 2 - 1)
		return ht_fail(err, EFBIG,
			       "the tree (%llu bytes) does not fit "
			       "in memory",
			       (unsigned long long)len);
	u->tree_len = len ? (size_t)len * (keep ? 2 : 1) : 1;
	if (keep && len &&
	    !(u->kept = calloc((size_t)(g->tree_blocks + 63) / 64,
			       sizeof(*u->kept))))
		return ht_fail(err, ENOMEM, "out of memory");
	p = mmap(NULL, u->tree_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		u->tree_len = 0;
		return ht_fail(err, ENOMEM,
			       "out of memory for the tree (%llu bytes)",
			       (unsigned long long)len);
	}
	u->tree = p;
	if (u->kept)
		u->old = u->tree + len;
	if (!g->levels || !g->level_first[0])
		return 0;
	return verity_device_read(&u->d.hash, u->pair->layout.tree_offset,
				  u->tree, (size_t)(g->level_first[0] * u->hbs),
				  err);
}

/* The level-0 blocks over the changed data blocks (u->need). */
static int leaves_in_need(struct update *u, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	int r = 0;

	for (size_t i = 0; !r && i < u->changed.n; i++) {
		uint64_t parent;
		size_t slot;

		if (ht_data_parent(g, u->changed.v[i], &parent, &slot) != 1 &&
		    (!u->need.n || u->need.v[u->need.n - 1] != parent))
			r = verity_update_push(&u->need, parent, err);
	}
	return r;
}

/* Those blocks read into the tree in memory. */
static int read_leaves(struct update *u, struct ht_error *err)
{
	int r = 0;

	for (size_t i = 0, k; !r && i < u->need.n; i += k) {
		k = run_of(u->need.v, u->need.n, i);
		r = verity_device_read(
			&u->d.hash,
			u->pair->layout.tree_offset + u->need.v[i] * u->hbs,
			u->tree + u->need.v[i] * u->hbs, k * u->hbs, err);
	}
	return r;
}

/* Without a superblock or a count given, the tree is taken to cover
 * every block of the data device: the last level-0 block, for the data
 * that grew within it (more blocks, the same upper levels, all proven
 * against the old root), is kept as it is proven. */
static int need_last_leaves(struct update *u, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	uint64_t last = g->level_first[0] + g->level_blocks[0] - 1;

	if (u->need.n && u->need.v[u->need.n - 1] == last)
		return 0;
	return verity_update_push(&u->need, last, err);
}

/* Those leaves, proven: one that is empty (zeros, a digest no block
 * has) under a data block the change leaves alone is the old tree's
 * padding: the data grew past the blocks the tree was made for. */
static int grown_within(struct update *u, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	uint64_t last = g->level_first[0] + g->level_blocks[0] - 1;
	uint64_t first = g->data_blocks - ht_children_of(g, 0, last);
	size_t c = 0;

	for (uint64_t b = first; b < g->data_blocks; b++) {
		uint64_t parent;
		size_t slot, x = 0;

		while (c < u->changed.n && u->changed.v[c] < b)
			c++;
		if (c < u->changed.n && u->changed.v[c] == b)
			continue;
		ht_data_parent(g, b, &parent, &slot);
		while (x < g->digest_size &&
		       !u->tree[parent * u->hbs + slot + x])
			x++;
		if (x == g->digest_size)
			return ht_fail_fix(
				err, EINVAL, HT_PARAM_DATA_BLOCKS, b, 0,
				"a tree's size is fixed: format again, or give "
				"%1 if the bytes past them are not the tree's "
				"data",
				"%s: the tree covers %llu data blocks, fewer "
				"than the %llu of the data (its leaf for block "
				"%llu is empty), which would leave the rest "
				"unprotected: nothing written",
				u->pair->data.path, (unsigned long long)b,
				(unsigned long long)g->data_blocks,
				(unsigned long long)b);
	}
	return 0;
}

/* The superblock as it is (512 bytes at the hash offset). */
static int read_sb(struct update *u, uint8_t sb[VERITY_SB_SIZE],
		   struct ht_error *err)
{
	return verity_device_read(&u->d.hash, u->pair->params.hash_offset, sb,
				  VERITY_SB_SIZE, err);
}

int verity_update(struct verity_pair *pair, const struct verity_range *ranges,
		  size_t n, const struct verity_run *run,
		  struct verity_update_result *res, struct ht_error *err)
{
	const struct verity_params *p = &pair->params;
	const int has_sb = !p->no_superblock;
	uint8_t sb[VERITY_SB_SIZE], mark[VERITY_SB_SIZE];
	struct update u;
	struct crew crew;
	int r, resume = 0, stream = 0, grown;
	struct blocks up = {0};

	memset(res, 0, sizeof(*res));
	memset(&u, 0, sizeof(u));
	crew_clear(&crew);
	u.pair = pair;
	pair->data_read_only = 1;
	r = verity_pair_open(pair, VERITY_OPEN_WRITE, VERITY_OPEN_WRITE, &u.d,
			     err);
	pair->data_read_only = 0;
	if (r)
		return r;
	u.g = &pair->layout.geo;
	u.hbs = p->hash_block_size;
	u.dbs = p->data_block_size;
	/* a tree's size is fixed: data past its blocks (the data grew)
	 * would be left out of the new root, which would still be called
	 * the data's */
	if (u.d.data.size > pair->layout.data_bytes &&
	    !pair->data_blocks_given) {
		r = ht_fail_fix(
			err, EINVAL, HT_PARAM_DATA_BLOCKS, p->data_blocks, 0,
			"a tree's size is fixed: format again, or give %1 if "
			"the bytes past them are not the tree's data",
			"%s: %llu bytes, more than the %llu data blocks of %u "
			"bytes the tree covers, which would leave the rest "
			"unprotected: nothing written",
			pair->data.path, (unsigned long long)u.d.data.size,
			(unsigned long long)p->data_blocks, (unsigned)u.dbs);
		goto close;
	}
	if ((r = ht_hasher_init(&u.h, p->hash_name, p->hash_type, p->salt,
				p->salt_size, err)))
		goto close;
	ht_hasher_use_kernel(&u.h, run->sha256);
	if (pair->root_size != u.g->digest_size) {
		r = ht_fail(err, EINVAL,
			    "the old root hash has %zu bytes, %s digests %u",
			    pair->root_size, p->hash_name, u.g->digest_size);
		goto close;
	}
	/* an interrupted update of this very change: its marker names the
	 * old root it started from and the root it was making */
	if (has_sb && !(r = read_sb(&u, sb, err)) &&
	    !memcmp(sb, VERITY_SB_UPDATING, 8)) {
		if (memcmp(sb + VERITY_SB_UPDATE_OLD, pair->root,
			   u.g->digest_size)) {
			r = ht_fail(err, EPERM,
				    "%s: an interrupted update from another "
				    "old root hash (run that update again)",
				    pair->hash.path);
			goto close;
		}
		resume = 1;
		memcpy(mark, sb, sizeof(mark));
		memcpy(sb, "verity\0\0", 8);
		memset(sb + VERITY_SB_UPDATE_OLD, 0,
		       VERITY_SB_SIZE - VERITY_SB_UPDATE_OLD);
	}
	if (r)
		goto close;
	/* the threads that will prove level 0 with this one started now
	 * (to be running by then) */
	if (ranges && u.g->levels && u.g->level_blocks[0] * u.hbs >= (1u << 20))
		crew_start(&crew, run->ht.threads);
	/* the old bytes of what is rewritten kept for the parity's deltas
	 * (resumed: parity encoded again, as what was written is unknown) */
	if ((r = load_tree(&u, pair->layout.fec.roots && !resume, err)))
		goto close;
	memcpy(u.root, pair->root, u.g->digest_size);
	if (ranges)
		r = changed_from_ranges(&u, ranges, n, err);
	else if (resume)
		/* what changed can no longer be told from the leaves: every
		 * block hashed again */
		for (uint64_t b = 0; !r && b < u.g->data_blocks; b++)
			r = verity_update_push(&u.changed, b, err);
	else
		r = changed_by_verify(&u, run, err);
	/* the parity's plan, before the old bytes are kept: with ranges,
	 * the rounds of the changed data blocks encoded while the tree is
	 * proven (the tree blocks' changes added to them once known) */
	if (!r && !resume && u.g->levels && u.old)
		r = verity_update_parity_plan(&u, ranges != NULL, err);
	/* the whole parity made again: no change is added to it, and the
	 * old bytes (pages never touched, here: a fault each) are not kept */
	if (!r && u.parity.full)
		u.old = NULL;
	/* the leaves over the change: taken from the old tree as it is
	 * proven (ranges), read (found by verify, which proved the tree,
	 * or resumed over the change), or streamed (found by verify, many
	 * of them, no old bytes kept); resumed without ranges: every leaf
	 * built again */
	grown = ranges && p->no_superblock && !pair->data_blocks_given &&
		u.g->levels;
	if (!r && (ranges || !resume)) {
		r = leaves_in_need(&u, err);
		if (!r && grown)
			r = need_last_leaves(&u, err);
		stream = !r && !ranges && !resume && u.found_digests &&
			 !u.old && u.g->levels &&
			 !run->tuning.update_hold_leaves;
		if (!r && (!ranges || resume) && !stream)
			r = read_leaves(&u, err);
	}
	/* resumed over ranges: the marker proves nothing (whoever can
	 * write the hash image can write it, with any root), so the tree
	 * is proven against the old root as a fresh update proves it. The
	 * interrupted update may have rewritten the hash blocks over the
	 * change above level 0; every byte of theirs but the slots of the
	 * blocks below them on the way to the change is the old tree's,
	 * so those slots are made again from the blocks below first. The
	 * leaves over the change must still be the old ones: once one is
	 * rewritten, the old digests of the changed blocks are gone and
	 * the tree can no longer be proven, only rebuilt from all the data
	 * (a re-run without ranges) */
	if (!r && resume && ranges && u.g->levels) {
		r = rehash_up(&u, NULL, err);
		u.dirty.n = 0;
		memcpy(u.root, pair->root, u.g->digest_size);
	}
	/* nothing is reused before the old tree is proven */
	if (!r && ranges && u.g->levels)
		r = prove_tree(
			&u, pair->root, 0, !resume, !resume, run->ht.threads,
			&crew,
			resume ? "the tree does not match the old root hash (a "
				 "wrong root hash, a damaged tree, or one the "
				 "interrupted update had rewritten over the "
				 "change, which only a re-run without changed "
				 "ranges can complete, from all the data): "
				 "nothing written"
			       : "the old tree does not match the old root "
				 "hash (a wrong root hash, or a damaged tree): "
				 "nothing written",
			err);
	if (!r && grown)
		r = grown_within(&u, err);
	/* the changed leaves set from the data: found by verify, from the
	 * digests it computed (the data the parity was made from, if it
	 * was), else hashed */
	if (!r && stream)
		r = stream_leaves(&u, 0, &up, err);
	else if (!r && u.found_digests)
		for (size_t i = 0; i < u.changed.n; i++)
			set_leaf(&u, u.changed.v[i],
				 u.found_digests + i * u.g->digest_size);
	else if (!r)
		r = hash_data(&u, u.changed.v, u.changed.n, err);
	/* every hash block the changed leaves reach hashed again (resumed
	 * without ranges: every leaf, so the whole tree) */
	if (!r)
		r = rehash_up(&u, stream ? &up : NULL, err);
	/* resumed without ranges: the whole tree, rebuilt from all the
	 * data, proven against the root it makes, which must be the one
	 * the interrupted update was making */
	if (!r && resume && !ranges && u.g->levels)
		r = prove_tree(&u, u.root, 1, 0, 0, run->ht.threads, NULL,
			       "the tree left by the interrupted update does "
			       "not match the root it was making: nothing "
			       "written",
			       err);
	if (r)
		goto close;
	res->changed_blocks = u.changed.n;
	if (resume &&
	    memcmp(u.root, mark + VERITY_SB_UPDATE_NEW, u.g->digest_size)) {
		r = ht_fail(err, EPERM,
			    "%s: the interrupted update was making another "
			    "root hash than this data gives (the data changed "
			    "since): nothing written",
			    pair->data.path);
		goto close;
	}
	if (!u.dirty.n && !u.changed.n && !resume)
		goto done; /* nothing changed: nothing written */
	/* the marker, durable before the first block */
	if (has_sb) {
		memcpy(mark, sb, sizeof(mark));
		memcpy(mark, VERITY_SB_UPDATING, 8);
		memcpy(mark + VERITY_SB_UPDATE_OLD, pair->root,
		       u.g->digest_size);
		memcpy(mark + VERITY_SB_UPDATE_NEW, u.root, u.g->digest_size);
		if ((r = verity_device_write(&u.d.hash, p->hash_offset, mark,
					     sizeof(mark), err)) ||
		    (r = verity_device_flush(&u.d.hash, err)))
			goto close;
	}
	for (size_t i = 0, k; !r && i < u.dirty.n; i += k) {
		k = run_of(u.dirty.v, u.dirty.n, i);
		r = verity_device_write(
			&u.d.hash,
			pair->layout.tree_offset + u.dirty.v[i] * u.hbs,
			u.tree + u.dirty.v[i] * u.hbs, k * u.hbs, err);
	}
	if (!r && stream)
		r = stream_leaves(&u, 1, NULL, err);
	res->tree_blocks = u.dirty.n + (stream ? u.need.n : 0);
	if (!r && pair->layout.fec.roots) {
		/* resumed without ranges: every round (what changed is no
		 * longer known) */
		r = verity_update_parity_write(&u, resume && !ranges, &run->ht,
					       res, err);
	}
	/* the tree and parity durable (both files' flushes at once), then
	 * the superblock back */
	if (!r)
		r = verity_device_flush_both(
			&u.d.hash, pair->layout.fec.roots ? &u.d.fec : NULL,
			err);
	if (!r && has_sb &&
	    !(r = verity_device_write(&u.d.hash, p->hash_offset, sb, sizeof(sb),
				      err)))
		r = verity_device_flush(&u.d.hash, err);
done:
	if (!r) {
		memcpy(res->root, u.root, u.g->digest_size);
		res->resumed = resume;
	}
close:
	crew_end(&crew);
	ht_hasher_free(&u.h);
	if (u.tree_len)
		munmap(u.tree, u.tree_len);
	free(u.changed.v);
	free(u.found_digests);
	free(u.need.v);
	free(up.v);
	free(u.kept);
	verity_update_parity_free(&u);
	free(u.dirty.v);
	verity_pair_close(&u.d);
	return r;
}
