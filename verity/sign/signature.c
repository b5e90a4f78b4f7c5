#include "verity/sign/signature.h"

#include "include/fastverity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "hashtree/hasher.h"
#include "verity/storage/file.h"
#include "verity/sign/pkcs11.h"
#include "hashtree/libcrypto.h"

int verity_read_signature(const char *path, uint8_t **out, size_t *len,
			  struct ht_error *err)
{
	int r = verity_read_file(path, "signature file", VERITY_MAX_SIGNATURE,
				 out, len, err);

	if (!r && !*len) {
		free(*out);
		*out = NULL;
		return ht_fail(err, EINVAL, "%s: empty signature file", path);
	}
	return r == -ENOENT ? -EINVAL : r;
}

/* PEM files are read whole (regular files of at most 1 MiB, never a
 * FIFO) into a memory BIO that owns the bytes. */
#define PEM_MAX_BYTES (1u << 20)

static int pem_bio(const char *path, const char *what, BIO **out,
		   struct ht_error *err)
{
	uint8_t *buf;
	size_t len;
	int r = verity_read_file(path, what, PEM_MAX_BYTES, &buf, &len, err);
	BIO *mem;

	*out = NULL;
	if (r)
		return r;
	mem = BIO_new(BIO_s_mem());
	if (!mem || BIO_write(mem, buf, (int)len) != (int)len) {
		BIO_free(mem);
		free(buf);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	free(buf);
	*out = mem;
	return 0;
}

static const char *ssl_reason(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *r = e ? ERR_reason_error_string(e) : NULL;

	return r ? r : "unknown error";
}

/* OpenSSL's passphrase callback: the given passphrase, or a refusal
 * (never OpenSSL's own prompt on the terminal). */
struct pass {
	const char *text;
	int asked;
};

static int pass_cb(char *buf, int size, int rwflag, void *u)
{
	struct pass *p = u;
	size_t n;

	(void)rwflag;
	p->asked = 1;
	if (!p->text)
		return -1;
	n = strlen(p->text);
	if (n > (size_t)size)
		return -1;
	memcpy(buf, p->text, n);
	return (int)n;
}

int verity_sign(const struct verity_signer *s, const char *root_hex,
		uint8_t **der, size_t *der_len, struct ht_error *err)
{
	return verity_sign_bytes(s, root_hex, strlen(root_hex), NULL, der,
				 der_len, err);
}

int verity_sign_bytes(const struct verity_signer *s, const void *bytes,
		      size_t bytes_len, const char *md_name, uint8_t **der,
		      size_t *der_len, struct ht_error *err)
{
	const char *key_path = s->key, *cert_path = s->cert;
	const char *passphrase = s->passphrase;
	int embed_cert = s->embed_cert;
	struct pass pass = {passphrase, 0};
	OSSL_LIB_CTX *ctx;
	BIO *kb = NULL, *cb = NULL, *data = NULL;
	EVP_PKEY *key = NULL;
	X509 *cert = NULL;
	PKCS7 *p7 = NULL;
	EVP_MD *md = NULL;
	unsigned char *buf = NULL;
	int n, flags, r = 0;

	*der = NULL;
	if ((r = ht_libcrypto_load("signing", err)))
		return r;
	ctx = ht_crypto_libctx();
	ERR_clear_error();
	if (!ctx)
		return ht_fail(err, ENOMEM, "cannot initialise OpenSSL");
	/* a key held in a token: the passphrase is its PIN */
	if (verity_pkcs11_is_uri(key_path)) {
		if ((r = verity_pkcs11_load_key(key_path, passphrase,
						s->pkcs11_module, &key, err)))
			goto out;
	} else if ((r = pem_bio(key_path, "private key file", &kb, err))) {
		/* a key or certificate that cannot be read is a
		 * parameter error */
		r = -EINVAL;
		goto out;
	}
	if (!key && !(key = PEM_read_bio_PrivateKey_ex(kb, NULL, pass_cb, &pass,
						       ctx, NULL))) {
		if (pass.asked && !passphrase)
			r = ht_fail_fix(err, EACCES, HT_PARAM_PASSPHRASE, 0, 0,
					"give %0",
					"%s: the private key is encrypted",
					key_path);
		else if (pass.asked)
			r = ht_fail(err, EINVAL,
				    "%s: cannot decrypt the private key (wrong "
				    "passphrase?)",
				    key_path);
		else
			r = ht_fail(err, EINVAL,
				    "%s: cannot read a PEM private key: %s",
				    key_path, ssl_reason());
		goto out;
	}
	if ((r = pem_bio(cert_path, "certificate file", &cb, err))) {
		r = -EINVAL;
		goto out;
	}
	cert = X509_new_ex(ctx, NULL);
	if (!cert || !PEM_read_bio_X509(cb, &cert, NULL, NULL)) {
		r = ht_fail(err, EINVAL,
			    "%s: cannot read a PEM certificate: %s", cert_path,
			    ssl_reason());
		goto out;
	}
	if (!X509_check_private_key(cert, key)) {
		r = ht_fail(err, EINVAL,
			    "%s: the key does not belong to certificate %s",
			    key_path, cert_path);
		goto out;
	}
	data = BIO_new_mem_buf(bytes, (int)bytes_len);
	flags = PKCS7_DETACHED | PKCS7_BINARY | PKCS7_NOATTR |
		(embed_cert ? 0 : PKCS7_NOCERTS);
	if (!md_name) {
		p7 = data ? PKCS7_sign_ex(cert, key, NULL, data, flags, ctx,
					  NULL)
			  : NULL;
	} else if (data && (md = EVP_MD_fetch(ctx, md_name, NULL))) {
		/* a handle first, then the signer with its digest */
		p7 = PKCS7_sign_ex(NULL, NULL, NULL, data,
				   flags | PKCS7_PARTIAL, ctx, NULL);
		if (p7 && (!PKCS7_sign_add_signer(p7, cert, key, md,
						  flags | PKCS7_PARTIAL) ||
			   PKCS7_final(p7, data, flags) != 1)) {
			PKCS7_free(p7);
			p7 = NULL;
		}
	}
	n = p7 ? i2d_PKCS7(p7, &buf) : -1;
	if (n <= 0) {
		r = ht_fail(err, EINVAL, "cannot sign: %s", ssl_reason());
		goto out;
	}
	*der = malloc((size_t)n);
	if (!*der) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	memcpy(*der, buf, (size_t)n);
	*der_len = (size_t)n;
out:
	OPENSSL_free(buf);
	PKCS7_free(p7);
	EVP_MD_free(md);
	BIO_free(data);
	X509_free(cert);
	EVP_PKEY_free(key);
	BIO_free(cb);
	BIO_free(kb);
	return r;
}

/* Every certificate of each PEM file, into the store and the list the
 * signer is looked up in. */
static int load_trusted(const char *const *files, size_t n, X509_STORE *store,
			STACK_OF(X509) * certs, struct ht_error *err)
{
	if (n > VERITY_MAX_TRUSTED_FILES)
		return ht_fail(err, EINVAL,
			       "%zu trusted certificate files: at most %d", n,
			       VERITY_MAX_TRUSTED_FILES);
	for (size_t i = 0; i < n; i++) {
		BIO *b = NULL;
		X509 *x;
		int count = 0,
		    r = pem_bio(files[i], "certificate file", &b, err);

		if (r)
			return r;
		while ((x = X509_new_ex(ht_crypto_libctx(), NULL)) &&
		       PEM_read_bio_X509(b, &x, NULL, NULL)) {
			if (sk_X509_num(certs) >= VERITY_MAX_TRUSTED_CERTS) {
				X509_free(x);
				BIO_free(b);
				return ht_fail(err, EINVAL,
					       "%s: more than %d trusted "
					       "certificates in all: split "
					       "the bundle, or trust fewer",
					       files[i],
					       VERITY_MAX_TRUSTED_CERTS);
			}
			X509_STORE_add_cert(store, x);
			sk_X509_push(certs, x);
			count++;
		}
		X509_free(x);
		BIO_free(b);
		ERR_clear_error();
		if (!count)
			return ht_fail(err, EINVAL,
				       "%s: no PEM certificate in it",
				       files[i]);
	}
	return 0;
}

static int pkcs7_check(PKCS7 *p7, STACK_OF(X509) * certs, X509_STORE *store,
		       const char *root_hex, unsigned long flags_store)
{
	/* The content behind a buffering filter: PKCS7_verify copies a
	 * memory BIO given directly into one of its own, which OpenSSL 3.0
	 * leaks when the signature is malformed (PKCS7_dataInit fails; the
	 * fuzzer found it). */
	BIO *mem = BIO_new_mem_buf(root_hex, (int)strlen(root_hex));
	BIO *data = BIO_new(BIO_f_buffer());
	int ok;

	X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN | flags_store);
	ERR_clear_error();
	if (!mem || !data) {
		BIO_free(mem);
		BIO_free(data);
		return 0;
	}
	BIO_push(data, mem);
	ok = PKCS7_verify(p7, certs, store, data, NULL, PKCS7_BINARY);
	BIO_free_all(data);
	return ok;
}

