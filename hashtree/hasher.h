/* Block hashing for the tree: one interface, two paths.
 *
 * Fast path: sha256 in format 1, the salt absorbed once, each block hashed
 * by import + finup on the best SHA-256 kernel. Generic path: any digest of
 * OpenSSL's default provider through EVP, fetched once; format 1 copies a
 * pre-salted context per block, format 0 appends the salt. */
#ifndef FV_HASHER_H
#define FV_HASHER_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "sha1.h"
#include "sha256.h"

#define HT_MAX_SALT_SIZE   256
#define HT_MAX_DIGEST_SIZE 64

enum ht_path {
	HT_PATH_FAST,
	HT_PATH_GENERIC,
};

/* "fast" or "generic": the one name of each path, in output and JSON. */
static inline const char *ht_path_name(enum ht_path p)
{
	return p == HT_PATH_FAST ? "fast" : "generic";
}

struct evp_md_st;
struct evp_md_ctx_st;

struct ht_hasher {
	enum ht_path path;
	const char *path_reason; /* why this path was taken, for --debug */
	enum sha256_kernel kernel;
	const struct ht_sha256_kernel_ops *ops; /* the kernel's, chosen once */
	int hash_type; /* 0: H(block || salt), 1: H(salt || block) */
	unsigned digest_size;
	uint8_t salt[HT_MAX_SALT_SIZE];
	size_t salt_size;
	struct sha256_salted_state sha; /* fast path */
	int sha1;                       /* fast path: SHA-1, not SHA-256 */
	struct sha1_salted_state sha1_state;
	struct evp_md_st *md;         /* generic path */
	struct evp_md_ctx_st *salted; /* generic path, format 1 */
	char provider[32];            /* where the digest came from */
};

/* Sets up hashing for digest alg ("sha256", "sha1", ...). Returns 0, or
 * -EINVAL for an algorithm the default provider does not offer. */
int ht_hasher_init(struct ht_hasher *h, const char *alg, int hash_type,
		   const uint8_t *salt, size_t salt_size, struct ht_error *err);
void ht_hasher_free(struct ht_hasher *h);
/* On the fast path, runs the kernel choice picks (the fastest by
 * default); nothing on the generic path. */
void ht_hasher_use_kernel(struct ht_hasher *h, enum sha256_choice choice);

/* The digest size of alg, or 0 when the default provider lacks it (or
 * OpenSSL cannot be opened); ht_digest_size_of says which (0, or a
 * negative errno with why in err). */
unsigned ht_digest_size(const char *alg);
int ht_digest_size_of(const char *alg, unsigned *size, struct ht_error *err);

/* Hashes count blocks of block_size bytes laid out at blocks; digest i goes
 * to out + i * out_stride. Safe to call from several threads at once. */
int ht_hash_blocks(const struct ht_hasher *h, const uint8_t *blocks,
		   size_t block_size, size_t count, uint8_t *out,
		   size_t out_stride, struct ht_error *err);

/* OpenSSL, loaded without its configuration file in a private library
 * context with only the default provider. Returns NULL on failure. */
struct ossl_lib_ctx_st *ht_crypto_libctx(void);

/* alg fetched from that context, and checked to come from the default
 * provider (the CPU), never from an engine or an offload driver (OpenSSL
 * opened first): 0, or a negative errno with why in err. */
int ht_fetch_digest(const char *alg, struct evp_md_st **out,
		    struct ht_error *err);

/* OpenSSL's version line ("OpenSSL 3.0.11 19 Sep 2023"), libcrypto opened
 * for it; NULL, and why in err, if it cannot be. */
const char *ht_openssl_version(struct ht_error *err);

/* The digest of n parts (sizes[i] bytes at parts[i]) one after the
 * other, with alg from OpenSSL's default provider: to out
 * (HT_MAX_DIGEST_SIZE of room), its size to *out_len. */
int ht_digest_parts(const char *alg, size_t n, const void *const *parts,
		    const size_t *sizes, uint8_t *out, size_t *out_len,
		    struct ht_error *err);

/* What bench compares with the kernels: SHA-256(salt || message i) of
 * count messages of len bytes through OpenSSL's EVP, to out + i * stride
 * (32 bytes each). fresh: a context set up and the salt hashed for each
 * message, as veritysetup does; else a context holding the salt, copied
 * for each, as the generic path does. */
int ht_evp_sha256_blocks(int fresh, const uint8_t *salt, size_t salt_size,
			 const uint8_t *msgs, size_t len, size_t count,
			 uint8_t *out, size_t stride, struct ht_error *err);

#endif
