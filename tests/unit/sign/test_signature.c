/* verity/sign/signature.c: root hash signatures with keys and
 * certificates made here (P-256, self-signed): signed and checked, the
 * signer and its fingerprint said; another root, another certificate, a
 * signature that is not one, no certificate to check with refused each
 * in its words; an expired signer passed with a warning, as the kernel
 * takes it; the certificate embedded or not, as the signer shows; an
 * encrypted key without its passphrase, with a wrong one; a key that is
 * not the certificate's; the request read; signature files bounded. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "check_main.h"
#include "include/fastverity.h"
#include "unit_files.h"
#include "verity/sign/signature.h"

static char dir[64];
static char *key, *cert, *key2, *cert2, *old_key, *old_cert, *enc_key;

static const char root[] =
	"4f0e3c58b1d2a7c9e6f5a4b3c2d1e0f9a8b7c6d5e4f30211ffeeddccbbaa9988";

/* A P-256 key and its self-signed certificate (CN cn), valid from
 * `from` to `to` seconds from now; the key encrypted with pass. */
static void make_signer(const char *key_path, const char *cert_path,
			const char *cn, long from, long to, const char *pass)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *n;
	FILE *f;

	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
	X509_gmtime_adj(X509_getm_notBefore(x), from);
	X509_gmtime_adj(X509_getm_notAfter(x), to);
	X509_set_pubkey(x, k);
	n = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, n);
	ck_assert_int_gt(X509_sign(x, k, EVP_sha256()), 0);
	f = fopen(key_path, "w");
	if (pass)
		PEM_write_PrivateKey(f, k, EVP_aes_128_cbc(),
				     (const unsigned char *)pass,
				     (int)strlen(pass), NULL, NULL);
	else
		PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	fclose(f);
	f = fopen(cert_path, "w");
	PEM_write_X509(f, x);
	fclose(f);
	X509_free(x);
	EVP_PKEY_free(k);
}

static char *p(const char *name)
{
	return unit_path(dir, "/tmp/fv-sig.XXXXXX", name);
}

static void ssetup(void)
{
	key = p("k.pem");
	cert = p("c.pem");
	key2 = p("k2.pem");
	cert2 = p("c2.pem");
	old_key = p("old.pem");
	old_cert = p("oldc.pem");
	enc_key = p("enc.pem");
	make_signer(key, cert, "fv unit signer", -60, 3600, NULL);
	make_signer(key2, cert2, "fv other", -60, 3600, NULL);
	make_signer(old_key, old_cert, "fv expired", -7200, -3600, NULL);
	{
		char *c = p("encc.pem");

		make_signer(enc_key, c, "fv enc", -60, 3600, "secret");
		free(c);
	}
}

static void steardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(key);
	free(cert);
	free(key2);
	free(cert2);
	free(old_key);
	free(old_cert);
	free(enc_key);
}

static struct verity_signer signer(const char *k, const char *c, int embed)
{
	struct verity_signer s = {k, c, NULL, NULL, embed};

	return s;
}

