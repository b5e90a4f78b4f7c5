/* bench's conclusions (verity/bench/rank.c) on synthetic figures: a
 * lead inside the noise (overlapping spreads) is no recommendation, and
 * a kernel that cpuid prefers measuring slower is noise, not a ranking.
 * (That what bench measures computes what the library computes:
 * OpenSSL's two ways the kernels' digests, hashtree/test_hasher;
 * libfec's encoder ISA-L's parity, fec/test_rs; a tree in memory
 * format's root, tree/test_memtree.) */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "verity/bench/bench.h"

static struct bench_setting setting(const char *hash, uint32_t salt,
				    double median, double lo, double hi)
{
	struct bench_setting s;

	memset(&s, 0, sizeof(s));
	strcpy(s.p.hash_name, hash);
	s.p.salt_size = salt;
	s.p.data_block_size = s.p.hash_block_size = 4096;
	s.p.hash_type = 1;
	s.valid = 1;
	s.mb_per_s = median;
	s.lo = lo;
	s.hi = hi;
	return s;
}

START_TEST(a_lead_inside_the_noise_keeps_the_default)
{
	/* the busy machine's figures: 64 bytes 7.2% faster, spreads
	 * 792-1433 against 684-1410 */
	struct bench_setting s[3] = {
		setting("sha256", 0, 1100, 700, 1400),
		setting("sha256", 32, 1120, 684, 1410),
		setting("sha256", 64, 1200, 792, 1433),
	};
	int measurable;
	const struct bench_setting *r =
		verity_bench_recommend(s, 3, &measurable);

	ck_assert_ptr_eq(r, &s[1]);
	ck_assert_int_eq(measurable, 0);
	ck_assert_int_eq(verity_bench_spreads_overlap(792, 1433, 684, 1410), 1);
}
END_TEST

START_TEST(a_measurable_lead_is_recommended)
{
	struct bench_setting s[3] = {
		setting("sha256", 32, 1000, 980, 1020),
		setting("sha512", 32, 1500, 1450, 1550),
		setting("sha1", 32, 3000, 2900, 3100), /* not safe */
	};
	int measurable;
	const struct bench_setting *r =
		verity_bench_recommend(s, 3, &measurable);

	ck_assert_ptr_eq(r, &s[1]);
	ck_assert_int_eq(measurable, 1);
	ck_assert_int_eq(verity_bench_spreads_overlap(1450, 1550, 980, 1020),
			 0);
}
END_TEST

/* --device on a large device measures each setting once: one round says
 * nothing of the noise, and a 2% lead of a 256-byte salt (seen on a
 * 256 MiB image) is no reason to leave the default. */
START_TEST(one_round_is_no_measurable_lead)
{
	struct bench_setting s[2] = {
		setting("sha256", 32, 4659, 4659, 4659),
		setting("sha256", 256, 4757, 4757, 4757),
	};
	int measurable;
	const struct bench_setting *r =
		verity_bench_recommend(s, 2, &measurable);

	ck_assert_ptr_eq(r, &s[0]);
	ck_assert_int_eq(measurable, 0);
	ck_assert_int_eq(verity_bench_spreads_overlap(4757, 4757, 4659, 4659),
			 1);
	/* one side measured in rounds, the other once: still unknown */
	ck_assert_int_eq(verity_bench_spreads_overlap(4700, 4800, 4000, 4000),
			 1);
}
END_TEST

START_TEST(a_preferred_kernel_measured_slower_is_noise)
{
	struct bench_impl k[3];
	const struct bench_impl *pref;

	memset(k, 0, sizeof(k));
	k[0] = (struct bench_impl){.name = "SHA-256 SHA-NI three-way",
				   .note = "fastverity's fast path",
				   .flags = BENCH_FAST_PATH,
				   .mb_per_s = 1000,
				   .lo = 600,
				   .hi = 1900};
	k[1] = (struct bench_impl){.name = "SHA-256 SHA-NI two-way",
				   .note = "",
				   .mb_per_s = 2000,
				   .lo = 1900,
				   .hi = 2100};
	k[2] = (struct bench_impl){.name = "SHA-256 portable C",
				   .note = "fastverity without them",
				   .mb_per_s = 300,
				   .lo = 290,
				   .hi = 310};
	ck_assert_ptr_eq(verity_bench_noisy_kernel(k, 3, &pref), &k[1]);
	ck_assert_ptr_eq(pref, &k[0]);
	/* measured as expected: no noise to report */
	k[0].mb_per_s = 2600;
	ck_assert_ptr_null(verity_bench_noisy_kernel(k, 3, &pref));
}
END_TEST

