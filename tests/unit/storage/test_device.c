/* verity/storage/device.c: files as regions, on files made here: what
 * is not a regular file or block device refused with veritysetup's
 * kinds (a directory or character device ENOTBLK, a FIFO EINVAL, never
 * waited on; a missing one ENODEV); regions inside the file read from
 * their base, one past its end refused unless being created, one whose
 * end passes 2^63 refused; reads at the end, past a bounded region, and
 * of a file cut short since its open said as ENODATA, each naming the
 * path and offsets; writes bounded the same; a write to a file opened
 * for reading the medium's error; a sparse image's bytes through its
 * extents, written only where its chunks store them; two files flushed
 * at once, a failure said from the thread that met it; the kinds'
 * words.
 * (verity_device_open_beside on a block device held for writing needs
 * one: tests/cli/t_containers.sh, 15b, repairs an Android image on a
 * loop device, its tree past the held data region's end.) */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h" /* (before sparse_image.h: its global path) */
#include "container/sparse/sparse_image.h"
#include "verity/container/sparse/sparse.h"
#include "verity/storage/device.h"

static char dir[64];
static char *file; /* 16 KiB: byte i is i % 251 */

static void dsetup(void)
{
	FILE *f;

	setup(); /* sparse_image.h's path */
	file = unit_path(dir, "/tmp/fv-device.XXXXXX", "img");
	f = fopen(file, "wb");
	for (int i = 0; i < 16384; i++)
		fputc(i % 251, f);
	fclose(f);
}

static void dteardown(void)
{
	char cmd[96];

	teardown();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	dir[0] = '\0'; /* the next test's setup makes another */
	free(file);
}

