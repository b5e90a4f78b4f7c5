/* Progress on stderr: on a terminal one line redrawn in place (action
 * and pass, percent, bytes, MiB/s, time left) at most ten times a second,
 * cleared before any other output and at the end; elsewhere (--progress
 * into a file or a pipe) plain lines without control characters, at
 * most one a second, and the last of each pass at 100%. A bar per pass
 * the library names ("verify, check parity"), from 0. */
#ifndef FV_CLI_PROGRESS_H
#define FV_CLI_PROGRESS_H

#include <stdint.h>

#include "cli/cli.h"

struct cli_progress {
	int enabled;
	int tty;            /* a line redrawn in place; else plain lines */
	const char *action; /* named in each line */
	const char *pass;   /* and the pass, when the library names it */
	int shown;
	double start;
	double last;
};

void cli_progress_init(struct cli_progress *pr, const struct cli_opts *o);
/* The library's progress callback (ctx: the struct cli_progress). */
void cli_progress_update(void *ctx, uint64_t done, uint64_t total);
/* The library's pass callback: a new bar, named, from 0. */
void cli_progress_pass(void *ctx, const char *pass);
/* The bar's line cleared, if one is shown: before any other output. */
void cli_progress_clear(void);
/* The same, what stdout holds left there (before a line on stdout). */
void cli_progress_hide(void);
void cli_progress_end(struct cli_progress *pr);

#endif
