/* Progress on stderr (cli/progress.h). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

/* The bar on the terminal, if any: every other line clears it first (a
 * result glued to a bar is misread), and the next update draws it
 * again. Updates and reports come from the library's threads. */
static struct cli_progress *active;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void cli_progress_init(struct cli_progress *pr, const struct cli_opts *o)
{
	pr->tty = isatty(STDERR_FILENO);
	pr->enabled = o->progress ? 1 : o->no_progress ? 0 : pr->tty;
	pr->action = o->action ? o->action : "fastverity";
	pr->pass = NULL;
	pr->start = cli_now();
	pr->last = 0;
	pr->shown = 0;
	if (pr->enabled && pr->tty) {
		pthread_mutex_lock(&lock);
		active = pr;
		pthread_mutex_unlock(&lock);
	}
}

static void clear_locked(void)
{
	if (active && active->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		active->shown = 0;
	}
}

void cli_progress_clear(void)
{
	pthread_mutex_lock(&lock);
	clear_locked();
	/* what follows on stdout, on the same terminal, after the line */
	fflush(stdout);
	pthread_mutex_unlock(&lock);
}

void cli_progress_hide(void)
{
	pthread_mutex_lock(&lock);
	clear_locked();
	pthread_mutex_unlock(&lock);
}

void cli_progress_pass(void *ctx, const char *pass)
{
	struct cli_progress *pr = ctx;

	pthread_mutex_lock(&lock);
	if (pr->enabled) {
		/* a new bar, from 0: the last one's line cleared, its
		 * rate not carried over */
		clear_locked();
		pr->pass = pass;
		pr->start = cli_now();
		pr->last = 0;
	}
	pthread_mutex_unlock(&lock);
}

void cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *pr = ctx;
	double t = cli_now(), elapsed = t - pr->start, rate;
	double mib = 1024.0 * 1024.0;

	if (!pr->enabled || total == 0 ||
	    (t - pr->last < (pr->tty ? 0.1 : 1.0) && done < total))
		return;
	pthread_mutex_lock(&lock);
	pr->last = t;
	rate = elapsed > 0 ? (double)done / elapsed : 0;
	if (!pr->tty) {
		fprintf(stderr,
			"%s%s%s: %.0f%%, %.1f of %.1f MiB, %.1f MiB/s\n",
			pr->action, pr->pass ? ", " : "",
			pr->pass ? pr->pass : "",
			100.0 * (double)done / (double)total,
			(double)done / mib, (double)total / mib, rate / mib);
		fflush(stderr);
		pthread_mutex_unlock(&lock);
		return;
	}
	fprintf(stderr,
		"\r\033[K%s%s%s: %5.1f%%  %.1f of %.1f MiB  %8.1f MiB/s  %5.0f "
		"s left",
		pr->action, pr->pass ? ", " : "", pr->pass ? pr->pass : "",
		100.0 * (double)done / (double)total, (double)done / mib,
		(double)total / mib, rate / mib,
		rate > 0 ? (double)(total - done) / rate : 0.0);
	fflush(stderr);
	pr->shown = 1;
	pthread_mutex_unlock(&lock);
}

void cli_progress_end(struct cli_progress *pr)
{
	pthread_mutex_lock(&lock);
	if (active == pr) {
		clear_locked();
		active = NULL;
	}
	pr->shown = 0;
	pthread_mutex_unlock(&lock);
}
