/* bench's conclusions on synthetic figures (cli/bench_rank.c): a lead
 * inside the noise (overlapping spreads) is no recommendation, and a
 * kernel that cpuid prefers measuring slower is noise, not a ranking. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "cli/bench_rank.c"

static struct bench_setting setting(const char *hash, uint32_t salt,
				    double median, double lo, double hi)
{
	struct bench_setting s;

	memset(&s, 0, sizeof(s));
	strcpy(s.hash, hash);
	s.salt_size = salt;
	s.data_block_size = s.hash_block_size = 4096;
	s.format = 1;
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
	const struct bench_setting *r = bench_recommend(s, 3, &measurable);

	ck_assert_ptr_eq(r, &s[1]);
	ck_assert_int_eq(measurable, 0);
	ck_assert_int_eq(bench_spreads_overlap(792, 1433, 684, 1410), 1);
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
	const struct bench_setting *r = bench_recommend(s, 3, &measurable);

	ck_assert_ptr_eq(r, &s[1]);
	ck_assert_int_eq(measurable, 1);
	ck_assert_int_eq(bench_spreads_overlap(1450, 1550, 980, 1020), 0);
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
	const struct bench_setting *r = bench_recommend(s, 2, &measurable);

	ck_assert_ptr_eq(r, &s[0]);
	ck_assert_int_eq(measurable, 0);
	ck_assert_int_eq(bench_spreads_overlap(4757, 4757, 4659, 4659), 1);
	/* one side measured in rounds, the other once: still unknown */
	ck_assert_int_eq(bench_spreads_overlap(4700, 4800, 4000, 4000), 1);
}
END_TEST

START_TEST(a_preferred_kernel_measured_slower_is_noise)
{
	struct bench_impl k[3];
	const struct bench_impl *pref;

	memset(k, 0, sizeof(k));
	k[0] = (struct bench_impl){.name = "SHA-256 SHA-NI three-way",
				   .note = "fastverity's fast path",
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
	ck_assert_ptr_eq(bench_noisy_kernel(k, 3, &pref), &k[1]);
	ck_assert_ptr_eq(pref, &k[0]);
	/* measured as expected: no noise to report */
	k[0].mb_per_s = 2600;
	ck_assert_ptr_null(bench_noisy_kernel(k, 3, &pref));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "bench"};

	return run_unit(
		&u, UNIT_TESTS(a_lead_inside_the_noise_keeps_the_default,
			       a_measurable_lead_is_recommended,
			       one_round_is_no_measurable_lead,
			       a_preferred_kernel_measured_slower_is_noise));
}
