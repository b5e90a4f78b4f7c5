/* update: the tree blocks and parity rounds a change reaches, rewritten
 * in place (verity/tree/update.h).
 *
 * The tree is read whole (1/128 of the data at 4 KiB blocks and sha256)
 * and proven against the old root, every block against its parent and
 * every byte of padding zero, before any of it is reused. The changed
 * data blocks are hashed, their leaves set, and each hash block they
 * reach hashed again up to the root. The superblock's place holds a
 * marker (VERITY_SB_UPDATING, with the old and the new root) while
 * tree and parity are written; the superblock, unchanged, comes back
 * last. A re-run over the marker, with the same old root, rebuilds the
 * same blocks from the data and proves the whole tree against the new
 * root the marker holds. */
#include "verity/tree/update.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hashtree/buffer.h"
#include "hashtree/hasher.h"
#include "verity/fec/encode.h"
#include "verity/fec/rs.h"
#include "verity/fec/source.h"
#include "verity/tree/io.h"
#include "verity/tree/superblock.h"

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts and removes repeats; the new count. */
static size_t uniq(uint64_t *v, size_t n)
{
	size_t k = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* A growing array of block numbers. */
struct blocks {
	uint64_t *v;
	size_t n, cap;
};

static int push(struct blocks *b, uint64_t x, struct ht_error *err)
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

struct update {
	struct verity_pair *pair;
	const struct ht_geometry *g;
	struct verity_devices d;
	struct ht_hasher h;
	uint8_t *tree; /* every hash block, as on disk */
	void *map;     /* the tree mapped (privately: changes stay here) */
	size_t map_len;
	size_t tree_len; /* read into a buffer of this size */
	size_t hbs, dbs;
	struct blocks changed; /* data blocks */
	struct blocks dirty;   /* tree blocks rewritten */
	uint8_t root[HT_MAX_DIGEST_SIZE];
};

/* The children of tree block t: how many there are. */
static uint64_t children_of(const struct ht_geometry *g, uint64_t t,
			    uint32_t level)
{
	uint64_t below = level ? g->level_blocks[level - 1] : g->data_blocks;
	uint64_t i = t - g->level_first[level], per = ht_digests_per_block(g);

	return below - i * per < per ? below - i * per : per;
}

/* Tree block t's bytes other than its children's digests are zero. */
static int padding_zero(const struct update *u, uint64_t t, uint32_t level)
{
	const struct ht_geometry *g = u->g;
	const uint8_t *b = u->tree + t * u->hbs;
	uint64_t n = children_of(g, t, level);

	for (uint64_t k = 0; k < n; k++)
		for (size_t x = g->digest_size; x < g->slot_size; x++)
			if (b[k * g->slot_size + x])
				return 0;
	for (size_t x = (size_t)n * g->slot_size; x < u->hbs; x++)
		if (b[x])
			return 0;
	return 1;
}

/* Tree block t (of level l), whose digest is d, against its parent's
 * slot (the root for the top), its padding zero: 0, or -EPERM naming
 * it. */
static int prove_one(struct update *u, uint64_t t, uint32_t l, const uint8_t *d,
		     const uint8_t *root, const char *what,
		     struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	uint64_t parent;
	size_t slot;
	int top = ht_tree_parent(g, t, &parent, &slot) == 1;
	const uint8_t *want = top ? root : u->tree + parent * u->hbs + slot;

	if (!memcmp(d, want, g->digest_size) && padding_zero(u, t, l))
		return 0;
	return ht_fail(
		err, EPERM,
		"%s: hash block %llu (level %u, at byte %llu) does not "
		"match %s: %s",
		u->pair->hash.path, (unsigned long long)t, l,
		(unsigned long long)(u->pair->layout.tree_offset + t * u->hbs),
		top ? "the root hash" : "its parent", what);
}

/* Hash blocks proven at a time (the kernels hash several at once). */
#define PROVE_BATCH 256
/* Threads that load and prove the tree at most. */
#define PROVE_THREADS 8

/* Tree blocks [first, end) proven against root: 0, or -EPERM naming the
 * first that is not (into err). */
static int prove_range(struct update *u, uint64_t first, uint64_t end,
		       const uint8_t *root, const char *what,
		       struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	uint8_t *dig = malloc(PROVE_BATCH * HT_MAX_DIGEST_SIZE);
	int r = 0;

	if (!dig)
		return ht_fail(err, ENOMEM, "out of memory");
	for (uint64_t t0 = first; !r && t0 < end;) {
		uint32_t l = ht_level_of(g, t0);
		uint64_t lend = g->level_first[l] + g->level_blocks[l];
		size_t m = (lend < end ? lend : end) - t0;

		if (m > PROVE_BATCH)
			m = PROVE_BATCH;
		if ((r = ht_hash_blocks(&u->h, u->tree + t0 * u->hbs, u->hbs, m,
					dig, g->digest_size, err)))
			break;
		for (size_t k = 0; !r && k < m; k++)
			r = prove_one(u, t0 + k, l, dig + k * g->digest_size,
				      root, what, err);
		t0 += m;
	}
	free(dig);
	return r;
}

/* One thread's share of the tree: its blocks read, or proven. */
struct prove_job {
	struct update *u;
	uint64_t first, end; /* tree blocks */
	const uint8_t *root; /* NULL: read them */
	const char *what;
	int r;
	struct ht_error err;
};

static void *prove_worker(void *arg)
{
	struct prove_job *j = arg;
	struct update *u = j->u;

	if (j->end <= j->first)
		return NULL;
	if (!j->root)
		j->r = verity_device_read(
			&u->d.hash,
			u->pair->layout.tree_offset + j->first * u->hbs,
			u->tree + j->first * u->hbs,
			(size_t)((j->end - j->first) * u->hbs), &j->err);
	else
		j->r = prove_range(u, j->first, j->end, j->root, j->what,
				   &j->err);
	return NULL;
}

/* The tree's blocks read (root NULL) or proven against root, split over
 * up to threads threads (one that will not start: its share done here):
 * 0, or the error of the first block (top down) that failed. */
static int split_tree(struct update *u, unsigned threads, const uint8_t *root,
		      const char *what, struct ht_error *err)
{
	const uint64_t n = u->g->tree_blocks;
	struct prove_job jobs[PROVE_THREADS];
	pthread_t tid[PROVE_THREADS];
	int started[PROVE_THREADS] = {0};
	unsigned nt = threads ? threads : 1;
	int r = 0;

	if (nt > PROVE_THREADS)
		nt = PROVE_THREADS;
	/* small trees are not worth a thread */
	if (n * u->hbs < (1u << 20))
		nt = 1;
	for (unsigned i = 0; i < nt; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].u = u;
		jobs[i].first = n * i / nt;
		jobs[i].end = n * (i + 1) / nt;
		jobs[i].root = root;
		jobs[i].what = what;
	}
	for (unsigned i = 1; i < nt; i++)
		started[i] =
			!pthread_create(&tid[i], NULL, prove_worker, &jobs[i]);
	prove_worker(&jobs[0]);
	for (unsigned i = 1; i < nt; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			prove_worker(&jobs[i]);
	}
	/* the first failure, in the tree's order (top levels first) */
	for (unsigned i = 0; !r && i < nt; i++)
		if ((r = jobs[i].r))
			*err = jobs[i].err;
	return r;
}

