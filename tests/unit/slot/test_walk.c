/* verity/slot/walk.c on firmware sets made here by the library's
 * writers (tests/unit/android/avb_make.h; no avbtool): a top vbmeta
 * signed by k that chains system (a hashtree footer signed by k, its
 * key pinned), includes boot's hash descriptor (an unsigned hash
 * footer) and a command line. The walk's steps in order, read or
 * checked; chains followed or not, compared with what is expected; the
 * top judged by the caller (another key, the policy's refusal); a
 * chained vbmeta signed by another key or unsigned; damaged data, a
 * changed or missing partition, a zeroed tree; stopping at the first
 * failure; a partition described twice; a super image's partitions by
 * slot; asks that are refused. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/slot/walk.h"

#define BLOCKS 32u

static char key[160], pub[160], other[160], opub[160], sys[160], boot[160],
	top[160];
static uint8_t *blob;
static size_t blob_len;

/* What the caller's judge and told saw, and what judge answers. */
struct seen {
	unsigned judged, begun, ended;
	int refuse; /* the policy refuses */
	enum verity_anchor anchor;
};

static struct seen seen;
static const struct verity_run run = {.ht = {.threads = 1}};

/* The door's part, as verity/api/slot.c plays it: a key given must be
 * the top's signer (checked then), else it is signed by another; with
 * no anchor the vbmeta stays as read. */
static int judge(void *ctx, struct verity_android *a, enum verity_anchor anchor,
		 const char *key_path, const uint8_t *k, size_t len,
		 enum slot_judged *why, struct ht_error *err)
{
	struct seen *s = ctx;

	(void)key_path;
	s->judged++;
	s->anchor = anchor;
	*why = SLOT_JUDGED;
	if (s->refuse) {
		*why = SLOT_REFUSED_BY_POLICY;
		return ht_fail(err, EPERM, "%s: refused by the policy",
			       a->path);
	}
	if (anchor == VERITY_ANCHOR_KEY) {
		if (!verity_avb_vbmeta_has_key(&a->img.vbmeta, k, len)) {
			*why = SLOT_OTHER_KEY;
			return ht_fail(err, EPERM, "%s: another key", a->path);
		}
		a->trust = VERITY_TRUST_CHECK;
	}
	return 0;
}

static void told(void *ctx, const struct slot_walk *w, size_t i, int done)
{
	struct seen *s = ctx;

	ck_assert_uint_lt(i, w->n);
	if (done)
		s->ended++;
	else
		s->begun++;
}

/* The set: system and boot beside the top vbmeta. top_key signs the
 * top, sys_key system (NULL: unsigned). */
