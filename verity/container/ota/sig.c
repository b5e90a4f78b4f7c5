/* An OTA payload's metadata and payload signatures checked
 * (verity/container/ota/ota.h, verity_ota_verify; the facts:
 * docs/ota.md). */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "hashtree/libcrypto.h"

#define CHUNK     (1u << 20)
#define MAX_PEM   (1u << 20)

/* The PEM file at path, NUL-ended. */
static int read_pem(const char *path, char **out, size_t *len,
		    struct ht_error *err)
{
	struct verity_device d;
	int r;

	if ((r = verity_device_open(&d, path, VERITY_OPEN_READ, err)))
		return r;
	if (d.size > MAX_PEM) {
		verity_device_close(&d);
		return ht_fail(err, EINVAL, "%s: %llu bytes: not a PEM key",
			       path, (unsigned long long)d.size);
	}
	if (!(*out = malloc((size_t)d.size + 1))) {
		verity_device_close(&d);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	r = verity_device_read(&d, 0, *out, (size_t)d.size, err);
	(*out)[d.size] = '\0';
	*len = (size_t)d.size;
	verity_device_close(&d);
	if (r) {
		free(*out);
		*out = NULL;
	}
	return r;
}

/* The key of a PEM certificate (*x kept: the key is its) or public key. */
static int key_of(struct verity_ota *o, const char *pem, size_t len,
		  const char *what, X509 **x, EVP_PKEY **key,
		  struct ht_error *err)
{
	char subject[512];
	BIO *b;

	*x = NULL;
	*key = NULL;
	if (!(b = BIO_new_mem_buf(pem, (int)len)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((*x = PEM_read_bio_X509(b, NULL, NULL, NULL))) {
		*key = X509_get0_pubkey(*x);
		if (X509_NAME_oneline(X509_get_subject_name(*x), subject,
				      sizeof(subject)))
			o->signer = strdup(subject);
	} else {
		BIO_free(b);
		if (!(b = BIO_new_mem_buf(pem, (int)len)))
			return ht_fail(err, ENOMEM, "out of memory");
		*key = PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, NULL, NULL);
	}
	BIO_free(b);
	ERR_clear_error();
	if (!*key)
		return ht_fail(err, EINVAL,
			       "%s: neither a PEM certificate nor a PEM public "
			       "key",
			       what);
	if (EVP_PKEY_is_a(*key, "RSA")) {
		int bits = EVP_PKEY_get_bits(*key);

		snprintf(o->key_kind, sizeof(o->key_kind), "RSA-%d", bits);
		if (bits != 2048 && bits != 4096)
			return ht_fail(err, EINVAL,
				       "%s: an RSA-%d key: update_engine takes "
				       "RSA-2048 and RSA-4096 payload keys "
				       "only",
				       what, bits);
	} else if (EVP_PKEY_is_a(*key, "EC")) {
		snprintf(o->key_kind, sizeof(o->key_kind), "EC-%d",
			 EVP_PKEY_get_bits(*key));
	} else {
		return ht_fail(err, EINVAL,
			       "%s: neither an RSA nor an EC key: payload "
			       "signatures are not checked with it",
			       what);
	}
	return 0;
}

int verity_ota_digest(const struct verity_ota *o, const char *alg, uint64_t a,
		      uint64_t alen, uint64_t b, uint64_t blen, uint8_t *out,
		      struct ht_error *err)
{
	EVP_MD *md = EVP_MD_fetch(NULL, alg, NULL);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	uint8_t *buf = malloc(CHUNK);
	const uint64_t at[2] = {a, b}, len[2] = {alen, blen};
	unsigned n = 0;
	int r = 0;

