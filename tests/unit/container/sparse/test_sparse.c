/* Android sparse images read as extents (verity/container/sparse/): images
 * made here chunk by chunk (RAW, FILL, DONT_CARE, CRC32; header sizes
 * larger than 28/12), read back through the extents and compared with
 * the bytes unsparsed by hand; then each malformed field refused with the
 * chunk named; the CRC32 sums checked; the writer's cut, appends, commit
 * and close. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "check_main.h"
#include "verity/storage/crc32.h"
#include "verity/container/sparse/sparse.h"

#define BS 4096

static char path[64];

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
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

static void append(struct made *m, const void *p, size_t n)
{
	m->file = realloc(m->file, m->flen + n);
	if (n)
		memcpy(m->file + m->flen, p, n);
	m->flen += n;
}

static void start(struct made *m, unsigned hs, unsigned cs)
{
	uint8_t h[64] = {0};

	memset(m, 0, sizeof(*m));
	m->hs = hs;
	m->cs = cs;
	append(m, h, hs); /* filled in by finish() */
}

/* A chunk: type, blocks, the bytes after its header. */
static void add(struct made *m, uint16_t type, uint32_t blocks,
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

static void finish(struct made *m, uint32_t blocks_fix, uint32_t chunks_fix)
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
static void rewrite(const struct made *m, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(m->file, 1, len, f), len);
	fclose(f);
}

/* The image at path read: 0 or the errno, the message in err. */
static int read_image(struct verity_sparse *s, struct ht_error *err)
{
	struct verity_device d;
	int r;

	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, err),
			 0);
	r = verity_sparse_read(&d, path, s, err);
	verity_device_close(&d);
	return r;
}

static void setup(void)
{
	strcpy(path, "/tmp/fv-sparse-XXXXXX");
	close(mkstemp(path));
}

static void teardown(void)
{
	unlink(path);
}

/* RAW, DONT_CARE, FILL, RAW, CRC32, zero FILL, RAW (the chunk kinds of
 * AOSP's builders), with headers of 28/12 and of 32/16: the unsparsed
 * bytes read back whole and at odd offsets. */
START_TEST(read_back)
{
	for (int sizes = 0; sizes < 2; sizes++) {
		uint8_t *r1 = malloc(3 * BS), *r2 = malloc(10 * BS), r3[BS];
		static const uint8_t pat[4] = {0x2d, 0x9e, 0xb5, 0x54},
				     zero[4] = {0}, crc[4] = {1, 2, 3, 4};
		struct verity_sparse s;
		struct verity_device d;
		struct ht_error err;
		struct made m;
		uint8_t *out;

		for (size_t i = 0; i < 3 * BS; i++)
			r1[i] = (uint8_t)(i * 7 + 1);
		for (size_t i = 0; i < 10 * BS; i++)
			r2[i] = (uint8_t)(i * 13 + 5);
		memset(r3, 0xa5, sizeof(r3));
		start(&m, sizes ? 32 : 28, sizes ? 16 : 12);
		add(&m, 0xcac1, 3, r1, 3 * BS, 0);
		add(&m, 0xcac3, 5, NULL, 0, 0);
		add(&m, 0xcac2, 2, pat, 4, 0);
		add(&m, 0xcac1, 10, r2, 10 * BS, 0);
		add(&m, 0xcac4, 0, crc, 4, 0);
		add(&m, 0xcac2, 7, zero, 4, 0);
		add(&m, 0xcac1, 1, r3, BS, 0);
		finish(&m, 0, 0);
		ck_assert_int_eq(read_image(&s, &err), 0);
		ck_assert_uint_eq(s.blocks, 28);
		ck_assert_uint_eq(s.chunks, 7);
		ck_assert_uint_eq(s.crc_chunks, 1);
		ck_assert_uint_eq(s.x.size, 28 * BS);
		ck_assert_uint_eq(s.x.n, 6);
		ck_assert_int_eq(s.x.e[1].kind, VERITY_EXTENT_ZERO);
		ck_assert_int_eq(s.x.e[2].kind, VERITY_EXTENT_FILL);
		ck_assert_int_eq(s.x.e[4].kind, VERITY_EXTENT_ZERO);
		ck_assert_uint_eq(m.rlen, 28 * BS);
		out = malloc(m.rlen);
		ck_assert_int_eq(
			verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			0);
		ck_assert_int_eq(
			verity_extents_read(&s.x, &d, 0, out, m.rlen, &err), 0);
		ck_assert(!memcmp(out, m.raw, m.rlen));
		/* across extents, at offsets no block boundary holds */
		for (size_t off = 1; off < m.rlen; off += 4093) {
			size_t n = m.rlen - off < 9000 ? m.rlen - off : 9000;

			memset(out, 0, n);
			ck_assert_int_eq(verity_extents_read(&s.x, &d, off, out,
							     n, &err),
					 0);
			ck_assert(!memcmp(out, m.raw + off, n));
		}
		ck_assert_int_eq(
			verity_extents_read(&s.x, &d, m.rlen - 1, out, 2, &err),
			-EINVAL);
		verity_device_close(&d);
		verity_sparse_free(&s);
		free(out);
		free(m.file);
		free(m.raw);
		free(r1);
		free(r2);
	}
}
END_TEST

