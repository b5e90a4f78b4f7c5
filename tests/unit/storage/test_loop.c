/* verity/storage/loop.c: loop devices for open: what is not a loop
 * device has no backing file; a file no loop device is backed by may be
 * written in place, as may what is not a regular file; attaching a file
 * either gives a loop device backed by it (the file then refused for
 * writing in place, naming the device; the device gone once closed) or,
 * where the system has none to give, a refusal naming the file. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/storage/device.h"
#include "verity/storage/loop.h"

static char dir[64];

START_TEST(not_loops)
{
	char out[256] = "x";

	verity_loop_backing_file("/dev/null", out, sizeof(out));
	ck_assert_str_eq(out, "");
	strcpy(out, "x");
	verity_loop_backing_file("/nonexistent/loop0", out, sizeof(out));
	ck_assert_str_eq(out, "");
	strcpy(out, "x");
	verity_loop_backing_file("/tmp", out, sizeof(out));
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(attach)
{
	char *path = unit_path(dir, "/tmp/fv-loop.XXXXXX", "img");
	struct verity_device d;
	struct ht_error err = {0};
	char dev[64], back[512];
	FILE *f = fopen(path, "wb");
	int lfd;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), 1 << 20), 0);
	fclose(f);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_WRITE, &err),
			 0);
	/* no loop device behind it */
	ck_assert_int_eq(verity_loop_refuse_backing(&d, path, &err), 0);
	lfd = verity_loop_attach(d.fd, path, 4096, 65536, dev, sizeof(dev),
				 &err);
	if (lfd < 0) {
		/* no loop device here (a container without its nodes):
		 * the refusal names the file */
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), path));
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "loop device"));
	} else {
		char want[600];

		verity_loop_backing_file(dev, back, sizeof(back));
		ck_assert_str_eq(back, path);
		ck_assert_int_eq(verity_loop_refuse_backing(&d, path, &err),
				 -EBUSY);
		snprintf(want, sizeof(want),
			 "%s: backs the active loop device %s", path, dev);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), want));
		close(lfd);
	}
	verity_device_close(&d);
	/* not a regular file: never refused */
	memset(&d, 0, sizeof(d));
	d.fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(d.fd, 0);
	ck_assert_int_eq(verity_loop_refuse_backing(&d, "/dev/null", &err), 0);
	close(d.fd);
	unlink(path);
	free(path);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "loop"};

	return run_unit(&u, UNIT_TESTS(not_loops, attach));
}