	if (!md || !c || !buf || !EVP_DigestInit_ex(c, md, NULL)) {
		r = ht_fail(err, ENOMEM, "%s cannot be computed (OpenSSL)", alg);
		goto out;
	}
	for (int k = 0; k < 2 && !r; k++)
		for (uint64_t done = 0; done < len[k] && !r;) {
			size_t step = len[k] - done < CHUNK
					      ? (size_t)(len[k] - done)
					      : CHUNK;

			if (!(r = verity_ota_src_read(&o->src, at[k] + done,
						      buf, step, err)) &&
			    !EVP_DigestUpdate(c, buf, step))
				r = ht_fail(err, EIO, "%s failed (OpenSSL)", alg);
			done += step;
		}
	if (!r && !EVP_DigestFinal_ex(c, out, &n))
		r = ht_fail(err, EIO, "%s failed (OpenSSL)", alg);
out:
	free(buf);
	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return r;
}

static int digest(const struct verity_ota *o, uint64_t a, uint64_t alen,
		  uint64_t b, uint64_t blen, uint8_t out[32],
		  struct ht_error *err)
{
	return verity_ota_digest(o, "SHA256", a, alen, b, blen, out, err);
}

int verity_ota_verify_digest(void *pkey, const char *alg, const uint8_t *sig,
			     size_t len, const uint8_t *d, size_t dlen)
{
	EVP_PKEY *key = pkey;
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	EVP_MD *md = EVP_MD_fetch(NULL, alg, NULL);
	int ok = c && md && EVP_PKEY_verify_init(c) > 0;

	if (ok && EVP_PKEY_is_a(key, "RSA"))
		ok = EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) > 0 &&
		     EVP_PKEY_CTX_set_signature_md(c, md) > 0;
	ok = ok && EVP_PKEY_verify(c, sig, len, d, dlen) == 1;
	EVP_MD_free(md);
	EVP_PKEY_CTX_free(c);
	ERR_clear_error();
	return ok;
}

/* A Signatures message's verdict over digest d: any entry good. Each
 * entry's data is cut to its unpadded_signature_size when it has one. */
static enum verity_ota_verdict verdict(EVP_PKEY *key,
				       const verity_signatures *s,
				       const uint8_t d[32])
{
	int zeros = 1;

	if (!s || !s->n_signatures)
		return VERITY_OTA_SIG_NONE;
	for (size_t i = 0; i < s->n_signatures; i++) {
		const ChromeosUpdateEngine__Signatures__Signature *g =
			s->signatures[i];
		size_t len = g->data.len;

		if (g->has_unpadded_signature_size &&
		    g->unpadded_signature_size < len)
			len = g->unpadded_signature_size;
		for (size_t k = 0; k < g->data.len; k++)
			if (g->data.data[k])
				zeros = 0;
		if (len && verity_ota_verify_digest(key, "SHA256",
						    g->data.data, len, d, 32))
			return VERITY_OTA_SIG_GOOD;
	}
	return zeros ? VERITY_OTA_SIG_PLACEHOLDER : VERITY_OTA_SIG_BAD;
}

int verity_ota_verify(struct verity_ota *o, const char *cert,
		      struct ht_error *err)
{
	const struct verity_payload *p = &o->payload;
	const verity_manifest *m = p->m;
	uint8_t dm[32], dp[32];
	char *pem = NULL, what[4096 + 64];
	EVP_PKEY *key = NULL;
	X509 *x = NULL;
	size_t len = 0;
	int r;

	if ((r = ht_libcrypto_load("checking an OTA payload's signatures",
				   err)))
		return r;
	if (cert) {
		snprintf(what, sizeof(what), "%s", cert);
		r = read_pem(cert, &pem, &len, err);
	} else {
		snprintf(what, sizeof(what), "%s: " VERITY_OTA_OTACERT,
			 o->src.name);
		if (!(r = verity_ota_entry(o, VERITY_OTA_OTACERT,
					   &pem, &len, err)) &&
		    !pem)
			r = ht_fail(err, EINVAL,
				    "%s: no certificate to check its "
				    "signatures with (a bare payload, or a "
				    "zip without otacert): give one",
				    o->src.name);
	}
	if (!r)
		r = key_of(o, pem, len, what, &x, &key, err);
	if (!r)
		r = digest(o, p->at, p->metadata_size, 0, 0, dm, err);
	if (!r && m->has_signatures_offset)
		r = digest(o, p->at, p->metadata_size, p->at + p->blobs,
			   m->signatures_offset, dp, err);
	if (!r) {
		o->verified = 1;
		o->trusted = cert != NULL;
		o->metadata_verdict = verdict(key, p->metadata_sig, dm);
		o->payload_verdict = m->has_signatures_offset
					     ? verdict(key, p->payload_sig, dp)
					     : VERITY_OTA_SIG_NONE;
		if (o->payload_verdict == VERITY_OTA_SIG_GOOD && !p->ends_file)
			o->payload_verdict = VERITY_OTA_SIG_TRAILING;
		if (o->is_zip)
			r = verity_ota_check_zip(o, cert ? key : NULL, dm, err);
	}
	if (x)
		X509_free(x);
	else
		EVP_PKEY_free(key);
	free(pem);
	return r;
}

void verity_ota_zip_signer(struct verity_ota *o)
{
	const struct verity_zip *z = &o->zip;
	STACK_OF(X509) *s = NULL;
	const uint8_t *q;
	uint8_t *der;
	PKCS7 *p7 = NULL;
	char subject[512];

	if (!o->is_zip || !z->signature || !z->cms_len ||
	    ht_libcrypto_load(NULL, NULL) || !(der = malloc(z->cms_len)))
		return;
	q = der;
	if (!verity_ota_src_read(&o->src, z->cms, der, (size_t)z->cms_len,
				 NULL) &&
	    (p7 = d2i_PKCS7(NULL, &q, (long)z->cms_len)) &&
	    (s = PKCS7_get0_signers(p7, NULL, 0)) && sk_X509_num(s) > 0 &&
	    X509_NAME_oneline(X509_get_subject_name(sk_X509_value(s, 0)),
			      subject, sizeof(subject)))
		o->zip_signer = strdup(subject);
	sk_X509_free(s);
	PKCS7_free(p7);
	ERR_clear_error();
	free(der);
}
