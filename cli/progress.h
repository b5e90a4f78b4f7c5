/* Progress on stderr: on a terminal one line redrawn in place (action,
 * percent, bytes, MiB/s, time left) at most ten times a second and
 * cleared at the end; elsewhere (--progress into a file or a pipe) plain
 * lines without control characters, at most one a second, and the last
 * at 100%. */
#ifndef FV_CLI_PROGRESS_H
#define FV_CLI_PROGRESS_H

#include <stdint.h>

#include "cli/cli.h"

struct cli_progress {
	int enabled;
	int tty;            /* a line redrawn in place; else plain lines */
	const char *action; /* named in each line */
	int shown;
	double start;
	double last;
};

void cli_progress_init(struct cli_progress *pr, const struct cli_opts *o);
/* The library's progress callback (ctx: the struct cli_progress). */
void cli_progress_update(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(struct cli_progress *pr);

#endif
