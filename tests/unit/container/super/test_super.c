/* verity/container/super/super.c: Android super images made here (liblp
 * metadata of two slots, system_a of eight blocks, system_b empty):
 * opened and every slot read, a slot read from its backup noted; a
 * partition's bytes as extents; paths through the image split and
 * opened (a slot's suffix read from its slot, an empty or missing
 * partition refused); the partition a name stands for on an A/B image;
 * the path beside a directory's super.img; a partition extracted whole,
 * never over the image it reads. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/container/super/super.h"

#define PART (8 * AMK_BS)

static char super[160];
static uint8_t part[PART];

static void ssetup(void)
{
	amk_dir("/tmp/fv-super-XXXXXX");
	amk_path(super, "super.img");
	for (size_t i = 0; i < PART; i++)
		part[i] = (uint8_t)(i * 7 + i / 4096);
	amk_super(super, part, PART);
}

static void steardown(void)
{
	amk_rmdir();
}

START_TEST(opened)
{
	struct verity_super s;
	struct verity_extents x;
	struct verity_region r = {super, 0, 0, &x};
	struct verity_device d;
	struct ht_error err = {0};
	uint8_t *buf = malloc(PART);

	ck_assert_msg(verity_super_open(&s, super, NULL, NULL, 0, 0, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_str_eq(s.path, super);
	ck_assert_int_eq(s.sparse, 0);
	ck_assert_uint_eq(s.m.np, 2);
	ck_assert_uint_eq(s.nother, 0);
	ck_assert_uint_eq(s.nslot_notes, 0);
	ck_assert_uint_eq(s.m.p[0].size, PART);
	ck_assert_int_eq(verity_super_extents(&s, 0, &x, &err), 0);
	ck_assert_uint_eq(x.size, PART);
	x.path = s.path;
	ck_assert_int_eq(
		verity_device_open_region(&d, &r, VERITY_OPEN_READ, &err), 0);
	ck_assert_int_eq(verity_device_read(&d, 0, buf, PART, &err), 0);
	ck_assert_mem_eq(buf, part, PART);
	verity_device_close(&d);
	verity_extents_free(&x);
	/* system_b: no extents */
	ck_assert_int_eq(verity_super_extents(&s, 1, &x, &err), 0);
	ck_assert_uint_eq(x.size, 0);
	verity_extents_free(&x);
	verity_super_close(&s);
	ck_assert_ptr_null(s.path);
	ck_assert_int_eq(s.d.fd, -1);
	verity_super_close(&s); /* twice: harmless */
	/* slot 1; a slot the image has not */
	ck_assert_int_eq(verity_super_open(&s, super, NULL, NULL, 0, 1, &err),
			 0);
	ck_assert_uint_eq(s.m.slot, 1);
	verity_super_close(&s);
	ck_assert_int_eq(verity_super_open(&s, super, NULL, NULL, 0, 2, &err),
			 -EINVAL);
	/* not a super image; not there */
	{
		char plain[160];

		amk_data(amk_path(plain, "plain.img"), 4, 3);
		ck_assert_int_eq(
			verity_super_open(&s, plain, NULL, NULL, 0, 0, &err),
			-EINVAL);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err),
					     "not a super image: no geometry "
					     "magic at byte 4096 or 8192"));
		unlink(plain);
	}
	ck_assert_int_lt(verity_super_open(&s, "/nonexistent/super.img", NULL,
					   NULL, 0, 0, &err),
			 0);
	free(buf);
}
END_TEST

/* Slot 1's primary copy spoilt: opening slot 0 reads slot 1 too, from
 * its backup, and notes it; both its copies spoilt: refused. */
