/* verity/show/check.c: verify's verdicts and their words, veritysetup's
 * counts lines (on stderr, singular and plural, the unreadable and
 * unchecked lines only when there are such blocks), the counts and a bad
 * block as --json members, and a public report's counts. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "verity/show/check.h"

struct got {
	char err[2048], items[2048];
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	size_t at = strlen(g->items);

	if (it->kind == FV_ITEM_ERROR) {
		strncat(g->err, it->text, sizeof(g->err) - strlen(g->err) - 1);
		return 0;
	}
	if (it->kind == FV_ITEM_STRING)
		snprintf(g->items + at, sizeof(g->items) - at, "%s=%s ",
			 it->key, it->text);
	else if (it->kind == FV_ITEM_UINT || it->kind == FV_ITEM_BOOL)
		snprintf(g->items + at, sizeof(g->items) - at, "%s=%llu ",
			 it->key, (unsigned long long)it->u);
	return 0;
}

START_TEST(verdicts)
{
	struct ht_verify_result r = {.root_matches = 1};
	char buf[256];

	ck_assert_int_eq(verity_show_verdict(&r), 0);
	ck_assert_str_eq(verity_show_verdict_word(0), "ok");
	ck_assert_str_eq(verity_show_verdict_text(0, &r, buf, sizeof(buf)),
			 "verified");
	r.root_matches = 0;
	ck_assert_int_eq(verity_show_verdict(&r), 1);
	ck_assert_str_eq(verity_show_verdict_word(1), "root hash mismatch");
	ck_assert_str_eq(verity_show_verdict_text(1, &r, buf, sizeof(buf)),
			 "FAILED: the tree does not match the root hash");
	ck_assert_str_eq(verity_show_verdict_text(1, NULL, buf, sizeof(buf)),
			 "FAILED");
	/* bad blocks outrank the root */
	r = (struct ht_verify_result){.root_matches = 1,
				      .bad_data_blocks = 1,
				      .bad_hash_blocks = 2,
				      .unreadable_blocks = 3};
	ck_assert_int_eq(verity_show_verdict(&r), 2);
	ck_assert_str_eq(verity_show_verdict_word(2), "corrupted");
	ck_assert_str_eq(verity_show_verdict_text(2, &r, buf, sizeof(buf)),
			 "FAILED: 1 bad data block, 2 bad hash blocks, 3 "
			 "unreadable blocks");
	r = (struct ht_verify_result){.root_matches = 1, .bad_padding = 1};
	ck_assert_int_eq(verity_show_verdict(&r), 2);
	ck_assert_str_eq(verity_show_verdict_text(2, &r, buf, sizeof(buf)),
			 "FAILED: 1 bad spare area");
	/* a verdict of 2 with nothing counted says no more than FAILED */
	r = (struct ht_verify_result){.root_matches = 1};
	ck_assert_str_eq(verity_show_verdict_text(2, &r, buf, sizeof(buf)),
			 "FAILED");
}
END_TEST

START_TEST(counts)
{
	static struct got g;
	struct show sh = {collect, &g, 0, 0};
	struct ht_verify_result r = {.bad_data_blocks = 1,
				     .bad_hash_blocks = 2};

	memset(&g, 0, sizeof(g));
	verity_show_counts_said(&sh, &r);
	ck_assert_str_eq(g.err, "Verification of data area failed: 1 bad "
				"data block, 2 bad hash blocks, 0 bad spare "
				"areas.\n");
	memset(&g, 0, sizeof(g));
	r = (struct ht_verify_result){.unreadable_blocks = 1,
				      .unchecked_data_blocks = 8,
				      .unchecked_hash_blocks = 1};
	verity_show_counts_said(&sh, &r);
	ck_assert_str_eq(g.err,
			 "Verification of data area failed: 0 bad data "
			 "blocks, 0 bad hash blocks, 0 bad spare areas.\n"
			 "1 block could not be read.\n"
			 "Under a bad or unreadable hash block, not checked: "
			 "8 data blocks, 1 hash block.\n");
	memset(&g, 0, sizeof(g));
	sh.json = 1;
	r.root_matches = 1;
	verity_show_counts_json(&sh, &r);
	ck_assert_str_eq(g.items, "root_hash_matches=1 bad_data_blocks=0 "
				  "bad_hash_blocks=0 bad_spare_areas=0 "
				  "unreadable_blocks=1 unchecked_data_blocks=8 "
				  "unchecked_hash_blocks=1 ");
	ck_assert_str_eq(g.err, "");
}
END_TEST