START_TEST(kinds)
{
	char *fifo = unit_path(dir, "", "fifo"),
	     *made = unit_path(dir, "", "new");
	struct verity_device d;
	struct ht_error err = {0};
	char want[300];
	struct stat st;

	ck_assert_int_eq(verity_device_open(&d, "/nonexistent/x",
					    VERITY_OPEN_READ, &err),
			 -ENODEV);
	ck_assert_str_eq(ht_msg(&err), "/nonexistent/x: does not exist or "
				       "access denied (No such file or "
				       "directory)");
	ck_assert_int_eq(d.fd, -1);
	ck_assert_int_eq(verity_device_open(&d, dir, VERITY_OPEN_READ, &err),
			 -ENOTBLK);
	snprintf(want, sizeof(want),
		 "%s: a directory, not a regular file or block device", dir);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_int_eq(
		verity_device_open(&d, "/dev/null", VERITY_OPEN_READ, &err),
		-ENOTBLK);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(verity_device_open(&d, fifo, VERITY_OPEN_READ, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_device_open(&d, fifo, VERITY_OPEN_WRITE, &err),
			 -EINVAL);
	/* WRITE needs the file; CREATE makes it, 0600 */
	ck_assert_int_eq(verity_device_open(&d, made, VERITY_OPEN_WRITE, &err),
			 -ENODEV);
	ck_assert_int_eq(verity_device_open(&d, made, VERITY_OPEN_CREATE, &err),
			 0);
	ck_assert_uint_eq(d.size, 0);
	ck_assert_int_eq(d.is_block, 0);
	ck_assert_int_eq(d.backing.is_file, 1);
	verity_device_close(&d);
	ck_assert_int_eq(d.fd, -1);
	ck_assert_int_eq(stat(made, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0600);
	/* the words */
	ck_assert_str_eq(verity_file_kind(S_IFIFO), "a FIFO");
	ck_assert_str_eq(verity_file_kind(S_IFSOCK), "a socket");
	ck_assert_str_eq(verity_file_kind(S_IFCHR), "a character device");
	ck_assert_str_eq(verity_file_kind(S_IFDIR), "a directory");
	ck_assert_str_eq(verity_file_kind(S_IFBLK), "a block device");
	ck_assert_str_eq(verity_file_kind(S_IFREG), "not a regular file");
	unlink(fifo);
	unlink(made);
	free(fifo);
	free(made);
}
END_TEST

START_TEST(regions)
{
	struct verity_region r = {file, 1000, 4000, NULL};
	struct verity_device d;
	struct ht_error err = {0};
	uint8_t b[8];
	char want[300];

	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_READ, &err), 0);
	ck_assert_uint_eq(d.base, 1000);
	ck_assert_uint_eq(d.size, 4000);
	ck_assert_int_eq(d.bounded, 1);
	ck_assert_int_eq(verity_device_read(&d, 0, b, 2, &err), 0);
	ck_assert_uint_eq(b[0], 1000 % 251);
	ck_assert_int_eq(verity_device_read(&d, 3998, b, 2, &err), 0);
	ck_assert_uint_eq(b[1], 4999 % 251);
	/* past the region, by one byte; an offset past it */
	ck_assert_int_eq(verity_device_read(&d, 3999, b, 2, &err), -ENODATA);
	snprintf(want, sizeof(want),
		 "%s: bytes [4999, 5001) lie past the end of the region "
		 "[1000, 5000)",
		 file);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_int_eq(verity_device_read(&d, UINT64_MAX, b, 1, &err),
			 -ENODATA);
	ck_assert_int_eq(verity_device_write(&d, 4000, b, 1, &err), -ENODATA);
	verity_device_close(&d);
	/* to the end: from 1000; at the very end: empty */
	r.length = 0;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_READ, &err), 0);
	ck_assert_uint_eq(d.size, 16384 - 1000);
	ck_assert_int_eq(d.bounded, 0);
	/* the file's end: ENODATA at its offset */
	ck_assert_int_eq(verity_device_read(&d, 16384 - 1000 - 1, b, 2, &err),
			 -ENODATA);
	snprintf(want, sizeof(want),
		 "%s: unexpected end of file at offset 16384", file);
	ck_assert_str_eq(ht_msg(&err), want);
	verity_device_close(&d);
	r.offset = 16384;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_READ, &err), 0);
	ck_assert_uint_eq(d.size, 0);
	verity_device_close(&d);
	/* past the end: refused, unless being created */
	r.offset = 16384;
	r.length = 1;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_READ, &err),
		-EINVAL);
	snprintf(want, sizeof(want),
		 "%s: the region [16384, 16385) lies past its end (16384 "
		 "bytes)",
		 file);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_int_eq(d.fd, -1);
	r.offset = 16385;
	r.length = 0;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_WRITE, &err),
		-EINVAL);
	r.offset = 20000;
	r.length = 4096;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_CREATE, &err), 0);
	ck_assert_uint_eq(d.size, 4096);
	verity_device_close(&d);
	/* an end past 2^63 */
	r.offset = (uint64_t)INT64_MAX - 10;
	r.length = 11;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_CREATE, &err),
		-EOVERFLOW);
	r.offset = (uint64_t)INT64_MAX + 1;
	r.length = 0;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_CREATE, &err),
		-EOVERFLOW);
	/* opened beside nothing held: as a region */
	r.offset = 4096;
	r.length = 4096;
	ck_assert_int_eq(
		verity_device_open_beside(&d, &r, VERITY_OPEN_READ, NULL, &err),
		0);
	ck_assert_uint_eq(d.base, 4096);
	verity_device_close(&d);
}
END_TEST

START_TEST(writes)
{
	struct verity_region r = {file, 8192, 4096, NULL};
	struct verity_device d, ro;
	struct ht_error err = {0};
	uint8_t b[16], back[16];

	memset(b, 0xab, sizeof(b));
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_WRITE, &err), 0);
	ck_assert_int_eq(verity_device_write(&d, 4080, b, 16, &err), 0);
	ck_assert_int_eq(verity_device_write(&d, 4081, b, 16, &err), -ENODATA);
	ck_assert_int_eq(verity_device_flush(&d, &err), 0);
	ck_assert_int_eq(verity_device_open(&ro, file, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_device_read(&ro, 8192 + 4080, back, 16, &err),
			 0);
	ck_assert_mem_eq(back, b, 16);
	/* written through a descriptor opened to read: the medium's EIO */
	ck_assert_int_eq(verity_device_write(&ro, 0, b, 1, &err), -EIO);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), ": write error at offset "
						   "0: "));
	/* two files flushed at once (the second's on a thread), or one
	 * when the other is none or the same file; a failed flush's error
	 * handed over from the thread, naming its path */
	ck_assert_int_eq(verity_device_flush_both(&d, &ro, &err), 0);
	ck_assert_int_eq(verity_device_flush_both(&d, NULL, &err), 0);
	ck_assert_int_eq(verity_device_flush_both(&d, &d, &err), 0);
	{
		struct verity_device gone = ro;

		gone.fd = dup(ro.fd);
		gone.path = "gone.img";
		ck_assert_int_eq(close(gone.fd), 0);
		ck_assert_int_eq(verity_device_flush_both(&d, &gone, &err),
				 -EIO);
		ck_assert_str_eq(ht_msg(&err), "gone.img: cannot flush: Bad "
					       "file descriptor");
		ck_assert_int_eq(verity_device_flush_both(&gone, &d, &err),
				 -EIO);
		ck_assert_str_eq(ht_msg(&err), "gone.img: cannot flush: Bad "
					       "file descriptor");
	}
	/* prefetch: a hint, anywhere */
	verity_device_prefetch(&ro, 0, 16384);
	verity_device_prefetch(&ro, 16000, 1 << 20);
	verity_device_prefetch(&ro, 0, 0);
	verity_device_close(&ro);
	verity_device_close(&d);
}
END_TEST