/* One malformed image a time: refused, the message saying what. */
static void refused(const char *what)
{
	struct verity_sparse s;
	struct ht_error err;

	ck_assert_int_eq(read_image(&s, &err), -EINVAL);
	ck_assert_msg(strstr(ht_msg(&err), what), "'%s' not in '%s'", what, ht_msg(&err));
}

START_TEST(malformed)
{
	static const uint8_t pat[4] = {1, 2, 3, 4};
	uint8_t raw[BS] = {0};
	struct made m;

	/* the declared blocks and the chunks' disagree */
	start(&m, 28, 12);
	add(&m, 0xcac1, 1, raw, BS, 0);
	finish(&m, 2, 0);
	refused("hold 1 blocks, the header declares 2");
	free(m.file), free(m.raw);
	/* a chunk past the declared blocks */
	start(&m, 28, 12);
	add(&m, 0xcac1, 1, raw, BS, 0);
	add(&m, 0xcac3, 3, NULL, 0, 0);
	finish(&m, 2, 0);
	refused("sparse chunk 2 (byte 4136): 3 blocks from block 1, past the "
		"2");
	free(m.file), free(m.raw);
	/* a RAW chunk whose size says other than its blocks */
	start(&m, 28, 12);
	add(&m, 0xcac1, 2, raw, BS, 0);
	finish(&m, 0, 0);
	refused("a RAW chunk of 2 blocks with 4096 bytes of data (8192)");
	free(m.file), free(m.raw);
	/* a FILL chunk of 8 bytes, a DONT_CARE chunk with data */
	start(&m, 28, 12);
	add(&m, 0xcac2, 1, pat, 4, 12 + 8);
	finish(&m, 0, 0);
	refused("a FILL chunk of 8 bytes after its header");
	free(m.file), free(m.raw);
	start(&m, 28, 12);
	add(&m, 0xcac3, 1, NULL, 0, 12 + 4);
	finish(&m, 0, 0);
	refused("a DONT_CARE chunk with 4 bytes");
	free(m.file), free(m.raw);
	/* an unknown type, a total smaller than the header */
	start(&m, 28, 12);
	add(&m, 0xcac9, 0, NULL, 0, 0);
	finish(&m, 0, 0);
	refused("unknown chunk type 0xcac9");
	free(m.file), free(m.raw);
	start(&m, 28, 12);
	add(&m, 0xcac3, 1, NULL, 0, 4);
	finish(&m, 0, 0);
	refused("its total size 4 is smaller than its header");
	free(m.file), free(m.raw);
	/* more chunks declared than the file holds */
	start(&m, 28, 12);
	add(&m, 0xcac3, 1, NULL, 0, 0);
	finish(&m, 0, 2);
	refused("ends inside the header of chunk 2");
	free(m.file), free(m.raw);
	/* a RAW chunk cut short */
	start(&m, 28, 12);
	add(&m, 0xcac1, 1, raw, BS, 0);
	m.flen -= 100;
	finish(&m, 0, 0);
	refused("its data ends past the file");
	free(m.file), free(m.raw);
	/* headers: version 2, sizes below 28/12, a block size of 3, magic */
	start(&m, 28, 12);
	add(&m, 0xcac3, 1, NULL, 0, 0);
	finish(&m, 0, 0);
	put16(m.file + 4, 2);
	rewrite(&m, m.flen);
	refused("sparse image version 2.0");
	put16(m.file + 4, 1);
	put16(m.file + 10, 8);
	rewrite(&m, m.flen);
	refused("sparse header sizes 28 and 8");
	put16(m.file + 10, 12);
	put32(m.file + 12, 3);
	rewrite(&m, m.flen);
	refused("sparse block size 3");
	put32(m.file, 0x12345678);
	rewrite(&m, m.flen);
	refused("not an Android sparse image");
	rewrite(&m, 10);
	refused("ends inside its header");
	free(m.file), free(m.raw);
}
END_TEST

