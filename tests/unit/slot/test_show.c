/* verity/slot/show.c and avbtool.c on a firmware set made here
 * (tests/unit/android/avb_make.h): a top vbmeta signed by k chaining
 * system (a hashtree footer signed by k) and including boot's hash
 * descriptor. The items a walk is shown as: fastverity's verdict lines
 * and avbtool's, the bad block named, the errno of what was found, the
 * --json document whole and balanced, a visitor's stop handed back. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/slot/show.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], boot[160], top[160];
static uint8_t *blob;
static size_t blob_len;

/* What the visitor saw: stdout's text, stderr's, the document's depth
 * and members, where to stop. */
struct got {
	char out[8192], err[8192], keys[8192];
	int depth, max_depth, docs;
	size_t items, stop_at; /* 0: never */
};

static void add(char *to, const char *s)
{
	size_t n = strlen(to);

	snprintf(to + n, 8192 - n, "%s", s ? s : "(null)");
}

static int visit(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;

	if (g->stop_at && ++g->items == g->stop_at)
		return -ECANCELED;
	switch (it->kind) {
	case FV_ITEM_TEXT:
		add(g->out, it->text);
		break;
	case FV_ITEM_ERROR:
		add(g->err, it->text);
		break;
	case FV_ITEM_WARNING:
		add(g->err, "warning: ");
		add(g->err, it->text);
		add(g->err, "\n");
		break;
	case FV_ITEM_OBJECT:
	case FV_ITEM_ARRAY:
		if (!g->depth++)
			g->docs++;
		if (g->depth > g->max_depth)
			g->max_depth = g->depth;
		break;
	case FV_ITEM_END:
		ck_assert_int_gt(g->depth, 0);
		g->depth--;
		break;
	default:
		add(g->keys, it->key);
		add(g->keys, "=");
		add(g->keys, it->kind == FV_ITEM_STRING ? it->text : "#");
		add(g->keys, " ");
		break;
	}
	return 0;
}

static int judge(void *ctx, struct verity_android *a, enum verity_anchor anchor,
		 const char *key_path, const uint8_t *k, size_t len,
		 enum slot_judged *why, struct ht_error *err)
{
	(void)ctx;
	(void)key_path;
	*why = SLOT_JUDGED;
	if (anchor == VERITY_ANCHOR_KEY) {
		if (!verity_avb_vbmeta_has_key(&a->img.vbmeta, k, len)) {
			*why = SLOT_OTHER_KEY;
			return ht_fail(err, EPERM, "%s: another key", a->path);
		}
		a->trust = VERITY_TRUST_CHECK;
	}
	return 0;
}