static void make_set(const char *top_key, const char *sys_key,
		     const char *const *includes, size_t ni)
{
	struct avb_chain chain = {"system", 1, pub, 0};
	struct ht_error err;

	amk_data(sys, BLOCKS, 7);
	amk_data(boot, 2, 3);
	ck_assert_msg(amk_hashtree(sys, "system", sys_key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hash(boot, "boot", NULL, 32 * AMK_BS, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_msg(amk_vbmeta(top, top_key, &chain, 1, includes, ni, "quiet",
				 &err) == 0,
		      "%s", ht_msg(&err));
}

static void wsetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-walk-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_key(amk_path(other, "o.pem"), amk_path(opub, "o.avbpubkey"));
	amk_path(sys, "system.img");
	amk_path(boot, "boot.img");
	amk_path(top, "vbmeta.img");
	ck_assert_int_eq(verity_sigkey_file_blob(key, &blob, &blob_len, &err),
			 0);
	make_set(key, key, (const char *[]){boot}, 1);
	memset(&seen, 0, sizeof(seen));
}

static void wteardown(void)
{
	free(blob);
	amk_rmdir();
}

/* An ask of the set with flags, the top's key k given. */
static struct slot_ask ask_of(unsigned flags)
{
	struct slot_ask a = {0};

	a.image = top;
	a.kind = "avb";
	a.key = key;
	a.key_blob = blob;
	a.key_len = blob_len;
	a.flags = flags;
	a.threads = 1;
	a.run = &run;
	a.judge = judge;
	a.told = told;
	a.ctx = &seen;
	return a;
}

/* Walks a into w: 0 or the walk's error. */
static int walk(struct slot_walk *w, const struct slot_ask *a)
{
	struct ht_error err;

	memset(w, 0, sizeof(*w));
	return verity_slot_walk(w, a, &err);
}

static void step_is(const struct slot_walk *w, size_t i, enum slot_kind kind,
		    enum slot_result result, enum slot_why why)
{
	ck_assert_uint_lt(i, w->n);
	ck_assert_msg(w->steps[i].kind == kind &&
			      w->steps[i].result == result &&
			      w->steps[i].why == why,
		      "step %zu: kind %d result %d why %d (%s); %d %d %d "
		      "wanted",
		      i, w->steps[i].kind, w->steps[i].result, w->steps[i].why,
		      w->steps[i].message ? w->steps[i].message : "",
		      kind, result, why);
}

START_TEST(set_checked)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;

	ck_assert_int_eq(walk(&w, &a), 0);
	/* the top, its chain, system's vbmeta and tree, the command line,
	 * boot's hash (avbtool's order: chains, command lines, included) */
	ck_assert_uint_eq(w.n, 6);
	step_is(&w, 0, SLOT_VBMETA, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 1, SLOT_CHAIN, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 2, SLOT_VBMETA, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 3, SLOT_HASHTREE, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 4, SLOT_CMDLINE, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 5, SLOT_HASH, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_uint_eq(seen.judged, 1); /* the top only: system's key is
					    * the pinned one */
	ck_assert_int_eq(seen.anchor, VERITY_ANCHOR_KEY);
	ck_assert_uint_eq(seen.begun, 6);
	ck_assert_uint_eq(seen.ended, 6);
	/* the top: checked against k; system: vouched for by its pin */
	ck_assert_int_eq(w.steps[0].trust, VERITY_TRUST_CHECK);
	ck_assert_str_eq(w.steps[0].signer, key);
	ck_assert_uint_eq(w.steps[0].parent, SIZE_MAX);
	ck_assert_uint_eq(w.steps[0].depth, 0);
	ck_assert_str_eq(w.steps[1].name, "system");
	ck_assert_str_eq(w.steps[1].path, sys);
	ck_assert_int_eq(w.steps[1].followed, 1);
	ck_assert_uint_eq(w.steps[1].parent, 0);
	ck_assert_uint_eq(w.steps[2].parent, 1);
	ck_assert_uint_eq(w.steps[2].depth, 1);
	ck_assert_int_eq(w.steps[2].trust, VERITY_TRUST_CHECK);
	ck_assert_str_eq(w.steps[2].signer, top);
	ck_assert_ptr_nonnull(w.steps[2].own);
	ck_assert_int_eq(w.steps[3].checked, 1);
	ck_assert_uint_eq(w.steps[3].root_size, 32);
	ck_assert_mem_eq(w.steps[3].root, w.steps[2].own->pair.root, 32);
	ck_assert(w.steps[3].out.res.root_matches);
	ck_assert_str_eq(w.steps[5].name, "boot");
	ck_assert_str_eq(w.steps[5].path, boot);
	ck_assert_uint_eq(w.steps[5].parent, 0);
	ck_assert_uint_eq(w.vbmetas, 2);
	ck_assert_uint_eq(w.checked, 2);
	ck_assert_str_eq(w.slot, "");
	verity_slot_walk_free(&w);
	ck_assert_uint_eq(w.n, 0);
	/* a slot named is said back */
	a.slot = "b";
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_str_eq(w.slot, "b");
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(set_read)
{
	struct slot_ask a = ask_of(SLOT_FOLLOW);
	struct slot_walk w;

	/* read, not checked: nobody judged, no tree verified */
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 6);
	for (size_t i = 0; i < w.n; i++)
		ck_assert_int_eq(w.steps[i].result, SLOT_OK);
	ck_assert_uint_eq(seen.judged, 0);
	ck_assert_int_eq(w.steps[3].checked, 0);
	ck_assert_uint_eq(w.checked, 0);
	verity_slot_walk_free(&w);
	/* chains not followed: the chain step, no vbmeta under it */
	a.flags = SLOT_CHECK;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 4);
	step_is(&w, 1, SLOT_CHAIN, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_int_eq(w.steps[1].followed, 0);
	step_is(&w, 2, SLOT_CMDLINE, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 3, SLOT_HASH, SLOT_OK, SLOT_WHY_NONE);
	verity_slot_walk_free(&w);
	/* no key: the top judged with no anchor, read as signed */
	a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	a.key = NULL;
	a.key_blob = NULL;
	a.key_len = 0;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_int_eq(seen.anchor, VERITY_ANCHOR_NONE);
	step_is(&w, 0, SLOT_VBMETA, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_int_eq(w.steps[0].trust, VERITY_TRUST_UNCHECKED);
	ck_assert_ptr_null(w.steps[0].signer);
	/* what a vbmeta vouched for by an unchecked one is */
	ck_assert_int_eq(w.steps[2].trust, VERITY_TRUST_UNCHECKED);
	verity_slot_walk_free(&w);
	a.certs = 1; /* certificates: the wrong anchor, the judge's call */
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_int_eq(seen.anchor, VERITY_ANCHOR_CERT);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(top_refused)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;
	uint8_t *ob;
	size_t olen;
	struct ht_error err;

	/* another key given: refused, nothing under it walked */
	ck_assert_int_eq(verity_sigkey_file_blob(other, &ob, &olen, &err), 0);
	a.key = other;
	a.key_blob = ob;
	a.key_len = olen;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 1);
	step_is(&w, 0, SLOT_VBMETA, SLOT_REFUSED, SLOT_WHY_OTHER_KEY);
	ck_assert_int_eq(w.steps[0].error, -EPERM);
	ck_assert_ptr_nonnull(strstr(w.steps[0].message, other));
	verity_slot_walk_free(&w);
	free(ob);
	/* the policy's refusal, its message kept */
	a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	seen.refuse = 1;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 1);
	step_is(&w, 0, SLOT_VBMETA, SLOT_REFUSED, SLOT_WHY_POLICY);
	ck_assert_ptr_nonnull(strstr(w.steps[0].message, "by the policy"));
	verity_slot_walk_free(&w);
	/* the top's signature broken: refused before the judge */
	seen.refuse = 0;
	seen.judged = 0;
	{
		struct verity_android *r;
		uint8_t *b;
		size_t n;

		ck_assert_int_eq(verity_android_read(top, NULL, 1, &r, &err),
				 0);
		b = amk_read(top, &n);
		b[256 + r->img.vbmeta.h.signature_offset] ^= 1;
		amk_write(top, b, n);
		free(b);
		verity_android_free(r);
	}
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 1);
	step_is(&w, 0, SLOT_VBMETA, SLOT_REFUSED, SLOT_WHY_SIGNATURE);
	ck_assert_uint_eq(seen.judged, 0);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(chained_refused)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;

	/* system signed by o, k pinned: refused, the walk goes on */
	make_set(key, other, (const char *[]){boot}, 1);
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 5);
	step_is(&w, 2, SLOT_VBMETA, SLOT_REFUSED, SLOT_WHY_PINNED_KEY);
	ck_assert_ptr_nonnull(strstr(w.steps[2].message, "another key"));
	step_is(&w, 3, SLOT_CMDLINE, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 4, SLOT_HASH, SLOT_OK, SLOT_WHY_NONE);
	verity_slot_walk_free(&w);
	/* with STOP: nothing after the refusal */
	a.flags |= SLOT_STOP;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 3);
	verity_slot_walk_free(&w);
	/* system unsigned, a key pinned for it */
	make_set(key, NULL, (const char *[]){boot}, 1);
	a.flags = SLOT_CHECK | SLOT_FOLLOW;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 2, SLOT_VBMETA, SLOT_REFUSED, SLOT_WHY_UNSIGNED_PIN);
	verity_slot_walk_free(&w);
	/* system missing: its vbmeta step says so */
	ck_assert_int_eq(unlink(sys), 0);
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_int_ne(w.steps[2].result, SLOT_OK);
	ck_assert_int_eq(w.steps[2].kind, SLOT_VBMETA);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(partitions_bad)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;
	uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};

	/* a block of system's data changed: its tree step is bad, the
	 * data's fault; boot's byte changed: its digest */
	amk_poke(sys, 3 * AMK_BS, junk, sizeof(junk));
	amk_poke(boot, 10, junk, sizeof(junk));
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 6);
	step_is(&w, 3, SLOT_HASHTREE, SLOT_BAD, SLOT_WHY_BLOCKS);
	ck_assert_int_eq(w.steps[3].checked, 1);
	ck_assert_uint_eq(w.steps[3].out.res.bad_data_blocks, 1);
	step_is(&w, 5, SLOT_HASH, SLOT_BAD, SLOT_WHY_DIGEST);
	verity_slot_walk_free(&w);
	/* STOP: the walk ends at the first */
	a.flags |= SLOT_STOP;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 4);
	verity_slot_walk_free(&w);
	/* boot missing */
	a.flags &= ~(unsigned)SLOT_STOP;
	ck_assert_int_eq(unlink(boot), 0);
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 5, SLOT_HASH, SLOT_MISSING, SLOT_WHY_NONE);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(tree_zeroed)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;
	struct ht_error err;
	uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};

	ck_assert_int_eq(verity_avb_zero_hashtree(sys, &err), 0);
	/* not accepted: the tree does not hold, the data is intact */
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 3, SLOT_HASHTREE, SLOT_BAD, SLOT_WHY_TREE);
	verity_slot_walk_free(&w);
	/* accepted: skipped, the data making the root */
	a.flags |= SLOT_ACCEPT_ZEROED;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 3, SLOT_HASHTREE, SLOT_SKIPPED, SLOT_WHY_ZEROED);
	ck_assert_int_eq(w.steps[3].checked, 0);
	verity_slot_walk_free(&w);
	/* and the data changed under it: bad */
	amk_poke(sys, 0, junk, sizeof(junk));
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 3, SLOT_HASHTREE, SLOT_BAD, SLOT_WHY_BLOCKS);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(expected_chains)
{
	struct slot_expected x = {"system", 1, blob, blob_len};
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_EXPECTED);
	struct slot_walk w;
	uint8_t *pb;
	size_t plen;

	/* compared, not followed */
	pb = amk_read(pub, &plen);
	x.public_key = pb;
	x.public_key_len = plen;
	a.expected = &x;
	a.nexpected = 1;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 1, SLOT_CHAIN, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_int_eq(w.steps[1].expected, 1);
	ck_assert_int_eq(w.steps[1].followed, 0);
	verity_slot_walk_free(&w);
	/* compared, then followed */
	a.flags |= SLOT_FOLLOW;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 6);
	ck_assert_int_eq(w.steps[1].followed, 1);
	verity_slot_walk_free(&w);
	/* another rollback index location, another key */
	x.rollback_index_location = 2;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 1, SLOT_CHAIN, SLOT_REFUSED, SLOT_WHY_LOCATION);
	ck_assert_int_eq(w.steps[1].followed, 0);
	verity_slot_walk_free(&w);
	x.rollback_index_location = 1;
	pb[plen - 1] ^= 1;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 1, SLOT_CHAIN, SLOT_REFUSED, SLOT_WHY_KEY_BLOB);
	verity_slot_walk_free(&w);
	x.public_key_len = plen - 1;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 1, SLOT_CHAIN, SLOT_REFUSED, SLOT_WHY_KEY_BLOB);
	verity_slot_walk_free(&w);
	/* nothing expected of it, not followed */
	x.name = "vendor";
	a.flags = SLOT_CHECK | SLOT_EXPECTED;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 1, SLOT_CHAIN, SLOT_REFUSED, SLOT_WHY_NOT_EXPECTED);
	verity_slot_walk_free(&w);
	free(pb);
}
END_TEST

