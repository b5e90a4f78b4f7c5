/* fs-verity digests (verity/fsverity/digest.h).
 *
 * A dm-verity tree of format 1 with equal data and hash block sizes is
 * fs-verity's tree exactly (digests packed, each level padded to a
 * block, the top level first), once its salt is fs-verity's salt
 * zero-padded to the hash's block size and the file is zero-padded to
 * whole blocks. The padding is this file's I/O: reads past the end of
 * the file are zeros.
 *
 * hashtree/ hashes level 0, every worker on its windows
 * (ht_build_leaves); the levels above are made here as level 0's blocks
 * come, as fsverity-utils does: one block of each level in flight,
 * hashed when full (or at the end) and its digest put in its parent's.
 * A level-0 window that comes before its turn waits aside, its digests
 * only. Memory is then a few blocks per level and the workers' windows,
 * whatever the file's size; the tree is kept only when asked for, in
 * memory (the API's digest) or written to a file at its offsets. */
#include "verity/fsverity/digest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hashtree/buffer.h"
#include "hashtree/geometry.h"
#include "hashtree/thread.h"
#include "verity/storage/device.h"
#include "verity/storage/output.h"
#include "verity/tree/io.h"

static const struct {
	const char *name;
	unsigned digest_size;
	unsigned block; /* the hash's own block: the salt is padded to it */
} algs[] = {
	[FSV_SHA256] = {"sha256", 32, 64},
	[FSV_SHA512] = {"sha512", 64, 128},
};

static int alg_known(enum fsv_alg a)
{
	return a == FSV_SHA256 || a == FSV_SHA512;
}

const char *verity_fsv_alg_name(enum fsv_alg alg)
{
	return alg_known(alg) ? algs[alg].name : NULL;
}

enum fsv_alg verity_fsv_alg_of(const char *name)
{
	for (unsigned a = FSV_SHA256; a <= FSV_SHA512; a++)
		if (!strcmp(name, algs[a].name))
			return (enum fsv_alg)a;
	return 0;
}

unsigned verity_fsv_digest_size(enum fsv_alg alg)
{
	return alg_known(alg) ? algs[alg].digest_size : 0;
}

int verity_fsv_params_make(const char *hash, uint32_t block_size,
			   const uint8_t *salt, size_t salt_len,
			   struct fsv_params *p, struct ht_error *err)
{
	memset(p, 0, sizeof(*p));
	p->alg = FSV_SHA256;
	p->block_size = block_size ? block_size : 4096;
	if (hash && !(p->alg = verity_fsv_alg_of(hash)))
		return ht_fail(err, EINVAL,
			       "hash algorithm '%s': fs-verity has sha256 and "
			       "sha512",
			       hash);
	if (salt_len > FSV_MAX_SALT)
		return ht_fail(err, EINVAL,
			       "a salt of %zu bytes: fs-verity takes at most %d",
			       salt_len, FSV_MAX_SALT);
	if (salt_len)
		memcpy(p->salt, salt, salt_len);
	p->salt_size = salt_len;
	return verity_fsv_params_check(p, err);
}

int verity_fsv_params_check(const struct fsv_params *p, struct ht_error *err)
{
	if (!alg_known(p->alg))
		return ht_fail(err, EINVAL,
			       "hash algorithm %d: fs-verity has sha256 (1) "
			       "and sha512 (2)",
			       (int)p->alg);
	if (p->block_size < FSV_MIN_BLOCK || p->block_size > FSV_MAX_BLOCK ||
	    (p->block_size & (p->block_size - 1)))
		return ht_fail(err, EINVAL,
			       "block size %u: a power of two from %d to %d "
			       "bytes",
			       p->block_size, FSV_MIN_BLOCK, FSV_MAX_BLOCK);
	if (p->salt_size > FSV_MAX_SALT)
		return ht_fail(err, EINVAL,
			       "a salt of %zu bytes: at most %d", p->salt_size,
			       FSV_MAX_SALT);
	return 0;
}

void verity_fsv_digest_free(struct fsv_digest *d)
{
	if (d && d->tree)
		ht_buffer_free(d->tree, (size_t)d->tree_bytes);
	if (d)
		d->tree = NULL;
}

