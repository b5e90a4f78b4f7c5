/* Small input files, read whole: a root hash, a signature, a key, a
 * certificate, a passphrase. */
#ifndef FV_STORAGE_FILE_H
#define FV_STORAGE_FILE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

/* Reads a whole small input file: a regular file of at most max bytes,
 * opened without blocking (a FIFO is refused, never waited on). *out is
 * malloc'd with a NUL after the last byte. what names the file in
 * messages ("signature file"). -EINVAL: not a regular file, or too
 * large; -ENOENT: missing; -EIO. */
int verity_read_file(const char *path, const char *what, size_t max,
		     uint8_t **out, size_t *len, struct ht_error *err);

#endif
