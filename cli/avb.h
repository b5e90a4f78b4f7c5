/* fastverity avb SUBCOMMAND: avbtool's image commands, its option
 * spelling and its output (cli/cmd_avb.c). */
#ifndef FV_CLI_AVB_H
#define FV_CLI_AVB_H

/* argv[0] is "avb". Returns the exit code. */
int cli_avb_main(int argc, const char **argv);
/* An Android sparse image given where raw data is expected: refused,
 * with the command that makes a raw one (0 when path is not one;
 * cli/pair.c). */
int cli_refuse_sparse(const char *path);

#endif
