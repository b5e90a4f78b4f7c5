/* Tree geometry at edge sizes and every block size. */
#include <errno.h>
#include <check.h>

#include "check_main.h"

#include "hashtree/geometry.h"

/* The level sizes by repeated division, independently of the library. */
static uint32_t expect_levels(uint64_t n, uint64_t per, uint64_t *sizes)
{
	uint32_t levels = 0;

	while (n > 1) {
		n = (n + per - 1) / per;
		sizes[levels++] = n;
	}
	return levels;
}

START_TEST(edge_sizes_sha256_4k)
{
	static const struct {
		uint64_t blocks;
		uint32_t levels;
		uint64_t tree;
	} cases[] = {
		{1, 0, 0},   {2, 1, 1},       {128, 1, 1},
		{129, 2, 3}, {16384, 2, 129}, {16385, 3, 132},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ht_geometry g;

		ck_assert_int_eq(ht_geometry_init(&g, cases[i].blocks, 4096,
						  4096, 32, 1, NULL),
				 0);
		ck_assert_uint_eq(g.bits, 7);
		ck_assert_uint_eq(g.levels, cases[i].levels);
		ck_assert_uint_eq(g.tree_blocks, cases[i].tree);
	}
}
END_TEST

START_TEST(levels_stored_top_first)
{
	struct ht_geometry g;

	ck_assert_int_eq(ht_geometry_init(&g, 16385, 4096, 4096, 32, 1, NULL),
			 0);
	ck_assert_uint_eq(g.level_blocks[0], 129);
	ck_assert_uint_eq(g.level_blocks[1], 2);
	ck_assert_uint_eq(g.level_blocks[2], 1);
	ck_assert_uint_eq(g.level_first[2], 0);
	ck_assert_uint_eq(g.level_first[1], 1);
	ck_assert_uint_eq(g.level_first[0], 3);
}
END_TEST

START_TEST(every_block_size_matches_division)
{
	static const uint64_t counts[] = {1,   2,     3,       15,        16,
					  17,  128,   129,     255,       256,
					  257, 16385, 1000003, 1ULL << 40};

	for (uint32_t hbs = 512; hbs <= 512 * 1024; hbs *= 2)
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]);
		     c++) {
			struct ht_geometry g;
			uint64_t sizes[64];
			uint32_t levels =
				expect_levels(counts[c], hbs / 32, sizes);
			uint64_t pos = 0;

			ck_assert_int_eq(ht_geometry_init(&g, counts[c], 4096,
							  hbs, 32, 1, NULL),
					 0);
			ck_assert_uint_eq(g.levels, levels);
			for (int l = (int)levels - 1; l >= 0; l--) {
				ck_assert_uint_eq(g.level_blocks[l], sizes[l]);
				ck_assert_uint_eq(g.level_first[l], pos);
				pos += sizes[l];
			}
			ck_assert_uint_eq(g.tree_blocks, pos);
		}
}
END_TEST

START_TEST(slots_by_format)
{
	struct ht_geometry g;

	ck_assert_int_eq(ht_geometry_init(&g, 1000, 4096, 4096, 20, 1, NULL),
			 0);
	ck_assert_uint_eq(g.slot_size, 32);
	ck_assert_uint_eq(g.bits, 7);
	ck_assert_int_eq(ht_geometry_init(&g, 1000, 4096, 4096, 20, 0, NULL),
			 0);
	ck_assert_uint_eq(g.slot_size, 20);
	ck_assert_uint_eq(g.bits, 7);
	ck_assert_int_eq(ht_geometry_init(&g, 1000, 4096, 4096, 64, 1, NULL),
			 0);
	ck_assert_uint_eq(g.slot_size, 64);
	ck_assert_uint_eq(g.bits, 6);
	ck_assert_int_eq(ht_geometry_init(&g, 1000, 4096, 4096, 48, 1, NULL),
			 0);
	ck_assert_uint_eq(g.slot_size, 64);
	ck_assert_uint_eq(g.bits, 6);
	ck_assert_int_eq(ht_geometry_init(&g, 1000, 4096, 512, 28, 1, NULL), 0);
	ck_assert_uint_eq(g.slot_size, 32);
	ck_assert_uint_eq(g.bits, 4);
}
END_TEST

