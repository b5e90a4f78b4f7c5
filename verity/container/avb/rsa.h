/* RSA for Android Verified Boot: keys read from PEM, AVB's public key
 * blob (docs/android.md, "Keys"), PKCS#1 v1.5 signatures over a vbmeta
 * blob, and their check against the blob's embedded key. OpenSSL in the
 * library's private context. */
#ifndef FV_CONTAINER_AVB_RSA_H
#define FV_CONTAINER_AVB_RSA_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/container/avb/vbmeta.h"

struct evp_pkey_st;

/* A private key (or, with want_private 0, a public or private key) from
 * a PEM file; the exponent must be 65537. *bits: the key's size as AVB
 * counts it (the modulus's bits rounded up to a power of two). */
int verity_avb_key_load(const char *path, int want_private,
			struct evp_pkey_st **key, unsigned *bits,
			struct ht_error *err);
void verity_avb_key_free(struct evp_pkey_st *key);

/* The key's AVB public key blob (malloc'd): u32 bits, u32 n0inv, n, rr. */
int verity_avb_key_blob(struct evp_pkey_st *key, uint8_t **blob, size_t *len,
			struct ht_error *err);

/* The AVB public key blob of the RSA key (public or private PEM) at path
 * (malloc'd). */
int verity_avb_key_file_blob(const char *path, uint8_t **blob, size_t *len,
			     struct ht_error *err);
/* 1 when v carries the public key blob given. */
int verity_avb_vbmeta_has_key(const struct avb_vbmeta *v, const uint8_t *blob,
			      size_t len);

/* The digest of data (alg's hash) into out (alg->hash_size bytes). */
int verity_avb_digest(const struct avb_algorithm_info *alg, const uint8_t *a,
		      size_t alen, const uint8_t *b, size_t blen, uint8_t *out,
		      struct ht_error *err);

/* PKCS#1 v1.5 signature of digest (alg's hash) with key: key_bits / 8
 * bytes into sig. */
int verity_avb_sign_digest(struct evp_pkey_st *key,
			   const struct avb_algorithm_info *alg,
			   const uint8_t *digest, uint8_t *sig,
			   struct ht_error *err);

/* 1 when sig (key_bits / 8 bytes) is key's PKCS#1 v1.5 signature of
 * digest. */
int verity_avb_verify_digest(struct evp_pkey_st *key,
			     const struct avb_algorithm_info *alg,
			     const uint8_t *digest, const uint8_t *sig);

/* Checks a vbmeta blob's authentication block: the digest of header and
 * auxiliary block, then the signature with the embedded public key.
 * 0: it holds (or the blob is unsigned); -EPERM with the reason;
 * -EINVAL for a key blob of the wrong size. */
int verity_avb_vbmeta_check(const struct avb_vbmeta *v, const char *path,
			    struct ht_error *err);

#endif
