/* hashtree/thread.c: worker threads started away from the caller's CPU,
 * keeping its mask. */
#include <check.h>
#include "check_main.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hashtree/thread.h"
#include "hashtree/tree.h"
#include "verity/tree/params.h"

/* --- worker threads started away from the caller's CPU (thread.h) ---- */

struct placed {
	int cpu;       /* where the thread first ran */
	cpu_set_t now; /* its mask once running */
	int value;     /* the argument, seen */
};

static void *placed_main(void *arg)
{
	struct placed *p = arg;

	p->cpu = sched_getcpu();
	CPU_ZERO(&p->now);
	sched_getaffinity(0, sizeof(p->now), &p->now);
	p->value++;
	return p;
}

START_TEST(threads_start_elsewhere_and_keep_the_mask)
{
	cpu_set_t mine, one;
	int cpu = sched_getcpu(), stayed = 0, elsewhere = 0;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (int k = 0; k < 20; k++) {
		struct placed p = {.cpu = -1, .value = k};
		pthread_t t;
		void *ret = NULL;

		cpu = sched_getcpu();
		ck_assert_int_eq(ht_thread_start(&t, placed_main, &p), 0);
		ck_assert_int_eq(ht_thread_join(t, &ret), 0);
		ck_assert_ptr_eq(ret, &p);
		ck_assert_int_eq(p.value, k + 1);
		/* the mask it would have had, whatever its first CPU */
		ck_assert(CPU_EQUAL(&p.now, &mine));
		/* with another CPU allowed, not the caller's (the caller
		 * may have moved since: then nothing is asked; it may also
		 * have moved away and back while the thread started, so
		 * most starts, not all, are counted) */
		if (CPU_COUNT(&mine) > 1 && sched_getcpu() == cpu) {
			stayed++;
			elsewhere += p.cpu != cpu;
		}
	}
	ck_assert_int_ge(4 * elsewhere, 3 * stayed);
	/* one CPU allowed: started as pthread_create would, and the mask
	 * left alone */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	{
		struct placed p = {.cpu = -1};
		pthread_t t;

		ck_assert_int_eq(ht_thread_start(&t, placed_main, &p), 0);
		ck_assert_int_eq(ht_thread_join(t, NULL), 0);
		ck_assert(CPU_EQUAL(&p.now, &one));
		ck_assert_int_eq(p.value, 1);
	}
	ck_assert_int_eq(sched_setaffinity(0, sizeof(mine), &mine), 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "thread", .timeout = 60};

	return run_unit(&u,
			UNIT_TESTS(threads_start_elsewhere_and_keep_the_mask));
}
