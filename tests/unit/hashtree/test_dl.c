/* hashtree/dl.c: a shared library opened when first needed: the first
 * of its sonames that opens, every function named looked up, and why it
 * cannot be (no such library, a function the one opened lacks, which is
 * then closed) said in the caller's buffer, cut to its length. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/dl.h"

START_TEST(opened)
{
	static const char *const sonames[] = {"libfv-no-such.so.9",
					      "libz.so.1"};
	static const char *const names[] = {"crc32", "adler32"};
	void *fns[2] = {NULL, NULL};
	char why[128] = "";

	ck_assert_int_eq(
		ht_dl_open(sonames, 2, names, 2, fns, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(fns[0]);
	ck_assert_ptr_nonnull(fns[1]);
	ck_assert_ptr_ne(fns[0], fns[1]);
	ck_assert_str_eq(why, "");
	/* no functions asked: the library opened alone */
	ck_assert_int_eq(
		ht_dl_open(sonames + 1, 1, names, 0, fns, why, sizeof(why)), 0);
}
END_TEST

START_TEST(refused)
{
	static const char *const none[] = {"libfv-no-such.so.9",
					   "libfv-nor-this.so.1"};
	static const char *const z[] = {"libz.so.1"};
	static const char *const names[] = {"crc32", "fv_no_such_function"};
	void *fns[2] = {NULL, NULL};
	char why[128] = "", small[8];

	ck_assert_int_eq(ht_dl_open(none, 2, names, 2, fns, why, sizeof(why)),
			 -1);
	/* dlerror's words name the last soname tried */
	ck_assert_ptr_nonnull(strstr(why, "libfv-nor-this.so.1"));
	ck_assert_int_eq(ht_dl_open(none, 0, names, 2, fns, why, sizeof(why)),
			 -1);
	ck_assert_int_eq(ht_dl_open(z, 1, names, 2, fns, why, sizeof(why)), -1);
	/* the library closed again: none of its functions kept */
	ck_assert_ptr_null(fns[0]);
	ck_assert_ptr_null(fns[1]);
	ck_assert_str_eq(why, "libz.so.1 has no fv_no_such_function");
	/* the soname named is the one that opened, not the first tried */
	ck_assert_int_eq(ht_dl_open((const char *const[]){"libfv-no-such.so.9",
							  "libz.so.1"},
				    2, names, 2, fns, why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why, "libz.so.1 has no fv_no_such_function");
	/* a short buffer: cut, terminated */
	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(ht_dl_open(z, 1, names, 2, fns, small, sizeof(small)),
			 -1);
	ck_assert_str_eq(small, "libz.so");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "dl"};

	return run_unit(&u, UNIT_TESTS(opened, refused));
}
