/* An OTA zip's own checks (verity/container/ota/ota.h,
 * verity_ota_check_zip; the facts: docs/ota.md):
 * the whole-file signature, otacert, payload_properties.txt and the
 * property files. Each verdict is "good" or says why not, naming the
 * field; only a failure to read or compute is an error. */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include "hashtree/libcrypto.h"
#include "verity/container/ota/pbc.h"
#include "ota_metadata.pb-c.h"

#define MAX_CMS (65535u)

static void say(struct verity_ota *o, int k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->zip_check[k], sizeof(o->zip_check[k]), fmt, ap);
	va_end(ap);
}

/* The CMS's one SignerInfo and its certificate, or a verdict. */
static int signature(struct verity_ota *o, EVP_PKEY *trusted, X509 **signer,
		     PKCS7 **p7out, struct ht_error *err)
{
	const struct verity_zip *z = &o->zip;
	const int k = VERITY_OTA_ZIP_SIGNATURE;
	STACK_OF(PKCS7_SIGNER_INFO) *sis;
	STACK_OF(X509) *certs = NULL;
	PKCS7_SIGNER_INFO *si;
	uint8_t *der = NULL, d[64];
	const uint8_t *q;
	const char *alg;
	PKCS7 *p7 = NULL;
	EVP_PKEY *key;
	int r = 0, nid;

	*signer = NULL;
	*p7out = NULL;
	if (!z->signature) {
		say(o, k, "none (no whole-file signature footer in the zip "
			  "comment)");
		return 0;
	}
	if (z->magic_in_comment) {
		say(o, k, "bad (an end of central directory magic inside the "
			  "comment)");
		return 0;
	}
	if (z->cms_len > MAX_CMS || !(der = malloc((size_t)z->cms_len + 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = verity_ota_src_read(&o->src, z->cms, der, (size_t)z->cms_len,
				     err)))
		goto out;
	q = der;
	if (!(p7 = d2i_PKCS7(NULL, &q, (long)z->cms_len)) ||
	    OBJ_obj2nid(p7->type) != NID_pkcs7_signed || !p7->d.sign) {
		say(o, k, "bad (the comment's CMS is not a SignedData)");
		goto out;
	}
	sis = PKCS7_get_signer_info(p7);
	if (!sis || sk_PKCS7_SIGNER_INFO_num(sis) != 1) {
		say(o, k, "bad (%d signers: signapk writes one)",
		    sis ? sk_PKCS7_SIGNER_INFO_num(sis) : 0);
		goto out;
	}
	si = sk_PKCS7_SIGNER_INFO_value(sis, 0);
	if (si->auth_attr && sk_X509_ATTRIBUTE_num(si->auth_attr) > 0) {
		say(o, k, "bad (signed attributes: signapk signs the file's "
			  "digest itself)");
		goto out;
	}
	certs = PKCS7_get0_signers(p7, NULL, 0);
	if (!certs || sk_X509_num(certs) != 1) {
		say(o, k, "bad (the signer's certificate is not in the CMS)");
		goto out;
	}
	*signer = sk_X509_value(certs, 0);
	nid = si->digest_alg ? OBJ_obj2nid(si->digest_alg->algorithm) : 0;
	if (nid == NID_sha1) {
		alg = "SHA1";
		snprintf(o->zip_digest, sizeof(o->zip_digest), "SHA-1");
	} else if (nid == NID_sha256) {
		alg = "SHA256";
		snprintf(o->zip_digest, sizeof(o->zip_digest), "SHA-256");
	} else {
		say(o, k, "bad (digest algorithm %d: SHA-1 or SHA-256 only)",
		    nid);
		goto out;
	}
	if ((r = verity_ota_digest(o, alg, 0, z->signed_len, 0, 0, d, err)))
		goto out;
	key = trusted ? trusted : X509_get0_pubkey(*signer);
	if (!key || !si->enc_digest ||
	    !verity_ota_verify_digest(key, alg, si->enc_digest->data,
				      (size_t)si->enc_digest->length, d,
				      nid == NID_sha1 ? 20 : 32))
		say(o, k, trusted ? "bad (not signed by the key of --cert)"
				  : "bad (does not verify with the CMS's own "
				    "certificate)");
	else
		say(o, k, "good");
out:
	ERR_clear_error();
	free(der);
	sk_X509_free(certs);
	if (r || !*signer) {
		*signer = NULL;
		PKCS7_free(p7);
	} else {
		*p7out = p7; /* the signer's certificate lives in it */
	}
	return r;
}

/* otacert against the CMS's signer certificate (NULL: none to compare). */
static int otacert(struct verity_ota *o, X509 *signer, struct ht_error *err)
{
	const int k = VERITY_OTA_ZIP_OTACERT;
	uint8_t a[32], b[32];
	unsigned na = 0, nb = 0;
	X509 *x = NULL;
	char *pem = NULL;
	size_t len = 0;
	BIO *bio;
	const EVP_MD *md;
	int r;

	if ((r = verity_ota_entry(o, VERITY_OTA_OTACERT, &pem, &len, err)))
		return r;
	if (!pem) {
		say(o, k, "missing (no " VERITY_OTA_OTACERT ")");
		return 0;
	}
	if ((bio = BIO_new_mem_buf(pem, (int)len)))
		x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!x)
		say(o, k, "bad (not a PEM certificate)");
	else if (!signer)
		say(o, k, "not compared (no whole-file signer certificate)");
	else if (!md || !X509_digest(x, md, a, &na) ||
		 !X509_digest(signer, md, b, &nb))
		r = ht_fail(err, EIO, "a certificate's digest failed (OpenSSL)");
	else if (na != nb || memcmp(a, b, na))
		say(o, k, "bad (not the whole-file signature's signer "
			  "certificate)");
	else
		say(o, k, "good");
	EVP_MD_free((EVP_MD *)md);
	X509_free(x);
	ERR_clear_error();
	free(pem);
	return r;
}

