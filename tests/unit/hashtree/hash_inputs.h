/* The hashing suites' inputs (hashtree/test_sha256, test_sha1_shani,
 * test_hasher): a salt and messages of rand() from a fixed seed, made
 * once for the suite (setup, teardown), and OpenSSL's one-shot digest of
 * salt and message in either format's order to compare with. */
#ifndef FV_UNIT_HASH_INPUTS_H
#define FV_UNIT_HASH_INPUTS_H

#include <stdint.h>
#include <stdlib.h>

#include <openssl/evp.h>

static uint8_t salt[256];
static uint8_t *msgs;
#define MSGS_SIZE (4 * 65536)

static inline void reference(const char *alg, int type, const uint8_t *s,
			     size_t slen, const uint8_t *m, size_t mlen,
			     uint8_t *out)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	EVP_DigestInit_ex(c, EVP_get_digestbyname(alg), NULL);
	if (type == 1)
		EVP_DigestUpdate(c, s, slen);
	EVP_DigestUpdate(c, m, mlen);
	if (type == 0)
		EVP_DigestUpdate(c, s, slen);
	EVP_DigestFinal_ex(c, out, NULL);
	EVP_MD_CTX_free(c);
}

static inline void setup(void)
{
	msgs = malloc(MSGS_SIZE);
	srand(42);
	for (size_t i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)rand();
	for (size_t i = 0; i < MSGS_SIZE; i++)
		msgs[i] = (uint8_t)rand();
}

static inline void teardown(void)
{
	free(msgs);
}

#endif
