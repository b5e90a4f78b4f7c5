/* verity/bench/hashing.c, what is not timing: the rows it makes (their
 * names and notes, the reference and the fast path flagged, a row off
 * this CPU said why), each measured row's order (slowest <= median <=
 * fastest) and ratio to the best (the best's 1), the all-threads rates
 * only of the library's kernels and only with threads, and rows added
 * after those already there. Budgets of a millisecond: each round
 * runs one pass at least, whatever the machine. (Each call measures the
 * clock too, about a tenth of a second: two calls.) */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "verity/bench/bench.h"

#define TINY 0.001

static int is_kernel_row(const struct bench_impl *r)
{
	return !strncmp(r->name, "SHA-256 ", 8);
}

static const struct bench_impl *row(const struct bench_report *rep,
				    const char *name)
{
	for (size_t i = 0; i < rep->nimpls; i++)
		if (!strcmp(rep->impls[i].name, name))
			return &rep->impls[i];
	return NULL;
}

/* What holds of every row, however fast the machine */
static void rows_hold(const struct bench_report *rep)
{
	double best = 0;
	int best_seen = 0;

	ck_assert_uint_le(rep->nimpls, BENCH_IMPLS);
	for (size_t i = 0; i < rep->nimpls; i++)
		if (rep->impls[i].mb_per_s > best)
			best = rep->impls[i].mb_per_s;
	ck_assert(best > 0);
	for (size_t i = 0; i < rep->nimpls; i++) {
		const struct bench_impl *r = &rep->impls[i];

		ck_assert_ptr_nonnull(r->name);
		ck_assert_ptr_nonnull(r->note);
		if (r->mb_per_s < 0) {
			/* not measured: said why, no ratio */
			ck_assert_msg(*r->why, "%s: no reason", r->name);
			ck_assert(r->ratio < 0);
			ck_assert(r->all_mb_per_s < 0);
			continue;
		}
		ck_assert_str_eq(r->why, "");
		ck_assert(r->lo <= r->mb_per_s && r->mb_per_s <= r->hi);
		ck_assert(r->ratio > 0 && r->ratio <= 1);
		best_seen |= r->ratio == 1;
		if (!is_kernel_row(r))
			ck_assert(r->all_mb_per_s < 0);
		if (r->all_mb_per_s >= 0)
			ck_assert(r->all_lo <= r->all_mb_per_s &&
				  r->all_mb_per_s <= r->all_hi);
	}
	ck_assert(best_seen);
}

START_TEST(rows_one_thread)
{
	static struct bench_report rep;
	const struct bench_impl *r;
	int fast = 0;

	memset(&rep, 0, sizeof(rep));
	rep.threads = 1;
	verity_bench_hashing(&rep, SHA256_CHOOSE_FASTEST, TINY);
	rows_hold(&rep);
	ck_assert(rep.clock_mhz >= 0);
	/* the ways every machine has */
	ck_assert_ptr_nonnull(r = row(&rep, "SHA-256 portable C"));
	ck_assert_str_eq(r->note, "fastverity without them");
	ck_assert(r->mb_per_s > 0);
	ck_assert_ptr_nonnull(r = row(&rep, "OpenSSL EVP, new context per "
					    "block"));
	ck_assert_str_eq(r->note, "how veritysetup hashes");
	ck_assert_uint_eq(r->flags, BENCH_REFERENCE);
	ck_assert_ptr_nonnull(r = row(&rep, "OpenSSL EVP, pre-salted context "
					    "copied"));
	ck_assert_str_eq(r->note, "fastverity's generic path");
	ck_assert_ptr_nonnull(row(&rep, "Kernel crypto API (AF_ALG)"));
	/* one thread: no all-threads rate */
	for (size_t i = 0; i < rep.nimpls; i++) {
		ck_assert(rep.impls[i].all_mb_per_s < 0);
		if (rep.impls[i].flags & BENCH_FAST_PATH) {
			fast++;
			ck_assert_str_eq(rep.impls[i].note,
					 "fastverity's fast path");
			ck_assert(is_kernel_row(&rep.impls[i]));
		}
	}
	/* the fast path is one row, unless this CPU has no kernel */
	ck_assert_int_eq(fast, ht_sha256_kernel_choose(SHA256_CHOOSE_FASTEST) !=
				       SHA256_KERNEL_PORTABLE);
}
END_TEST

/* the portable kernel chosen, two threads: no row is the fast path, the
 * library's kernels measured on both threads too; rows are added after
 * those already there, which are left as they were */
START_TEST(rows_portable_two_threads)
{
	static struct bench_report rep;
	const struct bench_impl *r;

	memset(&rep, 0, sizeof(rep));
	rep.threads = 2;
	for (int i = 0; i < 2; i++) {
		rep.impls[i].name = "kept";
		rep.impls[i].note = "";
		rep.impls[i].mb_per_s = rep.impls[i].all_mb_per_s = -1;
		strcpy(rep.impls[i].why, "not measured here");
	}
	rep.nimpls = 2;
	verity_bench_hashing(&rep, SHA256_CHOOSE_PORTABLE, TINY);
	rows_hold(&rep);
	ck_assert_uint_ge(rep.nimpls, 2 + 6);
	for (int i = 0; i < 2; i++) {
		ck_assert_str_eq(rep.impls[i].name, "kept");
		ck_assert_str_eq(rep.impls[i].why, "not measured here");
	}
	ck_assert_str_ne(rep.impls[2].name, "kept");
	for (size_t i = 0; i < rep.nimpls; i++)
		ck_assert_uint_eq(rep.impls[i].flags & BENCH_FAST_PATH, 0);
	ck_assert_ptr_nonnull(r = row(&rep, "SHA-256 portable C"));
	ck_assert(r->all_mb_per_s > 0);
	for (size_t i = 2; i < rep.nimpls; i++)
		if (is_kernel_row(&rep.impls[i]) && rep.impls[i].mb_per_s > 0)
			ck_assert_msg(rep.impls[i].all_mb_per_s > 0, "%s",
				      rep.impls[i].name);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		"bench_hashing", 0, NULL, NULL, 0, NULL};

	return run_unit(&u,
			UNIT_TESTS(rows_one_thread, rows_portable_two_threads));
}
