/* A full OTA payload's operations applied (verity/container/ota/ota.h,
 * verity_ota_apply; the facts: docs/ota.md):
 * each operation's blob read (within the data blobs: payload.c checked
 * it), its data_sha256_hash checked before it is used, its data
 * decompressed into its dst_extents, and the partition hashed against
 * new_partition_info. An image is hashed as it is written when the
 * operations write it in order (a full payload's usual layout), else
 * read back from its file: the output (extract), or an unlinked
 * temporary file (verify). */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "hashtree/sha256.h"
#include "hashtree/thread.h"
#include "hashtree/tree.h"
#include "verity/container/sparse/sparse.h"
#include "verity/fec/encode.h"
#include "verity/fec/layout.h"
#include "hashtree/libcrypto.h"
#include "verity/storage/backing.h"
#include "verity/storage/output.h"

#define ZEROS (1u << 16)

typedef ChromeosUpdateEngine__PartitionUpdate partition_update;
typedef ChromeosUpdateEngine__InstallOperation install_op;

/* Where an image goes: a file (fd >= 0), a hash as it is written. */
struct sink {
	uint8_t *mem;      /* a worker's: one operation's bytes, in memory */
	uint64_t mem_base, mem_len;
	int fd;
	uint64_t size;   /* the image's bytes */
	int in_order;    /* hashed as written (next: the next byte) */
	uint64_t next;
	EVP_MD_CTX *sha;
	const char *what;
};

/* An operation's output: its extents, filled in order. */
struct cursor {
	struct sink *s;
	ChromeosUpdateEngine__Extent *const *x;
	size_t n, i;
	uint64_t off; /* bytes into extent i */
	uint32_t bs;
};

static int sink_write(struct sink *s, uint64_t at, const uint8_t *p, size_t n,
		      struct ht_error *err)
{
	if (at >= s->size)
		return 0; /* the last block's bytes past the image */
	if (n > s->size - at)
		n = (size_t)(s->size - at);
	if (s->mem) {
		if (at < s->mem_base || n > s->mem_len ||
		    at - s->mem_base > s->mem_len - n)
			return ht_fail(err, EIO, "%s: written out of order",
				       s->what);
		memcpy(s->mem + (at - s->mem_base), p, n);
		return 0;
	}
	if (s->in_order) {
		if (at != s->next)
			return ht_fail(err, EIO, "%s: written out of order",
				       s->what);
		if (!EVP_DigestUpdate(s->sha, p, n))
			return ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
		s->next += n;
	}
	while (s->fd >= 0 && n) {
		ssize_t w = pwrite(s->fd, p, n, (off_t)at);

		if (w <= 0)
			return ht_fail(err, w < 0 ? errno : EIO,
				       "%s: cannot write: %s", s->what,
				       strerror(w < 0 ? errno : EIO));
		p += w;
		n -= (size_t)w;
		at += (uint64_t)w;
	}
	return 0;
}

static int put(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	struct cursor *c = ctx;
	int r;

	while (n) {
		uint64_t len, step;

		if (c->i == c->n)
			return ht_fail(err, EINVAL, "%s: more data than its "
						    "dst_extents hold",
				       c->s->what);
		len = c->x[c->i]->num_blocks * c->bs;
		step = len - c->off < n ? len - c->off : n;
		/* a start of 2^64-1: a legacy sparse hole, its data dropped */
		if (c->x[c->i]->start_block != UINT64_MAX &&
		    (r = sink_write(c->s,
				    c->x[c->i]->start_block * c->bs + c->off,
				    p, (size_t)step, err)))
			return r;
		p += step;
		n -= (size_t)step;
		if ((c->off += step) == len) {
			c->i++;
			c->off = 0;
		}
	}
	return 0;
}

static int put_zeros(struct cursor *c, uint64_t n, struct ht_error *err)
{
	static const uint8_t z[ZEROS];
	int r;

	while (n) {
		size_t step = n < ZEROS ? (size_t)n : ZEROS;

		if ((r = put(c, z, step, err)))
			return r;
		n -= step;
	}
	return 0;
}

/* *b made at least n bytes (*cap its size). */
static int grow(uint8_t **b, size_t *cap, uint64_t n, struct ht_error *err)
{
	uint8_t *q;

	if (n <= *cap)
		return 0;
	if (!(q = realloc(*b, (size_t)n)))
		return ht_fail(err, ENOMEM, "out of memory");
	*b = q;
	*cap = (size_t)n;
	return 0;
}

/* n bytes at p against the SHA-256 an operation states (none: 0). */
static int hash_holds(const uint8_t *p, uint64_t n,
		      const ProtobufCBinaryData *want, const char *what,
		      const char *whose, const char *field,
		      struct ht_error *err)
{
	uint8_t d[32];

	if (want->len != 32)
		return 0;
	ht_sha256(p, (size_t)n, d);
	return memcmp(d, want->data, 32)
		       ? ht_fail(err, EINVAL, "%s: its %s is not its %s", what,
				 whose, field)
		       : 0;
}

/* Operation op's source: its src_extents of old (src_length bytes) into
 * *sb, checked against src_sha256_hash. */