/* --check-crc: a CRC32 chunk's sum of the bytes before it (DONT_CARE
 * as zeros, as libsparse sums them) and the header's checksum hold; one
 * byte changed is named with the chunk. */
START_TEST(crc_sums)
{
	uint8_t r1[2 * BS], sum[4];
	static const uint8_t pat[4] = {9, 8, 7, 6};
	struct verity_sparse s;
	struct verity_device d;
	struct ht_error err;
	struct made m;
	uLong c = crc32(0L, Z_NULL, 0), all;

	for (size_t i = 0; i < sizeof(r1); i++)
		r1[i] = (uint8_t)(i * 3 + 11);
	/* the sum, over the unsparsed bytes made by hand */
	start(&m, 28, 12);
	add(&m, 0xcac1, 2, r1, sizeof(r1), 0);
	add(&m, 0xcac3, 3, NULL, 0, 0);
	add(&m, 0xcac2, 1, pat, 4, 0);
	c = crc32(c, m.raw, (uInt)m.rlen);
	put32(sum, (uint32_t)c);
	add(&m, 0xcac4, 0, sum, 4, 0);
	add(&m, 0xcac3, 2, NULL, 0, 0);
	all = crc32(0L, Z_NULL, 0);
	all = crc32(all, m.raw, (uInt)m.rlen);
	finish(&m, 0, 0);
	for (int pass = 0; pass < 4; pass++) {
		if (pass == 1) /* the header's checksum, right */
			put32(m.file + 24, (uint32_t)all);
		if (pass == 2) /* and wrong */
			put32(m.file + 24, (uint32_t)all ^ 1);
		if (pass == 3) { /* a byte of the first RAW chunk changed */
			put32(m.file + 24, 0);
			m.file[28 + 12 + 100] ^= 0x40;
		}
		rewrite(&m, m.flen);
		ck_assert_int_eq(
			verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			0);
		ck_assert_int_eq(verity_sparse_read(&d, path, &s, &err), 0);
		ck_assert_int_eq(verity_sparse_check_crc(&d, path, &s, &err),
				 pass == 0 || pass == 1 ? 0 : -EPERM);
		if (pass == 2)
			ck_assert_ptr_nonnull(
				strstr(ht_msg(&err), "header's image checksum"));
		if (pass == 3)
			ck_assert_ptr_nonnull(strstr(ht_msg(&err), "sparse chunk 4"));
		verity_sparse_free(&s);
		verity_device_close(&d);
	}
	free(m.file);
	free(m.raw);
}
END_TEST

/* Runs summed without their bytes: count copies of a unit (4 bytes, 12,
 * a block; zeros and a pattern) after a seed, as zlib sums them byte by
 * byte; and 2^32 - 3 blocks of zeros as zlib's crc32_combine64 sums
 * them, doubling. */
