/* verity/api/measure.c through <fastverity.h> alone (as a program sees
 * it): bench's run and its report as items. */
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

/* What the bench report's items hold (its --json document). */
struct bench_seen {
	size_t n, depth, impls, fec, advice, trees, text;
	char array[32];
	uint64_t tree_bytes, size, threads, levels, runs;
	unsigned recommended;
	char path[16], kernel[64];
};

static int bench_items_seen(void *ctx, const struct fv_item *it)
{
	struct bench_seen *seen = ctx;

	seen->n++;
	if (it->kind == FV_ITEM_TEXT) {
		seen->text += strlen(it->text);
		return 0;
	}
	ck_assert_int_ne(it->kind, FV_ITEM_WARNING);
	if (it->kind == FV_ITEM_END) {
		ck_assert_uint_gt(seen->depth, 0);
		seen->depth--;
		return 0;
	}
	/* the report's arrays: one object per row */
	if (it->kind == FV_ITEM_ARRAY && seen->depth == 1)
		snprintf(seen->array, sizeof(seen->array), "%s", it->key);
	if (it->kind == FV_ITEM_OBJECT && seen->depth == 2) {
		seen->impls += !strcmp(seen->array, "implementations");
		seen->fec += !strcmp(seen->array, "fec");
		seen->advice += !strcmp(seen->array, "fec_advice");
		seen->trees += !strcmp(seen->array, "settings");
	}
	if (it->kind == FV_ITEM_OBJECT || it->kind == FV_ITEM_ARRAY) {
		seen->depth++;
		return 0;
	}
	if (it->kind == FV_ITEM_STRING && seen->depth == 2 &&
	    !strcmp(seen->array, "summary"))
		seen->recommended += !strncmp(it->text, "Recommended here: ",
					      strlen("Recommended here: "));
	if (!it->key)
		return 0;
	if (seen->depth == 1 && !strcmp(it->key, "size"))
		seen->size = it->u;
	if (seen->depth == 2 && !strcmp(it->key, "threads"))
		seen->threads = it->u;
	if (seen->depth == 2 && !strcmp(it->key, "sha256_kernel"))
		snprintf(seen->kernel, sizeof(seen->kernel), "%s", it->text);
	if (seen->depth == 3 && !strcmp(seen->array, "settings")) {
		if (!strcmp(it->key, "path"))
			snprintf(seen->path, sizeof(seen->path), "%s",
				 it->text);
		if (!strcmp(it->key, "levels"))
			seen->levels = it->u;
		if (!strcmp(it->key, "tree_bytes"))
			seen->tree_bytes = it->u;
		if (!strcmp(it->key, "runs"))
			seen->runs = it->u;
		if (!strcmp(it->key, "mb_per_s"))
			ck_assert(it->kind == FV_ITEM_NUMBER && it->d > 0);
	}
	return 0;
}

/* A visitor that stops the run's report at its first item. */
static int stop_at_first(void *ctx, const struct fv_item *it)
{
	(void)it;
	++*(int *)ctx;
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
		.output = FV_BENCH_JSON,
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
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen), 0);
	ck_assert_uint_eq(seen.depth, 0);
	ck_assert_uint_eq(seen.threads, 2);
	ck_assert_uint_eq(seen.size, (uint64_t)BLOCKS * BS);
	ck_assert_uint_ge(seen.impls, 6);
	ck_assert_uint_eq(seen.fec, 10);
	ck_assert_uint_eq(seen.advice, 5);
	ck_assert_uint_eq(seen.trees, 1);
	ck_assert_str_eq(seen.path, "fast");
	ck_assert_uint_eq(seen.levels, 2);
	/* a device: one build a round, as many rounds as fit 0.2 s (one
	 * alone under qemu on arm64) */
	ck_assert_uint_ge(seen.runs, 1);
	/* 300 blocks: 3 hash blocks of level 0, 1 of level 1 */
	ck_assert_uint_eq(seen.tree_bytes, 4 * BS);
	ck_assert_uint_eq(seen.recommended, 1);
	ck_assert_str_eq(seen.kernel, kernel_name(FV_SHA256_FASTEST));
	/* the table and CSV: text, no document */
	for (int how = FV_BENCH_TABLE; how <= FV_BENCH_CSV; how += 2) {
		memset(&seen, 0, sizeof(seen));
		req.output = (enum fv_bench_output)how;
		ck_assert_int_eq(
			fv_bench_run(&req, two, bench_items_seen, &seen), 0);
		ck_assert_uint_eq(seen.n, 1);
		ck_assert_uint_gt(seen.text, 100);
	}
	/* fn's return is the run's, and nothing comes after it */
	{
		int calls = 0;

		ck_assert_int_eq(fv_bench_run(&req, two, stop_at_first, &calls),
				 7);
		ck_assert_int_eq(calls, 1);
	}
	req.output = (enum fv_bench_output)3;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -EINVAL);
	req.output = FV_BENCH_JSON;
	/* a setting that cannot make a tree: refused before anything is
	 * measured, named */
	req.salt_sizes = salts;
	req.nsalt_sizes = 2;
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_uint_eq(seen.n, 0);
	ck_assert_str_eq(fv_last_error(),
			 "sha256, 300-byte salt, 4096/4096-byte blocks, format "
			 "1: salt of 300 bytes is too long (at most 256)");
	req.salt_sizes = &salt32;
	req.nsalt_sizes = 1;
	req.hashes = &nosuch;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nosuchhash"));
	req.hashes = &sha256;
	/* the request's own checks */
	req.device = "/nonexistent/d";
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -ENODEV);
	req.device = data;
	req.seconds = 0;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -EINVAL);
	req.seconds = 0.2;
	req.nformats = 17;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -EINVAL);
	req.nformats = 1;
	req.size = 8;
	ck_assert_int_eq(fv_bench_run(&req, two, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_int_eq(fv_bench_run(NULL, two, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_uint_eq(seen.n, 0);
}
END_TEST

/* bench's options as the command gives them: read as it reads them,
 * the first bad one named; a failure of the run after them "bench: ". */
START_TEST(bench_options)
{
	const char *opts[][2] = {{"hash", "sha256"}, {"salt-size", "0"},
				 {"size", "64K"},    {"time", "0.1"},
				 {"threads", "1"},   {"format", NULL}};
	struct fv_bench_request q = {.size = sizeof(q),
				     .output = FV_BENCH_CSV,
				     .options = opts[0],
				     .noptions = 6};
	struct bench_seen seen = {0};

	ck_assert_int_eq(fv_bench_run(&q, NULL, bench_items_seen, &seen), 0);
	ck_assert_uint_gt(seen.text, 0);
	opts[1][1] = "x";
	ck_assert_int_eq(fv_bench_run(&q, NULL, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_str_eq(fv_last_error(), "--salt-size: 'x' is not a number");
	opts[1][1] = "300";
	ck_assert_int_eq(fv_bench_run(&q, NULL, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "bench: sha256, 300"));
	opts[3][1] = "9999";
	ck_assert_int_eq(fv_bench_run(&q, NULL, bench_items_seen, &seen),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "--time: '9999'"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_measure",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(bench_run, bench_options));
}
