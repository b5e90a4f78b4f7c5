/* verity/tree/io.c: the tree's I/O over a pair's devices made here: data
 * read and mapped from a region's start (its base), holes of a sparse
 * data file told apart from data (a hole to the end, a file that shrank
 * refused), tree blocks written and read at the tree's offset, and a
 * data file that shrank below its data area said. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/tree/io.h"

#define BS 4096u

static char dir[64];

/* 1 when the file system keeps path's holes (SEEK_DATA skips them). */
static int holes_kept(const char *path, off_t hole)
{
	int fd = open(path, O_RDONLY);
	off_t at = lseek(fd, hole, SEEK_DATA);

	close(fd);
	return at > hole;
}

/* A file of 16 blocks: blocks 0-3 and 12-15 data (block i filled with
 * i + 1), 4-11 a hole. */
static char *sparse_file(void)
{
	char *path = unit_path(dir, "/tmp/fv-io.XXXXXX", "data");
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	uint8_t b[BS];

	ck_assert_int_ge(fd, 0);
	for (unsigned i = 0; i < 16; i++) {
		if (i >= 4 && i < 12)
			continue;
		memset(b, (int)(i + 1), BS);
		ck_assert_int_eq(pwrite(fd, b, BS, (off_t)i * BS), BS);
	}
	close(fd);
	return path;
}

START_TEST(data_read)
{
	char *path = sparse_file();
	struct verity_region r = {path, BS, 0, NULL};
	struct verity_device d;
	struct verity_io_ctx ctx;
	struct ht_io io;
	struct ht_error err = {0};
	uint8_t b[2 * BS];
	const uint8_t *m;
	int hole;
	uint32_t pattern = 7;
	uint64_t end;

	/* the region from block 1 */
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_READ, &err), 0);
	ctx = (struct verity_io_ctx){&d, &d, 0, NULL};
	verity_io_init(&io, &ctx);
	ck_assert_ptr_eq(io.ctx, &ctx);
	ck_assert_ptr_nonnull(io.map_data);
	ck_assert_ptr_nonnull(io.data_extent);
	ck_assert_int_eq(io.read_data(io.ctx, 0, b, 2 * BS, &err), 0);
	ck_assert_uint_eq(b[0], 2);
	ck_assert_uint_eq(b[2 * BS - 1], 3);
	/* mapped: the same bytes, at an offset that is not a page's */
	m = io.map_data(io.ctx, 100, BS);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m[0], 2);
	ck_assert_uint_eq(m[BS - 100], 3);
	io.unmap_data(io.ctx, m, BS);
	/* the hole: region blocks 3-10; data from 11 (where the file
	 * system keeps holes) */
	if (!holes_kept(path, 4 * BS)) {
		verity_device_close(&d);
		unlink(path);
		free(path);
		return;
	}
	ck_assert_int_eq(io.data_extent(io.ctx, 0, &hole, &pattern, &end), 0);
	ck_assert_int_eq(hole, 0);
	ck_assert_uint_eq(pattern, 0);
	ck_assert_uint_eq(end, 3 * BS);
	ck_assert_int_eq(io.data_extent(io.ctx, 3 * BS, &hole, &pattern, &end),
			 0);
	ck_assert_int_eq(hole, 1);
	ck_assert_uint_eq(end, 11 * BS);
	ck_assert_int_eq(io.read_data(io.ctx, 5 * BS, b, BS, &err), 0);
	ck_assert_uint_eq(b[0], 0);
	ck_assert_int_eq(io.data_extent(io.ctx, 11 * BS, &hole, &pattern, &end),
			 0);
	ck_assert_int_eq(hole, 0);
	ck_assert_uint_eq(end, 15 * BS);
	/* reading past the region's end: ENODATA */
	ck_assert_int_eq(io.read_data(io.ctx, 14 * BS, b, 2 * BS, &err),
			 -ENODATA);
	verity_device_close(&d);
	unlink(path);
	free(path);
}
END_TEST

/* A hole to the end of the file: a hole that ends nowhere; the file cut
 * shorter than the device says since: EIO. */