static int read_source(const struct verity_device *old, const install_op *op,
		       uint32_t bs, const char *what, uint8_t **sb, size_t *scap,
		       uint64_t *slen, struct ht_error *err)
{
	uint64_t n = 0;
	int r;

	for (size_t k = 0; k < op->n_src_extents; k++) {
		uint64_t b = op->src_extents[k]->num_blocks;

		if (op->src_extents[k]->start_block == UINT64_MAX ||
		    b > VERITY_OTA_MAX_OP / bs ||
		    b * bs > VERITY_OTA_MAX_OP - n)
			return ht_fail(err, EINVAL,
				       "%s: src_extents over %u MiB or a hole, "
				       "refused",
				       what, VERITY_OTA_MAX_OP >> 20);
		n += b * bs;
	}
	if (!n)
		return ht_fail(err, EINVAL, "%s: no src_extents", what);
	if ((r = grow(sb, scap, n, err)))
		return r;
	n = 0;
	for (size_t k = 0; k < op->n_src_extents; k++) {
		uint64_t at = op->src_extents[k]->start_block * bs;
		uint64_t l = op->src_extents[k]->num_blocks * bs;

		if (at > old->size || l > old->size - at)
			return ht_fail(err, EINVAL,
				       "%s: src_extents[%zu] past the source "
				       "image",
				       what, k);
		if ((r = verity_device_read(old, at, *sb + n, (size_t)l, err)))
			return r;
		n += l;
	}
	if ((r = hash_holds(*sb, n, &op->src_sha256_hash, what,
			    "source data", "src_sha256_hash", err)))
		return r;
	*slen = n;
	return 0;
}

/* One operation applied; a problem of the package: -EINVAL (err names
 * it). buf: its blob. */
static int apply_op(struct verity_ota *o, const install_op *op, size_t i,
		    struct sink *s, const struct verity_device *old,
		    uint8_t **buf, size_t *cap, uint8_t **sb, size_t *scap,
		    struct ht_error *err)
{
	uint64_t slen = 0;
	const struct verity_payload *p = &o->payload;
	struct cursor c = {s, op->dst_extents, op->n_dst_extents, 0, 0,
			   p->block_size};
	uint64_t out = 0, len = op->has_data_length ? op->data_length : 0;
	uint64_t got = 0;
	char what[512];
	int r;

	snprintf(what, sizeof(what), "%s: operation %zu (%s)", s->what, i,
		 verity_payload_op_name(op->type) ? verity_payload_op_name(op->type)
						  : "unknown");
	for (size_t k = 0; k < op->n_dst_extents; k++) {
		uint64_t b = op->dst_extents[k]->num_blocks;

		if (b > VERITY_OTA_MAX_OP / p->block_size ||
		    b * p->block_size > VERITY_OTA_MAX_OP - out)
			return ht_fail(err, EINVAL,
				       "%s: dst_extents over %u MiB, refused",
				       what, VERITY_OTA_MAX_OP >> 20);
		out += b * p->block_size;
	}
	if (!out)
		return ht_fail(err, EINVAL, "%s: no dst_extents", what);
	if (len > VERITY_OTA_MAX_OP)
		return ht_fail(err, EINVAL,
			       "%s: data_length %llu: over %u MiB, refused",
			       what, (unsigned long long)len,
			       VERITY_OTA_MAX_OP >> 20);
	if ((r = grow(buf, cap, len, err)))
		return r;
	if (len && (r = verity_ota_src_read(&o->src,
					    p->at + p->blobs + op->data_offset,
					    *buf, (size_t)len, err)))
		return r;
	if ((r = hash_holds(*buf, len, &op->data_sha256_hash, what, "data",
			    "data_sha256_hash", err)))
		return r;
	if (op->data_sha256_hash.len != 32 && len)
		o->unhashed++;
	switch (op->type) {
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__REPLACE:
		if ((r = put(&c, *buf, (size_t)len, err)))
			return r;
		got = len;
		break;
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__REPLACE_BZ:
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__REPLACE_XZ:
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__REPLACE_ZSTD:
		if ((r = verity_ota_decompress((unsigned)op->type, *buf,
					       (size_t)len, out, put, &c, &got,
					       what, err)))
			return r;
		break;
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__SOURCE_COPY:
		if (len)
			return ht_fail(err, EINVAL,
				       "%s: data_length %llu: this type has "
				       "none",
				       what, (unsigned long long)len);
		if ((r = read_source(old, op, p->block_size, what, sb, scap,
				     &slen, err)))
			return r;
		if (slen != out)
			return ht_fail(err, EINVAL,
				       "%s: %llu bytes of src_extents for %llu "
				       "bytes of dst_extents",
				       what, (unsigned long long)slen,
				       (unsigned long long)out);
		return put(&c, *sb, (size_t)slen, err);
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__SOURCE_BSDIFF:
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__BROTLI_BSDIFF:
		if ((r = read_source(old, op, p->block_size, what, sb, scap,
				     &slen, err)) ||
		    (r = verity_ota_bspatch(*buf, (size_t)len, *sb,
					    (size_t)slen, out, put, &c, &got,
					    what, err)))
			return r;
		break;
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__ZERO:
	case CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__DISCARD:
		if (len)
			return ht_fail(err, EINVAL,
				       "%s: data_length %llu: this type has "
				       "none",
				       what, (unsigned long long)len);
		return put_zeros(&c, out, err);
	default:
		return ht_fail(err, EINVAL,
			       "%s: not applied (a delta operation, or one "
			       "this version does not apply)",
			       what);
	}
	/* the data fills the extents to within their last block */
	if (got > out || got + p->block_size <= out)
		return ht_fail(err, EINVAL,
			       "%s: %llu bytes of data for %llu bytes of "
			       "dst_extents",
			       what, (unsigned long long)got,
			       (unsigned long long)out);
	return put_zeros(&c, out - got, err);
}

