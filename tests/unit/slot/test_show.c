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

#include "check_main.h"

#define SLOT_SET_DIR "/tmp/fv-show-XXXXXX"
#include "slot_set.h"

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
