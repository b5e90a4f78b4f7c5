/* Option values turned into the library's parameters: numbers, sizes,
 * the tree's parameters, the parity's, how a run goes; and the check
 * that an output is none of the inputs. Each prints its own message and
 * returns 0 or an exit code (cli/errors.h). */
#ifndef FV_CLI_PARAMS_H
#define FV_CLI_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "verity/fec/layout.h"
#include "verity/tree/params.h"

struct cli_progress;
struct ht_options;

/* Fills p from the options (defaults where absent). for_format selects
 * format's defaults (random salt and UUID). */
int cli_params_from_opts(const struct cli_opts *o, struct verity_params *p,
			 int for_format);
int cli_parse_hash_offset(const struct cli_opts *o, uint64_t *off);
/* --fec-device, --fec-offset, --fec-roots; fp->device NULL without FEC. */
int cli_fec_params(const struct cli_opts *o, struct verity_fec_params *fp);
/* A decimal count for option opt. */
int cli_parse_count(const char *opt, const char *s, uint64_t *out);
/* A byte count: digits with an optional K, M, G or T (powers of 1024). */
int cli_parse_size(const char *text, uint64_t *out);
/* --threads (default: online CPUs) and progress for format and verify. */
int cli_run_options(const struct cli_opts *o, struct ht_options *opt,
		    struct cli_progress *pr);
/* Refuses when out exists and is, after symlinks, one of the n inputs
 * (NULL entries skipped): what names the output. */
int cli_check_output(const char *out, const char *what,
		     const char *const *inputs, size_t n);

#endif