/* The operations write the image in order from its start. */
static int in_order(const partition_update *u)
{
	uint64_t next = 0;

	for (size_t i = 0; i < u->n_operations; i++)
		for (size_t k = 0; k < u->operations[i]->n_dst_extents; k++) {
			const ChromeosUpdateEngine__Extent *x =
				u->operations[i]->dst_extents[k];

			if (x->start_block == UINT64_MAX)
				continue;
			if (x->start_block != next)
				return 0;
			next += x->num_blocks;
		}
	return 1;
}

/* The file's [0, size) hashed into d. */
static int hash_file(struct sink *s, uint8_t d[32], struct ht_error *err)
{
	uint8_t *b = malloc(1u << 20);
	unsigned n = 0;
	int r = 0;

	if (!b)
		return ht_fail(err, ENOMEM, "out of memory");
	for (uint64_t at = 0; at < s->size && !r;) {
		size_t step = s->size - at < (1u << 20) ? (size_t)(s->size - at)
							: (1u << 20);
		ssize_t got = pread(s->fd, b, step, (off_t)at);

		if (got <= 0)
			r = ht_fail(err, EIO, "%s: cannot read it back: %s",
				    s->what, got < 0 ? strerror(errno) : "short");
		else if (!EVP_DigestUpdate(s->sha, b, (size_t)got))
			r = ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
		at += got > 0 ? (uint64_t)got : 0;
	}
	free(b);
	if (!r && !EVP_DigestFinal_ex(s->sha, d, &n))
		r = ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
	return r;
}

/* The tree's I/O: data and tree at their byte offsets in the image. */
struct tree_io {
	int fd;
	uint64_t data, tree;
};

static int rw(int fd, uint64_t at, void *buf, size_t len, int out,
	      struct ht_error *err)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = out ? pwrite(fd, p, len, (off_t)at)
				: pread(fd, p, len, (off_t)at);

		if (n <= 0)
			return ht_fail(err, EIO, "an OTA image: cannot %s it: %s",
				       out ? "write" : "read",
				       n < 0 ? strerror(errno) : "short");
		p += n;
		len -= (size_t)n;
		at += (uint64_t)n;
	}
	return 0;
}

static int t_read_data(void *ctx, uint64_t off, void *buf, size_t len,
		       struct ht_error *err)
{
	const struct tree_io *t = ctx;

	return rw(t->fd, t->data + off, buf, len, 0, err);
}

static int t_read_tree(void *ctx, uint64_t off, void *buf, size_t len,
		       struct ht_error *err)
{
	const struct tree_io *t = ctx;

	return rw(t->fd, t->tree + off, buf, len, 0, err);
}

static int t_write_tree(void *ctx, uint64_t off, const void *buf, size_t len,
			struct ht_error *err)
{
	const struct tree_io *t = ctx;

	return rw(t->fd, t->tree + off, (void *)(uintptr_t)buf, len, 1, err);
}

/* An extent's bytes [*at, *at + *len) (blocks of bs, within the image:
 * payload.c checked it). */
static void extent_bytes(const ChromeosUpdateEngine__Extent *x, uint32_t bs,
			 uint64_t *at, uint64_t *len)
{
	*at = x ? x->start_block * bs : 0;
	*len = x ? x->num_blocks * bs : 0;
}

/* The hash tree and FEC the device computes (FORMAT B.7), written into
 * the image at fd: 0 with the verdict said, or an error. */
static int regenerate(const struct verity_ota *o, const partition_update *u,
		      int fd, uint64_t size, struct verity_ota_part *pr,
		      struct ht_error *err)
{
	const uint32_t bs = o->payload.block_size;
	uint64_t dat, dlen, tat, tlen, fdat, fdlen, fat, flen;
	struct ht_error e2;
	int r;

