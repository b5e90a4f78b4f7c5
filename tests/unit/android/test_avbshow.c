/* verity/android/avbshow.c on Android images made here by the library's
 * writers (tests/unit/android/avb_make.h): info_image's text of a
 * hashtree footer, a hash footer and a vbmeta image, its --json items
 * (nested and closed, the footer's or null), the visitor's return
 * handed back, and a file that is not an Android image (no items). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/android/avbshow.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], boot[160], vb[160], junk[160];

/* What a visitor was handed: the text, the items, the JSON nesting. */
struct got {
	char text[16384];
	size_t len, items, opened, closed;
	int depth, deepest, stop; /* stop: the return after that item */
	char keys[4096];          /* "key=value;" of the strings and uints */
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	size_t at = strlen(g->keys);

	g->items++;
	switch (it->kind) {
	case FV_ITEM_TEXT:
		ck_assert_uint_eq(it->u, strlen(it->text));
		ck_assert_uint_lt(g->len + it->u, sizeof(g->text));
		memcpy(g->text + g->len, it->text, it->u);
		g->len += it->u;
		g->text[g->len] = '\0';
		break;
	case FV_ITEM_OBJECT:
	case FV_ITEM_ARRAY:
		g->opened++;
		if (++g->depth > g->deepest)
			g->deepest = g->depth;
		break;
	case FV_ITEM_END:
		g->closed++;
		g->depth--;
		break;
	case FV_ITEM_STRING:
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s=%s;",
			 it->key ? it->key : "", it->text);
		break;
	case FV_ITEM_UINT:
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s=%llu;",
			 it->key ? it->key : "", (unsigned long long)it->u);
		break;
	case FV_ITEM_NULL:
		snprintf(g->keys + at, sizeof(g->keys) - at, "%s=null;",
			 it->key ? it->key : "");
		break;
	default:
		break;
	}
	return g->stop && g->items == (size_t)g->stop ? 7 : 0;
}

/* info_image of image (json or text) into g: fv_show's return. */
static int info(const char *image, int json, struct got *g)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_INFO,
				    .image = image,
				    .json = json};
	struct show sh = {collect, g, json, 0};
	struct ht_error err;
	int r = verity_android_avb_show(&q, &sh, &err);

	ck_assert_msg(r >= 0 || r == -ENOMEM || *ht_msg(&err), "no message");
	return r;
}

static void isetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-avbshow-XXXXXX");
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
				 "quiet", &err) == 0,
		      "%s", ht_msg(&err));
}

static void iteardown(void)
{
	amk_rmdir();
}

START_TEST(text)
{
	static struct got g;
	struct stat st;
	char line[128];

	/* a signed hashtree footer: one text item, avbtool's lines */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(info(sys, 0, &g), 0);
	ck_assert_uint_eq(g.items, 1);
	ck_assert_int_eq(stat(sys, &st), 0);
	snprintf(line, sizeof(line), "Image size:               %llu bytes\n",
		 (unsigned long long)st.st_size);
	ck_assert_ptr_eq(strstr(g.text, "Footer version:           1."),
			 g.text);
	ck_assert_ptr_nonnull(strstr(g.text, line));
	ck_assert_ptr_nonnull(strstr(g.text, "\n--\nMinimum libavb version:"));
	ck_assert_ptr_nonnull(strstr(g.text, "Header Block:             256 "
					     "bytes\n"));
	ck_assert_ptr_nonnull(strstr(g.text, "Public key (sha1):        "));
	ck_assert_ptr_nonnull(strstr(g.text, "    Hashtree descriptor:\n"));
	ck_assert_ptr_nonnull(
		strstr(g.text, "      Partition Name:        system\n"));
	ck_assert_ptr_nonnull(
		strstr(g.text, "      FEC num roots:         2\n"));
	ck_assert_int_eq(g.text[g.len - 1], '\n');
	/* an unsigned hash footer: no key line, the hash descriptor */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(info(boot, 0, &g), 0);
	ck_assert_ptr_null(strstr(g.text, "Public key (sha1)"));
	ck_assert_ptr_nonnull(
		strstr(g.text, "Algorithm:                NONE\n"));
	ck_assert_ptr_nonnull(strstr(g.text, "    Hash descriptor:\n"));
	ck_assert_ptr_nonnull(
		strstr(g.text, "      Partition Name:        boot\n"));
	/* a vbmeta image: no footer; the included descriptor and the
	 * command line */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(info(vb, 0, &g), 0);
	ck_assert_ptr_eq(strstr(g.text, "Minimum libavb version:   1."),
			 g.text);
	ck_assert_ptr_nonnull(strstr(g.text, "    Hashtree descriptor:\n"));
	ck_assert_ptr_nonnull(strstr(g.text, "    Kernel Cmdline descriptor:\n"
					     "      Flags:                 0\n"
					     "      Kernel Cmdline:        "
					     "'quiet'\n"));
}
END_TEST

START_TEST(json)
{
	static struct got g;
	struct stat st;
	char want[256];

	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(info(sys, 1, &g), 0);
	ck_assert_uint_eq(g.len, 0);
	ck_assert_uint_eq(g.opened, g.closed);
	ck_assert_int_eq(g.depth, 0);
	ck_assert_int_eq(g.deepest, 3); /* document, descriptors, one */
	ck_assert_int_eq(stat(sys, &st), 0);
	snprintf(want, sizeof(want), "image=%s;image_size=%llu;version=1.", sys,
		 (unsigned long long)st.st_size);
	ck_assert_ptr_eq(strstr(g.keys, want), g.keys);
	ck_assert_ptr_nonnull(strstr(g.keys, "type=hashtree;partition_name="
					     "system;"));
	ck_assert_ptr_nonnull(strstr(g.keys, "fec_num_roots=2;"));
	ck_assert_ptr_null(strstr(g.keys, "=null;"));
	/* a vbmeta image: its file's size, the footer null, no key is
	 * null too when unsigned */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(info(vb, 1, &g), 0);
	ck_assert_int_eq(stat(vb, &st), 0);
	snprintf(want, sizeof(want), "image=%s;image_size=%llu;footer=null;", vb,
		 (unsigned long long)st.st_size);
	ck_assert_ptr_eq(strstr(g.keys, want), g.keys);
	ck_assert_ptr_nonnull(strstr(g.keys, "type=kernel_cmdline;flags=0;"
					     "kernel_cmdline=quiet;"));
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(info(boot, 1, &g), 0);
	ck_assert_ptr_nonnull(strstr(g.keys, "public_key_sha1=null;"
					     "algorithm=NONE;"));
	ck_assert_ptr_nonnull(strstr(g.keys, "type=hash;partition_name="
					     "boot;"));
}
END_TEST

START_TEST(stops_and_fails)
{
	static struct got g;

	/* the visitor's return: handed back, nothing after it */
	memset(&g, 0, sizeof(g));
	g.stop = 3;
	ck_assert_int_eq(info(sys, 1, &g), 7);
	ck_assert_uint_eq(g.items, 3);
	memset(&g, 0, sizeof(g));
	g.stop = 1;
	ck_assert_int_eq(info(sys, 0, &g), 7);
	/* not an Android image, no file: an error, no item */
	memset(&g, 0, sizeof(g));
	ck_assert_int_lt(info(junk, 0, &g), 0);
	ck_assert_int_lt(info("/nonexistent/x.img", 1, &g), 0);
	ck_assert_uint_eq(g.items, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"avbshow", 0, isetup,
					    iteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(text, json, stops_and_fails));
}