/* The name of signer info si, for messages: its certificate's subject,
 * or (certificate not at hand) its issuer and serial number. */
static void signer_name(PKCS7_SIGNER_INFO *si, X509 *cert, char *out,
			size_t len)
{
	char issuer[200] = "";
	char *serial = NULL;
	BIGNUM *bn;

	if (cert) {
		X509_NAME_oneline(X509_get_subject_name(cert), out, (int)len);
		return;
	}
	X509_NAME_oneline(si->issuer_and_serial->issuer, issuer,
			  sizeof(issuer));
	bn = ASN1_INTEGER_to_BN(si->issuer_and_serial->serial, NULL);
	serial = bn ? BN_bn2hex(bn) : NULL;
	snprintf(out, len, "issuer %s, serial %s", issuer,
		 serial ? serial : "?");
	OPENSSL_free(serial);
	BN_free(bn);
}

/* The SHA-256 of the certificate's DER as lowercase hex ("" when it
 * cannot be computed). */
static void fingerprint(X509 *x, char out[65])
{
	EVP_MD *md = EVP_MD_fetch(ht_crypto_libctx(), "SHA256", NULL);
	unsigned char d[32];
	unsigned len = 0;

	out[0] = 0;
	if (md && X509_digest(x, md, d, &len) && len == sizeof(d))
		for (unsigned i = 0; i < len; i++)
			snprintf(out + 2 * i, 3, "%02x", d[i]);
	EVP_MD_free(md);
}

