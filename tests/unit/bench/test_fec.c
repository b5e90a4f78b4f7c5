/* verity/bench/fec.c: what each number of roots means for the data
 * measured (4096-byte blocks, a sha256 tree): the parity's size, the
 * longest run of bad blocks it corrects with and without the tree naming
 * them, and its encoding time from the ISA-L row's rate on the run's
 * threads (libfec's row and a row not measured never used); no data, no
 * advice; the data counted in whole blocks. (The encoders' own
 * measurement, verity_bench_fec, takes most of a second at its least:
 * measured by fv_bench_run's suite, not here.) */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "verity/bench/bench.h"

static const unsigned roots[] = {2, 4, 8, 16, 24};

/* Covered blocks of data blocks: the data and its sha256 tree. */
static uint64_t covered(uint64_t data)
{
	uint64_t tree = 0;

	for (uint64_t n = data; n > 1;) {
		n = (n + 127) / 128;
		tree += n;
	}
	return data + tree;
}

START_TEST(advice)
{
	static struct bench_report r;
	static const uint64_t sizes[] = {4096, 4096 * 128 + 100, 4096 * 129,
					 (uint64_t)1 << 30, (uint64_t)1 << 40};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t data = sizes[s] / 4096, c = covered(data);

		memset(&r, 0, sizeof(r));
		r.size = sizes[s];
		verity_bench_fec_advise(&r);
		ck_assert_uint_eq(r.advice_data_bytes, data * 4096);
		ck_assert_uint_eq(r.nadvice, 5);
		for (size_t k = 0; k < 5; k++) {
			const struct bench_fec_advice *a = &r.advice[k];
			uint64_t rounds =
				(c + 255 - roots[k] - 1) / (255 - roots[k]);

			ck_assert_uint_eq(a->roots, roots[k]);
			ck_assert_uint_eq(a->parity_bytes,
					  rounds * roots[k] * 4096);
			ck_assert_uint_eq(a->run_named,
					  rounds * roots[k] * 4096);
			ck_assert_uint_eq(a->run_unnamed,
					  rounds * (roots[k] / 2) * 4096);
			ck_assert(a->encode_seconds < 0);
		}
	}
	/* 1 GiB: 262144 blocks and a tree of 2048 + 16 + 1, in 1045 rounds
	 * of 253 at 2 roots */
	memset(&r, 0, sizeof(r));
	r.size = (uint64_t)1 << 30;
	verity_bench_fec_advise(&r);
	ck_assert_uint_eq(r.advice[0].parity_bytes, 1045u * 2 * 4096);
	ck_assert_uint_eq(r.advice[0].run_unnamed, 1045u * 4096);
	ck_assert_uint_eq(r.advice[4].parity_bytes,
			  ((264209u + 230) / 231) * 24 * 4096);
	/* one block: one round; 129 blocks: a tree of 2 + 1 */
	ck_assert_uint_eq(covered(1), 1);
	ck_assert_uint_eq(covered(129), 132);
}
END_TEST

START_TEST(no_data)
{
	static struct bench_report r;

	memset(&r, 0, sizeof(r));
	r.size = 4095;
	r.nadvice = 3;
	verity_bench_fec_advise(&r);
	ck_assert_uint_eq(r.nadvice, 0);
	ck_assert_uint_eq(r.advice_data_bytes, 0);
}
END_TEST

/* The encode time: from the ISA-L row of the same roots, its rate over
 * the run's threads (none: one); libfec's row, and a row not measured,
 * never. */
START_TEST(encode_time)
{
	static struct bench_report r;
	uint64_t c = covered(256);

	memset(&r, 0, sizeof(r));
	r.size = 256 * 4096;
	r.fec[0] = (struct bench_fec){.roots = 2, .scalar = 1, .mb_per_s = 50};
	r.fec[1] =
		(struct bench_fec){.roots = 2, .scalar = 0, .mb_per_s = 1000};
	r.fec[2] = (struct bench_fec){.roots = 4, .scalar = 0, .mb_per_s = -1};
	r.fec[3] = (struct bench_fec){.roots = 8, .scalar = 1, .mb_per_s = 30};
	r.nfec = 4;
	verity_bench_fec_advise(&r);
	ck_assert_double_eq_tol(r.advice[0].encode_seconds,
				(double)(c * 4096) / 1e9, 1e-12);
	ck_assert(r.advice[1].encode_seconds < 0);
	ck_assert(r.advice[2].encode_seconds < 0);
	r.threads = 4;
	verity_bench_fec_advise(&r);
	ck_assert_double_eq_tol(r.advice[0].encode_seconds,
				(double)(c * 4096) / 4e9, 1e-12);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "bench_fec"};

	return run_unit(&u, UNIT_TESTS(advice, no_data, encode_time));
}
