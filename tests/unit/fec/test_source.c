/* verity/fec/source.c: the covered blocks as one address space (the data
 * device's, then the hash device's from the parity's first covered hash
 * block, zeros past the last), and a dry run's rebuilt blocks kept sorted
 * in memory, read in their place across any cut of a run, its limit
 * said with the parameter that lifts it. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fec/source.h"

#define BS 512

static char dir[64];

/* A file of n blocks, block i filled with tag + i. */
static char *blocks_file(const char *name, unsigned n, uint8_t tag)
{
	char *path = unit_path(dir, "/tmp/fv-fecsrc.XXXXXX", name);
	FILE *f = fopen(path, "wb");
	uint8_t b[BS];

	ck_assert_ptr_nonnull(f);
	for (unsigned i = 0; i < n; i++) {
		memset(b, (uint8_t)(tag + i), BS);
		ck_assert_uint_eq(fwrite(b, 1, BS, f), BS);
	}
	fclose(f);
	return path;
}

static int filled(const uint8_t *b, uint8_t v)
{
	for (size_t i = 0; i < BS; i++)
		if (b[i] != v)
			return 0;
	return 1;
}

START_TEST(overlay)
{
	static const uint64_t order[] = {40, 3, 17, 0, 99, 18, 2};
	struct fec_overlay ov = {0};
	struct ht_error err = {0};
	uint8_t b[BS];

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		memset(b, (uint8_t)order[i], BS);
		ck_assert_int_eq(
			verity_fec_overlay_add(&ov, order[i], b, BS, &err), 0);
	}
	ck_assert_uint_eq(ov.count, 7);
	ck_assert_uint_eq(ov.bytes, 7 * BS);
	for (size_t i = 1; i < ov.count; i++)
		ck_assert_uint_lt(ov.index[i - 1], ov.index[i]);
	for (size_t i = 0; i < ov.count; i++)
		ck_assert(filled(ov.block[i], (uint8_t)ov.index[i]));
	ck_assert(verity_fec_overlay_has(&ov, 0));
	ck_assert(verity_fec_overlay_has(&ov, 99));
	ck_assert(verity_fec_overlay_has(&ov, 17));
	ck_assert(!verity_fec_overlay_has(&ov, 1));
	ck_assert(!verity_fec_overlay_has(&ov, 100));
	ck_assert(!verity_fec_overlay_has(&ov, UINT64_MAX));
	verity_fec_overlay_free(&ov);
	ck_assert_uint_eq(ov.count, 0);
	ck_assert_ptr_null(ov.index);
	ck_assert(!verity_fec_overlay_has(&ov, 0));
	/* more than 64 entries: the arrays grow */
	for (uint64_t c = 200; c > 0; c--) {
		memset(b, (uint8_t)c, BS);
		ck_assert_int_eq(verity_fec_overlay_add(&ov, c, b, BS, &err),
				 0);
	}
	ck_assert_uint_eq(ov.count, 200);
	ck_assert_uint_eq(ov.index[0], 1);
	ck_assert_uint_eq(ov.index[199], 200);
	ck_assert(filled(ov.block[127], 128));
	verity_fec_overlay_free(&ov);
}
END_TEST

/* The limit: a block that would take the overlay past 64 MiB is refused
 * (ENOMEM, with the fix: a repair for real), one that reaches it exactly
 * is kept. */
START_TEST(overlay_limit)
{
	struct fec_overlay ov = {0};
	struct ht_error err = {0};
	uint8_t b[BS] = {0};

	ov.bytes = FEC_OVERLAY_MAX_BYTES - BS;
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 5, b, BS, &err), 0);
	ck_assert_uint_eq(ov.bytes, FEC_OVERLAY_MAX_BYTES);
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 6, b, 1, &err), -ENOMEM);
	ck_assert_uint_eq(ov.count, 1);
	ck_assert_int_eq(err.param, HT_PARAM_DRY_RUN);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "more than 64 MiB"));
	verity_fec_overlay_free(&ov);
}
END_TEST

/* Patching bytes [off, off + len) of a run: overlaid blocks cut at both
 * ends of the window, blocks before and after it untouched. */
