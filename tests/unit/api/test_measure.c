/* verity/api/measure.c through <fastverity.h> alone (as a program sees
 * it): bench's run and its rows. */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "include/fastverity.h"

#include "api_test.h"

/* What the bench rows hold. */
struct bench_seen {
	size_t n, kinds[6], trees;
	uint64_t tree_bytes;
	unsigned levels, recommended;
	char path[16], kernel[64];
};

static int bench_rows_seen(void *ctx, const struct fv_bench_row *rows, size_t n)
{
	struct bench_seen *seen = ctx;
	/* the caller's row size: struct fv_bench_row and 40 bytes more */
	const size_t stride = sizeof(*rows) + 40;

	enum fv_bench_kind prev = FV_BENCH_MACHINE;

	seen->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct fv_bench_row *r =
			(const void *)((const uint8_t *)rows + i * stride);

		ck_assert_int_ge(r->kind, FV_BENCH_MACHINE);
		ck_assert_int_le(r->kind, FV_BENCH_TREE);
		/* in the order of the report, the machine first */
		ck_assert(i ? r->kind != FV_BENCH_MACHINE
			    : r->kind == FV_BENCH_MACHINE);
		ck_assert_int_ge(r->kind, prev);
		prev = r->kind;
		seen->kinds[r->kind]++;
		if (r->kind == FV_BENCH_MACHINE) {
			ck_assert_uint_eq(r->threads, 2);
			ck_assert_uint_eq(r->data_bytes, (uint64_t)BLOCKS * BS);
			ck_assert_ptr_nonnull(r->cpu_flags);
			snprintf(seen->kernel, sizeof(seen->kernel), "%s",
				 r->sha256_kernel);
		}
		if (r->kind == FV_BENCH_HASHING && r->rate.median >= 0)
			ck_assert(r->rate.min <= r->rate.median &&
				  r->rate.median <= r->rate.max);
		if (r->kind == FV_BENCH_ROOTS)
			ck_assert_uint_eq(r->data_bytes, (uint64_t)BLOCKS * BS);
		if (r->kind == FV_BENCH_TREE) {
			ck_assert_str_eq(r->name, "sha256");
			ck_assert_uint_eq(r->salt_size, 32);
			ck_assert_int_eq(r->valid, 1);
			ck_assert_uint_ge(r->runs, FV_BENCH_ROUNDS);
			ck_assert(r->rate.median > 0);
			snprintf(seen->path, sizeof(seen->path), "%s", r->path);
			seen->levels = r->levels;
			seen->tree_bytes = r->tree_bytes;
			seen->recommended +=
				!!(r->flags & FV_BENCH_RECOMMENDED);
		}
	}
	return 7;
}

/* What bench measures, through the header: the rows of one short run
 * (a tree of the data measured as format builds it), the settings
 * checked before anything is timed, and the request's own checks. */
START_TEST(bench_run)
{
	const char *sha256 = "sha256", *nosuch = "nosuchhash";
	const unsigned format1 = 1;
	const uint32_t bs = BS, salt32 = 32, salts[] = {32, 300};
	struct fv_bench_request req = {
		.size = sizeof(req),
		.row_size = sizeof(struct fv_bench_row) + 40,
		.hashes = &sha256,
		.nhashes = 1,
		.formats = &format1,
		.nformats = 1,
		.data_block_sizes = &bs,
		.ndata_block_sizes = 1,
		.hash_block_sizes = &bs,
		.nhash_block_sizes = 1,
		.salt_sizes = &salt32,
		.nsalt_sizes = 1,
		.device = data,
		.seconds = 0.2,
	};
	struct bench_seen seen = {0};
	fv_options two_ = {.size = sizeof(two_)}, *two = &two_;

	two->threads = 2;
	/* fn's return is the run's */
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen), 7);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_MACHINE], 1);
	ck_assert_uint_ge(seen.kinds[FV_BENCH_HASHING], 6);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_FEC], 10);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_ROOTS], 5);
	ck_assert_uint_eq(seen.kinds[FV_BENCH_TREE], 1);
	ck_assert_str_eq(seen.path, "fast");
	ck_assert_uint_eq(seen.levels, 2);
	/* 300 blocks: 3 hash blocks of level 0, 1 of level 1 */
	ck_assert_uint_eq(seen.tree_bytes, 4 * BS);
	ck_assert_uint_eq(seen.recommended, 1);
	ck_assert_str_eq(seen.kernel, kernel_name(FV_SHA256_FASTEST));
	/* a setting that cannot make a tree: refused before anything is
	 * measured, named */
	req.salt_sizes = salts;
	req.nsalt_sizes = 2;
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_uint_eq(seen.n, 0);
	ck_assert_str_eq(fv_last_error(),
			 "sha256, 300-byte salt, 4096/4096-byte blocks, format "
			 "1: salt of 300 bytes is too long (at most 256)");
	req.salt_sizes = &salt32;
	req.nsalt_sizes = 1;
	req.hashes = &nosuch;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nosuchhash"));
	req.hashes = &sha256;
	/* the request's own checks */
	req.device = "/nonexistent/d";
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -ENODEV);
	req.device = data;
	req.seconds = 0;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	req.seconds = 0.2;
	req.nformats = 17;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	req.nformats = 1;
	req.row_size = 8;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_int_eq(fv_bench_run(NULL, two, bench_rows_seen, &seen),
			 -EINVAL);
	ck_assert_uint_eq(seen.n, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_measure",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(bench_run));
}
