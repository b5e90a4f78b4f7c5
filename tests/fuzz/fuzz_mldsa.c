/* libFuzzer: ML-DSA (verity/sign/mldsa.c, mldsa_key.c) on arbitrary
 * bytes. The first byte picks what the rest is:
 *   0-1  a key file (PKCS#8 or SPKI, PEM or DER, an AVB blob), read for
 *        ML-DSA-65, -87 or either; a key read whole holds together (its
 *        secret key gives its public key);
 *   2-3  a signature: the fuzzer's bytes XORed into a valid deterministic
 *        signature of a fixed message (ML-DSA-65 or -87), or taken as
 *        the signature itself; a changed signature never verifies;
 *   4    a public key and a signature, both the fuzzer's: refused or
 *        accepted, never a crash;
 *   5    an AVB public-key blob.
 * Every call returns one of its documented codes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/sign/mldsa.h"

static const uint8_t msg[] = "fuzz_mldsa: the signed message";
static uint8_t pk[2][VERITY_MLDSA_MAX_PK_BYTES], sig[2][VERITY_MLDSA_MAX_SIG_BYTES];

static void setup(void)
{
	static int done;
	uint8_t seed[32] = {42}, sk[VERITY_MLDSA_MAX_SK_BYTES];

	if (done)
		return;
	for (int i = 0; i < 2; i++) {
		int level = i ? 87 : 65;

		if (verity_mldsa_keygen(level, seed, pk[i], sk) ||
		    verity_mldsa_sign(level, sk, msg, sizeof(msg), NULL, 0,
				      VERITY_MLDSA_DETERMINISTIC, NULL, sig[i]))
			abort();
	}
	done = 1;
}

static void key_file(const uint8_t *data, size_t size, int level)
{
	struct verity_mldsa_key key;
	struct verity_mldsa_sizes s;
	struct ht_error err;
	uint8_t again[VERITY_MLDSA_MAX_PK_BYTES];
	int r = verity_mldsa_key_read(data, size, level, "fuzz", &key, &err);

	if (r != 0 && r != -EINVAL && r != -ENOMEM)
		abort();
	if (r)
		return;
	if ((level && key.level != level) || verity_mldsa_sizes(key.level, &s))
		abort();
	if (key.has_secret &&
	    (verity_mldsa_sk_to_pk(key.level, key.sk, again) || memcmp(again, key.pk, s.pk)))
		abort();
	verity_mldsa_key_wipe(&key);
}

static void signature(const uint8_t *data, size_t size, int i, int xor)
{
	int level = i ? 87 : 65;
	struct verity_mldsa_sizes s;
	uint8_t *copy;
	size_t len;
	int changed = 0, r;

	verity_mldsa_sizes(level, &s);
	if (xor) {
		len = s.sig;
		copy = malloc(len);
		memcpy(copy, sig[i], len);
		for (size_t n = 0; n < size && n < len; n++) {
			copy[n] ^= data[n];
			changed |= data[n];
		}
	} else {
		len = size;
		copy = malloc(len ? len : 1);
		if (len)
			memcpy(copy, data, len);
		changed = len != s.sig || memcmp(copy, sig[i], len);
	}
	r = verity_mldsa_verify(level, pk[i], s.pk, msg, sizeof(msg), NULL, 0, copy, len);
	if (r != 0 && r != -EBADMSG && r != -ENOMEM)
		abort();
	if (changed ? r == 0 : r != 0)
		abort();
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verity_mldsa_sizes s;
	struct ht_error err;
	const uint8_t *p;
	int level, r;

	if (!size)
		return 0;
	setup();
	switch (data[0] % 6) {
	case 0:
	case 1:
		key_file(data + 1, size - 1, data[0] / 6 % 3 == 0 ? 0 : data[0] / 6 % 3 == 1 ? 65 : 87);
		break;
	case 2:
	case 3:
		signature(data + 1, size - 1, data[0] % 6 == 3, data[0] / 6 % 2);
		break;
	case 4:
		level = data[0] / 6 % 2 ? 87 : 65;
		verity_mldsa_sizes(level, &s);
		if (size - 1 < s.pk)
			break;
		r = verity_mldsa_verify(level, data + 1, s.pk, msg, sizeof(msg), NULL, 0,
					data + 1 + s.pk, size - 1 - s.pk);
		if (r != 0 && r != -EBADMSG && r != -ENOMEM)
			abort();
		break;
	case 5:
		r = verity_mldsa_avb_blob_read(data + 1, size - 1, 0, "fuzz", &level, &p, &err);
		if (r != 0 && r != -EINVAL)
			abort();
		if (!r && (size - 1 != 4 + (level == 65 ? 1952u : 2592u) || p != data + 5))
			abort();
		break;
	}
	return 0;
}
