/* verity/image/avbdump.c on Android images made here by the library's
 * writers (tests/unit/android/avb_make.h): dump's text of a signed
 * hashtree footer (the pair's lines, the descriptor's, the vbmeta's),
 * its --json items, a hash footer's descriptor, and what has no pair to
 * dump (a vbmeta image, a file that is not an Android image): an error,
 * no item. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/image/avbdump.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], boot[160], vb[160], junk[160];

struct got {
	char text[8192];
	size_t len, items, opened, closed;
	char keys[4096]; /* "key=value;" of strings, uints, bools, nulls */
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	size_t at = strlen(g->keys);
	const char *k = it->key ? it->key : "";

	g->items++;
	switch (it->kind) {
	case FV_ITEM_TEXT:
		ck_assert_uint_lt(g->len + it->u, sizeof(g->text));
		memcpy(g->text + g->len, it->text, it->u);
		g->len += it->u;
		g->text[g->len] = '\0';
		break;
	case FV_ITEM_OBJECT:
	case FV_ITEM_ARRAY:
		g->opened++;
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s{", k);
		break;
	case FV_ITEM_END:
		g->closed++;
		snprintf(g->keys + at, sizeof(g->keys) - at, "}");
		break;
	case FV_ITEM_STRING:
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s=%s;", k,
			 it->text);
		break;
	case FV_ITEM_UINT:
	case FV_ITEM_BOOL:
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s=%llu;", k,
			 (unsigned long long)it->u);
		break;
	case FV_ITEM_NULL:
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s=null;", k);
		break;
	default:
		break;
	}
	return 0;
}

static int dump(const char *image, int json, struct got *g)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_DUMP,
				    .image = image,
				    .json = json};
	struct show sh = {collect, g, json, 0};
	struct ht_error err;

	memset(g, 0, sizeof(*g));
	return verity_image_avb_dump(&q, &sh, &err);
}

static void dsetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-avbdump-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_path(sys, "system.img");
	amk_path(boot, "boot.img");
	amk_path(vb, "vbmeta.img");
	amk_path(junk, "junk.img");
	amk_data(sys, BLOCKS, 7);
	amk_data(boot, 4, 3);
	amk_data(junk, 4, 5);
	ck_assert_msg(amk_hashtree(sys, "system", key, 1, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hash(boot, "boot", NULL, 64 * AMK_BS, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_msg(amk_vbmeta(vb, key, NULL, 0, (const char *[]){sys}, 1,
				 NULL, &err) == 0,
		      "%s", ht_msg(&err));
}

static void dteardown(void)
{
	amk_rmdir();
}

START_TEST(tree)
{
	static struct got g;
	char want[512];

	ck_assert_int_eq(dump(sys, 0, &g), 0);
	/* the header (verity/show/pair.c), then the Android lines */
	ck_assert_uint_eq(g.items, 2);
	snprintf(want, sizeof(want),
		 "VERITY header information for %s\n"
		 "UUID:            \t-\n"
		 "Hash type:       \t1\n"
		 "Data blocks:     \t32\n",
		 sys);
	ck_assert_int_eq(strncmp(g.text, want, strlen(want)), 0);
	ck_assert_ptr_nonnull(strstr(g.text, "FEC RS roots:   \t2\n"));
	ck_assert_ptr_nonnull(strstr(g.text, "Root hash:      \t"));
	ck_assert_ptr_nonnull(strstr(g.text, "Android image:   \tpartition "
					     "system, data 131072 bytes, "
					     "tree at "));
	ck_assert_ptr_nonnull(strstr(g.text, "Android parity:  \t2 roots at "));
	ck_assert_ptr_null(strstr(g.text, "the kernel cannot use"));
	ck_assert_ptr_nonnull(strstr(g.text, "Vbmeta:          \tMLDSA65"));
	ck_assert_ptr_nonnull(strstr(g.text, ", key sha1 "));
	/* --json: the pair's members, then android's */
	ck_assert_int_eq(dump(sys, 1, &g), 0);
	ck_assert_uint_eq(g.len, 0);
	ck_assert_uint_eq(g.opened, g.closed);
	snprintf(want, sizeof(want),
		 "{device=%s;uuid=null;superblock=0;hash_type=1;"
		 "data_blocks=32;data_block_size=4096;",
		 sys);
	ck_assert_ptr_eq(strstr(g.keys, want), g.keys);
	ck_assert_ptr_nonnull(strstr(g.keys, "fec{roots=2;"));
	ck_assert_ptr_nonnull(strstr(g.keys, "android{partition_name=system;"
					     "image_size=131072;"));
	ck_assert_ptr_nonnull(strstr(g.keys, "fec_usable_by_kernel=1;"));
	ck_assert_str_eq(g.keys + strlen(g.keys) - 2, "}}");
}
END_TEST

START_TEST(hash)
{
	static struct got g;
	char want[512];

	ck_assert_int_eq(dump(boot, 0, &g), 0);
	ck_assert_ptr_eq(strstr(g.text, "Android image:   \tpartition boot, "
					"data 16384 bytes, hash footer: "
					"sha256 digest "),
			 g.text);
	ck_assert_ptr_nonnull(strstr(g.text, "\nVbmeta:          \tNONE, "
					     "rollback index 0, release '"));
	ck_assert_int_eq(dump(boot, 1, &g), 0);
	snprintf(want, sizeof(want),
		 "{image=%s;container=avb;partitions{{name=boot;"
		 "descriptor=hash;path=%s;android{partition_name=boot;",
		 boot, boot);
	ck_assert_ptr_eq(strstr(g.keys, want), g.keys);
	ck_assert_ptr_nonnull(strstr(g.keys, "public_key_sha1=null;"));
	ck_assert_str_eq(g.keys + strlen(g.keys) - 4, "}}}}");
}
END_TEST

START_TEST(nothing_to_dump)
{
	static struct got g;

	ck_assert_int_eq(dump(vb, 0, &g), -EINVAL);
	ck_assert_uint_eq(g.items, 0);
	ck_assert_int_lt(dump(junk, 1, &g), 0);
	ck_assert_int_lt(dump("/nonexistent/x.img", 0, &g), 0);
	ck_assert_uint_eq(g.items, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"avbdump", 0, dsetup,
					    dteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(tree, hash, nothing_to_dump));
}
