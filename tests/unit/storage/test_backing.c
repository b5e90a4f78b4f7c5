/* verity/storage/backing.c: the storage behind a name, on files made
 * here and devices described: a file by two names (a symlink, a hard
 * link) the same, two files not, a missing one never; one device and the
 * same region of it; byte ranges that meet on the same storage (regions
 * of one file at their bases, loop devices at their offsets, partitions
 * of one disk), empty ranges never; the phrase for messages; a block
 * device that sysfs does not know left as itself. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/storage/backing.h"
#include "verity/storage/device.h"

static char dir[64];

static char *made(const char *name)
{
	char *path = unit_path(dir, "/tmp/fv-backing.XXXXXX", name);
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	fputs("x", f);
	fclose(f);
	return path;
}

START_TEST(paths)
{
	char *a = made("a"), *b = made("b");
	char *sym = unit_path(dir, "", "sym"),
	     *hard = unit_path(dir, "", "hard");

	ck_assert_int_eq(symlink(a, sym), 0);
	ck_assert_int_eq(link(a, hard), 0);
	ck_assert_int_eq(verity_path_same(a, a), 1);
	ck_assert_int_eq(verity_path_same(a, sym), 1);
	ck_assert_int_eq(verity_path_same(hard, sym), 1);
	ck_assert_int_eq(verity_path_same(a, b), 0);
	ck_assert_int_eq(verity_path_same(a, "/nonexistent"), 0);
	ck_assert_int_eq(verity_path_same("/nonexistent", "/nonexistent"), 0);
	/* a file and a character device */
	ck_assert_int_eq(verity_path_same(a, "/dev/null"), 0);
	ck_assert_int_eq(verity_path_same("/dev/null", "/dev/null"), 1);
	ck_assert_str_eq(verity_path_same_storage(a, sym), "");
	ck_assert_str_eq(verity_path_same_storage(hard, a), "");
	ck_assert_ptr_null(verity_path_same_storage(a, b));
	ck_assert_ptr_null(verity_path_same_storage(a, "/nonexistent"));
	ck_assert_ptr_null(verity_path_same_storage("/nonexistent", a));
	unlink(sym);
	unlink(hard);
	unlink(a);
	unlink(b);
	free(sym);
	free(hard);
	free(a);
	free(b);
	rmdir(dir);
}
END_TEST

/* Devices as an open describes them. */
static struct verity_device file_dev(dev_t dev, ino_t ino, uint64_t base,
				     uint64_t size, int bounded)
{
	struct verity_device d;

	memset(&d, 0, sizeof(d));
	d.fd = -1;
	d.dev = dev;
	d.ino = ino;
	d.base = base;
	d.size = size;
	d.bounded = bounded;
	d.backing.is_file = 1;
	d.backing.dev = dev;
	d.backing.ino = ino;
	return d;
}

static struct verity_device block_dev(dev_t rdev, int is_file, dev_t dev,
				      ino_t ino, dev_t disk, uint64_t start,
				      const char *via)
{
	struct verity_device d;

	memset(&d, 0, sizeof(d));
	d.fd = -1;
	d.is_block = 1;
	d.rdev = rdev;
	d.backing.is_file = is_file;
	d.backing.dev = dev;
	d.backing.ino = ino;
	d.backing.disk = disk;
	d.backing.start = start;
	snprintf(d.backing.via, sizeof(d.backing.via), "%s", via);
	return d;
}

START_TEST(same)
{
	struct verity_device a = file_dev(1, 10, 0, 100, 0),
			     b = file_dev(1, 10, 0, 100, 0),
			     c = file_dev(1, 11, 0, 100, 0),
			     d = file_dev(2, 10, 0, 100, 0);
	struct verity_device l1 = block_dev(makedev(7, 0), 1, 1, 10, 0, 0,
					    "a loop device of"),
			     l2 = block_dev(makedev(7, 1), 1, 1, 10, 0, 0,
					    "a loop device of");

	ck_assert_int_eq(verity_device_same(&a, &b), 1);
	ck_assert_int_eq(verity_device_same(&a, &c), 0);
	ck_assert_int_eq(verity_device_same(&a, &d), 0);
	/* a file and a loop device of it are not the same device */
	ck_assert_int_eq(verity_device_same(&a, &l1), 0);
	ck_assert_int_eq(verity_device_same(&l1, &a), 0);
	ck_assert_int_eq(verity_device_same(&l1, &l2), 0);
	ck_assert_int_eq(verity_device_same(&l1, &l1), 1);
	/* regions: the same start and extent */
	ck_assert_int_eq(verity_device_same_region(&a, &b), 1);
	b.base = 512;
	ck_assert_int_eq(verity_device_same_region(&a, &b), 0);
	b.base = 0;
	b.bounded = 1;
	ck_assert_int_eq(verity_device_same_region(&a, &b), 0);
	a.bounded = 1;
	ck_assert_int_eq(verity_device_same_region(&a, &b), 1);
	b.size = 99;
	ck_assert_int_eq(verity_device_same_region(&a, &b), 0);
	ck_assert_int_eq(verity_device_same_region(&a, &c), 0);
}
END_TEST

