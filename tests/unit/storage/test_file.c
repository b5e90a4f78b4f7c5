/* verity/storage/file.c: small input files read whole: the bytes with a
 * NUL after them, the limit (at it, one past it), an empty file, and what
 * is not a regular file (a directory, a FIFO, never waited on) or not
 * there refused with its errno, the outputs cleared. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/storage/file.h"

static char dir[64];

static char *written(const char *name, const void *bytes, size_t n)
{
	char *path = unit_path(dir, "/tmp/fv-file.XXXXXX", name);
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
	fclose(f);
	return path;
}

START_TEST(whole)
{
	static const uint8_t bytes[] = {'a', 0, 'b', 0xff, '\n'};
	char *path = written("five", bytes, sizeof(bytes));
	struct ht_error err = {0};
	uint8_t *out;
	size_t len;

	ck_assert_int_eq(
		verity_read_file(path, "root hash file", 5, &out, &len, &err),
		0);
	ck_assert_uint_eq(len, 5);
	ck_assert_mem_eq(out, bytes, 5);
	ck_assert_uint_eq(out[5], 0);
	free(out);
	/* one byte over the limit */
	out = (uint8_t *)1;
	len = 9;
	ck_assert_int_eq(
		verity_read_file(path, "root hash file", 4, &out, &len, &err),
		-EINVAL);
	ck_assert_ptr_null(out);
	ck_assert_uint_eq(len, 0);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(limit_said)
{
	char *path = written("big", "0123456789", 10);
	struct ht_error err = {0};
	uint8_t *out;
	size_t len;
	char want[256];

	ck_assert_int_eq(
		verity_read_file(path, "signature file", 9, &out, &len, &err),
		-EINVAL);
	snprintf(want, sizeof(want),
		 "%s: signature file of 10 bytes is too large (at most 9)",
		 path);
	ck_assert_str_eq(ht_msg(&err), want);
	unlink(path);
	free(path);
}
END_TEST

/* An empty file is "" (its one byte the NUL), never NULL. */
START_TEST(empty)
{
	char *path = written("empty", "", 0);
	struct ht_error err = {0};
	uint8_t *out = NULL;
	size_t len = 7;

	ck_assert_int_eq(verity_read_file(path, "key", 0, &out, &len, &err), 0);
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(out[0], 0);
	free(out);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(refused)
{
	char *missing = unit_path(dir, "/tmp/fv-file.XXXXXX", "missing");
	char *fifo = unit_path(dir, "/tmp/fv-file.XXXXXX", "fifo");
	struct ht_error err = {0};
	uint8_t *out = (uint8_t *)1;
	size_t len = 3;
	char want[256];

	ck_assert_int_eq(
		verity_read_file(missing, "certificate", 100, &out, &len, &err),
		-ENOENT);
	ck_assert_ptr_null(out);
	ck_assert_uint_eq(len, 0);
	snprintf(want, sizeof(want),
		 "%s: cannot read certificate: No such file or directory",
		 missing);
	ck_assert_str_eq(ht_msg(&err), want);
	/* a directory opens, and is refused as what it is */
	ck_assert_int_eq(verity_read_file(dir, "key", 100, &out, &len, &err),
			 -EINVAL);
	ck_assert_ptr_null(out);
	snprintf(want, sizeof(want), "%s: cannot read key: a directory", dir);
	ck_assert_str_eq(ht_msg(&err), want);
	/* a FIFO with no writer: opened without blocking, refused */
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(verity_read_file(fifo, "passphrase file", 100, &out,
					  &len, &err),
			 -EINVAL);
	ck_assert_ptr_null(out);
	snprintf(want, sizeof(want), "%s: cannot read passphrase file: a FIFO",
		 fifo);
	ck_assert_str_eq(ht_msg(&err), want);
	unlink(fifo);
	free(fifo);
	free(missing);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "file"};

	return run_unit(&u, UNIT_TESTS(whole, limit_said, empty, refused));
}
