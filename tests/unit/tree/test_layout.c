/* verity/tree/layout.c: where the tree sits on the hash device (after
 * the superblock, rounded up to a hash block; at the hash offset without
 * one), its end, the superblock alone of a one-block image, the hash
 * area refused when it would pass 2^63, and parameters validated before
 * any of it. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/hasher.h"
#include "verity/tree/layout.h"

static struct verity_params params(uint64_t blocks)
{
	struct verity_params p;

	verity_params_default(&p);
	p.data_blocks = blocks;
	return p;
}

/* 4096 blocks of 4096 bytes, sha256: 128 digests a block, level 0 of 32
 * blocks, level 1 of one; the superblock's 512 bytes take the first hash
 * block whole. */
START_TEST(with_superblock)
{
	struct verity_params p = params(4096);
	struct verity_layout l;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.geo.levels, 2);
	ck_assert_uint_eq(l.geo.tree_blocks, 33);
	ck_assert_uint_eq(l.data_bytes, 4096ull * 4096);
	ck_assert_uint_eq(l.hash_area_start, 0);
	ck_assert_uint_eq(l.tree_offset, 4096);
	ck_assert_uint_eq(l.hash_end, 4096 + 33 * 4096);
	ck_assert_uint_eq(l.fec.roots, 0);
	/* the superblock at 1 MiB: the tree one block after it */
	p.hash_offset = 1 << 20;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.hash_area_start, 1 << 20);
	ck_assert_uint_eq(l.tree_offset, (1 << 20) + 4096);
	ck_assert_uint_eq(l.hash_end, (1 << 20) + 34 * 4096);
	/* an offset of 512 past a block: the superblock ends at 1024, the
	 * tree starts at the next whole block */
	p.hash_offset = 512;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 4096);
	p.hash_offset = 3584;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 4096);
	p.hash_offset = 4096; /* the superblock in block 1: the tree in 2 */
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 8192);
}
END_TEST

/* Without a superblock the tree starts at the hash offset rounded down
 * to a hash block, and format writes from there. */
START_TEST(no_superblock)
{
	struct verity_params p = params(4096);
	struct verity_layout l;
	struct ht_error err = {0};

	p.no_superblock = 1;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 0);
	ck_assert_uint_eq(l.hash_area_start, 0);
	ck_assert_uint_eq(l.hash_end, 33 * 4096);
	p.hash_offset = 8192 + 512;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 8192);
	ck_assert_uint_eq(l.hash_area_start, 8192);
	ck_assert_uint_eq(l.hash_end, 8192 + 33 * 4096);
}
END_TEST

/* One data block has no tree (its digest is the root): the hash image is
 * the superblock alone, veritysetup's one write of at most 4 KiB, also
 * with hash blocks larger than that; without a superblock, nothing. */
START_TEST(one_block)
{
	struct verity_params p = params(1);
	struct verity_layout l;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.geo.levels, 0);
	ck_assert_uint_eq(l.geo.tree_blocks, 0);
	ck_assert_uint_eq(l.hash_end, 4096);
	p.hash_block_size = p.data_block_size = 65536;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 65536);
	ck_assert_uint_eq(l.hash_end, 4096);
	p.hash_offset = 1 << 20;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.hash_end, (1 << 20) + 4096);
	/* 512-byte hash blocks: the superblock fills its block, the tree's
	 * start is its end */
	p = params(1);
	p.hash_block_size = p.data_block_size = 512;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.tree_offset, 512);
	ck_assert_uint_eq(l.hash_end, 512);
	p.no_superblock = 1;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.hash_end, 0);
}
END_TEST

/* Bad parameters are refused before a layout is made, and the layout is
 * left zeroed; a hash area past 2^63 is refused with EOVERFLOW. */
START_TEST(refused)
{
	struct verity_params p = params(16);
	struct verity_layout l;
	struct ht_error err = {0};

	p.hash_block_size = 1000;
	memset(&l, 0xa5, sizeof(l));
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "hash block size 1000"));
	ck_assert_uint_eq(l.hash_end, 0);
	ck_assert_uint_eq(l.geo.tree_blocks, 0);
	p = params(16);
	p.hash_offset = 100;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), -EINVAL);
	p = params(16);
	snprintf(p.hash_name, sizeof(p.hash_name), "no-such-hash");
	ck_assert_int_lt(verity_layout_compute(&p, &l, &err), 0);
	/* the largest hash offset validation allows, and a tree that
	 * would end past INT64_MAX: the overflow check, not a wrap */
	p = params((uint64_t)1 << 40);
	p.hash_offset = (INT64_MAX - 512 - 524288) / 512 * 512;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), -EOVERFLOW);
	ck_assert_str_eq(ht_msg(&err), "hash area overflows 64 bits");
	/* the same data without the offset fits */
	p.hash_offset = 0;
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.hash_end, 4096 + l.geo.tree_blocks * 4096);
	/* data blocks past 2^63 bytes: refused by validation */
	p = params(((uint64_t)INT64_MAX / 4096) + 1);
	ck_assert_int_eq(verity_layout_compute(&p, &l, &err), -EOVERFLOW);
}
END_TEST

/* What ran, for --debug: the path's name and the kernel; a NULL info is
 * no work. */
START_TEST(info_filled)
{
	/* (a salt array, empty: ht_hasher_init memcpy's from it, and a
	 * NULL salt of 0 bytes is undefined behaviour to UBSan) */
	static const uint8_t salt[1];
	struct ht_hasher h;
	struct verity_info info;
	struct ht_error err = {0};

	verity_fill_info(NULL, NULL);
	ck_assert_int_eq(ht_hasher_init(&h, "sha512", 1, salt, 0, &err), 0);
	memset(&info, 0, sizeof(info));
	verity_fill_info(&info, &h);
	ck_assert_str_eq(info.hash_path, "generic");
	ck_assert_str_eq(info.kernel, "OpenSSL EVP");
	ck_assert_uint_eq(info.provider[sizeof(info.provider) - 1], 0);
	ht_hasher_free(&h);
	ck_assert_int_eq(ht_hasher_init(&h, "sha256", 1, salt, 0, &err), 0);
	verity_fill_info(&info, &h);
	if (h.path == HT_PATH_FAST) {
		ck_assert_str_eq(info.hash_path, "fast");
		ck_assert_ptr_nonnull(info.kernel);
		ck_assert_str_ne(info.kernel, "OpenSSL EVP");
	}
	ht_hasher_free(&h);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "layout"};

	return run_unit(&u, UNIT_TESTS(with_superblock, no_superblock,
				       one_block, refused, info_filled));
}
