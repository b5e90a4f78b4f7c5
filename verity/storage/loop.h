/* Loop devices for image files: read-only, autoclear, direct I/O where the
 * file system allows it. Internal to verity/. */
#ifndef FV_LOOP_H
#define FV_LOOP_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

/* Attaches the open file or device fd (named path) to a free loop
 * device, from byte offset on, sizelimit bytes (0: to the end): a region.
 * Returns an open descriptor of the loop device (closing it, once
 * something else holds the device, lets the device go when that user
 * goes) and its path in dev. */
int verity_loop_attach(int fd, const char *path, uint64_t offset,
		       uint64_t sizelimit, char *dev, size_t len,
		       struct ht_error *err);

/* The file behind /dev/loopN, or "" when dev is not a loop device. */
void verity_loop_backing_file(const char *dev, char *out, size_t len);

/* 0 when no active loop device is backed by the open file d (named
 * path); -EBUSY naming the loop device otherwise: a file in use through
 * a loop device (mounted, mapped) is not written in place. */
struct verity_device;
int verity_loop_refuse_backing(const struct verity_device *d, const char *path,
			       struct ht_error *err);

#endif
