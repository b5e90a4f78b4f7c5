#include "hasher.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "hashtree/libcrypto.h"

static OSSL_LIB_CTX *crypto_ctx;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void crypto_setup(void)
{
	OSSL_LIB_CTX *ctx;

	/* Never read openssl.cnf: it can load engines or other providers. */
	if (ht_libcrypto_load(NULL, NULL) ||
	    !OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL))
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

int ht_fetch_digest(const char *alg, EVP_MD **out, struct ht_error *err)
{
	OSSL_LIB_CTX *ctx;
	const OSSL_PROVIDER *prov;
	EVP_MD *md;
	char need[64];
	int r;

	*out = NULL;
	snprintf(need, sizeof(need), "hash algorithm %.40s", alg);
	if ((r = ht_libcrypto_load(need, err)))
		return r;
	if (!(ctx = ht_crypto_libctx()))
		return ht_fail(err, ENOMEM, "cannot initialise OpenSSL");
	md = EVP_MD_fetch(ctx, alg, NULL);
	if (!md)
		return ht_fail(err, EINVAL, "hash algorithm %s not supported",
			       alg);
	prov = EVP_MD_get0_provider(md);
	if (!prov || strcmp(OSSL_PROVIDER_get0_name(prov), "default") != 0) {
		EVP_MD_free(md);
		return ht_fail(err, EINVAL,
			       "hash algorithm %s does not come from OpenSSL's "
			       "default provider",
			       alg);
	}
	*out = md;
	return 0;
}

/* sha256 by its usual name: the fast path's own code hashes it, so
 * OpenSSL is not even started (starting it costs about 2.4 ms a run). */
static int plain_sha256(const char *alg)
{
	return strcasecmp(alg, "sha256") == 0;
}

int ht_digest_size_of(const char *alg, unsigned *size, struct ht_error *err)
{
	EVP_MD *md;
	int n, r;

	*size = 0;
	if (plain_sha256(alg)) {
		*size = SHA256_DIGEST_SIZE;
		return 0;
	}
	if ((r = ht_fetch_digest(alg, &md, err)))
		return r;
	n = EVP_MD_get_size(md);
	EVP_MD_free(md);
	if (n <= 0 || n > HT_MAX_DIGEST_SIZE)
		return ht_fail(
			err, EINVAL,
			"hash algorithm %s has an unsupported digest size",
			alg);
	*size = (unsigned)n;
	return 0;
}

unsigned ht_digest_size(const char *alg)
{
	unsigned size;

	return ht_digest_size_of(alg, &size, NULL) ? 0 : size;
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
	int size, r;

	memset(h, 0, sizeof(*h));
	if (hash_type != 0 && hash_type != 1)
		return ht_fail(err, EINVAL, "unsupported hash type %d",
			       hash_type);
	if (salt_size > HT_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "salt of %zu bytes is too long (at most %d)",
			       salt_size, HT_MAX_SALT_SIZE);
	h->hash_type = hash_type;
	if (!salt_size) /* an empty salt may come as NULL: never read */
		salt = h->salt;
	memcpy(h->salt, salt, salt_size);
	h->salt_size = salt_size;

	if (plain_sha256(alg) && hash_type == 1) {
		strcpy(h->provider, "none");
		h->digest_size = SHA256_DIGEST_SIZE;
		return init_fast(h, salt, salt_size);
	}
	if ((r = ht_fetch_digest(alg, &h->md, err)))
		return r;
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
	/* (the fast path never opened OpenSSL: nothing to free there) */
	if (h->salted)
		EVP_MD_CTX_free(h->salted);
	if (h->md)
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

const char *ht_openssl_version(struct ht_error *err)
{
	return ht_libcrypto_load(NULL, err) ? NULL
					    : OpenSSL_version(OPENSSL_VERSION);
}

int ht_digest_parts(const char *alg, size_t n, const void *const *parts,
		    const size_t *sizes, uint8_t *out, size_t *out_len,
		    struct ht_error *err)
{
	EVP_MD *md;
	EVP_MD_CTX *c;
	unsigned len = 0;
	int ok;

	if ((ok = ht_fetch_digest(alg, &md, err)))
		return ok;
	c = EVP_MD_CTX_new();
	ok = c && EVP_MD_get_size(md) <= HT_MAX_DIGEST_SIZE &&
	     EVP_DigestInit_ex2(c, md, NULL);
	for (size_t i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(c, parts[i], sizes[i]);
	ok = ok && EVP_DigestFinal_ex(c, out, &len);
	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	*out_len = len;
	return ok ? 0 : ht_fail(err, ENOMEM, "hashing failed in OpenSSL");
}

/* SHA-256 from the default provider, fetched once for the measuring
 * below. */
static EVP_MD *evp_sha256;
static pthread_once_t evp_sha256_once = PTHREAD_ONCE_INIT;

static void fetch_sha256(void)
{
	ht_fetch_digest("SHA256", &evp_sha256, NULL);
}

int ht_evp_sha256_blocks(int fresh, const uint8_t *salt, size_t salt_size,
			 const uint8_t *msgs, size_t len, size_t count,
			 uint8_t *out, size_t stride, struct ht_error *err)
{
	EVP_MD_CTX *salted = NULL, *c;
	int ok;

	if (ht_libcrypto_load(NULL, err))
		return -ENOSYS;
	pthread_once(&evp_sha256_once, fetch_sha256);
	if (!evp_sha256)
		return ht_fail(err, EINVAL,
			       "OpenSSL's default provider has no SHA256");
	c = EVP_MD_CTX_new();
	ok = c != NULL;
	if (ok && !fresh)
		ok = (salted = EVP_MD_CTX_new()) &&
		     EVP_DigestInit_ex2(salted, evp_sha256, NULL) &&
		     EVP_DigestUpdate(salted, salt, salt_size);
	for (size_t i = 0; ok && i < count; i++) {
		ok = fresh ? EVP_DigestInit_ex2(c, evp_sha256, NULL) &&
				     EVP_DigestUpdate(c, salt, salt_size)
			   : EVP_MD_CTX_copy_ex(c, salted);
		ok = ok && EVP_DigestUpdate(c, msgs + i * len, len) &&
		     EVP_DigestFinal_ex(c, out + i * stride, NULL);
	}
	EVP_MD_CTX_free(salted);
	EVP_MD_CTX_free(c);
	return ok ? 0 : ht_fail(err, ENOMEM, "hashing failed in OpenSSL");
}
