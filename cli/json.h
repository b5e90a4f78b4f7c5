/* The --json document's parts, as json-c objects returned as void * (to
 * keep json-c out of the headers). */
#ifndef FV_CLI_JSON_H
#define FV_CLI_JSON_H

#include <stdint.h>

#include "cli/pair.h"
#include "cli/text.h"
#include "include/fastverity.h"

/* Prints obj on stdout and frees it. */
void cli_json_print(void *obj);
/* Set once a --json document is on stdout (cli_json_print does). */
extern int cli_json_emitted;
/* VERIFY's --json built whole, as the other kinds' (set by a visitor of
 * the open's notes before the first item: a walk that is not a pair's). */
extern int cli_json_whole;
/* A json-c string of s; bytes that are not valid UTF-8 become the text
 * \xHH, so that strict parsers accept the document. NULL for NULL. */
void *cli_json_str(const char *s);
/* --json and nothing printed yet: the one document, with the result, the
 * error (the last message, or fallback) and the exit code. */
void cli_json_final(int rc, const char *fallback);

/* fv_show(q) printed: text and warnings as they come, a --json document
 * whole at the end (none when it fails). fv_show's return (> 0: a
 * verify's verdict, said). */
int cli_show(const struct fv_show_request *q);
/* The same, text and the document written to out (a FILE *). */
int cli_show_to(const struct fv_show_request *q, void *out);
/* fv_bench_run(q, o) printed the same way. */
int cli_show_bench(const struct fv_bench_request *q, const fv_options *o);

#endif