/* The hashers of a file's digest: the tree's (format 1, salt first, the
 * salt padded) and the descriptor's (no salt), made once for many
 * files. */
struct fsv_hashers {
	struct ht_hasher tree, desc;
};

static int hashers_init(const struct fsv_params *p, struct fsv_hashers *hs,
			struct ht_error *err)
{
	uint8_t salt[128] = {0};
	size_t unit = algs[p->alg].block;
	size_t padded = (p->salt_size + unit - 1) / unit * unit;
	int r;

	memcpy(salt, p->salt, p->salt_size);
	r = ht_hasher_init(&hs->tree, algs[p->alg].name, 1, salt, padded, err);
	if (r)
		return r;
	r = ht_hasher_init(&hs->desc, algs[p->alg].name, 1, salt, 0, err);
	if (r)
		ht_hasher_free(&hs->tree);
	return r;
}

static void hashers_free(struct fsv_hashers *hs)
{
	ht_hasher_free(&hs->tree);
	ht_hasher_free(&hs->desc);
}

/* The file's bytes, read or mapped, zeros past its end. */
struct fsv_io {
	const struct fsv_source *src;
	uint64_t size;
	const char *name;
	/* a file */
	struct verity_io_ctx vio;
	struct ht_io inner;
	/* a read callback: where the next read must start */
	uint64_t next;
	struct stream *stream; /* the levels above level 0 */
};

static int fio_read_data(void *c, uint64_t off, void *buf, size_t len,
			 struct ht_error *err)
{
	struct fsv_io *f = c;
	size_t n = off >= f->size			? 0
		   : f->size - off < (uint64_t)len ? (size_t)(f->size - off)
						   : len;
	int r = 0;

	if (n && f->src->mem) {
		memcpy(buf, f->src->mem + off, n);
	} else if (n && f->src->read) {
		if (off != f->next)
			return ht_fail(err, EINVAL,
				       "%s: read out of order (at %llu, not "
				       "%llu)",
				       f->name, (unsigned long long)off,
				       (unsigned long long)f->next);
		r = f->src->read(f->src->read_ctx, buf, n);
		if (r)
			return ht_fail(err, r < 0 ? -r : EIO,
				       "%s: cannot read bytes %llu to %llu: %s",
				       f->name, (unsigned long long)off,
				       (unsigned long long)(off + n),
				       strerror(r < 0 ? -r : EIO));
		f->next = off + n;
	} else if (n) {
		r = f->inner.read_data(f->inner.ctx, off, buf, n, err);
	}
	if (!r && n < len)
		memset((uint8_t *)buf + n, 0, len - n);
	return r;
}

/* Only whole blocks of the file are mapped; the last one, padded, is
 * read. */
static const uint8_t *fio_map_data(void *c, uint64_t off, size_t len)
{
	struct fsv_io *f = c;

	if (f->src->mem)
		return off + len <= f->src->mem_bytes ? f->src->mem + off
						      : NULL;
	if (off + len > f->size)
		return NULL;
	return f->inner.map_data(f->inner.ctx, off, len);
}

static void fio_unmap_data(void *c, const uint8_t *p, size_t len)
{
	struct fsv_io *f = c;

	if (!f->src->mem)
		f->inner.unmap_data(f->inner.ctx, p, len);
}

static int fio_data_extent(void *c, uint64_t off, int *is_hole,
			   uint32_t *pattern, uint64_t *end)
{
	struct fsv_io *f = c;

	if (off >= f->size) { /* the padding of the last block */
		*is_hole = 1;
		*pattern = 0;
		*end = UINT64_MAX;
		return 0;
	}
	return f->inner.data_extent(f->inner.ctx, off, is_hole, pattern, end);
}

static void fio_prefetch(void *c, uint64_t off, uint64_t len)
{
	struct fsv_io *f = c;

	if (off < f->size)
		f->inner.prefetch(f->inner.ctx, off,
				  f->size - off < len ? f->size - off : len);
}

/* Where a file's tree goes, block by block at its offsets from any
 * thread: NULL put for nowhere. */
