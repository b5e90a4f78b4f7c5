/* libfastverity: build, check and describe dm-verity hash trees.
 * Functions return 0 or a negative errno with a message in *err; the
 * library never prints. */
#ifndef FV_VERITY_H
#define FV_VERITY_H

#include <stddef.h>
#include <stdint.h>

#include "../hashtree/error.h"
#include "../hashtree/geometry.h"
#include "../hashtree/hasher.h"
#include "../hashtree/tree.h"
#include "params.h"

/* Where everything sits, derived from validated parameters. */
struct verity_layout {
	struct ht_geometry geo;
	uint64_t data_bytes;      /* data_blocks * data_block_size */
	uint64_t hash_area_start; /* first byte format writes */
	uint64_t tree_offset;     /* byte offset of the tree */
	uint64_t hash_end;        /* byte just after the tree */
};

/* What ran, for --debug and --json. */
struct verity_info {
	const char *hash_path; /* "fast" or "generic" */
	const char *path_reason;
	const char *kernel; /* SHA-256 kernel on the fast path */
	char provider[32];
};

struct verity_failure {
	enum ht_failure_kind kind;
	uint64_t position; /* data-device offset (data block) or
			    * hash-device offset (hash block, padding) */
	uint64_t block;    /* data block index, or hash block index on
			    * the hash device */
	uint32_t level;    /* level of the bad hash block or padding */
};

typedef void (*verity_report_fn)(void *ctx, const struct verity_failure *f);

int verity_layout_compute(const struct verity_params *p,
			  struct verity_layout *l, struct fv_error *err);

/* Reads and validates the superblock at p->hash_offset of hash_path into
 * p. */
int verity_read_superblock(const char *hash_path, struct verity_params *p,
			   struct fv_error *err);

/* opt (may be NULL) sets the worker threads and a progress callback. */

/* Builds the tree of data_path into hash_path and writes the superblock
 * last. p->data_blocks == 0 takes every block of the data device (which
 * must then be a whole number of blocks) and is filled in. root receives
 * the digest (HT_MAX_DIGEST_SIZE bytes). */
int verity_format(struct verity_params *p, const char *data_path,
		  const char *hash_path, const struct ht_options *opt,
		  uint8_t *root, struct verity_layout *layout,
		  struct verity_info *info, struct fv_error *err);

/* Checks everything, reporting each failure through report. The devices
 * are opened read-only. p must be complete (from the superblock, or given
 * with no_superblock); data_blocks == 0 is resolved from the device. */
int verity_verify(struct verity_params *p, const char *data_path,
		  const char *hash_path, const struct ht_options *opt,
		  const uint8_t *root, size_t root_size,
		  verity_report_fn report, void *report_ctx,
		  struct ht_verify_result *res, struct verity_info *info,
		  struct fv_error *err);

#endif
