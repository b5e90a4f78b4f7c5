/* verity/tree/params.c: the parameters' checks, where the tree starts,
 * and the hex and UUID text. */
#include <errno.h>
#include <check.h>
#include "check_main.h"
#include <string.h>
#include "verity/tree/params.h"
#include "verity/tree/superblock.h"

START_TEST(params_validation)
{
	struct verity_params p;
	struct ht_error err;

	verity_params_default(&p);
	ck_assert_int_eq(verity_params_validate(&p, &err), 0);
	p.hash_offset = 100;
	ck_assert_int_eq(verity_params_validate(&p, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "multiple of 512"));
	verity_params_default(&p);
	p.salt_size = 257;
	ck_assert_int_eq(verity_params_validate(&p, &err), -EINVAL);
	verity_params_default(&p);
	p.hash_type = 2;
	ck_assert_int_eq(verity_params_validate(&p, &err), -EINVAL);
	verity_params_default(&p);
	strcpy(p.hash_name, "whirlpool2");
	ck_assert_int_eq(verity_params_validate(&p, &err), -EINVAL);
	verity_params_default(&p);
	p.data_block_size = 3000;
	ck_assert_int_eq(verity_params_validate(&p, &err), -EINVAL);
	verity_params_default(&p);
	p.data_blocks = (1ULL << 52);
	ck_assert_int_eq(verity_params_validate(&p, &err), -EOVERFLOW);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "overflow"));
}
END_TEST

START_TEST(tree_start_follows_superblock)
{
	struct verity_params p;

	verity_params_default(&p);
	ck_assert_uint_eq(verity_tree_start_block(&p), 1);
	p.hash_block_size = 512;
	ck_assert_uint_eq(verity_tree_start_block(&p), 1);
	p.hash_offset = 1024;
	ck_assert_uint_eq(verity_tree_start_block(&p), 3);
	p.hash_block_size = 4096;
	p.hash_offset = 4096 * 3 + 512;
	ck_assert_uint_eq(verity_tree_start_block(&p), 4);
	p.no_superblock = 1;
	ck_assert_uint_eq(verity_tree_start_block(&p), 3); /* rounded down */
}
END_TEST

START_TEST(hex_and_uuid_text)
{
	uint8_t buf[8], u[16];
	char out[37];
	size_t n;

	ck_assert_int_eq(verity_hex_decode("00aBff", buf, 8, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert(buf[0] == 0 && buf[1] == 0xab && buf[2] == 0xff);
	ck_assert_int_eq(verity_hex_decode("abc", buf, 8, &n), -EINVAL);
	ck_assert_int_eq(verity_hex_decode("zz", buf, 8, &n), -EINVAL);
	ck_assert_int_eq(verity_hex_decode("000000000000000000", buf, 8, &n),
			 -EINVAL);
	verity_hex_encode(buf, 3, out);
	ck_assert_str_eq(out, "00abff");
	ck_assert_int_eq(
		verity_uuid_parse("ABCDEF01-1234-1234-1234-123456789ABC", u),
		0);
	verity_uuid_format(u, out);
	ck_assert_str_eq(out, "abcdef01-1234-1234-1234-123456789abc");
	ck_assert_int_eq(
		verity_uuid_parse("abcdef01-1234-1234-1234-123456789ab", u),
		-EINVAL);
	ck_assert_int_eq(
		verity_uuid_parse("abcdef01+1234-1234-1234-123456789abc", u),
		-EINVAL);
	ck_assert_int_eq(verity_uuid_parse("bad", u), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "params"};

	return run_unit(&u,
			UNIT_TESTS(params_validation, tree_start_follows_superblock, hex_and_uuid_text));
}
