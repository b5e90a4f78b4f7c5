/* What a check of a pair found, in the words every verify says it with
 * (verity/show/check.c): veritysetup's counts lines and failure words,
 * the verdict and its words, and the same as --json members. One copy,
 * for a pair's verify, a disk image's and a firmware set's. */
#ifndef FV_SHOW_CHECK_H
#define FV_SHOW_CHECK_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>

#include "hashtree/tree.h"
#include "verity/show/show.h"
#include "verity/tree/pair.h"

/* What a check found: 0, 1 (the root does not match), 2 (bad blocks). */
int verity_show_verdict(const struct ht_verify_result *r);
/* --json's "result": "ok", "corrupted", "root hash mismatch". */
const char *verity_show_verdict_word(int code);
/* A verdict line's last words: "verified" (code 0), or "FAILED: " and
 * what failed (r NULL: "FAILED"), in buf. */
const char *verity_show_verdict_text(int code, const struct ht_verify_result *r,
				     char *buf, size_t len);
/* veritysetup's counts lines, on stderr. */
void verity_show_counts_said(struct show *sh, const struct ht_verify_result *r);
/* The counts as --json members. */
void verity_show_counts_json(struct show *sh, const struct ht_verify_result *r);
/* veritysetup's words before " at position N." */
const char *verity_show_failure_words(enum ht_failure_kind k);
/* One bad block as a --json object's members (type, position, ...). */
void verity_show_failure_json(struct show *sh, const struct verity_failure *f);
/* The counts of a public report. */
struct ht_verify_result verity_show_counts_of(const struct fv_report *r);

#endif