	extent_bytes(u->hash_tree_data_extent, bs, &dat, &dlen);
	extent_bytes(u->hash_tree_extent, bs, &tat, &tlen);
	extent_bytes(u->fec_data_extent, bs, &fdat, &fdlen);
	extent_bytes(u->fec_extent, bs, &fat, &flen);
	if (tlen) {
		struct tree_io t = {fd, dat, tat};
		struct ht_io io = {.ctx = &t,
				   .read_data = t_read_data,
				   .read_tree = t_read_tree,
				   .write_tree = t_write_tree};
		struct ht_options opt = {.threads = o->threads ? o->threads
								: 1};
		struct ht_geometry g;
		struct ht_hasher h;
		uint8_t root[HT_MAX_DIGEST_SIZE];
		char alg[32];
		unsigned ds = 0;
		size_t n = 0;
		const char *a = u->hash_tree_algorithm ? u->hash_tree_algorithm
						       : "";

		for (; a[n] && n < sizeof(alg) - 1; n++)
			alg[n] = (char)(a[n] >= 'A' && a[n] <= 'Z' ? a[n] + 32
								   : a[n]);
		alg[n] = '\0';
		if (strcmp(alg, "sha1") && strcmp(alg, "sha256") &&
		    strcmp(alg, "sha384") && strcmp(alg, "sha512")) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (hash_tree_algorithm %.32s: sha1, sha256, "
				 "sha384 or sha512)",
				 a);
			return 0;
		}
		if (!dlen || tat < dat + dlen) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (hash_tree_extent does not follow "
				 "hash_tree_data_extent)");
			return 0;
		}
		memset(&e2, 0, sizeof(e2));
		if ((r = ht_digest_size_of(alg, &ds, &e2)) ||
		    (r = ht_geometry_init(&g, dlen / bs, bs, bs, ds, 1, &e2))) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (hash_tree_*: %s)", ht_msg(&e2));
			return 0;
		}
		if (g.tree_blocks != tlen / bs) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (hash_tree_extent: %llu blocks, the tree "
				 "of hash_tree_data_extent is %llu)",
				 (unsigned long long)(tlen / bs),
				 (unsigned long long)g.tree_blocks);
			return 0;
		}
		if ((r = ht_hasher_init(&h, alg, 1, u->hash_tree_salt.data,
					u->hash_tree_salt.len, err)))
			return r;
		r = ht_build(&g, &h, &io, &opt, root, err);
		ht_hasher_free(&h);
		if (r)
			return r;
	}
	if (flen) {
		struct verity_device d;
		struct verity_fec_layout fl;
		unsigned roots = u->has_fec_roots ? u->fec_roots : 2;

		if (bs != 4096 || fdat != 0 || !fdlen || fat < fdlen) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (fec_*: FEC over blocks of 4096 bytes "
				 "from the image's start, before fec_extent)");
			return 0;
		}
		memset(&e2, 0, sizeof(e2));
		if (roots < 2 || roots > 24 ||
		    verity_fec_layout_flat(fdlen, bs, roots, fat, &fl, &e2)) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (fec_roots %u: %s)", roots,
				 ht_msg(&e2)[0] ? ht_msg(&e2) : "2 to 24");
			return 0;
		}
		if (fl.parity_bytes != flen) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "bad (fec_extent: %llu bytes, the parity of "
				 "fec_data_extent is %llu)",
				 (unsigned long long)flen,
				 (unsigned long long)fl.parity_bytes);
			return 0;
		}
		memset(&d, 0, sizeof(d));
		d.fd = fd;
		d.path = "an OTA image";
		d.size = size;
		if ((r = verity_fec_encode_flat(&d, &fl,
						 o->threads ? o->threads : 1,
						 err)))
			return r;
	}
	return 0;
}

/* An unnamed temporary file for an image verified out of order or with
 * verity data: /var/tmp (on disk where /tmp is in memory), else /tmp.
 * The library reads no environment: TMPDIR is not asked. */
