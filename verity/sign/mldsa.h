/* ML-DSA-65 and ML-DSA-87 (FIPS 204), the signatures of Android 17's
 * vbmeta images (AVB algorithm types 7 and 8): key generation from a
 * seed, signing, verification, the message representative mu built
 * as data arrives, and the key files (PKCS#8, SPKI, the AVB public-key
 * blob). verity/sign/mldsa.c says why this is written here and how it
 * keeps the secret key out of its timing; docs/mldsa.md sums it up.
 *
 * Keys and signatures are the standard's byte strings: pk (pkEncode:
 * rho || t1), sk (skEncode, the "expanded" key: rho || K || tr || s1 ||
 * s2 || t0), the 32-byte seed xi of KeyGen_internal, sig (sigEncode).
 * A level is 65 or 87; no other is accepted (AVB has no ML-DSA-44). */
#ifndef FV_MLDSA_H
#define FV_MLDSA_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

#define VERITY_MLDSA_SEED_BYTES 32
#define VERITY_MLDSA_RND_BYTES  32
#define VERITY_MLDSA_TR_BYTES   64
#define VERITY_MLDSA_MU_BYTES   64

#define VERITY_MLDSA65_PK_BYTES  1952
#define VERITY_MLDSA65_SK_BYTES  4032
#define VERITY_MLDSA65_SIG_BYTES 3309
#define VERITY_MLDSA87_PK_BYTES  2592
#define VERITY_MLDSA87_SK_BYTES  4896
#define VERITY_MLDSA87_SIG_BYTES 4627
#define VERITY_MLDSA_MAX_PK_BYTES  VERITY_MLDSA87_PK_BYTES
#define VERITY_MLDSA_MAX_SK_BYTES  VERITY_MLDSA87_SK_BYTES
#define VERITY_MLDSA_MAX_SIG_BYTES VERITY_MLDSA87_SIG_BYTES

/* The AVB public-key blob: u32 big-endian key length, then pk. */
#define VERITY_MLDSA_AVB_BLOB_MAX (4 + VERITY_MLDSA_MAX_PK_BYTES)

struct verity_mldsa_sizes {
	size_t pk, sk, sig;
};

/* The sizes of a level: 0, or -EINVAL when level is neither 65 nor 87. */
int verity_mldsa_sizes(int level, struct verity_mldsa_sizes *sizes);
/* "ML-DSA-65" or "ML-DSA-87" (NULL for another level). */
const char *verity_mldsa_name(int level);

/* KeyGen_internal(seed): pk and sk (their sizes of the level). 0,
 * -EINVAL (level) or -ENOMEM. The seed and every intermediate secret
 * are wiped; sk is the caller's to wipe. */
int verity_mldsa_keygen(int level, const uint8_t seed[VERITY_MLDSA_SEED_BYTES],
			uint8_t *pk, uint8_t *sk);

/* Where a signature's 32 bytes of randomness rnd come from. */
enum verity_mldsa_rnd {
	VERITY_MLDSA_HEDGED,        /* fresh from getrandom() (FIPS 204's
				     * default, "hedged") */
	VERITY_MLDSA_DETERMINISTIC, /* 32 zero bytes: the same signature
				     * for the same key and message */
	VERITY_MLDSA_RND_GIVEN,     /* the caller's 32 bytes */
};

/* Pure ML-DSA.Sign of msg with context ctx (at most 255 bytes; AVB's
 * is empty: NULL, 0) under the expanded key sk, into sig (the level's
 * signature size). rnd is read for VERITY_MLDSA_RND_GIVEN only. 0;
 * -EINVAL: a level, context or secret key that is not valid (a
 * coefficient of s1 or s2 out of range); -ENOMEM; an error of
 * getrandom(); -EAGAIN when 814 attempts were all rejected (the bound
 * FIPS 204 Appendix C allows; it never happens in practice). */
int verity_mldsa_sign(int level, const uint8_t *sk, const uint8_t *msg,
		      size_t msg_len, const uint8_t *ctx, size_t ctx_len,
		      enum verity_mldsa_rnd how, const uint8_t *rnd,
		      uint8_t *sig);
