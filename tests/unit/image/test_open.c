/* verity/image/open.c on Android images written here: the request to
 * show refused with a stray member or another container, an image read
 * for showing (its vbmeta, no pair), and an opened image's pairs judged
 * (against a key; certificates refused for a signed image; each pair's
 * parameters and the parity a request gives kept), and what an action
 * cannot do with an Android image (a hash footer: dump alone). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/image/open.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], unsig[160], boot[160];

static void osetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-open-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_data(amk_path(sys, "system.img"), BLOCKS, 7);
	amk_data(amk_path(unsig, "vendor.img"), BLOCKS, 9);
	ck_assert_msg(amk_hashtree(sys, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hashtree(unsig, "vendor", NULL, 0, &err) == 0, "%s",
		      ht_msg(&err));
	amk_data(amk_path(boot, "boot.img"), 2, 3);
	ck_assert_msg(amk_hash(boot, "boot", key, 32 * AMK_BS, &err) == 0, "%s",
		      ht_msg(&err));
}

static void oteardown(void)
{
	amk_rmdir();
}

START_TEST(shown)
{
	fv_options o = {.size = sizeof(o)};
	struct fv_open_request q = {.size = sizeof(q), .image = sys, .show = 1};
	struct ht_error err;
	fv_image *img = NULL;

	/* another container, a member that is not the image, no image */
	q.container = "ddi";
	ck_assert_int_eq(verity_image_open_shown(&q, &o, &img, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not ddi"));
	q.container = NULL;
	q.fec_path = "x.fec";
	ck_assert_int_eq(verity_image_open_shown(&q, &o, &img, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "(fec_path given)"));
	q.fec_path = NULL;
	o.key = "k.pem";
	ck_assert_int_eq(verity_image_open_shown(&q, &o, &img, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "the options' key"));
	o.key = NULL;
	q.image = NULL;
	ck_assert_int_eq(verity_image_open_shown(&q, &o, &img, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "(no image given)"));
	ck_assert_ptr_null(img);

	/* read, not judged: the vbmeta, no pair */
	q.image = sys;
	ck_assert_msg(verity_image_open_shown(&q, &o, &img, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(img->in.kind, VERITY_CONTAINER_AVB);
	ck_assert_ptr_nonnull(img->in.av);
	ck_assert_uint_eq(img->in.n, 0);
	verity_image_free(img);

	/* not an Android image */
	q.image = pub;
	img = NULL;
	ck_assert_int_lt(verity_image_open_shown(&q, &o, &img, &err), 0);
	ck_assert_ptr_null(img);
	verity_image_free(NULL);
}
END_TEST

/* An image of path, read by its container as fv_open has it read. */
static fv_image *read_avb(const char *path)
{
	struct ht_error err;
	fv_image *img = calloc(1, sizeof(*img));

	ck_assert_ptr_nonnull(img);
	ck_assert_ptr_nonnull(img->in.path = strdup(path));
	img->in.kind = VERITY_CONTAINER_AVB;
	ck_assert_ptr_nonnull(img->in.pairs =
				      calloc(1, sizeof(*img->in.pairs)));
	ck_assert_msg(verity_image_avb(&img->in, &err) == 0, "%s",
		      ht_msg(&err));
	return img;
}

START_TEST(opened)
{
	const char *certs[] = {"a.crt", "b.crt"};
	fv_options o = {.size = sizeof(o)};
	struct fv_open_request q = {.size = sizeof(q), .image = sys};
	struct ht_error err;
	fv_image *img;

	ck_assert_int_eq(verity_image_anchor_of(&o), VERITY_ANCHOR_NONE);
	o.trusted_certs = certs;
	o.ntrusted_certs = 2;
	ck_assert_int_eq(verity_image_anchor_of(&o), VERITY_ANCHOR_CERT);
	o.key = pub;
	ck_assert_int_eq(verity_image_anchor_of(&o), VERITY_ANCHOR_KEY);
	o.key = NULL;

	/* judged against the key; the parity the request gives kept (a
	 * copy) for a pair the image's container made */
	img = read_avb(sys);
	o.trusted_certs = NULL;
	o.ntrusted_certs = 0;
	o.key = pub;
	q.fec_path = "other.fec";
	q.writes = 1;
	ck_assert_msg(verity_image_opened(img, &q, &o, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(img->writes, 1);
	ck_assert_uint_eq(img->in.n, 1);
	ck_assert_int_eq(img->in.pairs[0].trust, VERITY_TRUST_CHECK);
	ck_assert_ptr_nonnull(img->params);
	ck_assert_uint_eq(img->params[0].size, sizeof(img->params[0]));
	ck_assert_uint_eq(img->params[0].data_block_size, AMK_BS);
	ck_assert_str_eq(img->fec_path, "other.fec");
	ck_assert_ptr_ne(img->fec_path, q.fec_path);
	verity_image_free(img);

	/* a signed image and certificates: refused (the policy's words) */
	img = read_avb(sys);
	o.key = NULL;
	o.trusted_certs = certs;
	o.ntrusted_certs = 2;
	q.writes = 0;
	ck_assert_int_lt(verity_image_opened(img, &q, &o, &err), 0);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "public key"));
	verity_image_free(img);

	/* the unsigned image, read with no anchor */
	img = read_avb(unsig);
	o.trusted_certs = NULL;
	o.ntrusted_certs = 0;
	q.fec_path = NULL;
	ck_assert_msg(verity_image_opened(img, &q, &o, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(img->ncerts, 0);
	ck_assert_int_eq(img->writes, 0);
	verity_image_free(img);
}
END_TEST

START_TEST(acts)
{
	struct fv_open_request q = {.size = sizeof(q), .image = boot};
	struct ht_error err;
	fv_image *img = read_avb(boot);

	/* no action named: nothing refused */
	ck_assert_int_eq(verity_image_acts(img, &q, &err), 0);
	/* a hash footer: dump shows it, the others have no tree */
	q.action = "dump";
	ck_assert_int_eq(verity_image_acts(img, &q, &err), 0);
	q.action = "repair";
	ck_assert_int_eq(verity_image_acts(img, &q, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(
		ht_msg(&err), "no hashtree descriptor, no tree to repair"));
	verity_image_free(img);
	/* a hashtree footer: a pair for every action */
	img = read_avb(sys);
	q.image = sys;
	ck_assert_int_eq(verity_image_acts(img, &q, &err), 0);
	q.action = "open";
	ck_assert_int_eq(verity_image_acts(img, &q, &err), 0);
	verity_image_free(img);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"open",    0, osetup,
					    oteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(shown, opened, acts));
}
