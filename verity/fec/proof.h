/* Proofs for covered blocks: a block is what the root says when its
 * digest matches its parent, which matches its own, up to the root, all
 * read now. Repair keeps a rebuilt block only when it proves, and
 * parity is rewritten only from blocks that prove as they are read. */
#ifndef FV_FEC_PROOF_H
#define FV_FEC_PROOF_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "hashtree/geometry.h"
#include "hashtree/hasher.h"
#include "verity/fec/source.h"

struct fec_proof {
	const struct ht_geometry *g;
	const struct ht_hasher *h;
	const struct fec_source *src; /* reads (through a dry run's
				       * overlay) */
	const uint8_t *root;
	/* the last tree block proven of each level, kept: consecutive
	 * blocks share their upper levels */
	uint8_t *cache; /* levels blocks */
	uint64_t index[HT_MAX_LEVELS];
	int valid[HT_MAX_LEVELS];
};

int verity_fec_proof_init(struct fec_proof *p, const struct ht_geometry *g,
			  const struct ht_hasher *h,
			  const struct fec_source *src, const uint8_t *root,
			  struct ht_error *err);
void verity_fec_proof_free(struct fec_proof *p);
/* Forgets the proven blocks (after a write). */
void verity_fec_proof_reset(struct fec_proof *p);

/* Covered block c: its parent tree block and the byte offset of its
 * digest there (0), or the root (1), or nothing (-1: a covered block of
 * the hash device after the tree, which no digest proves). */
int verity_fec_proof_parent(const struct fec_proof *p, uint64_t c,
			    uint64_t *parent, size_t *slot);

/* 1 when covered block c, holding block, is what the root says, through
 * tree blocks read now; 0 when not; a negative errno. A block no digest
 * covers proves nothing and passes. */
int verity_fec_proof_check(struct fec_proof *p, uint64_t c,
			   const uint8_t *block, struct ht_error *err);

#endif
