/* verity/slot/vbmeta_digest.c: avbtool's calculate_vbmeta_digest on a
 * set made here (a top vbmeta chaining system, whose footer carries its
 * own vbmeta, signed): the digest of the top blob then the chained
 * one's, as one message, in hex and a newline, one text item; sha512
 * asked; an unknown hash, a chained image missing, an image that is not
 * Android's refused with no item. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/android/android.h"
#include "verity/slot/vbmeta_digest.h"

static char key[160], pub[160], sys[160], top[160];

struct got {
	char text[512];
	size_t items;
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;

	g->items++;
	ck_assert_int_eq(it->kind, FV_ITEM_TEXT);
	ck_assert_uint_lt(it->u, sizeof(g->text));
	memcpy(g->text, it->text, it->u);
	g->text[it->u] = '\0';
	return 0;
}

static int digest(const char *image, const char *alg, struct got *g,
		  struct ht_error *err)
{
	const char *opts[2] = {"hash_algorithm", alg};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_VBMETA_DIGEST,
				    .image = image,
				    .options = opts,
				    .noptions = alg ? 1 : 0};
	struct show sh = {collect, g, 0, 0};

	memset(g, 0, sizeof(*g));
	return verity_slot_vbmeta_digest(&q, &sh, err);
}

static void vsetup(void)
{
	struct avb_chain chain = {"system", 1, pub, 0};
	struct ht_error err;

	amk_dir("/tmp/fv-vbdigest-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_path(sys, "system.img");
	amk_path(top, "vbmeta.img");
	amk_data(sys, 16, 7);
	ck_assert_msg(amk_hashtree(sys, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_vbmeta(top, key, &chain, 1, NULL, 0, NULL, &err) == 0,
		      "%s", ht_msg(&err));
}

static void vteardown(void)
{
	amk_rmdir();
}

/* The digest avbtool computes, by hand: alg over both blobs, in hex. */
static void expected(const char *alg, char *hex)
{
	struct verity_android *a, *b;
	struct ht_error err = {0};
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	uint8_t d[64];
	unsigned n = 0;

	ck_assert_int_eq(verity_android_read(top, NULL, 1, &a, &err), 0);
	ck_assert_int_eq(verity_android_read(sys, NULL, 1, &b, &err), 0);
	ck_assert_int_eq(EVP_DigestInit_ex(c, EVP_get_digestbyname(alg), NULL),
			 1);
	EVP_DigestUpdate(c, a->img.vbmeta.blob, a->img.vbmeta.size);
	EVP_DigestUpdate(c, b->img.vbmeta.blob, b->img.vbmeta.size);
	EVP_DigestFinal_ex(c, d, &n);
	EVP_MD_CTX_free(c);
	for (unsigned i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	strcpy(hex + 2 * n, "\n");
	verity_android_free(a);
	verity_android_free(b);
}

START_TEST(digests)
{
	static struct got g;
	struct ht_error err = {0};
	char want[200];

	expected("sha256", want);
	ck_assert_msg(digest(top, NULL, &g, &err) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(g.items, 1);
	ck_assert_str_eq(g.text, want);
	ck_assert_int_eq(digest(top, "sha256", &g, &err), 0);
	ck_assert_str_eq(g.text, want);
	expected("sha512", want);
	ck_assert_int_eq(digest(top, "sha512", &g, &err), 0);
	ck_assert_uint_eq(strlen(g.text), 129);
	ck_assert_str_eq(g.text, want);
}
END_TEST

START_TEST(refused)
{
	static struct got g;
	struct ht_error err = {0};
	char moved[200];
	const char *bad[2] = {"padding_size", "10"};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_VBMETA_DIGEST,
				    .image = top,
				    .options = bad,
				    .noptions = 1};
	struct show sh = {collect, &g, 0, 0};

	ck_assert_int_eq(digest(top, "md17", &g, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "hash algorithm 'md17' is not supported");
	ck_assert_uint_eq(g.items, 0);
	/* another command's option */
	ck_assert_int_eq(verity_slot_vbmeta_digest(&q, &sh, &err), -EINVAL);
	ck_assert_uint_eq(g.items, 0);
	/* the chained image missing: the walk's error, as avbtool stops */
	snprintf(moved, sizeof(moved), "%s.away", sys);
	ck_assert_int_eq(rename(sys, moved), 0);
	ck_assert_int_lt(digest(top, NULL, &g, &err), 0);
	ck_assert_uint_eq(g.items, 0);
	ck_assert_int_eq(rename(moved, sys), 0);
	/* not an Android image; not there */
	ck_assert_int_lt(digest(pub, NULL, &g, &err), 0);
	ck_assert_int_lt(digest("/nonexistent/vbmeta.img", NULL, &g, &err), 0);
	ck_assert_uint_eq(g.items, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"vbmeta_digest", 0, vsetup,
					    vteardown,       1, NULL};

	return run_unit(&u, UNIT_TESTS(digests, refused));
}
