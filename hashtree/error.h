/* Error reporting shared by the library: functions return 0 or a negative
 * errno and leave a one-line message here for the caller to show. */
#ifndef FV_ERROR_H
#define FV_ERROR_H

#include <stdarg.h>

struct fv_error {
	char msg[512];
};

/* Sets the message (printf-style) and returns -errnum, so that callers can
 * write `return fv_fail(err, EINVAL, "...")`. err may be NULL. */
int fv_fail(struct fv_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