/* Every hash block proven against root, top down: 0, or -EPERM naming
 * the first that is not. */
static int prove_tree(struct update *u, const uint8_t *root, unsigned threads,
		      const char *what, struct ht_error *err)
{
	return split_tree(u, threads, root, what, err);
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
			if ((r = push(&u->changed, b, err)))
				return r;
	}
	u->changed.n = uniq(u->changed.v, u->changed.n);
	return 0;
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
		for (size_t j = 0; !r && j < m; j++) {
			uint64_t parent;
			size_t slot;
			uint8_t *at =
				ht_data_parent(g, v[i + j], &parent, &slot) == 1
					? u->root
					: u->tree + parent * u->hbs + slot;

			memcpy(at, dig + j * g->digest_size, g->digest_size);
		}
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
};

static void found_one(void *ctx, const struct ht_failure *f)
{
	struct found *x = ctx;

	if (f->kind == HT_BAD_DATA_BLOCK) {
		if (!x->r)
			x->r = push(&x->u->changed, f->block, &x->err);
	} else if (!x->has_other) {
		x->has_other = 1;
		x->other = f->block;
		x->kind = f->kind;
	}
}

static int changed_by_verify(struct update *u, const struct verity_run *run,
			     struct ht_error *err)
{
	struct verity_io_ctx ctx = {&u->d.data, &u->d.hash,
				    u->pair->layout.tree_offset, NULL};
	struct ht_options opt = run->ht;
	struct ht_verify_result res;
	struct found x = {u, 0, {{0}, 0, 0, {0, 0}, {0}}, 0, 0, 0};
	struct ht_io io;
	int r;

