/* Loop devices for image files: read-only, autoclear, direct I/O where the
 * file system allows it. Internal to verity/. */
#ifndef FV_LOOP_H
#define FV_LOOP_H

#include <stddef.h>

#include "hashtree/error.h"

/* Attaches the open file fd (named path) to a free loop device. Returns
 * an open descriptor of the loop device (closing it, once something else
 * holds the device, lets the device go when that user goes) and its path
 * in dev. */
int verity_loop_attach(int fd, const char *path, char *dev, size_t len,
		       struct fv_error *err);

/* The file behind /dev/loopN, or "" when dev is not a loop device. */
void verity_loop_backing_file(const char *dev, char *out, size_t len);

#endif