static int temp_file(struct ht_error *err)
{
	static const char *const dirs[2] = {"/var/tmp", "/tmp"};
	int fd = -1, e = 0;

	for (int i = 0; i < 2 && fd < 0; i++) {
		char path[64];

		fd = open(dirs[i], O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		snprintf(path, sizeof(path), "%s/fastverity-ota.XXXXXX",
			 dirs[i]);
		if ((fd = mkostemp(path, O_CLOEXEC)) >= 0)
			unlink(path);
		else
			e = errno;
	}
	if (fd < 0)
		return ht_fail(err, e,
			       "cannot make a temporary file in /var/tmp or "
			       "/tmp: %s",
			       strerror(e));
	return fd;
}

static void say(struct verity_ota_part *pr, const char *fmt, const char *a,
		const char *b)
{
	snprintf(pr->verdict, sizeof(pr->verdict), fmt, a, b);
}

/* The operations of a partition written in order, applied by workers
 * at once: each operation's bytes made in a slot of memory (at most
 * `window` operations ahead of the one written), the calling thread
 * writing and hashing them in order (and making some itself when none is
 * ready: it alone suffices when no worker starts). */
struct slot {
	uint8_t *buf;
	size_t cap;
	uint64_t base, len;
	int state; /* 0 free, 1 being made, 2 made, 3 failed */
	int r;
	struct ht_error err;
	char msg[1024]; /* a failure's message, copied by its worker */
};

struct par {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct verity_ota *o;
	const partition_update *u;
	const struct sink *s;
	const struct verity_device *old;
	size_t n, claimed, written, window;
	struct slot *slots;
	int done;
};

struct worker {
	struct par *p;
	uint8_t *buf, *sb;
	size_t cap, scap;
};

/* Operation i's bytes into its slot (called without the lock). */
static void make_op(struct worker *w, size_t i)
{
	struct par *p = w->p;
	struct slot *sl = &p->slots[i % p->window];
	const install_op *op = p->u->operations[i];
	const uint32_t bs = p->o->payload.block_size;
	struct sink ms = {.fd = -1, .size = p->s->size, .what = p->s->what};
	uint64_t len = 0, base = UINT64_MAX;
	static uint8_t none[1];

	memset(&sl->err, 0, sizeof(sl->err));
	for (size_t k = 0; k < op->n_dst_extents; k++) {
		const ChromeosUpdateEngine__Extent *x = op->dst_extents[k];

		if (x->start_block == UINT64_MAX)
			continue;
		if (base == UINT64_MAX)
			base = x->start_block * bs;
		if (x->num_blocks > VERITY_OTA_MAX_OP / bs ||
		    len + x->num_blocks * bs > VERITY_OTA_MAX_OP) {
			len = UINT64_MAX; /* apply_op refuses it */
			break;
		}
		len += x->num_blocks * bs;
	}
	ms.mem = none;
	ms.mem_base = base == UINT64_MAX ? 0 : base;
	ms.mem_len = 0;
	sl->r = 0;
	if (len != UINT64_MAX)
		sl->r = grow(&sl->buf, &sl->cap, len, &sl->err);
	if (!sl->r && len != UINT64_MAX && len) {
		ms.mem = sl->buf;
		ms.mem_len = len;
	}
	if (!sl->r)
		sl->r = apply_op(p->o, op, i, &ms, p->old, &w->buf, &w->cap,
				 &w->sb, &w->scap, &sl->err);
	if (sl->r)
		snprintf(sl->msg, sizeof(sl->msg), "%s", ht_msg(&sl->err));
	sl->base = ms.mem_base;
	sl->len = len == UINT64_MAX ? 0 : len;
	pthread_mutex_lock(&p->mu);
	sl->state = sl->r ? 3 : 2;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* Under the lock: the next operation to make, or SIZE_MAX. */
static size_t claim(struct par *p)
{
	size_t i = p->claimed;

	if (p->done || i >= p->n || i >= p->written + p->window)
		return SIZE_MAX;
	p->slots[i % p->window].state = 1;
	p->claimed++;
	return i;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;

	pthread_mutex_lock(&p->mu);
	while (!p->done && p->claimed < p->n) {
		size_t i = claim(p);

		if (i == SIZE_MAX) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		pthread_mutex_unlock(&p->mu);
		make_op(w, i);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* The writer (the calling thread): 0, -EINVAL with *bad the operation
 * whose content failed (its message in e2), or an error. */
static int write_ops(struct worker *w, struct sink *s,
		     struct verity_ota_part *pr, struct ht_error *e2)
{
	struct par *p = w->p;
	int r = 0;

	pthread_mutex_lock(&p->mu);
	while (!r && p->written < p->n) {
		struct slot *sl = &p->slots[p->written % p->window];
		size_t i;

		if (sl->state >= 2) {
			pthread_mutex_unlock(&p->mu);
			if (sl->state == 3) {
				r = ht_fail(e2, -sl->r, "%s", sl->msg);
			} else if (sl->len) {
				r = sink_write(s, sl->base, sl->buf,
					       (size_t)sl->len, e2);
			}
			pthread_mutex_lock(&p->mu);
			if (!r) {
				sl->state = 0;
				p->written++;
				pr->ops++;
				pthread_cond_broadcast(&p->cv);
			}
			continue;
		}
		if ((i = claim(p)) != SIZE_MAX) {
			pthread_mutex_unlock(&p->mu);
			make_op(w, i);
			pthread_mutex_lock(&p->mu);
			continue;
		}
		pthread_cond_wait(&p->cv, &p->mu);
	}
	p->done = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return r;
}

/* The operations of u applied by threads workers into s (written in
 * order): as the serial loop, the same verdicts. */
static int apply_parallel(struct verity_ota *o, const partition_update *u,
			  struct sink *s, const struct verity_device *old,
			  unsigned threads, struct verity_ota_part *pr,
			  struct ht_error *e2)
{
	pthread_t *tid = calloc(threads, sizeof(*tid));
	unsigned char *ran = calloc(threads, 1);
	struct par p = {.o = o, .u = u, .s = s, .old = old,
			.n = u->n_operations, .window = 2u * threads};
	struct worker *w = calloc(threads, sizeof(*w));
	int r;

	p.slots = calloc(p.window, sizeof(*p.slots));
	if (!w || !p.slots || !tid || !ran) {
		free(w);
		free(p.slots);
		free(tid);
		free(ran);
		return ht_fail(e2, ENOMEM, "out of memory");
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (unsigned t = 0; t < threads; t++)
		w[t].p = &p;
	for (unsigned t = 1; t < threads; t++)
		ran[t] = ht_thread_start(&tid[t], worker_main, &w[t]) == 0;
	r = write_ops(&w[0], s, pr, e2);
	for (unsigned t = 1; t < threads; t++)
		if (ran[t])
			ht_thread_join(tid[t], NULL);
	for (unsigned t = 0; t < threads; t++) {
		free(w[t].buf);
		free(w[t].sb);
	}
	for (size_t k = 0; k < p.window; k++)
		free(p.slots[k].buf);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	free(p.slots);
	free(w);
	free(tid);
	free(ran);
	return r;
}

/* An image written out of order (into its file): when no two
 * operations' dst_extents overlap, the workers apply operations straight
 * into the file at once; the verdict is the lowest failing operation's,
 * as the serial loop's. */
struct loose {
	pthread_mutex_t mu;
	struct verity_ota *o;
	const partition_update *u;
	struct sink *s;
	const struct verity_device *old;
	size_t next, n, failed; /* failed: the lowest failing op, or n */
	uint64_t ops;
	int r;
	char msg[1024];
};

struct loose_worker {
	struct loose *l;
	uint8_t *buf, *sb;
	size_t cap, scap;
};

static void *loose_main(void *arg)
{
	struct loose_worker *w = arg;
	struct loose *l = w->l;

	for (;;) {
		struct ht_error e;
		size_t i;
		int r;

		pthread_mutex_lock(&l->mu);
		i = l->next < l->failed ? l->next++ : SIZE_MAX;
		pthread_mutex_unlock(&l->mu);
		if (i == SIZE_MAX)
			return NULL;
		memset(&e, 0, sizeof(e));
		r = apply_op(l->o, l->u->operations[i], i, l->s, l->old, &w->buf,
			     &w->cap, &w->sb, &w->scap, &e);
		pthread_mutex_lock(&l->mu);
		if (!r) {
			l->ops++;
		} else if (i < l->failed) {
			l->failed = i;
			l->r = r;
			snprintf(l->msg, sizeof(l->msg), "%s", ht_msg(&e));
		}
		pthread_mutex_unlock(&l->mu);
	}
}

static int by_start(const void *a, const void *b)
{
	uint64_t x = (*(const ChromeosUpdateEngine__Extent *const *)a)->start_block;
	uint64_t y = (*(const ChromeosUpdateEngine__Extent *const *)b)->start_block;

	return x < y ? -1 : x > y;
}

/* 1 when no two dst_extents of u's operations overlap (holes aside). */
static int disjoint(const partition_update *u)
{
	const ChromeosUpdateEngine__Extent **x;
	size_t n = 0, k = 0;
	int ok = 1;

	for (size_t i = 0; i < u->n_operations; i++)
		n += u->operations[i]->n_dst_extents;
	if (!(x = malloc((n ? n : 1) * sizeof(*x))))
		return 0;
	for (size_t i = 0; i < u->n_operations; i++)
		for (size_t j = 0; j < u->operations[i]->n_dst_extents; j++)
			if (u->operations[i]->dst_extents[j]->start_block !=
			    UINT64_MAX)
				x[k++] = u->operations[i]->dst_extents[j];
	qsort(x, k, sizeof(*x), by_start);
	for (size_t i = 1; i < k && ok; i++)
		ok = x[i]->start_block >=
		     x[i - 1]->start_block + x[i - 1]->num_blocks;
	free(x);
	return ok;
}

static int apply_loose(struct verity_ota *o, const partition_update *u,
		       struct sink *s, const struct verity_device *old,
		       unsigned threads, struct verity_ota_part *pr,
		       struct ht_error *e2)
{
	struct loose l = {.o = o, .u = u, .s = s, .old = old,
			  .n = u->n_operations, .failed = u->n_operations};
	struct loose_worker *w = calloc(threads, sizeof(*w));
	pthread_t *tid = calloc(threads, sizeof(*tid));
	unsigned char *ran = calloc(threads, 1);
	int r = 0;

	if (!w || !tid || !ran) {
		free(w);
		free(tid);
		free(ran);
		return ht_fail(e2, ENOMEM, "out of memory");
	}
	pthread_mutex_init(&l.mu, NULL);
	for (unsigned t = 0; t < threads; t++)
		w[t].l = &l;
	for (unsigned t = 1; t < threads; t++)
		ran[t] = ht_thread_start(&tid[t], loose_main, &w[t]) == 0;
	loose_main(&w[0]);
	for (unsigned t = 1; t < threads; t++)
		if (ran[t])
			ht_thread_join(tid[t], NULL);
	for (unsigned t = 0; t < threads; t++) {
		free(w[t].buf);
		free(w[t].sb);
	}
	pr->ops += l.ops;
	if (l.failed < l.n)
		r = ht_fail(e2, -l.r, "%s", l.msg);
	pthread_mutex_destroy(&l.mu);
	free(w);
	free(tid);
	free(ran);
	return r;
}

/* The source image src_dir/NAME.img opened into old and checked
 * against old_partition_info: 0 with old open, or 0 with the verdict
 * said (nothing open), or an error. */
static int open_source(const partition_update *u, const char *src_dir, struct verity_device *old,
		       struct verity_ota_part *pr, struct ht_error *err)
{
	const ChromeosUpdateEngine__PartitionInfo *oi = u->old_partition_info;
	struct ht_error e2;
	uint8_t *b = NULL, d[32];
	char *path = NULL;
	EVP_MD_CTX *c = NULL;
	EVP_MD *md = NULL;
	unsigned n = 0;
	int r = 0;

	old->fd = -1;
	if (!oi || !oi->has_size || oi->hash.len != 32) {
		snprintf(pr->verdict, sizeof(pr->verdict),
			 "bad (delta operations and no old_partition_info "
			 "size and SHA-256)");
		return 0;
	}
	if (asprintf(&path, "%s/%s.img", src_dir, u->partition_name) < 0)
		return ht_fail(err, ENOMEM, "out of memory");
	memset(&e2, 0, sizeof(e2));
	if (verity_sparse_open(old, path, NULL, &e2)) {
		snprintf(pr->verdict, sizeof(pr->verdict),
			 "not applied (its source image: %s)", ht_msg(&e2));
		old->fd = -1;
		free(path);
		return 0;
	}
	if (old->size < oi->size) {
		snprintf(pr->verdict, sizeof(pr->verdict),
			 "bad (source image %s: %llu bytes, old_partition_info "
			 "says %llu)",
			 path, (unsigned long long)old->size,
			 (unsigned long long)oi->size);
		goto out;
	}
	md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!md || !(c = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(c, md, NULL) ||
	    !(b = malloc(1u << 20))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	for (uint64_t at = 0; at < oi->size && !r;) {
		size_t step = oi->size - at < (1u << 20) ? (size_t)(oi->size - at)
							 : (1u << 20);

		if (!(r = verity_device_read(old, at, b, step, err)) &&
		    !EVP_DigestUpdate(c, b, step))
			r = ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
		at += step;
	}
	if (!r && !EVP_DigestFinal_ex(c, d, &n))
		r = ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
	if (!r && memcmp(d, oi->hash.data, 32)) {
		char hex[65];

		for (int i = 0; i < 32; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
		snprintf(pr->verdict, sizeof(pr->verdict),
			 "bad (source image %s: not old_partition_info.hash, "
			 "its SHA-256 is %s)",
			 path, hex);
	}
out:
	if (r || pr->verdict[0]) {
		verity_device_close(old);
		old->fd = -1;
	}
	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	free(b);
	free(path);
	return r;
}

/* Partition u applied into path (NULL: hashed only), its delta
 * operations from src_dir/NAME.img (NULL: none); pr's verdict. */
static int apply_partition(struct verity_ota *o, const partition_update *u,
			   const char *path, const char *src_dir,
			   struct verity_ota_part *pr, struct ht_error *err)
{
	struct verity_device old = {.fd = -1};
	uint8_t *sb = NULL;
	size_t scap = 0;
	int delta = 0;
	const ChromeosUpdateEngine__PartitionInfo *ni = u->new_partition_info;
	struct verity_device dev = {.fd = -1};
	struct sink s = {.fd = -1};
	struct ht_error e2;
	EVP_MD *md = NULL;
	int verity, par;
	uint8_t *buf = NULL, d[32];
	char what[4096 + 256];
	unsigned n = 0;
	size_t cap = 0;
	int r = 0;

	snprintf(what, sizeof(what), "%s: partition %s", o->src.name,
		 u->partition_name);
	s.what = what;
	if (!ni || !ni->has_size || ni->hash.len != 32) {
		say(pr, "bad (no new_partition_info size and SHA-256)", NULL,
		    NULL);
		return 0;
	}
	if (ni->size > VERITY_OTA_MAX_IMAGE) {
		say(pr, "bad (new_partition_info.size over 1 TiB, refused)",
		    NULL, NULL);
		return 0;
	}
	for (size_t i = 0; i < u->n_operations; i++) {
		unsigned t = (unsigned)u->operations[i]->type;
		int dt = t == 4 || t == 5 || t == 10;

		delta |= dt;
		if ((dt && !src_dir) ||
		    (!dt && t != 0 && t != 1 && t != 6 && t != 7 && t != 8 &&
		     t != 14)) {
			snprintf(pr->verdict, sizeof(pr->verdict),
				 "not applied (operation %zu: %s%s)", i,
				 verity_payload_op_name(t)
					 ? verity_payload_op_name(t)
					 : "an unknown type",
				 dt ? ": a delta operation, it needs the source "
				     "image (--source)"
				   : ": not supported");
			return 0;
		}
	}
	if (delta && ((r = open_source(u, src_dir, &old, pr, err)) ||
		      pr->verdict[0]))
		return r;
	s.size = ni->size;
	verity = (u->hash_tree_extent && u->hash_tree_extent->num_blocks) ||
		 (u->fec_extent && u->fec_extent->num_blocks);
	s.in_order = !verity && in_order(u);
	md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!md || !(s.sha = EVP_MD_CTX_new()) ||
	    !EVP_DigestInit_ex(s.sha, md, NULL)) {
		EVP_MD_CTX_free(s.sha);
		EVP_MD_free(md);
		return ht_fail(err, ENOMEM, "SHA-256 cannot be computed (OpenSSL)");
	}
	if (path) {
		if ((r = verity_device_open_output(&dev, path, "an image", 0644,
						   err)))
			goto out;
		s.fd = dev.fd;
	} else if (!s.in_order && (s.fd = temp_file(err)) < 0) {
		r = s.fd;
		s.fd = -1;
		goto out;
	}
	if (s.fd >= 0 && ftruncate(s.fd, (off_t)s.size) < 0) {
		r = ht_fail(err, errno, "%s: cannot size its image: %s", what,
			    strerror(errno));
		goto out;
	}
	memset(&e2, 0, sizeof(e2));
	par = o->threads > 1 && u->n_operations > 1 &&
	      (s.in_order || disjoint(u));
	if (par && s.in_order)
		r = apply_parallel(o, u, &s, &old,
				   o->threads < 64 ? o->threads : 64, pr, &e2);
	else if (par)
		r = apply_loose(o, u, &s, &old,
				o->threads < 64 ? o->threads : 64, pr, &e2);
	for (size_t i = 0; !par && i < u->n_operations && !r; i++) {
		memset(&e2, 0, sizeof(e2));
		r = apply_op(o, u->operations[i], i, &s, &old, &buf, &cap, &sb,
			     &scap, &e2);
		if (!r)
			pr->ops++;
	}
	if (r == -EINVAL) {
		const char *m = ht_msg(&e2);
		size_t l = strlen(what);

		/* the message less the partition named already */
		say(pr, "bad (%s)",
		    strncmp(m, what, l) ? m
					: m + l + (m[l] == ':') + (m[l + 1] == ' '),
		    NULL);
		r = 0;
		goto out;
	}
	if (r)
		ht_handover(err, &e2);
	if (r)
		goto out;
	if (verity) {
		if ((r = regenerate(o, u, s.fd, s.size, pr, err)))
			goto out;
		if (pr->verdict[0])
			goto out; /* the verity fields' verdict */
	}
	if (s.in_order) {
		static const uint8_t z[ZEROS];

		while (!r && s.next < s.size) {
			size_t step = s.size - s.next < ZEROS
					      ? (size_t)(s.size - s.next)
					      : ZEROS;

			if (!EVP_DigestUpdate(s.sha, z, step))
				r = ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
			s.next += step;
		}
		if (!r && !EVP_DigestFinal_ex(s.sha, d, &n))
			r = ht_fail(err, EIO, "SHA-256 failed (OpenSSL)");
	} else {
		r = hash_file(&s, d, err);
	}
	if (r)
		goto out;
	if (memcmp(d, ni->hash.data, 32)) {
		char hex[65];

		for (int i = 0; i < 32; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
		say(pr, "bad (new_partition_info.hash differs: the image's "
			"SHA-256 is %s)",
		    hex, NULL);
		goto out;
	}
	if (path) {
		if ((r = verity_device_commit(&dev, err)))
			goto out;
		if (!(pr->path = strdup(path))) {
			r = ht_fail(err, ENOMEM, "out of memory");
			goto out;
		}
	}
	say(pr, "good", NULL, NULL);
out:
	if (path)
		verity_device_close(&dev); /* uncommitted: removed */
	else if (s.fd >= 0)
		close(s.fd);
	EVP_MD_CTX_free(s.sha);
	EVP_MD_free(md);
	free(buf);
	free(sb);
	if (old.fd >= 0)
		verity_device_close(&old);
	return r;
}

static int wanted(const char *names, const char *name)
{
	size_t l = strlen(name);

	for (const char *s = names; s && *s;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == l && !strncmp(s, name, l))
			return 1;
		s = e ? e + 1 : NULL;
	}
	return !names;
}

int verity_ota_apply(struct verity_ota *o, const char *dir,
		     const char *src_dir, const char *names,
		     struct ht_error *err)
{
	const verity_manifest *m = o->payload.m;
	char *path = NULL;
	int r;

	if ((r = ht_libcrypto_load("applying an OTA payload's operations",
				   err)))
		return r;
	/* every name asked for is a partition */
	for (const char *s = names; s && *s;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s), i;

		for (i = 0; i < m->n_partitions; i++)
			if (strlen(m->partitions[i]->partition_name) == n &&
			    !strncmp(m->partitions[i]->partition_name, s, n))
				break;
		if (i == m->n_partitions)
			return ht_fail(err, EINVAL,
				       "%s: no partition %.*s in the payload",
				       o->src.name, (int)(n < 256 ? n : 256), s);
		s = e ? e + 1 : NULL;
	}
	free(o->parts);
	if (!(o->parts = calloc(m->n_partitions ? m->n_partitions : 1,
				sizeof(*o->parts))))
		return ht_fail(err, ENOMEM, "out of memory");
	o->nparts = 0;
	o->applied = 1;
	for (size_t i = 0; i < m->n_partitions && !r; i++) {
		const partition_update *u = m->partitions[i];
		struct verity_ota_part *pr = &o->parts[o->nparts];

		if (!wanted(names, u->partition_name))
			continue;
		pr->name = u->partition_name;
		o->nparts++;
		/* a name that is a file's name, not a path */
		if ((dir || src_dir) &&
		    (strchr(u->partition_name, '/') ||
		     !strcmp(u->partition_name, ".") ||
		     !strcmp(u->partition_name, ".."))) {
			r = ht_fail(err, EINVAL,
				    "%s: partition name %s: not a file name",
				    o->src.name, u->partition_name);
			break;
		}
		if (dir) {
			const char *n = u->partition_name;

			free(path);
			if (asprintf(&path, "%s/%s.img", dir, n) < 0) {
				path = NULL;
				r = ht_fail(err, ENOMEM, "out of memory");
				break;
			}
			/* the package is read, never written over (one
			 * named NAME.img in dir) */
			if (o->dev.path) {
				const char *how = verity_path_same_storage(
					path, o->dev.path);

				if (how) {
					r = ht_fail(err, EINVAL,
						    "%s: is the input %s%s: an "
						    "output is never written "
						    "over what is read",
						    path, o->dev.path, how);
					break;
				}
			}
		}
		r = apply_partition(o, u, dir ? path : NULL, src_dir, pr, err);
	}
	free(path);
	return r;
}
