/* A hash tree built into memory from data in memory or read from a
 * device: what bench measures, through the hasher and tree code format
 * uses, with no output file. Internal. */
#ifndef FV_MEMTREE_H
#define FV_MEMTREE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "verity/storage/device.h"
#include "hashtree/tree.h"
#include "verity/tree/layout.h"

struct verity_memtree {
	struct ht_hasher h;
	struct ht_geometry g;
	uint8_t *tree; /* tree_bytes */
	uint64_t tree_bytes;
	uint64_t data_bytes;
	const uint8_t *data;             /* the data in memory, or NULL */
	const struct verity_device *dev; /* or read from here */
	struct verity_info info;         /* the hashing path it takes */
};

/* For validated p with data_blocks set, over data (data_blocks * block
 * size bytes) or dev. -EINVAL with a message for parameters that cannot
 * make a tree. */
int verity_memtree_init(struct verity_memtree *m, const struct verity_params *p,
			const uint8_t *data, const struct verity_device *dev,
			struct ht_error *err);
/* Builds the whole tree with threads workers; root: the digest. */
int verity_memtree_build(struct verity_memtree *m, unsigned threads,
			 uint8_t *root, struct ht_error *err);
void verity_memtree_free(struct verity_memtree *m);

#endif
