/* Android sparse images written as avbtool writes them
 * (verity/container/sparse/sparse.h): the chunk list cut and appended
 * to, the header's totals set. Hand-written, as the reader is: libsparse
 * writes a whole image from a list of blocks, and cannot cut an
 * existing chunk list or append to one in place, which avbtool's byte
 * layout (the goldens in tests/avb/sparse) needs. */
#include "verity/container/sparse/sparse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int writer_take(struct verity_sparse_writer *w, const char *path,
		       struct ht_error *err);

int verity_sparse_writer_open(struct verity_sparse_writer *w, const char *path,
			      struct ht_error *err)
{
	int r;

	memset(w, 0, sizeof(*w));
	w->path = path;
	if ((r = verity_device_open(&w->d, path, VERITY_OPEN_WRITE, err)))
		return r;
	return writer_take(w, path, err);
}

int verity_sparse_writer_adopt(struct verity_sparse_writer *w,
			       struct verity_device *d, const char *path,
			       struct ht_error *err)
{
	memset(w, 0, sizeof(*w));
	w->path = path;
	w->d = *d;
	d->fd = -1;
	d->tmp = d->final = NULL;
	d->src = d->src_owned = NULL;
	return writer_take(w, path, err);
}

/* w->d open: the chunk list read, and what the writer appends to
 * checked. */
static int writer_take(struct verity_sparse_writer *w, const char *path,
		       struct ht_error *err)
{
	int r;

	if (w->d.is_block) {
		verity_device_close(&w->d);
		return ht_fail(err, EINVAL,
			       "%s: a block device: a sparse image grows and "
			       "must be a file",
			       path);
	}
	if ((r = verity_sparse_read_tail(&w->d, path, &w->s, err))) {
		verity_device_close(&w->d);
		return r;
	}
	w->cap = w->s.chunks;
	w->kept_end = w->s.end;
	/* what avbtool writes into: its chunks are appended with 12-byte
	 * headers, which a file of larger ones would misread */
	if (w->s.minor != 0 || w->s.header_size != VERITY_SPARSE_HEADER ||
	    w->s.chunk_header_size != VERITY_SPARSE_CHUNK) {
		r = ht_fail(err, EINVAL,
			    "%s: a sparse image of version %u.%u with %u- and "
			    "%u-byte headers: AVB footers are written into "
			    "version 1.0 images of 28- and 12-byte headers "
			    "(avbtool's); make a raw image first (simg2img %s "
			    "IMAGE.raw)",
			    path, w->s.major, w->s.minor, w->s.header_size,
			    w->s.chunk_header_size, path);
		verity_sparse_writer_close(w);
	}
	return r;
}

/* The file cut at byte end (a cut chunk list, or bytes an interrupted
 * run left after it). */
static int cut_file(struct verity_sparse_writer *w, uint64_t end,
		    struct ht_error *err)
{
	if (ftruncate(w->d.fd, (off_t)end) < 0)
		return ht_fail(err, EIO,
			       "%s: cannot set the size to %llu "
			       "bytes: %s",
			       w->path, (unsigned long long)end,
			       strerror(errno));
	w->d.size = end;
	w->s.end = end;
	w->s.tail = 0;
	return 0;
}

static int put_totals(struct verity_sparse_writer *w, uint32_t blocks,
		      uint32_t chunks, struct ht_error *err)
{
	uint8_t t[8];

	put32(t, blocks);
	put32(t + 4, chunks);
	return verity_device_write(&w->d, 16, t, sizeof(t), err);
}

int verity_sparse_cut(struct verity_sparse_writer *w, uint64_t size,
		      struct ht_error *err)
{
	struct verity_sparse *s = &w->s;
	const uint64_t bs = s->block_size;
	uint64_t now = (uint64_t)s->blocks * bs, keep_blocks, at;
	size_t i;
	int r;

	if (size % bs)
		return ht_fail(err, EINVAL,
			       "%s: cannot cut the sparse image to %llu bytes, "
			       "not a multiple of its block size %llu",
			       w->path, (unsigned long long)size,
			       (unsigned long long)bs);
	if (s->tail && (r = cut_file(w, s->end, err)))
		return r;
	if (size >= now)
		return size > now
			       ? verity_sparse_append(w,
						      VERITY_SPARSE_DONT_CARE,
						      size - now, NULL, 0, err)
			       : 0;
	/* the last chunk with output that starts at or before size (CRC32
	 * chunks hold none) */
	keep_blocks = size / bs;
	for (i = s->chunks; i-- > 0;)
		if (s->c[i].type != VERITY_SPARSE_CRC32 &&
		    s->c[i].first <= keep_blocks)
			break;
	if (i == (size_t)-1)
		return ht_fail(err, EINVAL,
			       "%s: no sparse chunk holds byte %llu", w->path,
			       (unsigned long long)size);
	struct verity_sparse_chunk *c = &s->c[i];
	uint32_t nkeep = (uint32_t)i;

