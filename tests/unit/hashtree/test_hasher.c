/* The hasher (hashtree/hasher.c): both hashing paths, both formats,
 * several digests, every salt size 0..256, against OpenSSL one-shot
 * hashing; an unknown digest refused; OpenSSL's two ways of SHA-256
 * (one context, or one a block) that bench compares give the kernels'
 * digests. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/hasher.h"
#include "hashtree/sha1.h"
#include "hashtree/sha256.h"
/* (after the library's headers: the parameters named msgs of
 * their inline functions would shadow its msgs) */
#include "hashtree/hash_inputs.h"

/* Both paths of the hasher, for both formats, several digests and every
 * salt size (the loop index). */
START_TEST(hasher_paths_match_openssl)
{
	static const char *algs[] = {"sha256", "sha1", "sha512", "sha384",
				     "sha3-256"};
	const size_t salt_sizes[] = {(size_t)_i};

	for (size_t a = 0; a < 5; a++)
		for (int type = 0; type <= 1; type++)
			for (size_t si = 0; si < 1; si++) {
				struct ht_hasher h;
				struct ht_error err;
				uint8_t out[3 * 64], want[64];

				ck_assert_int_eq(
					ht_hasher_init(&h, algs[a], type, salt,
						       salt_sizes[si], &err),
					0);
				/* sha1: the SHA-1 kernel where the CPU has
				 * SHA-NI */
				ck_assert_int_eq(
					h.path == HT_PATH_FAST,
					type == 1 &&
						(a == 0 ||
						 (a == 1 &&
						  ht_sha1_kernel_available())));
				/* sha256 in format 1 never starts OpenSSL */
				ck_assert_str_eq(h.provider,
						 a == 0 && type == 1
							 ? "none"
							 : "default");
				ck_assert_int_eq(ht_hash_blocks(&h, msgs, 4096,
								3, out, 64,
								&err),
						 0);
				for (int i = 0; i < 3; i++) {
					reference(algs[a], type, salt,
						  salt_sizes[si],
						  msgs + i * 4096, 4096, want);
					ck_assert_msg(
						!memcmp(want, out + i * 64,
							h.digest_size),
						"%s type %d salt %zu", algs[a],
						type, salt_sizes[si]);
				}
				ht_hasher_free(&h);
			}
}
END_TEST

START_TEST(hasher_refuses_unknown_digest)
{
	struct ht_hasher h;
	struct ht_error err;

	ck_assert_int_eq(ht_hasher_init(&h, "nosuchhash", 1, salt, 0, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "nosuchhash"));
	ck_assert_uint_eq(ht_digest_size("nosuchhash"), 0);
	ck_assert_uint_eq(ht_digest_size("sha256"), 32);
}
END_TEST

/* An empty salt given as NULL (an OTA's hash_tree_salt of no bytes):
 * never read, the digests those of an empty salt, on both paths. */
START_TEST(hasher_takes_no_salt_as_null)
{
	for (int type = 0; type <= 1; type++) {
		struct ht_hasher h, e;
		struct ht_error err;
		uint8_t out[64], want[64];

		ck_assert_int_eq(
			ht_hasher_init(&h, "sha256", type, NULL, 0, &err), 0);
		ck_assert_int_eq(
			ht_hasher_init(&e, "sha256", type, salt, 0, &err), 0);
		ck_assert_int_eq(
			ht_hash_blocks(&h, msgs, 4096, 1, out, 32, &err), 0);
		ck_assert_int_eq(
			ht_hash_blocks(&e, msgs, 4096, 1, want, 32, &err), 0);
		ck_assert_mem_eq(out, want, 32);
		ht_hasher_free(&h);
		ht_hasher_free(&e);
	}
}
END_TEST

/* OpenSSL's two ways of SHA-256 of salt || message (ht_evp_sha256_blocks:
 * a context a block, fresh, or one copied), which bench measures beside
 * the kernels, give every kernel's digests, one way and many. */
START_TEST(evp_ways_give_the_kernels_digests)
{
	enum { BS = 4096, N = 5 };
	static uint8_t blocks[N * BS], out[N * 40], evp[N * 40], one[32];
	uint8_t s[32];
	struct sha256_salted_state st;

	for (size_t i = 0; i < sizeof(blocks); i++)
		blocks[i] = (uint8_t)(i * 131 + (i >> 12));
	memset(s, 0x5a, sizeof(s));
	ht_sha256_salted_init(&st, s, sizeof(s));
	for (int fresh = 0; fresh < 2; fresh++) {
		ck_assert_int_eq(ht_evp_sha256_blocks(fresh, s, sizeof(s),
						      blocks, BS, N, evp, 40,
						      NULL),
				 0);
		for (int k = 0; k < SHA256_KERNEL_COUNT; k++) {
			if (!ht_sha256_kernel_available((enum sha256_kernel)k))
				continue;
			sha256_finup_many((enum sha256_kernel)k, &st, blocks,
					  BS, N, out, 40);
			for (int i = 0; i < N; i++) {
				ck_assert_int_eq(
					memcmp(out + i * 40, evp + i * 40, 32),
					0);
				sha256_finup_one((enum sha256_kernel)k, &st,
						 blocks + i * BS, BS, one);
				ck_assert_int_eq(memcmp(one, evp + i * 40, 32),
						 0);
			}
		}
	}
}
END_TEST

static void add_loops(TCase *tc)
{
	tcase_add_loop_test(tc, hasher_paths_match_openssl, 0, 257);
}

int main(void)
{
	static const struct unit_suite u = {.name = "hasher",
					    .timeout = 120,
					    .setup = setup,
					    .teardown = teardown,
					    .once = 1,
					    .loops = add_loops};

	return run_unit(&u, UNIT_TESTS(hasher_refuses_unknown_digest,
				       hasher_takes_no_salt_as_null,
				       evp_ways_give_the_kernels_digests));
}
