/* The signing schemes (verity/sign/scheme.c): the ML-DSA keys read in
 * each form, refused where another scheme, level or a private key is
 * asked; signing over pieces; new keys generated. Run from the top of
 * the tree (the data is read from tests/avb/mldsa and tests/avb/keys). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "sign/mldsa_data.h"
#include "verity/sign/mldsa.h"
#include "verity/sign/scheme.h"

/* The schemes' key reader (verity/sign/scheme.c): every form of AOSP's
 * key gives its AVB blob; the level a file names; a key of the other
 * scheme or level, or a public one where signing is asked, refused by
 * name; signing over pieces is signing the whole, and verifies. */
static const struct verity_scheme rsa2048 = {
	"SHA256_RSA2048", VERITY_SCHEME_RSA, "sha256", 32, 2048, 0, 256, 520};
static const struct verity_scheme ml[2] = {
	{"MLDSA65", VERITY_SCHEME_MLDSA, "", 0, 0, 65, 3309, 1956},
	{"MLDSA87", VERITY_SCHEME_MLDSA, "", 0, 0, 87, 4627, 2596}};

static void sigkey_refused(const char *path, const struct verity_scheme *want,
			   int priv, const char *says)
{
	struct verity_sigkey k;
	struct ht_error err;

	ck_assert_int_eq(verity_sigkey_read(path, want, priv, &k, &err), -EINVAL);
	ck_assert_msg(strstr(ht_msg(&err), says), "%s: '%s' lacks '%s'", path, ht_msg(&err), says);
	ck_assert_ptr_null(k.blob);
}

START_TEST(scheme_keys)
{
	int level = levels[_i];
	const struct verity_scheme *s = &ml[_i], *other = &ml[!_i];
	static const char *const forms[3] = {"%s.pem", "%s.pub.pem", "%s.avbpubkey"};
	char base[64], name[96], says[128];
	uint8_t *blob, *file, *msg, sig[VERITY_MLDSA_MAX_SIG_BYTES], whole[VERITY_MLDSA_MAX_SIG_BYTES];
	size_t len, file_len;
	struct verity_sigkey k;
	struct ht_error err;

	snprintf(base, sizeof(base), DATA "testkey_mldsa%d", level);
	snprintf(name, sizeof(name), "%s.avbpubkey", base);
	file = slurp(name, &file_len);
	for (int f = 0; f < 3; f++) {
		uint8_t *buf;
		size_t n;

		snprintf(name, sizeof(name), forms[f], base);
		ck_assert_int_eq(verity_sigkey_file_blob(name, &blob, &len, &err), 0);
		ck_assert_uint_eq(len, file_len);
		ck_assert_mem_eq(blob, file, len);
		free(blob);
		buf = slurp(name, &n);
		ck_assert_int_eq(verity_mldsa_key_level(buf, n), level);
		free(buf);
		ck_assert_int_eq(verity_sigkey_read(name, s, 0, &k, &err), 0);
		ck_assert_int_eq(k.has_private, f == 0);
		verity_sigkey_free(&k);
		snprintf(says, sizeof(says), "an ML-DSA-%d key, where SHA256_RSA2048 is asked", level);
		sigkey_refused(name, &rsa2048, 0, says);
		snprintf(says, sizeof(says), "ML-DSA-%d key, where ML-DSA-%d is asked", level,
			 other->level);
		sigkey_refused(name, other, 0, says);
		if (f)
			sigkey_refused(name, s, 1, "where the private key is needed to sign");
	}
	sigkey_refused("tests/avb/keys/rsa2048.pem", s, 1, "an RSA key, where ML-DSA");
	sigkey_refused("tests/avb/keys/rsa2048.avbpubkey", s, 0, "an RSA AVB public key, where ML-DSA");
	sigkey_refused("tests/avb/keys/rsa2048.avbpubkey", &rsa2048, 1,
		       "a public RSA key, where the private key is needed");
	sigkey_refused("pkcs11:token=none", s, 1, "an ML-DSA key in a PKCS#11 token cannot be used");
	ck_assert_int_eq(verity_sigkey_read("tests/avb/keys/rsa2048.avbpubkey", &rsa2048, 0, &k, &err), 0);
	ck_assert_int_eq(k.kind, VERITY_SCHEME_RSA);
	ck_assert_uint_eq(k.bits, 2048);
	verity_sigkey_free(&k);

	/* sign in three pieces (one empty) = sign the whole; it verifies,
	 * the pieces cut anywhere; hedged differs and verifies */
	snprintf(name, sizeof(name), "%s.pem", base);
	ck_assert_int_eq(verity_sigkey_read(name, s, 1, &k, &err), 0);
	msg = malloc(3000);
	for (int i = 0; i < 3000; i++)
		msg[i] = (uint8_t)(i * 7);
	{
		const struct verity_msg m[3] = {{msg, 256}, {msg + 256, 0}, {msg + 256, 2744}};
		const struct verity_msg cut[2] = {{msg, 1000}, {msg + 1000, 2000}};

		ck_assert_int_eq(verity_scheme_sign(s, &k, m, 3, VERITY_MLDSA_DETERMINISTIC, NULL,
						    sig, &err), 0);
		ck_assert_int_eq(verity_mldsa_sign(level, k.mldsa->sk, msg, 3000, NULL, 0,
						   VERITY_MLDSA_DETERMINISTIC, NULL, whole), 0);
		ck_assert_mem_eq(sig, whole, s->sig_size);
		ck_assert_int_eq(verity_scheme_verify(s, k.blob, k.blob_len, cut, 2, NULL, sig,
						      s->sig_size, "t", &err), 0);
		ck_assert_int_eq(verity_scheme_sign(s, &k, m, 3, VERITY_MLDSA_HEDGED, NULL, sig,
						    &err), 0);
		ck_assert(memcmp(sig, whole, s->sig_size));
		ck_assert_int_eq(verity_scheme_verify(s, k.blob, k.blob_len, cut, 2, NULL, sig,
						      s->sig_size, "t", &err), 0);
		sig[17] ^= 4;
		ck_assert_int_eq(verity_scheme_verify(s, k.blob, k.blob_len, cut, 2, NULL, sig,
						      s->sig_size, "t", &err), -EPERM);
		/* the wrong signature length, the other level's blob */
		ck_assert_int_eq(verity_scheme_verify(s, k.blob, k.blob_len, cut, 2, NULL, sig,
						      s->sig_size - 1, "t", &err), -EPERM);
		ck_assert_int_eq(verity_scheme_verify(other, k.blob, k.blob_len, cut, 2, NULL, sig,
						      s->sig_size, "t", &err), -EINVAL);
		ck_assert_int_eq(verity_scheme_sign(other, &k, m, 3, VERITY_MLDSA_HEDGED, NULL,
						    sig, &err), -EINVAL);
	}
	free(msg);
	verity_sigkey_free(&k);
	free(file);
}
END_TEST