struct tree_sink {
	int (*put)(void *ctx, uint64_t off, const void *buf, size_t len,
		   struct ht_error *err);
	void *ctx;
};

/* The tree in memory: bytes. */
struct mem_tree {
	uint8_t *tree;
	uint64_t bytes;
};

static int mem_put(void *c, uint64_t off, const void *buf, size_t len,
		   struct ht_error *err)
{
	struct mem_tree *m = c;

	if (off > m->bytes || len > m->bytes - off)
		return ht_fail(
			err, EIO,
			"a tree block at %llu past the tree's %llu bytes",
			(unsigned long long)off, (unsigned long long)m->bytes);
	memcpy(m->tree + off, buf, len);
	return 0;
}

/* A level-0 window that came before its turn: its blocks' digests. */
struct early {
	uint64_t first; /* its first level-0 block */
	size_t n;
	uint8_t *digests;
	struct early *next; /* the next one, in block order */
};

/* The levels above level 0, one block of each in flight. */
struct stream {
	const struct ht_geometry *g;
	const struct ht_hasher *h;
	const struct tree_sink *sink;
	const char *name;
	uint8_t *blocks; /* level l's block (1 <= l < levels) at (l - 1) * bs */
	uint32_t filled[HT_MAX_LEVELS];    /* digests in level l's block */
	uint64_t made[HT_MAX_LEVELS];      /* level l's blocks hashed */
	uint8_t carry[HT_MAX_DIGEST_SIZE]; /* the digest of the last one */
	uint8_t root[HT_MAX_DIGEST_SIZE];
	int have_root;
	uint64_t next;       /* the level-0 block whose digest comes next */
	struct early *early; /* windows aside, in block order */
	pthread_mutex_t lock;
};

static int stream_broken(const struct stream *s, const char *what,
			 struct ht_error *err)
{
	return ht_fail(err, EIO, "%s: the Merkle tree went wrong: %s", s->name,
		       what);
}

/* Level l's block in flight: hashed into carry, written out, emptied. */
static int emit(struct stream *s, uint32_t l, struct ht_error *err)
{
	const struct ht_geometry *g = s->g;
	size_t bs = g->hash_block_size;
	uint8_t *b = s->blocks + (size_t)(l - 1) * bs;
	int r;

	if (s->made[l] >= g->level_blocks[l])
		return stream_broken(s, "a level longer than its geometry",
				     err);
	r = ht_hash_blocks(s->h, b, bs, 1, s->carry, g->digest_size, err);
	if (!r && s->sink->put)
		r = s->sink->put(s->sink->ctx,
				 (g->level_first[l] + s->made[l]) * bs, b, bs,
				 err);
	s->made[l]++;
	s->filled[l] = 0;
	memset(b, 0, bs);
	return r;
}

/* Digest d into level l's block (l == levels: it is the root); a block
 * filled is hashed, its digest carried up. */
static int push(struct stream *s, uint32_t l, const uint8_t *d,
		struct ht_error *err)
{
	const struct ht_geometry *g = s->g;
	int r;

	for (; l < g->levels; l++, d = s->carry) {
		uint8_t *b = s->blocks + (size_t)(l - 1) * g->hash_block_size;

		memcpy(b + (size_t)s->filled[l] * g->slot_size, d,
		       g->digest_size);
		if (++s->filled[l] < ht_digests_per_block(g))
			return 0;
		if ((r = emit(s, l, err)))
			return r;
	}
	if (s->have_root)
		return stream_broken(s, "two roots", err);
	memcpy(s->root, d, g->digest_size);
	s->have_root = 1;
	return 0;
}

/* n digests of level-0 blocks from s->next on, in order. */
static int feed(struct stream *s, const uint8_t *d, size_t n,
		struct ht_error *err)
{
	int r = 0;

	for (size_t i = 0; !r && i < n; i++)
		r = push(s, 1, d + i * s->g->digest_size, err);
	s->next += n;
	return r;
}

/* A window's digests (d, owned from here on): fed when their turn has
 * come, with the windows aside that follow them; kept aside till then. */
static int take(struct stream *s, uint64_t first, size_t n, uint8_t *d,
		struct ht_error *err)
{
	struct early **at = &s->early, *e;
	int r;

