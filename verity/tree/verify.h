/* verify without parity: every block of a pair, judged top-down against
 * the root, each failure reported as found. */
#ifndef FV_TREE_VERIFY_H
#define FV_TREE_VERIFY_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/tree/pair.h"

/* Checks everything, reporting each failure through run->report; the
 * devices are opened read-only. The pair's parameters must be complete
 * (from the superblock, or given without one); data blocks 0 are
 * resolved from the data region. With VERITY_RUN_ROOT_FIRST, a top that
 * matches neither the root nor the top its children rebuild (a wrong
 * root hash or parameter) stops with out->res.root_first set and no
 * block judged. 0 when the check ran (out->res says what it found). */
int verity_tree_verify(struct verity_pair *pair, const struct verity_run *run,
		       struct verity_outcome *out, struct ht_error *err);

/* A tree failure as device offsets. */
void verity_failure_from_ht(const struct verity_layout *l,
			    const struct ht_failure *f,
			    struct verity_failure *vf);

#endif
