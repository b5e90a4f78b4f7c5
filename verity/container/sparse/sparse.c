/* Android sparse images read as extents (verity/container/sparse/sparse.h). */
#include "verity/container/sparse/sparse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/storage/crc32.h"


static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int read_at(const struct verity_device *d, const char *path,
		   uint64_t off, void *buf, size_t len, const char *what,
		   struct ht_error *err)
{
	if (off > d->size || len > d->size - off)
		return ht_fail(err, EINVAL,
			       "%s: the sparse image ends inside %s (byte %llu "
			       "of %llu)",
			       path, what, (unsigned long long)off,
			       (unsigned long long)d->size);
	return verity_device_read(d, off, buf, len, err);
}

static int header(const struct verity_device *d, const char *path,
		  struct verity_sparse *s, struct ht_error *err)
{
	uint8_t h[VERITY_SPARSE_HEADER];
	int r;

	if ((r = read_at(d, path, 0, h, sizeof(h), "its header", err)))
		return r;
	if (le32(h) != VERITY_SPARSE_MAGIC)
		return ht_fail(err, EINVAL,
			       "%s: not an Android sparse image (magic %#x)",
			       path, le32(h));
	s->major = le16(h + 4);
	s->minor = le16(h + 6);
	s->header_size = le16(h + 8);
	s->chunk_header_size = le16(h + 10);
	s->block_size = le32(h + 12);
	s->blocks = le32(h + 16);
	s->chunks = le32(h + 20);
	s->image_crc = le32(h + 24);
	if (s->major != 1)
		return ht_fail(err, EINVAL,
			       "%s: sparse image version %u.%u (1.x is read)",
			       path, s->major, s->minor);
	if (s->header_size < VERITY_SPARSE_HEADER ||
	    s->chunk_header_size < VERITY_SPARSE_CHUNK)
		return ht_fail(err, EINVAL,
			       "%s: sparse header sizes %u and %u (at least %d "
			       "and %d)",
			       path, s->header_size, s->chunk_header_size,
			       VERITY_SPARSE_HEADER, VERITY_SPARSE_CHUNK);
	if (!s->block_size || s->block_size % 4)
		return ht_fail(err, EINVAL,
			       "%s: sparse block size %u, not a non-zero multiple "
			       "of 4",
			       path, s->block_size);
	if (s->chunks > VERITY_SPARSE_MAX_CHUNKS)
		return ht_fail(err, EINVAL, "%s: %u sparse chunks (at most %u)",
			       path, s->chunks, VERITY_SPARSE_MAX_CHUNKS);
	return 0;
}

