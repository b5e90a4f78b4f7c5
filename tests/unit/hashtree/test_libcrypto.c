/* hashtree/libcrypto.c: OpenSSL's libcrypto opened when first needed:
 * loaded once whatever asks, every function the library calls found and
 * the same as the one the program itself links, and a call through the
 * header's macros the function's own (SHA-256 of "abc"). */
#include <openssl/evp.h>

#include "hashtree/libcrypto.h"

#include <check.h>
#include <dlfcn.h>
#include <string.h>

#include "check_main.h"

static const char *const fn_names[HT_LC_COUNT] = {
#define NAME(f) #f,
	HT_LIBCRYPTO_FUNCTIONS(NAME)
#undef NAME
};

START_TEST(loaded)
{
	struct ht_error err = {0};

	/* with and without a need named: the same answer, no message */
	ck_assert_int_eq(ht_libcrypto_load(NULL, &err), 0);
	ck_assert_int_eq(ht_libcrypto_load("a test", &err), 0);
	ck_assert_str_eq(ht_msg(&err), "");
	for (int i = 0; i < HT_LC_COUNT; i++) {
		void *want = dlsym(RTLD_DEFAULT, fn_names[i]);

		ck_assert_msg(ht_libcrypto_fn((enum ht_libcrypto_fn)i),
			      "%s not found", fn_names[i]);
		/* the program links libcrypto.so.3 too: one copy */
		if (want)
			ck_assert_msg(ht_libcrypto_fn(
					      (enum ht_libcrypto_fn)i) == want,
				      "%s differs", fn_names[i]);
	}
}
END_TEST

START_TEST(called)
{
	static const uint8_t want[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
		0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
		0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
		0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	struct ht_error err = {0};

	/* ht_libcrypto_fn opens the library itself if need be */
	ck_assert_ptr_nonnull(ht_libcrypto_fn(HT_LC_EVP_Digest));
	ck_assert_int_eq(ht_libcrypto_load(NULL, &err), 0);
	ck_assert_int_eq(EVP_Digest("abc", 3, md, &n, EVP_sha256(), NULL), 1);
	ck_assert_uint_eq(n, 32);
	ck_assert_mem_eq(md, want, 32);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "libcrypto"};

	return run_unit(&u, UNIT_TESTS(loaded, called));
}
