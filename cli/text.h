/* A result's report; names from images as messages show them
 * (cli/pair.c). What a check found is the library's to say: fv_show. */
#ifndef FV_CLI_TEXT_H
#define FV_CLI_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "include/fastverity.h"

/* What r found (fv_result_report), into *rep; a NULL r is a report
 * of nothing (zeros, no strings, FV_TRUST_UNSIGNED). */
void cli_report(const fv_result *r, struct fv_report *rep);

/* A name from an image (a partition's, a label) as a message shows it:
 * control bytes and backslashes escaped (\xNN), so that no name prints
 * a line of its own; at most CLI_NAME_SHOWN bytes of it, then "...".
 * Returns buf. */
#define CLI_NAME_SHOWN 256
#define CLI_NAME_MAX   (4 * CLI_NAME_SHOWN + 4)
const char *cli_name(char *buf, size_t len, const void *name, size_t n);
/* cli_name into a buffer that lasts the enclosing statement's block. */
#define CLI_NAME(p, n) cli_name((char[CLI_NAME_MAX]){0}, CLI_NAME_MAX, (p), (n))

#endif
