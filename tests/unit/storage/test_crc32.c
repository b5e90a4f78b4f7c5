/* CRC32 (verity/storage/crc32.c, zlib's, opened when first needed):
 * runs of a repeated unit summed without their bytes, as zlib sums them
 * byte by byte, and as its crc32_combine64 sums 16 TiB. */
#include <check.h>
#include <string.h>

#include <zlib.h>

#include "check_main.h"
#include "verity/storage/crc32.h"

#define BS 4096

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

int main(void)
{
	static const struct unit_suite u = {.name = "crc32"};

	return run_unit(&u, UNIT_TESTS(crc_runs));
}
