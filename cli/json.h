/* The --json document's parts, as json-c objects returned as void * (to
 * keep json-c out of the headers). */
#ifndef FV_CLI_JSON_H
#define FV_CLI_JSON_H

#include <stdint.h>

#include "cli/pair.h"
#include "cli/text.h"
#include "include/fastverity.h"

/* The header (dump's fields, and the tree's place); root_hex may be
 * NULL. */
void *cli_json_header(const char *device, const fv_params *p,
		      const struct fv_layout *l, const char *root_hex);
/* Prints obj on stdout and frees it. */
void cli_json_print(void *obj);
/* Set once a --json document is on stdout (cli_json_print does). */
extern int cli_json_emitted;
/* A json-c string of s; bytes that are not valid UTF-8 become the text
 * \xHH, so that strict parsers accept the document. NULL for NULL. */
void *cli_json_str(const char *s);
/* Members of a json-c object o (key k): a json-c value v (NULL: null),
 * a string (cli_json_str's), numbers and a boolean. */
void cli_jset(void *o, const char *k, void *v);
void cli_jstr(void *o, const char *k, const char *s);
void cli_ju64(void *o, const char *k, uint64_t v);
void cli_ji64(void *o, const char *k, int64_t v);
void cli_jint(void *o, const char *k, int v);
void cli_jbool(void *o, const char *k, int v);
/* A json-c string of the base64 (RFC 4648, padded) of n bytes; NULL
 * when out of memory. */
void *cli_json_base64(const uint8_t *p, size_t n);
/* --json and nothing printed yet: the one document, with the result, the
 * error (the last message, or fallback) and the exit code. */
void cli_json_final(int rc, const char *fallback);
/* The word of a verify's exit code (cli_verdict()). */
const char *cli_verdict_word(int code);
/* Adds root_hash_matches and the bad block counts to a json-c object. */
void cli_json_add_counts(void *obj, const struct cli_counts *c);
/* One bad block: type, position, block, level. */
void *cli_json_failure(const struct cli_failure *f);
/* What an FEC check or repair found, with the parity's roots (and
 * where they came from), offset and coverage; unrepairable (a json-c
 * array, or NULL) is added as it is. */
void *cli_json_fec(const struct fv_layout *l, const struct fv_fec_report *f,
		   void *unrepairable);
/* The trust policy's word for a verdict (docs/trust.md): "checked",
 * "not checked", "unsigned". */
const char *cli_trust_word(enum fv_trust t);
/* A checked signature (file, signer, warning); NULL (JSON null) when
 * none was checked. res: the check's result. */
void *cli_json_signature(const struct cli_pair *cp, const fv_result *res);

/* fv_show(q) printed: text and warnings as they come, a --json document
 * whole at the end (none when it fails). fv_show's return (> 0: a
 * verify's verdict, said). */
int cli_show(const struct fv_show_request *q);
/* The same, text and the document written to out (a FILE *). */
int cli_show_to(const struct fv_show_request *q, void *out);
/* fv_bench_run(q, o) printed the same way. */
int cli_show_bench(const struct fv_bench_request *q, const fv_options *o);

#endif
