/* What the command still takes from inside the library, on the way to
 * being a client of <fastverity.h> alone (docs/architecture.md): only the
 * files on the Makefile's CLI_INTERNAL list include this, and it shrinks
 * to nothing as they move to the public API. */
#ifndef FV_CLI_INSIDE_H
#define FV_CLI_INSIDE_H

#include "cli/cli.h"
#include "cli/text.h"
#include "hashtree/error.h"
#include "verity/tree/pair.h"

struct cli_progress;

/* cli_lib_error() and cli_write_error() for a message the library's
 * internal functions left in err. */
int cli_inside_error(int r, const struct ht_error *err);
int cli_inside_write_error(int r, const struct ht_error *err);

/* How an internal operation runs: threads, progress, trusted
 * certificates, the SHA-256 kernel (cli_run_options' internal twin). */
int cli_inside_run_of(const struct cli_opts *o, struct verity_run *run,
		      struct cli_progress *pr);
int cli_inside_run_options(const struct cli_opts *o, struct ht_options *opt,
			   struct cli_progress *pr);
/* --fec-device, --fec-offset, --fec-roots as the internal pair's. */
int cli_inside_fec_params(const struct cli_opts *o,
			  struct verity_fec_params *fp);

/* The internal types as the printers (cli/text.h, cli/json.h) take
 * them. cli_inside_params: NULL when out of memory (printed). */
void cli_inside_counts(const struct ht_verify_result *r, struct cli_counts *c);
void cli_inside_failure(const struct verity_failure *f, struct cli_failure *c);
fv_params *cli_inside_params(const struct verity_params *p);
void cli_inside_layout(const struct verity_layout *l, struct fv_layout *out);
void cli_inside_fec(const struct verity_fec_result *f,
		    struct fv_fec_report *out);

#endif
