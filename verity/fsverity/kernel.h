/* fs-verity files in the kernel (docs/fsverity.md): enabling, measuring
 * and reading the metadata of a file on a file system with fs-verity
 * (ext4 and f2fs with the verity feature, btrfs), through its ioctls. */
#ifndef FV_FSVERITY_KERNEL_H
#define FV_FSVERITY_KERNEL_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/fsverity/digest.h"

/* FS_IOC_ENABLE_VERITY on path with p and an optional built-in
 * signature (sig, len; NULL, 0: none). */
int verity_fsv_enable(const char *path, const struct fsv_params *p,
	       const uint8_t *sig, size_t len, struct ht_error *err);
/* FS_IOC_MEASURE_VERITY: the hash's number and the digest (at most
 * HT_MAX_DIGEST_SIZE bytes, *len of them). */
int verity_fsv_measure(const char *path, unsigned *alg, uint8_t *digest, size_t *len,
		struct ht_error *err);
/* FS_IOC_READ_VERITY_METADATA of type (1 tree, 2 descriptor, 3
 * signature) from offset, length bytes (0: to the end), given to out a
 * piece at a time; out's non-zero return stops it and is returned. */
int verity_fsv_read_metadata(const char *path, unsigned type, uint64_t offset,
		      uint64_t length,
		      int (*out)(void *ctx, const void *buf, size_t n),
		      void *ctx, struct ht_error *err);

#endif
