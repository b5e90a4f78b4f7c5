/* main() of a Check unit suite: runs it, exits non-zero on failure. */
#ifndef FV_CHECK_MAIN_H
#define FV_CHECK_MAIN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

/* A suite of one test case, both named name. */
struct unit_suite {
	const char *name;
	double timeout;           /* seconds; 0: Check's default */
	SFun setup, teardown;     /* a fixture (checked unless once), or NULL */
	int once;                 /* the fixture makes data no check changes:
				     set up once for the case (unchecked) */
	void (*loops)(TCase *tc); /* adds the loop tests, or NULL */
};

/* The tests, a NULL-terminated list, for run_unit(). */
#define UNIT_TESTS(...) ((const TTest *const[]){__VA_ARGS__, NULL})

/* UNIT_SKIP="NAME ...": the tests of the list are left out, each said on
 * stdout (arm64's short run, under qemu, leaves out what is the same code
 * on every architecture). */
static inline int unit_skipped(const char *name)
{
	const char *list = getenv("UNIT_SKIP");
	size_t n = strlen(name);

	for (const char *p = list ? strstr(list, name) : NULL; p;
	     p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n])) {
			printf("%s: left out (UNIT_SKIP)\n", name);
			return 1;
		}
	return 0;
}

static inline int run_unit(const struct unit_suite *u,
			   const TTest *const *tests)
{
	Suite *s = suite_create(u->name);
	TCase *tc = tcase_create(u->name);

	if (u->once)
		tcase_add_unchecked_fixture(tc, u->setup, u->teardown);
	else if (u->setup || u->teardown)
		tcase_add_checked_fixture(tc, u->setup, u->teardown);
	if (u->timeout > 0)
		tcase_set_timeout(tc, u->timeout);
	if (u->loops)
		u->loops(tc);
	for (; *tests; tests++)
		if (!unit_skipped((*tests)->name))
			tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return run_suite(s);
}

#endif
