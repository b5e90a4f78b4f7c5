/* update: after some data blocks changed, the tree blocks and parity
 * rounds they reach rewritten in place, byte-identical with a format of
 * the changed data (docs/format.md, "update"). The old tree is proven
 * against the old root before anything is reused; the superblock's
 * place holds an "unfinished update" marker while blocks are written,
 * and a re-run of the same update completes an interrupted one. */
#ifndef FV_TREE_UPDATE_H
#define FV_TREE_UPDATE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/tree/pair.h"

/* A changed byte range of the data. */
struct verity_range {
	uint64_t offset, length;
};

struct verity_update_result {
	uint64_t changed_blocks; /* data blocks re-hashed */
	uint64_t tree_blocks;    /* hash blocks written */
	uint64_t parity_rounds;  /* parity rounds written */
	int resumed;             /* an interrupted update completed */
	uint8_t root[HT_MAX_DIGEST_SIZE];
};

/* Updates pair (params from its superblock or given, root: the old root)
 * for the changed ranges (n of them; ranges NULL: found by hashing every
 * data block against the stored leaves). The old tree is proven against
 * the old root first (-EPERM naming the first block that is not, nothing
 * written); changed blocks past the data are refused (-EINVAL). */
int verity_update(struct verity_pair *pair, const struct verity_range *ranges,
		  size_t n, const struct verity_run *run,
		  struct verity_update_result *res, struct ht_error *err);

#endif
