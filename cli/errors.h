/* The command's messages and exit codes. The one convention of cli/: a
 * function that can fail returns 0 or the exit code to end with
 * (EXIT_*), having printed its message; cli_error() prints it and turns
 * the library's negative errno into that exit code (cli_exit_code(), the
 * only place that mapping is made). */
#ifndef FV_CLI_ERRORS_H
#define FV_CLI_ERRORS_H

#include "include/fastverity.h"

struct cli_opts;

/* Exit codes of veritysetup. */
enum {
	EXIT_OK = 0,
	EXIT_PARAMS = 1,
	EXIT_VERIFY = 2,
	EXIT_NOMEM = 3,
	EXIT_NODEV = 4,
	EXIT_BUSY = 5,
};

/* Prints "fastverity: <msg>" on stderr and returns the exit code for r. */
int cli_error(int r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_exit_code(int r);
/* cli_error() for the library's last message (fv_last_error_say), its
 * fix (when it has one of a parameter) said with the option that sets
 * it. */
int cli_lib_error(int r);
/* That message into msg (len bytes), as snprintf. */
int cli_lib_say(char *msg, size_t len);
/* The parameter the library's last message's fix sets. */
enum fv_param cli_lib_param(void);
/* cli_lib_error() for a failure in an action that writes (format,
 * repair): a device another user holds (-EBUSY: mounted, mapped) is a
 * device that must not be given, exit 1; exit 5 stays for a mapping name
 * in use (open, close). */
int cli_write_error(int r);
/* "# <msg>" on stderr with --debug. */
void cli_debug(const struct cli_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The last message cli_error() printed, or NULL (for --json). */
extern char *cli_last_error;

#endif
