/* verity/policy/kinds.c: every container named once, its name read back
 * to it, words for each, and what is no container (auto among them: it
 * is said, never asked for by name). */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "verity/policy/kinds.h"

START_TEST(named)
{
	ck_assert_str_eq(verity_container_name(VERITY_CONTAINER_AUTO), "auto");
	ck_assert_str_eq(verity_container_name(VERITY_CONTAINER_AVB), "avb");
	ck_assert_str_eq(verity_container_name(VERITY_CONTAINER_OTA), "ota");
	/* (auto is said, not asked for by name) */
	ck_assert_int_eq(verity_container_by_name("auto"), -1);
	ck_assert_str_eq(verity_container_words(VERITY_CONTAINER_AUTO),
			 "any container");
	for (int c = 1; c < VERITY_CONTAINER_COUNT; c++) {
		const char *name = verity_container_name(c);

		ck_assert_ptr_nonnull(name);
		ck_assert_int_eq(verity_container_by_name(name), c);
		ck_assert_ptr_nonnull(verity_container_words(c));
		ck_assert_uint_gt(strlen(verity_container_words(c)), 0);
		/* no two share a name */
		for (int k = 1; k < c; k++)
			ck_assert_str_ne(verity_container_name(k), name);
	}
	ck_assert_int_eq(verity_container_by_name("ext4"), -1);
	ck_assert_int_eq(verity_container_by_name(""), -1);
	ck_assert_int_eq(verity_container_by_name("AVB"), -1);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"kinds", 0, NULL, NULL, 0, NULL};

	return run_unit(&u, UNIT_TESTS(named));
}