	if (c->first == keep_blocks) {
		at = c->at; /* at its start: it and what follows go */
		if ((r = put_totals(w, (uint32_t)keep_blocks, nkeep, err)))
			return r;
	} else {
		/* inside it: its first blocks kept, its header rewritten */
		uint8_t h[VERITY_SPARSE_CHUNK];
		uint64_t k = keep_blocks - c->first;
		uint64_t body = c->type == VERITY_SPARSE_RAW    ? k * bs
				: c->type == VERITY_SPARSE_FILL ? 4
								: 0;

		put16(h, c->type);
		put16(h + 2, 0);
		put32(h + 4, (uint32_t)k);
		put32(h + 8, (uint32_t)(VERITY_SPARSE_CHUNK + body));
		at = c->at + VERITY_SPARSE_CHUNK + body;
		nkeep = (uint32_t)i + 1;
		if ((r = put_totals(w, (uint32_t)keep_blocks, nkeep, err)) ||
		    (r = verity_device_write(&w->d, c->at, h, sizeof(h), err)))
			return r;
		c->blocks = (uint32_t)k;
	}
	if ((r = cut_file(w, at, err)))
		return r;
	w->kept_end = at;
	s->chunks = nkeep;
	s->blocks = (uint32_t)keep_blocks;
	verity_extents_cut(&s->x, size);
	return 0;
}

int verity_sparse_append(struct verity_sparse_writer *w, uint16_t type,
			 uint64_t bytes, const void *data, uint32_t fill,
			 struct ht_error *err)
{
	struct verity_sparse *s = &w->s;
	const uint64_t bs = s->block_size;
	uint64_t blocks = bytes / bs, at = s->end;
	uint64_t body = type == VERITY_SPARSE_RAW    ? bytes
			: type == VERITY_SPARSE_FILL ? 4
						     : 0;
	uint8_t h[VERITY_SPARSE_CHUNK + 4];
	int r;

	if (bytes % bs || s->blocks + blocks > UINT32_MAX ||
	    VERITY_SPARSE_CHUNK + body > UINT32_MAX || s->chunks == UINT32_MAX)
		return ht_fail(err, EINVAL,
			       "%s: a sparse chunk of %llu bytes does not fit "
			       "(blocks of %llu bytes, at most 2^32 of them)",
			       w->path, (unsigned long long)bytes,
			       (unsigned long long)bs);
	if (s->tail && (r = cut_file(w, s->end, err)))
		return r;
	if (s->chunks == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;
		struct verity_sparse_chunk *more =
			realloc(s->c, cap * sizeof(*more));

		if (!more)
			return ht_fail(err, ENOMEM, "out of memory");
		s->c = more;
		w->cap = cap;
	}
	put16(h, type);
	put16(h + 2, 0);
	put32(h + 4, (uint32_t)blocks);
	put32(h + 8, (uint32_t)(VERITY_SPARSE_CHUNK + body));
	put32(h + 12, fill);
	if (type == VERITY_SPARSE_RAW && !data &&
	    ftruncate(w->d.fd, (off_t)(at + VERITY_SPARSE_CHUNK + body)) < 0)
		return ht_fail(
			err, EIO, "%s: cannot grow to %llu bytes: %s", w->path,
			(unsigned long long)(at + VERITY_SPARSE_CHUNK + body),
			strerror(errno));
	w->d.size = at + VERITY_SPARSE_CHUNK + body;
	if ((r = verity_device_write(
		     &w->d, at, h,
		     VERITY_SPARSE_CHUNK + (type == VERITY_SPARSE_FILL ? 4 : 0),
		     err)) ||
	    (type == VERITY_SPARSE_RAW && data &&
	     (r = verity_device_write(&w->d, at + VERITY_SPARSE_CHUNK, data,
				      (size_t)bytes, err))))
		return r;
	if (type == VERITY_SPARSE_RAW)
		r = verity_extents_add(&s->x, VERITY_EXTENT_FILE, bytes,
				       at + VERITY_SPARSE_CHUNK, 0,
				       s->chunks + 1, err);
	else
		r = verity_extents_add(&s->x,
				       type == VERITY_SPARSE_FILL && fill
					       ? VERITY_EXTENT_FILL
					       : VERITY_EXTENT_ZERO,
				       bytes, 0, fill, s->chunks + 1, err);
	if (r)
		return r;
	s->c[s->chunks++] = (struct verity_sparse_chunk){type, (uint32_t)blocks,
							 at, s->blocks, fill};
	s->blocks += (uint32_t)blocks;
	s->end = at + VERITY_SPARSE_CHUNK + body;
	return 0;
}

int verity_sparse_commit(struct verity_sparse_writer *w, struct ht_error *err)
{
	/* the chunks on disk before the header counts them; once it does,
	 * they are the image (close cuts nothing), whether or not the last
	 * flush succeeds */
	int r = verity_device_flush(&w->d, err);

	if (r || (r = put_totals(w, w->s.blocks, w->s.chunks, err)))
		return r;
	w->kept_end = w->s.end;
	return verity_device_flush(&w->d, err);
}

void verity_sparse_writer_close(struct verity_sparse_writer *w)
{
	if (w->d.fd >= 0 && w->s.end != w->kept_end)
		(void)!ftruncate(w->d.fd, (off_t)w->kept_end);
	verity_sparse_free(&w->s);
	verity_device_close(&w->d);
}
