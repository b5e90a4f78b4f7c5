/* Tree geometry: how many levels, how many blocks each, where they sit.
 * Levels are numbered from the leaves (0) up; on disk the top level comes
 * first. Block indexes are relative to the start of the tree. */
#ifndef FV_GEOMETRY_H
#define FV_GEOMETRY_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define HT_MAX_LEVELS     63
#define HT_MIN_BLOCK_SIZE 512
#define HT_MAX_BLOCK_SIZE (512 * 1024)

struct ht_geometry {
	uint64_t data_blocks;
	uint32_t data_block_size;
	uint32_t hash_block_size;
	uint32_t digest_size;
	uint32_t slot_size; /* stride of a digest inside a hash block */
	uint32_t bits;      /* log2 of digests per hash block */
	uint32_t levels;    /* 0 when there is one data block */
	uint64_t level_blocks[HT_MAX_LEVELS];
	uint64_t level_first[HT_MAX_LEVELS]; /* first block of each level */
	uint64_t tree_blocks;
};

/* 1 when v is a power of two from 512 bytes to 512 KiB. */
int ht_block_size_valid(uint64_t v);

/* Computes the geometry; -EINVAL with a message for impossible inputs. */
int ht_geometry_init(struct ht_geometry *g, uint64_t data_blocks,
		     uint32_t data_block_size, uint32_t hash_block_size,
		     uint32_t digest_size, int hash_type, struct ht_error *err);

static inline uint32_t ht_digests_per_block(const struct ht_geometry *g)
{
	return 1u << g->bits;
}

/* The level of tree block t (an index from the tree's start), or
 * UINT32_MAX when t is past the tree. */
uint32_t ht_level_of(const struct ht_geometry *g, uint64_t t);

/* Where the digest of a block is kept: its parent tree block (an index
 * from the tree's start) and the digest's byte offset in it. 1 when the
 * block is the top (or the only data block): its digest is the root. */
int ht_data_parent(const struct ht_geometry *g, uint64_t data_block,
		   uint64_t *parent, size_t *slot);
/* The same for tree block t; -1 when t is past the tree. */
int ht_tree_parent(const struct ht_geometry *g, uint64_t t, uint64_t *parent,
		   size_t *slot);

/* The level ht_parent_of and ht_prove (proof.h) take for a data block
 * (a tree block's is 0 to levels - 1). */
#define HT_DATA_LEVEL (UINT32_MAX - 1)
/* The same for a block whose level is known, in O(1): data block index
 * (level HT_DATA_LEVEL), or tree block index (from the tree's start) of
 * level level; -1 when it is not one (past its level, or no such
 * level). */
int ht_parent_of(const struct ht_geometry *g, uint32_t level, uint64_t index,
		 uint64_t *parent, size_t *slot);
/* How many digests tree block t of level level holds (its children, the
 * last block's fewer); 0 when t is not a block of that level. */
uint32_t ht_children_of(const struct ht_geometry *g, uint32_t level,
			uint64_t t);

#endif
