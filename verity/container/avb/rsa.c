/* RSA for Android Verified Boot, through OpenSSL in the library's
 * private context (hashtree/hasher.h): keys, AVB's public key blob,
 * signing and checking vbmeta blobs. */
#include "verity/container/avb/rsa.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "hashtree/hasher.h"
#include "verity/storage/file.h"
#include "hashtree/libcrypto.h"

#define KEY_FILE_MAX (1u << 20)

static const char *ossl_reason(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *s = e ? ERR_reason_error_string(e) : NULL;

	return s ? s : "not a PEM RSA key";
}

void verity_avb_key_free(EVP_PKEY *key)
{
	EVP_PKEY_free(key);
}

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

int verity_avb_key_load(const char *path, int want_private, EVP_PKEY **key,
			unsigned *bits, struct ht_error *err)
{
	OSSL_LIB_CTX *ctx;
	uint8_t *buf = NULL;
	size_t len;
	BIO *bio = NULL;
	BIGNUM *e = NULL;
	EVP_PKEY *k = NULL;
	char need[300];
	int r;

	*key = NULL;
	snprintf(need, sizeof(need), "%.256s: the key", path);
	if ((r = ht_libcrypto_load(need, err)))
		return r;
	ctx = ht_crypto_libctx();
	ERR_clear_error();
	if (!ctx)
		return ht_fail(err, ENOMEM, "cannot initialise OpenSSL");
	if ((r = verity_read_file(path, "key file", KEY_FILE_MAX, &buf, &len,
				  err)))
		return r == -ENOENT ? -EINVAL : r;
	if (!(bio = BIO_new_mem_buf(buf, (int)len))) {
		free(buf);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	k = PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, ctx, NULL);
	if (!k && !want_private) {
		(void)BIO_reset(bio);
		ERR_clear_error();
		k = PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, ctx, NULL);
	}
	BIO_free(bio);
	free(buf);
	if (!k)
		return ht_fail(err, EINVAL,
			       "%s: cannot read a PEM RSA %skey: %s", path,
			       want_private ? "private " : "", ossl_reason());
	if (!EVP_PKEY_is_a(k, "RSA")) {
		EVP_PKEY_free(k);
		return ht_fail(err, EINVAL, "%s: not an RSA key", path);
	}
	if (!EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_E, &e) ||
	    !BN_is_word(e, 65537)) {
		BN_free(e);
		EVP_PKEY_free(k);
		return ht_fail(err, EINVAL,
			       "%s: only RSA keys with exponent 65537 are "
			       "supported",
			       path);
	}
	BN_free(e);
	*bits = pow2_at_least((unsigned)EVP_PKEY_get_bits(k));
	*key = k;
	return 0;
}

int verity_avb_key_blob(EVP_PKEY *key, uint8_t **blob, size_t *len,
			struct ht_error *err)
{
	BIGNUM *n = NULL, *b32 = BN_new(), *inv = BN_new(), *rr = BN_new();
	BN_CTX *bn = BN_CTX_new();
	unsigned bits = pow2_at_least((unsigned)EVP_PKEY_get_bits(key));
	size_t nb = bits / 8;
	uint8_t *out = NULL;
	int r = -ENOMEM;

	*blob = NULL;
	if (!b32 || !inv || !rr || !bn ||
	    !EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n))
		goto out;
	/* n0inv = -1 / n mod 2^32; rr = (2^bits(n))^2 mod n */
	BN_zero(rr);
	if (!BN_set_bit(b32, 32) || !BN_mod_inverse(inv, n, b32, bn) ||
	    !BN_sub(inv, b32, inv) || !BN_set_bit(rr, 2 * BN_num_bits(n)) ||
	    !BN_mod(rr, rr, n, bn))
		goto out;
	if (!(out = calloc(1, 8 + 2 * nb)))
		goto out;
	verity_avb_put32(out, bits);
	verity_avb_put32(out + 4, (uint32_t)BN_get_word(inv));
	if (BN_bn2binpad(n, out + 8, (int)nb) < 0 ||
	    BN_bn2binpad(rr, out + 8 + nb, (int)nb) < 0) {
		free(out);
		out = NULL;
		goto out;
	}
	*blob = out;
	*len = 8 + 2 * nb;
	r = 0;
out:
	BN_free(n);
	BN_free(b32);
	BN_free(inv);
	BN_free(rr);
	BN_CTX_free(bn);
	return r ? ht_fail(err, -r, "cannot encode the public key") : 0;
}

int verity_avb_key_file_blob(const char *path, uint8_t **blob, size_t *len,
			     struct ht_error *err)
{
	EVP_PKEY *key;
	unsigned bits;
	int r = verity_avb_key_load(path, 0, &key, &bits, err);

	if (r)
		return r;
	r = verity_avb_key_blob(key, blob, len, err);
	verity_avb_key_free(key);
	return r;
}

int verity_avb_vbmeta_has_key(const struct avb_vbmeta *v, const uint8_t *blob,
			      size_t len)
{
	return len == v->h.public_key_size && !memcmp(blob, v->public_key, len);
}

static EVP_MD *fetch_md(const struct avb_algorithm_info *alg)
{
	return EVP_MD_fetch(ht_crypto_libctx(), alg->digest, NULL);
}

int verity_avb_digest(const struct avb_algorithm_info *alg, const uint8_t *a,
		      size_t alen, const uint8_t *b, size_t blen, uint8_t *out,
		      struct ht_error *err)
{
	char need[64];
	EVP_MD *md;
	EVP_MD_CTX *c;
	int ok;

