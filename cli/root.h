/* The root hash, from the argument or --root-hash-file. Each prints its
 * own message and returns 0 or an exit code (cli/errors.h). */
#ifndef FV_CLI_ROOT_H
#define FV_CLI_ROOT_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"

/* A root hash of any supported digest size (20 to 64 bytes) as
 * lowercase hex into hex (2 * FV_MAX_DIGEST_SIZE + 1 bytes). */
int cli_root_hex(const struct cli_opts *o, const char *arg, char *hex);

/* The root hash the arguments give, for the library to read and check
 * (struct fv_open_request, struct fv_format_request): the argument
 * (*hex) or --root-hash-file (*file), one of them, not both: 0, or the
 * exit code (printed). */
int cli_root_given(const struct cli_opts *o, const char *arg, const char **hex,
		   const char **file);
/* The exit code of r, the library's refusal: of the root hash given
 * (FV_PARAM_ROOT_HASH) in veritysetup's words first, then the
 * library's, then the hint where a file's name was typed as the root;
 * of anything else, cli_lib_error's. */
int cli_root_refused(int r, const char *hex);
/* hex written to the root hash file path (NULL: none), whole: 0, or the
 * exit code (printed). */
int cli_root_write(const char *path, const char *hex);

#endif
