/* The dm-verity table: exact text, option order, conflicts, parsing. */
#include <errno.h>
#include <check.h>

#include "check_main.h"
#include <string.h>

#include "verity/dm/activate.h"

static struct verity_params sample(void)
{
	struct verity_params p;
	size_t n;

	verity_params_default(&p);
	p.data_blocks = 300;
	verity_hex_decode("abcd", p.salt, sizeof(p.salt), &n);
	p.salt_size = n;
	return p;
}

static const uint8_t root[32] = {0x01, 0x02, [31] = 0xff};

START_TEST(plain_table)
{
	struct verity_params p = sample();
	char t[1024];

	ck_assert_int_eq(
		verity_table_params(&(struct verity_target){&p, "7:0", "7:1", 1,
							    root, 32, 0, NULL,
							    NULL},
				    t, sizeof(t), NULL),
		0);
	ck_assert_str_eq(t, "1 7:0 7:1 4096 4096 300 1 sha256 "
			    "01020000000000000000000000000000000000000000000000"
			    "000000000000ff abcd");
	p.salt_size = 0;
	p.hash_type = 0;
	ck_assert_int_eq(
		verity_table_params(&(struct verity_target){&p, "7:0", "7:0",
							    301, root, 32, 0,
							    NULL, NULL},
				    t, sizeof(t), NULL),
		0);
	ck_assert_str_eq(t, "0 7:0 7:0 4096 4096 300 301 sha256 "
			    "01020000000000000000000000000000000000000000000000"
			    "000000000000ff -");
}
END_TEST

START_TEST(options_in_kernel_order)
{
	struct verity_params p = sample();
	char t[1024];
	unsigned all = VERITY_ACT_TASKLETS | VERITY_ACT_CHECK_AT_MOST_ONCE |
		       VERITY_ACT_IGNORE_ZERO_BLOCKS |
		       VERITY_ACT_PANIC_ON_ERROR |
		       VERITY_ACT_RESTART_ON_CORRUPTION;

	ck_assert_int_eq(
		verity_table_params(&(struct verity_target){&p, "7:0", "7:1", 1,
							    root, 32, all, NULL,
							    "fastverity:x-y"},
				    t, sizeof(t), NULL),
		0);
	ck_assert_ptr_nonnull(strstr(
		t,
		" abcd 7 restart_on_corruption panic_on_error "
		"ignore_zero_blocks check_at_most_once try_verify_in_tasklet "
		"root_hash_sig_key_desc fastverity:x-y"));
}
END_TEST

START_TEST(conflicts_refused)
{
	struct verity_params p = sample();
	struct ht_error err;
	char t[1024];

	ck_assert_int_eq(verity_table_params(
				 &(struct verity_target){
					 &p, "7:0", "7:1", 1, root, 32,
					 VERITY_ACT_IGNORE_CORRUPTION |
						 VERITY_ACT_PANIC_ON_CORRUPTION,
					 NULL, NULL},
				 t, sizeof(t), &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(ht_msg(&err), "choose one corruption policy"));
	ck_assert_int_eq(verity_table_params(
				 &(struct verity_target){
					 &p, "7:0", "7:1", 1, root, 32,
					 VERITY_ACT_RESTART_ON_ERROR |
						 VERITY_ACT_PANIC_ON_ERROR,
					 NULL, NULL},
				 t, sizeof(t), &err),
			 -EINVAL);
	ck_assert_int_eq(
		verity_table_params(&(struct verity_target){&p, "7:0", "7:1", 1,
							    root, 32, 0, NULL,
							    "a b"},
				    t, sizeof(t), &err),
		-EINVAL);
	ck_assert_int_eq(
		verity_table_params(&(struct verity_target){&p, "7:0", "7:1", 1,
							    root, 32, 0, NULL,
							    NULL},
				    t, 20, &err),
		-ENAMETOOLONG);
}
END_TEST

START_TEST(parse_what_the_kernel_reports)
{
	struct verity_active st;
	struct ht_error err;

	ck_assert_int_eq(
		verity_table_parse("1 7:0 7:1 4096 512 300 9 sha1 "
				   "00112233445566778899aabbccddeeff00112233 - "
				   "4 ignore_zero_blocks check_at_most_once "
				   "root_hash_sig_key_desc fastverity:ab-name",
				   &st, &err),
		0);
	ck_assert_int_eq(st.p.hash_type, 1);
	ck_assert_str_eq(st.data_dev, "7:0");
	ck_assert_str_eq(st.hash_dev, "7:1");
	ck_assert_uint_eq(st.p.data_block_size, 4096);
	ck_assert_uint_eq(st.p.hash_block_size, 512);
	ck_assert_uint_eq(st.p.data_blocks, 300);
	ck_assert_uint_eq(st.hash_start_block, 9);
	ck_assert_str_eq(st.p.hash_name, "sha1");
	ck_assert_uint_eq(st.root_size, 20);
	ck_assert_uint_eq(st.p.salt_size, 0);
	ck_assert_uint_eq(st.flags, VERITY_ACT_IGNORE_ZERO_BLOCKS |
					    VERITY_ACT_CHECK_AT_MOST_ONCE);
	ck_assert_str_eq(st.sig_key_desc, "fastverity:ab-name");
	ck_assert_int_eq(verity_table_parse("1 7:0 7:1 4096", &st, &err),
			 -EINVAL);
}
END_TEST

/* The status line: V or C, and the blocks parity corrected where the
 * kernel counts them. */
START_TEST(status_with_and_without_a_count)
{
	struct verity_active st;

	verity_status_parse("V", &st);
	ck_assert_int_eq(st.corrupted, 0);
	ck_assert_int_eq(st.fec_repaired, -1);
	verity_status_parse("C 12", &st);
	ck_assert_int_eq(st.corrupted, 1);
	ck_assert_int_eq(st.fec_repaired, 12);
	verity_status_parse("V 0", &st);
	ck_assert_int_eq(st.fec_repaired, 0);
	verity_status_parse("V x", &st);
	ck_assert_int_eq(st.fec_repaired, -1);
	verity_status_parse("V 99999999999999999999999", &st);
	ck_assert_int_eq(st.fec_repaired, -1);
	verity_status_parse("", &st);
	ck_assert_int_eq(st.corrupted, 0);
}
END_TEST

/* --shared says nothing to the kernel: the table is the same. */
START_TEST(shared_is_no_table_word)
{
	struct verity_params p;
	char a[512], b[512];
	struct ht_error err;

	verity_params_default(&p);
	p.data_blocks = 8;
	p.salt_size = 0;
	ck_assert_int_eq(verity_table_params(
				 &(struct verity_target){
					 &p, "7:0", "7:1", 1, root, 32,
					 VERITY_ACT_TASKLETS, NULL, NULL},
				 a, sizeof(a), &err),
			 0);
	ck_assert_int_eq(
		verity_table_params(
			&(struct verity_target){&p, "7:0", "7:1", 1, root, 32,
						VERITY_ACT_TASKLETS |
							VERITY_ACT_SHARED,
						NULL, NULL},
			b, sizeof(b), &err),
		0);
	ck_assert_str_eq(a, b);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "table"};

	return run_unit(&u, UNIT_TESTS(plain_table, options_in_kernel_order,
				       conflicts_refused,
				       parse_what_the_kernel_reports,
				       status_with_and_without_a_count,
				       shared_is_no_table_word));
}
