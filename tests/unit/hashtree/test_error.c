/* Errors (hashtree/error.h): a small struct, the message kept once in
 * its thread's store, handed over from worker threads, the fix rendered
 * as before, and the public API's last error as before. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <check.h>

#include "check_main.h"

#include "hashtree/error.h"
#include "hashtree/thread.h"
#include "verity/api/internal.h"

/* The parameter this thread's last message's fix sets (the public
 * fv_last_error_say's). */
static enum fv_param last_param(void)
{
	struct fv_error_say s = {.size = sizeof(s)};

	fv_last_error_say(&s);
	return s.param;
}

_Static_assert(sizeof(struct ht_error) <= 512, "struct ht_error over 512");

/* A path of n bytes, its bytes from seed on. */
static void long_path(char *p, size_t n, char seed)
{
	p[0] = '/';
	for (size_t i = 1; i < n; i++)
		p[i] = (char)('a' + (seed + i) % 26);
	p[n] = '\0';
}

START_TEST(small_and_zero_means_none)
{
	struct ht_error e = {0};

	ck_assert_uint_le(sizeof(struct ht_error), 512);
	ck_assert_str_eq(ht_msg(&e), "");
	ck_assert_str_eq(ht_msg(NULL), "");
	ck_assert_int_eq(ht_fail(NULL, EIO, "nowhere"), -EIO);
	ck_assert_int_eq(ht_fail(&e, EIO, "disk %d: %s", 3, "gone"), -EIO);
	ck_assert_str_eq(ht_msg(&e), "disk 3: gone");
	ck_assert_uint_eq(e.problem_len, strlen("disk 3: gone"));
	ck_assert_int_eq(e.param, HT_PARAM_NONE);
}
END_TEST

START_TEST(long_messages_whole)
{
	static char a[4097], b[4097], c[4097], want[HT_ERROR_MAX + 64];
	struct ht_error e = {0};

	/* three paths of 4090 bytes: 12 KiB and more, whole */
	long_path(a, 4090, 0);
	long_path(b, 4090, 7);
	long_path(c, 4090, 13);
	ht_fail(&e, EINVAL, "%s -> %s -> %s", a, b, c);
	snprintf(want, sizeof(want), "%s -> %s -> %s", a, b, c);
	ck_assert_uint_eq(strlen(ht_msg(&e)), 3 * 4090 + 8);
	ck_assert_str_eq(ht_msg(&e), want);
	/* past HT_ERROR_MAX: cut there, as before */
	long_path(a, 4096, 1);
	ht_fail(&e, EINVAL, "%s%s%s%s", a, a, a, a);
	ck_assert_uint_eq(strlen(ht_msg(&e)), HT_ERROR_MAX - 1);
	ck_assert_uint_eq(e.problem_len, HT_ERROR_MAX - 1);
	/* a message made of itself, over and over */
	ht_fail(&e, EIO, "x");
	for (int i = 0; i < 3 * HT_ERROR_SLOTS; i++)
		ht_fail(&e, EIO, "%d: %s", i % 10, ht_msg(&e));
	ck_assert_str_eq(ht_msg(&e), "1: 0: 9: 8: 7: 6: 5: 4: 3: 2: 1: 0: x");
}
END_TEST

START_TEST(more_errors_than_slots)
{
	struct ht_error e[3 * HT_ERROR_SLOTS + 1];
	char want[32];

	memset(e, 0, sizeof(e));
	for (int i = 0; i <= 3 * HT_ERROR_SLOTS; i++)
		ht_fail(&e[i], EIO, "error %d", i);
	for (int i = 0; i <= 3 * HT_ERROR_SLOTS; i++) {
		snprintf(want, sizeof(want), "error %d", i);
		if (i > 2 * HT_ERROR_SLOTS) /* the last HT_ERROR_SLOTS */
			ck_assert_str_eq(ht_msg(&e[i]), want);
		else /* stale: said so, never another one's text */
			ck_assert_str_eq(ht_msg(&e[i]), HT_ERROR_LOST);
	}
	/* a copy of the struct reads the same; garbage reads as lost */
	{
		struct ht_error c = e[3 * HT_ERROR_SLOTS], g;

		ck_assert_str_eq(ht_msg(&c), ht_msg(&e[3 * HT_ERROR_SLOTS]));
		memset(&g, 0x5a, sizeof(g));
		ck_assert_str_eq(ht_msg(&g), HT_ERROR_LOST);
	}
}
END_TEST

