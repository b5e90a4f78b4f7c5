/* verity/slot/run.c on a firmware set made here by the library's writers
 * (tests/unit/android/avb_make.h): a top vbmeta signed by k that chains
 * system (a hashtree footer signed by k) and includes boot's hash. A
 * request's slot and lists checked; the set walked for the public API
 * with the top judged by the trust policy (the key given its signer, or
 * refused); each step told to the caller, a hashtree step's verify kept
 * as an fv_result; the handle's facts and steps as fv_slot_info and
 * fv_slot_step show them; the walk an OTA's set uses (run_top): every
 * step good, a damaged partition's message, another key refused. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/slot/run.h"

#define BLOCKS 32u

static char key[160], pub[160], other[160], opub[160], sys[160], boot[160],
	top[160];

static void rsetup(void)
{
	struct avb_chain chain = {"system", 1, pub, 0};
	struct ht_error err;

	amk_dir("/tmp/fv-run-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_key(amk_path(other, "o.pem"), amk_path(opub, "o.avbpubkey"));
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

static void rteardown(void)
{
	amk_rmdir();
}

static unsigned begun, ended;

static void told(void *ctx, const fv_slot *s, size_t i, int done)
{
	(void)ctx;
	ck_assert_uint_lt(i, s->w.n);
	if (done)
		ended++;
	else
		begun++;
}

START_TEST(request_checked)
{
	struct fv_slot_request q = {.size = sizeof(q), .image = "x.img"};
	struct ht_error err;

	ck_assert_int_eq(verity_slot_request_check(&q, &err), 0);
	q.slot = "c";
	ck_assert_int_eq(verity_slot_request_check(&q, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "x.img: slot 'c' is not a or b");
	q.slot = "b";
	q.nexpected = 1;
	ck_assert_int_eq(verity_slot_request_check(&q, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_slot_verify: expected is NULL");
	q.nexpected = 0;
	q.npartitions = 2;
	ck_assert_int_eq(verity_slot_request_check(&q, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_slot_verify: partitions is NULL");
}
END_TEST

START_TEST(set_walked)
{
	struct fv_slot_request q = {.size = sizeof(q),
				    .image = top,
				    .key = key,
				    .flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW};
	fv_options o = {.size = sizeof(o), .threads = 1};
	fv_slot *s = calloc(1, sizeof(*s));
	struct fv_slot_info in;
	struct fv_slot_step st;
	struct ht_error err;
	size_t results = 0;

	ck_assert_ptr_nonnull(s);
	s->fn = told;
	begun = ended = 0;
	ck_assert_msg(verity_slot_run(&q, &o, s, 0, NULL, &err) == 0, "%s",
		      ht_msg(&err));
	verity_slot_run_info(s, &in);
	/* the top, its chain, system's vbmeta and tree, the command line,
	 * boot's hash */
	ck_assert_uint_eq(in.steps, 6);
	ck_assert_uint_eq(begun, 6);
	ck_assert_uint_eq(ended, 6);
	ck_assert_ptr_null(in.super);
	verity_slot_run_step(s, 0, &st);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.path, top);
	ck_assert_str_eq(st.message, "");
	for (size_t i = 0; i < in.steps; i++) {
		verity_slot_run_step(s, i, &st);
		ck_assert_int_eq(st.result, FV_SLOT_OK);
		/* a verify kept for the hashtree step alone */
		if (st.result_of) {
			ck_assert_int_eq(st.kind, FV_SLOT_HASHTREE);
			results++;
		}
	}
	ck_assert_uint_eq(results, 1);
	verity_slot_run_free(s);
	verity_slot_run_free(NULL);
}
END_TEST

/* The top signed by another key than the one given: refused by the
 * policy before any partition is read. */
START_TEST(top_judged)
{
	struct fv_slot_request q = {.size = sizeof(q),
				    .image = top,
				    .key = other,
				    .flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW};
	fv_options o = {.size = sizeof(o), .threads = 1};
	fv_slot *s = calloc(1, sizeof(*s));
	struct fv_slot_step st;
	struct ht_error err;
	int r;

	ck_assert_ptr_nonnull(s);
	r = verity_slot_run(&q, &o, s, 0, NULL, &err);
	/* said as the top step's failure, the walk stopped there */
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(s->w.n, 1);
	verity_slot_run_step(s, 0, &st);
	ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_OTHER_KEY);
	ck_assert_ptr_nonnull(strstr(st.message, "signed by another key"));
	verity_slot_run_free(s);
	/* a key file that is no key: refused before the walk */
	s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	q.key = boot;
	ck_assert_int_lt(verity_slot_run(&q, &o, s, 0, NULL, &err), 0);
	ck_assert_uint_eq(s->w.n, 0);
	verity_slot_run_free(s);
}
END_TEST

/* The walk an OTA package's set takes: every step good; a bad byte in
 * system's data named by its step's message; another key refused. */
START_TEST(top_run)
{
	char why[512];

	ck_assert_int_eq(verity_slot_run_top(top, key, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	amk_poke(sys, 5 * AMK_BS + 9, "\xff", 1);
	ck_assert_int_eq(verity_slot_run_top(top, key, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(why, "system.img: the data does not "
					  "match the descriptor's root"));
	ck_assert_int_eq(verity_slot_run_top(top, other, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(why, "signed by another key"));
	/* no such top: the walk's error and its message */
	ck_assert_int_lt(verity_slot_run_top("/nonexistent/vbmeta.img", key,
					     why, sizeof(why)),
			 0);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent/vbmeta.img"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "slot_run",
					    .timeout = 60,
					    .setup = rsetup,
					    .teardown = rteardown};

	return run_unit(&u, UNIT_TESTS(request_checked, set_walked, top_judged,
				       top_run));
}
