/* verity/ops/parse.c: fastverity's option values read as its actions
 * read them, each refusal naming the option; the tree's parameters in
 * one order; --changed's ranges, given or from a file. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/ops/parse.h"
#include "verity/show/pair.h"

#define SAYS(call, words)                                              \
	do {                                                           \
		ck_assert_int_eq((call), -EINVAL);                     \
		ck_assert_msg(strstr(ht_msg(&err), (words)), "%s: %s", \
			      (words), ht_msg(&err));                  \
	} while (0)

START_TEST(numbers)
{
	struct ht_error err;
	uint64_t v;

	ck_assert_int_eq(verity_ops_number("hash-offset", "4096", &v, &err), 0);
	ck_assert_uint_eq(v, 4096);
	SAYS(verity_ops_number("hash-offset", "100", &v, &err),
	     "--hash-offset: 100 is not a multiple of 512");
	SAYS(verity_ops_number("fec-roots", "25", &v, &err),
	     "--fec-roots: 25 is not supported (2 to 24)");
	SAYS(verity_ops_number("threads", "0", &v, &err),
	     "--threads: at least 1");
	SAYS(verity_ops_number("threads", "257", &v, &err),
	     "--threads: 257 is too large (at most 256)");
	SAYS(verity_ops_number("max-failures", "-1", &v, &err),
	     "--max-failures: '-1' is not a number");
	SAYS(verity_ops_number("fec-offset", "", &v, &err),
	     "--fec-offset: empty value");
	ck_assert_int_eq(verity_ops_number("size", "2k", &v, &err), 0);
	ck_assert_uint_eq(v, 2048);
	ck_assert_int_eq(verity_ops_number("size", "3T", &v, &err), 0);
	ck_assert_uint_eq(v, 3ull << 40);
	SAYS(verity_ops_number("size", "1x", &v, &err),
	     "--size: '1x' is not a number");
	SAYS(verity_ops_number("data-block-size", "1000", &v, &err),
	     "unsupported VERITY block size 1000");
	SAYS(verity_ops_number("format", "2", &v, &err),
	     "--format: unsupported hash type 2 (0 or 1)");
}
END_TEST

START_TEST(params)
{
	const char *opts[][2] = {
		{"salt", "00FF"},
		{"format", "0"},
		{"data-block-size", "1024"},
		{"uuid", "12345678-1234-1234-1234-123456789ABC"},
		{"hash", NULL},
		{"no-superblock", "1"}};
	struct ht_error err;
	fv_params p;

	ck_assert_int_eq(verity_show_params_init(&p, &err), 0);
	p.size = sizeof(p);
	ck_assert_int_eq(verity_ops_params_parse(&p, opts[0], 6, &err), 0);
	ck_assert_uint_eq(p.salt_len, 2);
	ck_assert_uint_eq(p.salt[1], 0xff);
	ck_assert_uint_eq(p.hash_type, 0);
	ck_assert_uint_eq(p.data_block_size, 1024);
	ck_assert_str_eq(p.uuid, "12345678-1234-1234-1234-123456789abc");
	ck_assert_str_eq(p.hash, "sha256");
	ck_assert_int_eq(p.superblock, 0);
	/* "-": no salt */
	opts[0][1] = "-";
	ck_assert_int_eq(verity_ops_params_parse(&p, opts[0], 1, &err), 0);
	ck_assert_uint_eq(p.salt_len, 0);
	opts[0][1] = "abc";
	SAYS(verity_ops_params_parse(&p, opts[0], 1, &err),
	     "--salt: 'abc' is not an even number of hex digits");
	/* the first refusal in the one order: the hash before the uuid */
	opts[3][1] = "x";
	opts[4][1] = "nosuch";
	SAYS(verity_ops_params_parse(&p, opts[3], 2, &err),
	     "hash algorithm nosuch not supported");
	SAYS(verity_ops_params_parse(&p, opts[3], 1, &err),
	     "--uuid: 'x' is not a UUID");
}
END_TEST

START_TEST(ranges)
{
	char path[] = "/tmp/fv-ranges-XXXXXX";
	struct ht_error err;
	uint64_t *r;
	size_t n;
	int fd;

	ck_assert_int_eq(verity_ops_ranges("0:4096,8192:1", &r, &n, &err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(r[2], 8192);
	free(r);
	SAYS(verity_ops_ranges("1:2,x", &r, &n, &err),
	     "--changed: 'x' is not OFFSET:LENGTH");
	ck_assert_ptr_null(r);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "0x10:1\n5:5\n", 11), 11);
	close(fd);

	{
		char at[sizeof(path) + 1] = "@";

		strcat(at, path);
		ck_assert_int_eq(verity_ops_ranges(at, &r, &n, &err), 0);
		ck_assert_uint_eq(n, 2);
		ck_assert_uint_eq(r[0], 16);
		ck_assert_uint_eq(r[3], 5);
		free(r);
		unlink(path);
		ck_assert_int_eq(verity_ops_ranges(at, &r, &n, &err), -EINVAL);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"parse", 0, NULL, NULL, 0, NULL};

	return run_unit(&u, UNIT_TESTS(numbers, params, ranges));
}
