/* verity/image/alone.c: what an image given alone to verify is and its
 * walk: an Android image with a hashtree footer is a pair, one with a
 * hash footer a firmware set's top, bytes no container reads a sidecar
 * image; a container named that the image is not, refused; an image
 * that is not there, refused as the registry refuses it. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/image/alone.h"

static char key[160], pub[160], sys[160], boot[160], raw[160];

static void asetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-alone-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_data(amk_path(sys, "system.img"), 32, 7);
	ck_assert_msg(amk_hashtree(sys, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	amk_data(amk_path(boot, "boot.img"), 2, 3);
	ck_assert_msg(amk_hash(boot, "boot", key, 32 * AMK_BS, &err) == 0, "%s",
		      ht_msg(&err));
	amk_data(amk_path(raw, "raw.img"), 4, 5);
}

static void ateardown(void)
{
	amk_rmdir();
}

START_TEST(walks)
{
	struct verity_alone a;
	struct ht_error err;

	ck_assert_int_eq(verity_image_alone(sys, NULL, &a, &err), 0);
	ck_assert_str_eq(a.container, "avb");
	ck_assert_int_eq(a.walk, VERITY_ALONE_PAIR);
	ck_assert_int_eq(verity_image_alone(boot, NULL, &a, &err), 0);
	ck_assert_str_eq(a.container, "avb");
	ck_assert_int_eq(a.walk, VERITY_ALONE_SET);
	ck_assert_int_eq(verity_image_alone(boot, "avb", &a, &err), 0);
	ck_assert_int_eq(a.walk, VERITY_ALONE_SET);
	ck_assert_int_eq(verity_image_alone(raw, NULL, &a, &err), 0);
	ck_assert_str_eq(a.container, "sidecar");
	ck_assert_int_eq(a.walk, VERITY_ALONE_SIDECAR);
}
END_TEST

START_TEST(refused)
{
	struct verity_alone a;
	struct ht_error err;
	char gone[160];

	ck_assert_int_eq(verity_image_alone(sys, "ddi", &a, &err), -EINVAL);
	/* sidecar files asked for: none beside it */
	ck_assert_int_eq(verity_image_alone(sys, "sidecar", &a, &err), -EINVAL);
	ck_assert_int_eq(verity_image_alone(raw, "avb", &a, &err), -EINVAL);
	ck_assert_int_eq(verity_image_alone(sys, "nosuch", &a, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "nosuch"));
	ck_assert_int_lt(
		verity_image_alone(amk_path(gone, "gone.img"), NULL, &a, &err),
		0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"alone",   0, asetup,
					    ateardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(walks, refused));
}