/* A file cut short after its open: the read says it shrank. */
START_TEST(shrank)
{
	struct verity_device d;
	struct ht_error err = {0};
	uint8_t b[16];
	char want[300];

	ck_assert_int_eq(verity_device_open(&d, file, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(truncate(file, 10000), 0);
	ck_assert_int_eq(verity_device_read(&d, 9990, b, 16, &err), -ENODATA);
	snprintf(want, sizeof(want),
		 "%s: the file shrank while it was being read (10000 bytes, "
		 "16384 when opened)",
		 file);
	ck_assert_str_eq(ht_msg(&err), want);
	verity_device_close(&d);
}
END_TEST

/* An Android sparse image's unsparsed bytes: RAW read as stored, a
 * DONT_CARE chunk as zeros; written where a RAW chunk stores bytes,
 * writing the same bytes elsewhere nothing, other bytes refused. */
START_TEST(sparse_source)
{
	uint8_t raw[2 * BS], b[BS];
	struct verity_device d;
	struct ht_error err = {0};
	struct made m;
	struct verity_sparse sp;
	struct verity_extents *x;

	for (size_t i = 0; i < sizeof(raw); i++)
		raw[i] = (uint8_t)(i * 3 + 7);
	start(&m, 28, 12);
	add(&m, 0xcac1, 2, raw, sizeof(raw), 0);
	add(&m, 0xcac3, 2, NULL, 0, 0);
	finish(&m, 0, 0);
	/* opened to write, its chunks read into a source (as
	 * verity_sparse_open does, for reading) */
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_WRITE, &err),
			 0);
	ck_assert_int_eq(verity_sparse_magic(&d), 1);
	ck_assert_int_eq(verity_sparse_read(&d, path, &sp, &err), 0);
	ck_assert_ptr_nonnull(x = malloc(sizeof(*x)));
	*x = sp.x;
	free(sp.c);
	ck_assert_int_eq(verity_device_take_source(&d, x, &err), 0);
	ck_assert_uint_eq(d.size, 4 * BS);
	ck_assert_int_eq(verity_device_read(&d, BS, b, BS, &err), 0);
	ck_assert_mem_eq(b, raw + BS, BS);
	ck_assert_int_eq(verity_device_read(&d, 3 * BS, b, BS, &err), 0);
	ck_assert_uint_eq(b[0], 0);
	ck_assert_uint_eq(b[BS - 1], 0);
	ck_assert_int_eq(verity_device_read(&d, 3 * BS, b, BS + 1, &err),
			 -ENODATA);
	memset(b, 0, BS);
	ck_assert_int_eq(verity_device_write(&d, 2 * BS, b, BS, &err), 0);
	b[7] = 1;
	ck_assert_int_eq(verity_device_write(&d, 2 * BS, b, BS, &err), -EROFS);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "which the file does not "
						   "store: not written"));
	memset(b, 0x42, BS);
	ck_assert_int_eq(verity_device_write(&d, 0, b, BS, &err), 0);
	ck_assert_int_eq(verity_device_read(&d, 0, raw, BS, &err), 0);
	ck_assert_uint_eq(raw[100], 0x42);
	verity_device_prefetch(&d, 0, 4 * BS);
	verity_device_close(&d);
	free(m.file);
	free(m.raw);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"device",  0, dsetup,
					    dteardown, 0, NULL};

	return run_unit(
		&u, UNIT_TESTS(kinds, regions, writes, shrank, sparse_source));
}
