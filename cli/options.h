/* The command's options: one engine for the three command lines
 * (fastverity's actions, `fastverity avb`'s avbtool subcommands,
 * `fastverity fsverity`'s fsverity-utils commands). Each is a table, one
 * row an option (its name, how it is given, the actions that take it,
 * its help there), from which popt's table, the refusal of options an
 * action does not take, each action's help and the suggestion for a
 * misspelt option are all made. */
#ifndef FV_CLI_OPTIONS_H
#define FV_CLI_OPTIONS_H

#include <popt.h>
#include <stddef.h>

#include "cli/cli.h"

/* fastverity's actions, as bits of a row's actions. */
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

enum cli_kind {
	CLI_FLAG,   /* an int set to 1 */
	CLI_VALUE,  /* a char *, the text given */
	CLI_LIST,   /* a const char **, repeatable, and its count */
	CLI_BIT,    /* a bit set in an unsigned */
	CLI_ABSENT, /* the anchor's option fastverity does not have: refused
		     * by name (arg: it takes a value) */
};

struct cli_option {
	const char *name;
	char short_name;
	enum cli_kind kind;
	size_t field; /* where in the command's arguments */
	size_t extra; /* CLI_BIT: the bit; CLI_LIST: where its size_t count
		       * is (0: none) */
	unsigned actions;
	const char *arg; /* the value's name in the help ("{a,b}": one of) */
	const char *help;
	/* where the meaning differs: these actions get this help */
	unsigned other_actions;
	const char *other_help;
};

/* A row with no short name and one help: CLI_ROW(name, kind, field,
 * extra, actions, arg, help). */
#define CLI_ROW(name, kind, ...)                       \
	{                                              \
		name, '\0', kind, __VA_ARGS__, 0, NULL \
	}

struct cli_table {
	const char *command; /* "fastverity avb": in help */
	const char *word;    /* "avb": in messages */
	const char *anchor;  /* the tool whose absent options are named */
	const struct cli_option *rows;
	size_t n;
	int usage_exit; /* the exit code of a usage error */
	int once;       /* a value given twice is refused */
	int shorts;     /* help has a column of short names */
	char sep;       /* between an option and its value in the help */
	int width;      /* of the help's left column */
	/* argparse's abbreviations (avbtool's): a unique prefix of a long
	 * option (--help among them) is that option, also as
	 * --prefix=value; an exact name wins; an ambiguous one is refused,
	 * its matches listed in prefix_order's order (names, each between
	 * spaces; names not in it after, in the rows' order) */
	int prefixes;
	const char *prefix_order;
	int absent_exit; /* a CLI_ABSENT option given (0: usage_exit) */
};

/* A subcommand of a command group. */
struct cli_sub {
	const char *name;
	unsigned bit;      /* its bit in the table's rows */
	const char *usage; /* its arguments in the help; NULL: the group's */
	const char *what;
};

/* A command group, `fastverity WORD SUB [options]` (avb, fsverity, ota):
 * its subcommands, whose options are its table's rows. */
struct cli_group {
	const struct cli_table *table;
	const struct cli_sub *subs;
	size_t n;
	const char *usage;         /* the group's, and a subcommand's default */
	const char *what;          /* the line under the group's usage */
	const char *more;          /* after the list (NULL: nothing) */
	const char *trailer;       /* after a subcommand's options (or NULL) */
	const char *const *absent; /* the anchor's subcommands fastverity
				    * lacks, refused by name; NULL-ended */
	int usage_exit;            /* no subcommand, or an unknown one */
	int list_unknown;          /* an unknown one: the list after its line */
};

/* argv[1] the subcommand of g, then its options into base (rest: its
 * arguments, as the rest of one action's parse, *nrest how many; both may be
 * NULL), then run on that subcommand and what the parse gave freed: run's
 * exit code; 0 after a help (printed); or the parse's exit code (the message
 * printed). */
int cli_group_run(const struct cli_group *g, int argc, const char **argv,
		  void *base, const char ***rest, int *nrest,
		  int (*run)(const struct cli_sub *sub, void *base));

/* fastverity's actions' table (cli/options.c). */
extern const struct cli_table cli_main_options;

/* popt's table for t over base: help (included first), then every row.
 * Each option returns its row's index + CLI_SEEN, for cli_options_saw();
 * what an earlier parse saw is forgotten. */
#define CLI_SEEN 1000
const struct poptOption *cli_options_popt(const struct cli_table *t, void *base,
					  struct poptOption *help);
/* A value poptGetNextOpt() returned: its option was given. */
void cli_options_saw(int val);
/* After parsing: the bits of the options given set in base, the lists
 * counted; 0, or an exit code when one was given to an action that does
 * not take it. */
int cli_options_apply(const struct cli_table *t, void *base,
		      unsigned action_bit, const char *action);
void cli_options_free(const struct cli_table *t, void *base);
/* Every option an action takes (action_bit 0: all), one line each, with
 * that action's help. */
void cli_options_print(const struct cli_table *t, unsigned action_bit);
/* The option of t whose name is nearest to given (which may start with
 * dashes and carry "=value"): an edit distance of at most 2, or a
 * unique prefix; NULL when none is close. */
const char *cli_options_nearest(const struct cli_table *t, const char *given);

#endif
