/* One block proven against the block above it (hashtree/proof.c): over
 * trees built here in memory, level by level, every block proves up to
 * the root; a changed data block, hash block, digest or spare byte, a
 * block past the end and a tree of one block are told apart. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"

#include "hashtree/hasher.h"
#include "hashtree/proof.h"

static const uint8_t salt[] = {0x51, 0x7a, 0x1e, 0x00, 0x93, 0xc4, 0x08};

/* A tree in memory: data, the tree blocks (from the tree's start) and
 * the root. */
struct mtree {
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_proof proof;
	uint8_t *data;
	uint8_t *tree;
	uint8_t root[HT_MAX_DIGEST_SIZE];
};

static uint8_t *tree_block(struct mtree *m, uint64_t t)
{
	return m->tree + t * m->g.hash_block_size;
}

static uint8_t *data_block(struct mtree *m, uint64_t b)
{
	return m->data + b * m->g.data_block_size;
}

/* The block of level (HT_DATA_LEVEL: data) at index, and its size. */
static uint8_t *block_of(struct mtree *m, uint32_t level, uint64_t index,
			 size_t *size)
{
	if (level == HT_DATA_LEVEL) {
		*size = m->g.data_block_size;
		return data_block(m, index);
	}
	*size = m->g.hash_block_size;
	return tree_block(m, index);
}

static void digest_of(struct mtree *m, uint32_t level, uint64_t index,
		      uint8_t *d)
{
	size_t size;
	const uint8_t *b = block_of(m, level, index, &size);

	ck_assert_int_eq(ht_hash_blocks(&m->h, b, size, 1, d,
					HT_MAX_DIGEST_SIZE, NULL),
			 0);
}

/* Builds the tree of n data blocks (each filled from its number) with
 * alg, format and block sizes given; the slots written where the
 * geometry says, independently of ht_parent_of: child k of a level in
 * block k / per of the level above, at (k % per) * slot. */
static void build(struct mtree *m, uint64_t n, uint32_t dbs, uint32_t hbs,
		  const char *alg, int hash_type)
{
	uint32_t ds = ht_digest_size(alg);

	memset(m, 0, sizeof(*m));
	ck_assert_uint_gt(ds, 0);
	ck_assert_int_eq(ht_hasher_init(&m->h, alg, hash_type, salt,
					sizeof(salt), NULL),
			 0);
	ck_assert_int_eq(ht_geometry_init(&m->g, n, dbs, hbs, ds, hash_type,
					  NULL),
			 0);
	m->data = malloc(n * dbs);
	m->tree = calloc(m->g.tree_blocks ? m->g.tree_blocks : 1, hbs);
	ck_assert(m->data && m->tree);
	for (uint64_t b = 0; b < n; b++)
		for (uint32_t i = 0; i < dbs; i++)
			m->data[b * dbs + i] = (uint8_t)(b * 7 + i / 64);
	for (uint32_t l = 0; l <= m->g.levels; l++) {
		uint32_t below = l ? l - 1 : HT_DATA_LEVEL;
		uint64_t count = l ? m->g.level_blocks[l - 1] : n;
		uint64_t first = l ? m->g.level_first[l - 1] : 0;
		uint32_t per = ht_digests_per_block(&m->g);

		for (uint64_t k = 0; k < count; k++) {
			uint8_t d[HT_MAX_DIGEST_SIZE];

			digest_of(m, below, first + k, d);
			if (l == m->g.levels)
				memcpy(m->root, d, ds);
			else
				memcpy(tree_block(m, m->g.level_first[l] +
							     k / per) +
					       (k % per) * m->g.slot_size,
				       d, ds);
		}
	}
	m->proof = (struct ht_proof){&m->g, m->root};
}

static void drop(struct mtree *m)
{
	free(m->data);
	free(m->tree);
	ht_hasher_free(&m->h);
}

/* Block index of level against its parent as stored (or the root), its
 * padding too when a hash block: ht_prove's verdict. */
static int prove_step(struct mtree *m, uint32_t level, uint64_t index,
		      uint32_t *pad)
{
	uint8_t d[HT_MAX_DIGEST_SIZE];
	uint64_t parent;
	size_t slot;
	int where = ht_parent_of(&m->g, level, index, &parent, &slot);
	size_t size;
	const uint8_t *b = block_of(m, level, index, &size);

	ck_assert_int_ge(where, 0);
	digest_of(m, level, index, d);
	return ht_prove(&m->proof, level, index, d,
			where ? NULL : tree_block(m, parent),
			level == HT_DATA_LEVEL ? NULL : b, pad);
}

/* The first verdict that is not HT_PROOF_OK on the way from the block
 * up to the root (each step a level up: at most levels + 1 steps), or
 * HT_PROOF_OK when it reaches the root; *steps: the steps taken. */