START_TEST(crc_runs)
{
	static const size_t units[] = {4, 12, BS};
	static const uint64_t counts[] = {0, 1, 2, 3, 5, 64, 255, 1000};
	static const uint32_t pats[] = {0, 0x44332211};
	static uint8_t buf[1000 * BS];
	struct ht_error err;
	uint32_t unit, shift, got;
	uLong want, run;
	uint64_t len, count = ((uint64_t)1 << 32) - 3;

	ck_assert_int_eq(verity_crc32_load("a test", &err), 0);
	ck_assert_uint_eq(verity_crc32_shift(0), 1u << 31);
	for (size_t u = 0; u < 3; u++)
		for (size_t p = 0; p < 2; p++)
			for (size_t c = 0; c < 8; c++)
				for (uint32_t seed = 0; seed < 2; seed++) {
					size_t n = units[u] * counts[c];

					for (size_t i = 0; i < n; i++)
						buf[i] = (uint8_t)(pats[p] >>
								   (i % 4 * 8));
					unit = (uint32_t)crc32(0L, buf,
							       (uInt)units[u]);
					shift = verity_crc32_shift(units[u]);
					want = crc32(seed * 0x9e3779b9u, buf,
						     (uInt)n);
					got = verity_crc32_repeat(
						seed * 0x9e3779b9u, unit, shift,
						counts[c]);
					ck_assert_uint_eq(got, (uint32_t)want);
				}
	/* 16 TiB of zeros less three blocks: zlib's doubling */
	memset(buf, 0, BS);
	unit = (uint32_t)(run = crc32(0L, buf, BS));
	want = crc32(0L, Z_NULL, 0);
	len = BS;
	for (uint64_t k = count; k; k >>= 1) {
		if (k & 1)
			want = crc32_combine64(want, run, (z_off64_t)len);
		run = crc32_combine64(run, run, (z_off64_t)len);
		len *= 2;
	}
	got = verity_crc32_repeat(0, unit, verity_crc32_shift(BS), count);
	ck_assert_uint_eq(got, (uint32_t)want);
}
END_TEST

/* A chunk's header and body appended to m's file alone (its blocks too
 * many to unsparse by hand). */
static void add_file_only(struct made *m, uint16_t type, uint32_t blocks,
			  const void *body, size_t blen)
{
	uint8_t c[12] = {0};

	put16(c, type);
	put32(c + 4, blocks);
	put32(c + 8, (uint32_t)(12 + blen));
	append(m, c, 12);
	append(m, body, blen);
	m->chunks++;
	m->blocks += blocks;
}

/* --check-crc of a few KiB declaring 16 TiB: DONT_CARE and FILL chunks
 * summed from one block's sum, in well under a minute (they were summed
 * byte by byte, for about an hour), the sums zlib's. */
START_TEST(crc_huge)
{
	static const uint8_t pat[4] = {0x5a, 0xa5, 0x01, 0x80};
	static uint8_t blk[BS];
	const uint32_t zeros = 0xfffffffcu; /* + 3 blocks: 2^32 - 1 */
	struct verity_sparse s;
	struct verity_device d;
	struct ht_error err;
	struct made m;
	uLong run, sum = crc32(0L, Z_NULL, 0), all;
	uint64_t len = BS;
	uint8_t c4[4];

	memset(blk, 0, BS);
	run = crc32(0L, blk, BS);
	for (uint64_t k = zeros; k; k >>= 1) {
		if (k & 1)
			sum = crc32_combine64(sum, run, (z_off64_t)len);
		run = crc32_combine64(run, run, (z_off64_t)len);
		len *= 2;
	}
	for (size_t i = 0; i < BS; i++)
		blk[i] = pat[i % 4];
	sum = crc32(sum, blk, BS); /* the FILL block */
	start(&m, 28, 12);
	add_file_only(&m, 0xcac3, zeros, NULL, 0);
	add_file_only(&m, 0xcac2, 1, pat, 4);
	put32(c4, (uint32_t)sum);
	add_file_only(&m, 0xcac4, 0, c4, 4);
	for (size_t i = 0; i < BS; i++)
		blk[i] = (uint8_t)(i * 7 + 3);
	add_file_only(&m, 0xcac1, 1, blk, BS);
	all = crc32(sum, blk, BS);
	memset(blk, 0, BS);
	all = crc32(all, blk, BS); /* the last DONT_CARE block */
	add_file_only(&m, 0xcac3, 1, NULL, 0);
	finish(&m, 0, 0);
	ck_assert_uint_eq(m.blocks, 0xffffffffu);
	for (int pass = 0; pass < 3; pass++) {
		put32(m.file + 24, pass == 0   ? 0
				   : pass == 1 ? (uint32_t)all
					       : (uint32_t)all ^ 4);
		rewrite(&m, m.flen);
		ck_assert_int_eq(
			verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			0);
		ck_assert_int_eq(verity_sparse_read(&d, path, &s, &err), 0);
		alarm(60);
		ck_assert_int_eq(verity_sparse_check_crc(&d, path, &s, &err),
				 pass < 2 ? 0 : -EPERM);
		alarm(0);
		if (pass == 2)
			ck_assert_ptr_nonnull(
				strstr(ht_msg(&err), "header's image checksum"));
		verity_sparse_free(&s);
		verity_device_close(&d);
	}
	free(m.file);
}
END_TEST

