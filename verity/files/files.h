/* The files around pairs, as the door's fv_file and the pairs read them:
 * root hash files, superblocks looked for where format puts them, a
 * pair's superblock read, a sidecar image's files pruned, a device's
 * size. Each returns 0 or -errno with err's message. */
#ifndef FV_FILES_H
#define FV_FILES_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/storage/device.h"
#include "verity/tree/pair.h"

/* A root hash file into hex (size bytes); EINVAL, EIO, ENOMEM. */
int verity_files_root_read(const char *path, char *hex, size_t size,
			   struct ht_error *err);

/* 1 when the n (at most 8) bytes of d at off are want's. */
int verity_files_bytes_at(const struct verity_device *d, uint64_t off,
			  const void *want, size_t n);

/* What is at offset of path: none, a superblock, or one format or
 * update left unfinished. */
enum verity_files_sb {
	VERITY_FILES_SB_NONE,
	VERITY_FILES_SB_FOUND,
	VERITY_FILES_SB_UNFINISHED,
	VERITY_FILES_SB_UPDATING,
};
enum verity_files_sb verity_files_superblock_at(const char *path,
						uint64_t offset);

/* The superblock of an appended tree (format --hash-offset), looked for
 * in the last part of path, not at skip: *offset; -ENOENT. */
int verity_files_superblock_find(const char *path, uint64_t skip,
				 uint64_t *offset, struct ht_error *err);

/* The parameters of the superblock at hash_offset of pair's hash device
 * (update: one an update left unfinished is read too) into *p. */
int verity_files_superblock_read(struct verity_pair *pair, uint64_t hash_offset,
				 int update, struct verity_params *p,
				 struct ht_error *err);

/* A sidecar image's files but those kept (keep_signature, keep_fec)
 * removed; *removed: which (VERITY_SIDECAR_SIGNATURE, _FEC). */
int verity_files_sidecar_prune(const char *image, int keep_signature,
			       int keep_fec, unsigned *removed,
			       struct ht_error *err);

/* An Android sparse image's CRC32 sums checked (*sums: how many, when
 * sums is not NULL); 1: not sparse. */
int verity_files_sparse_crc(const char *path, unsigned *sums,
			    struct ht_error *err);

/* The size of the device or file at path. */
int verity_files_size(const char *path, uint64_t *size, struct ht_error *err);

#endif