START_TEST(kept_outlives_the_slots)
{
	static char a[4097], b[4097], c[4097], want[HT_ERROR_MAX + 64];
	struct ht_error e = {0}, kept = {0};

	ht_fail(&e, EACCES, "first");
	ht_keep(&kept, &e);
	for (int i = 0; i < 2 * HT_ERROR_SLOTS; i++)
		ht_fail(&e, EIO, "later %d", i);
	ck_assert_str_eq(ht_msg(&kept), "first");
	/* the public API's last error: whole, and kept through the
	 * library's other errors */
	long_path(a, 4000, 2);
	long_path(b, 4000, 3);
	long_path(c, 4000, 4);
	verity_api_fail(EINVAL, "%s, %s and %s", a, b, c);
	snprintf(want, sizeof(want), "%s, %s and %s", a, b, c);
	for (int i = 0; i < 2 * HT_ERROR_SLOTS; i++)
		ht_fail(&e, EIO, "later %d", i);
	ck_assert_str_eq(fv_last_error(), want);
	ck_assert_uint_eq(strlen(fv_last_error()), 3 * 4000 + 7);
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "fv_params_check: p is NULL");
	ck_assert_int_eq(last_param(), FV_PARAM_NONE);
	/* kept again from a message of its own */
	ht_fail(&e, EIO, "via keep");
	ck_assert_int_eq(verity_api_keep(-EIO, &e), -EIO);
	ck_assert_str_eq(fv_last_error(), "via keep");
	ck_assert_int_eq(verity_api_keep(0, &e), 0);
	ck_assert_str_eq(fv_last_error(), "via keep");
}
END_TEST

/* A worker's job: fails with a long message naming its index. */
struct job {
	int i;
	int r;
	int wraps; /* messages made on top of the first */
	struct ht_error err;
};

static void job_message(char *out, size_t len, int i)
{
	char p[4001]; /* (on the worker's own stack) */

	long_path(p, 4000, (char)i);
	snprintf(out, len, "worker %d: %s: cannot read", i, p);
}

static void *job_run(void *arg)
{
	struct job *j = arg;
	char m[4100];

	job_message(m, sizeof(m), j->i);
	j->r = ht_fail(&j->err, EIO, "%s", m);
	for (int k = 0; k < j->wraps; k++)
		ht_fail(&j->err, EIO, "%s", ht_msg(&j->err));
	return NULL;
}

START_TEST(worker_messages_handed_over)
{
	struct job j = {.i = 5}, again = {.i = 6, .wraps = 3 * HT_ERROR_SLOTS};
	struct ht_error mine = {0}, copy;
	char want[4100];
	pthread_t t;

	job_message(want, sizeof(want), 5);
	ck_assert_int_eq(ht_thread_start(&t, job_run, &j), 0);
	ck_assert_int_eq(ht_thread_join(t, NULL), 0);
	ck_assert_int_eq(j.r, -EIO);
	ck_assert_str_eq(ht_msg(&j.err), want); /* the starter reads it */
	ht_handover(&mine, &j.err);
	ck_assert_str_eq(ht_msg(&mine), want);
	ck_assert_ptr_ne(ht_msg(&mine), ht_msg(&j.err)); /* copied */
	copy = mine;
	ht_handover(&copy, &copy); /* already this thread's: as it is */
	ck_assert_ptr_eq(ht_msg(&copy), ht_msg(&mine));
	/* the next thread, on the store the first had, many messages: the
	 * handed-over one stays, the first's own is lost, not wrong */
	ck_assert_int_eq(ht_thread_create(&t, job_run, &again), 0);
	ck_assert_int_eq(ht_thread_join(t, NULL), 0);
	ck_assert_str_eq(ht_msg(&mine), want);
	ck_assert_str_eq(ht_msg(&j.err), HT_ERROR_LOST);
	job_message(want, sizeof(want), 6);
	ck_assert_str_eq(ht_msg(&again.err), want);
	/* into the public API's last error */
	ck_assert_int_eq(verity_api_keep(again.r, &again.err), -EIO);
	ck_assert_str_eq(fv_last_error(), want);
}
END_TEST

START_TEST(fan_out_messages_handed_over)
{
	struct job jobs[6];
	struct ht_error got[6];
	char want[4100];

	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < 6; i++) {
		jobs[i].i = i;
		jobs[i].wraps = i;
	}
	ck_assert_uint_ge(ht_fan_out(6, job_run, jobs, sizeof(jobs[0]), NULL),
			  1);
	for (int i = 0; i < 6; i++)
		ht_handover(&got[i], &jobs[i].err);
	/* more messages here than slots: the handed-over ones are the
	 * last of this thread's */
	for (int i = 0; i < 6; i++) {
		job_message(want, sizeof(want), i);
		if (i < 6 - HT_ERROR_SLOTS)
			ck_assert_str_eq(ht_msg(&got[i]), HT_ERROR_LOST);
		else
			ck_assert_str_eq(ht_msg(&got[i]), want);
	}
}
END_TEST

