/* An Android super image given alone (cli/super.c). */
#ifndef FV_CLI_SUPER_H
#define FV_CLI_SUPER_H

#include <stdio.h>

#include "cli/cli.h"
#include "include/fastverity.h"

/* --block-device NAME=FILE split into names and files (freed with
 * cli_block_devices_free, also after an error): 0, or the exit code. */
int cli_block_devices(const struct cli_opts *o, const char ***names,
		      const char ***files);
void cli_block_devices_free(const struct cli_opts *o, const char **names,
			    const char **files);
/* The library's error of a super image's open (r): said, with how to give
 * a split super's other image (ENODEV); the exit code. */
int cli_super_error(int r);
/* action run on --partition's logical partition of o->args[0] (of
 * --slot's metadata; on an A/B image NAME_<slot>, said) as a path
 * through it, IMAGE/NAME, without --partition, --slot or --container:
 * its exit code. */
int cli_super_on_partition(struct cli_opts *o,
			   int (*action)(struct cli_opts *));

#endif
