/* The signature schemes of vbmeta images (scheme.h): RSA through
 * OpenSSL in the library's private context (hashtree/hasher.h), ML-DSA
 * through verity/sign/mldsa.c, keys read from one file whatever their
 * scheme. */
#include "verity/sign/scheme.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "hashtree/hasher.h"
#include "verity/sign/pkcs11.h"
#include "verity/storage/file.h"
#include "hashtree/libcrypto.h"

#define KEY_FILE_MAX (1u << 20)

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* ---- RSA ---- */

static const char *ossl_reason(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *s = e ? ERR_reason_error_string(e) : NULL;

	return s ? s : "not a PEM RSA key";
}

static unsigned pow2_at_least(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* An RSA AVB public-key blob: u32 key bits (2048, 4096, 8192), n0inv,
 * n and rr. */
static int is_rsa_blob(const uint8_t *buf, size_t len)
{
	uint32_t bits;

	if (len < 8)
		return 0;
	bits = be32(buf);
	return (bits == 2048 || bits == 4096 || bits == 8192) &&
	       len == 8 + 2 * (size_t)bits / 8;
}

/* The key's AVB public-key blob (malloc'd): u32 bits, u32 n0inv, n, rr,
 * with rr = (2^bits(n))^2 mod n and n0inv = -1 / n mod 2^32. */
static int rsa_blob(EVP_PKEY *key, unsigned bits, uint8_t **blob, size_t *len,
		    struct ht_error *err)
{
	BIGNUM *n = NULL, *b32 = BN_new(), *inv = BN_new(), *rr = BN_new();
	BN_CTX *bn = BN_CTX_new();
	size_t nb = bits / 8;
	uint8_t *out = NULL;
	int r = -ENOMEM;

	*blob = NULL;
	if (!b32 || !inv || !rr || !bn ||
	    !EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n))
		goto out;
	BN_zero(rr);
	if (!BN_set_bit(b32, 32) || !BN_mod_inverse(inv, n, b32, bn) ||
	    !BN_sub(inv, b32, inv) || !BN_set_bit(rr, 2 * BN_num_bits(n)) ||
	    !BN_mod(rr, rr, n, bn))
		goto out;
	if (!(out = calloc(1, 8 + 2 * nb)))
		goto out;
	put32(out, bits);
	put32(out + 4, (uint32_t)BN_get_word(inv));
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

/* k made of an RSA key read (its exponent checked, its blob made). */
static int rsa_key(const char *path, EVP_PKEY *key, int priv,
		   struct verity_sigkey *k, struct ht_error *err)
{
	BIGNUM *e = NULL;

	k->kind = VERITY_SCHEME_RSA;
	k->rsa = key;
	k->has_private = priv;
	if (!EVP_PKEY_is_a(key, "RSA"))
		return ht_fail(err, EINVAL, "%s: not an RSA key", path);
	if (!EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) ||
	    !BN_is_word(e, 65537)) {
		BN_free(e);
		return ht_fail(err, EINVAL,
			       "%s: only RSA keys with exponent 65537 are "
			       "supported",
			       path);
	}
	BN_free(e);
	k->bits = pow2_at_least((unsigned)EVP_PKEY_get_bits(key));
	if (k->bits < 2048 || k->bits > 8192)
		return ht_fail(err, EINVAL,
			       "%s: an RSA key of %u bits (AVB's are 2048, 4096 "
			       "or 8192)",
			       path, k->bits);
	return rsa_blob(key, k->bits, &k->blob, &k->blob_len, err);
}

/* An RSA key from PEM: private, or (want_private 0) public. */
static int rsa_pem(const char *path, const uint8_t *buf, size_t len,
		   int want_private, struct verity_sigkey *k,
		   struct ht_error *err)
{
	OSSL_LIB_CTX *ctx = ht_crypto_libctx();
	EVP_PKEY *key;
	int priv = 1;
	BIO *bio;

	ERR_clear_error();
	if (!ctx)
		return ht_fail(err, ENOMEM, "cannot initialise OpenSSL");
	if (!(bio = BIO_new_mem_buf(buf, (int)len)))
		return ht_fail(err, ENOMEM, "out of memory");
	key = PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, ctx, NULL);
	if (!key && !want_private) {
		(void)BIO_reset(bio);
		ERR_clear_error();
		key = PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, ctx, NULL);
		priv = 0;
	}
	BIO_free(bio);
	if (!key)
		return ht_fail(err, EINVAL,
			       "%s: cannot read a PEM RSA %skey: %s", path,
			       want_private ? "private " : "", ossl_reason());
	return rsa_key(path, key, priv, k, err);
}

/* An RSA key in a PKCS#11 token (the PIN, if any, in the URI). */
static int rsa_token(const char *uri, struct verity_sigkey *k,
		     struct ht_error *err)
{
	EVP_PKEY *key;
	int r = verity_pkcs11_load_key(uri, NULL, NULL, &key, err);

