/* libFuzzer: the PKCS#7 root hash signature reader. The input is either
 * raw DER or a valid signature of the root with the fuzzer's bytes XORed
 * in (to reach deep into well-formed structures). Any input is refused or
 * accepted without crashing, with one of the documented codes; the
 * unchanged signature checks out and a changed one never claims another
 * signer. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "verity/sign/signature.h"

static const char root_hex[] =
	"5e1a0f4fb3a1f4b2b7a0c0d3e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0";
static char key_path[64], cert_path[64];
static uint8_t *good;
static size_t good_len;
static char good_signer[256];

static void cleanup(void)
{
	unlink(cert_path);
}

/* A throw-away EC key and self-signed certificate, written to /tmp. */
static void setup(void)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	FILE *f;
	int fd;

	strcpy(key_path, "/tmp/fuzz-sig-key.XXXXXX");
	strcpy(cert_path, "/tmp/fuzz-sig-cert.XXXXXX");
	if (!key || !x || (fd = mkstemp(key_path)) < 0)
		abort();
	close(fd);
	if ((fd = mkstemp(cert_path)) < 0)
		abort();
	close(fd);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600L * 24 * 365);
	X509_set_pubkey(x, key);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
				   (const unsigned char *)"fuzz", -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(x));
	if (!X509_sign(x, key, EVP_sha256()))
		abort();
	f = fopen(key_path, "w");
	if (!f || !PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL))
		abort();
	fclose(f);
	f = fopen(cert_path, "w");
	if (!f || !PEM_write_X509(f, x))
		abort();
	fclose(f);
	X509_free(x);
	EVP_PKEY_free(key);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *trusted[1] = {cert_path};
	struct verity_sig_check res;
	struct ht_error err;
	uint8_t *sig;
	size_t len;
	int r, changed = 0;

	if (!good) {
		setup();
		struct verity_signer signer = {key_path, cert_path, NULL, NULL,
					       0};

		if (verity_sign(&signer, root_hex, &good, &good_len, &err) ||
		    verity_signature_check(
			    &(struct verity_sig){good, good_len, "good"},
			    trusted, 1, root_hex, &res, &err))
			abort();
		strcpy(good_signer, res.signer);
		unlink(key_path);
	}
	if (size && (data[0] & 1)) {
		/* the valid signature, bytes flipped */
		len = good_len;
		sig = malloc(len);
		memcpy(sig, good, len);
		for (size_t i = 1; i < size && i - 1 < len; i++) {
			sig[i - 1] ^= data[i];
			changed |= data[i];
		}
	} else {
		len = size ? size - 1 : 0;
		sig = malloc(len ? len : 1);
		if (len)
			memcpy(sig, data + 1, len);
		changed = 1;
	}
	r = verity_signature_check(&(struct verity_sig){sig, len, "fuzz"},
				   trusted, 1, root_hex, &res, &err);
	if (r != 0 && r != -EINVAL && r != -EPERM && r != -ENOMEM)
		abort();
	if (!changed && r)
		abort();
	if (!r && strcmp(res.signer, good_signer))
		abort(); /* only the one trusted certificate can sign */
	free(sig);
	return 0;
}
