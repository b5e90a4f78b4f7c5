/* verity/slot/avbtool.c: avbtool's verify_image as it says a walk of a
 * set made here (tests/unit/android/avb_make.h: a top vbmeta signed by
 * k chaining system, a hashtree footer signed by k, and including boot's
 * hash descriptor): its lines whole, chains followed; --json one
 * document, balanced, with each partition's result; chains against the
 * expected (rollback index location, key blob, none given) in avbtool's
 * words; a hash that does not match said and the descriptor's error. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"

#define SLOT_SET_DIR "/tmp/fv-avbtool-XXXXXX"
#include "slot_set.h"

/* The set shown in how's words (json: the document): the show's
 * return, what was seen in *g. */
static const struct slot_expected *exp_;
static size_t nexp_;

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
	a.flags = SLOT_CHECK | flags;
	a.expected = exp_;
	a.nexpected = nexp_;
	a.threads = 1;
	a.run = &run;
	a.judge = judge;
	memset(&w, 0, sizeof(w));
	r = verity_slot_show(&w, &a, &run, how, &sh, &err);
	verity_slot_walk_free(&w);
	return r;
}

START_TEST(followed)
{
	struct got g = {0};
	char want[4096];

	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_FOLLOW, &g), 0);
	snprintf(
		want, sizeof(want),
		"Verifying image %s using key at %s\n"
		"vbmeta: Successfully verified MLDSA65 vbmeta struct in %s\n"
		"system: Chained but ROLLBACK_SLOT (which is 1) and KEY (which "
		"has sha1 ",
		top, key, top);
	ck_assert_msg(!strncmp(g.out, want, strlen(want)), "%s", g.out);
	snprintf(
		want, sizeof(want),
		") not specified\n--\n"
		"Verifying image %s using key at %s\n"
		"vbmeta: Successfully verified footer and MLDSA65 vbmeta "
		"struct in %s\n"
		"system: Successfully verified sha256 hashtree of %s for image "
		"of %u bytes\n"
		"boot: Successfully verified sha256 hash of %s for image of %u "
		"bytes\n",
		sys, key, sys, sys, BLOCKS * AMK_BS, boot, 2 * AMK_BS);
	ck_assert_msg(strstr(g.out, want), "%s", g.out);
	ck_assert_str_eq(g.err, "");
	ck_assert_int_eq(g.docs, 0);
}
END_TEST

START_TEST(json)
{
	struct got g = {0};

	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 1, SLOT_FOLLOW, &g), 0);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
	ck_assert_int_eq(g.docs, 1);
	ck_assert_int_eq(g.depth, 0);
	ck_assert_msg(strstr(g.keys, "container=avb result=ok name=system "
				     "descriptor=hashtree "),
		      "%s", g.keys);
	ck_assert_msg(strstr(g.keys, "name=boot descriptor=hash "), "%s",
		      g.keys);
	ck_assert_ptr_null(strstr(g.keys, "corrupted"));
}
END_TEST

/* Chains against what is expected of them, not followed. */
START_TEST(expected)
{
	struct got g = {0};
	struct slot_expected e = {"system", 1, NULL, 0};
	uint8_t *other = malloc(blob_len);

	e.public_key = blob;
	e.public_key_len = blob_len;
	exp_ = &e;
	nexp_ = 1;
	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_EXPECTED, &g), 0);
	ck_assert_msg(strstr(g.out, "system: Successfully verified chain "
				    "partition descriptor matches expected "
				    "data\n"),
		      "%s", g.out);
	ck_assert_ptr_null(strstr(g.out, "--\n"));
	/* another rollback index location */
	e.rollback_index_location = 2;
	memset(&g, 0, sizeof(g));
	ck_assert_int_gt(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_EXPECTED, &g), 0);
	ck_assert_msg(strstr(g.err, "Expected rollback_index_location 2 does "
				    "not match 1 in descriptor for partition "
				    "system\n"),
		      "%s", g.err);
	/* another key blob */
	e.rollback_index_location = 1;
	memcpy(other, blob, blob_len);
	other[blob_len - 1] ^= 1;
	e.public_key = other;
	memset(&g, 0, sizeof(g));
	ck_assert_int_gt(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_EXPECTED, &g), 0);
	ck_assert_msg(strstr(g.err, "Expected public key blob does not match "
				    "public key blob in descriptor for "
				    "partition system\n"),
		      "%s", g.err);
	/* nothing expected of it */
	e.name = "vendor";
	memset(&g, 0, sizeof(g));
	ck_assert_int_gt(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_EXPECTED, &g), 0);
	ck_assert_msg(strstr(g.err, "No expected chain partition for "
				    "partition system. Use "
				    "--expected_chain_partition to specify "
				    "expected contents or "
				    "--follow_chain_partitions.\n"),
		      "%s", g.err);
	exp_ = NULL;
	nexp_ = 0;
	free(other);
}
END_TEST

START_TEST(hash_mismatch)
{
	uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct got g = {0};
	char want[1024];

	amk_poke(boot, 5, junk, sizeof(junk));
	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 0, SLOT_FOLLOW, &g), EPERM);
	snprintf(want, sizeof(want),
		 "sha256 digest of %s does not match digest in descriptor\n",
		 boot);
	ck_assert_msg(strstr(g.err, want), "%s", g.err);
	snprintf(want, sizeof(want), "%s: Error verifying descriptor.\n", top);
	ck_assert_msg(strstr(g.err, want), "%s", g.err);
	ck_assert_ptr_null(strstr(g.out, "boot: Successfully"));
	/* --json: boot's result corrupted, the document whole */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(shown(SLOT_WORDS_AVBTOOL, 1, SLOT_FOLLOW, &g), EPERM);
	ck_assert_int_eq(g.docs, 1);
	ck_assert_int_eq(g.depth, 0);
	ck_assert_msg(strstr(g.keys, "result=corrupted "), "%s", g.keys);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"avbtool", 0, ssetup,
					    steardown, 0, NULL};

	return run_unit(&u,
			UNIT_TESTS(followed, json, expected, hash_mismatch));
}