static int prove_path(struct mtree *m, uint32_t level, uint64_t index,
		      unsigned *steps)
{
	*steps = 0;
	for (;;) {
		uint64_t parent;
		size_t slot;
		int r = prove_step(m, level, index, NULL), where;

		ck_assert_uint_le(++*steps, m->g.levels + 1);
		if (r != HT_PROOF_OK)
			return r;
		where = ht_parent_of(&m->g, level, index, &parent, &slot);
		if (where == 1)
			return HT_PROOF_OK;
		level = level == HT_DATA_LEVEL ? 0 : level + 1;
		index = parent;
	}
}

/* Every data block and every tree block of trees of 1, 2 and 3 levels,
 * both formats, SHA-256 and SHA-1 (slots of 32 bytes for 20-byte
 * digests in format 1, packed in format 0). */
START_TEST(every_block_proves_to_the_root)
{
	static const struct {
		uint64_t n;
		uint32_t dbs, hbs;
		const char *alg;
		int type;
		uint32_t levels;
	} cases[] = {
		{2, 4096, 4096, "sha256", 1, 1},
		{300, 512, 512, "sha256", 1, 3},
		{257, 512, 1024, "sha256", 1, 2},
		{300, 512, 512, "sha1", 1, 3},
		{300, 512, 512, "sha1", 0, 3},
		{33, 1024, 512, "sha256", 0, 2},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mtree m;
		unsigned steps;

		build(&m, cases[i].n, cases[i].dbs, cases[i].hbs, cases[i].alg,
		      cases[i].type);
		ck_assert_uint_eq(m.g.levels, cases[i].levels);
		for (uint64_t b = 0; b < m.g.data_blocks; b++) {
			ck_assert_int_eq(
				prove_path(&m, HT_DATA_LEVEL, b, &steps),
				HT_PROOF_OK);
			ck_assert_uint_eq(steps, m.g.levels + 1);
		}
		for (uint32_t l = 0; l < m.g.levels; l++)
			for (uint64_t t = m.g.level_first[l];
			     t < m.g.level_first[l] + m.g.level_blocks[l]; t++) {
				ck_assert_int_eq(prove_path(&m, l, t, &steps),
						 HT_PROOF_OK);
				ck_assert_uint_eq(steps, m.g.levels - l);
			}
		drop(&m);
	}
}
END_TEST

/* A data block changed: it fails against its leaf, its neighbours still
 * prove; a digest changed in a level-0 block: that block fails against
 * its parent, and the data block under the digest against it. */
START_TEST(corrupted_leaf)
{
	struct mtree m;
	unsigned steps;
	uint64_t leaf;
	size_t slot;

	build(&m, 300, 512, 512, "sha256", 1);
	data_block(&m, 37)[100] ^= 1;
	ck_assert_int_eq(prove_step(&m, HT_DATA_LEVEL, 37, NULL),
			 HT_PROOF_DIGEST);
	ck_assert_int_eq(prove_path(&m, HT_DATA_LEVEL, 37, &steps),
			 HT_PROOF_DIGEST);
	ck_assert_uint_eq(steps, 1);
	ck_assert_int_eq(prove_path(&m, HT_DATA_LEVEL, 36, &steps),
			 HT_PROOF_OK);
	ck_assert_int_eq(prove_path(&m, HT_DATA_LEVEL, 38, &steps),
			 HT_PROOF_OK);
	data_block(&m, 37)[100] ^= 1;

	ck_assert_int_eq(ht_parent_of(&m.g, HT_DATA_LEVEL, 200, &leaf, &slot),
			 0);
	ck_assert_uint_eq(leaf, m.g.level_first[0] + 200 / 16);
	ck_assert_uint_eq(slot, (200 % 16) * 32);
	tree_block(&m, leaf)[slot + 31] ^= 0x80;
	ck_assert_int_eq(prove_step(&m, 0, leaf, NULL), HT_PROOF_DIGEST);
	ck_assert_int_eq(prove_step(&m, HT_DATA_LEVEL, 200, NULL),
			 HT_PROOF_DIGEST);
	ck_assert_int_eq(prove_step(&m, HT_DATA_LEVEL, 201, NULL),
			 HT_PROOF_OK);
	ck_assert_int_eq(prove_path(&m, HT_DATA_LEVEL, 201, &steps),
			 HT_PROOF_DIGEST);
	ck_assert_uint_eq(steps, 2);
	drop(&m);
}
END_TEST

/* A level-1 block changed fails against the top, the top still against
 * the root; the top changed fails against the root; a wrong root fails
 * the top alone. */
