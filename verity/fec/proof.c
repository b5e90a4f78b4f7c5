#include "verity/fec/proof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/proof.h"

int verity_fec_proof_init(struct fec_proof *p, const struct ht_geometry *g,
			  const struct ht_hasher *h,
			  const struct fec_source *src, const uint8_t *root,
			  struct ht_error *err)
{
	memset(p, 0, sizeof(*p));
	p->g = g;
	p->h = h;
	p->src = src;
	p->root = root;
	p->cache = malloc((size_t)(g->levels ? g->levels : 1) *
			  src->fl->block_size);
	if (!p->cache)
		return ht_fail(err, ENOMEM, "out of memory");
	return 0;
}

void verity_fec_proof_free(struct fec_proof *p)
{
	free(p->cache);
	p->cache = NULL;
}

void verity_fec_proof_reset(struct fec_proof *p)
{
	memset(p->valid, 0, sizeof(p->valid));
}

int verity_fec_proof_parent(const struct fec_proof *p, uint64_t c,
			    uint64_t *parent, size_t *slot)
{
	uint64_t nd = p->g->data_blocks;

	return c < nd ? ht_data_parent(p->g, c, parent, slot)
		      : ht_tree_parent(p->g, c - nd, parent, slot);
}

static int prove_up(struct fec_proof *p, uint32_t level, uint64_t index,
		    const uint8_t *block, struct ht_error *err);

/* Tree block t, of level lv, as read now and proven, or NULL (*r: 0 when
 * it does not prove, else the error). */
static const uint8_t *proven_tree_block(struct fec_proof *p, uint64_t t,
					uint32_t lv, int *r,
					struct ht_error *err)
{
	uint8_t *buf = p->cache + (size_t)lv * p->src->fl->block_size;

	*r = 0;
	if (p->valid[lv] && p->index[lv] == t)
		return buf;
	p->valid[lv] = 0;
	*r = verity_fec_read_covered(p->src, p->g->data_blocks + t, 1, buf,
				     err);
	if (!*r)
		*r = prove_up(p, lv, t, buf, err);
	if (*r != 1)
		return NULL;
	*r = 0;
	p->valid[lv] = 1;
	p->index[lv] = t;
	return buf;
}

/* Block index of level (ht_parent_of's), holding block, against its
 * parent, proven the same way (each step a level up: at most levels
 * deep), or the root. */
static int prove_up(struct fec_proof *p, uint32_t level, uint64_t index,
		    const uint8_t *block, struct ht_error *err)
{
	const struct ht_proof proof = {p->g, p->root};
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	const uint8_t *above = NULL;
	uint64_t parent;
	size_t slot;
	int where = ht_parent_of(p->g, level, index, &parent, &slot), r;

	if (where < 0)
		return 1;
	if (ht_hash_blocks(p->h, block, p->src->fl->block_size, 1, digest,
			   sizeof(digest), err))
		return -EIO;
	if (!where &&
	    !(above = proven_tree_block(
		      p, parent, level == HT_DATA_LEVEL ? 0 : level + 1, &r,
		      err)))
		return r;
	r = ht_prove(&proof, level, index, digest, above, NULL, NULL);
	return r < 0 ? r : r == HT_PROOF_OK;
}

int verity_fec_proof_check(struct fec_proof *p, uint64_t c,
			   const uint8_t *block, struct ht_error *err)
{
	uint64_t nd = p->g->data_blocks;

	if (c < nd)
		return prove_up(p, HT_DATA_LEVEL, c, block, err);
	/* (past the tree: no level, proving nothing) */
	return prove_up(p, ht_level_of(p->g, c - nd), c - nd, block, err);
}