	verity_io_init(&io, &ctx);
	opt.report = found_one;
	opt.report_ctx = &x;
	opt.suspects = 0;
	if ((r = ht_verify(u->g, &u->h, &io, &opt, u->pair->root, &res, err)))
		return r;
	if (x.r) {
		*err = x.err;
		return x.r;
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
	u->changed.n = uniq(u->changed.v, u->changed.n);
	return 0;
}

/* The hash blocks over the changed leaves hashed again, level by level:
 * u->dirty holds every tree block rewritten, u->root the new root. */
static int rehash_up(struct update *u, struct ht_error *err)
{
	const struct ht_geometry *g = u->g;
	struct blocks level = {0};
	uint8_t d[HT_MAX_DIGEST_SIZE];
	int r = 0;

	for (size_t i = 0; !r && i < u->changed.n; i++) {
		uint64_t parent;
		size_t slot;

		if (ht_data_parent(g, u->changed.v[i], &parent, &slot) != 1)
			r = push(&level, parent, err);
	}
	while (!r && level.n) {
		struct blocks up = {0};

		level.n = uniq(level.v, level.n);
		for (size_t i = 0; !r && i < level.n; i++) {
			uint64_t t = level.v[i], parent;
			size_t slot;

			if ((r = push(&u->dirty, t, err)) ||
			    (r = ht_hash_blocks(&u->h, u->tree + t * u->hbs,
						u->hbs, 1, d, g->digest_size,
						err)))
				break;
			if (ht_tree_parent(g, t, &parent, &slot) == 1) {
				memcpy(u->root, d, g->digest_size);
			} else {
				memcpy(u->tree + parent * u->hbs + slot, d,
				       g->digest_size);
				r = push(&up, parent, err);
			}
		}
		free(level.v);
		level = up;
	}
	free(level.v);
	if (!r)
		u->dirty.n = uniq(u->dirty.v, u->dirty.n);
	return r;
}

/* Consecutive parity rounds encoded together at most. */
#define RUN_ROUNDS 8

/* One thread's share of the rounds to write: encoded from their covered
 * blocks, runs of consecutive rounds together, and written. */
struct parity_job {
	const struct update *u;
	const struct fec_source *src;
	const struct fec_rs *rs;
	const uint64_t *rounds; /* sorted */
	size_t n;
	int r;
	struct ht_error err;
};

static void *parity_worker(void *arg)
{
	struct parity_job *j = arg;
	const struct verity_fec_layout *fl = j->src->fl;
	const unsigned rsn = j->rs->rsn, roots = fl->roots;
	const size_t run = (size_t)fl->block_size * RUN_ROUNDS;
	uint8_t **msg = calloc(rsn, sizeof(*msg));
	uint8_t **planes = calloc(roots, sizeof(*planes));
	uint8_t *out = malloc(run * roots);
	int r = msg && planes && out ? 0 : -ENOMEM;

	for (unsigned i = 0; !r && i < rsn; i++)
		if (!(msg[i] = malloc(run)))
			r = -ENOMEM;
	for (unsigned k = 0; !r && k < roots; k++)
		if (!(planes[k] = malloc(run)))
			r = -ENOMEM;
	if (r)
		r = ht_fail(&j->err, ENOMEM, "out of memory");
	/* runs of consecutive rounds (the tree blocks a change reaches lie
	 * together): message symbol i of a run is one read of consecutive
	 * covered blocks */
	for (size_t i = 0; !r && i < j->n;) {
		uint64_t n = j->rounds[i], k = 1;
		size_t len;

		while (i + k < j->n && k < RUN_ROUNDS &&
		       j->rounds[i + k] == n + k)
			k++;
		i += k;
		len = (size_t)(k * fl->block_size);
		/* codeword symbol s of round n: covered block n + s * rounds */
		for (unsigned sym = 0; !r && sym < rsn; sym++) {
			uint64_t c = (uint64_t)sym * fl->rounds + n;

			if (c >= fl->blocks)
				memset(msg[sym], 0, len);
			else
				r = verity_fec_read_covered(j->src, c, k,
							    msg[sym], &j->err);
		}
		if (r)
			break;
		verity_fec_encode_stored(j->rs, len, msg, planes, out);
		r = verity_device_write(&j->u->d.fec,
					fl->offset + n * fl->block_size * roots,
					out, len * roots, &j->err);
	}
	for (unsigned i = 0; msg && i < rsn; i++)
		free(msg[i]);
	for (unsigned k = 0; planes && k < roots; k++)
		free(planes[k]);
	free(msg);
	free(planes);
	free(out);
	j->r = r;
	return NULL;
}

/* The parity rounds the written blocks are in (all: every round),
 * encoded again from the covered blocks as they now are, and written, on
 * up to threads threads. */
static int rewrite_parity(struct update *u, int all, unsigned threads,
			  struct verity_update_result *res,
			  struct ht_error *err)
{
	const struct verity_fec_layout *fl = &u->pair->layout.fec;
	const uint64_t tree_off = u->pair->layout.tree_offset;
	/* (the superblock, whose place holds the marker meanwhile, is no
	 * covered block: the parity starts at the tree) */
	struct fec_source src = {&u->d.data, &u->d.hash, &u->d.fec, fl, NULL};
	struct parity_job jobs[PROVE_THREADS];
	pthread_t tid[PROVE_THREADS];
	int started[PROVE_THREADS] = {0};
	struct blocks rounds = {0};
	struct fec_rs rs = {0};
	unsigned nt = threads ? threads : 1;
	int r = 0;

