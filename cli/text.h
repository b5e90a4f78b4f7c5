/* veritysetup's text output: the header lines, the counts line, the
 * verdict, the parity's roots; and what a check found, as the command
 * prints it. */
#ifndef FV_CLI_TEXT_H
#define FV_CLI_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "include/fastverity.h"

/* What r found (fv_result_report), into *rep; a NULL r is a report
 * of nothing (zeros, no strings, FV_TRUST_UNSIGNED). */
void cli_report(const fv_result *r, struct fv_report *rep);

/* What a check found: a result's counts (cli_counts_of), or a repair's
 * first pass (cli_counts_before). */
struct cli_counts {
	uint64_t bad_data, bad_hash, bad_padding, unreadable;
	uint64_t unchecked_data, unchecked_hash;
	int root_matches, root_first;
};
void cli_counts_of(const fv_result *r, struct cli_counts *c);
void cli_counts_before(const struct fv_fec_report *f, struct cli_counts *c);

/* One bad block: where it is on its device. */
struct cli_failure {
	enum fv_failure_kind kind;
	uint64_t position; /* the byte offset on its device */
	uint64_t block;
	unsigned level;
};

/* veritysetup's header lines; root_hex may be NULL (dump). */
void cli_print_header(const char *device, const fv_params *p,
		      const char *uuid_text, const struct fv_layout *l,
		      const char *root_hex);
/* The end of the tree as veritysetup prints it ("Hash device size"). */
uint64_t cli_nominal_hash_end(const fv_params *p, const struct fv_layout *l);
/* veritysetup's words for a failure, before " at position N.":
 * "Verification failed", "Spare area is not zeroed", "Unreadable
 * block". */
const char *cli_failure_words(enum fv_failure_kind k);
/* A name from an image (a partition's, a label) as a message shows it:
 * control bytes and backslashes escaped (\xNN), so that no name prints
 * a line of its own; at most CLI_NAME_SHOWN bytes of it, then "...".
 * Returns buf. */
#define CLI_NAME_SHOWN 256
#define CLI_NAME_MAX   (4 * CLI_NAME_SHOWN + 4)
const char *cli_name(char *buf, size_t len, const void *name, size_t n);
/* cli_name into a buffer that lasts the enclosing statement's block. */
#define CLI_NAME(p, n) cli_name((char[CLI_NAME_MAX]){0}, CLI_NAME_MAX, (p), (n))
/* The exit code of a check: 2 for any bad block, else 1 for a root hash
 * mismatch, else 0. */
int cli_verdict(const struct cli_counts *c);
/* veritysetup's counts line on stderr, then the unreadable and unchecked
 * blocks, when there are any. */
void cli_print_counts(const struct cli_counts *c);
/* A verdict line's last words: "verified" (code 0), or "FAILED: " and
 * what failed (the counts; NULL: "FAILED"), in buf. */
const char *cli_verdict_text(int code, const struct cli_counts *c, char *buf,
			     size_t len);
/* "parity of 8 roots, told from the size of f.fec". */
void cli_fec_roots_text(const struct fv_layout *l, const char *dev, char *buf,
			size_t len);

#endif