/* The conclusions as flags on the rows fv_bench_run delivers: the
 * noisy kernel, the setting recommended, and those within its noise. */
START_TEST(the_conclusions_are_flags)
{
	struct bench_setting s[3] = {
		setting("sha256", 32, 1000, 980, 1020),
		setting("sha512", 32, 1500, 1450, 1550),
		setting("sha256", 64, 1490, 1400, 1520),
	};
	struct bench_report rep;

	memset(&rep, 0, sizeof(rep));
	rep.impls[0] = (struct bench_impl){.name = "SHA-256 SHA-NI two-way",
					   .flags = BENCH_FAST_PATH,
					   .mb_per_s = 1000};
	rep.impls[1] = (struct bench_impl){.name = "SHA-256 SHA-NI one-way",
					   .mb_per_s = 1200};
	rep.nimpls = 2;
	rep.settings = s;
	rep.nsettings = 3;
	verity_bench_conclude(&rep);
	ck_assert_uint_eq(rep.impls[0].flags, BENCH_FAST_PATH);
	ck_assert_uint_eq(rep.impls[1].flags, BENCH_NOISE);
	ck_assert_uint_eq(s[0].flags, 0);
	ck_assert_uint_eq(s[1].flags, BENCH_RECOMMENDED);
	/* a 64-byte salt measurably faster than 32 bytes: no SALT_SAME */
	ck_assert_uint_eq(s[2].flags, BENCH_NO_DIFFERENCE);
	/* the lead inside the noise: the default kept, and said */
	s[1].lo = 900;
	s[0].flags = s[1].flags = s[2].flags = 0;
	verity_bench_conclude(&rep);
	ck_assert_uint_eq(s[0].flags, BENCH_RECOMMENDED | BENCH_DEFAULT_KEPT);
}
END_TEST

/* A salt's cost is said only beyond the noise of the smallest salt of
 * the same hash, blocks and format; other settings are not compared. */
START_TEST(a_salt_inside_the_noise_costs_nothing)
{
	struct bench_setting s[4] = {
		setting("sha256", 64, 990, 900, 1030),
		setting("sha256", 0, 1000, 950, 1050),
		setting("sha256", 256, 800, 780, 820),
		setting("sha512", 32, 1000, 950, 1050),
	};
	struct bench_report rep;

	memset(&rep, 0, sizeof(rep));
	rep.settings = s;
	rep.nsettings = 4;
	verity_bench_conclude(&rep);
	ck_assert(s[0].flags & BENCH_SALT_SAME);
	ck_assert(!(s[1].flags & BENCH_SALT_SAME)); /* the base itself */
	ck_assert(!(s[2].flags & BENCH_SALT_SAME)); /* beyond the noise */
	ck_assert(!(s[3].flags & BENCH_SALT_SAME)); /* alone in its group */
	/* one round has no spread: no cost measurable */
	s[2].lo = s[2].hi = 800;
	s[2].flags = 0;
	verity_bench_conclude(&rep);
	ck_assert(s[2].flags & BENCH_SALT_SAME);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "bench"};

	return run_unit(&u,
			UNIT_TESTS(a_lead_inside_the_noise_keeps_the_default,
				   a_measurable_lead_is_recommended,
				   one_round_is_no_measurable_lead,
				   a_preferred_kernel_measured_slower_is_noise,
				   the_conclusions_are_flags,
				   a_salt_inside_the_noise_costs_nothing));
}
