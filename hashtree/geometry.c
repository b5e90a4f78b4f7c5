#include "geometry.h"

#include <errno.h>
#include <string.h>

int ht_block_size_valid(uint64_t v)
{
	return v >= HT_MIN_BLOCK_SIZE && v <= HT_MAX_BLOCK_SIZE &&
	       (v & (v - 1)) == 0;
}

static uint32_t log2_floor(uint64_t v)
{
	uint32_t bits = 0;

	while (v >> (bits + 1))
		bits++;
	return bits;
}

int ht_geometry_init(struct ht_geometry *g, uint64_t data_blocks,
		     uint32_t data_block_size, uint32_t hash_block_size,
		     uint32_t digest_size, int hash_type, struct ht_error *err)
{
	uint64_t pos = 0;

	memset(g, 0, sizeof(*g));
	if (!ht_block_size_valid(data_block_size) ||
	    !ht_block_size_valid(hash_block_size))
		return ht_fail(err, EINVAL, "unsupported block size");
	if (data_blocks == 0)
		return ht_fail(err, EINVAL, "no data blocks to protect");
	if (digest_size == 0 || digest_size > hash_block_size)
		return ht_fail(
			err, EINVAL,
			"digest of %u bytes does not fit a %u-byte hash block",
			digest_size, hash_block_size);
	g->data_blocks = data_blocks;
	g->data_block_size = data_block_size;
	g->hash_block_size = hash_block_size;
	g->digest_size = digest_size;
	g->bits = log2_floor(hash_block_size / digest_size);
	if (g->bits == 0)
		return ht_fail(
			err, EINVAL,
			"a %u-byte hash block holds only one %u-byte digest",
			hash_block_size, digest_size);
	/* Format 1 pads each digest to a power of two; format 0 packs them. */
	g->slot_size = digest_size;
	if (hash_type == 1)
		while (g->slot_size & (g->slot_size - 1))
			g->slot_size += g->slot_size & -g->slot_size;

	while (g->bits * g->levels < 64 &&
	       ((data_blocks - 1) >> (g->bits * g->levels)) != 0)
		g->levels++;
	if (g->levels > HT_MAX_LEVELS)
		return ht_fail(err, EINVAL, "hash tree too deep");

	for (int i = (int)g->levels - 1; i >= 0; i--) {
		uint32_t shift = g->bits * (uint32_t)(i + 1);
		uint64_t n = shift >= 64
				     ? 1
				     : (data_blocks >> shift) +
					       ((data_blocks &
						 ((1ULL << shift) - 1)) != 0);

		g->level_first[i] = pos;
		g->level_blocks[i] = n;
		if (pos + n < pos)
			return ht_fail(err, EOVERFLOW, "hash area overflow");
		pos += n;
	}
	g->tree_blocks = pos;
	return 0;
}

uint32_t ht_level_of(const struct ht_geometry *g, uint64_t t)
{
	for (uint32_t lv = 0; lv < g->levels; lv++)
		if (t >= g->level_first[lv] &&
		    t < g->level_first[lv] + g->level_blocks[lv])
			return lv;
	return UINT32_MAX;
}

/* Child k of its level: parent block k >> bits of the level above, slot
 * k mod 2^bits. */
static void parent_in(const struct ht_geometry *g, uint32_t parent_level,
		      uint64_t k, uint64_t *parent, size_t *slot)
{
	*parent = g->level_first[parent_level] + (k >> g->bits);
	*slot = (size_t)(k & ((1u << g->bits) - 1)) * g->slot_size;
}

int ht_data_parent(const struct ht_geometry *g, uint64_t data_block,
		   uint64_t *parent, size_t *slot)
{
	*parent = UINT64_MAX;
	*slot = 0;
	if (g->levels == 0)
		return 1;
	parent_in(g, 0, data_block, parent, slot);
	return 0;
}

int ht_tree_parent(const struct ht_geometry *g, uint64_t t, uint64_t *parent,
		   size_t *slot)
{
	return ht_parent_of(g, ht_level_of(g, t), t, parent, slot);
}

/* 1 when index is a block of level (HT_DATA_LEVEL: a data block). */
static int in_level(const struct ht_geometry *g, uint32_t level,
		    uint64_t index)
{
	if (level == HT_DATA_LEVEL)
		return index < g->data_blocks;
	return level < g->levels && index >= g->level_first[level] &&
	       index - g->level_first[level] < g->level_blocks[level];
}

int ht_parent_of(const struct ht_geometry *g, uint32_t level, uint64_t index,
		 uint64_t *parent, size_t *slot)
{
	*parent = UINT64_MAX;
	*slot = 0;
	if (!in_level(g, level, index))
		return -1;
	if (level == HT_DATA_LEVEL)
		return ht_data_parent(g, index, parent, slot);
	if (level == g->levels - 1)
		return 1;
	parent_in(g, level + 1, index - g->level_first[level], parent, slot);
	return 0;
}

uint32_t ht_children_of(const struct ht_geometry *g, uint32_t level,
			uint64_t t)
{
	uint64_t below, first;
	uint32_t per = ht_digests_per_block(g);

	if (level == HT_DATA_LEVEL || !in_level(g, level, t))
		return 0;
	below = level ? g->level_blocks[level - 1] : g->data_blocks;
	first = (t - g->level_first[level]) << g->bits;
	return below - first < per ? (uint32_t)(below - first) : per;
}
