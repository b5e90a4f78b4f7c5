/* What bench shows of a run (verity/bench/output.c) on made-up rows:
 * the table's lines, CSV's quoting, the --json document's numbers
 * written with the digits they mean and null where nothing was
 * measured, and a report without a machine refused. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "verity/bench/output.h"

/* Every item's text and key, one line each, into a buffer. */
struct seen {
	char buf[16384];
	size_t len;
	int depth, max_depth;
};

static int keep(void *ctx, const struct fv_item *it)
{
	struct seen *s = ctx;
	size_t room = sizeof(s->buf) - s->len;
	int n;

	if (it->kind == FV_ITEM_OBJECT || it->kind == FV_ITEM_ARRAY)
		s->max_depth =
			++s->depth > s->max_depth ? s->depth : s->max_depth;
	if (it->kind == FV_ITEM_END)
		s->depth--;
	n = snprintf(s->buf + s->len, room, "%d %s=%s\n", (int)it->kind,
		     it->key ? it->key : "-", it->text ? it->text : "-");
	ck_assert(n > 0 && (size_t)n < room);
	s->len += (size_t)n;
	return 0;
}

/* An item's line as keep() writes it. */
static const char *item(enum fv_item_kind kind, const char *rest)
{
	static char line[128];

	snprintf(line, sizeof(line), "%d %s\n", (int)kind, rest);
	return line;
}

static const struct verity_bench_row rows[] = {
	{.kind = VERITY_BENCH_MACHINE,
	 .name = "Test CPU",
	 .cpus = 2,
	 .threads = 2,
	 .cpu_flags = "sha_ni",
	 .sha256_kernel = "SHA-NI",
	 .data_bytes = 1 << 20},
	{.kind = VERITY_BENCH_HASHING,
	 .flags = BENCH_FAST_PATH,
	 .name = "SHA-256 SHA-NI",
	 .note = "the fast path",
	 .rate = {1234.5, 1200, 1250},
	 .all = {-1, 0, 0},
	 .ratio = 1},
	{.kind = VERITY_BENCH_HASHING,
	 .flags = BENCH_REFERENCE,
	 .name = "OpenSSL EVP",
	 .note = "a \"quoted\" note",
	 .rate = {-1, 0, 0},
	 .all = {-1, 0, 0},
	 .ratio = -1},
	{.kind = VERITY_BENCH_TREE,
	 .flags = BENCH_RECOMMENDED | BENCH_DEFAULT_KEPT,
	 .name = "sha256",
	 .note = "",
	 .rate = {1000, 990, 1010},
	 .salt_size = 32,
	 .data_block_size = 4096,
	 .hash_block_size = 4096,
	 .format = 1,
	 .valid = 1,
	 .path = "fast",
	 .path_reason = "sha256, format 1",
	 .levels = 2,
	 .runs = 5,
	 .tree_bytes = 4 * 4096,
	 .data_bytes = 1 << 20},
};

static int shown(enum verity_bench_output how, struct seen *s)
{
	struct show sh = {keep, s, how == VERITY_BENCH_JSON, 0};

	memset(s, 0, sizeof(*s));
	return verity_bench_output(rows, sizeof(rows) / sizeof(rows[0]), how,
				   &sh);
}

START_TEST(the_table_and_csv_are_text)
{
	struct seen s;

	ck_assert_int_eq(shown(VERITY_BENCH_TABLE, &s), 0);
	ck_assert_ptr_nonnull(
		strstr(s.buf, "fastverity bench: Test CPU, 2 CPUs (sha_ni), "
			      "2 threads, 1.0 MiB of synthetic data"));
	ck_assert_ptr_nonnull(strstr(s.buf, "not measured: a \"quoted\""));
	ck_assert_ptr_nonnull(strstr(s.buf, "Recommended here: sha256, a "
					    "32-byte salt, 4096/4096-byte "
					    "blocks, format 1 (fast path"));
	ck_assert_int_eq(shown(VERITY_BENCH_CSV, &s), 0);
	/* a note's quotes doubled */
	ck_assert_ptr_nonnull(strstr(s.buf, "\"a \"\"quoted\"\" note\""));
	ck_assert_ptr_nonnull(
		strstr(s.buf, "tree,,sha256,32,4096,4096,1,1000,fast,2,16384,"
			      "1.562,\"\""));
}
END_TEST

START_TEST(the_document_is_balanced_with_its_digits)
{
	struct seen s;

	ck_assert_int_eq(shown(VERITY_BENCH_JSON, &s), 0);
	ck_assert_int_eq(s.depth, 0);
	ck_assert_int_eq(s.max_depth, 3);
	/* a rate with two decimals; not measured: null */
	ck_assert_ptr_nonnull(
		strstr(s.buf, item(FV_ITEM_NUMBER, "mb_per_s=1234.50")));
	ck_assert_ptr_nonnull(strstr(s.buf, item(FV_ITEM_NULL, "ratio=-")));
	ck_assert_ptr_nonnull(
		strstr(s.buf, item(FV_ITEM_NUMBER, "overhead_percent=1.562")));
	ck_assert_ptr_nonnull(strstr(s.buf, item(FV_ITEM_STRING, "path=fast")));
}
END_TEST

START_TEST(no_machine_no_report)
{
	struct seen s = {0};
	struct show sh = {keep, &s, 0, 0};

	ck_assert_int_eq(
		verity_bench_output(rows + 1, 1, VERITY_BENCH_TABLE, &sh),
		-EINVAL);
	ck_assert_uint_eq(s.len, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "bench_output"};

	return run_unit(&u, UNIT_TESTS(the_table_and_csv_are_text,
				       the_document_is_balanced_with_its_digits,
				       no_machine_no_report));
}
