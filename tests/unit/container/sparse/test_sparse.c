/* Android sparse images read as extents (verity/container/sparse/
 * sparse.c): images made here chunk by chunk (RAW, FILL, DONT_CARE,
 * CRC32; header sizes larger than 28/12), read back through the extents
 * and compared with the bytes unsparsed by hand; then each malformed
 * field refused with the chunk named; the CRC32 sums checked. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "check_main.h"
#include "container/sparse/sparse_image.h"

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

int main(void)
{
	static const struct unit_suite u = {
		.name = "sparse", .setup = setup, .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(read_back, malformed, crc_sums,
				       crc_huge));
}
