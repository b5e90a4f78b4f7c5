/* The SHA-1 kernel (hashtree/sha1_shani.c: two streams and one, on
 * x86-64 SHA-NI; nothing to check where the CPU lacks it) against
 * OpenSSL one-shot hashing, for every salt size 0..256 and several
 * message sizes. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/sha1.h"
/* (after the library's headers: the parameters named msgs of
 * their inline functions would shadow its msgs) */
#include "hashtree/hash_inputs.h"

static const size_t lens[] = {0,  1,   55,   56,   63,   64,
			      65, 512, 1000, 1024, 4096, 65536};
#define NLENS     (sizeof(lens) / sizeof(lens[0]))

/* The SHA-1 kernel (two streams and one) against OpenSSL, for every salt
 * size (the loop index), every message length, odd and even batches. */
START_TEST(sha1_kernel_matches_openssl_every_salt_size)
{
	struct sha1_salted_state st;
	uint8_t out[5 * 24], want[20];

	if (!ht_sha1_kernel_available())
		return;
	ht_sha1_salted_init(&st, salt, (size_t)_i);
	for (size_t l = 0; l < NLENS; l++)
		for (size_t count = 1; count <= 3; count++) {
			ht_sha1_finup_many(&st, msgs, lens[l], count, out, 24);
			for (size_t i = 0; i < count; i++) {
				reference("sha1", 1, salt, (size_t)_i,
					  msgs + i * lens[l], lens[l], want);
				ck_assert_msg(!memcmp(want, out + i * 24, 20),
					      "salt %d len %zu count %zu i %zu",
					      _i, lens[l], count, i);
			}
		}
}
END_TEST

static void add_loops(TCase *tc)
{
	tcase_add_loop_test(tc, sha1_kernel_matches_openssl_every_salt_size, 0,
			    257);
}

int main(void)
{
	static const struct unit_suite u = {.name = "sha1_shani",
					    .timeout = 120,
					    .setup = setup,
					    .teardown = teardown,
					    .once = 1,
					    .loops = add_loops};

	return run_unit(&u, UNIT_TESTS(NULL));
}
