/* verity/slot/digests.c on a firmware set made here by the library's
 * writers (tests/unit/android/avb_make.h): a top vbmeta that chains
 * system (a hashtree footer), includes boot's hash descriptor and a
 * command line. print_partition_digests' text and JSON,
 * calculate_kernel_cmdline's line, each one text item; a chained image
 * missing, an image that is not Android's: an error and no item. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/slot/digests.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], boot[160], top[160];

struct got {
	char text[8192];
	size_t len, items;
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;

	g->items++;
	ck_assert_int_eq(it->kind, FV_ITEM_TEXT);
	ck_assert_uint_lt(g->len + it->u, sizeof(g->text));
	memcpy(g->text + g->len, it->text, it->u);
	g->len += it->u;
	g->text[g->len] = '\0';
	return 0;
}

/* what of image (json, the tree disabled) into g: the return. */
static int show(enum fv_show_what what, const char *image, int json,
		int disabled, struct got *g)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .image = image,
				    .json = json,
				    .hashtree_disabled = disabled};
	struct show sh = {collect, g, json, 0};
	struct ht_error err;

	memset(g, 0, sizeof(*g));
	return verity_slot_digests(&q, &sh, &err);
}

static void ssetup(void)
{
	struct avb_chain chain = {"system", 1, pub, 0};
	struct ht_error err;

	amk_dir("/tmp/fv-slotshow-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_path(sys, "system.img");
	amk_path(boot, "boot.img");
	amk_path(top, "vbmeta.img");
	amk_data(sys, BLOCKS, 7);
	amk_data(boot, 2, 3);
	ck_assert_msg(amk_hashtree(sys, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hash(boot, "boot", NULL, 32 * AMK_BS, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_msg(amk_vbmeta(top, key, &chain, 1, (const char *[]){boot}, 1,
				 "quiet", &err) == 0,
		      "%s", ht_msg(&err));
}

static void steardown(void)
{
	amk_rmdir();
}

/* 1 when s holds a line "name: " and 64 hex digits. */
static int has_digest(const char *s, const char *name)
{
	char want[64];
	const char *at;

	snprintf(want, sizeof(want), "%s: ", name);
	if (!(at = strstr(s, want)))
		return 0;
	at += strlen(want);
	return strspn(at, "0123456789abcdef") == 64 && at[64] == '\n';
}

START_TEST(digests)
{
	static struct got g;
	const char *open = "{\n  \"partitions\": [\n    {\n      \"name\": \"";

	ck_assert_int_eq(show(FV_SHOW_AVB_DIGESTS, top, 0, 0, &g), 0);
	ck_assert_uint_eq(g.items, 1);
	ck_assert(has_digest(g.text, "system"));
	ck_assert(has_digest(g.text, "boot"));
	ck_assert_uint_eq(g.len, 2 * (64 + 1) + strlen("system: boot: "));
	/* json.dumps(..., indent=2)'s text, no newline at the end */
	ck_assert_int_eq(show(FV_SHOW_AVB_DIGESTS, top, 1, 0, &g), 0);
	ck_assert_uint_eq(g.items, 1);
	ck_assert_int_eq(strncmp(g.text, open, strlen(open)), 0);
	ck_assert_ptr_nonnull(strstr(g.text, "\"name\": \"system\",\n      "
					     "\"digest\": \""));
	ck_assert_ptr_nonnull(strstr(g.text, "    },\n    {\n"));
	ck_assert_str_eq(g.text + g.len - 6, "\n  ]\n}");
	/* an image alone: its own descriptor's digest */
	ck_assert_int_eq(show(FV_SHOW_AVB_DIGESTS, sys, 1, 0, &g), 0);
	ck_assert(strstr(g.text, "\"name\": \"system\"") != NULL);
}
END_TEST

START_TEST(cmdline)
{
	static struct got g;

	ck_assert_int_eq(show(FV_SHOW_AVB_CMDLINE, top, 0, 0, &g), 0);
	ck_assert_uint_eq(g.items, 1);
	ck_assert_str_eq(g.text, "quiet");
	ck_assert_int_eq(show(FV_SHOW_AVB_CMDLINE, top, 0, 1, &g), 0);
	ck_assert_str_eq(g.text, "quiet");
	/* none: an empty text */
	ck_assert_int_eq(show(FV_SHOW_AVB_CMDLINE, sys, 0, 0, &g), 0);
	ck_assert_uint_eq(g.len, 0);
}
END_TEST

START_TEST(fails)
{
	static struct got g;
	char moved[200];

	/* a chained image missing: the walk's step fails, nothing shown */
	snprintf(moved, sizeof(moved), "%s.away", sys);
	ck_assert_int_eq(rename(sys, moved), 0);
	ck_assert_int_lt(show(FV_SHOW_AVB_DIGESTS, top, 0, 0, &g), 0);
	ck_assert_uint_eq(g.items, 0);
	ck_assert_int_lt(show(FV_SHOW_AVB_CMDLINE, top, 0, 0, &g), 0);
	ck_assert_uint_eq(g.items, 0);
	ck_assert_int_eq(rename(moved, sys), 0);
	/* not an Android image */
	ck_assert_int_lt(show(FV_SHOW_AVB_DIGESTS, pub, 0, 0, &g), 0);
	ck_assert_int_lt(show(FV_SHOW_AVB_CMDLINE, "/nonexistent", 0, 0, &g),
			 0);
	ck_assert_uint_eq(g.items, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"slotshow", 0, ssetup,
					    steardown,  0, NULL};

	return run_unit(&u, UNIT_TESTS(digests, cmdline, fails));
}