/* The same from mu, the message representative (external mu). */
int verity_mldsa_sign_mu(int level, const uint8_t *sk,
			 const uint8_t mu[VERITY_MLDSA_MU_BYTES],
			 enum verity_mldsa_rnd how, const uint8_t *rnd,
			 uint8_t *sig);

/* Pure ML-DSA.Verify of sig over msg with context ctx under pk. 0: the
 * signature is valid; -EBADMSG: it is not (wrong, or not a well-formed
 * signature: its length, its hint bytes, z's norm); -EINVAL: a level,
 * key length or context not valid; -ENOMEM. */
int verity_mldsa_verify(int level, const uint8_t *pk, size_t pk_len,
			const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
			size_t ctx_len, const uint8_t *sig, size_t sig_len);
/* The same from mu (external mu). */
int verity_mldsa_verify_mu(int level, const uint8_t *pk, size_t pk_len,
			   const uint8_t mu[VERITY_MLDSA_MU_BYTES],
			   const uint8_t *sig, size_t sig_len);

/* Keccak-f[1600] as a sponge: SHAKE128 and SHAKE256, absorbed and
 * squeezed in pieces of any size. */
struct verity_keccak {
	uint64_t s[25];
	unsigned pos;  /* bytes of the block absorbed, or squeezed */
	unsigned rate; /* 168 (SHAKE128) or 136 (SHAKE256) bytes */
	int squeezing;
};

void verity_shake128_init(struct verity_keccak *k);
void verity_shake256_init(struct verity_keccak *k);
void verity_keccak_absorb(struct verity_keccak *k, const void *data, size_t len);
/* Pads the input (absorbing ends); then squeeze as often as wanted. */
void verity_keccak_finalize(struct verity_keccak *k);
void verity_keccak_squeeze(struct verity_keccak *k, void *out, size_t len);
/* One-shot SHAKE256 of in into out. */
void verity_shake256(void *out, size_t out_len, const void *in, size_t in_len);

/* tr = SHAKE256(pk, 64), the public key's digest that mu starts with. */
void verity_mldsa_tr(const uint8_t *pk, size_t pk_len,
		     uint8_t tr[VERITY_MLDSA_TR_BYTES]);

/* mu = SHAKE256(tr || 0x00 || len(ctx) || ctx || M, 64), built as M
 * arrives (AVB signs the vbmeta header and its auxiliary block, two
 * pieces): init (from tr, or from the public key, whose tr it
 * computes), update with each piece, final. */
struct verity_mldsa_mu {
	struct verity_keccak k;
};

/* 0, or -EINVAL for a context over 255 bytes. */
int verity_mldsa_mu_init_tr(struct verity_mldsa_mu *m,
			    const uint8_t tr[VERITY_MLDSA_TR_BYTES],
			    const uint8_t *ctx, size_t ctx_len);
/* 0, or -EINVAL for a level, key length or context not valid. */
int verity_mldsa_mu_init_pk(struct verity_mldsa_mu *m, int level,
			    const uint8_t *pk, size_t pk_len,
			    const uint8_t *ctx, size_t ctx_len);
void verity_mldsa_mu_update(struct verity_mldsa_mu *m, const void *data,
			    size_t len);
void verity_mldsa_mu_final(struct verity_mldsa_mu *m,
			   uint8_t mu[VERITY_MLDSA_MU_BYTES]);

/* The public key of an expanded secret key, with the checks a key read
 * from a file deserves: s1 and s2 in range, t0 and tr those of this
 * pk. 0, -EINVAL (not a consistent key) or -ENOMEM. */
int verity_mldsa_sk_to_pk(int level, const uint8_t *sk, uint8_t *pk);

/* Decompose (FIPS 204 Algorithm 36) for gamma2 = (q-1)/32, r in [0, q):
 * the function signing uses, for the unit test's exhaustive check. */
void verity_mldsa_decompose(int32_t r, int32_t *r1, int32_t *r0);

