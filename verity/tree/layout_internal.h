/* Internal to verity/: steps shared by format and verify. */
#ifndef FV_LAYOUT_INTERNAL_H
#define FV_LAYOUT_INTERNAL_H

#include "verity/storage/device.h"
#include "verity/verity.h"

/* The one opener of the data and hash devices, for format
 * (VERITY_OPEN_CREATE: the hash image is an output, created last, once
 * everything else is known good), verify (READ) and repair (WRITE), with
 * every check made before a block is read or written: parameters, data
 * blocks against the device, layout, hash offset (format without a
 * superblock), overlap of data and tree through loop devices and
 * partitions, the hash device's size, the root hash's size (root_size 0:
 * none given). Closes both on failure. */
int verity_open_pair(struct verity_params *p, const char *data_path,
		     const char *hash_path, size_t root_size,
		     enum verity_open_mode mode, struct verity_device *data,
		     struct verity_device *hash, struct verity_layout *l,
		     struct fv_error *err);
/* A tree failure as device offsets. */
void verity_failure_from_ht(const struct verity_layout *l,
			    const struct ht_failure *f,
			    struct verity_failure *vf);
void verity_fill_info(struct verity_info *info, const struct ht_hasher *h);

/* ht_io over two devices: data from the start of the data device, tree
 * at tree_offset on the hash device. */
struct fec_fused;
struct verity_io_ctx {
	const struct verity_device *data;
	const struct verity_device *hash;
	uint64_t tree_offset;
	struct fec_fused *fused; /* format: parity built with the tree */
};
/* Fails when a data file is now shorter than its data area: what was
 * just read may have been zeros of a hole that is no longer there. */
int verity_data_unchanged(const struct verity_device *data,
			  const struct verity_layout *l, struct fv_error *err);
void verity_io_init(struct ht_io *io, struct verity_io_ctx *ctx);

#endif
