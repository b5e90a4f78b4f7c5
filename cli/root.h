/* The root hash, from the argument or --root-hash-file. Each prints its
 * own message and returns 0 or an exit code (cli/errors.h). */
#ifndef FV_CLI_ROOT_H
#define FV_CLI_ROOT_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"

/* A root hash of digest_size bytes. */
int cli_root_hash(const struct cli_opts *o, const char *arg,
		  unsigned digest_size, uint8_t *root);
/* A root hash of any supported digest size (20 to 64 bytes). */
int cli_root_hash_any(const struct cli_opts *o, const char *arg, uint8_t *root,
		      size_t *len);

#endif
