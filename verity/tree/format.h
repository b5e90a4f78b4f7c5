/* format: builds the tree of a pair's data region into its hash region
 * and writes the superblock last; with parity, the parity before the
 * superblock. */
#ifndef FV_TREE_FORMAT_H
#define FV_TREE_FORMAT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/tree/pair.h"

/* pair->params.data_blocks 0 takes every block of the data region (which
 * must then be a whole number of blocks) and is filled in; the root
 * digest goes to out->root and pair->root. Outputs are replaced whole,
 * or written in place (a block device, the data's own file, a region of
 * an image) behind an "unfinished" marker. */
int verity_format(struct verity_pair *pair, const struct verity_run *run,
		  struct verity_outcome *out, struct ht_error *err);

#endif
