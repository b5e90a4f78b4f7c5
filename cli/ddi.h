/* systemd Discoverable Disk Images given alone to verify, dump or open
 * (cli/ddi.c; the container: verity/container/ddi/). Each returns the
 * exit code, the message printed. */
#ifndef FV_CLI_DDI_H
#define FV_CLI_DDI_H

#include "cli/cli.h"

/* 1 when image is a GPT disk image with no sidecar tree beside it
 * (IMAGE.verity): a disk image to take as a DDI. */
int cli_ddi_given(const char *image);
int cli_ddi_verify(struct cli_opts *o, const char *image);
int cli_ddi_dump(struct cli_opts *o, const char *image);
int cli_ddi_open(struct cli_opts *o, const char *image, const char *name);

#endif
