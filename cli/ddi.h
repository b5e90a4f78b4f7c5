/* systemd Discoverable Disk Images given alone to verify, dump or open
 * (cli/ddi.c; the container: verity/container/ddi/). Each returns the
 * exit code, the message printed. */
#ifndef FV_CLI_DDI_H
#define FV_CLI_DDI_H

#include "cli/cli.h"

int cli_ddi_verify(struct cli_opts *o, const char *image);
int cli_ddi_dump(struct cli_opts *o, const char *image);
/* A --partition that is no role: said as the option it is; else the
 * library's message (r: its error). */
int cli_partition_refused(const struct cli_opts *o, int r);

#endif
