/* What the command still takes from inside the library, on the way to
 * being a client of <fastverity.h> alone (docs/architecture.md): only the
 * files on the Makefile's CLI_INTERNAL list include this, and it shrinks
 * to nothing as they move to the public API. */
#ifndef FV_CLI_INSIDE_H
#define FV_CLI_INSIDE_H

#include "hashtree/error.h"

/* cli_inside_error() and cli_inside_write_error() for a message the library's
 * internal functions left in err. */
int cli_inside_error(int r, const struct ht_error *err);
int cli_inside_write_error(int r, const struct ht_error *err);

#endif
