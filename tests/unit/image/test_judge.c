/* verity/image/judge.c: the trust policy asked once for each pair an
 * open judges: a plain or sidecar pair's verdict kept on the image's
 * pair and on the caller's own, its refusals naming the signature file
 * or the data (the caller's names) or the image; the first refusal ends
 * the judging; an Android image's vbmeta (made here, signed by an
 * ML-DSA key) judged against the key given: its signer's, another's, no
 * key, the wrong kind of anchor, a key file that cannot be read. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/image/judge.h"

static char key[160], pub[160], key2[160], pub2[160], img_path[160];
static struct verity_android *av;

static void jsetup(void)
{
	struct ht_error err = {0};

	amk_dir("/tmp/fv-judge-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_key(amk_path(key2, "k2.pem"), amk_path(pub2, "k2.avbpubkey"));
	amk_path(img_path, "system.img");
	amk_data(img_path, 16, 5);
	ck_assert_msg(amk_hashtree(img_path, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(verity_android_read(img_path, NULL, 0, &av, &err) == 0,
		      "%s", ht_msg(&err));
}

static void jteardown(void)
{
	verity_android_free(av);
	amk_rmdir();
}

static void image_of(struct verity_image *img, struct verity_image_pair *ps,
		     size_t n, enum verity_container kind)
{
	memset(img, 0, sizeof(*img));
	memset(ps, 0, n * sizeof(*ps));
	img->path = (char *)"disk.img";
	img->kind = kind;
	img->pairs = ps;
	img->n = n;
}

START_TEST(plain_pairs)
{
	static struct verity_image_pair ps[2];
	static struct verity_held own;
	struct verity_image img;
	struct verity_image_ask ask = {VERITY_ANCHOR_NONE, NULL, 0, 0};
	struct ht_error err = {0};

	/* unsigned, read: judged on the pair and on own */
	image_of(&img, ps, 1, VERITY_CONTAINER_PLAIN);
	memset(&own, 0, sizeof(own));
	own.data = (char *)"data.img";
	own.signature_name = (char *)"root.p7s";
	ck_assert_int_eq(verity_image_judge(&img, &own, &ask, &err), 0);
	ck_assert_int_eq(ps[0].trust, VERITY_TRUST_UNSIGNED);
	ck_assert_int_eq(ps[0].pair.judged, 1);
	ck_assert_int_eq(ps[0].pair.trust, VERITY_TRUST_UNSIGNED);
	ck_assert_int_eq(own.pair.judged, 1);
	/* a sidecar signature found, read without an anchor: unchecked */
	image_of(&img, ps, 1, VERITY_CONTAINER_SIDECAR);
	ps[0].from = VERITY_SIGNATURE_FOUND;
	ck_assert_int_eq(verity_image_judge(&img, &own, &ask, &err), 0);
	ck_assert_int_eq(ps[0].trust, VERITY_TRUST_UNCHECKED);
	ck_assert_int_eq(own.pair.trust, VERITY_TRUST_UNCHECKED);
	/* ... written: refused, naming the signature file */
	ask.writes = 1;
	ck_assert_int_eq(verity_image_judge(&img, &own, &ask, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "root.p7s: "));
	ck_assert_int_eq(err.param, HT_PARAM_TRUSTED_CERT);
	/* ... with a certificate: checked */
	ask.anchor = VERITY_ANCHOR_CERT;
	ck_assert_int_eq(verity_image_judge(&img, &own, &ask, &err), 0);
	ck_assert_int_eq(ps[0].trust, VERITY_TRUST_CHECK);
	/* an anchor for an unsigned pair: EPERM naming the data */
	ps[0].from = VERITY_SIGNATURE_NONE;
	ck_assert_int_eq(verity_image_judge(&img, &own, &ask, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "data.img: "));
	/* no own pair: the image named */
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "disk.img: "));
	/* the wrong kind of anchor */
	ask.anchor = VERITY_ANCHOR_KEY;
	ask.writes = 0;
	ps[0].from = VERITY_SIGNATURE_FOUND;
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), -EINVAL);
	/* two pairs, the first refused: the second never judged */
	image_of(&img, ps, 2, VERITY_CONTAINER_DDI);
	ps[0].from = VERITY_SIGNATURE_NONE;
	ask.anchor = VERITY_ANCHOR_CERT;
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), -EPERM);
	ck_assert_int_eq(ps[0].pair.judged, 1);
	ck_assert_int_eq(ps[1].pair.judged, 0);
	/* both signed: both judged */
	ps[0].from = ps[1].from = VERITY_SIGNATURE_FOUND;
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), 0);
	ck_assert_int_eq(ps[1].pair.judged, 1);
	ck_assert_int_eq(ps[1].trust, VERITY_TRUST_CHECK);
	/* no pairs: nothing judged */
	memset(ps, 0, sizeof(ps));
	image_of(&img, ps, 0, VERITY_CONTAINER_PLAIN);
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), 0);
	ck_assert_int_eq(ps[0].pair.judged, 0);
}
END_TEST

