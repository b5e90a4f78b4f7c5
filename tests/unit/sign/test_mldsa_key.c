/* ML-DSA key files (verity/sign/mldsa_key.c): AOSP's test keys in each
 * form (PKCS#8 PEM and DER, SPKI, AVB public key), read and written back
 * byte for byte; the ways a key file can be wrong, and the keys of other
 * algorithms, refused by name. Run from the top of the tree (the data
 * is read from tests/avb/mldsa and tests/avb/keys). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "check_main.h"
#include "sign/mldsa_data.h"
#include "verity/sign/mldsa.h"

/* A key file's bytes refused with a message that contains want. */
static void refused(const uint8_t *buf, size_t len, int level, const char *want)
{
	struct verity_mldsa_key key;
	struct ht_error err;
	int r = verity_mldsa_key_read(buf, len, level, "F", &key, &err);

	ck_assert_int_eq(r, -EINVAL);
	ck_assert_msg(strstr(ht_msg(&err), want), "\"%s\" does not say \"%s\"", ht_msg(&err), want);
	for (size_t i = 0; i < sizeof(key); i++)
		ck_assert_int_eq(((uint8_t *)&key)[i], 0);
}

/* AOSP's key files: the public key of the .pub.pem and the .avbpubkey
 * the private key's, and the writers giving each file back byte for
 * byte; each form of the private key, PEM and DER, read back to the
 * same key; the ways a key file can be wrong refused, by name. */
