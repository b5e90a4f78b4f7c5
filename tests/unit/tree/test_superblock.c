/* verity/tree/superblock.c: the round trip and each rejection. */
#include <errno.h>
#include <check.h>
#include "check_main.h"
#include <string.h>
#include "verity/tree/params.h"
#include "verity/tree/superblock.h"

static struct verity_params sample(void)
{
	struct verity_params p;

	verity_params_default(&p);
	strcpy(p.hash_name, "SHA256");
	p.data_blocks = 300;
	p.salt_size = 5;
	memcpy(p.salt, "\x01\x02\x03\x04\x05", 5);
	verity_uuid_parse("12345678-1234-1234-1234-123456789abc", p.uuid);
	return p;
}

START_TEST(round_trip_and_byte_layout)
{
	struct verity_params p = sample(), q;
	uint8_t sb[VERITY_SB_SIZE];
	struct ht_error err;

	verity_sb_encode(&p, sb);
	ck_assert(!memcmp(sb, "verity\0\0\1\0\0\0\1\0\0\0", 16));
	ck_assert(!memcmp(sb + 16, "\x12\x34\x56\x78", 4));
	ck_assert_str_eq((char *)sb + 32, "sha256"); /* lowercased */
	ck_assert(!memcmp(
		sb + 64, "\0\x10\0\0\0\x10\0\0\x2c\x01\0\0\0\0\0\0\x05\0", 18));
	ck_assert(!memcmp(sb + 88, "\x01\x02\x03\x04\x05\0", 6));
	verity_params_default(&q);
	ck_assert_int_eq(verity_sb_decode(sb, &q, &err), 0);
	ck_assert_str_eq(q.hash_name, "sha256");
	ck_assert_int_eq(q.hash_type, 1);
	ck_assert_uint_eq(q.data_blocks, 300);
	ck_assert_uint_eq(q.data_block_size, 4096);
	ck_assert_uint_eq(q.hash_block_size, 4096);
	ck_assert_uint_eq(q.salt_size, 5);
	ck_assert(!memcmp(q.salt, p.salt, 5));
	ck_assert(!memcmp(q.uuid, p.uuid, 16));
}
END_TEST

/* Each corruption of a field must be refused with a message. */
static void expect_reject(void (*mutate)(uint8_t *), int want,
			  const char *needle)
{
	struct verity_params p = sample(), q;
	uint8_t sb[VERITY_SB_SIZE];
	struct ht_error err = {0};

	verity_sb_encode(&p, sb);
	mutate(sb);
	verity_params_default(&q);
	ck_assert_int_eq(verity_sb_decode(sb, &q, &err), want);
	ck_assert_msg(strstr(ht_msg(&err), needle), "'%s' lacks '%s'", ht_msg(&err),
		      needle);
}

static void bad_signature(uint8_t *sb)
{
	sb[0] = 'V';
}

static void bad_version(uint8_t *sb)
{
	sb[8] = 2;
}

static void bad_type(uint8_t *sb)
{
	sb[12] = 2;
}

static void bad_alg(uint8_t *sb)
{
	strcpy((char *)sb + 32, "md7");
}

static void unterminated_alg(uint8_t *sb)
{
	memset(sb + 32, 'a', 32);
}

static void upper_alg(uint8_t *sb)
{
	strcpy((char *)sb + 32, "SHA256");
}

static void bad_dbs(uint8_t *sb)
{
	sb[64] = 1;
}

static void small_hbs(uint8_t *sb)
{
	sb[69] = 0;
	sb[68] = 0;
}

static void huge_hbs(uint8_t *sb)
{
	sb[70] = 0x10;
	sb[69] = 0;
}

static void no_blocks(uint8_t *sb)
{
	memset(sb + 72, 0, 8);
}

static void overflow_blocks(uint8_t *sb)
{
	memset(sb + 72, 0xff, 8);
}

static void big_salt(uint8_t *sb)
{
	sb[80] = 1;
	sb[81] = 1;
}

static void reserved(uint8_t *sb)
{
	sb[84] = 1;
}

static void salt_tail(uint8_t *sb)
{
	sb[88 + 6] = 1;
}

static void tail_pad(uint8_t *sb)
{
	sb[511] = 1;
}

START_TEST(each_bad_field_is_refused)
{
	expect_reject(bad_signature, -EINVAL, "not a valid VERITY");
	expect_reject(bad_version, -EINVAL, "version");
	expect_reject(bad_type, -EINVAL, "hash type");
	expect_reject(bad_alg, -EINVAL, "md7");
	expect_reject(unterminated_alg, -EINVAL, "terminated");
	expect_reject(upper_alg, -EINVAL, "lowercase");
	expect_reject(bad_dbs, -EINVAL, "data block size");
	expect_reject(small_hbs, -EINVAL, "hash block size");
	expect_reject(huge_hbs, -EINVAL, "hash block size");
	expect_reject(no_blocks, -EINVAL, "0 data blocks");
	expect_reject(overflow_blocks, -EOVERFLOW, "overflow");
	expect_reject(big_salt, -EINVAL, "salt");
	expect_reject(reserved, -EINVAL, "reserved");
	expect_reject(salt_tail, -EINVAL, "reserved");
	expect_reject(tail_pad, -EINVAL, "reserved");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "superblock"};

	return run_unit(&u,
			UNIT_TESTS(round_trip_and_byte_layout, each_bad_field_is_refused));
}
