/* Option values turned into the library's parameters: numbers, sizes,
 * the tree's parameters, the parity's, how a run goes; and the check
 * that an output is none of the inputs. Each prints its own message and
 * returns 0 or an exit code (cli/errors.h). */
#ifndef FV_CLI_PARAMS_H
#define FV_CLI_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "include/fastverity.h"

struct cli_progress;

/* The tree's parameters from the options (defaults where absent), into
 * a new *p (free). for_format selects format's defaults (a
 * random salt and UUID); otherwise no salt. */
int cli_params_from_opts(const struct cli_opts *o, fv_params **p,
			 int for_format);
int cli_parse_hash_offset(const struct cli_opts *o, uint64_t *off);
/* --fec-device, --fec-offset, --fec-roots; path NULL without FEC;
 * roots 0: format's default, or for parity that exists the one value
 * its size fits. */
struct cli_fec {
	const char *path;
	uint64_t offset;
	unsigned roots;
};
int cli_fec_params(const struct cli_opts *o, struct cli_fec *f);
/* A number for option opt (with its dashes), as the library reads it. */
int cli_parse_count(const char *opt, const char *s, uint64_t *out);
/* "Threads: N." with --debug: the workers an action runs. */
void cli_threads_said(const struct cli_opts *o);
/* How an action runs, as the library's options (*opts, which point at
 * o's strings and pr): --threads, progress (pr, may be NULL: none),
 * --trusted-cert, the SHA-256 kernel FASTVERITY_SHA256 names. 0, or the
 * exit code (printed). */
int cli_run_options(const struct cli_opts *o, fv_options *opts,
		    struct cli_progress *pr);
/* FASTVERITY_SHA256 (portable, two-way, three-way): the SHA-256 kernel
 * the library is asked to run (the fastest when unset). */
enum fv_sha256_kernel cli_sha256_choice(void);
/* Refuses when out exists and is, after symlinks, one of the n inputs
 * (NULL entries skipped): what names the output. */
int cli_check_output(const char *out, const char *what,
		     const char *const *inputs, size_t n);

#endif