START_TEST(avb_verdicts)
{
	struct ht_error err = {0};
	enum verity_avb_judgement why;
	uint8_t *blob, *blob2;
	size_t len, len2;
	char want[400];

	ck_assert_int_eq(verity_sigkey_file_blob(key, &blob, &len, &err), 0);
	ck_assert_int_eq(verity_sigkey_file_blob(key2, &blob2, &len2, &err), 0);
	/* its signer's key */
	ck_assert_msg(verity_image_avb_verdict(av, VERITY_ANCHOR_KEY, pub, blob,
					       len, 0, &why, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(why, VERITY_AVB_JUDGED);
	ck_assert_int_eq(av->trust, VERITY_TRUST_CHECK);
	/* another's: EPERM, the signer's key SHA-1 and the key file said */
	ck_assert_int_eq(verity_image_avb_verdict(av, VERITY_ANCHOR_KEY, pub2,
						  blob2, len2, 0, &why, &err),
			 -EPERM);
	ck_assert_int_eq(why, VERITY_AVB_OTHER_KEY);
	snprintf(want, sizeof(want),
		 "%s: the vbmeta is signed by another key (public key sha1 "
		 "%s), not by %s",
		 av->path, av->key_sha1, pub2);
	ck_assert_str_eq(ht_msg(&err), want);
	/* a blob cut short is not the key */
	ck_assert_int_eq(verity_image_avb_verdict(av, VERITY_ANCHOR_KEY, NULL,
						  blob, len - 1, 0, &why, &err),
			 -EPERM);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not by the key given"));
	/* an anchor and no key */
	ck_assert_int_eq(verity_image_avb_verdict(av, VERITY_ANCHOR_KEY, NULL,
						  NULL, 0, 0, &why, &err),
			 -EPERM);
	ck_assert_int_eq(why, VERITY_AVB_OTHER_KEY);
	/* the wrong kind of anchor: the policy's refusal */
	ck_assert_int_eq(verity_image_avb_verdict(av, VERITY_ANCHOR_CERT, NULL,
						  NULL, 0, 0, &why, &err),
			 -EINVAL);
	ck_assert_int_eq(why, VERITY_AVB_REFUSED);
	/* no anchor: read unchecked, written refused */
	ck_assert_int_eq(verity_image_avb_verdict(av, VERITY_ANCHOR_NONE, NULL,
						  NULL, 0, 0, &why, &err),
			 0);
	ck_assert_int_eq(av->trust, VERITY_TRUST_UNCHECKED);
	ck_assert_int_eq(verity_image_avb_verdict(av, VERITY_ANCHOR_NONE, NULL,
						  NULL, 0, 1, &why, &err),
			 -EINVAL);
	ck_assert_int_eq(why, VERITY_AVB_REFUSED);
	free(blob);
	free(blob2);
}
END_TEST

/* An image whose pair is the Android image's: the key file read once,
 * the verdict on the pair; a key file that cannot be read said first. */
START_TEST(avb_image)
{
	static struct verity_image_pair ps[1];
	struct verity_image img;
	struct verity_image_ask ask = {VERITY_ANCHOR_KEY, NULL, 0, 0};
	struct ht_error err = {0};

	image_of(&img, ps, 1, VERITY_CONTAINER_AVB);
	ps[0].avb = av;
	ask.key = key;
	ck_assert_msg(verity_image_judge(&img, NULL, &ask, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(ps[0].trust, VERITY_TRUST_CHECK);
	ck_assert_int_eq(ps[0].pair.judged, 1);
	ask.key = key2;
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), -EPERM);
	ask.key = "/nonexistent/key.pem";
	ps[0].pair.judged = 0;
	ck_assert_int_lt(verity_image_judge(&img, NULL, &ask, &err), 0);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "/nonexistent/key.pem"));
	ck_assert_int_eq(ps[0].pair.judged, 0);
	/* an Android image with no pair (n 0, img->av): its vbmeta judged */
	image_of(&img, ps, 0, VERITY_CONTAINER_AVB);
	img.av = av;
	ps[0].avb = av;
	ask.key = key;
	ck_assert_int_eq(verity_image_judge(&img, NULL, &ask, &err), 0);
	ck_assert_int_eq(ps[0].pair.judged, 1);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"judge",   0, jsetup,
					    jteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(plain_pairs, avb_verdicts, avb_image));
}
