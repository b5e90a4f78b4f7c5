/* verity/show/result.c: an action's result made of its outcome (the
 * root as bytes and hex, the hashing path, the layout, the verdict, the
 * signer only when the signature was checked), and the public report of
 * it: intact only when checked and clean, a repair's figures, the parts
 * it has (layout, parity, update, parameters) flagged. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "verity/show/result.h"

START_TEST(made_and_reported)
{
	static const uint8_t root[4] = {0xde, 0xad, 0xbe, 0xef};
	struct verity_outcome out = {
		.info = {"fast", NULL, "sha-ni (three-way)", "builtin"},
		.res = {.root_matches = 1},
		.trust = VERITY_TRUST_CHECK,
	};
	struct ht_error err;
	struct fv_report rep;
	fv_result *r = verity_show_result_new(&err);

	ck_assert_ptr_nonnull(r);
	strcpy(out.sig.signer, "CN=signer");
	out.layout.geo.tree_blocks = 3;
	out.layout.tree_offset = 4096;
	/* a signer not checked is not said */
	verity_show_result_checked(r, &out, root, sizeof(root));
	verity_show_report(r, &rep);
	ck_assert_str_eq(rep.root_hex, "deadbeef");
	ck_assert_uint_eq(rep.root_size, 4);
	ck_assert(!memcmp(rep.root, root, 4));
	ck_assert_int_eq(rep.intact, 1);
	ck_assert_str_eq(rep.hashing_path, "fast");
	ck_assert_str_eq(rep.hashing_reason, "");
	ck_assert_str_eq(rep.hashing_kernel, "sha-ni (three-way)");
	ck_assert_str_eq(rep.signer, "");
	ck_assert_int_eq(rep.trust, FV_TRUST_CHECK);
	ck_assert_uint_eq(rep.has, FV_REPORT_LAYOUT);
	ck_assert_uint_eq(rep.layout.tree_blocks, 3);
	ck_assert_uint_eq(rep.layout.tree_offset, 4096);
	ck_assert_uint_eq(rep.layout.size, sizeof(rep.layout));

	/* checked: the signer said; a repair's figures; a bad block left */
	out.signature_checked = 1;
	out.has_fec = 1;
	out.fec.bad_blocks = 5;
	out.fec.repaired = 4;
	out.fec.stale_codewords = 7;
	out.res.bad_hash_blocks = 1;
	verity_show_result_checked(r, &out, root, sizeof(root));
	verity_show_report(r, &rep);
	ck_assert_str_eq(rep.signer, "CN=signer");
	ck_assert_int_eq(rep.intact, 0);
	ck_assert_uint_eq(rep.bad_hash_blocks, 1);
	ck_assert_uint_eq(rep.repaired, 4);
	ck_assert_uint_eq(rep.unrepaired, 1);
	ck_assert_uint_eq(rep.stale_codewords, 7);
	ck_assert_uint_eq(rep.has, FV_REPORT_LAYOUT | FV_REPORT_FEC);

	/* format's: parameters and an update, no check */
	free(r);
	r = verity_show_result_new(&err);
	ck_assert_ptr_nonnull(r);
	verity_show_result_outcome(r, &out);
	r->has_params = 1;
	r->params.data_blocks = 9;
	r->has_update = 1;
	r->update.changed_blocks = 2;
	verity_show_report(r, &rep);
	ck_assert_int_eq(rep.intact, 0);
	ck_assert_uint_eq(rep.has, FV_REPORT_LAYOUT | FV_REPORT_UPDATE |
					   FV_REPORT_PARAMS);
	ck_assert_uint_eq(rep.params.data_blocks, 9);
	ck_assert_uint_eq(rep.update.changed_blocks, 2);
	ck_assert_uint_eq(rep.update.size, sizeof(rep.update));
	free(r);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"result", 0, NULL, NULL, 0, NULL};

	return run_unit(&u, UNIT_TESTS(made_and_reported));
}
