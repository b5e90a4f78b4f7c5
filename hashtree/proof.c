#include "proof.h"

#include <errno.h>
#include <string.h>

static int nonzero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 1;
	return 0;
}

/* Hash block b, holding used digests: 0 when its spare bytes are zero,
 * else 1 with *pad where the first area that is not begins. */
static int padding_bad(const struct ht_geometry *g, const uint8_t *b,
		       uint32_t used, uint32_t *pad)
{
	size_t tail = g->slot_size - g->digest_size;
	size_t end = (size_t)used * g->slot_size;

	for (uint32_t s = 0; tail && s < used; s++)
		if (nonzero(b + (size_t)s * g->slot_size + g->digest_size,
			    tail)) {
			*pad = s * g->slot_size + g->digest_size;
			return 1;
		}
	if (nonzero(b + end, g->hash_block_size - end)) {
		*pad = (uint32_t)end;
		return 1;
	}
	return 0;
}

int ht_prove(const struct ht_proof *p, uint32_t level, uint64_t index,
	     const uint8_t *digest, const uint8_t *parent,
	     const uint8_t *block, uint32_t *pad)
{
	const struct ht_geometry *g = p->g;
	uint64_t at;
	size_t slot;
	int where = ht_parent_of(g, level, index, &at, &slot);
	uint32_t off = 0;

	if (where < 0 || (block && level == HT_DATA_LEVEL))
		return -EINVAL;
	if (digest) {
		const uint8_t *want = where ? p->root
					    : parent ? parent + slot : NULL;

		if (!want)
			return -EINVAL;
		if (memcmp(digest, want, g->digest_size))
			return HT_PROOF_DIGEST;
	}
	/* (a block of the level holds at least one digest, at most as
	 * many as fit: the slots end within the block) */
	if (block &&
	    padding_bad(g, block, ht_children_of(g, level, index), &off)) {
		if (pad)
			*pad = off;
		return HT_PROOF_PADDING;
	}
	return HT_PROOF_OK;
}