/* Chunk i (1-based, as simg_dump numbers them) at byte off. */
static int chunk(const struct verity_device *d, const char *path,
		 struct verity_sparse *s, uint32_t i, uint64_t *off,
		 uint64_t *done, struct ht_error *err)
{
	uint8_t c[VERITY_SPARSE_CHUNK], fill[4] = {0};
	const uint64_t hs = s->chunk_header_size, bs = s->block_size;
	uint64_t blocks, total, body;
	char what[64];
	uint16_t type;
	int r;

	snprintf(what, sizeof(what), "the header of chunk %u", i);
	if ((r = read_at(d, path, *off, c, sizeof(c), what, err)))
		return r;
	type = le16(c);
	blocks = le32(c + 4);
	total = le32(c + 8);
	if (total < hs)
		return ht_fail(
			err, EINVAL,
			"%s: sparse chunk %u (byte %llu): its total size "
			"%llu is smaller than its header",
			path, i, (unsigned long long)*off,
			(unsigned long long)total);
	body = total - hs;
	if (blocks > s->blocks - *done)
		return ht_fail(err, EINVAL,
			       "%s: sparse chunk %u (byte %llu): %llu blocks "
			       "from block %llu, past the %u the header "
			       "declares",
			       path, i, (unsigned long long)*off,
			       (unsigned long long)blocks,
			       (unsigned long long)*done, s->blocks);
	switch (type) {
	case VERITY_SPARSE_RAW:
		/* 32-bit counts times a block size: no 64-bit overflow */
		if (body != blocks * bs)
			return ht_fail(
				err, EINVAL,
				"%s: sparse chunk %u (byte %llu): a RAW "
				"chunk of %llu blocks with %llu bytes of "
				"data (%llu)",
				path, i, (unsigned long long)*off,
				(unsigned long long)blocks,
				(unsigned long long)body,
				(unsigned long long)(blocks * bs));
		if (*off + total > d->size)
			return ht_fail(err, EINVAL,
				       "%s: sparse chunk %u (byte %llu): its "
				       "data ends past the file (%llu bytes)",
				       path, i, (unsigned long long)*off,
				       (unsigned long long)d->size);
		r = verity_extents_add(&s->x, VERITY_EXTENT_FILE, blocks * bs,
				       *off + hs, 0, i, err);
		break;
	case VERITY_SPARSE_FILL:
	case VERITY_SPARSE_CRC32:
		if (body != 4)
			return ht_fail(err, EINVAL,
				       "%s: sparse chunk %u (byte %llu): a %s "
				       "chunk of %llu bytes after its header "
				       "(4)",
				       path, i, (unsigned long long)*off,
				       type == VERITY_SPARSE_FILL ? "FILL"
								  : "CRC32",
				       (unsigned long long)body);
		snprintf(what, sizeof(what), "chunk %u", i);
		if ((r = read_at(d, path, *off + hs, fill, 4, what, err)))
			return r;
		if (type == VERITY_SPARSE_CRC32) {
			if (blocks)
				return ht_fail(
					err, EINVAL,
					"%s: sparse chunk %u (byte %llu): "
					"a CRC32 chunk of %llu blocks "
					"(0)",
					path, i, (unsigned long long)*off,
					(unsigned long long)blocks);
			s->crc_chunks++;
			break;
		}
		r = verity_extents_add(&s->x,
				       le32(fill) ? VERITY_EXTENT_FILL
						  : VERITY_EXTENT_ZERO,
				       blocks * bs, 0, le32(fill), i, err);
		break;
	case VERITY_SPARSE_DONT_CARE:
		if (body)
			return ht_fail(err, EINVAL,
				       "%s: sparse chunk %u (byte %llu): a "
				       "DONT_CARE chunk with %llu bytes after "
				       "its header (0)",
				       path, i, (unsigned long long)*off,
				       (unsigned long long)body);
		r = verity_extents_add(&s->x, VERITY_EXTENT_ZERO, blocks * bs,
				       0, 0, i, err);
		break;
	default:
		return ht_fail(err, EINVAL,
			       "%s: sparse chunk %u (byte %llu): unknown chunk "
			       "type %#x",
			       path, i, (unsigned long long)*off, type);
	}
	if (r)
		return r;
	s->c[i - 1] = (struct verity_sparse_chunk){
		type, (uint32_t)blocks, *off, *done,
		type == VERITY_SPARSE_FILL || type == VERITY_SPARSE_CRC32
			? le32(fill)
			: 0};
	*done += blocks;
	*off += total;
	return 0;
}

static int sparse_read(const struct verity_device *d, const char *path,
		       struct verity_sparse *s, int tail_ok,
		       struct ht_error *err)
{
	uint64_t off, done = 0;
	int r;

	memset(s, 0, sizeof(*s));
	s->x.unit = "sparse chunk";
	if ((r = header(d, path, s, err)))
		return r;
	/* every chunk takes at least 12 bytes of the file: no more of them
	 * than it can hold */
	if (s->chunks > d->size / VERITY_SPARSE_CHUNK)
		return ht_fail(
			err, EINVAL,
			"%s: %u sparse chunks declared in a file of %llu "
			"bytes",
			path, s->chunks, (unsigned long long)d->size);
	if (s->chunks && !(s->c = calloc(s->chunks, sizeof(*s->c))))
		return ht_fail(err, ENOMEM, "out of memory");
	off = s->header_size;
	for (uint32_t i = 1; i <= s->chunks; i++)
		if ((r = chunk(d, path, s, i, &off, &done, err))) {
			verity_sparse_free(s);
			return r;
		}
	if (done != s->blocks) {
		verity_sparse_free(s);
		return ht_fail(err, EINVAL,
			       "%s: the sparse chunks hold %llu blocks, the "
			       "header declares %u",
			       path, (unsigned long long)done, s->blocks);
	}
	s->end = off;
	s->tail = d->size - off;
	if (s->tail && !tail_ok) {
		r = ht_fail(err, EINVAL,
			    "%s: %llu bytes follow the last of its %u sparse "
			    "chunks (at byte %llu): not a whole sparse image, "
			    "or one whose writing was interrupted",
			    path, (unsigned long long)s->tail, s->chunks,
			    (unsigned long long)off);
		verity_sparse_free(s);
	}
	return r;
}

int verity_sparse_read(const struct verity_device *d, const char *path,
		       struct verity_sparse *s, struct ht_error *err)
{
	return sparse_read(d, path, s, 0, err);
}

int verity_sparse_read_tail(const struct verity_device *d, const char *path,
			    struct verity_sparse *s, struct ht_error *err)
{
	return sparse_read(d, path, s, 1, err);
}

void verity_sparse_free(struct verity_sparse *s)
{
	verity_extents_free(&s->x);
	free(s->c);
	s->c = NULL;
}

