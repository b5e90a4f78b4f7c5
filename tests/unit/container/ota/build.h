/* Packages for the OTA suites, made here: a full payload of one
 * partition and one REPLACE operation, its two signatures made with an
 * RSA key of the suite's (or left as zeros, the signer's placeholder),
 * and a stored zip around it. */
#ifndef FV_UNIT_OTA_BUILD_H
#define FV_UNIT_OTA_BUILD_H

#include <check.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "container/ota/pb.h"

/* A Signatures message of one entry: sig (n bytes; NULL: zeros). */
static inline void build_sigs(struct pb *b, const uint8_t *sig, size_t n)
{
	struct pb s = {0};
	uint8_t *z = calloc(1, n);

	ck_assert_ptr_nonnull(z);
	pb_ld(&s, 2, sig ? sig : z, n);
	pb_f32(&s, 3, (uint32_t)n);
	pb_msg(b, 1, &s);
	free(z);
}

/* key's PKCS#1 v1.5 signature of SHA-256 of two parts (n: key size). */
static inline void build_sign(EVP_PKEY *key, const uint8_t *a, size_t alen,
			      const uint8_t *b, size_t blen, uint8_t *sig,
			      size_t n)
{
	uint8_t d[32];
	unsigned dl = 0;
	size_t sl = n;
	EVP_MD_CTX *m = EVP_MD_CTX_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(key, NULL);

	ck_assert(EVP_DigestInit_ex(m, EVP_sha256(), NULL) == 1);
	ck_assert(EVP_DigestUpdate(m, a, alen) == 1);
	ck_assert(EVP_DigestUpdate(m, b, blen) == 1);
	ck_assert(EVP_DigestFinal_ex(m, d, &dl) == 1);
	ck_assert(EVP_PKEY_sign_init(c) == 1);
	ck_assert(EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) == 1);
	ck_assert(EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) == 1);
	ck_assert(EVP_PKEY_sign(c, sig, &sl, d, 32) == 1);
	ck_assert_uint_eq(sl, n);
	EVP_PKEY_CTX_free(c);
	EVP_MD_CTX_free(m);
}

/* A payload of one 2-block partition "boot" written by one REPLACE
 * (8192 bytes of blob), signed with key (NULL: placeholders of 256
 * bytes); *len bytes. */
static inline uint8_t *build_payload(EVP_PKEY *key, size_t *len)
{
	size_t n = key ? (size_t)EVP_PKEY_get_size(key) : 256;
	struct pb man = {0}, part = {0}, info = {0}, op = {0}, ext = {0};
	struct pb ph = {0}, meta = {0}, psig = {0}, out = {0};
	uint8_t hash[32] = {1}, hdr[24], *blob = malloc(8192), *sig = malloc(n);

	ck_assert_ptr_nonnull(blob);
	ck_assert_ptr_nonnull(sig);
	for (int i = 0; i < 8192; i++)
		blob[i] = (uint8_t)(i * 7);
	build_sigs(&ph, NULL, n); /* the placeholder: its size is the real's */
	pb_u(&man, 3, 4096);
	pb_u(&man, 4, 8192);
	pb_u(&man, 5, ph.n);
	pb_ld(&part, 1, "boot", 4);
	pb_u(&info, 1, 8192);
	pb_ld(&info, 2, hash, 32);
	pb_msg(&part, 7, &info);
	pb_u(&op, 1, 0);
	pb_u(&op, 2, 0);
	pb_u(&op, 3, 8192);
	pb_u(&ext, 1, 0);
	pb_u(&ext, 2, 2);
	pb_msg(&op, 6, &ext);
	pb_msg(&part, 8, &op);
	pb_msg(&man, 13, &part);
	memcpy(hdr, "CrAU\0\0\0\0\0\0\0\2", 12);
	for (int i = 0; i < 8; i++)
		hdr[12 + i] = (uint8_t)((uint64_t)man.n >> (56 - 8 * i));
	for (int i = 0; i < 4; i++)
		hdr[20 + i] = (uint8_t)(ph.n >> (24 - 8 * i));
	pb_bytes(&out, hdr, 24);
	pb_bytes(&out, man.p, man.n); /* [0, METADATA_SIZE) */
	if (key)
		build_sign(key, out.p, out.n, NULL, 0, sig, n);
	build_sigs(&meta, key ? sig : NULL, n);
	if (key)
		build_sign(key, out.p, out.n, blob, 8192, sig, n);
	build_sigs(&psig, key ? sig : NULL, n);
	ck_assert_uint_eq(meta.n, ph.n);
	pb_bytes(&out, meta.p, meta.n);
	pb_bytes(&out, blob, 8192);
	pb_bytes(&out, psig.p, psig.n);
	free(man.p), free(ph.p), free(meta.p), free(psig.p);
	free(blob), free(sig);
	*len = out.n;
	return out.p;
}

static inline void build_le(struct pb *b, uint32_t v, int n)
{
	for (int i = 0; i < n; i++) {
		uint8_t c = (uint8_t)(v >> (8 * i));

		pb_bytes(b, &c, 1);
	}
}

/* A stored zip of the n entries names[i] holding bodies[i] (lens[i]
 * bytes); *len bytes. */
static inline uint8_t *build_zip(const char *const *names,
				 const uint8_t *const *bodies,
				 const size_t *lens, int n, size_t *len)
{
	struct pb z = {0}, cd = {0};
	uint32_t at;

	for (int i = 0; i < n; i++) {
		size_t k = strlen(names[i]);

		at = (uint32_t)z.n;
		build_le(&z, 0x04034b50, 4), build_le(&z, 10, 2);
		build_le(&z, 0, 2), build_le(&z, 0, 2), build_le(&z, 0, 4);
		build_le(&z, (uint32_t)crc32(0, bodies[i], (uInt)lens[i]), 4);
		build_le(&z, (uint32_t)lens[i], 4);
		build_le(&z, (uint32_t)lens[i], 4), build_le(&z, (uint32_t)k, 2);
		build_le(&z, 0, 2);
		pb_bytes(&z, names[i], k);
		pb_bytes(&z, bodies[i], lens[i]);
		build_le(&cd, 0x02014b50, 4), build_le(&cd, 20, 2);
		build_le(&cd, 10, 2), build_le(&cd, 0, 2), build_le(&cd, 0, 2);
		build_le(&cd, 0, 4);
		build_le(&cd, (uint32_t)crc32(0, bodies[i], (uInt)lens[i]), 4);
		build_le(&cd, (uint32_t)lens[i], 4);
		build_le(&cd, (uint32_t)lens[i], 4);
		build_le(&cd, (uint32_t)k, 2), build_le(&cd, 0, 2);
		build_le(&cd, 0, 2), build_le(&cd, 0, 2), build_le(&cd, 0, 2);
		build_le(&cd, 0, 4), build_le(&cd, at, 4);
		pb_bytes(&cd, names[i], k);
	}
	at = (uint32_t)z.n;
	pb_bytes(&z, cd.p, cd.n);
	build_le(&z, 0x06054b50, 4), build_le(&z, 0, 4);
	build_le(&z, (uint32_t)n, 2), build_le(&z, (uint32_t)n, 2);
	build_le(&z, (uint32_t)cd.n, 4), build_le(&z, at, 4);
	build_le(&z, 0, 2);
	free(cd.p);
	*len = z.n;
	return z.p;
}

#endif
