/* One block proven against the block above it: the one check of a
 * block's digest against its parent (or the root), and of a hash
 * block's padding, that verify's windows (window.c: each child against
 * its stored parent; tree.c: the top against the root), fec's repair
 * and parity refresh (verity/fec/proof.c: a block read now, then each
 * tree block above it, up to the root) and update (verity/tree/update.c:
 * the tree in memory against the old root) all make.
 *
 * A block's digest is kept in a slot of its parent, a tree block of the
 * level above (a data block's: level 0); the top's digest (with no
 * level, the only data block's) is the root. A block is proven when its
 * digest is the one its proven parent keeps and, for a hash block, its
 * spare bytes are zero: each used slot's tail past the digest and all
 * after the used slots. The digest is the caller's (hashed in batches,
 * with the salt, by ht_hash_blocks); here nothing is allocated, looked
 * up or called indirectly, and the place is checked first. */
#ifndef FV_PROOF_H
#define FV_PROOF_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "geometry.h"

/* What blocks are proven against. */
struct ht_proof {
	const struct ht_geometry *g;
	const uint8_t *root; /* the top's digest (NULL: never asked) */
};

enum ht_proof_verdict {
	HT_PROOF_OK = 0,
	HT_PROOF_DIGEST = 1,  /* not the digest kept above it */
	HT_PROOF_PADDING = 2, /* a spare byte of the hash block not zero */
};

/* Block index of level (HT_DATA_LEVEL: data block index; else tree block
 * index, from the tree's start, of that level; see ht_parent_of) against
 * the block above it:
 *  - digest, its digest, against its slot in parent, the bytes of its
 *    parent block (proven; ht_parent_of names it), or against the root
 *    for the top (parent unused); digest NULL: not compared (judged
 *    already: the padding alone);
 *  - block, a hash block's bytes: its padding (NULL: not checked).
 * HT_PROOF_OK, HT_PROOF_DIGEST, or HT_PROOF_PADDING with *pad (if pad)
 * the offset in block of the first spare area not zero (a slot's tail,
 * or the bytes after the used slots); -EINVAL when there is no such
 * block (past the end of its level), or no parent (or root) to compare
 * with, or a padding check of a data block. */
int ht_prove(const struct ht_proof *p, uint32_t level, uint64_t index,
	     const uint8_t *digest, const uint8_t *parent,
	     const uint8_t *block, uint32_t *pad);

#endif
