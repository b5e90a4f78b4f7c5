/* The signature schemes of vbmeta images behind one sign/verify pair:
 * RSA PKCS#1 v1.5 over a SHA-256 or SHA-512 digest (OpenSSL, in the
 * library's private context) and pure ML-DSA-65/87 with the empty
 * context (verity/sign/mldsa.c, no OpenSSL). A key is read from one file
 * whatever its scheme, and is known by its AVB public-key blob, the form
 * in which a vbmeta carries it and a chain descriptor pins it
 * (docs/android.md, "Keys"). The message is given in pieces: AVB signs
 * the vbmeta header and its auxiliary block, which are apart. */
#ifndef FV_SIGN_SCHEME_H
#define FV_SIGN_SCHEME_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/sign/mldsa.h"

enum verity_scheme_kind {
	VERITY_SCHEME_NONE,  /* not signed */
	VERITY_SCHEME_RSA,   /* PKCS#1 v1.5 of the message's digest */
	VERITY_SCHEME_MLDSA, /* pure ML-DSA, empty context */
};

/* One algorithm: what a signature is, and what its key is. */
struct verity_scheme {
	const char *name; /* avbtool's: "SHA256_RSA2048", "MLDSA65" */
	enum verity_scheme_kind kind;
	const char *digest; /* RSA: the digest signed ("sha256"); "" */
	unsigned hash_size; /* RSA: its bytes, stored beside the signature;
			     * 0 (ML-DSA hashes nothing first) */
	unsigned key_bits;  /* RSA: the modulus's; 0 */
	int level;          /* ML-DSA: 65 or 87; 0 */
	unsigned sig_size;  /* bytes of a signature; 0 for NONE */
	unsigned blob_size; /* bytes of the AVB public-key blob */
};

/* The most bytes of a signature (ML-DSA-87's). */
#define VERITY_SCHEME_MAX_SIG VERITY_MLDSA87_SIG_BYTES
/* The most bytes of a digest kept beside one (SHA-512's). */
#define VERITY_SCHEME_MAX_HASH 64

/* A piece of a message. */
struct verity_msg {
	const void *p;
	size_t len;
};

struct evp_pkey_st;

/* A key as read from its file: the AVB public-key blob always, and what
 * signs or checks with it. */
struct verity_sigkey {
	enum verity_scheme_kind kind; /* RSA or MLDSA */
	unsigned bits;   /* RSA: the size AVB counts (the modulus's bits
			  * rounded up to a power of two) */
	int level;       /* ML-DSA: 65 or 87 */
	int has_private; /* it can sign (a token's key, a private key) */
	struct evp_pkey_st *rsa;        /* RSA read from PEM or a token */
	struct verity_mldsa_key *mldsa; /* ML-DSA (wiped when freed) */
	uint8_t *blob;                  /* the AVB public-key blob */
	size_t blob_len;
};

/* Reads the key at path: an RSA key (PEM, private or public; exponent
 * 65537), a "pkcs11:" URI of an RSA key in a token, an ML-DSA key
 * (PKCS#8 private key or SPKI public key, PEM or DER), or an AVB
 * public-key blob (either scheme). want: the algorithm the key must be
 * of (its scheme, RSA size or ML-DSA level; a key of another is refused
 * by name), or NULL for any. want_private: a key that signs, never a
 * public one. 0, or -EINVAL (message names path), -ENOMEM, -ENOSYS (no
 * libcrypto, for RSA). The secret parts are wiped by
 * verity_sigkey_free. */
int verity_sigkey_read(const char *path, const struct verity_scheme *want,
		       int want_private, struct verity_sigkey *k,
		       struct ht_error *err);
void verity_sigkey_free(struct verity_sigkey *k);
/* The AVB public-key blob of the key at path (any scheme; public or
 * private), malloc'd. */
int verity_sigkey_file_blob(const char *path, uint8_t **blob, size_t *len,
			    struct ht_error *err);

/* An AVB public-key blob checked against the scheme as libavb checks
 * it (RSA: its size and key bits; ML-DSA: key_num_bytes 1952 or 2592,
 * the blob exactly 4 more): 0, or -EINVAL naming what ("PATH: vbmeta
 * public key"). */
int verity_scheme_blob_check(const struct verity_scheme *s,
			     const uint8_t *blob, size_t len, const char *what,
			     struct ht_error *err);

/* What the scheme needs loaded (RSA: libcrypto; ML-DSA: nothing): 0,
 * or -ENOSYS with a message saying that need needs it. */
int verity_scheme_load(const struct verity_scheme *s, const char *need,
		       struct ht_error *err);

/* RSA: the digest of the message (s->hash_size bytes into out). */
int verity_scheme_digest(const struct verity_scheme *s,
			 const struct verity_msg *m, size_t n, uint8_t *out,
			 struct ht_error *err);

/* Signs the message (the n pieces in order) with k, which must be of s
 * and private: s->sig_size bytes into sig; for RSA the digest signed
 * into digest (s->hash_size bytes; NULL for ML-DSA). how: ML-DSA's
 * randomness (hedged by default; deterministic for reproducible
 * builds). 0, or -EINVAL, -EIO, -ENOMEM. */
int verity_scheme_sign(const struct verity_scheme *s,
		       const struct verity_sigkey *k,
		       const struct verity_msg *m, size_t n,
		       enum verity_mldsa_rnd how, uint8_t *digest,
		       uint8_t *sig, struct ht_error *err);

/* Checks sig (sig_len bytes) over the message under the key of the AVB
 * public-key blob; for RSA digest (s->hash_size bytes, may be NULL) is
 * the digest stored beside the signature, which must be the message's.
 * 0: it holds; -EBADMSG: the stored digest is not the message's (RSA);
 * -EPERM: the signature does not hold; -EINVAL: a blob that is not a
 * key of s (message naming what); -ENOSYS, -ENOMEM. Only -EINVAL,
 * -ENOSYS and -ENOMEM set err. */
int verity_scheme_verify(const struct verity_scheme *s, const uint8_t *blob,
			 size_t blob_len, const struct verity_msg *m, size_t n,
			 const uint8_t *digest, const uint8_t *sig,
			 size_t sig_len, const char *what,
			 struct ht_error *err);

/* A new ML-DSA private key of level (65 or 87) from a fresh seed, as
 * PKCS#8 PEM in the form OpenSSL 3.5 writes by default and AOSP's test
 * keys have (seed and expanded key): *pem malloc'd, NUL-terminated,
 * *len its length; the caller wipes and frees it. */
int verity_mldsa_generate_pem(int level, char **pem, size_t *len,
			      struct ht_error *err);

#endif