START_TEST(patch)
{
	struct fec_overlay ov = {0};
	struct ht_error err = {0};
	uint8_t b[BS], buf[4 * BS];

	memset(b, 0xa1, BS);
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 10, b, BS, &err), 0);
	memset(b, 0xb2, BS);
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 12, b, BS, &err), 0);
	memset(b, 0xc3, BS);
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 14, b, BS, &err), 0);
	/* the run starts at block 10; the window is bytes [300, 300 +
	 * 3 * BS) of it: the end of 10, all of 11, 12 and the start of 13 */
	memset(buf, 0, sizeof(buf));
	verity_fec_overlay_patch(&ov, 10, 300, buf, 3 * BS, BS);
	for (size_t i = 0; i < 3 * BS; i++) {
		uint64_t at = 300 + i;
		uint8_t want = at < BS                       ? 0xa1
			       : at >= 2 * BS && at < 3 * BS ? 0xb2
							     : 0;

		ck_assert_uint_eq(buf[i], want);
	}
	ck_assert_uint_eq(buf[3 * BS], 0);
	/* a window inside one overlaid block */
	memset(buf, 0, sizeof(buf));
	verity_fec_overlay_patch(&ov, 12, 10, buf, 20, BS);
	for (size_t i = 0; i < 20; i++)
		ck_assert_uint_eq(buf[i], 0xb2);
	ck_assert_uint_eq(buf[20], 0);
	/* a window over none of them */
	memset(buf, 0, sizeof(buf));
	verity_fec_overlay_patch(&ov, 15, 0, buf, 4 * BS, BS);
	for (size_t i = 0; i < 4 * BS; i++)
		ck_assert_uint_eq(buf[i], 0);
	verity_fec_overlay_free(&ov);
}
END_TEST

/* Four data blocks (tags 0x10...), a hash device of six blocks (0x80...)
 * whose blocks 2 to 4 are covered: covered blocks 0-3 the data, 4-6 the
 * hash device's 2-4, 7 on zeros. */
START_TEST(read_covered)
{
	char *data = blocks_file("data", 4, 0x10);
	char *hash = blocks_file("hash", 6, 0x80);
	struct verity_device dd, hd;
	struct verity_fec_layout fl = {.block_size = BS,
				       .data_blocks = 4,
				       .hash_start_block = 2,
				       .hash_blocks = 3,
				       .blocks = 7};
	struct fec_source s = {&dd, &hd, NULL, &fl, NULL};
	struct fec_overlay ov = {0};
	struct ht_error err = {0};
	static const uint8_t want[] = {0x10, 0x11, 0x12, 0x13, 0x82,
				       0x83, 0x84, 0,    0};
	uint8_t buf[10 * BS], b[BS];

	ck_assert_int_eq(verity_device_open(&dd, data, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_device_open(&hd, hash, VERITY_OPEN_READ, &err),
			 0);
	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(verity_fec_read_covered(&s, 0, 9, buf, &err), 0);
	for (unsigned i = 0; i < 9; i++)
		ck_assert_msg(filled(buf + i * BS, want[i]), "block %u", i);
	/* runs starting in each part */
	for (unsigned first = 0; first < 9; first++)
		for (unsigned n = 1; first + n <= 9; n++) {
			memset(buf, 0xee, sizeof(buf));
			ck_assert_int_eq(verity_fec_read_covered(&s, first, n,
								 buf, &err),
					 0);
			for (unsigned i = 0; i < n; i++)
				ck_assert(
					filled(buf + i * BS, want[first + i]));
			ck_assert_uint_eq(buf[n * BS], 0xee);
		}
	/* a dry run's rebuilt blocks read in their place */
	memset(b, 0x55, BS);
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 3, b, BS, &err), 0);
	ck_assert_int_eq(verity_fec_overlay_add(&ov, 5, b, BS, &err), 0);
	s.overlay = &ov;
	ck_assert_int_eq(verity_fec_read_covered(&s, 2, 4, buf, &err), 0);
	ck_assert(filled(buf, 0x12));
	ck_assert(filled(buf + BS, 0x55));
	ck_assert(filled(buf + 2 * BS, 0x82));
	ck_assert(filled(buf + 3 * BS, 0x55));
	verity_fec_overlay_free(&ov);
	/* a layout that says more data blocks than the device has: the
	 * read's error, not zeros */
	fl.data_blocks = 5;
	ck_assert_int_lt(verity_fec_read_covered(&s, 4, 1, buf, &err), 0);
	verity_device_close(&dd);
	verity_device_close(&hd);
	unlink(data);
	unlink(hash);
	free(data);
	free(hash);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "fec_source"};

	return run_unit(
		&u, UNIT_TESTS(overlay, overlay_limit, patch, read_covered));
}