START_TEST(hole_to_end)
{
	char *path = unit_path(dir, "/tmp/fv-io.XXXXXX", "tail");
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	struct verity_device d;
	struct verity_io_ctx ctx;
	struct ht_io io;
	struct ht_error err = {0};
	uint8_t b[BS];
	int hole;
	uint32_t pattern;
	uint64_t end;

	memset(b, 1, BS);
	ck_assert_int_eq(pwrite(fd, b, BS, 0), BS);
	ck_assert_int_eq(ftruncate(fd, 8 * BS), 0);
	close(fd);
	if (!holes_kept(path, 2 * BS)) {
		unlink(path);
		free(path);
		return;
	}
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	ctx = (struct verity_io_ctx){&d, &d, 0, NULL};
	verity_io_init(&io, &ctx);
	ck_assert_int_eq(io.data_extent(io.ctx, 2 * BS, &hole, &pattern, &end),
			 0);
	ck_assert_int_eq(hole, 1);
	ck_assert_uint_eq(end, UINT64_MAX);
	ck_assert_int_eq(truncate(path, 4 * BS), 0);
	ck_assert_int_eq(io.data_extent(io.ctx, 6 * BS, &hole, &pattern, &end),
			 -EIO);
	verity_device_close(&d);
	unlink(path);
	free(path);
}
END_TEST

/* Tree blocks at the tree's offset in the hash region. */
START_TEST(tree_blocks)
{
	char *path = unit_path(dir, "/tmp/fv-io.XXXXXX", "hash");
	struct verity_region r = {path, 512, 0, NULL};
	struct verity_device data, hash;
	struct verity_io_ctx ctx;
	struct ht_io io;
	struct ht_error err = {0};
	uint8_t b[BS], back[BS];
	FILE *f = fopen(path, "wb");
	uint8_t *whole;
	size_t len;

	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(truncate(path, 2 << 20), 0);
	ck_assert_int_eq(
		verity_device_open_region(&hash, &r, VERITY_OPEN_WRITE, &err),
		0);
	ck_assert_int_eq(
		verity_device_open(&data, path, VERITY_OPEN_READ, &err), 0);
	ctx = (struct verity_io_ctx){&data, &hash, 2 * BS, NULL};
	verity_io_init(&io, &ctx);
	memset(b, 0x77, BS);
	ck_assert_int_eq(io.write_tree(io.ctx, BS, b, BS, &err), 0);
	/* a write that spans a MiB's end starts its writeback: the same
	 * bytes either way */
	ck_assert_int_eq(io.write_tree(io.ctx, (1 << 20) - 100, b, BS, &err),
			 0);
	ck_assert_int_eq(io.read_tree(io.ctx, BS, back, BS, &err), 0);
	ck_assert_mem_eq(back, b, BS);
	verity_device_close(&hash);
	verity_device_close(&data);
	whole = unit_slurp(path, &len);
	/* region base 512, tree offset 2 blocks, block 1 of the tree */
	ck_assert_uint_eq(len, 2 << 20);
	ck_assert_uint_eq(whole[512 + 2 * BS + (1 << 20) - 101], 0);
	ck_assert_uint_eq(whole[512 + 2 * BS + (1 << 20) - 100], 0x77);
	ck_assert_uint_eq(whole[512 + 3 * BS - 1], 0);
	ck_assert_uint_eq(whole[512 + 3 * BS], 0x77);
	ck_assert_uint_eq(whole[512 + 4 * BS - 1], 0x77);
	ck_assert_uint_eq(whole[512 + 4 * BS], 0);
	free(whole);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(unchanged)
{
	char *path = sparse_file();
	struct verity_device d;
	struct verity_layout l;
	struct ht_error err = {0};
	char want[300];

	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	memset(&l, 0, sizeof(l));
	l.data_bytes = 16 * BS;
	ck_assert_int_eq(verity_data_unchanged(&d, &l, &err), 0);
	ck_assert_int_eq(truncate(path, 16 * BS - 1), 0);
	ck_assert_int_eq(verity_data_unchanged(&d, &l, &err), -EIO);
	snprintf(want, sizeof(want),
		 "%s: the file shrank to 65535 bytes while it was being read "
		 "(the data area has 65536)",
		 path);
	ck_assert_str_eq(ht_msg(&err), want);
	/* a data area shorter than the file is no change */
	l.data_bytes = BS;
	ck_assert_int_eq(verity_data_unchanged(&d, &l, &err), 0);
	verity_device_close(&d);
	unlink(path);
	free(path);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "tree_io"};

	return run_unit(
		&u, UNIT_TESTS(data_read, hole_to_end, tree_blocks, unchanged));
}
