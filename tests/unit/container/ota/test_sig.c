/* Unit tests of the OTA payload signatures (verity/container/ota/sig.c):
 * a payload signed here with an RSA-2048 key of the suite's checked with
 * that key (good), another (bad), none (the placeholder), a blob byte
 * changed (the payload signature alone bad); keys update_engine does not
 * take and a bare payload without a key refused by name. */
#include <check.h>
#include <errno.h>
#include <openssl/pem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "container/ota/build.h"
#include "hashtree/error.h"
#include "unit_files.h"
#include "verity/container/ota/ota.h"

static char dir[64];

/* key's public key into a PEM file, its path returned. */
static char *pub_file(EVP_PKEY *key, const char *name)
{
	char *path = unit_path(dir, "/tmp/fv-otasig.XXXXXX", name);
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert(PEM_write_PUBKEY(f, key) == 1);
	fclose(f);
	return path;
}

/* The payload b checked with the key at cert: 0 or the error. */
static int check_with(const uint8_t *b, size_t len, const char *cert,
		      struct verity_ota *o, const char **msg)
{
	static struct ht_error err;
	static struct verity_ota_mem mem;
	struct verity_ota_src src;
	int r;

	memset(o, 0, sizeof(*o));
	o->dev.fd = -1;
	verity_ota_mem_src(&src, &mem, b, len, "p.bin");
	ck_assert_int_eq(verity_ota_read(&src, o, &err), 0);
	r = verity_ota_verify(o, cert, &err);
	*msg = ht_msg(&err);
	return r;
}

static void release(struct verity_ota *o)
{
	struct verity_ota *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	*h = *o;
	verity_ota_free(h);
}

START_TEST(signatures)
{
	EVP_PKEY *key = EVP_RSA_gen(2048), *other = EVP_RSA_gen(2048);
	EVP_PKEY *small = EVP_RSA_gen(1024);
	char *kp = pub_file(key, "key.pem"), *op = pub_file(other, "o.pem");
	char *sp = pub_file(small, "s.pem");
	size_t len, plen;
	uint8_t *p = build_payload(key, &len), *ph = build_payload(NULL, &plen);
	struct verity_ota o;
	const char *msg;

	ck_assert_uint_eq(len, plen);
	ck_assert_int_eq(check_with(p, len, kp, &o, &msg), 0);
	ck_assert_int_eq(o.verified, 1);
	ck_assert_int_eq(o.trusted, 1);
	ck_assert_str_eq(o.key_kind, "RSA-2048");
	ck_assert_int_eq(o.metadata_verdict, VERITY_OTA_SIG_GOOD);
	ck_assert_int_eq(o.payload_verdict, VERITY_OTA_SIG_GOOD);
	release(&o);

	ck_assert_int_eq(check_with(p, len, op, &o, &msg), 0);
	ck_assert_int_eq(o.metadata_verdict, VERITY_OTA_SIG_BAD);
	ck_assert_int_eq(o.payload_verdict, VERITY_OTA_SIG_BAD);
	release(&o);

	ck_assert_int_eq(check_with(ph, plen, kp, &o, &msg), 0);
	ck_assert_int_eq(o.metadata_verdict, VERITY_OTA_SIG_PLACEHOLDER);
	ck_assert_int_eq(o.payload_verdict, VERITY_OTA_SIG_PLACEHOLDER);
	release(&o);

	/* a byte of the blob (the last 8192 bytes before the signature) */
	p[len - 267 - 100] ^= 1;
	ck_assert_int_eq(check_with(p, len, kp, &o, &msg), 0);
	ck_assert_int_eq(o.metadata_verdict, VERITY_OTA_SIG_GOOD);
	ck_assert_int_eq(o.payload_verdict, VERITY_OTA_SIG_BAD);
	release(&o);

	ck_assert_int_eq(check_with(p, len, sp, &o, &msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "an RSA-1024 key: update_engine"));
	release(&o);
	ck_assert_int_eq(check_with(p, len, NULL, &o, &msg), -EINVAL);
	ck_assert_ptr_nonnull(strstr(msg, "p.bin: no certificate"));
	release(&o);
	unlink(kp), unlink(op), unlink(sp);
	ck_assert_int_eq(check_with(p, len, kp, &o, &msg), -ENODEV);
	release(&o);
	rmdir(dir);
	free(kp), free(op), free(sp), free(p), free(ph);
	EVP_PKEY_free(key), EVP_PKEY_free(other), EVP_PKEY_free(small);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "sig", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(signatures));
}