START_TEST(described_twice)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;
	struct ht_error err;
	char boot2[160];

	/* the same partition's descriptor of one kind included twice is
	 * written once (avbtool keeps the last) */
	make_set(key, key, (const char *[]){boot, boot}, 2);
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 6);
	verity_slot_walk_free(&w);
	/* a hash and a hashtree descriptor of boot: refused as libavb
	 * refuses them, nothing under the top walked */
	amk_data(amk_path(boot2, "boot2.img"), 2, 5);
	ck_assert_int_eq(amk_hashtree(boot2, "boot", NULL, 0, &err), 0);
	make_set(key, key, (const char *[]){boot, boot2}, 2);
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 1);
	step_is(&w, 0, SLOT_VBMETA, SLOT_REFUSED, SLOT_WHY_DESCRIPTORS);
	ck_assert_ptr_nonnull(strstr(w.steps[0].message, "two descriptors"));
	/* its end told twice: OK (its signature holds, as avbtool says
	 * first), then refused (what it holds) */
	ck_assert_uint_eq(seen.begun, 6 + 1);
	ck_assert_uint_eq(seen.ended, 6 + 2);
	verity_slot_walk_free(&w);
	/* read, not checked: both read */
	a.flags = SLOT_FOLLOW;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 7);
	step_is(&w, 5, SLOT_HASH, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 6, SLOT_HASHTREE, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_str_eq(w.steps[5].name, "boot");
	ck_assert_str_eq(w.steps[6].name, "boot");
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(nested_chains)
{
	struct avb_chain sys_chain = {"system", 1, pub, 0},
			 chains[2] = {{"system", 1, pub, 0},
				      {"vbmeta_system", 2, pub, 0}};
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	struct slot_walk w;
	struct ht_error err;
	char vbs[160];

	/* the top chains system and vbmeta_system, which chains system
	 * again */
	ck_assert_int_eq(amk_vbmeta(amk_path(vbs, "vbmeta_system.img"), key,
				    &sys_chain, 1, NULL, 0, NULL, &err),
			 0);
	ck_assert_int_eq(amk_vbmeta(top, key, chains, 2, NULL, 0, NULL, &err),
			 0);
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 7);
	step_is(&w, 1, SLOT_CHAIN, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 3, SLOT_HASHTREE, SLOT_OK, SLOT_WHY_NONE);
	step_is(&w, 4, SLOT_CHAIN, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_str_eq(w.steps[4].name, "vbmeta_system");
	step_is(&w, 5, SLOT_VBMETA, SLOT_OK, SLOT_WHY_NONE);
	/* libavb follows chains from the top only */
	step_is(&w, 6, SLOT_CHAIN, SLOT_REFUSED, SLOT_WHY_NESTED);
	ck_assert_uint_eq(w.steps[6].depth, 1);
	ck_assert_uint_eq(w.steps[6].parent, 5);
	verity_slot_walk_free(&w);
	/* nested followed: system was visited already */
	a.flags |= SLOT_FOLLOW_NESTED;
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_uint_eq(w.n, 7);
	step_is(&w, 6, SLOT_CHAIN, SLOT_SKIPPED, SLOT_WHY_VISITED);
	ck_assert_int_eq(w.steps[6].followed, 0);
	verity_slot_walk_free(&w);
	/* read, not checked: a nested chain is only read */
	a.flags = SLOT_FOLLOW;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 6, SLOT_CHAIN, SLOT_OK, SLOT_WHY_NONE);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(super_set)
{
	struct slot_ask a = ask_of(SLOT_CHECK);
	const char *names[1];
	struct slot_walk w;
	struct ht_error err;
	char sup[160];
	uint8_t *b;
	size_t n;

	/* system_a: system.img, signed by k; system_b empty */
	b = amk_read(sys, &n);
	amk_super(amk_path(sup, "super.img"), b, n);
	free(b);
	a.image = sup;
	a.kind = "super";
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_str_eq(w.slot, "a");
	ck_assert_ptr_nonnull(w.super);
	ck_assert_uint_eq(w.n, 4);
	step_is(&w, 0, SLOT_PARTITION, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_str_eq(w.steps[0].name, "system_a");
	ck_assert_uint_eq(w.steps[0].bytes, n);
	ck_assert_uint_eq(w.steps[0].extents, 1);
	ck_assert_uint_eq(w.steps[0].partition, 0);
	step_is(&w, 1, SLOT_VBMETA, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_int_eq(w.steps[1].trust, VERITY_TRUST_CHECK);
	step_is(&w, 2, SLOT_HASHTREE, SLOT_OK, SLOT_WHY_NONE);
	ck_assert_int_eq(w.steps[2].checked, 1);
	ck_assert_int_eq(w.steps[2].out.trust, VERITY_TRUST_CHECK);
	step_is(&w, 3, SLOT_PARTITION, SLOT_SKIPPED, SLOT_WHY_EMPTY);
	verity_slot_walk_free(&w);
	/* "system" of slot b: empty, named with a key: refused */
	names[0] = "system";
	a.partitions = names;
	a.npartitions = 1;
	a.slot = "b";
	ck_assert_int_eq(walk(&w, &a), 0);
	ck_assert_str_eq(w.slot, "b");
	ck_assert_uint_eq(w.n, 1);
	step_is(&w, 0, SLOT_PARTITION, SLOT_REFUSED, SLOT_WHY_EMPTY);
	verity_slot_walk_free(&w);
	/* another slot's name, a partition that is not there */
	names[0] = "system_a";
	ck_assert_int_eq(verity_slot_walk(&w, &a, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "slot a's"));
	verity_slot_walk_free(&w);
	names[0] = "vendor";
	a.slot = NULL;
	ck_assert_int_eq(verity_slot_walk(&w, &a, &err), -ENOENT);
	verity_slot_walk_free(&w);
	names[0] = NULL;
	ck_assert_int_eq(verity_slot_walk(&w, &a, &err), -EINVAL);
	verity_slot_walk_free(&w);
	/* the data of system_a changed: bad, over its extents */
	{
		uint8_t junk[4] = {9, 9, 9, 9};

		amk_poke(sup, (1u << 20) + 5 * AMK_BS, junk, sizeof(junk));
	}
	a.npartitions = 0;
	a.partitions = NULL;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 2, SLOT_HASHTREE, SLOT_BAD, SLOT_WHY_BLOCKS);
	verity_slot_walk_free(&w);
	/* a partition that is no Android image: refused with a key,
	 * skipped without */
	b = calloc(1, 8 * AMK_BS);
	amk_super(sup, b, 8 * AMK_BS);
	free(b);
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 0, SLOT_PARTITION, SLOT_REFUSED, SLOT_WHY_NO_FOOTER);
	verity_slot_walk_free(&w);
	a.key = NULL;
	a.key_blob = NULL;
	a.key_len = 0;
	ck_assert_int_eq(walk(&w, &a), 0);
	step_is(&w, 0, SLOT_PARTITION, SLOT_SKIPPED, SLOT_WHY_NO_FOOTER);
	verity_slot_walk_free(&w);
	/* a file that is not a super image */
	a.image = sys;
	ck_assert_int_lt(verity_slot_walk(&w, &a, &err), 0);
	verity_slot_walk_free(&w);
}
END_TEST

START_TEST(asks_refused)
{
	struct slot_ask a = ask_of(SLOT_CHECK | SLOT_FOLLOW);
	const char *names[1] = {"system"};
	struct slot_walk w;
	struct ht_error err;
	char p[160];

	a.kind = "ddi";
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(verity_slot_walk(&w, &a, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not an Android firmware"));
	ck_assert_uint_eq(w.n, 0);
	verity_slot_walk_free(&w);
	a.kind = "avb";
	a.partitions = names;
	a.npartitions = 1;
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(verity_slot_walk(&w, &a, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "in a super image"));
	verity_slot_walk_free(&w);
	/* the top unreadable: the walk's error, no step */
	a.npartitions = 0;
	a.image = amk_path(p, "none.img");
	memset(&w, 0, sizeof(w));
	ck_assert_int_lt(verity_slot_walk(&w, &a, &err), 0);
	ck_assert_uint_eq(w.n, 0);
	verity_slot_walk_free(&w);
	amk_data(p, 1, 1);
	memset(&w, 0, sizeof(w));
	ck_assert_int_lt(verity_slot_walk(&w, &a, &err), 0);
	ck_assert_uint_eq(w.n, 0);
	verity_slot_walk_free(&w);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"walk", 0, wsetup, wteardown, 0,
					    NULL};

	return run_unit(&u, UNIT_TESTS(set_checked, set_read, top_refused,
				       chained_refused, partitions_bad,
				       tree_zeroed, expected_chains,
				       described_twice, nested_chains,
				       super_set,
				       asks_refused));
}