/* Every signer must be a trusted certificate, or chain to one (the
 * signature's own certificates may fill the chain): the first that is
 * not is named. res->signer gets the signers' subjects. Validity periods
 * are left to the signature check, which warns about them. A trusted
 * certificate is a trust anchor whatever its issuer (the store's
 * X509_V_FLAG_PARTIAL_CHAIN): a CA-issued leaf trusted by itself is
 * accepted, as the kernel accepts the key in its keyring and systemd a
 * certificate of /etc/verity.d; a CA that issued the signer still is. */
static int check_signers(PKCS7 *p7, STACK_OF(X509) * certs, X509_STORE *store,
			 const char *sig_name, struct verity_sig_check *res,
			 struct ht_error *err)
{
	STACK_OF(PKCS7_SIGNER_INFO) *sinfos = PKCS7_get_signer_info(p7);
	STACK_OF(X509) *inside = p7->d.sign->cert;
	X509_STORE_CTX *ctx = X509_STORE_CTX_new_ex(ht_crypto_libctx(), NULL);
	char name[256];
	int r = 0;

	if (!ctx)
		return ht_fail(err, ENOMEM, "out of memory");
	for (int i = 0; !r && i < sk_PKCS7_SIGNER_INFO_num(sinfos); i++) {
		PKCS7_SIGNER_INFO *si = sk_PKCS7_SIGNER_INFO_value(sinfos, i);
		PKCS7_ISSUER_AND_SERIAL *ias = si->issuer_and_serial;
		X509 *x = X509_find_by_issuer_and_serial(certs, ias->issuer,
							 ias->serial);
		int ok;

		if (!x && inside)
			x = X509_find_by_issuer_and_serial(inside, ias->issuer,
							   ias->serial);
		signer_name(si, x, name, sizeof(name));
		if (!x) {
			r = ht_fail(err, EPERM,
				    "%s: the signer (%s) is not a trusted "
				    "certificate, and the signature does not "
				    "hold its certificate",
				    sig_name, name);
			break;
		}
		ok = X509_STORE_CTX_init(ctx, store, x, inside) == 1;
		if (ok) {
			X509_STORE_CTX_set_flags(
				ctx, X509_V_FLAG_NO_CHECK_TIME |
					     X509_V_FLAG_PARTIAL_CHAIN);
			X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_ANY);
			ok = X509_verify_cert(ctx) == 1;
		}
		X509_STORE_CTX_cleanup(ctx);
		if (!ok) {
			r = ht_fail(err, EPERM,
				    "%s: the signer %s is not trusted%s",
				    sig_name, name,
				    sk_PKCS7_SIGNER_INFO_num(sinfos) > 1
					    ? " (each signer must be)"
					    : "");
			break;
		}
		if (!res->fingerprint[0])
			fingerprint(x, res->fingerprint);
		if (strlen(res->signer) + strlen(name) + 3 <
		    sizeof(res->signer))
			snprintf(res->signer + strlen(res->signer),
				 sizeof(res->signer) - strlen(res->signer),
				 "%s%s", res->signer[0] ? "; " : "", name);
	}
	X509_STORE_CTX_free(ctx);
	ERR_clear_error();
	return r;
}

