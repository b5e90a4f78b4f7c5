/* A progress line on stderr: percent, MiB/s and time left, at most ten
 * updates a second, cleared at the end. */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

volatile sig_atomic_t cli_progress_visible;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(struct cli_progress *pr, const struct cli_opts *o)
{
	pr->enabled = o->progress      ? 1
		      : o->no_progress ? 0
				       : isatty(STDERR_FILENO);
	pr->start = now();
	pr->last = 0;
	pr->shown = 0;
}

void cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *pr = ctx;
	double t = now(), elapsed = t - pr->start, rate;

	if (!pr->enabled || (t - pr->last < 0.1 && done < total) || total == 0)
		return;
	pr->last = t;
	rate = elapsed > 0 ? (double)done / elapsed : 0;
	fprintf(stderr, "\r%5.1f%%  %8.1f MiB/s  %5.0f s left ",
		100.0 * (double)done / (double)total, rate / (1 << 20),
		rate > 0 ? (double)(total - done) / rate : 0.0);
	fflush(stderr);
	pr->shown = 1;
	cli_progress_visible = 1;
}

void cli_progress_end(struct cli_progress *pr)
{
	if (pr->shown)
		fputs("\r\033[K", stderr);
	pr->shown = 0;
	cli_progress_visible = 0;
}