/* A new key: PKCS#8 of both forms, its seed giving its expanded key. */
START_TEST(generated_keys)
{
	int level = levels[_i];
	struct verity_mldsa_key key, again;
	struct ht_error err;
	char *pem, *pem2;
	size_t len, len2;

	ck_assert_int_eq(verity_mldsa_generate_pem(level, &pem, &len, &err), 0);
	ck_assert_int_eq(verity_mldsa_generate_pem(level, &pem2, &len2, &err), 0);
	ck_assert(len != len2 || memcmp(pem, pem2, len)); /* fresh seeds */
	ck_assert(!strncmp(pem, "-----BEGIN PRIVATE KEY-----\n", 28));
	ck_assert_int_eq(verity_mldsa_key_read((uint8_t *)pem, len, level, "new", &key, &err), 0);
	ck_assert(key.has_seed && key.has_secret);
	ck_assert_int_eq(verity_mldsa_key_read((uint8_t *)pem2, len2, level, "new", &again, &err),
			 0);
	ck_assert(memcmp(key.pk, again.pk, sizes(level).pk));
	free(pem2);
	ck_assert_int_eq(verity_mldsa_generate_pem(44, &pem2, &len2, &err), -EINVAL);
	ck_assert_ptr_null(pem2);
	verity_mldsa_key_wipe(&key);
	verity_mldsa_key_wipe(&again);
	free(pem);
}
END_TEST

static void loops(TCase *tc)
{
	tcase_add_loop_test(tc, scheme_keys, 0, 2);
	tcase_add_loop_test(tc, generated_keys, 0, 2);
}

int main(void)
{
	static const struct unit_suite u = {"scheme", 120, NULL, NULL, 0, loops};

	return run_unit(&u, UNIT_TESTS(NULL));
}
