/* Every SHA-256 kernel (hashtree/sha256.c's portable C and its table of
 * the CPU kernels, sha256_shani.c, sha256_avx512.c, sha256_armv8.c,
 * reached through it) against OpenSSL one-shot hashing, for every salt
 * size 0..256 and several message sizes, one, two, three and many
 * messages at once. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/sha256.h"
/* (after the library's headers: the parameters named msgs of
 * their inline functions would shadow its msgs) */
#include "hashtree/hash_inputs.h"

static const size_t lens[] = {0,  1,   55,   56,   63,   64,
			      65, 512, 1000, 1024, 4096, 65536};
#define NLENS     (sizeof(lens) / sizeof(lens[0]))

START_TEST(portable_matches_openssl_every_salt_size)
{
	size_t s = (size_t)_i;

	for (size_t l = 0; l < NLENS; l++) {
		struct sha256_salted_state st;
		uint8_t want[32], got[32];

		ht_sha256_salted_init(&st, salt, s);
		reference("sha256", 1, salt, s, msgs, lens[l], want);
		sha256_finup_one(SHA256_KERNEL_PORTABLE, &st, msgs, lens[l],
				 got);
		ck_assert_msg(!memcmp(want, got, 32), "salt %zu len %zu", s,
			      lens[l]);
	}
}
END_TEST

static void check_kernel(enum sha256_kernel k, size_t s)
{
	for (size_t l = 0; l < NLENS; l++) {
		struct sha256_salted_state st;
		uint8_t want1[32], want2[32], got[32], got1[32], got2[32];
		const uint8_t *m2 =
			msgs + 65536 + 3; /* unaligned second stream */

		ht_sha256_salted_init(&st, salt, s);
		reference("sha256", 1, salt, s, msgs, lens[l], want1);
		reference("sha256", 1, salt, s, m2, lens[l], want2);
		sha256_finup_one(k, &st, msgs, lens[l], got);
		ck_assert_msg(!memcmp(want1, got, 32),
			      "%s 1-way salt %zu len %zu",
			      ht_sha256_kernel_name(k), s, lens[l]);
		sha256_finup_two(k, &st, msgs, m2, lens[l], got1, got2);
		ck_assert_msg(!memcmp(want1, got1, 32),
			      "%s 2-way a salt %zu len %zu",
			      ht_sha256_kernel_name(k), s, lens[l]);
		ck_assert_msg(!memcmp(want2, got2, 32),
			      "%s 2-way b salt %zu len %zu",
			      ht_sha256_kernel_name(k), s, lens[l]);
		/* three in a row, unaligned: the three-way kernel's streams
		 * (pair and single for the others) */
		{
			uint8_t got3[3 * 32], want3[32];

			sha256_finup_many(k, &st, msgs + 1, lens[l], 3, got3,
					  32);
			for (int i = 0; i < 3; i++) {
				reference("sha256", 1, salt, s,
					  msgs + 1 + i * lens[l], lens[l],
					  want3);
				ck_assert_msg(!memcmp(want3, got3 + 32 * i, 32),
					      "%s many(3) #%d salt %zu len %zu",
					      ht_sha256_kernel_name(k), i, s,
					      lens[l]);
			}
		}
	}
}

/* Each CPU kernel this machine has (SHA-NI two- and three-way on x86-64,
 * the Armv8 Cryptography Extensions on aarch64), one-way, two-way and
 * three messages at once. */
START_TEST(cpu_kernels_one_and_two_way_match_openssl_every_salt_size)
{
	size_t s = (size_t)_i;

	for (int k = SHA256_KERNEL_PORTABLE + 1; k < SHA256_KERNEL_COUNT; k++)
		if (ht_sha256_kernel_available((enum sha256_kernel)k))
			check_kernel((enum sha256_kernel)k, s);
}
END_TEST

/* count messages of bs bytes through kernel k's finup_many, each
 * against OpenSSL. */
