/* Unit tests of an OTA zip's own checks (verity/container/ota/
 * zipcheck.c): payload_properties.txt's four values against the payload,
 * each property file's name:offset:size against the entries (in the
 * legacy metadata), otacert missing, no whole-file signature. The CMS
 * signature itself: tests/cli/t_ota.sh (signed by openssl cms). */
#include <check.h>
#include <errno.h>
#include <openssl/evp.h>
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

/* The zip of payload p, properties props and legacy metadata md (NULL:
 * none) checked with the key at cert; o holds the verdicts. */
static void check_zip(const uint8_t *p, size_t plen, const char *props,
		      const char *md, const char *cert, struct verity_ota *o)
{
	static struct ht_error err;
	static struct verity_ota_mem mem;
	const char *names[3] = {"payload.bin", "payload_properties.txt",
				"META-INF/com/android/metadata"};
	const uint8_t *bodies[3] = {p, (const uint8_t *)props,
				    (const uint8_t *)md};
	size_t lens[3] = {plen, strlen(props), md ? strlen(md) : 0}, len;
	uint8_t *z = build_zip(names, bodies, lens, md ? 3 : 2, &len);
	struct verity_ota_src src;
	struct verity_ota *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	memset(o, 0, sizeof(*o));
	o->dev.fd = -1;
	verity_ota_mem_src(&src, &mem, z, len, "z.zip");
	ck_assert_int_eq(verity_ota_read(&src, o, &err), 0);
	ck_assert_msg(verity_ota_verify(o, cert, &err) == 0, "%s", ht_msg(&err));
	*h = *o; /* o keeps the verdicts alone */
	verity_ota_free(h);
	free(z);
}

/* The four properties of payload p (tweak: add 1 to FILE_SIZE). */
static char *props_of(const uint8_t *p, size_t len, int tweak)
{
	uint8_t fh[32], mh[32];
	char b1[64], b2[64], *s = malloc(256);
	uint64_t msize = 24;

	ck_assert_ptr_nonnull(s);
	for (int i = 0; i < 8; i++)
		msize += (uint64_t)p[12 + i] << (56 - 8 * i);
	EVP_Digest(p, len, fh, NULL, EVP_sha256(), NULL);
	EVP_Digest(p, msize, mh, NULL, EVP_sha256(), NULL);
	EVP_EncodeBlock((unsigned char *)b1, fh, 32);
	EVP_EncodeBlock((unsigned char *)b2, mh, 32);
	snprintf(s, 256, "FILE_HASH=%s\nFILE_SIZE=%zu\nMETADATA_HASH=%s\n"
		 "METADATA_SIZE=%llu\n", b1, len + (tweak != 0), b2,
		 (unsigned long long)msize);
	return s;
}

START_TEST(checks)
{
	EVP_PKEY *key = EVP_RSA_gen(2048);
	char *kp = unit_path(dir, "/tmp/fv-otazip.XXXXXX", "key.pem");
	FILE *f = fopen(kp, "w");
	size_t len;
	uint8_t *p = build_payload(key, &len);
	char *good = props_of(p, len, 0), *bad = props_of(p, len, 1);
	char md[512];
	struct verity_ota o;
	/* payload.bin's data: after its 30-byte local header and 11-byte
	 * name; the properties' after the payload, a header and 22 bytes */
	unsigned long long pd = 41, qd = 41 + len + 30 + 22;

	ck_assert_ptr_nonnull(f);
	ck_assert(PEM_write_PUBKEY(f, key) == 1);
	fclose(f);

	check_zip(p, len, good, NULL, kp, &o);
	ck_assert_int_eq(o.metadata_verdict, VERITY_OTA_SIG_GOOD);
	ck_assert_int_eq(o.payload_verdict, VERITY_OTA_SIG_GOOD);
	ck_assert_str_eq(o.zip_check[VERITY_OTA_ZIP_PROPERTIES], "good");
	ck_assert_ptr_nonnull(strstr(o.zip_check[VERITY_OTA_ZIP_SIGNATURE],
				     "none (no whole-file signature"));
	ck_assert_str_eq(o.zip_check[VERITY_OTA_ZIP_OTACERT],
			 "missing (no META-INF/com/android/otacert)");
	ck_assert_ptr_nonnull(strstr(o.zip_check[VERITY_OTA_ZIP_PROPERTY_FILES],
				     "none (no ota-property-files"));

	check_zip(p, len, bad, NULL, kp, &o);
	ck_assert_ptr_nonnull(strstr(o.zip_check[VERITY_OTA_ZIP_PROPERTIES],
				     "bad (FILE_SIZE is "));

	/* the property files: right, then each way wrong */
	snprintf(md, sizeof(md),
		 "ota-property-files=payload_metadata.bin:%llu:%llu,"
		 "payload.bin:%llu:%zu,payload_properties.txt:%llu:%zu   \n"
		 "ota-type=AB\n",
		 pd, (unsigned long long)(len - 8192 - 267), pd, len, qd,
		 strlen(good));
	check_zip(p, len, good, md, kp, &o);
	ck_assert_str_eq(o.zip_check[VERITY_OTA_ZIP_PROPERTY_FILES], "good");
	snprintf(md, sizeof(md), "ota-property-files=payload.bin:%llu:%zu\n",
		 pd + 1, len);
	check_zip(p, len, good, md, kp, &o);
	ck_assert_ptr_nonnull(strstr(o.zip_check[VERITY_OTA_ZIP_PROPERTY_FILES],
				     "bad (metadata ota-property-files: "
				     "payload.bin:42:"));
	snprintf(md, sizeof(md),
		 "ota-streaming-property-files=care_map.pb:1:2\n");
	check_zip(p, len, good, md, kp, &o);
	ck_assert_str_eq(o.zip_check[VERITY_OTA_ZIP_PROPERTY_FILES],
			 "bad (metadata ota-streaming-property-files: "
			 "care_map.pb: no such entry)");
	snprintf(md, sizeof(md), "ota-property-files=payload.bin:x:1\n");
	check_zip(p, len, good, md, kp, &o);
	ck_assert_str_eq(o.zip_check[VERITY_OTA_ZIP_PROPERTY_FILES],
			 "bad (metadata ota-property-files: token 0 is not "
			 "name:offset:size)");
	snprintf(md, sizeof(md),
		 "ota-property-files=payload_metadata.bin:%llu:9\n", pd);
	check_zip(p, len, good, md, kp, &o);
	ck_assert_ptr_nonnull(strstr(o.zip_check[VERITY_OTA_ZIP_PROPERTY_FILES],
				     "the payload's metadata is "));

	unlink(kp);
	rmdir(dir);
	free(kp), free(p), free(good), free(bad);
	EVP_PKEY_free(key);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "zipcheck", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(checks));
}
