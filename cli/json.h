/* The --json document's parts, as json-c objects returned as void * (to
 * keep json-c out of the headers). */
#ifndef FV_CLI_JSON_H
#define FV_CLI_JSON_H

#include <stdint.h>

#include "cli/pair.h"
#include "hashtree/tree.h"
#include "verity/fec/layout.h"
#include "verity/tree/layout.h"

/* The header (dump's fields, and the tree's place). */
void *cli_json_header(const char *device, const struct verity_params *p,
		      const struct verity_layout *l, const uint8_t *root);
/* Prints obj on stdout and frees it. */
void cli_json_print(void *obj);
/* Set once a --json document is on stdout (cli_json_print does). */
extern int cli_json_emitted;
/* A json-c string of s; bytes that are not valid UTF-8 become the text
 * \xHH, so that strict parsers accept the document. NULL for NULL. */
void *cli_json_str(const char *s);
/* --json and nothing printed yet: the one document, with the result, the
 * error (the last message, or fallback) and the exit code. */
void cli_json_final(int rc, const char *fallback);
/* The word of a verify's exit code (cli_verdict()). */
const char *cli_verdict_word(int code);
/* Adds root_hash_matches and the bad block counts to a json-c object. */
void cli_json_add_counts(void *obj, const struct ht_verify_result *res);
/* One bad block: type, position, block, level. */
void *cli_json_failure(const struct verity_failure *f);
/* What an FEC check or repair found, with the parity's roots (and
 * where they came from), offset and coverage; unrepairable (a json-c
 * array, or NULL) is added as it is. */
void *cli_json_fec(const struct verity_fec_layout *fl,
		   const struct verity_fec_result *res, void *unrepairable);
/* A checked signature (file, signer, warning); NULL (JSON null) when
 * none was checked. */
void *cli_json_signature(const struct cli_pair *cp,
			 const struct verity_outcome *out);

#endif
