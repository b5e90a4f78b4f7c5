/* Extents (verity/storage/extents.c) in several files: one source read
 * and written through a device across them. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/storage/device.h"
#include "verity/storage/extents.h"

#define BS 4096

static char path[64];

static void setup(void)
{
	strcpy(path, "/tmp/fv-extents-XXXXXX");
	close(mkstemp(path));
}

static void teardown(void)
{
	unlink(path);
}

/* The seam super images need: one source whose FILE extents lie in two
 * files (the device's own and another, as a logical partition's linear
 * extents lie on several block devices), with a zero extent between;
 * read whole and across, and a write landing in the other file. */
START_TEST(extents_across_files)
{
	char other[64];
	uint8_t a[2 * BS], b[3 * BS], out[4 * BS], want[4 * BS];
	const struct verity_device *files[1];
	struct verity_extents *x = calloc(1, sizeof(*x));
	struct verity_device d, o;
	struct ht_error err;
	FILE *f;

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(i * 3 + 1);
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 5 + 7);
	strcpy(other, "/tmp/fv-sparse-other-XXXXXX");
	close(mkstemp(other));
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(a, 1, sizeof(a), f), sizeof(a));
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen(other, "wb"));
	ck_assert_uint_eq(fwrite(b, 1, sizeof(b), f), sizeof(b));
	fclose(f);
	ck_assert_int_eq(verity_device_open(&o, other, VERITY_OPEN_WRITE, &err),
			 0);
	files[0] = &o;
	x->files = files;
	x->nfiles = 1;
	/* [a's block 1][zeros][b's block 2][a's block 0] */
	ck_assert_int_eq(verity_extents_add_in(x, 2, BS, 0, 1, &err), -EINVAL);
	ck_assert_int_eq(verity_extents_add_in(x, 0, BS, BS, 1, &err), 0);
	ck_assert_int_eq(verity_extents_add(x, VERITY_EXTENT_ZERO, BS, 0, 0, 2,
					    &err),
			 0);
	ck_assert_int_eq(verity_extents_add_in(x, 1, BS, 2 * BS, 3, &err), 0);
	ck_assert_int_eq(verity_extents_add_in(x, 0, BS, 0, 4, &err), 0);
	memcpy(want, a + BS, BS);
	memset(want + BS, 0, BS);
	memcpy(want + 2 * BS, b + 2 * BS, BS);
	memcpy(want + 3 * BS, a, BS);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_WRITE, &err),
			 0);
	ck_assert_int_eq(verity_device_take_source(&d, x, &err), 0);
	ck_assert_uint_eq(d.size, 4 * BS);
	ck_assert_int_eq(verity_device_read(&d, 0, out, sizeof(out), &err), 0);
	ck_assert(!memcmp(out, want, sizeof(out)));
	ck_assert_int_eq(verity_device_read(&d, 2 * BS - 10, out, 30, &err), 0);
	ck_assert(!memcmp(out, want + 2 * BS - 10, 30));
	/* a write into the third extent lands in the other file */
	memset(out, 0x5a, 100);
	ck_assert_int_eq(verity_device_write(&d, 2 * BS + 8, out, 100, &err), 0);
	verity_device_close(&d);
	verity_device_close(&o);
	ck_assert_ptr_nonnull(f = fopen(other, "rb"));
	ck_assert_uint_eq(fread(b, 1, sizeof(b), f), sizeof(b));
	fclose(f);
	ck_assert_uint_eq(b[2 * BS + 8], 0x5a);
	ck_assert_uint_eq(b[2 * BS + 107], 0x5a);
	ck_assert_uint_eq(b[2 * BS + 108], (uint8_t)((2 * BS + 108) * 5 + 7));
	unlink(other);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "extents", .setup = setup, .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(extents_across_files));
}