START_TEST(other_slots)
{
	struct verity_super s;
	struct ht_error err = {0};
	const uint64_t slot1 = 12288 + 65536, backup1 = 12288 + 3 * 65536;
	uint8_t x = 0xff;

	amk_poke(super, slot1 + 20, &x, 1);
	ck_assert_msg(verity_super_open(&s, super, NULL, NULL, 0, 0, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_uint_eq(s.nslot_notes, 1);
	ck_assert_ptr_nonnull(strstr(s.slot_notes[0], "metadata slot 1"));
	ck_assert_ptr_nonnull(strstr(s.slot_notes[0], "read its backup"));
	verity_super_close(&s);
	amk_poke(super, backup1 + 20, &x, 1);
	ck_assert_int_eq(verity_super_open(&s, super, NULL, NULL, 0, 0, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "metadata slot 1"));
	amk_super(super, part, PART);
}
END_TEST

START_TEST(paths)
{
	char path[300], *image = NULL;
	const char *name = NULL, *file = NULL;
	struct verity_extents *x = NULL;
	struct ht_error err = {0};

	snprintf(path, sizeof(path), "%s/system_a", super);
	ck_assert_int_eq(verity_super_split_path(path, &image, &name), 1);
	ck_assert_str_eq(image, super);
	ck_assert_str_eq(name, "system_a");
	free(image);
	/* not such paths: the image itself, a name that is none, a
	 * directory's file, no slash */
	ck_assert_int_eq(verity_super_split_path(super, &image, &name), 0);
	snprintf(path, sizeof(path), "%s/", super);
	ck_assert_int_eq(verity_super_split_path(path, &image, &name), 0);
	snprintf(path, sizeof(path), "%s/..", super);
	ck_assert_int_eq(verity_super_split_path(path, &image, &name), 0);
	snprintf(path, sizeof(path), "%s/nosuch/system_a", amk);
	ck_assert_int_eq(verity_super_split_path(path, &image, &name), 0);
	ck_assert_int_eq(verity_super_split_path("super.img", &image, &name),
			 0);
	ck_assert_int_eq(verity_super_split_path("/system_a", &image, &name),
			 0);
	ck_assert_int_eq(verity_super_open_path(super, &x, &file, &err), 1);
	ck_assert_ptr_null(x);
	/* opened: the partition's extents, the image's file */
	snprintf(path, sizeof(path), "%s/system_a", super);
	ck_assert_msg(verity_super_open_path(path, &x, &file, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(x->size, PART);
	ck_assert_str_eq(file, super);
	verity_extents_free(x);
	free(x);
	/* empty, missing */
	snprintf(path, sizeof(path), "%s/system_b", super);
	ck_assert_int_eq(verity_super_open_path(path, &x, &file, &err),
			 -ENODATA);
	ck_assert_ptr_null(x);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "partition system_b is "
						   "empty (no extents)"));
	snprintf(path, sizeof(path), "%s/vendor_a", super);
	ck_assert_int_eq(verity_super_open_path(path, &x, &file, &err),
			 -ENOENT);
	ck_assert_ptr_null(x);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "the super image has no "
						   "partition vendor_a"));
}
END_TEST

START_TEST(pick_beside)
{
	struct verity_super s;
	struct ht_error err = {0};
	char picked[64], *at, want[300];

	ck_assert_int_eq(verity_super_open(&s, super, NULL, NULL, 0, 0, &err),
			 0);
	ck_assert_int_eq(
		verity_super_pick(&s.m, "system", picked, sizeof(picked)), 0);
	ck_assert_str_eq(picked, "system_a");
	ck_assert_int_eq(
		verity_super_pick(&s.m, "system_b", picked, sizeof(picked)), 1);
	ck_assert_str_eq(picked, "system_b");
	ck_assert_int_eq(
		verity_super_pick(&s.m, "vendor", picked, sizeof(picked)),
		-ENOENT);
	ck_assert_str_eq(picked, "vendor_a");
	s.m.slot = 1;
	ck_assert_int_eq(
		verity_super_pick(&s.m, "system", picked, sizeof(picked)), 1);
	ck_assert_str_eq(picked, "system_b");
	verity_super_close(&s);
	/* beside: slot 0's system is system_a; slot 1's is empty */
	at = verity_super_beside(amk, "system", 0);
	snprintf(want, sizeof(want), "%s/system_a", super);
	ck_assert_ptr_nonnull(at);
	ck_assert_str_eq(at, want);
	free(at);
	ck_assert_ptr_null(verity_super_beside(amk, "system", 1));
	ck_assert_ptr_null(verity_super_beside(amk, "vendor", 0));
	ck_assert_ptr_null(verity_super_beside("/nonexistent", "system", 0));
}
END_TEST

START_TEST(extract)
{
	char out[160], want[400];
	struct ht_error err = {0};
	uint8_t *got;
	size_t len;
	struct stat st;

	amk_path(out, "system.img");
	ck_assert_msg(verity_super_extract(super, 0, "system_a", out, &err) ==
			      0,
		      "%s", ht_msg(&err));
	got = amk_read(out, &len);
	ck_assert_uint_eq(len, PART);
	ck_assert_mem_eq(got, part, PART);
	free(got);
	/* an empty partition: an empty file */
	ck_assert_int_eq(verity_super_extract(super, 0, "system_b", out, &err),
			 0);
	ck_assert_int_eq(stat(out, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	unlink(out);
	/* refused: a missing partition, a slot past any, the image as
	 * the output (nothing written over it) */
	ck_assert_int_eq(verity_super_extract(super, 0, "vendor_a", out, &err),
			 -ENOENT);
	ck_assert_int_ne(access(out, F_OK), 0);
	ck_assert_int_eq(verity_super_extract(super, 65, "system_a", out, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_super_extract(super, 2, "system_a", out, &err),
			 -EINVAL);
	ck_assert_int_eq(
		verity_super_extract(super, 0, "system_a", super, &err),
		-EINVAL);
	snprintf(want, sizeof(want), "%s: is the input %s", super, super);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), want));
	got = amk_read(super, &len);
	ck_assert_mem_eq(got + (1u << 20), part, PART);
	free(got);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"super",   0, ssetup,
					    steardown, 0, NULL};

	return run_unit(&u, UNIT_TESTS(opened, other_slots, paths, pick_beside,
				       extract));
}
