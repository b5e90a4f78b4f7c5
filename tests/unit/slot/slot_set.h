/* The firmware set tests/unit/slot's show suites share (test_show.c,
 * test_avbtool.c), made by the library's writers (android/avb_make.h): a
 * top vbmeta signed by k that chains system (a hashtree footer signed by
 * k) and includes boot's hash descriptor, made in a directory of
 * SLOT_SET_DIR's template (defined before this is included); a visitor
 * that keeps what it saw; the door's judge of the top. */
#ifndef FV_TEST_SLOT_SET_H
#define FV_TEST_SLOT_SET_H

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
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

	amk_dir(SLOT_SET_DIR);
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

#endif
