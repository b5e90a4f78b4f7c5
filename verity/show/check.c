/* What a check found, in verify's words (verity/show/check.h). */
#include "verity/show/check.h"

#include <inttypes.h>
#include <stdio.h>

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

int verity_show_verdict(const struct ht_verify_result *r)
{
	if (r->bad_data_blocks || r->bad_hash_blocks || r->bad_padding ||
	    r->unreadable_blocks)
		return 2;
	return r->root_matches ? 0 : 1;
}

const char *verity_show_verdict_word(int code)
{
	return code == 0   ? "ok"
	       : code == 2 ? "corrupted"
			   : "root hash mismatch";
}

const char *verity_show_verdict_text(int code, const struct ht_verify_result *r,
				     char *buf, size_t len)
{
	size_t n = 0;

	if (code == 0)
		return "verified";
	if (!r)
		return "FAILED";
	/* what failed, so that "signed: FAILED" is not read as a failed
	 * signature */
	if (!r->root_matches)
		return "FAILED: the tree does not match the root hash";
	n += (size_t)snprintf(buf, len, "FAILED:");
#define PART(count, what)                                                    \
	if ((count) && n < len)                                              \
	n += (size_t)snprintf(buf + n, len - n, "%s %" PRIu64 " " what "%s", \
			      n > 7 ? "," : "", (uint64_t)(count),           \
			      plural(count))
	PART(r->bad_data_blocks, "bad data block");
	PART(r->bad_hash_blocks, "bad hash block");
	PART(r->bad_padding, "bad spare area");
	PART(r->unreadable_blocks, "unreadable block");
#undef PART
	return n > 7 ? buf : "FAILED";
}

void verity_show_counts_said(struct show *sh, const struct ht_verify_result *r)
{
	uint64_t d = r->unchecked_data_blocks, h = r->unchecked_hash_blocks;

	verity_show_errorf(sh,
			   "Verification of data area failed: %" PRIu64
			   " bad data block%s, %" PRIu64
			   " bad hash block%s, %" PRIu64 " bad spare area%s.\n",
			   r->bad_data_blocks, plural(r->bad_data_blocks),
			   r->bad_hash_blocks, plural(r->bad_hash_blocks),
			   r->bad_padding, plural(r->bad_padding));
	if (r->unreadable_blocks)
		verity_show_errorf(
			sh, "%" PRIu64 " block%s could not be read.\n",
			r->unreadable_blocks, plural(r->unreadable_blocks));
	if (d || h)
		verity_show_errorf(sh,
				   "Under a bad or unreadable hash block, not "
				   "checked: %" PRIu64 " data block%s, %" PRIu64
				   " hash block%s.\n",
				   d, plural(d), h, plural(h));
}

void verity_show_counts_json(struct show *sh, const struct ht_verify_result *r)
{
	verity_show_bool(sh, "root_hash_matches", r->root_matches);
	verity_show_u64(sh, "bad_data_blocks", r->bad_data_blocks);
	verity_show_u64(sh, "bad_hash_blocks", r->bad_hash_blocks);
	verity_show_u64(sh, "bad_spare_areas", r->bad_padding);
	verity_show_u64(sh, "unreadable_blocks", r->unreadable_blocks);
	verity_show_u64(sh, "unchecked_data_blocks", r->unchecked_data_blocks);
	verity_show_u64(sh, "unchecked_hash_blocks", r->unchecked_hash_blocks);
}

const char *verity_show_failure_words(enum ht_failure_kind k)
{
	return k == HT_BAD_PADDING ? "Spare area is not zeroed"
	       : k == HT_UNREADABLE_DATA || k == HT_UNREADABLE_HASH
		       ? "Unreadable block"
		       : "Verification failed";
}

void verity_show_failure_json(struct show *sh, const struct verity_failure *f)
{
	int unreadable =
		f->kind == HT_UNREADABLE_DATA || f->kind == HT_UNREADABLE_HASH;

	verity_show_str(sh, "type",
			f->kind == HT_BAD_DATA_BLOCK   ? "data"
			: f->kind == HT_BAD_HASH_BLOCK ? "hash"
			: unreadable                   ? "unreadable"
						       : "padding");
	verity_show_u64(sh, "position", f->position);
	verity_show_u64(sh, "block", f->block);
	if (unreadable)
		verity_show_str(sh, "area",
				f->kind == HT_UNREADABLE_DATA ? "data"
							      : "hash");
	if (f->kind != HT_BAD_DATA_BLOCK && f->kind != HT_UNREADABLE_DATA)
		verity_show_u64(sh, "level", f->level);
}

struct ht_verify_result verity_show_counts_of(const struct fv_report *r)
{
	return (struct ht_verify_result){
		r->bad_data_blocks,       r->bad_hash_blocks,
		r->bad_padding,           r->unreadable,
		r->unchecked_data_blocks, r->unchecked_hash_blocks,
		r->root_matches,          r->root_first};
}
