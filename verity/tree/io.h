/* The tree's I/O over a pair's devices: data read (or mapped; holes of
 * sparse files skipped), tree blocks read and written at the tree's
 * offset in the hash region. Shared by format, verify and repair. */
#ifndef FV_TREE_IO_H
#define FV_TREE_IO_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/tree.h"
#include "verity/storage/device.h"
#include "verity/tree/layout.h"

struct fec_fused;
struct verity_io_ctx {
	const struct verity_device *data;
	const struct verity_device *hash;
	uint64_t tree_offset;
	struct fec_fused *fused; /* format: parity built with the tree */
};

void verity_io_init(struct ht_io *io, struct verity_io_ctx *ctx);

/* Fails when a data file is now shorter than its data area: what was
 * just read may have been zeros of a hole that is no longer there. */
int verity_data_unchanged(const struct verity_device *data,
			  const struct verity_layout *l, struct ht_error *err);

#endif