START_TEST(failures)
{
	static struct got g;
	struct show sh = {collect, &g, 1, 0};
	struct verity_failure f = {HT_BAD_DATA_BLOCK, 8192, 2, 0};

	ck_assert_str_eq(verity_show_failure_words(HT_BAD_DATA_BLOCK),
			 "Verification failed");
	ck_assert_str_eq(verity_show_failure_words(HT_BAD_HASH_BLOCK),
			 "Verification failed");
	ck_assert_str_eq(verity_show_failure_words(HT_BAD_PADDING),
			 "Spare area is not zeroed");
	ck_assert_str_eq(verity_show_failure_words(HT_UNREADABLE_DATA),
			 "Unreadable block");
	ck_assert_str_eq(verity_show_failure_words(HT_UNREADABLE_HASH),
			 "Unreadable block");
	memset(&g, 0, sizeof(g));
	verity_show_failure_json(&sh, &f);
	ck_assert_str_eq(g.items, "type=data position=8192 block=2 ");
	memset(&g, 0, sizeof(g));
	f = (struct verity_failure){HT_BAD_HASH_BLOCK, 4096, 1, 1};
	verity_show_failure_json(&sh, &f);
	ck_assert_str_eq(g.items, "type=hash position=4096 block=1 level=1 ");
	memset(&g, 0, sizeof(g));
	f = (struct verity_failure){HT_UNREADABLE_DATA, 0, 0, 0};
	verity_show_failure_json(&sh, &f);
	ck_assert_str_eq(g.items,
			 "type=unreadable position=0 block=0 area=data ");
	memset(&g, 0, sizeof(g));
	f = (struct verity_failure){HT_UNREADABLE_HASH, 512, 3, 0};
	verity_show_failure_json(&sh, &f);
	ck_assert_str_eq(g.items, "type=unreadable position=512 block=3 "
				  "area=hash level=0 ");
	memset(&g, 0, sizeof(g));
	f = (struct verity_failure){HT_BAD_PADDING, 100, 0, 2};
	verity_show_failure_json(&sh, &f);
	ck_assert_str_eq(g.items, "type=padding position=100 block=0 level=2 ");
}
END_TEST

START_TEST(report_counts)
{
	struct fv_report rep = {.size = sizeof(rep),
				.bad_data_blocks = 1,
				.bad_hash_blocks = 2,
				.bad_padding = 3,
				.unreadable = 4,
				.unchecked_data_blocks = 5,
				.unchecked_hash_blocks = 6,
				.root_matches = 1,
				.root_first = 1};
	struct ht_verify_result r = verity_show_counts_of(&rep);

	ck_assert_uint_eq(r.bad_data_blocks, 1);
	ck_assert_uint_eq(r.bad_hash_blocks, 2);
	ck_assert_uint_eq(r.bad_padding, 3);
	ck_assert_uint_eq(r.unreadable_blocks, 4);
	ck_assert_uint_eq(r.unchecked_data_blocks, 5);
	ck_assert_uint_eq(r.unchecked_hash_blocks, 6);
	ck_assert_int_eq(r.root_matches, 1);
	ck_assert_int_eq(r.root_first, 1);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"check", 0, NULL, NULL, 0, NULL};

	return run_unit(&u,
			UNIT_TESTS(verdicts, counts, failures, report_counts));
}
