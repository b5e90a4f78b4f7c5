/* systemd Discoverable Disk Images given alone to verify, dump or open
 * (cli/ddi.c; the container: verity/container/ddi/). Each returns the
 * exit code, the message printed. */
#ifndef FV_CLI_DDI_H
#define FV_CLI_DDI_H

#include "cli/cli.h"

int cli_ddi_verify(struct cli_opts *o, const char *image);
int cli_ddi_dump(struct cli_opts *o, const char *image);
int cli_ddi_open(struct cli_opts *o, const char *image, const char *name);
struct cli_pair;
/* The one protected partition (--partition picks it) as the pair
 * repair takes, with the parity options and the trust policy's verdict
 * for the action. */
int cli_ddi_pair(struct cli_opts *o, const char *image, struct cli_pair *cp);

#endif
