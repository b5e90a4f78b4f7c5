/* The command's options: one table, one row an option (its name, how
 * it is given, the actions that take it, its help there), from which
 * popt's table, the refusal of options an action does not take, each
 * action's help and the shell completion are all made. */
#ifndef FV_CLI_OPTIONS_H
#define FV_CLI_OPTIONS_H

#include <popt.h>
#include <stddef.h>

#include "cli/cli.h"

/* The actions, as bits of a row's actions. */
enum {
	A_FORMAT = 1u << 0,
	A_VERIFY = 1u << 1,
	A_REPAIR = 1u << 2,
	A_SIGN = 1u << 3,
	A_DUMP = 1u << 4,
	A_OPEN = 1u << 5,
	A_CLOSE = 1u << 6,
	A_STATUS = 1u << 7,
	A_BENCH = 1u << 8,
	A_UPDATE = 1u << 9,
	A_ALL = (1u << 10) - 1,
	/* the tree's parameters, given to every action that reads a tree */
	A_TREE = A_FORMAT | A_VERIFY | A_REPAIR | A_OPEN | A_UPDATE,
	A_RUN = A_FORMAT | A_VERIFY | A_REPAIR | A_BENCH | A_UPDATE,
	A_FEC = A_FORMAT | A_VERIFY | A_REPAIR | A_DUMP | A_OPEN | A_UPDATE,
	/* the actions that read existing parity */
	A_FEC_READ = A_VERIFY | A_REPAIR | A_DUMP | A_OPEN | A_UPDATE,
};

/* popt's table for opts: help (included first), then the rows. Each
 * option returns its row's index + CLI_SEEN, for cli_options_saw(); what
 * an earlier run saw is forgotten. */
#define CLI_SEEN 1000
const struct poptOption *cli_options_popt(struct cli_opts *opts,
					  struct poptOption *help);
/* The option whose name is nearest to given (which may start with
 * dashes and carry "=value"): an edit distance of at most 2, or a
 * unique prefix; NULL when none is close. */
const char *cli_options_nearest(const char *given);
/* A value poptGetNextOpt() returned: its option was given. */
void cli_options_saw(int val);
/* After parsing: the bits of the options given set in opts; 0, or an exit
 * code when one was given to an action that does not take it. */
int cli_options_apply(struct cli_opts *opts, unsigned action_bit,
		      const char *action);
/* Every option an action takes (action_bit 0: all), one line each, with
 * that action's help. */
void cli_options_print(unsigned action_bit);

#endif
