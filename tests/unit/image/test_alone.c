/* verity/image/alone.c: what an image given alone to verify is and its
 * walk: an Android image with a hashtree footer is a pair, one with a
 * hash footer a firmware set's top, bytes no container reads a sidecar
 * image; a container named that the image is not, refused; an image
 * that is not there, refused as the registry refuses it; the request
 * each walk makes, for verify and for dump, and the anchor kept apart
 * from the run. */
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

START_TEST(requests)
{
	const char *certs[1] = {"c.pem"}, *sys_certs[1] = {"/etc/x.crt"};
	fv_options given = {.size = sizeof(given), .key = "k.pem"}, o, run;
	struct fv_slot_request set = {.size = sizeof(set), .slot = "b"};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_VERIFY,
				    .image = "x.img",
				    .o = &given,
				    .dir = "/tmp",
				    .certs = sys_certs,
				    .ncerts = 1,
				    .partition = "root"},
			       w;
	struct verity_alone a = {"ota", VERITY_ALONE_OTA};
	struct ht_error err;

	/* an OTA package: its key the images' AVB key, not an anchor */
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_OTA_VERIFY);
	ck_assert_str_eq(w.key, "k.pem");
	ck_assert_ptr_null(o.key);
	ck_assert_str_eq(w.dir, "/tmp");
	q.what = FV_SHOW_PAIR;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_OTA_INFO);
	ck_assert_ptr_null(w.o);
	/* a disk image: the certificates trusted with no anchor given */
	a = (struct verity_alone){"ddi", VERITY_ALONE_DDI};
	q.what = FV_SHOW_VERIFY;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_DDI_VERIFY);
	ck_assert_str_eq(w.partition, "root");
	ck_assert_ptr_eq(o.trusted_certs, sys_certs);
	given.trusted_certs = certs;
	given.ntrusted_certs = 1;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_ptr_eq(o.trusted_certs, certs);
	given.trusted_certs = NULL;
	given.ntrusted_certs = 0;
	/* a set: the request's set, its anchor none of the options' */
	a = (struct verity_alone){"super", VERITY_ALONE_SET};
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err),
			 -EINVAL);
	q.set = &set;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_SET_VERIFY);
	ck_assert_ptr_null(o.key);
	/* dump of a super image: its metadata, slot b's alone */
	q.what = FV_SHOW_PAIR;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_SUPER);
	ck_assert_uint_eq(w.slot, 1);
	ck_assert_int_eq(w.all, 0);
	/* an Android image: dumped; its pair verified */
	a = (struct verity_alone){"avb", VERITY_ALONE_PAIR};
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_AVB_DUMP);
	q.what = FV_SHOW_VERIFY;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_VERIFY);
	ck_assert_str_eq(o.key, "k.pem");
	/* dump of an image with sidecar files: its tree, found
	 * (verity_image_alone_takes: the open's data), the image named
	 * when it is not the tree; none found: refused */
	a = (struct verity_alone){"sidecar", VERITY_ALONE_SIDECAR};
	q.what = FV_SHOW_PAIR;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err),
			 -EINVAL);
	q.open = &(struct fv_open_request){
		.size = sizeof(struct fv_open_request), .data = "x.verity"};
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_PAIR);
	ck_assert_str_eq(w.image, "x.img");
	ck_assert_ptr_null(w.o);
	q.open = &(struct fv_open_request){
		.size = sizeof(struct fv_open_request), .data = q.image};
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_ptr_null(w.image);
	q.open = NULL;
	/* open: a pair (a disk image's judged with the certificates trusted
	 * with no anchor); an OTA package or a sidecar image none */
	q.what = FV_SHOW_OPEN;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "to open"));
	a = (struct verity_alone){"ddi", VERITY_ALONE_DDI};
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_OPEN);
	ck_assert_ptr_eq(o.trusted_certs, sys_certs);
	q.what = FV_SHOW_REPAIR;
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err), 0);
	ck_assert_int_eq(w.what, FV_SHOW_REPAIR);
	ck_assert_ptr_null(o.trusted_certs);
	a = (struct verity_alone){"super", VERITY_ALONE_SET};
	ck_assert_int_eq(verity_image_alone_request(&q, &a, &w, &o, &err),
			 -EINVAL);
	/* the anchor apart from the run */
	verity_image_alone_anchor(&given, &o, &run);
	ck_assert_str_eq(o.key, "k.pem");
	ck_assert_ptr_null(run.key);
	verity_image_alone_anchor(NULL, &o, NULL);
	ck_assert_ptr_null(o.key);
	ck_assert_uint_eq(o.size, sizeof(o));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"alone",   0, asetup,
					    ateardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(walks, refused, requests));
}
