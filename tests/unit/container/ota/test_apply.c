/* Unit tests of an OTA payload's operations applied (verity/container/
 * ota/apply.c, decomp.c): bzip2, xz and zstd blobs made here with their
 * libraries decompressed whole, bounded (more than their extents hold
 * refused), cut short or followed by bytes refused by name; a payload of
 * one REPLACE applied and hashed (its manifest's hash is wrong: the
 * verdict names the image's real SHA-256). */
#include <bzlib.h>
#include <check.h>
#include <errno.h>
#include <lzma.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "check_main.h"
#include "container/ota/build.h"
#include "hashtree/error.h"
#include "verity/container/ota/ota.h"

#define RAW (300u * 1024)

struct sum {
	uint64_t n;
	uint64_t check; /* a running checksum of what came */
};

static int put(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	struct sum *s = ctx;

	(void)err;
	for (size_t i = 0; i < n; i++)
		s->check = s->check * 31 + p[i];
	s->n += n;
	return 0;
}

static uint8_t *raw_data(void)
{
	uint8_t *r = malloc(RAW);

	ck_assert_ptr_nonnull(r);
	for (size_t i = 0; i < RAW; i++)
		r[i] = (uint8_t)((i / 100) * 13 + (i % 7));
	return r;
}

/* raw compressed by type into *out. */
static size_t compress_as(unsigned type, const uint8_t *raw, uint8_t **out)
{
	size_t cap = RAW * 2, n = cap;
	unsigned bn = (unsigned)cap;

	*out = malloc(cap);
	ck_assert_ptr_nonnull(*out);
	if (type == 1) {
		ck_assert_int_eq(BZ2_bzBuffToBuffCompress((char *)*out, &bn,
							  (char *)raw, RAW, 9,
							  0, 0),
				 BZ_OK);
		n = bn;
	} else if (type == 8) {
		size_t pos = 0;

		ck_assert_int_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32,
							 NULL, raw, RAW, *out,
							 &pos, cap),
				 LZMA_OK);
		n = pos;
	} else {
		n = ZSTD_compress(*out, cap, raw, RAW, 3);
		ck_assert(!ZSTD_isError(n));
	}
	return n;
}

START_TEST(decompress)
{
	static const unsigned types[3] = {1, 8, 14};
	uint8_t *raw = raw_data();
	struct sum want = {0};
	struct ht_error err;

	put(&want, raw, RAW, NULL);
	for (int k = 0; k < 3; k++) {
		uint8_t *c;
		size_t n = compress_as(types[k], raw, &c);
		struct sum s = {0};
		uint64_t got = 0;

		ck_assert_int_eq(verity_ota_decompress(types[k], c, n, RAW, put,
						       &s, &got, "op", &err),
				 0);
		ck_assert_uint_eq(got, RAW);
		ck_assert_uint_eq(s.n, RAW);
		ck_assert_uint_eq(s.check, want.check);
		/* one byte less room than it makes */
		memset(&s, 0, sizeof(s));
		ck_assert_int_eq(verity_ota_decompress(types[k], c, n, RAW - 1,
						       put, &s, &got, "op", &err),
				 -EINVAL);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "op: decompresses "
							   "to more than"));
		ck_assert_uint_le(s.n, RAW - 1);
		/* cut short */
		ck_assert_int_eq(verity_ota_decompress(types[k], c, n / 2, RAW,
						       put, &s, &got, "op", &err),
				 -EINVAL);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "op: not a valid"));
		/* a byte in the middle changed */
		c[n / 2] ^= 0x55;
		ck_assert_int_ne(verity_ota_decompress(types[k], c, n, RAW, put,
						       &s, &got, "op", &err),
				 0);
		free(c);
	}
	ck_assert_int_eq(verity_ota_decompress(0, raw, 1, 1, put, NULL, NULL,
					       "op", &err),
			 -EINVAL);
	free(raw);
}
END_TEST

START_TEST(apply)
{
	size_t len;
	uint8_t *p = build_payload(NULL, &len), blob[8192], d[32];
	char hex[65], want[128];
	static struct ht_error err;
	static struct verity_ota_mem mem;
	struct verity_ota_src src;
	struct verity_ota *o = calloc(1, sizeof(*o));

	ck_assert_ptr_nonnull(o);
	for (int i = 0; i < 8192; i++)
		blob[i] = (uint8_t)(i * 7);
	EVP_Digest(blob, sizeof(blob), d, NULL, EVP_sha256(), NULL);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	snprintf(want, sizeof(want),
		 "bad (new_partition_info.hash differs: the image's SHA-256 "
		 "is %s)",
		 hex);
	o->dev.fd = -1;
	verity_ota_mem_src(&src, &mem, p, len, "p.bin");
	ck_assert_int_eq(verity_ota_read(&src, o, &err), 0);
	ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, "nope", &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "p.bin: no partition nope in the payload");
	ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, "boot", &err), 0);
	ck_assert_uint_eq(o->nparts, 1);
	ck_assert_str_eq(o->parts[0].name, "boot");
	ck_assert_uint_eq(o->parts[0].ops, 1);
	ck_assert_str_eq(o->parts[0].verdict, want);
	/* the manifest's hash made right: good */
	memcpy(o->payload.m->partitions[0]->new_partition_info->hash.data, d,
	       32);
	ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, NULL, &err), 0);
	ck_assert_str_eq(o->parts[0].verdict, "good");
	/* the operation's data hash set, and wrong */
	{
		ChromeosUpdateEngine__InstallOperation *op =
			o->payload.m->partitions[0]->operations[0];
		uint8_t bad[32] = {0};

		op->data_sha256_hash.data = bad;
		op->data_sha256_hash.len = 32;
		ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, NULL, &err), 0);
		ck_assert_str_eq(o->parts[0].verdict,
				 "bad (operation 0 (REPLACE): its data is not "
				 "its data_sha256_hash)");
		op->data_sha256_hash.data = NULL;
		op->data_sha256_hash.len = 0;
		/* ZERO with data refused */
		op->type = CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__ZERO;
		ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, NULL, &err), 0);
		ck_assert_str_eq(o->parts[0].verdict,
				 "bad (operation 0 (ZERO): data_length 8192: "
				 "this type has none)");
		op->type = CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__PUFFDIFF;
		ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, NULL, &err), 0);
		ck_assert_str_eq(o->parts[0].verdict,
				 "not applied (operation 0: PUFFDIFF: not "
				 "supported)");
		/* REPLACE's data short of its extents by a block */
		op->type = CHROMEOS_UPDATE_ENGINE__INSTALL_OPERATION__TYPE__REPLACE;
		op->data_length = 4096;
		ck_assert_int_eq(verity_ota_apply(o, NULL, NULL, NULL, &err), 0);
		ck_assert_str_eq(o->parts[0].verdict,
				 "bad (operation 0 (REPLACE): 4096 bytes of data "
				 "for 8192 bytes of dst_extents)");
	}
	verity_ota_free(o);
	free(p);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "apply", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(decompress, apply));
}
