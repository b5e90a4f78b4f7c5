/* verity/bench/request.c: fv_bench_run's request read: each list of 1 to
 * 16 items (none, NULL, 17 refused), the time budget (more than 0, at
 * most a day; NaN refused), the output, and every combination made a
 * setting checked as fv_params_check checks it, a bad one named with
 * its hash, salt, block sizes and format; all before anything runs. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "verity/bench/request.h"

static const char *const hashes[] = {"sha256", "sha1"};
static const unsigned formats[] = {1, 0};
static const uint32_t sizes[] = {4096, 512};
static const uint32_t salts[] = {0, 32};

static int never(void *ctx, const struct fv_item *it)
{
	(void)ctx;
	(void)it;
	ck_abort_msg("an item was shown for a refused request");
	return 0;
}

static struct fv_bench_request good(void)
{
	struct fv_bench_request q;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.hashes = hashes;
	q.nhashes = 2;
	q.formats = formats;
	q.nformats = 2;
	q.data_block_sizes = sizes;
	q.ndata_block_sizes = 2;
	q.hash_block_sizes = sizes;
	q.nhash_block_sizes = 2;
	q.salt_sizes = salts;
	q.nsalt_sizes = 2;
	q.seconds = 1;
	q.output = FV_BENCH_TABLE;
	return q;
}

/* q refused with EINVAL and a message holding want. */
static void refused(const struct fv_bench_request *q, const char *want)
{
	struct show sh = {never, NULL, 0, 0};
	struct ht_error err = {0};

	ck_assert_int_eq(verity_bench_request(q, 1, 0, &sh, &err), -EINVAL);
	ck_assert_msg(strstr(ht_msg(&err), want), "'%s' lacks '%s'",
		      ht_msg(&err), want);
}

START_TEST(lists)
{
	static const char *const many[17] = {"sha256"};
	struct fv_bench_request q = good();

	q.nhashes = 0;
	refused(&q, "fv_bench_run: 0 hashes (1 to 16)");
	q = good();
	q.hashes = NULL;
	refused(&q, "fv_bench_run: 2 hashes (1 to 16)");
	q = good();
	q.hashes = many;
	q.nhashes = 17;
	refused(&q, "fv_bench_run: 17 hashes (1 to 16)");
	q = good();
	q.formats = NULL;
	refused(&q, "2 formats (1 to 16)");
	q = good();
	q.ndata_block_sizes = 0;
	refused(&q, "0 data block sizes (1 to 16)");
	q = good();
	q.nhash_block_sizes = 17;
	refused(&q, "17 hash block sizes (1 to 16)");
	q = good();
	q.salt_sizes = NULL;
	refused(&q, "2 salt sizes (1 to 16)");
}
END_TEST

START_TEST(budget_output)
{
	struct fv_bench_request q = good();

	q.seconds = 0;
	refused(&q, "fv_bench_run: 0 seconds (more than 0, at most a day)");
	q.seconds = -1;
	refused(&q, "-1 seconds");
	q.seconds = 86400.5;
	refused(&q, "86400.5 seconds");
	q.seconds = NAN;
	refused(&q, "nan seconds");
	q.seconds = INFINITY;
	refused(&q, "inf seconds");
	q = good();
	q.output = (enum fv_bench_output)3;
	refused(&q, "fv_bench_run: no output 3");
	q.output = (enum fv_bench_output) - 1;
	refused(&q, "fv_bench_run: no output 4294967295");
}
END_TEST

/* A bad combination anywhere in the lists is named as a setting. */
START_TEST(settings)
{
	static const char *const with_null[] = {"sha256", NULL};
	static const char *const unknown[] = {"sha256", "no-such-hash"};
	static const char *const long_name[] = {
		"sha256", "a-hash-name-of-thirty-two-bytes!"};
	static const unsigned bad_format[] = {1, 2};
	static const uint32_t bad_size[] = {4096, 1000};
	static const uint32_t big_salt[] = {0, 257};
	struct fv_bench_request q = good();

	q.hashes = with_null;
	refused(&q, "fv_bench_run: hash 1 is NULL");
	q.hashes = unknown;
	refused(&q, "no-such-hash, 0-byte salt, 4096/4096-byte blocks, "
		    "format 1: ");
	q.hashes = long_name;
	refused(&q, "hash algorithm a-hash-name-of-thirty-two-bytes! not "
		    "supported");
	q = good();
	q.formats = bad_format;
	refused(&q, "sha256, 0-byte salt, 4096/4096-byte blocks, format 2: ");
	q = good();
	q.data_block_sizes = bad_size;
	refused(&q, "sha256, 0-byte salt, 1000/4096-byte blocks, format 1: ");
	q = good();
	q.hash_block_sizes = bad_size;
	refused(&q, "sha256, 0-byte salt, 4096/1000-byte blocks, format 1: ");
	q = good();
	q.salt_sizes = big_salt;
	refused(&q, "sha256, 257-byte salt, 4096/4096-byte blocks, format 1: "
		    "salt of 257 bytes is too long (at most 256)");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "bench_request"};

	return run_unit(&u, UNIT_TESTS(lists, budget_output, settings));
}
