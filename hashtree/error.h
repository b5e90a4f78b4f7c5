/* Error reporting shared by the library: functions return 0 or a negative
 * errno and leave a one-line message here for the caller to show. */
#ifndef FV_ERROR_H
#define FV_ERROR_H

#include <stdarg.h>

/* Room for a message naming a few paths of PATH_MAX bytes whole. */
#define FV_ERROR_MAX (3 * 4096)

struct fv_error {
	char msg[FV_ERROR_MAX];
};

/* Sets the message (printf-style) and returns -errnum, so that callers can
 * write `return fv_fail(err, EINVAL, "...")`. err may be NULL. */
int fv_fail(struct fv_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