/* A thread the library did not start: its message dies with it. */
START_TEST(foreign_thread_reads_lost)
{
	struct job j = {.i = 9};
	struct ht_error mine = {0};
	pthread_t t;

	ht_fail(&mine, EIO, "mine");
	ck_assert_int_eq(pthread_create(&t, NULL, job_run, &j), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_str_eq(ht_msg(&j.err), HT_ERROR_LOST);
	ht_handover(&mine, &j.err);
	ck_assert_str_eq(ht_msg(&mine), HT_ERROR_LOST);
}
END_TEST

START_TEST(fix_rendered_as_before)
{
	static const struct ht_param_names cli = {"--data-blocks=%llu",
						  "--data-blocks"};
	struct ht_error e = {0};
	char fix[64], out[512];

	snprintf(fix, sizeof(fix), "give %%1 or %%3 (%%0, %%2)");
	ck_assert_int_eq(ht_fail_fix(&e, EINVAL, HT_PARAM_DATA_BLOCKS, 7, 9,
				     fix, "problem %d", 5),
			 -EINVAL);
	/* the template is kept, not pointed to */
	memset(fix, 'z', sizeof(fix) - 1);
	ck_assert_str_eq(ht_msg(&e), "problem 5 (give a data block count of "
				     "7 or 9 (the data block count, 7))");
	ck_assert_uint_eq(e.problem_len, strlen("problem 5"));
	ck_assert_int_eq(e.param, HT_PARAM_DATA_BLOCKS);
	ht_render_fix(&e, &cli, out, sizeof(out));
	ck_assert_str_eq(out, "give --data-blocks=7 or 9 (--data-blocks, 7)");
	ck_assert_int_eq(ht_say(&e, &cli, out, sizeof(out)),
			 (int)strlen("problem 5 (give --data-blocks=7 or 9 "
				     "(--data-blocks, 7))"));
	ck_assert_str_eq(out,
			 "problem 5 (give --data-blocks=7 or 9 (--data-blocks, "
			 "7))");
	ht_say(&e, NULL, out, sizeof(out));
	ck_assert_str_eq(out, ht_msg(&e));
	/* handed over and kept with its fix */
	{
		struct ht_error h, k;

		ht_fail(&h, EIO, "other");
		ht_handover(&h, &e);
		ht_keep(&k, &h);
		ht_say(&k, &cli, out, sizeof(out));
		ck_assert_str_eq(out, "problem 5 (give --data-blocks=7 or 9 "
				      "(--data-blocks, 7))");
		verity_api_keep(-EINVAL, &h);
		ck_assert_int_eq(last_param(), FV_PARAM_DATA_BLOCKS);
		ck_assert_str_eq(fv_last_error(), ht_msg(&e));
	}
	/* a template past HT_FIX_MAX - 1 bytes: cut there, as before */
	{
		char big[400], said[HT_FIX_MAX + 2];

		memset(big, 'f', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		ht_fail_fix(&e, EINVAL, HT_PARAM_FEC_ROOTS, 0, 0, big, "p");
		memset(said, 'f', HT_FIX_MAX - 1);
		said[HT_FIX_MAX - 1] = ')';
		said[HT_FIX_MAX] = '\0';
		ck_assert_str_eq(ht_msg(&e) + strlen("p ("), said);
		ht_render_fix(&e, &cli, out, sizeof(out));
		ck_assert_uint_eq(strlen(out), HT_FIX_MAX - 1);
	}
	/* a plain failure after it has no fix */
	ht_fail(&e, EIO, "plain");
	ht_render_fix(&e, &cli, out, sizeof(out));
	ck_assert_str_eq(out, "");
	ht_say(&e, &cli, out, sizeof(out));
	ck_assert_str_eq(out, "plain");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "error"};

	return run_unit(&u, UNIT_TESTS(small_and_zero_means_none,
				       long_messages_whole,
				       more_errors_than_slots,
				       kept_outlives_the_slots,
				       worker_messages_handed_over,
				       fan_out_messages_handed_over,
				       foreign_thread_reads_lost,
				       fix_rendered_as_before));
}