START_TEST(corrupted_upper_level)
{
	struct mtree m;
	unsigned steps;
	uint64_t top;

	build(&m, 300, 512, 512, "sha256", 1);
	ck_assert_uint_eq(m.g.levels, 3);
	top = m.g.level_first[2];
	tree_block(&m, m.g.level_first[1] + 1)[5] ^= 4;
	ck_assert_int_eq(prove_step(&m, 1, m.g.level_first[1] + 1, NULL),
			 HT_PROOF_DIGEST);
	ck_assert_int_eq(prove_step(&m, 1, m.g.level_first[1], NULL),
			 HT_PROOF_OK);
	ck_assert_int_eq(prove_step(&m, 2, top, NULL), HT_PROOF_OK);
	/* data under it: its leaf proves against it, the path fails */
	ck_assert_int_eq(prove_path(&m, HT_DATA_LEVEL, 299, &steps),
			 HT_PROOF_DIGEST);
	ck_assert_uint_eq(steps, 3);
	tree_block(&m, m.g.level_first[1] + 1)[5] ^= 4;

	tree_block(&m, top)[0] ^= 1;
	ck_assert_int_eq(prove_step(&m, 2, top, NULL), HT_PROOF_DIGEST);
	ck_assert_int_eq(prove_step(&m, 1, m.g.level_first[1], NULL),
			 HT_PROOF_DIGEST);
	tree_block(&m, top)[0] ^= 1;
	ck_assert_int_eq(prove_step(&m, 2, top, NULL), HT_PROOF_OK);
	m.root[m.g.digest_size - 1] ^= 1;
	ck_assert_int_eq(prove_step(&m, 2, top, NULL), HT_PROOF_DIGEST);
	ck_assert_int_eq(prove_step(&m, 1, m.g.level_first[1], NULL),
			 HT_PROOF_OK);
	drop(&m);
}
END_TEST

/* A spare byte set: after the used slots of the last (partial) block,
 * and in a slot's tail (20-byte digests in 32-byte slots): where the
 * first spare area that is not zero begins; the digest itself still
 * proves (a padding check of the bytes alone, digest NULL, too). */
START_TEST(padding_not_zero)
{
	struct mtree m;
	uint64_t last;
	uint32_t used, pad = 7;
	uint8_t *b;

	build(&m, 300, 512, 512, "sha256", 1);
	last = m.g.level_first[0] + m.g.level_blocks[0] - 1;
	used = ht_children_of(&m.g, 0, last);
	ck_assert_uint_eq(used, 300 % 16);
	b = tree_block(&m, last);
	b[511] = 1;
	/* the block's digest changed with it: the parent's slot updated,
	 * so that the digest proves and the padding alone fails */
	{
		uint64_t parent;
		size_t slot;
		uint8_t d[HT_MAX_DIGEST_SIZE];

		ck_assert_int_eq(ht_parent_of(&m.g, 0, last, &parent, &slot),
				 0);
		digest_of(&m, 0, last, d);
		ck_assert_int_eq(ht_prove(&m.proof, 0, last, d,
					  tree_block(&m, parent), NULL, NULL),
				 HT_PROOF_DIGEST);
		memcpy(tree_block(&m, parent) + slot, d, m.g.digest_size);
		ck_assert_int_eq(ht_prove(&m.proof, 0, last, d,
					  tree_block(&m, parent), NULL, NULL),
				 HT_PROOF_OK);
	}
	ck_assert_int_eq(prove_step(&m, 0, last, &pad), HT_PROOF_PADDING);
	ck_assert_uint_eq(pad, used * 32);
	pad = 7;
	ck_assert_int_eq(ht_prove(&m.proof, 0, last, NULL, NULL, b, &pad),
			 HT_PROOF_PADDING);
	ck_assert_uint_eq(pad, used * 32);
	ck_assert_int_eq(ht_prove(&m.proof, 0, last, NULL, NULL, b, NULL),
			 HT_PROOF_PADDING);
	b[511] = 0;
	ck_assert_int_eq(ht_prove(&m.proof, 0, last, NULL, NULL, b, &pad),
			 HT_PROOF_OK);
	drop(&m);

	build(&m, 300, 512, 512, "sha1", 1);
	ck_assert_uint_eq(m.g.slot_size, 32);
	b = tree_block(&m, m.g.level_first[0]);
	ck_assert_int_eq(ht_prove(&m.proof, 0, m.g.level_first[0], NULL, NULL,
				  b, &pad),
			 HT_PROOF_OK);
	b[3 * 32 + 25] = 0xff;
	b[5 * 32 + 20] = 0xff;
	ck_assert_int_eq(ht_prove(&m.proof, 0, m.g.level_first[0], NULL, NULL,
				  b, &pad),
			 HT_PROOF_PADDING);
	ck_assert_uint_eq(pad, 3 * 32 + 20);
	drop(&m);

	/* format 0: 16 packed 20-byte digests, 192 spare bytes after */
	build(&m, 300, 512, 512, "sha1", 0);
	ck_assert_uint_eq(m.g.slot_size, 20);
	b = tree_block(&m, m.g.level_first[0]);
	b[16 * 20 + 191] = 2;
	ck_assert_int_eq(ht_prove(&m.proof, 0, m.g.level_first[0], NULL, NULL,
				  b, &pad),
			 HT_PROOF_PADDING);
	ck_assert_uint_eq(pad, 16 * 20);
	drop(&m);
}
END_TEST