	if (first < s->next) {
		free(d);
		return stream_broken(s, "a level-0 block written twice", err);
	}
	if (first > s->next) {
		while (*at && (*at)->first < first)
			at = &(*at)->next;
		if (!(e = malloc(sizeof(*e)))) {
			free(d);
			return ht_fail(err, ENOMEM, "out of memory");
		}
		*e = (struct early){first, n, d, *at};
		*at = e;
		return 0;
	}
	r = feed(s, d, n, err);
	free(d);
	while (!r && (e = s->early) && e->first == s->next) {
		s->early = e->next;
		r = feed(s, e->digests, e->n, err);
		free(e->digests);
		free(e);
	}
	return r;
}

/* hashtree's write of a window of level-0 blocks: out to the sink at
 * their offsets, hashed here (on the worker, while they are in cache,
 * the window at once), their digests into the levels above in order. */
static int stream_write(void *c, uint64_t off, const void *buf, size_t len,
			struct ht_error *err)
{
	struct stream *s = ((struct fsv_io *)c)->stream;
	const struct ht_geometry *g = s->g;
	size_t bs = g->hash_block_size, n = len / bs;
	uint64_t first = off / bs;
	uint8_t *d;
	int r;

	if (off % bs || len % bs || first < g->level_first[0] ||
	    first - g->level_first[0] > g->level_blocks[0] ||
	    n > g->level_blocks[0] - (first - g->level_first[0]))
		return stream_broken(s, "a write outside level 0", err);
	first -= g->level_first[0];
	if (s->sink->put &&
	    (r = s->sink->put(s->sink->ctx, off, buf, len, err)))
		return r;
	if (!(d = malloc(n * g->digest_size + 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	r = ht_hash_blocks(s->h, buf, bs, n, d, g->digest_size, err);
	if (r) {
		free(d);
		return r;
	}
	pthread_mutex_lock(&s->lock);
	r = take(s, first, n, d, err);
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* Level 0 by hashtree's workers, the levels above here: the root. */
static int stream_build(const struct ht_geometry *g, const struct ht_hasher *h,
			const struct ht_io *io, struct fsv_io *f,
			const struct ht_options *o,
			const struct tree_sink *sink, uint8_t *root,
			struct ht_error *err)
{
	struct stream s = {.g = g, .h = h, .sink = sink, .name = f->name};
	size_t bytes = (size_t)(g->levels - 1) * g->hash_block_size;
	int r = 0;

	if (bytes && !(s.blocks = ht_buffer_alloc(bytes)))
		return ht_fail(err, ENOMEM, "out of memory");
	pthread_mutex_init(&s.lock, NULL);
	f->stream = &s;
	r = ht_build_leaves(g, h, io, o, err);
	f->stream = NULL;
	/* the blocks left part-filled, from the bottom up */
	for (uint32_t l = 1; !r && l < g->levels; l++)
		if (s.filled[l] && !(r = emit(&s, l, err)))
			r = push(&s, l + 1, s.carry, err);
	if (!r && (s.next != g->level_blocks[0] || !s.have_root || s.early))
		r = stream_broken(&s, "a level left unfinished", err);
	for (uint32_t l = 1; !r && l < g->levels; l++)
		if (s.made[l] != g->level_blocks[l])
			r = stream_broken(&s, "a level cut short", err);
	if (!r)
		memcpy(root, s.root, g->digest_size);
	while (s.early) {
		struct early *e = s.early;

		s.early = e->next;
		free(e->digests);
		free(e);
	}
	pthread_mutex_destroy(&s.lock);
	ht_buffer_free(s.blocks, bytes);
	return r;
}

static void fill_descriptor(const struct fsv_params *p, struct fsv_digest *d)
{
	uint8_t *desc = d->descriptor;
	unsigned log = 0;

	while ((1u << log) < p->block_size)
		log++;
	memset(desc, 0, FSV_DESCRIPTOR_SIZE);
	desc[0] = 1; /* version */
	desc[1] = (uint8_t)p->alg;
	desc[2] = (uint8_t)log;
	desc[3] = (uint8_t)p->salt_size;
	/* 4: the signature's size, 0 in the digest */
	for (int i = 0; i < 8; i++)
		desc[8 + i] = (uint8_t)(d->size >> (8 * i));
	memcpy(desc + 16, d->root, d->digest_size);
	memcpy(desc + 80, p->salt, p->salt_size);
}

static int finish_digest(const struct fsv_params *p,
			 const struct fsv_hashers *hs, struct fsv_digest *d,
			 struct ht_error *err)
{
	fill_descriptor(p, d);
	return ht_hash_blocks(&hs->desc, d->descriptor, FSV_DESCRIPTOR_SIZE, 1,
			      d->digest, d->digest_size, err);
}

/* One file's digest, its hasher made by the caller; src->size set;
 * dev: the open file of a path source. The tree is kept in out when
 * keep says so, written through sink when it has put, else dropped
 * block by block. */
static int compute_with(const struct fsv_params *p,
			const struct fsv_hashers *hs,
			const struct fsv_source *src,
			const struct verity_device *dev,
			const struct ht_options *opt, int keep,
			const struct tree_sink *sink, struct fsv_digest *out,
			struct ht_error *err)
{
	struct fsv_io f = {.src = src, .size = src->size};
	struct ht_io io = {.ctx = &f,
			   .read_data = fio_read_data,
			   .write_tree = stream_write};
	struct ht_options o = opt ? *opt : (struct ht_options){.threads = 1};
	struct tree_sink none = {0}, mem = {.put = mem_put};
	struct mem_tree m = {0};
	struct ht_geometry g;
	uint64_t blocks;
	int r;

	memset(out, 0, sizeof(*out));
	out->alg = p->alg;
	out->digest_size = algs[p->alg].digest_size;
	out->size = src->size;
	f.name = src->path ? src->path : src->name ? src->name : "the file";
	if (!src->size) /* an empty file: no tree, a root of zeros */
		return finish_digest(p, hs, out, err);
	blocks = src->size / p->block_size + !!(src->size % p->block_size);
	r = ht_geometry_init(&g, blocks, p->block_size, p->block_size,
			     out->digest_size, 1, err);
	if (r)
		return r;
	if (keep && g.tree_blocks) {
		if (g.tree_blocks > SIZE_MAX / p->block_size ||
		    !(m.tree = ht_buffer_alloc(
			      (size_t)(g.tree_blocks * p->block_size))))
			return ht_fail(err, ENOMEM,
				       "%s: out of memory for a tree of %llu "
				       "bytes",
				       f.name,
				       (unsigned long long)g.tree_blocks *
					       p->block_size);
		m.bytes = g.tree_blocks * p->block_size;
		mem.ctx = &m;
		sink = &mem;
	} else if (!sink) {
		sink = &none;
	}
	if (src->read) {
		o.threads = 1; /* read in order */
	} else if (src->mem) {
		io.map_data = fio_map_data;
		io.unmap_data = fio_unmap_data;
		o.no_map = 0;
	} else {
		f.vio.data = dev;
		verity_io_init(&f.inner, &f.vio);
		io.map_data = fio_map_data;
		io.unmap_data = fio_unmap_data;
		io.data_extent = fio_data_extent;
		io.prefetch = fio_prefetch;
	}
	/* one block: its digest is the root, no tree */
	r = g.levels ? stream_build(&g, &hs->tree, &io, &f, &o, sink, out->root,
				    err)
		     : ht_build(&g, &hs->tree, &io, &o, out->root, err);
	if (r) {
		ht_buffer_free(m.tree, (size_t)m.bytes);
		return r;
	}
	out->tree = m.tree;
	out->tree_bytes = m.bytes;
	return finish_digest(p, hs, out, err);
}

/* Opens a path source: a regular file (or a block device), its size. */
static int open_file(const char *path, struct verity_device *d,
		     struct ht_error *err)
{
	int r = verity_device_open(d, path, VERITY_OPEN_READ, err);

	struct stat st;

	if (r == -ENOTBLK && !stat(path, &st)) /* a directory, a character
						* device */
		return ht_fail(err, S_ISDIR(st.st_mode) ? EISDIR : EINVAL,
			       "%s: is %s, not a file", path,
			       verity_file_kind(st.st_mode));
	return r;
}

/* The tree file: its blocks written at their offsets. */
static int file_put(void *c, uint64_t off, const void *buf, size_t len,
		    struct ht_error *err)
{
	return verity_device_write(c, off, buf, len, err);
}

int verity_fsv_compute(const struct fsv_params *p, const struct fsv_source *src,
		       const struct ht_options *opt, const char *tree_path,
		       int keep_tree, struct fsv_digest *out,
		       struct ht_error *err)
{
	struct fsv_source s = *src;
	struct verity_device dev, tree = {.fd = -1};
	struct tree_sink sink = {.put = file_put, .ctx = &tree};
	struct fsv_hashers hs;
	struct stat st;
	int r = verity_fsv_params_check(p, err);

	memset(out, 0, sizeof(*out));
	if (r)
		return r;
	if (!!src->path + !!src->mem + !!src->read != 1)
		return ht_fail(err, EINVAL,
			       "a file's bytes come from one of a path, memory "
			       "or a read callback");
	if (src->path) {
		r = open_file(src->path, &dev, err);
		if (r)
			return r;
		s.size = dev.size;
	}
	/* the tree file: a new one, or a regular file replaced once it is
	 * whole (what verity_write_file does for small outputs) */
	if (tree_path && !stat(tree_path, &st) && !S_ISREG(st.st_mode))
		r = ht_fail(err, EINVAL, "%s: %s, not a regular file",
			    tree_path, verity_file_kind(st.st_mode));
	else if (tree_path)
		r = verity_device_open_output(
			&tree, tree_path, "the Merkle tree file", 0644, err);
	if (!r && !(r = hashers_init(p, &hs, err))) {
		r = compute_with(p, &hs, &s, src->path ? &dev : NULL, opt,
				 keep_tree && !tree_path,
				 tree_path ? &sink : NULL, out, err);
		hashers_free(&hs);
	}
	if (!r && tree_path)
		r = verity_device_commit(&tree, err);
	if (r)
		verity_fsv_digest_free(out);
	if (tree.fd >= 0)
		verity_device_close(&tree);
	if (src->path)
		verity_device_close(&dev);
	return r;
}

/* Files up to this size are read whole by one worker, several files at
 * a time; larger ones are hashed one after another by every worker. */
#define FSV_SMALL_FILE (8u << 20)

struct batch {
	const struct fsv_params *p;
	const struct fsv_hashers *hs;
	const char *const *paths;
	size_t n;
	int keep_tree;
	struct fsv_digest *out;
	uint8_t *large; /* large[i]: paths[i] is left for the second pass */
	size_t next;    /* the next file a worker takes (atomic) */
	pthread_mutex_t lock;
	size_t failed; /* the first file that failed; n: none */
	int rc;
	struct ht_error *err;
};

static void batch_fail(struct batch *b, size_t i, int r,
		       const struct ht_error *e)
{
	pthread_mutex_lock(&b->lock);
	if (i < b->failed) {
		b->failed = i;
		b->rc = r;
		memcpy(b->err, e, sizeof(*e));
	}
	pthread_mutex_unlock(&b->lock);
}

static size_t batch_failed(struct batch *b)
{
	size_t f;

	pthread_mutex_lock(&b->lock);
	f = b->failed;
	pthread_mutex_unlock(&b->lock);
	return f;
}

/* A small file: read whole into the worker's buffer, zero-padded to its
 * blocks, and hashed from there on this thread. */
static int small_file(struct batch *b, size_t i, struct verity_device *dev,
		      uint8_t **buf, size_t *cap, struct ht_error *err)
{
	size_t bs = b->p->block_size;
	size_t need = (size_t)(dev->size + bs - 1) / bs * bs;
	struct fsv_source s = {.mem = *buf,
			       .size = dev->size,
			       .mem_bytes = need,
			       .name = b->paths[i]};
	int r;

	if (need > *cap) {
		uint8_t *nb = realloc(*buf, need);

		if (!nb)
			return ht_fail(err, ENOMEM, "out of memory");
		*buf = nb;
		*cap = need;
		s.mem = nb;
	}
	r = dev->size ? verity_device_read(dev, 0, *buf, (size_t)dev->size, err)
		      : 0;
	if (r) /* (a file that shrank says so: the device's message) */
		return r;
	if (need > dev->size)
		memset(*buf + dev->size, 0, need - (size_t)dev->size);
	return compute_with(b->p, b->hs, &s, NULL, NULL, b->keep_tree, NULL,
			    &b->out[i], err);
}

static void *batch_worker(void *arg)
{
	struct batch *b = arg;
	struct ht_error e = {0}, *err = &e;
	uint8_t *buf = NULL;
	size_t cap = 0;

	for (;;) {
		size_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
		struct verity_device dev;
		int r;

		if (i >= b->n || i > batch_failed(b))
			break;
		r = open_file(b->paths[i], &dev, err);
		if (r) {
			batch_fail(b, i, r, err);
			continue;
		}
		if (dev.size > FSV_SMALL_FILE)
			b->large[i] = 1;
		else if ((r = small_file(b, i, &dev, &buf, &cap, err)))
			batch_fail(b, i, r, err);
		verity_device_close(&dev);
	}
	free(buf);
	return NULL;
}

int verity_fsv_compute_files(const struct fsv_params *p, const char *const *paths,
		      size_t n, const struct ht_options *opt, int keep_tree,
		      struct fsv_digest *out, size_t *failed,
		      struct ht_error *err)
{
	struct ht_options o = opt ? *opt : (struct ht_options){.threads = 1};
	struct batch b = {.p = p, .paths = paths, .n = n,
			  .keep_tree = keep_tree, .out = out, .failed = n,
			  .err = err};
	struct fsv_hashers hs;
	unsigned workers;
	int r = verity_fsv_params_check(p, err);

	*failed = n;
	memset(out, 0, n * sizeof(*out));
	if (r)
		return r;
	if (o.threads < 1)
		o.threads = 1;
	if (o.threads > HT_MAX_THREADS)
		o.threads = HT_MAX_THREADS;
	b.large = calloc(1, n ? n : 1);
	if (!b.large)
		return ht_fail(err, ENOMEM, "out of memory");
	r = hashers_init(p, &hs, err);
	if (r) {
		free(b.large);
		return r;
	}
	b.hs = &hs;
	pthread_mutex_init(&b.lock, NULL);
	workers = n < o.threads ? (unsigned)n : o.threads;
	/* the first pass: small files, the calling thread one of the
	 * workers */
	ht_fan_out(workers ? workers : 1, batch_worker, &b, 0, NULL);
	if (b.failed < n) /* a worker's message, this thread's now */
		ht_handover(err, err);
	/* the second: large files, in order, every worker on each */
	for (size_t i = 0; i < n && i < b.failed; i++) {
		struct fsv_source s = {.path = paths[i]};
		struct verity_device dev;

		if (!b.large[i])
			continue;
		r = open_file(paths[i], &dev, err);
		if (!r) {
			s.size = dev.size;
			r = compute_with(p, &hs, &s, &dev, &o, keep_tree, NULL,
					 &out[i], err);
			verity_device_close(&dev);
		}
		if (r) {
			b.failed = i;
			b.rc = r;
			break;
		}
	}
	pthread_mutex_destroy(&b.lock);
	hashers_free(&hs);
	free(b.large);
	for (size_t i = b.failed; i < n; i++)
		verity_fsv_digest_free(&out[i]);
	*failed = b.failed;
	return b.failed < n ? b.rc : 0;
}

size_t verity_fsv_signed_digest(const struct fsv_digest *d,
			 uint8_t out[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE])
{
	memcpy(out, "FSVerity", 8);
	out[8] = (uint8_t)d->alg;
	out[9] = (uint8_t)(d->alg >> 8);
	out[10] = (uint8_t)d->digest_size;
	out[11] = (uint8_t)(d->digest_size >> 8);
	memcpy(out + FSV_SIGNED_HEADER, d->digest, d->digest_size);
	return FSV_SIGNED_HEADER + d->digest_size;
}
