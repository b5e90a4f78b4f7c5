/* Progress on stderr (cli/progress.h). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

void cli_progress_init(struct cli_progress *pr, const struct cli_opts *o)
{
	pr->tty = isatty(STDERR_FILENO);
	pr->enabled = o->progress ? 1 : o->no_progress ? 0 : pr->tty;
	pr->action = o->action ? o->action : "fastverity";
	pr->start = cli_now();
	pr->last = 0;
	pr->shown = 0;
}

void cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *pr = ctx;
	double t = cli_now(), elapsed = t - pr->start, rate;
	double mib = 1024.0 * 1024.0;

	if (!pr->enabled || total == 0 ||
	    (t - pr->last < (pr->tty ? 0.1 : 1.0) && done < total))
		return;
	pr->last = t;
	rate = elapsed > 0 ? (double)done / elapsed : 0;
	if (!pr->tty) {
		fprintf(stderr, "%s: %.0f%%, %.1f of %.1f MiB, %.1f MiB/s\n",
			pr->action, 100.0 * (double)done / (double)total,
			(double)done / mib, (double)total / mib, rate / mib);
		fflush(stderr);
		return;
	}
	fprintf(stderr,
		"\r%s: %5.1f%%  %.1f of %.1f MiB  %8.1f MiB/s  %5.0f s left ",
		pr->action, 100.0 * (double)done / (double)total,
		(double)done / mib, (double)total / mib, rate / mib,
		rate > 0 ? (double)(total - done) / rate : 0.0);
	fflush(stderr);
	pr->shown = 1;
}

void cli_progress_end(struct cli_progress *pr)
{
	if (pr->shown && pr->tty)
		fputs("\r\033[K", stderr);
	pr->shown = 0;
}