START_TEST(rejects_impossible_inputs)
{
	struct ht_geometry g;
	struct ht_error err;

	ck_assert_int_eq(ht_geometry_init(&g, 0, 4096, 4096, 32, 1, &err),
			 -EINVAL);
	ck_assert_int_eq(ht_geometry_init(&g, 1, 4000, 4096, 32, 1, &err),
			 -EINVAL);
	ck_assert_int_eq(ht_geometry_init(&g, 1, 4096, 256, 32, 1, &err),
			 -EINVAL);
	ck_assert_int_eq(ht_geometry_init(&g, 1, 4096, 1 << 20, 32, 1, &err),
			 -EINVAL);
	ck_assert_int_eq(ht_geometry_init(&g, 1, 4096, 512, 300, 1, &err),
			 -EINVAL);
	ck_assert_int_eq(ht_geometry_init(&g, 1, 4096, 512, 257, 0, &err),
			 -EINVAL);
	ck_assert(ht_block_size_valid(512) && ht_block_size_valid(524288));
	ck_assert(!ht_block_size_valid(1536) && !ht_block_size_valid(0));
}
END_TEST

START_TEST(largest_counts_do_not_overflow)
{
	struct ht_geometry g;

	ck_assert_int_eq(
		ht_geometry_init(&g, UINT64_MAX, 512, 512, 64, 1, NULL), 0);
	ck_assert_uint_eq(g.bits, 3);
	ck_assert_uint_eq(g.levels, 22);
	ck_assert_uint_eq(g.level_blocks[g.levels - 1], 1);
}
END_TEST

/* ht_parent_of, given the level, says what ht_data_parent and
 * ht_tree_parent say (which look it up); ht_children_of counts the
 * children each block's digests are of, the last block's fewer. */
START_TEST(parent_of_a_known_level)
{
	static const uint64_t counts[] = {1, 2, 16, 17, 300, 4097};

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct ht_geometry g;
		uint64_t p1, p2, sum = 0;
		size_t s1, s2;

		ck_assert_int_eq(ht_geometry_init(&g, counts[c], 512, 512, 32,
						  1, NULL),
				 0);
		for (uint64_t b = 0; b < g.data_blocks; b++) {
			ck_assert_int_eq(
				ht_parent_of(&g, HT_DATA_LEVEL, b, &p1, &s1),
				ht_data_parent(&g, b, &p2, &s2));
			ck_assert_uint_eq(p1, p2);
			ck_assert_uint_eq(s1, s2);
		}
		for (uint64_t t = 0; t < g.tree_blocks; t++) {
			uint32_t l = ht_level_of(&g, t);

			ck_assert_int_eq(ht_parent_of(&g, l, t, &p1, &s1),
					 ht_tree_parent(&g, t, &p2, &s2));
			ck_assert_uint_eq(p1, p2);
			ck_assert_uint_eq(s1, s2);
			ck_assert_int_eq(ht_parent_of(&g, l + 1, t, &p1, &s1),
					 -1);
			if (l == 0)
				sum += ht_children_of(&g, l, t);
		}
		ck_assert_uint_eq(sum, g.levels ? counts[c] : 0);
		ck_assert_int_eq(ht_parent_of(&g, HT_DATA_LEVEL, counts[c],
					      &p1, &s1),
				 -1);
		ck_assert_int_eq(ht_parent_of(&g, UINT32_MAX, 0, &p1, &s1),
				 -1);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "geometry"};

	return run_unit(
		&u, UNIT_TESTS(edge_sizes_sha256_4k, levels_stored_top_first,
			       every_block_size_matches_division,
			       slots_by_format, rejects_impossible_inputs,
			       largest_counts_do_not_overflow,
			       parent_of_a_known_level));
}
