/* verity/android/write.c: the libavb minor version a vbmeta or a footer
 * needs (avbtool's rule: a footer's flags 1.1, a rollback index
 * location 1.2, a chain without A/B 1.3, a vbmeta image's included
 * images counted), new ML-DSA keys (never over a file, RSA refused),
 * and a key's AVB public key blob's SHA-256. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/tree/params.h"

static void wsetup(void)
{
	amk_dir("/tmp/fv-write-XXXXXX");
}

static void wteardown(void)
{
	amk_rmdir();
}

START_TEST(required_minor)
{
	struct avb_vbmeta_opts vb = {0};
	struct avb_footer_opts f = {0};
	struct avb_chain chain = {"system", 1, "x.avbpubkey", 0};
	const char *includes[1];
	struct ht_error err;
	unsigned minor = 99;
	char img[160], top[160], key[160], pub[160];

	ck_assert_int_eq(verity_android_required_minor(&vb, NULL, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 0);
	ck_assert_int_eq(verity_android_required_minor(&vb, &f, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 0);
	/* a footer's flags or persistent digest: 1.1 (a vbmeta image's
	 * none) */
	f.descriptor_flags = 1;
	ck_assert_int_eq(verity_android_required_minor(&vb, &f, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 1);
	f.descriptor_flags = 0;
	f.persistent_digest = 1;
	ck_assert_int_eq(verity_android_required_minor(&vb, &f, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 1);
	/* a rollback index location: 1.2, over the footer's */
	vb.rollback_index_location = 1;
	ck_assert_int_eq(verity_android_required_minor(&vb, &f, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 2);
	/* a chain without A/B: 1.3; one with: nothing more */
	vb.chains = &chain;
	vb.nchains = 1;
	ck_assert_int_eq(verity_android_required_minor(&vb, &f, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 2);
	chain.flags = AVB_CHAIN_DO_NOT_USE_AB;
	ck_assert_int_eq(verity_android_required_minor(&vb, NULL, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 3);

	/* a vbmeta image's included images count: one that needs 1.3 makes
	 * the image need it too; in a footer they are not read */
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	chain.key_path = pub;
	{
		struct avb_vbmeta_opts inc = amk_vb(key);
		struct avb_image r;

		inc.chains = &chain;
		inc.nchains = 1;
		inc.required_minor = 3;
		ck_assert_msg(verity_avb_make_vbmeta_image(amk_path(img, "i.img"),
							   &inc, 0, &err) == 0,
			      "%s", ht_msg(&err));
		ck_assert_int_eq(verity_avb_image_read(img, &r, &err), 0);
		ck_assert_uint_eq(r.vbmeta.h.required_minor, 3);
		verity_avb_image_free(&r);
	}
	memset(&vb, 0, sizeof(vb));
	includes[0] = img;
	vb.includes = includes;
	vb.nincludes = 1;
	ck_assert_int_eq(verity_android_required_minor(&vb, NULL, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 3);
	f.persistent_digest = 0;
	ck_assert_int_eq(verity_android_required_minor(&vb, &f, &minor, &err),
			 0);
	ck_assert_uint_eq(minor, 0);
	/* an included image that cannot be read */
	includes[0] = amk_path(top, "none.img");
	ck_assert_int_lt(verity_android_required_minor(&vb, NULL, &minor, &err),
			 0);
	includes[0] = pub; /* not an Android image */
	ck_assert_int_lt(verity_android_required_minor(&vb, NULL, &minor, &err),
			 0);
}
END_TEST

START_TEST(keys_made)
{
	struct ht_error err;
	struct stat st;
	char k65[160], k87[160], p[160];

	ck_assert_msg(verity_android_key_generate("MLDSA65",
						  amk_path(k65, "k65.pem"),
						  &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(stat(k65, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0600); /* private */
	ck_assert_int_eq(verity_android_key_generate(
				 "MLDSA87", amk_path(k87, "k87.pem"), &err),
			 0);
	/* never over a file, nor through a link */
	ck_assert_int_eq(verity_android_key_generate("MLDSA87", k65, &err),
			 -EEXIST);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "exists"));
	ck_assert_int_eq(symlink("nowhere", amk_path(p, "link")), 0);
	ck_assert_int_eq(verity_android_key_generate("MLDSA65", p, &err),
			 -EEXIST);
	/* RSA, an unknown name, NONE: refused, nothing written */
	ck_assert_int_eq(verity_android_key_generate(
				 "SHA256_RSA2048", amk_path(p, "rsa.pem"),
				 &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "openssl genpkey"));
	ck_assert_int_ne(access(p, F_OK), 0);
	ck_assert_int_eq(verity_android_key_generate("MLDSA99", p, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_android_key_generate("NONE", p, &err), -EINVAL);
	ck_assert_int_ne(access(p, F_OK), 0);
	/* in a directory that is not there */
	ck_assert_int_lt(verity_android_key_generate(
				 "MLDSA65", amk_path(p, "no/k.pem"), &err),
			 0);
}
END_TEST

START_TEST(key_digests)
{
	char key[160], pub[160], other[160], hex[65], hex2[65], want[65];
	struct ht_error err;
	uint8_t *blob, d[32];
	size_t len;

	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	ck_assert_msg(verity_android_key_digest(key, hex, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(strlen(hex), 64);
	/* the SHA-256 of the key's blob, whether given the private key or
	 * its public blob */
	blob = amk_read(pub, &len);
	amk_sha256(blob, len, d);
	free(blob);
	verity_hex_encode(d, 32, want);
	ck_assert_str_eq(hex, want);
	ck_assert_int_eq(verity_android_key_digest(pub, hex2, &err), 0);
	ck_assert_str_eq(hex2, want);
	/* another key, another digest */
	amk_key(amk_path(other, "o.pem"), amk_path(pub, "o.avbpubkey"));
	ck_assert_int_eq(verity_android_key_digest(other, hex2, &err), 0);
	ck_assert_str_ne(hex2, hex);
	/* not a key, missing: "" and an error */
	amk_data(amk_path(other, "junk"), 1, 3);
	ck_assert_int_lt(verity_android_key_digest(other, hex, &err), 0);
	ck_assert_str_eq(hex, "");
	ck_assert_int_lt(
		verity_android_key_digest(amk_path(other, "none"), hex, &err),
		0);
	ck_assert_str_eq(hex, "");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"write", 0, wsetup, wteardown, 0,
					    NULL};

	return run_unit(&u, UNIT_TESTS(required_minor, keys_made, key_digests));
}
