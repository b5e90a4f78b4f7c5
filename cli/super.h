/* An Android super image given alone (cli/super.c). */
#ifndef FV_CLI_SUPER_H
#define FV_CLI_SUPER_H

#include "cli/cli.h"

/* verify: every logical partition (or --partition, --slot) that carries
 * an AVB footer checked; the exit code. */
int cli_super_verify(struct cli_opts *o, const char *image);
/* dump: the metadata as lpdump shows it (text or --json). */
int cli_super_dump(struct cli_opts *o, const char *image);
/* open: --partition's logical partition mapped (dm-linear) under
 * dm-verity as name. */
int cli_super_open(struct cli_opts *o, const char *image, const char *name);
/* An action that takes one partition (repair): refused, saying how to
 * name one. */
int cli_super_refuse(const struct cli_opts *o, const char *image);

#endif
