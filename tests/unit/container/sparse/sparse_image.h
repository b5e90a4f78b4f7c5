/* Android sparse images made chunk by chunk for the suites of
 * verity/container/sparse/ (test_sparse, test_writer): the file (at
 * path, made by setup, removed by teardown) and the bytes it unsparses
 * to, made by hand. */
#ifndef FV_UNIT_SPARSE_IMAGE_H
#define FV_UNIT_SPARSE_IMAGE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/container/sparse/sparse.h"

#define BS 4096

static char path[64];

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

/* A sparse image being made, and the bytes it unsparses to. */
struct made {
	uint8_t *file, *raw;
	size_t flen, rlen;
	unsigned hs, cs; /* header sizes */
	uint32_t chunks, blocks;
};

static inline void append(struct made *m, const void *p, size_t n)
{
	m->file = realloc(m->file, m->flen + n);
	if (n)
		memcpy(m->file + m->flen, p, n);
	m->flen += n;
}

static inline void start(struct made *m, unsigned hs, unsigned cs)
{
	uint8_t h[64] = {0};

	memset(m, 0, sizeof(*m));
	m->hs = hs;
	m->cs = cs;
	append(m, h, hs); /* filled in by finish() */
}

/* A chunk: type, blocks, the bytes after its header. */
static inline void add(struct made *m, uint16_t type, uint32_t blocks,
		const void *body, size_t blen, uint32_t total_fix)
{
	uint8_t c[64] = {0};

	put16(c, type);
	put32(c + 4, blocks);
	put32(c + 8, total_fix ? total_fix : (uint32_t)(m->cs + blen));
	append(m, c, m->cs);
	append(m, body, blen);
	m->chunks++;
	m->blocks += blocks;
	m->raw = realloc(m->raw, m->rlen + (size_t)blocks * BS + 1);
	for (size_t i = 0; i < (size_t)blocks * BS; i++) {
		const uint8_t *b = body;

		/* (a malformed chunk may have fewer bytes than blocks) */
		m->raw[m->rlen + i] = type == 0xcac1 && i < blen    ? b[i]
				      : type == 0xcac2 && blen >= 4 ? b[i % 4]
								    : 0;
	}
	m->rlen += (size_t)blocks * BS;
}

static inline void finish(struct made *m, uint32_t blocks_fix, uint32_t chunks_fix)
{
	FILE *f;

	put32(m->file, 0xed26ff3a);
	put16(m->file + 4, 1);
	put16(m->file + 6, 0);
	put16(m->file + 8, (uint16_t)m->hs);
	put16(m->file + 10, (uint16_t)m->cs);
	put32(m->file + 12, BS);
	put32(m->file + 16, blocks_fix ? blocks_fix : m->blocks);
	put32(m->file + 20, chunks_fix ? chunks_fix : m->chunks);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(m->file, 1, m->flen, f), m->flen);
	fclose(f);
}

/* The first len bytes of m's file written over path again. */
static inline void rewrite(const struct made *m, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(m->file, 1, len, f), len);
	fclose(f);
}

/* The image at path read: 0 or the errno, the message in err. */
static inline int read_image(struct verity_sparse *s, struct ht_error *err)
{
	struct verity_device d;
	int r;

	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, err),
			 0);
	r = verity_sparse_read(&d, path, s, err);
	verity_device_close(&d);
	return r;
}

static inline void setup(void)
{
	strcpy(path, "/tmp/fv-sparse-XXXXXX");
	close(mkstemp(path));
}

static inline void teardown(void)
{
	unlink(path);
}

#endif
