/* main() of a Check unit suite: runs it, exits non-zero on failure. */
#ifndef FV_CHECK_MAIN_H
#define FV_CHECK_MAIN_H

#include <check.h>

static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
