/* Unit tests of the OTA zip reader (verity/container/ota/zip.c): a zip
 * made here (stored entries, central directory, end record, a signature
 * footer in the comment) read back, then each field made wrong refused
 * with the field named. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "container/ota/pb.h"
#include "hashtree/error.h"
#include "verity/container/ota/zip.h"

static void le16(struct pb *b, unsigned v)
{
	uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};

	pb_bytes(b, x, 2);
}

static void le32(struct pb *b, uint32_t v)
{
	le16(b, v & 0xffff);
	le16(b, v >> 16);
}

/* What the zip is made of; a test changes one thing. */
struct spec {
	int sign;            /* a whole-file signature footer */
	uint32_t cd_shift;   /* added to the directory's offset */
	uint32_t size_shift; /* added to entry 1's stored size */
	int zip64;           /* entry 0's sizes 0xffffffff */
	unsigned disk;       /* the end record's disk number */
	int bad_lfh;         /* entry 1's local header magic wrong */
	int twice;           /* entry 2 named as entry 0 */
};

static const char *const names[] = {"payload.bin", "payload_properties.txt",
				    "META-INF/com/android/otacert"};
static const char *const names2[] = {"payload.bin", "payload_properties.txt",
				     "payload.bin"};
static const char *const bodies[] = {"CrAU0123456789", "FILE_SIZE=14\n",
				     "-----BEGIN CERTIFICATE-----\n"};

static uint8_t *make(const struct spec *s, size_t *len, uint64_t *offs)
{
	const char *const *nm = s->twice ? names2 : names;
	struct pb z = {0}, cd = {0};
	uint32_t at[3], cdoff;

	for (int i = 0; i < 3; i++) {
		size_t n = strlen(nm[i]), m = strlen(bodies[i]);

		at[i] = (uint32_t)z.n;
		le32(&z, s->bad_lfh && i == 1 ? 0x04034b51 : 0x04034b50);
		le16(&z, 10), le16(&z, 0), le16(&z, 0), le16(&z, 0);
		le16(&z, 0), le32(&z, 0), le32(&z, (uint32_t)m);
		le32(&z, (uint32_t)m), le16(&z, (unsigned)n), le16(&z, 0);
		pb_bytes(&z, nm[i], n);
		offs[i] = z.n;
		pb_bytes(&z, bodies[i], m);
	}
	cdoff = (uint32_t)z.n;
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(nm[i]), m = strlen(bodies[i]);
		uint32_t cs = (uint32_t)m + (i == 1 ? s->size_shift : 0);

		if (s->zip64 && i == 0)
			cs = 0xffffffffu;
		le32(&cd, 0x02014b50);
		le16(&cd, 20), le16(&cd, 10), le16(&cd, 0), le16(&cd, 0);
		le16(&cd, 0), le16(&cd, 0), le32(&cd, 0);
		le32(&cd, cs), le32(&cd, (uint32_t)m);
		le16(&cd, (unsigned)n), le16(&cd, 0), le16(&cd, 0);
		le16(&cd, 0), le16(&cd, 0), le32(&cd, 0), le32(&cd, at[i]);
		pb_bytes(&cd, nm[i], n);
	}
	pb_bytes(&z, cd.p, cd.n);
	le32(&z, 0x06054b50);
	le16(&z, s->disk), le16(&z, 0), le16(&z, 3), le16(&z, 3);
	le32(&z, (uint32_t)cd.n), le32(&z, cdoff + s->cd_shift);
	if (s->sign) {
		/* "signed" NUL, 10 bytes of "DER", the footer */
		le16(&z, 7 + 10 + 6);
		pb_bytes(&z, "signed", 7);
		pb_bytes(&z, "0123456789", 10);
		le16(&z, 16), le16(&z, 0xffff), le16(&z, 23);
	} else {
		le16(&z, 0);
	}
	free(cd.p);
	*len = z.n;
	return z.p;
}

static int read_spec(const struct spec *s, struct verity_zip *z,
		     const char **msg, uint64_t *offs, size_t *len)
{
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct ht_error err = {0};
	uint8_t *b = make(s, len, offs);
	int r;

	verity_ota_mem_src(&src, &mem, b, *len, "o.zip");
	r = verity_zip_read(&src, z, &err);
	*msg = ht_msg(&err);
	free(b);
	return r;
}

START_TEST(read_back)
{
	struct spec s = {0};
	struct verity_zip z;
	const char *msg;
	uint64_t offs[3];
	size_t len;

	ck_assert_int_eq(read_spec(&s, &z, &msg, offs, &len), 0);
	ck_assert_uint_eq(z.n, 3);
	for (int i = 0; i < 3; i++) {
		const struct verity_zip_entry *e = verity_zip_find(&z, names[i]);

		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(e->data, offs[i]);
		ck_assert_uint_eq(e->csize, strlen(bodies[i]));
		ck_assert_uint_eq(e->method, 0);
	}
	ck_assert_ptr_null(verity_zip_find(&z, "nope"));
	ck_assert_int_eq(z.signature, 0);
	ck_assert_uint_eq(z.eocd, len - 22);
	verity_zip_free(&z);

	s.sign = 1;
	ck_assert_int_eq(read_spec(&s, &z, &msg, offs, &len), 0);
	ck_assert_int_eq(z.signature, 1);
	ck_assert_uint_eq(z.comment_len, 23);
	ck_assert_uint_eq(z.cms_len, 10);
	ck_assert_uint_eq(z.cms, len - 16);
	ck_assert_uint_eq(z.signed_len, len - 23 - 2);
	verity_zip_free(&z);
}
END_TEST

static void refused(const struct spec *s, const char *want)
{
	struct verity_zip z;
	const char *msg;
	uint64_t offs[3];
	size_t len;

	ck_assert_int_eq(read_spec(s, &z, &msg, offs, &len), -EINVAL);
	ck_assert_msg(strstr(msg, want), "'%s' lacks '%s'", msg, want);
	ck_assert_ptr_nonnull(strstr(msg, "o.zip"));
}

START_TEST(malformed)
{
	struct spec s;

	s = (struct spec){.cd_shift = (uint32_t)-1};
	refused(&s, "no central directory header at byte 0");
	s = (struct spec){.cd_shift = 1000};
	refused(&s, "does not end before the end of central directory");
	s = (struct spec){.size_shift = 500};
	refused(&s, "goes past the central directory");
	s = (struct spec){.zip64 = 1};
	refused(&s, "zip64");
	s = (struct spec){.disk = 1};
	refused(&s, "several disks");
	s = (struct spec){.bad_lfh = 1};
	refused(&s, "payload_properties.txt: no local header");
	s = (struct spec){.twice = 1};
	refused(&s, "two zip entries named payload.bin");
}
END_TEST

START_TEST(not_a_zip)
{
	static const uint8_t junk[100] = {1, 2, 3};
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct ht_error err = {0};
	struct verity_zip z;

	verity_ota_mem_src(&src, &mem, junk, sizeof(junk), "j");
	ck_assert_int_eq(verity_zip_probe(&src), 0);
	ck_assert_int_eq(verity_zip_read(&src, &z, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not a zip"));
	verity_ota_mem_src(&src, &mem, junk, 10, "j");
	ck_assert_int_eq(verity_zip_read(&src, &z, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "10 bytes"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "zip"};

	return run_unit(&u, UNIT_TESTS(read_back, malformed, not_a_zip));
}