static void ssetup(void)
{
	struct avb_chain chain = {"system", 1, pub, 0};
	struct ht_error err;
	const char *inc[] = {boot};

	amk_dir("/tmp/fv-show-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_path(sys, "system.img");
	amk_path(boot, "boot.img");
	amk_path(top, "vbmeta.img");
	ck_assert_int_eq(verity_sigkey_file_blob(key, &blob, &blob_len, &err),
			 0);
	amk_data(sys, BLOCKS, 7);
	amk_data(boot, 2, 3);
	ck_assert_msg(amk_hashtree(sys, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hash(boot, "boot", NULL, 32 * AMK_BS, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_msg(amk_vbmeta(top, key, &chain, 1, inc, 1, "quiet", &err) ==
			      0,
		      "%s", ht_msg(&err));
}

static void steardown(void)
{
	free(blob);
	amk_rmdir();
}

/* The set shown in how's words (json: the document): the show's
 * return, what was seen in *g. */
static int shown(enum slot_words how, int json, unsigned flags, struct got *g)
{
	struct verity_run run = {.ht = {.threads = 1}};
	struct slot_ask a = {0};
	struct slot_walk w;
	struct show sh = {visit, g, json, 0};
	struct ht_error err;
	int r;

	a.image = top;
	a.kind = "avb";
	a.key = key;
	a.key_blob = blob;
	a.key_len = blob_len;
	a.flags = SLOT_CHECK | SLOT_FOLLOW | flags;
	a.threads = 1;
	a.run = &run;
	a.judge = judge;
	memset(&w, 0, sizeof(w));
	r = verity_slot_show(&w, &a, &run, how, &sh, &err);
	verity_slot_walk_free(&w);
	return r;
}

START_TEST(set_holds)
{
	struct got g = {0};
	char want[1024];

	ck_assert_int_eq(shown(SLOT_WORDS_SET, 0, 0, &g), 0);
	snprintf(want, sizeof(want),
		 "system: hashtree of %s, vbmeta %s signed by the key %s "
		 "pins: verified.\n",
		 sys, sys, top);
	ck_assert_msg(strstr(g.out, want), "%s", g.out);
	snprintf(want, sizeof(want),
		 "boot: hash of %s, vbmeta %s signed by %s: verified.\n", boot,
		 top, key);
	ck_assert_msg(strstr(g.out, want), "%s", g.out);
	ck_assert_str_eq(g.err, "");
	ck_assert_int_eq(g.docs, 0);
}
END_TEST

START_TEST(set_bad)
{
	uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct got g = {0};
	char want[1024];

	amk_poke(sys, 3 * AMK_BS, junk, sizeof(junk));
	/* a check failed: EPERM, the block named by its partition */
	ck_assert_int_eq(shown(SLOT_WORDS_SET, 0, 0, &g), EPERM);
	snprintf(want, sizeof(want),
		 "Verification failed at position %u (partition system, "
		 "%s).\n",
		 3 * AMK_BS, sys);
	ck_assert_msg(strstr(g.err, want), "%s", g.err);
	ck_assert_msg(strstr(g.err, "Verification of data area failed: 1 bad "
				    "data block, 0 bad hash blocks"),
		      "%s", g.err);
	ck_assert_msg(strstr(g.out, ": FAILED: 1 bad data block.\n"), "%s",
		      g.out);
	/* --json: one document, balanced, the failure inside it */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(shown(SLOT_WORDS_SET, 1, 0, &g), EPERM);
	ck_assert_str_eq(g.out, "");
	ck_assert_int_eq(g.docs, 1);
	ck_assert_int_eq(g.depth, 0);
	/* the document, partitions, one, its failures, one failure */
	ck_assert_int_eq(g.max_depth, 5);
	ck_assert_msg(strstr(g.keys, "result=corrupted "), "%s", g.keys);
	ck_assert_msg(strstr(g.keys, "type=data position=# block=# "), "%s",
		      g.keys);
}
END_TEST

START_TEST(avbtool_words)
{
	uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct got g = {0};
	char want[1024];

	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_STOP, &g), 0);
	snprintf(want, sizeof(want), "Verifying image %s using key at %s\n",
		 top, key);
	ck_assert_msg(!strncmp(g.out, want, strlen(want)), "%s", g.out);
	ck_assert_msg(strstr(g.out, "boot: Successfully verified sha256 hash "
				    "of "),
		      "%s", g.out);
	/* the first failure stops it, said as avbtool says it */
	amk_poke(sys, 3 * AMK_BS, junk, sizeof(junk));
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_STOP, &g), EPERM);
	snprintf(want, sizeof(want),
		 "Verification failed at position %u.\nhashtree of %s does "
		 "not match descriptor\n",
		 3 * AMK_BS, sys);
	ck_assert_msg(strstr(g.err, want), "%s", g.err);
	ck_assert_msg(strstr(g.err, ": Error verifying descriptor.\n"), "%s",
		      g.err);
	ck_assert_msg(!strstr(g.out, "boot:"), "%s", g.out);
}
END_TEST

START_TEST(visitor_stops)
{
	struct got g = {0};

	/* the visitor's own return, as it is, nothing handed on after */
	g.stop_at = 2;
	ck_assert_int_eq(shown(SLOT_WORDS_SET, 1, 0, &g), -ECANCELED);
	ck_assert_uint_eq(g.items, 2);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"show",    0, ssetup,
					    steardown, 0, NULL};

	return run_unit(&u, UNIT_TESTS(set_holds, set_bad, avbtool_words,
				       visitor_stops));
}