/* The writer, avbtool's way: a cut inside a FILL chunk keeps its first
 * blocks, chunks appended after it are counted at commit; appended and
 * not committed, they are cut off on close; bytes after the last
 * counted chunk (an interrupted run) are refused by the reader and cut
 * by the next writer. */
START_TEST(writer)
{
	uint8_t r1[3 * BS], r2[2 * BS], *out;
	static const uint8_t pat[4] = {0x11, 0x22, 0x33, 0x44};
	struct verity_sparse_writer w;
	struct verity_sparse s;
	struct verity_device d;
	struct ht_error err;
	struct made m, want;
	long before;
	FILE *f;

	for (size_t i = 0; i < sizeof(r1); i++)
		r1[i] = (uint8_t)(i * 5 + 1);
	for (size_t i = 0; i < sizeof(r2); i++)
		r2[i] = (uint8_t)(i * 9 + 2);
	start(&m, 28, 12);
	add(&m, 0xcac1, 3, r1, sizeof(r1), 0);
	add(&m, 0xcac2, 4, pat, 4, 0);
	finish(&m, 0, 0);
	/* what the cut and the appends make: RAW 3, FILL 1, RAW 2, DONT_CARE 3 */
	start(&want, 28, 12);
	add(&want, 0xcac1, 3, r1, sizeof(r1), 0);
	add(&want, 0xcac2, 1, pat, 4, 0);
	add(&want, 0xcac1, 2, r2, sizeof(r2), 0);
	add(&want, 0xcac3, 3, NULL, 0, 0);

	ck_assert_int_eq(verity_sparse_writer_open(&w, path, &err), 0);
	ck_assert_int_eq(verity_sparse_cut(&w, 4 * BS + 100, &err), -EINVAL);
	ck_assert_int_eq(verity_sparse_cut(&w, 4 * BS, &err), 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_RAW,
					      sizeof(r2), r2, 0, &err),
			 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_DONT_CARE,
					      3 * BS, NULL, 0, &err),
			 0);
	ck_assert_int_eq(verity_sparse_commit(&w, &err), 0);
	verity_sparse_writer_close(&w);
	ck_assert_int_eq(read_image(&s, &err), 0);
	ck_assert_uint_eq(s.blocks, 9);
	ck_assert_uint_eq(s.chunks, 4);
	ck_assert_uint_eq(s.x.size, want.rlen);
	out = malloc(want.rlen);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_extents_read(&s.x, &d, 0, out, want.rlen, &err),
			 0);
	ck_assert(!memcmp(out, want.raw, want.rlen));
	verity_device_close(&d);
	verity_sparse_free(&s);

	/* appended, not committed: cut off on close */
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	before = ftell(f);
	fclose(f);
	ck_assert_int_eq(verity_sparse_writer_open(&w, path, &err), 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_RAW,
					      sizeof(r2), r2, 0, &err),
			 0);
	verity_sparse_writer_close(&w);
	ck_assert_int_eq(read_image(&s, &err), 0);
	ck_assert_uint_eq(s.chunks, 4);
	verity_sparse_free(&s);
	ck_assert_ptr_nonnull(f = fopen(path, "ab"));
	ck_assert_int_eq(ftell(f), before);
	/* bytes after the last chunk: refused, then cut by a writer */
	ck_assert_uint_eq(fwrite(r2, 1, 100, f), 100);
	fclose(f);
	ck_assert_int_eq(read_image(&s, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "100 bytes follow the last"));
	ck_assert_int_eq(verity_sparse_writer_open(&w, path, &err), 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_FILL, BS, NULL,
					      0x01020304, &err),
			 0);
	ck_assert_int_eq(verity_sparse_commit(&w, &err), 0);
	verity_sparse_writer_close(&w);
	ck_assert_int_eq(read_image(&s, &err), 0);
	ck_assert_uint_eq(s.chunks, 5);
	ck_assert_uint_eq(s.blocks, 10);
	verity_sparse_free(&s);
	free(out);
	free(m.file), free(m.raw);
	free(want.file), free(want.raw);
}
END_TEST