/* The first signer outside its validity period (after check_signers, all
 * are at hand). */
static X509 *expired_signer(PKCS7 *p7, STACK_OF(X509) * certs)
{
	STACK_OF(X509) *s = PKCS7_get0_signers(p7, certs, 0);
	X509 *found = NULL;

	for (int i = 0; s && !found && i < sk_X509_num(s); i++) {
		X509 *x = sk_X509_value(s, i);

		if (X509_cmp_current_time(X509_get0_notBefore(x)) > 0 ||
		    X509_cmp_current_time(X509_get0_notAfter(x)) < 0)
			found = x;
	}
	if (!found && s && sk_X509_num(s) > 0)
		found = sk_X509_value(s, 0);
	sk_X509_free(s);
	ERR_clear_error();
	return found;
}

static void time_warning(X509 *signer, char *out, size_t len)
{
	if (!signer) {
		snprintf(out, len,
			 "a certificate of the chain is outside its "
			 "validity period");
		return;
	}
	const ASN1_TIME *nb = X509_get0_notBefore(signer),
			*na = X509_get0_notAfter(signer);
	BIO *m = BIO_new(BIO_s_mem());
	char when[64] = "";
	int before = X509_cmp_current_time(nb) > 0;
	int n;

	if (m) {
		ASN1_TIME_print(m, before ? nb : na);
		n = BIO_read(m, when, sizeof(when) - 1);
		when[n > 0 ? n : 0] = '\0';
		BIO_free(m);
	}
	snprintf(out, len, "the signer certificate is %s %s",
		 before ? "not valid before" : "expired on", when);
}

int verity_signature_check(const struct verity_sig *sig,
			   const char *const *trusted, size_t ntrusted,
			   const char *root_hex, struct verity_sig_check *res,
			   struct ht_error *err)
{
	const char *sig_name = sig->name;
	size_t sig_len = sig->len;
	const unsigned char *p = sig->der;
	PKCS7 *p7 = NULL;
	X509_STORE *store = NULL;
	STACK_OF(X509) *certs = NULL;
	char need[300];
	int r = 0;