	/* avbtool's options have no PIN file: the URI holds it */
	if (r == -EACCES)
		return ht_fail(err, EINVAL,
			       "%s: no private key there, or the token needs "
			       "its PIN (give it in the URI: ...;pin-value=PIN)",
			       uri);
	return r ? r : rsa_key(uri, key, 1, k, err);
}

static EVP_MD *fetch_md(const struct verity_scheme *s)
{
	return EVP_MD_fetch(ht_crypto_libctx(), s->digest, NULL);
}

/* A PKCS#1 v1.5 context for key and s's digest (sign or verify). */
static EVP_PKEY_CTX *pkcs1(EVP_PKEY *key, const struct verity_scheme *s,
			   int sign)
{
	EVP_PKEY_CTX *c =
		EVP_PKEY_CTX_new_from_pkey(ht_crypto_libctx(), key, NULL);
	EVP_MD *md = fetch_md(s);
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

/* The public key an RSA AVB blob holds (n; exponent 65537). */
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

static int need_libcrypto(const struct verity_scheme *s, const char *what,
			  struct ht_error *err)
{
	char need[300];

	snprintf(need, sizeof(need), "%.256s (%s)", what, s->name);
	return ht_libcrypto_load(need, err);
}

int verity_scheme_load(const struct verity_scheme *s, const char *need,
		       struct ht_error *err)
{
	return s->kind == VERITY_SCHEME_RSA ? ht_libcrypto_load(need, err) : 0;
}

int verity_scheme_digest(const struct verity_scheme *s,
			 const struct verity_msg *m, size_t n, uint8_t *out,
			 struct ht_error *err)
{
	EVP_MD *md;
	EVP_MD_CTX *c;
	int ok, r;

	if ((r = need_libcrypto(s, "the digest signed", err)))
		return r;
	md = fetch_md(s);
	c = EVP_MD_CTX_new();
	ok = md && c && EVP_DigestInit_ex(c, md, NULL);
	for (size_t i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(c, m[i].p, m[i].len);
	ok = ok && EVP_DigestFinal_ex(c, out, NULL);
	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return ok ? 0 : ht_fail(err, EIO, "cannot hash with %s", s->digest);
}

/* ---- ML-DSA ---- */

static int mldsa_read(const char *path, const uint8_t *buf, size_t len,
		      const struct verity_scheme *want, struct verity_sigkey *k,
		      struct ht_error *err)
{
	struct verity_mldsa_key *key = malloc(sizeof(*key));
	int level = want && want->kind == VERITY_SCHEME_MLDSA ? want->level
							      : 0;
	size_t n;
	int r;

	if (!key || !(k->blob = malloc(VERITY_MLDSA_AVB_BLOB_MAX))) {
		free(key);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	k->kind = VERITY_SCHEME_MLDSA;
	k->mldsa = key;
	if ((r = verity_mldsa_key_read(buf, len, level, path, key, err)))
		return r;
	k->level = key->level;
	k->has_private = key->has_secret;
	if (verity_mldsa_avb_blob(key->level, key->pk, k->blob,
				  VERITY_MLDSA_AVB_BLOB_MAX, &n))
		return ht_fail(err, EINVAL, "%s: not an ML-DSA key", path);
	k->blob_len = n;
	return 0;
}

/* mu of the message, from the public key's digest tr. */
static void mldsa_mu(const uint8_t tr[VERITY_MLDSA_TR_BYTES],
		     const struct verity_msg *m, size_t n,
		     uint8_t mu[VERITY_MLDSA_MU_BYTES])
{
	struct verity_mldsa_mu c;

	(void)verity_mldsa_mu_init_tr(&c, tr, NULL, 0);
	for (size_t i = 0; i < n; i++)
		verity_mldsa_mu_update(&c, m[i].p, m[i].len);
	verity_mldsa_mu_final(&c, mu);
}

/* ---- keys ---- */

/* The algorithm a key is of, in a message: "an ML-DSA-65 key", "an RSA
 * key". */
static const char *key_kind(const struct verity_sigkey *k)
{
	return k->kind == VERITY_SCHEME_RSA ? "an RSA key"
	       : k->level == 65             ? "an ML-DSA-65 key"
					    : "an ML-DSA-87 key";
}

/* The key read checked against what is asked. */
static int key_fits(const char *path, const struct verity_scheme *want,
		    int want_private, const struct verity_sigkey *k,
		    struct ht_error *err)
{
	if (want && want->kind != k->kind)
		return ht_fail(err, EINVAL, "%s: %s, where %s is asked (%s)",
			       path, key_kind(k), want->name,
			       want->kind == VERITY_SCHEME_RSA
				       ? "an RSA key"
				       : "an ML-DSA key");
	if (want && want->kind == VERITY_SCHEME_RSA &&
	    k->bits != want->key_bits)
		return ht_fail(err, EINVAL,
			       "%s: key of %u bits is the wrong size for "
			       "algorithm %s (%u bits)",
			       path, k->bits, want->name, want->key_bits);
	if (want_private && !k->has_private)
		return ht_fail(err, EINVAL,
			       "%s: a public %s, where the private key is "
			       "needed to sign",
			       path, key_kind(k) + 3);
	return 0;
}

int verity_sigkey_read(const char *path, const struct verity_scheme *want,
		       int want_private, struct verity_sigkey *k,
		       struct ht_error *err)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	char need[300];
	int r;

	memset(k, 0, sizeof(*k));
	snprintf(need, sizeof(need), "%.256s: the key", path);
	if (verity_pkcs11_is_uri(path)) {
		/* libp11's engine (Debian 12: 0.4.12) maps RSA and EC keys
		 * only, and no PKCS#11 module packaged there (SoftHSM 2.6)
		 * has ML-DSA mechanisms */
		if (want && want->kind == VERITY_SCHEME_MLDSA)
			return ht_fail(err, EINVAL,
				       "%s: an ML-DSA key in a PKCS#11 token "
				       "cannot be used here (OpenSSL's pkcs11 "
				       "engine knows RSA and EC keys only); "
				       "sign with --signing_helper and the "
				       "token's own tool",
				       path);
		if (!(r = ht_libcrypto_load(need, err)))
			r = rsa_token(path, k, err);
	} else if ((r = verity_read_file(path, "key file", KEY_FILE_MAX, &buf,
					 &len, err))) {
		return r == -ENOENT ? -EINVAL : r;
	} else if (verity_mldsa_key_level(buf, len) ||
		   (want && want->kind == VERITY_SCHEME_MLDSA)) {
		r = mldsa_read(path, buf, len, want, k, err);
	} else if (is_rsa_blob(buf, len)) {
		k->kind = VERITY_SCHEME_RSA;
		k->bits = be32(buf);
		k->blob_len = len;
		if (!(k->blob = malloc(len)))
			r = ht_fail(err, ENOMEM, "out of memory");
		else
			memcpy(k->blob, buf, len);
	} else if (!(r = ht_libcrypto_load(need, err))) {
		r = rsa_pem(path, buf, len, want_private, k, err);
	}
	if (buf) {
		explicit_bzero(buf, len);
		free(buf);
	}
	if (!r)
		r = key_fits(path, want, want_private, k, err);
	if (r)
		verity_sigkey_free(k);
	return r;
}

void verity_sigkey_free(struct verity_sigkey *k)
{
	if (k->rsa)
		EVP_PKEY_free(k->rsa);
	if (k->mldsa) {
		verity_mldsa_key_wipe(k->mldsa);
		free(k->mldsa);
	}
	free(k->blob);
	memset(k, 0, sizeof(*k));
}

int verity_sigkey_file_blob(const char *path, uint8_t **blob, size_t *len,
			    struct ht_error *err)
{
	struct verity_sigkey k;
	int r = verity_sigkey_read(path, NULL, 0, &k, err);

	if (r)
		return r;
	*blob = k.blob;
	*len = k.blob_len;
	k.blob = NULL;
	verity_sigkey_free(&k);
	return 0;
}

/* ---- signing and checking ---- */

int verity_scheme_blob_check(const struct verity_scheme *s,
			     const uint8_t *blob, size_t len, const char *what,
			     struct ht_error *err)
{
	const uint8_t *pk;

	switch (s->kind) {
	case VERITY_SCHEME_RSA:
		if (len != s->blob_size || be32(blob) != s->key_bits)
			return ht_fail(err, EINVAL,
				       "%s size %zu is not that of a %u-bit "
				       "key (%u bytes) for %s",
				       what, len, s->key_bits, s->blob_size,
				       s->name);
		return 0;
	case VERITY_SCHEME_MLDSA:
		return verity_mldsa_avb_blob_read(blob, len, s->level, what,
						  NULL, &pk, err);
	default:
		return ht_fail(err, EINVAL, "%s: %s has no key", what,
			       s->name);
	}
}

int verity_scheme_sign(const struct verity_scheme *s,
		       const struct verity_sigkey *k,
		       const struct verity_msg *m, size_t n,
		       enum verity_mldsa_rnd how, uint8_t *digest,
		       uint8_t *sig, struct ht_error *err)
{
	uint8_t mu[VERITY_MLDSA_MU_BYTES];
	EVP_PKEY_CTX *c;
	size_t len;
	int r, ok;

	if (k->kind != s->kind || !k->has_private ||
	    (s->kind == VERITY_SCHEME_RSA && (!k->rsa || k->bits != s->key_bits)) ||
	    (s->kind == VERITY_SCHEME_MLDSA && k->level != s->level))
		return ht_fail(err, EINVAL, "the key cannot sign %s", s->name);
	if (s->kind == VERITY_SCHEME_MLDSA) {
		/* tr is bytes 64-127 of the expanded key */
		mldsa_mu(k->mldsa->sk + 64, m, n, mu);
		r = verity_mldsa_sign_mu(s->level, k->mldsa->sk, mu, how, NULL,
					 sig);
		if (r == -ENOMEM)
			return ht_fail(err, ENOMEM, "out of memory");
		return r ? ht_fail(err, EIO, "cannot sign with %s: %s",
				   s->name, strerror(-r))
			 : 0;
	}
	if ((r = verity_scheme_digest(s, m, n, digest, err)))
		return r;
	c = pkcs1(k->rsa, s, 1);
	len = s->sig_size;
	ok = c && EVP_PKEY_sign(c, sig, &len, digest, s->hash_size) > 0 &&
	     len == s->sig_size;
	EVP_PKEY_CTX_free(c);
	return ok ? 0 : ht_fail(err, EIO, "cannot sign: %s", ossl_reason());
}

int verity_scheme_verify(const struct verity_scheme *s, const uint8_t *blob,
			 size_t blob_len, const struct verity_msg *m, size_t n,
			 const uint8_t *digest, const uint8_t *sig,
			 size_t sig_len, const char *what,
			 struct ht_error *err)
{
	uint8_t d[VERITY_SCHEME_MAX_HASH], mu[VERITY_MLDSA_MU_BYTES];
	uint8_t tr[VERITY_MLDSA_TR_BYTES];
	EVP_PKEY_CTX *c;
	EVP_PKEY *key;
	int r, ok;

	if ((r = verity_scheme_blob_check(s, blob, blob_len, what, err)))
		return r;
	if (s->kind == VERITY_SCHEME_MLDSA) {
		verity_mldsa_tr(blob + 4, blob_len - 4, tr);
		mldsa_mu(tr, m, n, mu);
		r = verity_mldsa_verify_mu(s->level, blob + 4, blob_len - 4, mu,
					   sig, sig_len);
		if (r == -ENOMEM)
			return ht_fail(err, ENOMEM, "out of memory");
		return r == -EBADMSG ? -EPERM
		       : r ? ht_fail(err, -r, "%s: cannot check a %s signature",
				     what, s->name)
			   : 0;
	}
	if ((r = verity_scheme_digest(s, m, n, d, err)))
		return r;
	if (digest && memcmp(d, digest, s->hash_size))
		return -EBADMSG;
	if (sig_len != s->sig_size)
		return -EPERM;
	ERR_clear_error();
	if (!(key = key_of_blob(blob, s->key_bits / 8)))
		return ht_fail(err, EINVAL, "%s: the public key is not a valid "
			       "RSA key", what);
	c = pkcs1(key, s, 0);
	ok = c && EVP_PKEY_verify(c, sig, sig_len, d, s->hash_size) == 1;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(key);
	ERR_clear_error();
	return ok ? 0 : -EPERM;
}

int verity_mldsa_generate_pem(int level, char **pem, size_t *len,
			      struct ht_error *err)
{
	struct verity_mldsa_key *key = calloc(1, sizeof(*key));
	const size_t room = 8192;
	uint8_t *der = malloc(room);
	char *out = malloc(room);
	size_t got = 0, n;
	int r = 0;

	*pem = NULL;
	if (!key || !der || !out) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if (level != 65 && level != 87) {
		r = ht_fail(err, EINVAL, "ML-DSA-%d is not an AVB algorithm",
			    level);
		goto out;
	}
	while (got < VERITY_MLDSA_SEED_BYTES) {
		ssize_t k = getrandom(key->seed + got,
				      VERITY_MLDSA_SEED_BYTES - got, 0);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			r = ht_fail(err, EIO, "no random seed: %s",
				    k < 0 ? strerror(errno) : "none given");
			goto out;
		}
		got += (size_t)k;
	}
	key->level = level;
	key->has_seed = key->has_secret = 1;
	if ((r = verity_mldsa_keygen(level, key->seed, key->pk, key->sk)) ||
	    (r = verity_mldsa_pkcs8_der(key, VERITY_MLDSA_BOTH, der, room,
					&n)) ||
	    (r = verity_mldsa_pem("PRIVATE KEY", der, n, out, room))) {
		r = ht_fail(err, -r, "cannot make an ML-DSA-%d key", level);
		goto out;
	}
	*pem = out;
	*len = strlen(out);
	out = NULL;
out:
	if (key) {
		verity_mldsa_key_wipe(key);
		free(key);
	}
	if (der) {
		explicit_bzero(der, room);
		free(der);
	}
	if (out) {
		explicit_bzero(out, room);
		free(out);
	}
	return r;
}