static void check_batch(int k, size_t bs, size_t salt_size, size_t count)
{
	struct sha256_salted_state st;
	uint8_t *out = malloc(count * 40);

	ht_sha256_salted_init(&st, salt, salt_size);
	sha256_finup_many(k, &st, msgs, bs, count, out, 40);
	for (size_t i = 0; i < count; i++) {
		uint8_t want[32];

		reference("sha256", 1, salt, salt_size, msgs + i * bs, bs,
			  want);
		ck_assert_msg(!memcmp(want, out + i * 40, 32),
			      "kernel %d bs %zu salt %zu count %zu block %zu",
			      k, bs, salt_size, count, i);
	}
	free(out);
}

/* Batches of 16 and more (the AVX-512 kernel's lanes) and what is left
 * after them: every salt size that leaves 0, 1, 55-57 or 63 bytes
 * buffered, 512- to 4096-byte messages. */
START_TEST(finup_many_matches_openssl_for_wide_batches)
{
	static const size_t block_sizes[] = {512, 1024, 4096};
	static const size_t salt_sizes[] = {0,  1,  31, 32, 55,  56,
					    57, 63, 64, 65, 119, 256};
	static const size_t counts[] = {15, 16, 17, 33, 47};

	for (int k = 0; k < SHA256_KERNEL_COUNT; k++) {
		if (!ht_sha256_kernel_available((enum sha256_kernel)k))
			continue;
		for (size_t b = 0; b < 3; b++)
			for (size_t si = 0; si < 12; si++)
				for (size_t ci = 0; ci < 5; ci++) {
					size_t c = counts[ci];

					if (c * block_sizes[b] > MSGS_SIZE)
						c = MSGS_SIZE / block_sizes[b];
					check_batch(k, block_sizes[b],
						    salt_sizes[si], c);
				}
	}
}
END_TEST

/* Counts that leave one or two messages after the kernel's pairs or
 * threes exercise the tails of the batch. */
START_TEST(finup_many_matches_openssl_for_odd_batches)
{
	static const size_t block_sizes[] = {512, 1024, 4096, 65536};
	static const size_t salt_sizes[] = {0, 32, 55, 56, 63, 64, 256};

	for (int k = 0; k < SHA256_KERNEL_COUNT; k++) {
		if (!ht_sha256_kernel_available((enum sha256_kernel)k))
			continue;
		for (size_t b = 0; b < 4; b++)
			for (size_t si = 0; si < 7; si++) {
				size_t n = MSGS_SIZE / block_sizes[b] - 1;

				if (n > 9)
					n = 9;
				/* n, n - 1, n - 2 messages: every tail
				 * after the pairs or threes */
				for (size_t c = n - 2; c <= n; c++)
					check_batch(k, block_sizes[b],
						    salt_sizes[si], c);
			}
	}
}
END_TEST

static void add_loops(TCase *tc)
{
	tcase_add_loop_test(tc, portable_matches_openssl_every_salt_size, 0,
			    257);
	tcase_add_loop_test(
		tc, cpu_kernels_one_and_two_way_match_openssl_every_salt_size,
		0, 257);
}

/* Says which of this architecture's kernels the CPU lacks: their
 * comparisons are skipped, and a run on such a CPU says so. */
static void say_skipped(void)
{
	static const enum sha256_kernel arch[] = {
#if defined(__x86_64__)
		SHA256_KERNEL_SHANI, SHA256_KERNEL_SHANI3, SHA256_KERNEL_AVX512,
#elif defined(__aarch64__)
		SHA256_KERNEL_ARMV8,
#endif
		SHA256_KERNEL_PORTABLE, /* the end: every CPU has it */
	};

	for (size_t i = 0; arch[i] != SHA256_KERNEL_PORTABLE; i++)
		if (!ht_sha256_kernel_available(arch[i]))
			printf("sha256: %s is not on this CPU: its comparisons "
			       "with OpenSSL skipped\n",
			       ht_sha256_kernel_name(arch[i]));
}

int main(void)
{
	static const struct unit_suite u = {.name = "sha256",
					    .timeout = 120,
					    .setup = setup,
					    .teardown = teardown,
					    /* salt and msgs are only read: 256 KiB
					     * of rand() for each of the checks was
					     * most of the suite's time (18 s under
					     * qemu) */
					    .once = 1,
					    .loops = add_loops};

	say_skipped();
	return run_unit(&u,
			UNIT_TESTS(finup_many_matches_openssl_for_odd_batches,
				   finup_many_matches_openssl_for_wide_batches));
}