/* No such block: past the end of the data or of its level, a block of
 * another level, a level the tree lacks; no parent given for one that
 * is not the top; a padding check of a data block. */
START_TEST(block_past_the_end)
{
	struct mtree m;
	uint8_t d[HT_MAX_DIGEST_SIZE] = {0}, pb[512] = {0};
	uint64_t parent;
	size_t slot;
	uint64_t end0;

	build(&m, 300, 512, 512, "sha256", 1);
	end0 = m.g.level_first[0] + m.g.level_blocks[0];
	ck_assert_uint_eq(end0, m.g.tree_blocks);
	ck_assert_int_eq(
		ht_prove(&m.proof, HT_DATA_LEVEL, 300, d, pb, NULL, NULL),
		-EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, HT_DATA_LEVEL, UINT64_MAX, d, pb,
				  NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, 0, end0, d, pb, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, 0, m.g.level_first[1], d, pb,
				  NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, 3, 0, d, pb, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, UINT32_MAX, 0, d, pb, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(
		ht_prove(&m.proof, HT_DATA_LEVEL, 0, d, NULL, NULL, NULL),
		-EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, HT_DATA_LEVEL, 0, NULL, NULL, pb,
				  NULL),
			 -EINVAL);
	ck_assert_int_eq(ht_parent_of(&m.g, HT_DATA_LEVEL, 300, &parent, &slot),
			 -1);
	ck_assert_uint_eq(parent, UINT64_MAX);
	ck_assert_int_eq(ht_parent_of(&m.g, 0, end0, &parent, &slot), -1);
	ck_assert_int_eq(ht_tree_parent(&m.g, end0, &parent, &slot), -1);
	ck_assert_uint_eq(ht_children_of(&m.g, 0, end0), 0);
	ck_assert_uint_eq(ht_children_of(&m.g, 1, m.g.level_first[0]), 0);
	ck_assert_uint_eq(ht_children_of(&m.g, HT_DATA_LEVEL, 0), 0);
	/* the last block of each level: the ones before it are proven */
	ck_assert_int_eq(prove_step(&m, HT_DATA_LEVEL, 299, NULL), HT_PROOF_OK);
	ck_assert_int_eq(prove_step(&m, 0, end0 - 1, NULL), HT_PROOF_OK);
	/* a root never given: the top cannot be proven */
	m.proof.root = NULL;
	digest_of(&m, 2, 0, d);
	ck_assert_int_eq(ht_prove(&m.proof, 2, 0, d, NULL, NULL, NULL),
			 -EINVAL);
	drop(&m);
}
END_TEST

/* One data block: no level, its digest is the root. */
START_TEST(one_block_tree)
{
	struct mtree m;
	uint8_t d[HT_MAX_DIGEST_SIZE];
	uint64_t parent;
	size_t slot;
	unsigned steps;

	build(&m, 1, 4096, 4096, "sha256", 1);
	ck_assert_uint_eq(m.g.levels, 0);
	ck_assert_uint_eq(m.g.tree_blocks, 0);
	ck_assert_int_eq(ht_parent_of(&m.g, HT_DATA_LEVEL, 0, &parent, &slot),
			 1);
	ck_assert_int_eq(prove_path(&m, HT_DATA_LEVEL, 0, &steps), HT_PROOF_OK);
	ck_assert_uint_eq(steps, 1);
	digest_of(&m, HT_DATA_LEVEL, 0, d);
	ck_assert_int_eq(
		ht_prove(&m.proof, HT_DATA_LEVEL, 0, d, NULL, NULL, NULL),
		HT_PROOF_OK);
	ck_assert_int_eq(
		ht_prove(&m.proof, HT_DATA_LEVEL, 1, d, NULL, NULL, NULL),
		-EINVAL);
	ck_assert_int_eq(ht_prove(&m.proof, 0, 0, d, NULL, NULL, NULL),
			 -EINVAL);
	data_block(&m, 0)[4095] ^= 1;
	ck_assert_int_eq(prove_step(&m, HT_DATA_LEVEL, 0, NULL),
			 HT_PROOF_DIGEST);
	drop(&m);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "proof"};

	return run_unit(&u, UNIT_TESTS(every_block_proves_to_the_root,
				       corrupted_leaf, corrupted_upper_level,
				       padding_not_zero, block_past_the_end,
				       one_block_tree));
}
