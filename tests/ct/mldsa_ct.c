/* ML-DSA's key generation and signing in constant time with respect to
 * the secret key, checked as ctgrind does: valgrind's memcheck is told
 * that the seed, the expanded secret key and rnd are undefined, and then
 * reports every conditional jump, and every memory address, that
 * depends on them. verity/sign/mldsa.c (built here with
 * -DFV_MLDSA_CT_TEST) marks defined, each with its reason, the few
 * values that are public (rho, ExpandS's keep/drop bits, c~, the
 * rejection verdicts, the accepted z and h). A run with no memcheck
 * error passes (tests/ct/run.sh: valgrind --error-exitcode).
 *
 * "canary" as the argument adds one deliberate branch on the seed, so
 * that run.sh can see memcheck catch it: the test can fail. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "verity/sign/mldsa.h"

static int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "mldsa-ct: %s\n", what);
		failed = 1;
	}
}

int main(int argc, char **argv)
{
	static const int levels[2] = {65, 87};
	int canary = argc > 1 && !strcmp(argv[1], "canary");

	if (!RUNNING_ON_VALGRIND)
		fprintf(stderr, "mldsa-ct: not under valgrind: nothing is checked\n");
	for (int i = 0; i < 2; i++) {
		int level = levels[i];
		struct verity_mldsa_sizes s;
		uint8_t seed[32], rnd[32], mu[64], msg[100];
		uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES], pk2[VERITY_MLDSA_MAX_PK_BYTES];
		uint8_t sk[VERITY_MLDSA_MAX_SK_BYTES], sig[VERITY_MLDSA_MAX_SIG_BYTES];

		verity_mldsa_sizes(level, &s);
		for (int n = 0; n < 32; n++) {
			seed[n] = (uint8_t)(n * 31 + level);
			rnd[n] = (uint8_t)(n * 17 + 5);
		}
		memset(msg, 'm', sizeof(msg));
		memset(mu, 0x5a, sizeof(mu));
		VALGRIND_MAKE_MEM_UNDEFINED(seed, sizeof(seed));
		VALGRIND_MAKE_MEM_UNDEFINED(rnd, sizeof(rnd));
		if (canary && (seed[0] & 1))
			msg[0] = 'M'; /* the deliberate leak */
		check(!verity_mldsa_keygen(level, seed, pk, sk), "keygen failed");
		check(!VALGRIND_CHECK_MEM_IS_DEFINED(pk, s.pk),
		      "the public key is not all defined (marked public)");
		/* the secret key as if read from a file: all of it secret
		 * (its rho and tr too: signing says they are public) */
		VALGRIND_MAKE_MEM_UNDEFINED(sk, s.sk);
		check(!verity_mldsa_sign(level, sk, msg, sizeof(msg), NULL, 0,
					 VERITY_MLDSA_RND_GIVEN, rnd, sig),
		      "sign (rnd given) failed");
		check(!VALGRIND_CHECK_MEM_IS_DEFINED(sig, s.sig),
		      "the signature is not all defined");
		check(!verity_mldsa_verify(level, pk, s.pk, msg, sizeof(msg), NULL, 0, sig, s.sig),
		      "the signature does not verify");
		check(!verity_mldsa_sign(level, sk, msg, sizeof(msg), NULL, 0,
					 VERITY_MLDSA_DETERMINISTIC, NULL, sig),
		      "sign (deterministic) failed");
		check(!verity_mldsa_sign(level, sk, msg, sizeof(msg), NULL, 0,
					 VERITY_MLDSA_HEDGED, NULL, sig),
		      "sign (hedged) failed");
		check(!verity_mldsa_sign_mu(level, sk, mu, VERITY_MLDSA_RND_GIVEN, rnd, sig),
		      "sign from mu failed");
		check(!verity_mldsa_verify_mu(level, pk, s.pk, mu, sig, s.sig),
		      "the signature from mu does not verify");
		/* what reading an expanded-only key file does */
		check(!verity_mldsa_sk_to_pk(level, sk, pk2), "sk_to_pk failed");
		check(!memcmp(pk, pk2, s.pk), "sk_to_pk gave another key");
	}
	return failed;
}