	for (size_t i = 0; !r && i < u->changed.n; i++)
		r = push(&rounds, u->changed.v[i] % fl->rounds, err);
	for (size_t i = 0; !r && i < u->dirty.n; i++) {
		uint64_t at =
			(tree_off + u->dirty.v[i] * u->hbs) / fl->block_size;

		if (at >= fl->hash_start_block &&
		    at - fl->hash_start_block < fl->hash_blocks)
			r = push(&rounds,
				 (fl->data_blocks + at - fl->hash_start_block) %
					 fl->rounds,
				 err);
	}
	if (r)
		goto out;
	rounds.n = uniq(rounds.v, rounds.n);
	if ((r = verity_fec_rs_init(&rs, fl->roots, err)))
		goto out;
	/* a round alone reads its rsn blocks one by one: past a quarter of
	 * the rounds, the pass over all of them (runs of blocks, every
	 * thread) reads less per round */
	if (all || rounds.n * 4 > fl->rounds) {
		r = verity_fec_parity_pass(&src, &rs, FEC_PASS_WRITE, NULL,
					   threads, NULL, err);
		if (!r)
			res->parity_rounds = fl->rounds;
		goto out;
	}
	if (nt > PROVE_THREADS)
		nt = PROVE_THREADS;
	if (nt > rounds.n)
		nt = rounds.n ? (unsigned)rounds.n : 1;
	for (unsigned i = 0; i < nt; i++) {
		size_t first = rounds.n * i / nt, end = rounds.n * (i + 1) / nt;

		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].u = u;
		jobs[i].src = &src;
		jobs[i].rs = &rs;
		jobs[i].rounds = rounds.v + first;
		jobs[i].n = end - first;
	}
	for (unsigned i = 1; i < nt; i++)
		started[i] =
			!pthread_create(&tid[i], NULL, parity_worker, &jobs[i]);
	parity_worker(&jobs[0]);
	for (unsigned i = 1; i < nt; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			parity_worker(&jobs[i]);
	}
	for (unsigned i = 0; !r && i < nt; i++)
		if ((r = jobs[i].r))
			*err = jobs[i].err;
	if (!r)
		res->parity_rounds = rounds.n;
out:
	if (rs.karn)
		verity_fec_rs_free(&rs);
	free(rounds.v);
	return r;
}

