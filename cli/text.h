/* veritysetup's text output: the header lines, the counts line, the
 * verdict, the parity's roots. */
#ifndef FV_CLI_TEXT_H
#define FV_CLI_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "hashtree/tree.h"
#include "verity/fec/layout.h"
#include "verity/tree/layout.h"

/* veritysetup's header lines; root may be NULL (dump). */
void cli_print_header(const char *device, const struct verity_params *p,
		      const char *uuid_text, const struct verity_layout *l,
		      const uint8_t *root);
/* The end of the tree as veritysetup prints it ("Hash device size"). */
uint64_t cli_nominal_hash_end(const struct verity_params *p,
			      const struct verity_layout *l);
/* veritysetup's words for a failure, before " at position N.":
 * "Verification failed", "Spare area is not zeroed", "Unreadable
 * block". */
const char *cli_failure_words(enum ht_failure_kind k);
/* A name from an image (a partition's, a label) as a message shows it:
 * control bytes and backslashes escaped (\xNN), so that no name prints
 * a line of its own; at most CLI_NAME_SHOWN bytes of it, then "...".
 * Returns buf. */
#define CLI_NAME_SHOWN 256
#define CLI_NAME_MAX   (4 * CLI_NAME_SHOWN + 4)
const char *cli_name(char *buf, size_t len, const void *name, size_t n);
/* cli_name into a buffer that lasts the enclosing statement's block. */
#define CLI_NAME(p, n) cli_name((char[CLI_NAME_MAX]){0}, CLI_NAME_MAX, (p), (n))
/* The exit code of a verify result: 2 for any bad block, else 1 for a
 * root hash mismatch, else 0. */
int cli_verdict(const struct ht_verify_result *res);
/* veritysetup's counts line on stderr, then the unreadable and unchecked
 * blocks, when there are any. */
void cli_print_counts(const struct ht_verify_result *res);
/* "parity of 8 roots, told from the size of f.fec". */
void cli_fec_roots_text(const struct verity_fec_layout *fl, const char *dev,
			char *buf, size_t len);

#endif