/* Compares n bytes in time that depends on n alone: 0 when equal. */
int verity_mldsa_ct_differ(const void *a, const void *b, size_t n);

/* Key files (verity/sign/mldsa_key.c). */

/* A key as read: its level, the public key always, the expanded secret
 * key when the file has one (computed from the seed when the file has
 * the seed alone), the seed when the file has it. */
struct verity_mldsa_key {
	int level;      /* 65 or 87 */
	int has_secret; /* sk (a private key) */
	int has_seed;   /* seed */
	uint8_t seed[VERITY_MLDSA_SEED_BYTES];
	uint8_t sk[VERITY_MLDSA_MAX_SK_BYTES];
	uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES];
};

/* The forms of a PKCS#8 private key (the privateKey OCTET STRING's
 * contents, as OpenSSL 3.5 names them). */
enum verity_mldsa_form {
	VERITY_MLDSA_SEED_ONLY,     /* [0] IMPLICIT OCTET STRING seed */
	VERITY_MLDSA_EXPANDED_ONLY, /* OCTET STRING sk */
	VERITY_MLDSA_BOTH,          /* SEQUENCE { seed, sk }: OpenSSL's and
				     * AOSP's */
};

/* Reads a key from the bytes of a file: a PKCS#8 private key (PEM
 * "PRIVATE KEY" or DER; each of the three forms; a seed and an expanded
 * key must agree), an SPKI public key (PEM "PUBLIC KEY" or DER), or an
 * AVB public-key blob. level: the level the key must be (65 or 87), or
 * 0 for either. what names the file in messages ("FILE: an RSA key,
 * where ML-DSA-65 is asked"). 0, -EINVAL (not such a key: message in
 * err) or -ENOMEM. key is wiped first, and on failure. */
int verity_mldsa_key_read(const uint8_t *buf, size_t len, int level,
			  const char *what, struct verity_mldsa_key *key,
			  struct ht_error *err);
/* The ML-DSA level a key file names (44, 65 or 87: the OID of its
 * PKCS#8 or SPKI structure, PEM or DER, or an AVB public-key blob's key
 * length), or 0 when it names none (another algorithm's key, not a key
 * file). Nothing else of the key is checked. */
int verity_mldsa_key_level(const uint8_t *buf, size_t len);
/* Wipes the key (its secrets). */
void verity_mldsa_key_wipe(struct verity_mldsa_key *key);

/* The DER of a PKCS#8 private key of the form asked (a seed-only or
 * both form needs key->has_seed), or of the SPKI public key, into out
 * (of out_size bytes; 8192 is always enough); *len its length. 0 or
 * -EINVAL. */
int verity_mldsa_pkcs8_der(const struct verity_mldsa_key *key,
			   enum verity_mldsa_form form, uint8_t *out,
			   size_t out_size, size_t *len);
int verity_mldsa_spki_der(const struct verity_mldsa_key *key, uint8_t *out,
			  size_t out_size, size_t *len);
/* DER as PEM with the label ("PRIVATE KEY", "PUBLIC KEY"): 64
 * characters a line, a NUL at the end. 0, or -EINVAL when out is too
 * small. */
int verity_mldsa_pem(const char *label, const uint8_t *der, size_t der_len,
		     char *out, size_t out_size);

/* The AVB public-key blob of pk (4 + its size), into out: *len its
 * length. 0, or -EINVAL (level, or out too small). */
int verity_mldsa_avb_blob(int level, const uint8_t *pk, uint8_t *out,
			  size_t out_size, size_t *len);
/* Reads an AVB public-key blob as libavb does: key_num_bytes 1952 or
 * 2592 and the blob exactly 4 + key_num_bytes long. level: 65, 87 or 0
 * (either); *level_out (if not NULL) the blob's, *pk points into blob.
 * 0, or -EINVAL with a message naming what (NULL: "the key"). */
int verity_mldsa_avb_blob_read(const uint8_t *blob, size_t len, int level,
			       const char *what, int *level_out,
			       const uint8_t **pk, struct ht_error *err);

#endif