/* The tree in memory: mapped privately from the hash image (no copy out
 * of the page cache; the blocks changed here are copied on write and
 * written back with pwrite), or read (no_map, or a region read through
 * extents). */
static int load_tree(struct update *u, int no_map, unsigned threads,
		     struct ht_error *err)
{
	const uint64_t len = u->g->tree_blocks * u->hbs;
	const struct verity_device *h = &u->d.hash;

	if (!len)
		return (u->tree = malloc(1))
			       ? 0
			       : ht_fail(err, ENOMEM, "out of memory");
	if (!no_map && !h->src) {
		uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
		uint64_t off = h->base + u->pair->layout.tree_offset;
		uint64_t base = off - off % page;
		void *p = mmap(NULL, (size_t)(len + off - base),
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_POPULATE, h->fd, (off_t)base);

		if (p != MAP_FAILED) {
			u->map = p;
			u->map_len = (size_t)(len + off - base);
			u->tree = (uint8_t *)p + (off - base);
			return 0;
		}
	}
	/* huge pages, populated: a read into fresh 4 KiB pages costs more
	 * in faults than the copy */
	if (!(u->tree = ht_buffer_alloc((size_t)len)))
		return ht_fail(err, ENOMEM,
			       "out of memory for the tree (%llu bytes)",
			       (unsigned long long)len);
	u->tree_len = (size_t)len;
	return split_tree(u, threads, NULL, NULL, err);
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
	int r, resume = 0;

	memset(res, 0, sizeof(*res));
	memset(&u, 0, sizeof(u));
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
	if ((r = load_tree(&u, run->ht.no_map, run->ht.threads, err)))
		goto close;
	/* nothing is reused before the old tree is proven (resumed: the
	 * tree is proven against the new root once rebuilt) */
	if (!resume && ranges && u.g->levels &&
	    (r = prove_tree(&u, pair->root, run->ht.threads,
			    "the old tree does not match the old root hash "
			    "(a wrong root hash, or a damaged tree): nothing "
			    "written",
			    err)))
		goto close;
	memcpy(u.root, pair->root, u.g->digest_size);
	if (ranges)
		r = changed_from_ranges(&u, ranges, n, err);
	else if (resume)
		/* what changed can no longer be told from the leaves: every
		 * block hashed again */
		for (uint64_t b = 0; !r && b < u.g->data_blocks; b++)
			r = push(&u.changed, b, err);
	else
		r = changed_by_verify(&u, run, err);
	/* the changed leaves set from the data (found by verify: hashed
	 * again, as the data may change under us only through a race) */
	if (!r)
		r = hash_data(&u, u.changed.v, u.changed.n, err);
	/* every hash block the changed leaves reach hashed again (resumed
	 * without ranges: every leaf, so the whole tree) */
	if (!r)
		r = rehash_up(&u, err);
	/* resumed: the whole tree as it now stands proven against the root
	 * rebuilt, which must be the one the interrupted update made */
	if (!r && resume && u.g->levels)
		r = prove_tree(&u, u.root, run->ht.threads,
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
	for (size_t i = 0; !r && i < u.dirty.n; i++)
		r = verity_device_write(
			&u.d.hash,
			pair->layout.tree_offset + u.dirty.v[i] * u.hbs,
			u.tree + u.dirty.v[i] * u.hbs, u.hbs, err);
	res->tree_blocks = u.dirty.n;
	if (!r && pair->layout.fec.roots) {
		/* resumed without ranges: every round (what changed is no
		 * longer known) */
		r = rewrite_parity(&u, resume && !ranges, run->ht.threads, res,
				   err);
		if (!r && u.d.fec.fd >= 0 && u.d.fec.fd != u.d.hash.fd)
			r = verity_device_flush(&u.d.fec, err);
	}
	/* the tree and parity durable, then the superblock back */
	if (!r)
		r = verity_device_flush(&u.d.hash, err);
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
	ht_hasher_free(&u.h);
	if (u.map)
		munmap(u.map, u.map_len);
	else if (u.tree_len)
		ht_buffer_free(u.tree, u.tree_len);
	else
		free(u.tree);
	free(u.changed.v);
	free(u.dirty.v);
	verity_pair_close(&u.d);
	return r;
}