/* payload_properties.txt's value of key, into v (NULL: none). */
static int prop(const char *s, const char *key, char *v, size_t n)
{
	size_t kl = strlen(key);

	for (; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		const char *e = strchr(s, '\n');
		size_t l = e ? (size_t)(e - s) : strlen(s);

		if (l > kl && !strncmp(s, key, kl) && s[kl] == '=') {
			if (l - kl - 1 >= n)
				return 0;
			memcpy(v, s + kl + 1, l - kl - 1);
			v[l - kl - 1] = '\0';
			return 1;
		}
	}
	return 0;
}

static int properties(struct verity_ota *o, const uint8_t dm[32],
		      struct ht_error *err)
{
	static const char *const keys[4] = {"FILE_HASH", "FILE_SIZE",
					    "METADATA_HASH", "METADATA_SIZE"};
	const struct verity_payload *p = &o->payload;
	const int k = VERITY_OTA_ZIP_PROPERTIES;
	char v[4][128], want[4][64];
	uint8_t fh[32];
	int r;

	if (!o->properties) {
		say(o, k, "missing (no " VERITY_OTA_PROPERTIES ")");
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (!prop(o->properties, keys[i], v[i], sizeof(v[i]))) {
			say(o, k, "bad (no %s)", keys[i]);
			return 0;
		}
	if ((r = verity_ota_digest(o, "SHA256", p->at, p->size, 0, 0, fh, err)))
		return r;
	EVP_EncodeBlock((unsigned char *)want[0], fh, 32);
	snprintf(want[1], sizeof(want[1]), "%" PRIu64, p->size);
	EVP_EncodeBlock((unsigned char *)want[2], dm, 32);
	snprintf(want[3], sizeof(want[3]), "%" PRIu64, p->metadata_size);
	for (int i = 0; i < 4; i++)
		if (strcmp(v[i], want[i])) {
			say(o, k, "bad (%s is %s, payload.bin's is %s)", keys[i],
			    v[i], want[i]);
			return 0;
		}
	say(o, k, "good");
	return 0;
}

/* One property-files value (in what) against the entries: 1 good. */
static int tokens(struct verity_ota *o, const char *what, const char *value)
{
	const int k = VERITY_OTA_ZIP_PROPERTY_FILES;
	const struct verity_payload *p = &o->payload;
	const char *s = value;
	size_t n = 0;

	while (*s) {
		char name[256];
		unsigned long long off, size;
		const struct verity_zip_entry *e = NULL;
		const char *end = strchr(s, ',');
		size_t l = end ? (size_t)(end - s) : strlen(s);
		int used = 0;

		while (l && s[l - 1] == ' ')
			l--;
		if (l == 0 && !end)
			break;
		if (l >= sizeof(name) ||
		    sscanf(s, "%255[^:,]:%llu:%llu%n", name, &off, &size,
			   &used) != 3 ||
		    (size_t)used != l) {
			say(o, k, "bad (%s: token %zu is not name:offset:size)",
			    what, n);
			return 0;
		}
		if (!strcmp(name, "payload_metadata.bin")) {
			const struct verity_zip_entry *pe =
				verity_zip_find(&o->zip, VERITY_OTA_PAYLOAD);

			if (!pe || off != pe->data || size != p->blobs) {
				say(o, k, "bad (%s: %s:%llu:%llu, the payload's "
					  "metadata is %llu bytes at %llu)",
				    what, name, off, size,
				    (unsigned long long)p->blobs,
				    pe ? (unsigned long long)pe->data : 0ull);
				return 0;
			}
		} else {
			for (size_t i = 0; i < o->zip.n && !e; i++) {
				const char *b = strrchr(o->zip.e[i].name, '/');

				if (!strcmp(b ? b + 1 : o->zip.e[i].name, name))
					e = &o->zip.e[i];
			}
			if (!e) {
				say(o, k, "bad (%s: %s: no such entry)", what,
				    name);
				return 0;
			}
			if (off != e->data || size != e->csize) {
				say(o, k, "bad (%s: %s:%llu:%llu, the entry's "
					  "data is %llu bytes at %llu)",
				    what, name, off, size,
				    (unsigned long long)e->csize,
				    (unsigned long long)e->data);
				return 0;
			}
		}
		n++;
		if (!end)
			break;
		s = end + 1;
	}
	return 1;
}

static int property_files(struct verity_ota *o, struct ht_error *err)
{
	static const char *const names[2] = {"ota-property-files",
					     "ota-streaming-property-files"};
	const Build__Tools__Releasetools__OtaMetadata *m = o->metadata;
	const int k = VERITY_OTA_ZIP_PROPERTY_FILES;
	char *legacy = NULL, what[128];
	size_t len = 0, seen = 0;
	int r;

	for (size_t i = 0; m && i < m->n_property_files; i++) {
		snprintf(what, sizeof(what), "metadata.pb %s",
			 m->property_files[i]->key);
		if (!tokens(o, what, m->property_files[i]->value))
			return 0;
		seen++;
	}
	if ((r = verity_ota_entry(o, "META-INF/com/android/metadata", &legacy,
				  &len, err)))
		return r;
	for (char *s = legacy; s && *s;) {
		char *nl = strchr(s, '\n');

		if (nl)
			*nl = '\0';
		for (int i = 0; i < 2; i++) {
			size_t l = strlen(names[i]);

			if (!strncmp(s, names[i], l) && s[l] == '=') {
				snprintf(what, sizeof(what), "metadata %s",
					 names[i]);
				if (!tokens(o, what, s + l + 1)) {
					free(legacy);
					return 0;
				}
				seen++;
			}
		}
		s = nl ? nl + 1 : NULL;
	}
	free(legacy);
	if (!seen)
		say(o, k, "none (no ota-property-files in metadata.pb or "
			  "metadata)");
	else
		say(o, k, "good");
	return 0;
}

int verity_ota_check_zip(struct verity_ota *o, void *trusted,
			 const uint8_t dm[32], struct ht_error *err)
{
	X509 *signer = NULL;
	PKCS7 *p7 = NULL;
	int r;

	for (int i = 0; i < VERITY_OTA_ZIP_CHECKS; i++)
		o->zip_check[i][0] = '\0';
	if (!(r = signature(o, trusted, &signer, &p7, err)) &&
	    !(r = otacert(o, signer, err)) && !(r = properties(o, dm, err)))
		r = property_files(o, err);
	PKCS7_free(p7);
	return r;
}