int verity_sparse_magic(const struct verity_device *d)
{
	uint8_t m[4];
	int r;

	if (d->src || d->size < VERITY_SPARSE_HEADER)
		return 0;
	/* bytes that cannot be read: maybe one, and the reading of it then
	 * says why (never taken for raw data, and written as such) */
	if ((r = verity_device_read(d, 0, m, sizeof(m), NULL)))
		return r;
	return le32(m) == VERITY_SPARSE_MAGIC;
}

/* The sum (from 0) of size bytes (a multiple of 4) of pattern p (4
 * bytes, repeated from a 4-byte boundary), made in buf. */
static uint32_t crc_block(uint32_t p, uint8_t *buf, size_t size)
{
	for (size_t i = 0; i + 4 <= size; i += 4)
		memcpy(buf + i, &(uint8_t[4]){(uint8_t)p, (uint8_t)(p >> 8),
					      (uint8_t)(p >> 16),
					      (uint8_t)(p >> 24)},
		       4);
	return verity_crc32(0, buf, size);
}

int verity_sparse_check_crc(const struct verity_device *d, const char *path,
			    const struct verity_sparse *s, struct ht_error *err)
{
	const size_t size = 1u << 20;
	uint8_t *buf;
	uint32_t crc = 0, last = 0, unit = 0, pattern = 0;
	/* a run's unit: a block, or 4 bytes of blocks larger than buf */
	const size_t ulen = s->block_size <= size ? s->block_size : 4;
	const uint32_t shift = verity_crc32_shift(ulen);
	int r = verity_crc32_load("checking a sparse image's checksums", err),
	    known = 0;

	if (r)
		return r;
	if (!(buf = malloc(size)))
		return ht_fail(err, ENOMEM, "out of memory");
	/* nothing is summed past the last sum to check */
	for (uint32_t i = 0; i < s->chunks; i++)
		if (s->image_crc || s->c[i].type == VERITY_SPARSE_CRC32)
			last = i + 1;
	/* libsparse's sum: every output byte in order, DONT_CARE as zeros;
	 * a DONT_CARE or FILL chunk's blocks summed from one block's sum
	 * (verity_crc32_repeat), not byte by byte: a few bytes of file may
	 * declare 16 TiB of them */
	for (uint32_t i = 0; !r && i < last; i++) {
		const struct verity_sparse_chunk *c = &s->c[i];
		uint64_t n = (uint64_t)c->blocks * s->block_size;

		if (c->type == VERITY_SPARSE_CRC32) {
			if ((uint32_t)crc != c->fill)
				r = ht_fail(err, EPERM,
					    "%s: sparse chunk %u (byte %llu): "
					    "CRC32 %08x, and the bytes before "
					    "it sum to %08x",
					    path, i + 1,
					    (unsigned long long)c->at, c->fill,
					    (unsigned)crc);
		} else if (c->type == VERITY_SPARSE_RAW) {
			uint64_t at = c->at + s->chunk_header_size;

			while (!r && n) {
				size_t k = n < size ? (size_t)n : size;

				if (!(r = verity_device_read(d, at, buf, k,
							     err)))
					crc = verity_crc32(crc, buf, k);
				at += k;
				n -= k;
			}
		} else if (c->blocks) {
			uint32_t p =
				c->type == VERITY_SPARSE_FILL ? c->fill : 0;

			if (!known || p != pattern)
				unit = crc_block(p, buf, ulen);
			known = 1;
			pattern = p;
			crc = verity_crc32_repeat(crc, unit, shift, n / ulen);
		}
	}
	if (!r && s->image_crc && (uint32_t)crc != s->image_crc)
		r = ht_fail(err, EPERM,
			    "%s: the sparse header's image checksum %08x, and "
			    "the unsparsed bytes sum to %08x",
			    path, s->image_crc, (unsigned)crc);
	free(buf);
	return r;
}

int verity_sparse_open(struct verity_device *d, const char *path,
		       int *sparse, struct ht_error *err)
{
	struct verity_sparse sp;
	struct verity_extents *x;
	int r;

	if (sparse)
		*sparse = 0;
	if ((r = verity_device_open(d, path, VERITY_OPEN_READ, err)))
		return r;
	if (!verity_sparse_magic(d))
		return 0;
	if ((r = verity_sparse_read(d, path, &sp, err))) {
		verity_device_close(d);
		return r;
	}
	if (!(x = malloc(sizeof(*x)))) {
		verity_sparse_free(&sp);
		verity_device_close(d);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	*x = sp.x; /* the extents kept, the chunk list not */
	free(sp.c);
	if (sparse)
		*sparse = 1;
	return verity_device_take_source(d, x, err);
}