	memset(res, 0, sizeof(*res));
	snprintf(need, sizeof(need), "%.256s: checking the signature",
		 sig_name);
	if ((r = ht_libcrypto_load(need, err)))
		return r;
	store = X509_STORE_new();
	certs = sk_X509_new_null();
	if (!store || !certs || !ht_crypto_libctx()) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if (!ntrusted) {
		r = ht_fail(err, EINVAL,
			    "%s: checking a signature needs a trusted "
			    "certificate",
			    sig_name);
		goto out;
	}
	p7 = d2i_PKCS7(NULL, &p, (long)sig_len);
	if (!p7 || p != sig->der + sig_len || !PKCS7_type_is_signed(p7) ||
	    !PKCS7_get_detached(p7)) {
		r = ht_fail(err, EINVAL,
			    "%s: not a detached DER PKCS#7 signature",
			    sig_name);
		goto out;
	}
	/* a signature without a signer is malformed, not untrusted */
	if (sk_PKCS7_SIGNER_INFO_num(PKCS7_get_signer_info(p7)) < 1) {
		r = ht_fail(err, EINVAL,
			    "%s: not a signature: the PKCS#7 structure holds "
			    "no signer",
			    sig_name);
		goto out;
	}
	r = load_trusted(trusted, ntrusted, store, certs, err);
	if (r)
		goto out;
	X509_STORE_set_purpose(store, X509_PURPOSE_ANY);
	/* every trusted certificate an anchor, for PKCS7_verify too */
	X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
	r = check_signers(p7, certs, store, sig_name, res, err);
	if (r)
		goto out;
	if (pkcs7_check(p7, certs, store, root_hex, 0))
		goto out;
	if (ERR_GET_REASON(ERR_peek_last_error()) ==
		    PKCS7_R_CERTIFICATE_VERIFY_ERROR &&
	    pkcs7_check(p7, certs, store, root_hex,
			X509_V_FLAG_NO_CHECK_TIME)) {
		time_warning(expired_signer(p7, certs), res->warning,
			     sizeof(res->warning));
		goto out;
	}
	switch (ERR_GET_REASON(ERR_peek_last_error())) {
	case PKCS7_R_SIGNATURE_FAILURE:
	case PKCS7_R_DIGEST_FAILURE:
		r = ht_fail(err, EPERM,
			    "%s: the signature does not match root hash %s",
			    sig_name, root_hex);
		break;
	case PKCS7_R_CERTIFICATE_VERIFY_ERROR:
		r = ht_fail(err, EPERM, "%s: the signer %s is not trusted",
			    sig_name, res->signer);
		break;
	default:
		r = ht_fail(err, EPERM,
			    "%s: the signature does not check out: %s",
			    sig_name, ssl_reason());
	}
out:
	ERR_clear_error();
	PKCS7_free(p7);
	sk_X509_pop_free(certs, X509_free);
	X509_STORE_free(store);
	return r;
}

int verity_cert_fingerprint(const char *cert_path, char out[65],
			    struct ht_error *err)
{
	BIO *b = NULL;
	X509 *x = NULL;
	int r = pem_bio(cert_path, "certificate file", &b, err);

	out[0] = 0;
	if (r)
		return r == -ENOENT ? -EINVAL : r;
	if (!PEM_read_bio_X509(b, &x, NULL, NULL))
		r = ht_fail(err, EINVAL, "%s: cannot read a PEM certificate",
			    cert_path);
	else
		fingerprint(x, out);
	if (!r && !out[0])
		r = ht_fail(err, ENOMEM, "cannot hash %s", cert_path);
	X509_free(x);
	BIO_free(b);
	ERR_clear_error();
	return r;
}

int verity_signature_signer(const struct verity_sig *sig,
			    struct verity_sig_check *res, struct ht_error *err)
{
	const unsigned char *p = sig->der;
	PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)sig->len);
	STACK_OF(PKCS7_SIGNER_INFO) * sinfos;
	PKCS7_SIGNER_INFO *si;
	X509 *x = NULL;
	int r = 0;

	memset(res, 0, sizeof(*res));
	if (!p7 || p != sig->der + sig->len || !PKCS7_type_is_signed(p7) ||
	    (sinfos = PKCS7_get_signer_info(p7)) == NULL ||
	    sk_PKCS7_SIGNER_INFO_num(sinfos) < 1) {
		r = ht_fail(err, EINVAL, "%s: not a PKCS#7 signature",
			    sig->name);
		goto out;
	}
	si = sk_PKCS7_SIGNER_INFO_value(sinfos, 0);
	if (p7->d.sign->cert)
		x = X509_find_by_issuer_and_serial(
			p7->d.sign->cert, si->issuer_and_serial->issuer,
			si->issuer_and_serial->serial);
	signer_name(si, x, res->signer, sizeof(res->signer));
	if (x)
		fingerprint(x, res->fingerprint);
out:
	PKCS7_free(p7);
	ERR_clear_error();
	return r;
}

int verity_sign_signer_of(const struct fv_sign_request *q,
			  struct verity_signer *vs, struct ht_error *err)
{
	if (!q->key || !q->cert)
		return ht_fail(err, EINVAL,
			       "a signing request without a key or a "
			       "certificate");
	if (q->flags & ~(unsigned)FV_SIGN_EMBED_CERT)
		return ht_fail(err, EINVAL, "unknown signing flags %#x",
			       q->flags);
	*vs = (struct verity_signer){q->key, q->cert, q->passphrase,
				     q->pkcs11_module,
				     !!(q->flags & FV_SIGN_EMBED_CERT)};
	return 0;
}