/* The seam super images need: one source whose FILE extents lie in two
 * files (the device's own and another, as a logical partition's linear
 * extents lie on several block devices), with a zero extent between;
 * read whole and across, and a write landing in the other file. */
START_TEST(extents_across_files)
{
	char other[64];
	uint8_t a[2 * BS], b[3 * BS], out[4 * BS], want[4 * BS];
	const struct verity_device *files[1];
	struct verity_extents *x = calloc(1, sizeof(*x));
	struct verity_device d, o;
	struct ht_error err;
	FILE *f;

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(i * 3 + 1);
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 5 + 7);
	strcpy(other, "/tmp/fv-sparse-other-XXXXXX");
	close(mkstemp(other));
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(a, 1, sizeof(a), f), sizeof(a));
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen(other, "wb"));
	ck_assert_uint_eq(fwrite(b, 1, sizeof(b), f), sizeof(b));
	fclose(f);
	ck_assert_int_eq(verity_device_open(&o, other, VERITY_OPEN_WRITE, &err),
			 0);
	files[0] = &o;
	x->files = files;
	x->nfiles = 1;
	/* [a's block 1][zeros][b's block 2][a's block 0] */
	ck_assert_int_eq(verity_extents_add_in(x, 2, BS, 0, 1, &err), -EINVAL);
	ck_assert_int_eq(verity_extents_add_in(x, 0, BS, BS, 1, &err), 0);
	ck_assert_int_eq(verity_extents_add(x, VERITY_EXTENT_ZERO, BS, 0, 0, 2,
					    &err),
			 0);
	ck_assert_int_eq(verity_extents_add_in(x, 1, BS, 2 * BS, 3, &err), 0);
	ck_assert_int_eq(verity_extents_add_in(x, 0, BS, 0, 4, &err), 0);
	memcpy(want, a + BS, BS);
	memset(want + BS, 0, BS);
	memcpy(want + 2 * BS, b + 2 * BS, BS);
	memcpy(want + 3 * BS, a, BS);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_WRITE, &err),
			 0);
	ck_assert_int_eq(verity_device_take_source(&d, x, &err), 0);
	ck_assert_uint_eq(d.size, 4 * BS);
	ck_assert_int_eq(verity_device_read(&d, 0, out, sizeof(out), &err), 0);
	ck_assert(!memcmp(out, want, sizeof(out)));
	ck_assert_int_eq(verity_device_read(&d, 2 * BS - 10, out, 30, &err), 0);
	ck_assert(!memcmp(out, want + 2 * BS - 10, 30));
	/* a write into the third extent lands in the other file */
	memset(out, 0x5a, 100);
	ck_assert_int_eq(verity_device_write(&d, 2 * BS + 8, out, 100, &err), 0);
	verity_device_close(&d);
	verity_device_close(&o);
	ck_assert_ptr_nonnull(f = fopen(other, "rb"));
	ck_assert_uint_eq(fread(b, 1, sizeof(b), f), sizeof(b));
	fclose(f);
	ck_assert_uint_eq(b[2 * BS + 8], 0x5a);
	ck_assert_uint_eq(b[2 * BS + 107], 0x5a);
	ck_assert_uint_eq(b[2 * BS + 108], (uint8_t)((2 * BS + 108) * 5 + 7));
	unlink(other);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "sparse", .setup = setup, .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(read_back, malformed, crc_sums, crc_runs,
				       crc_huge, writer, extents_across_files));
}
