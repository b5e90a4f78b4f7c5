/* repair (and verify with parity): the tree says which blocks are bad,
 * the parity rebuilds them, and the tree proves each rebuilt block before
 * it is kept. */
#ifndef FV_FEC_REPAIR_H
#define FV_FEC_REPAIR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/tree/pair.h"

/* Verifies the pair, then rebuilds every bad block the parity can,
 * writing back only blocks that prove against the root, hash blocks
 * before the blocks they cover; then checks the parity against the
 * verified data. run->flags: VERITY_RUN_DRY_RUN reads only, keeping
 * rebuilt blocks in memory to judge the blocks below them;
 * VERITY_RUN_REWRITE_PARITY rewrites stale parity (refused beyond
 * verity_parity_rewrite_limit()), from blocks proven again as they are
 * read; VERITY_RUN_ROOT_FIRST stops at a wrong root hash, as verify
 * does. run->report receives the first pass's failures, run->event each
 * repaired and each remaining bad block. 0 when it ran (out->fec says
 * what it found and did; out->res the image as left, or as found in a
 * dry run), a negative errno when it could not. */
int verity_fec_repair(struct verity_pair *pair, const struct verity_run *run,
		      struct verity_outcome *out, struct ht_error *err);

#endif