START_TEST(sign_check)
{
	struct verity_signer s = signer(key, cert, 0);
	struct verity_sig_check res;
	struct ht_error err = {0};
	uint8_t *der;
	size_t len;
	char fp[65];

	ck_assert_msg(verity_sign(&s, root, &der, &len, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_gt(len, 0);
	{
		struct verity_sig sig = {der, len, "root.p7s"};
		const char *trusted[] = {cert2, cert};

		ck_assert_msg(verity_signature_check(&sig, trusted, 2, root,
						     &res, &err) == 0,
			      "%s", ht_msg(&err));
		ck_assert_ptr_nonnull(strstr(res.signer, "fv unit signer"));
		ck_assert_int_eq(verity_cert_fingerprint(cert, fp, &err), 0);
		ck_assert_str_eq(res.fingerprint, fp);
		ck_assert_str_eq(res.warning, "");
		/* another root */
		ck_assert_int_eq(verity_signature_check(&sig, trusted, 2,
							"00ff", &res, &err),
				 -EPERM);
		ck_assert_str_eq(ht_msg(&err), "root.p7s: the signature does "
					       "not match root hash 00ff");
		/* only another certificate trusted: the signer unknown,
		 * and not inside */
		ck_assert_int_eq(verity_signature_check(&sig, trusted, 1, root,
							&res, &err),
				 -EPERM);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "is not a trusted "
							   "certificate"));
		/* nothing to check with */
		ck_assert_int_eq(verity_signature_check(&sig, trusted, 0, root,
							&res, &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err),
				 "root.p7s: checking a signature needs a "
				 "trusted certificate");
		/* a trusted file that holds no certificate, or is not
		 * there */
		trusted[1] = key;
		ck_assert_int_eq(verity_signature_check(&sig, trusted + 1, 1,
							root, &res, &err),
				 -EINVAL);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no PEM "
							   "certificate"));
		trusted[1] = "/nonexistent/c.pem";
		ck_assert_int_lt(verity_signature_check(&sig, trusted + 1, 1,
							root, &res, &err),
				 0);
	}
	/* without the certificate inside, the signer names its issuer */
	{
		struct verity_sig sig = {der, len, "root.p7s"};

		ck_assert_int_eq(verity_signature_signer(&sig, &res, &err), 0);
		ck_assert_ptr_nonnull(strstr(res.signer, "fv unit signer"));
		ck_assert_str_eq(res.fingerprint, "");
	}
	free(der);
	/* embedded: the fingerprint too, and a check that trusts only the
	 * other certificate refuses the signer as untrusted */
	s.embed_cert = 1;
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), 0);
	{
		struct verity_sig sig = {der, len, "emb.p7s"};
		const char *trusted[] = {cert2};

		ck_assert_int_eq(verity_signature_signer(&sig, &res, &err), 0);
		ck_assert_int_eq(verity_cert_fingerprint(cert, fp, &err), 0);
		ck_assert_str_eq(res.fingerprint, fp);
		ck_assert_int_eq(verity_signature_check(&sig, trusted, 1, root,
							&res, &err),
				 -EPERM);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "is not trusted"));
	}
	free(der);
}
END_TEST

/* An expired signer passes, with a warning. */
START_TEST(expired)
{
	struct verity_signer s = signer(old_key, old_cert, 0);
	struct verity_sig_check res;
	struct ht_error err = {0};
	const char *trusted[] = {old_cert};
	uint8_t *der;
	size_t len;

	ck_assert_msg(verity_sign(&s, root, &der, &len, &err) == 0, "%s",
		      ht_msg(&err));
	{
		struct verity_sig sig = {der, len, "old.p7s"};

		ck_assert_msg(verity_signature_check(&sig, trusted, 1, root,
						     &res, &err) == 0,
			      "%s", ht_msg(&err));
		ck_assert_str_ne(res.warning, "");
	}
	free(der);
}
END_TEST

/* What is not a signature: garbage, an empty one, bytes after one. */
START_TEST(not_signatures)
{
	static const uint8_t junk[] = {0x30, 0x03, 0x02, 0x01, 0x05};
	struct verity_signer s = signer(key, cert, 0);
	struct verity_sig_check res;
	struct ht_error err = {0};
	const char *trusted[] = {cert};
	uint8_t *der, *longer;
	size_t len;

	{
		struct verity_sig sig = {junk, sizeof(junk), "junk.p7s"};

		ck_assert_int_eq(verity_signature_check(&sig, trusted, 1, root,
							&res, &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err), "junk.p7s: not a detached DER "
					       "PKCS#7 signature");
		ck_assert_int_eq(verity_signature_signer(&sig, &res, &err),
				 -EINVAL);
	}
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), 0);
	longer = malloc(len + 1);
	memcpy(longer, der, len);
	longer[len] = 0;
	{
		struct verity_sig sig = {longer, len + 1, "long.p7s"};

		ck_assert_int_eq(verity_signature_check(&sig, trusted, 1, root,
							&res, &err),
				 -EINVAL);
		/* one byte short */
		sig.len = len - 1;
		ck_assert_int_eq(verity_signature_check(&sig, trusted, 1, root,
							&res, &err),
				 -EINVAL);
	}
	free(longer);
	free(der);
	/* more trusted files than taken */
	{
		const char *many[VERITY_MAX_TRUSTED_FILES + 1];
		struct verity_sig sig = {junk, sizeof(junk), "junk.p7s"};

		for (int i = 0; i <= VERITY_MAX_TRUSTED_FILES; i++)
			many[i] = cert;
		ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), 0);
		sig.der = der;
		sig.len = len;
		ck_assert_int_eq(
			verity_signature_check(&sig, many,
					       VERITY_MAX_TRUSTED_FILES + 1,
					       root, &res, &err),
			-EINVAL);
		ck_assert_str_eq(ht_msg(&err), "65 trusted certificate files: "
					       "at most 64");
		ck_assert_int_eq(verity_signature_check(
					 &sig, many, VERITY_MAX_TRUSTED_FILES,
					 root, &res, &err),
				 0);
		free(der);
	}
}
END_TEST