START_TEST(overlap)
{
	struct verity_device a = file_dev(1, 10, 0, 0, 0),
			     r = file_dev(1, 10, 4096, 0, 1),
			     other = file_dev(1, 11, 0, 0, 0);
	/* a loop device of file 1:10 at offset 8192, and partitions of
	 * one disk from sectors 2048 and 4096 */
	struct verity_device loop =
		block_dev(makedev(7, 0), 1, 1, 10, 0, 8192, "a loop device of");
	struct verity_device p1 = block_dev(makedev(8, 1), 0, 0, 0,
					    makedev(8, 0), 2048 * 512,
					    "a partition of"),
			     p2 = block_dev(makedev(8, 2), 0, 0, 0,
					    makedev(8, 0), 4096 * 512,
					    "a partition of"),
			     disk = block_dev(makedev(8, 0), 0, 0, 0,
					      makedev(8, 0), 0, "");

	/* one file: [0, 4096) and the region from 4096 meet only past it */
	ck_assert_int_eq(verity_device_overlap(&a, 0, 4096, &r, 0, 10), 0);
	ck_assert_int_eq(verity_device_overlap(&a, 0, 4097, &r, 0, 10), 1);
	ck_assert_int_eq(verity_device_overlap(&r, 0, 10, &a, 4095, 2), 1);
	ck_assert_int_eq(verity_device_overlap(&r, 0, 10, &a, 4095, 1), 0);
	/* empty ranges never meet */
	ck_assert_int_eq(verity_device_overlap(&a, 0, 0, &a, 0, 10), 0);
	ck_assert_int_eq(verity_device_overlap(&a, 0, 10, &a, 0, 0), 0);
	/* another file never */
	ck_assert_int_eq(
		verity_device_overlap(&a, 0, 1 << 20, &other, 0, 1 << 20), 0);
	/* the loop device's byte 0 is the file's 8192 */
	ck_assert_int_eq(verity_device_overlap(&loop, 0, 1, &a, 8192, 1), 1);
	ck_assert_int_eq(verity_device_overlap(&loop, 0, 1, &a, 8191, 1), 0);
	ck_assert_int_eq(verity_device_overlap(&loop, 0, 4096, &r, 4096, 1), 1);
	/* a file and a disk: never (a file on the disk is not followed) */
	ck_assert_int_eq(
		verity_device_overlap(&a, 0, 1 << 30, &disk, 0, 1 << 30), 0);
	/* partitions of one disk meet the disk where they lie, not each
	 * other */
	ck_assert_int_eq(verity_device_overlap(&p1, 0, 2048 * 512, &p2, 0, 1),
			 0);
	ck_assert_int_eq(
		verity_device_overlap(&p1, 0, 2048 * 512 + 1, &p2, 0, 1), 1);
	ck_assert_int_eq(verity_device_overlap(&disk, 4096 * 512, 1, &p2, 0, 1),
			 1);
	/* the phrases */
	ck_assert_str_eq(verity_device_via(&a, &a), "");
	ck_assert_str_eq(verity_device_via(&loop, &a), "a loop device of");
	ck_assert_str_eq(verity_device_via(&a, &loop), "a loop device of");
	ck_assert_str_eq(verity_device_via(&p1, &p2), "a partition of");
	ck_assert_str_eq(verity_device_via(&disk, &p1), "a partition of");
	ck_assert_str_eq(verity_device_via(&a, &other), "");
}
END_TEST

/* A block device sysfs does not know: the device itself, followed no
 * further; its holder unknown. */
START_TEST(unknown_device)
{
	struct verity_backing b;
	char holder[128] = "x";
	dev_t rdev = makedev(4000, 4000);

	memset(&b, 0xa5, sizeof(b));
	verity_backing_resolve(&b, rdev);
	ck_assert_int_eq(b.is_file, 0);
	ck_assert(b.disk == rdev);
	ck_assert_uint_eq(b.start, 0);
	ck_assert_str_eq(b.via, "");
	verity_backing_holder(rdev, holder, sizeof(holder));
	ck_assert_str_eq(holder, "");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "backing"};

	return run_unit(&u, UNIT_TESTS(paths, same, overlap, unknown_device));
}
