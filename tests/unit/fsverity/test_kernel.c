/* verity/fsverity/kernel.c: fs-verity's ioctls on files made here: what
 * is not there (ENODEV), a directory, a FIFO (never waited on) refused
 * before any ioctl; parameters and metadata types checked first; and on
 * a file of this file system (which may lack the verity feature: the
 * answer is then said for fs-verity), measure and read refused with the
 * ioctl named, the outputs untouched, the visitor never called. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fsverity/kernel.h"

static char dir[64];

static int never(void *ctx, const void *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return -EPIPE;
}

START_TEST(not_files)
{
	char *fifo = unit_path(dir, "/tmp/fv-fsvk.XXXXXX", "fifo");
	struct fsv_params p = {FSV_SHA256, 4096, {0}, 0};
	struct ht_error err = {0};
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	unsigned alg = 77;
	size_t len = 77;
	char want[200];

	ck_assert_int_eq(
		verity_fsv_measure("/nonexistent/f", &alg, digest, &len, &err),
		-ENODEV);
	ck_assert_str_eq(ht_msg(&err), "/nonexistent/f: does not exist");
	ck_assert_uint_eq(alg, 77);
	ck_assert_int_eq(verity_fsv_enable("/nonexistent/f", &p, NULL, 0, &err),
			 -ENODEV);
	ck_assert_int_eq(verity_fsv_measure(dir, &alg, digest, &len, &err),
			 -EISDIR);
	snprintf(want, sizeof(want), "%s: is a directory, not a file", dir);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(
		verity_fsv_read_metadata(fifo, 1, 0, 0, never, NULL, &err),
		-EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", fifo);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_int_eq(verity_fsv_enable(fifo, &p, NULL, 0, &err), -EINVAL);
	unlink(fifo);
	free(fifo);
}
END_TEST

/* Checked before the file is opened: the parameters, the metadata type. */
START_TEST(checked_first)
{
	struct fsv_params p = {FSV_SHA256, 4096, {0}, 0};
	struct ht_error err = {0};

	p.block_size = 3000;
	ck_assert_int_eq(verity_fsv_enable("/nonexistent/f", &p, NULL, 0, &err),
			 -EINVAL);
	p.block_size = 4096;
	p.alg = (enum fsv_alg)9;
	ck_assert_int_eq(verity_fsv_enable("/nonexistent/f", &p, NULL, 0, &err),
			 -EINVAL);
	p.alg = FSV_SHA256;
	p.salt_size = FSV_MAX_SALT + 1;
	ck_assert_int_eq(verity_fsv_enable("/nonexistent/f", &p, NULL, 0, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_fsv_read_metadata("/nonexistent/f", 0, 0, 0,
						  never, NULL, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "metadata type 0: merkle_tree (1), "
				       "descriptor (2) or signature (3)");
	ck_assert_int_eq(verity_fsv_read_metadata("/nonexistent/f", 4, 0, 0,
						  never, NULL, &err),
			 -EINVAL);
}
END_TEST

/* A file that is not a verity file (or a file system without it): the
 * ioctl's refusal, named, said for fs-verity. */
START_TEST(plain_file)
{
	char *path = unit_path(dir, "/tmp/fv-fsvk.XXXXXX", "plain");
	struct ht_error err = {0};
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	unsigned alg = 77;
	size_t len = 77;
	FILE *f = fopen(path, "wb");
	char want[300];

	ck_assert_ptr_nonnull(f);
	fputs("not verity\n", f);
	fclose(f);
	ck_assert_int_lt(verity_fsv_measure(path, &alg, digest, &len, &err), 0);
	snprintf(want, sizeof(want),
		 "%s: measure (FS_IOC_MEASURE_VERITY): ", path);
	ck_assert_msg(!strncmp(ht_msg(&err), want, strlen(want)), "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(alg, 77);
	ck_assert_uint_eq(len, 77);
	for (unsigned type = 1; type <= 3; type++) {
		ck_assert_int_lt(verity_fsv_read_metadata(path, type, 0, 0,
							  never, NULL, &err),
				 0);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), path));
	}
	unlink(path);
	free(path);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "fsverity_kernel"};

	return run_unit(&u, UNIT_TESTS(not_files, checked_first, plain_file));
}