START_TEST(key_files)
{
	int level = levels[_i], other = level == 65 ? 87 : 65;
	struct verity_mldsa_sizes s = sizes(level);
	struct verity_mldsa_key key, back, pub, blobkey;
	struct ht_error err;
	uint8_t *der = malloc(8192), *file, blob[VERITY_MLDSA_AVB_BLOB_MAX];
	char *pem = malloc(16384), name[80];
	size_t der_len, file_len, blob_len;
	const enum verity_mldsa_form forms[3] = {VERITY_MLDSA_SEED_ONLY,
						 VERITY_MLDSA_EXPANDED_ONLY, VERITY_MLDSA_BOTH};
	char want[80];

	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pem", level);
	read_key(name, level, &key);
	ck_assert_int_eq(key.level, level);
	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pub.pem", level);
	read_key(name, level, &pub);
	ck_assert(!pub.has_secret && !pub.has_seed);
	ck_assert_mem_eq(pub.pk, key.pk, s.pk);
	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.avbpubkey", level);
	read_key(name, 0, &blobkey);
	ck_assert_int_eq(blobkey.level, level);
	ck_assert_mem_eq(blobkey.pk, key.pk, s.pk);
	file = slurp(name, &file_len);
	ck_assert_int_eq(verity_mldsa_avb_blob(level, key.pk, blob, sizeof(blob), &blob_len), 0);
	ck_assert_uint_eq(blob_len, file_len);
	ck_assert_mem_eq(blob, file, file_len);
	free(file);
	/* the writers give the files back byte for byte */
	ck_assert_int_eq(verity_mldsa_pkcs8_der(&key, VERITY_MLDSA_BOTH, der, 8192, &der_len), 0);
	ck_assert_int_eq(verity_mldsa_pem("PRIVATE KEY", der, der_len, pem, 16384), 0);
	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pem", level);
	file = slurp(name, &file_len);
	ck_assert_uint_eq(strlen(pem), file_len);
	ck_assert_mem_eq(pem, file, file_len);
	free(file);
	ck_assert_int_eq(verity_mldsa_spki_der(&key, der, 8192, &der_len), 0);
	ck_assert_int_eq(verity_mldsa_pem("PUBLIC KEY", der, der_len, pem, 16384), 0);
	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pub.pem", level);
	file = slurp(name, &file_len);
	ck_assert_uint_eq(strlen(pem), file_len);
	ck_assert_mem_eq(pem, file, file_len);
	free(file);

	/* each form of the private key */
	for (int f = 0; f < 3; f++) {
		ck_assert_int_eq(verity_mldsa_pkcs8_der(&key, forms[f], der, 8192, &der_len), 0);
		ck_assert_int_eq(verity_mldsa_key_read(der, der_len, level, "der", &back, &err),
				 0);
		ck_assert_mem_eq(back.sk, key.sk, s.sk);
		ck_assert_mem_eq(back.pk, key.pk, s.pk);
		ck_assert_int_eq(back.has_seed, forms[f] != VERITY_MLDSA_EXPANDED_ONLY);
		ck_assert_int_eq(verity_mldsa_pem("PRIVATE KEY", der, der_len, pem, 16384), 0);
		ck_assert_int_eq(verity_mldsa_key_read((uint8_t *)pem, strlen(pem), 0, "pem",
						       &back, &err),
				 0);
		ck_assert_mem_eq(back.pk, key.pk, s.pk);
		/* every shorter DER refused, none read */
		for (size_t n = 0; n < der_len; n += 1 + n / 64)
			ck_assert_int_eq(verity_mldsa_key_read(der, n, level, "cut", &back, &err),
					 -EINVAL);
		/* a flipped byte in the expanded key's t0 or tr: refused */
		if (forms[f] != VERITY_MLDSA_SEED_ONLY) {
			der[der_len - 1] ^= 1;
			refused(der, der_len, level,
				forms[f] == VERITY_MLDSA_BOTH ? "do not agree" : "hold together");
			der[der_len - 1] ^= 1;
			der[der_len - s.sk + 100] ^= 1; /* tr */
			refused(der, der_len, level,
				forms[f] == VERITY_MLDSA_BOTH ? "do not agree" : "hold together");
		}
	}
	/* the other level asked */
	ck_assert_int_eq(verity_mldsa_pkcs8_der(&key, VERITY_MLDSA_SEED_ONLY, der, 8192, &der_len),
			 0);
	snprintf(want, sizeof(want), "F: an ML-DSA-%d key, where ML-DSA-%d is asked", level,
		 other);
	refused(der, der_len, other, want);
	/* ML-DSA-44's OID */
	der[17] = 17;
	refused(der, der_len, 0, "ML-DSA-44");
	/* a public key one byte short */
	ck_assert_int_eq(verity_mldsa_spki_der(&key, der, 8192, &der_len), 0);
	refused(der, der_len - 1, level, "not one DER");
	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.avbpubkey", level);
	file = slurp(name, &file_len);
	snprintf(want, sizeof(want), "F: an ML-DSA-%d key, where ML-DSA-%d is asked", level,
		 other);
	refused(file, file_len, other, want);
	file[3] ^= 1;
	refused(file, file_len, 0, "key bytes");
	free(file);
	/* RSA, by name, as a PEM key, a DER key, an AVB key */
	file = slurp("tests/avb/keys/rsa2048.pem", &file_len);
	snprintf(want, sizeof(want), "F: an RSA key, where ML-DSA-%d is asked", level);
	refused(file, file_len, level, want);
	free(file);
	file = slurp("tests/avb/keys/rsa2048.avbpubkey", &file_len);
	refused(file, file_len, level, "an RSA AVB public key");
	free(file);
	{
		static const char rsa1[] = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n"
					   "-----END RSA PRIVATE KEY-----\n";
		static const char cert[] = "-----BEGIN CERTIFICATE-----\nAAAA\n"
					   "-----END CERTIFICATE-----\n";
		static const char enc[] = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n"
					  "-----END ENCRYPTED PRIVATE KEY-----\n";
		static const char bad64[] = "-----BEGIN PRIVATE KEY-----\nAA*A\n"
					    "-----END PRIVATE KEY-----\n";
		static const char open[] = "-----BEGIN PRIVATE KEY-----\nAAAA\n";

		refused((const uint8_t *)rsa1, strlen(rsa1), level, "an RSA key");
		refused((const uint8_t *)cert, strlen(cert), level, "a certificate");
		refused((const uint8_t *)enc, strlen(enc), level, "encrypted");
		refused((const uint8_t *)bad64, strlen(bad64), level, "base64");
		refused((const uint8_t *)open, strlen(open), level, "no whole PEM block");
		refused((const uint8_t *)"", 0, level, "not a key file");
	}
	/* a PKCS#8 key whose PEM label says PUBLIC KEY */
	ck_assert_int_eq(verity_mldsa_pkcs8_der(&key, VERITY_MLDSA_SEED_ONLY, der, 8192, &der_len),
			 0);
	ck_assert_int_eq(verity_mldsa_pem("PUBLIC KEY", der, der_len, pem, 16384), 0);
	refused((const uint8_t *)pem, strlen(pem), level, "does not match");
	verity_mldsa_key_wipe(&key);
	free(der);
	free(pem);
}
END_TEST

/* An RSA key's SPKI made by OpenSSL: refused by name. */
START_TEST(rsa_spki_refused)
{
	EVP_PKEY *pk = EVP_RSA_gen(1024);
	uint8_t *der = NULL;
	int n;

	ck_assert_ptr_nonnull(pk);
	n = i2d_PUBKEY(pk, &der);
	ck_assert_int_gt(n, 0);
	refused(der, (size_t)n, 65, "F: an RSA key, where ML-DSA-65 is asked");
	refused(der, (size_t)n, 0, "F: an RSA key, where an ML-DSA key is asked");
	OPENSSL_free(der);
	EVP_PKEY_free(pk);
}
END_TEST

static void loops(TCase *tc)
{
	tcase_add_loop_test(tc, key_files, 0, 2);
}

int main(void)
{
	static const struct unit_suite u = {"mldsa_key", 120, NULL, NULL, 0,
					    loops};

	return run_unit(&u, UNIT_TESTS(rsa_spki_refused));
}
