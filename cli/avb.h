/* fastverity avb SUBCOMMAND: avbtool's image commands, its option
 * spelling and its output (cli/cmd_avb.c parses, writes and checks,
 * cli/avb_show.c shows). */
#ifndef FV_CLI_AVB_H
#define FV_CLI_AVB_H

#include <stddef.h>
#include <stdint.h>

#include "include/fastverity.h"

/* The rows of avbtool's table (the library's, FV_SHOW_AVB_OPTIONS) at
 * most. */
#define CLI_AVB_ROWS 96

/* The options given, by their row in the table (NULL or 0 when absent). */
struct cli_avb_args {
	const char *sub;
	const char *value[CLI_AVB_ROWS];
	const char **list[CLI_AVB_ROWS];
	size_t count[CLI_AVB_ROWS];
	int flag[CLI_AVB_ROWS];
	/* the options the library reads: names and values, in pairs
	 * (npairs; all given: nall) */
	const char **pairs;
	size_t npairs, nall;
};

/* Option name's value as given (the last; a flag's "1"), or NULL. */
const char *cli_avb_opt(const struct cli_avb_args *a, const char *name);

/* A usage error, avbtool's (argparse's) exit 2 in the end; every other
 * failure is avbtool's AvbError, exit 1 (cli_avb_main). */
#define AVB_USAGE 64
/* The library's error said; AVB_USAGE for an option's value that is not
 * a number (EDOM), as avbtool's parser refuses it. */
int cli_avb_error(int r);

struct cli_opts;

/* argv[0] is "avb". Returns the exit code. */
int cli_avb_main(int argc, const char **argv);
/* What the library shows of --image (q: its kind; a's options, --json,
 * --hashtree_disabled), written whole to output (words: what it is),
 * else printed as it comes; nothing when it fails. info_image's then
 * writes --output_pubkey. The exit code (a verify's failed step:
 * EXIT_PARAMS). */
int cli_avb_show(const struct cli_avb_args *a, struct fv_show_request *q,
		 const char *output, const char *words);
/* An Android sparse image given where raw data is expected: refused,
 * with the command that makes a raw one (0 when path is not one). */
int cli_refuse_sparse(const char *path);
/* avbtool's --output: written whole and safely (verity_write_file: a
 * temporary file renamed over it, no symlink of another user followed),
 * and never the input read: refused by name. Returns the exit code, the
 * message printed. */
int cli_avb_write(const char *output, const char *what, const void *buf,
		  size_t len, const char *input);

#endif