START_TEST(keys)
{
	struct verity_signer s = signer(enc_key, cert, 0);
	struct ht_error err = {0};
	uint8_t *der = NULL;
	size_t len;
	char want[300];

	/* encrypted, no passphrase: EACCES with the fix; never prompted */
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EACCES);
	ck_assert_int_eq(err.param, HT_PARAM_PASSPHRASE);
	snprintf(want, sizeof(want), "%s: the private key is encrypted",
		 enc_key);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), want));
	s.passphrase = "wrong";
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "wrong passphrase?"));
	/* the right one: but the key is not cert's */
	s.passphrase = "secret";
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: the key does not belong to certificate %s", enc_key,
		 cert);
	ck_assert_str_eq(ht_msg(&err), want);
	/* files that are not there, or not what they should be */
	s = signer("/nonexistent/k.pem", cert, 0);
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EINVAL);
	s = signer(key, "/nonexistent/c.pem", 0);
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EINVAL);
	s = signer(cert, cert, 0);
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "cannot read a PEM "
						   "private key"));
	s = signer(key, key, 0);
	ck_assert_int_eq(verity_sign(&s, root, &der, &len, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "cannot read a PEM "
						   "certificate"));
	ck_assert_ptr_null(der);
	/* bytes with a digest named; an unknown digest refused */
	s = signer(key, cert, 0);
	ck_assert_int_eq(
		verity_sign_bytes(&s, "abc", 3, "SHA512", &der, &len, &err), 0);
	free(der);
	ck_assert_int_lt(
		verity_sign_bytes(&s, "abc", 3, "NO-SUCH-MD", &der, &len, &err),
		0);
}
END_TEST

START_TEST(request)
{
	struct fv_sign_request q = {.size = sizeof(q)};
	struct verity_signer vs;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_sign_signer_of(&q, &vs, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "a signing request without a key or a "
				       "certificate");
	q.key = "k";
	ck_assert_int_eq(verity_sign_signer_of(&q, &vs, &err), -EINVAL);
	q.cert = "c";
	q.flags = 6;
	ck_assert_int_eq(verity_sign_signer_of(&q, &vs, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "unknown signing flags 0x6");
	q.flags = FV_SIGN_EMBED_CERT;
	q.passphrase = "pw";
	q.pkcs11_module = "m.so";
	ck_assert_int_eq(verity_sign_signer_of(&q, &vs, &err), 0);
	ck_assert_str_eq(vs.key, "k");
	ck_assert_str_eq(vs.cert, "c");
	ck_assert_str_eq(vs.passphrase, "pw");
	ck_assert_str_eq(vs.pkcs11_module, "m.so");
	ck_assert_int_eq(vs.embed_cert, 1);
}
END_TEST

/* A signature file: 1 byte to 64 KiB, there. */
START_TEST(files)
{
	char *f = p("s.p7s");
	struct ht_error err = {0};
	uint8_t *out = NULL, *big = calloc(1, VERITY_MAX_SIGNATURE + 1);
	size_t len;
	FILE *fp;
	char want[200];

	fp = fopen(f, "wb");
	fclose(fp);
	ck_assert_int_eq(verity_read_signature(f, &out, &len, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: empty signature file", f);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_ptr_null(out);
	fp = fopen(f, "wb");
	fwrite(big, 1, VERITY_MAX_SIGNATURE, fp);
	fclose(fp);
	ck_assert_int_eq(verity_read_signature(f, &out, &len, &err), 0);
	ck_assert_uint_eq(len, VERITY_MAX_SIGNATURE);
	free(out);
	fp = fopen(f, "wb");
	fwrite(big, 1, VERITY_MAX_SIGNATURE + 1, fp);
	fclose(fp);
	ck_assert_int_eq(verity_read_signature(f, &out, &len, &err), -EINVAL);
	unlink(f);
	ck_assert_int_eq(verity_read_signature(f, &out, &len, &err), -EINVAL);
	free(big);
	free(f);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"signature", 0, ssetup,
					    steardown,   1, NULL};

	return run_unit(&u, UNIT_TESTS(sign_check, expired, not_signatures,
				       keys, request, files));
}