	snprintf(need, sizeof(need), "the vbmeta digest (%s)", alg->digest);
	if ((ok = ht_libcrypto_load(need, err)))
		return ok;
	md = fetch_md(alg);
	c = EVP_MD_CTX_new();
	ok = md && c && EVP_DigestInit_ex(c, md, NULL) &&
		 EVP_DigestUpdate(c, a, alen) && EVP_DigestUpdate(c, b, blen) &&
		 EVP_DigestFinal_ex(c, out, NULL);

	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return ok ? 0 : ht_fail(err, EIO, "cannot hash with %s", alg->digest);
}

/* A PKCS#1 v1.5 context for key and alg's digest (sign or verify). */
static EVP_PKEY_CTX *pkcs1(EVP_PKEY *key, const struct avb_algorithm_info *alg,
			   int sign)
{
	EVP_PKEY_CTX *c =
		EVP_PKEY_CTX_new_from_pkey(ht_crypto_libctx(), key, NULL);
	EVP_MD *md = fetch_md(alg);
	int ok = c && md &&
		 (sign ? EVP_PKEY_sign_init(c) : EVP_PKEY_verify_init(c)) > 0 &&
		 EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) > 0 &&
		 EVP_PKEY_CTX_set_signature_md(c, md) > 0;

	EVP_MD_free(md);
	if (!ok) {
		EVP_PKEY_CTX_free(c);
		return NULL;
	}
	return c;
}

int verity_avb_sign_digest(EVP_PKEY *key, const struct avb_algorithm_info *alg,
			   const uint8_t *digest, uint8_t *sig,
			   struct ht_error *err)
{
	EVP_PKEY_CTX *c = pkcs1(key, alg, 1);
	size_t len = alg->key_bits / 8;
	int ok = c && EVP_PKEY_sign(c, sig, &len, digest, alg->hash_size) > 0 &&
		 len == alg->key_bits / 8;

	EVP_PKEY_CTX_free(c);
	return ok ? 0 : ht_fail(err, EIO, "cannot sign: %s", ossl_reason());
}

int verity_avb_verify_digest(struct evp_pkey_st *key,
			     const struct avb_algorithm_info *alg,
			     const uint8_t *digest, const uint8_t *sig)
{
	EVP_PKEY_CTX *c = pkcs1(key, alg, 0);
	int ok = c && EVP_PKEY_verify(c, sig, alg->key_bits / 8, digest,
				      alg->hash_size) == 1;

	EVP_PKEY_CTX_free(c);
	ERR_clear_error();
	return ok;
}

/* The public key an AVB key blob holds (n, exponent 65537). */
static EVP_PKEY *key_of_blob(const uint8_t *blob, size_t nb)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	BIGNUM *n = BN_bin2bn(blob + 8, (int)nb, NULL), *e = BN_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *c = NULL;
	EVP_PKEY *key = NULL;

	if (bld && n && e && BN_set_word(e, 65537) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) &&
	    (params = OSSL_PARAM_BLD_to_param(bld)) &&
	    (c = EVP_PKEY_CTX_new_from_name(ht_crypto_libctx(), "RSA", NULL)) &&
	    EVP_PKEY_fromdata_init(c) > 0)
		(void)EVP_PKEY_fromdata(c, &key, EVP_PKEY_PUBLIC_KEY, params);
	EVP_PKEY_CTX_free(c);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return key;
}

int verity_avb_vbmeta_check(const struct avb_vbmeta *v, const char *path,
			    struct ht_error *err)
{
	const struct avb_algorithm_info *alg =
		verity_avb_algorithm(v->h.algorithm);
	const uint8_t *aux = v->blob + AVB_HEADER_SIZE + v->h.auth_size;
	uint8_t digest[64];
	size_t nb = alg->key_bits / 8;
	EVP_PKEY_CTX *c;
	EVP_PKEY *key;
	char need[300];
	int ok, r;

	if (!alg->key_bits)
		return 0;
	snprintf(need, sizeof(need), "%.256s: checking its signature (%s)",
		 path, alg->name);
	if ((r = ht_libcrypto_load(need, err)))
		return r;
	ERR_clear_error();
	/* a key blob of the wrong shape is a malformed image; a digest or
	 * signature that does not match is a failed check */
	if (v->h.public_key_size != 8 + 2 * nb ||
	    verity_avb_be32(v->public_key) != alg->key_bits)
		return ht_fail(err, EINVAL,
			       "%s: vbmeta public key size %llu is not that "
			       "of a %u-bit key (%zu bytes) for %s",
			       path, (unsigned long long)v->h.public_key_size,
			       alg->key_bits, 8 + 2 * nb, alg->name);
	if ((r = verity_avb_digest(alg, v->blob, AVB_HEADER_SIZE, aux,
				   (size_t)v->h.aux_size, digest, err)))
		return r;
	if (memcmp(digest, v->hash, alg->hash_size))
		return ht_fail(err, EPERM,
			       "%s: the vbmeta digest does not match its "
			       "header and auxiliary block",
			       path);
	if (!(key = key_of_blob(v->public_key, nb)))
		return ht_fail(err, EPERM,
			       "%s: the embedded public key is not valid",
			       path);
	c = pkcs1(key, alg, 0);
	ok = c &&
	     EVP_PKEY_verify(c, v->signature, nb, digest, alg->hash_size) == 1;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(key);
	ERR_clear_error();
	return ok ? 0
		  : ht_fail(err, EPERM,
			    "%s: the vbmeta signature does not match its "
			    "embedded public key",
			    path);
}
