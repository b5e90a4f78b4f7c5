#include "hasher.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static OSSL_LIB_CTX *crypto_ctx;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void crypto_setup(void)
{
	OSSL_LIB_CTX *ctx;

	/* Never read openssl.cnf: it can load engines or other providers. */
	if (!OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL))
		return;
	ctx = OSSL_LIB_CTX_new();
	if (!ctx)
		return;
	if (!OSSL_PROVIDER_load(ctx, "default")) {
		OSSL_LIB_CTX_free(ctx);
		return;
	}
	crypto_ctx = ctx;
}

OSSL_LIB_CTX *ht_crypto_libctx(void)
{
	pthread_once(&crypto_once, crypto_setup);
	return crypto_ctx;
}

/* Fetches alg from the private context and checks it is implemented by the
 * default provider (the CPU), never by an engine or an offload driver. */
static EVP_MD *fetch_digest(const char *alg, struct ht_error *err)
{
	OSSL_LIB_CTX *ctx = ht_crypto_libctx();
	const OSSL_PROVIDER *prov;
	EVP_MD *md;

	if (!ctx) {
		ht_fail(err, ENOMEM, "cannot initialise OpenSSL");
		return NULL;
	}
	md = EVP_MD_fetch(ctx, alg, NULL);
	if (!md) {
		ht_fail(err, EINVAL, "hash algorithm %s not supported", alg);
		return NULL;
	}
	prov = EVP_MD_get0_provider(md);
	if (!prov || strcmp(OSSL_PROVIDER_get0_name(prov), "default") != 0) {
		EVP_MD_free(md);
		ht_fail(err, EINVAL,
			"hash algorithm %s does not come from OpenSSL's "
			"default provider",
			alg);
		return NULL;
	}
	return md;
}

/* sha256 by its usual name: the fast path's own code hashes it, so
 * OpenSSL is not even started (starting it costs about 2.4 ms a run). */
static int plain_sha256(const char *alg)
{
	return strcasecmp(alg, "sha256") == 0;
}

unsigned ht_digest_size(const char *alg)
{
	EVP_MD *md;
	int size;

	if (plain_sha256(alg))
		return SHA256_DIGEST_SIZE;
	md = fetch_digest(alg, NULL);
	if (!md)
		return 0;
	size = EVP_MD_get_size(md);
	EVP_MD_free(md);
	return size > 0 ? (unsigned)size : 0;
}

static int init_fast(struct ht_hasher *h, const uint8_t *salt, size_t salt_size)
{
	h->path = HT_PATH_FAST;
	h->kernel = ht_sha256_kernel_choose(SHA256_CHOOSE_FASTEST);
	h->ops = ht_sha256_kernel_ops(h->kernel);
	h->path_reason = "sha256 in format 1: salted state, import + finup";
	ht_sha256_salted_init(&h->sha, salt, salt_size);
	return 0;
}

int ht_hasher_init(struct ht_hasher *h, const char *alg, int hash_type,
		   const uint8_t *salt, size_t salt_size, struct ht_error *err)
{
	int size;

	memset(h, 0, sizeof(*h));
	if (hash_type != 0 && hash_type != 1)
		return ht_fail(err, EINVAL, "unsupported hash type %d",
			       hash_type);
	if (salt_size > HT_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "salt of %zu bytes is too long (at most %d)",
			       salt_size, HT_MAX_SALT_SIZE);
	h->hash_type = hash_type;
	memcpy(h->salt, salt, salt_size);
	h->salt_size = salt_size;

	if (plain_sha256(alg) && hash_type == 1) {
		strcpy(h->provider, "none");
		h->digest_size = SHA256_DIGEST_SIZE;
		return init_fast(h, salt, salt_size);
	}
	h->md = fetch_digest(alg, err);
	if (!h->md)
		return -EINVAL;
	size = EVP_MD_get_size(h->md);
	if (size <= 0 || size > HT_MAX_DIGEST_SIZE) {
		ht_hasher_free(h);
		return ht_fail(
			err, EINVAL,
			"hash algorithm %s has an unsupported digest size",
			alg);
	}
	h->digest_size = (unsigned)size;
	strncpy(h->provider,
		OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(h->md)),
		sizeof(h->provider) - 1);

	if (EVP_MD_is_a(h->md, "SHA256") && hash_type == 1)
		return init_fast(h, salt, salt_size);
	/* old Android trees: SHA-1 two blocks at a time where the CPU has
	 * SHA-NI (hashtree/sha1.h) */
	if (EVP_MD_is_a(h->md, "SHA1") && hash_type == 1 &&
	    ht_sha1_kernel_available()) {
		h->path = HT_PATH_FAST;
		h->sha1 = 1;
		h->path_reason =
			"sha1 in format 1: salted state, SHA-NI two-way";
		ht_sha1_salted_init(&h->sha1_state, salt, salt_size);
		return 0;
	}

	h->path = HT_PATH_GENERIC;
	h->path_reason =
		hash_type == 0
			? "format 0 appends the salt: OpenSSL EVP per block"
			: "not sha256: OpenSSL EVP with a pre-salted context";
	if (hash_type == 1) {
		h->salted = EVP_MD_CTX_new();
		if (!h->salted || !EVP_DigestInit_ex2(h->salted, h->md, NULL) ||
		    !EVP_DigestUpdate(h->salted, salt, salt_size)) {
			ht_hasher_free(h);
			return ht_fail(err, ENOMEM,
				       "cannot set up hash algorithm %s", alg);
		}
	}
	return 0;
}

void ht_hasher_free(struct ht_hasher *h)
{
	EVP_MD_CTX_free(h->salted);
	EVP_MD_free(h->md);
	h->salted = NULL;
	h->md = NULL;
}

static int hash_generic(const struct ht_hasher *h, const uint8_t *blocks,
			size_t block_size, size_t count, uint8_t *out,
			size_t out_stride, struct ht_error *err)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = ctx != NULL;

	for (size_t i = 0; ok && i < count; i++) {
		const uint8_t *b = blocks + i * block_size;

		if (h->hash_type == 1)
			ok = EVP_MD_CTX_copy_ex(ctx, h->salted) &&
			     EVP_DigestUpdate(ctx, b, block_size);
		else
			ok = EVP_DigestInit_ex2(ctx, h->md, NULL) &&
			     EVP_DigestUpdate(ctx, b, block_size) &&
			     EVP_DigestUpdate(ctx, h->salt, h->salt_size);
		ok = ok && EVP_DigestFinal_ex(ctx, out + i * out_stride, NULL);
	}
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : ht_fail(err, ENOMEM, "hashing failed in OpenSSL");
}

void ht_hasher_use_kernel(struct ht_hasher *h, enum sha256_choice choice)
{
	if (h->path != HT_PATH_FAST || h->sha1)
		return;
	h->kernel = ht_sha256_kernel_choose(choice);
	h->ops = ht_sha256_kernel_ops(h->kernel);
}

int ht_hash_blocks(const struct ht_hasher *h, const uint8_t *blocks,
		   size_t block_size, size_t count, uint8_t *out,
		   size_t out_stride, struct ht_error *err)
{
	if (h->path == HT_PATH_FAST && h->sha1) {
		ht_sha1_finup_many(&h->sha1_state, blocks, block_size, count,
				   out, out_stride);
		return 0;
	}
	if (h->path == HT_PATH_FAST) {
		h->ops->finup_many(&h->sha, blocks, block_size, count, out,
				   out_stride);
		return 0;
	}
	return hash_generic(h, blocks, block_size, count, out, out_stride, err);
}
