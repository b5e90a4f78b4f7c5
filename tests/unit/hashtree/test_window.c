/* hashtree/window.c: one window's children hashed, through ht_build and
 * ht_verify on data in memory (4096 blocks of 4 KiB, two levels): data
 * mapped (the mapping moving with the worker, each one unmapped, a
 * mapping refused read instead, never mapped when asked not to); a run
 * of a 4-byte pattern hashed without a read, as the same bytes read
 * would be, but read when every block must be seen; under a bad hash
 * block, its children unchecked, and with suspects those that do not
 * match it reported as such. */
#include <check.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/tree.h"

#define BS     4096u
#define BLOCKS 4096u
#define RUN0   100u  /* a run of pattern from this block */
#define RUN1   3000u /* to this one */
#define PAT    0x11223344u

struct mem {
	uint8_t *data, *tree;
	size_t tree_size;
	atomic_int maps, unmaps, live, refuse_every, bad_map;
	atomic_ullong run_bytes_read;
	int runs; /* data_extent says where the run is */
	struct ht_failure f[16];
	atomic_int nf;
};

static struct mem m;
static struct ht_geometry g;
static struct ht_hasher h;
static uint8_t root_plain[32];

static int read_data(void *c, uint64_t off, void *buf, size_t len,
		     struct ht_error *err)
{
	struct mem *x = c;
	uint64_t lo = (uint64_t)RUN0 * BS, hi = (uint64_t)RUN1 * BS;

	(void)err;
	if (off < hi && lo < off + len)
		atomic_fetch_add(&x->run_bytes_read,
				 (off + len < hi ? off + len : hi) -
					 (off > lo ? off : lo));
	memcpy(buf, x->data + off, len);
	return 0;
}

static int read_tree(void *c, uint64_t off, void *buf, size_t len,
		     struct ht_error *err)
{
	(void)err;
	memcpy(buf, ((struct mem *)c)->tree + off, len);
	return 0;
}

static int write_tree(void *c, uint64_t off, const void *buf, size_t len,
		      struct ht_error *err)
{
	(void)err;
	memcpy(((struct mem *)c)->tree + off, buf, len);
	return 0;
}

static const uint8_t *map_data(void *c, uint64_t off, size_t len)
{
	struct mem *x = c;
	int n = atomic_fetch_add(&x->maps, 1);

	if (off + len > (uint64_t)BLOCKS * BS)
		atomic_store(&x->bad_map,
			     1); /* (no assert off the main thread) */
	if (x->refuse_every && n % x->refuse_every == 0)
		return NULL;
	atomic_fetch_add(&x->live, 1);
	return x->data + off;
}

static void unmap_data(void *c, const uint8_t *p, size_t len)
{
	struct mem *x = c;

	(void)p;
	(void)len;
	atomic_fetch_add(&x->unmaps, 1);
	atomic_fetch_sub(&x->live, 1);
}

/* The run [RUN0, RUN1) of PAT, the rest data. */
static int data_extent(void *c, uint64_t off, int *is_hole, uint32_t *pattern,
		       uint64_t *end)
{
	uint64_t lo = (uint64_t)RUN0 * BS, hi = (uint64_t)RUN1 * BS;

	(void)c;
	*pattern = 0;
	*is_hole = 0;
	if (off < lo) {
		*end = lo;
	} else if (off < hi) {
		*is_hole = 1;
		*pattern = PAT;
		*end = hi;
	} else {
		*end = (uint64_t)BLOCKS * BS;
	}
	return 0;
}

static int seen_fn(void *c, unsigned worker, uint64_t first,
		   const uint8_t *blocks, size_t n, struct ht_error *err)
{
	(void)c;
	(void)worker;
	(void)first;
	(void)blocks;
	(void)n;
	(void)err;
	return 0;
}

static void report(void *c, const struct ht_failure *f)
{
	struct mem *x = c;
	int i = atomic_fetch_add(&x->nf, 1);

	if (i < 16)
		x->f[i] = *f;
}

static struct ht_io plain_io(void)
{
	return (struct ht_io){.ctx = &m,
			      .read_data = read_data,
			      .read_tree = read_tree,
			      .write_tree = write_tree};
}

static void wsetup(void)
{
	static const uint8_t salt[2] = {9, 9};
	struct ht_io io = plain_io();
	struct ht_options opt = {.threads = 1};
	struct ht_error err = {0};

	memset(&m, 0, sizeof(m));
	m.data = malloc((size_t)BLOCKS * BS);
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		m.data[i] = (uint8_t)(i * 17 + i / BS);
	for (size_t i = (size_t)RUN0 * BS; i < (size_t)RUN1 * BS; i += 4) {
		m.data[i] = 0x44;
		m.data[i + 1] = 0x33;
		m.data[i + 2] = 0x22;
		m.data[i + 3] = 0x11;
	}
	ck_assert_int_eq(ht_hasher_init(&h, "sha256", 1, salt, 2, &err), 0);
	ck_assert_int_eq(ht_geometry_init(&g, BLOCKS, BS, BS, 32, 1, &err), 0);
	ck_assert_uint_eq(g.levels, 2);
	m.tree_size = g.tree_blocks * BS;
	m.tree = calloc(1, m.tree_size);
	ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root_plain, &err), 0);
}

static void wteardown(void)
{
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}

START_TEST(mapped)
{
	struct ht_io io = plain_io();
	struct ht_error err = {0};
	uint8_t root[32];

	io.map_data = map_data;
	io.unmap_data = unmap_data;
	for (unsigned t = 1; t <= 4; t += 3) {
		struct ht_options opt = {.threads = t};

		m.maps = m.unmaps = m.live = 0;
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert_mem_eq(root, root_plain, 32);
		ck_assert_int_gt(m.maps, 0);
		ck_assert_int_eq(m.live, 0);
		ck_assert_int_eq(m.unmaps, m.maps);
		ck_assert_int_eq(m.bad_map, 0);
	}
	/* every other mapping refused: read instead, the same root */
	m.maps = m.unmaps = m.live = 0;
	m.refuse_every = 2;
	{
		struct ht_options opt = {.threads = 2};

		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert_mem_eq(root, root_plain, 32);
		ck_assert_int_eq(m.live, 0);
	}
	m.refuse_every = 0;
	/* no_map: never mapped; verify maps as build does */
	{
		struct ht_options opt = {.threads = 2, .no_map = 1};
		struct ht_verify_result res;

		m.maps = 0;
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert_int_eq(m.maps, 0);
		ck_assert_mem_eq(root, root_plain, 32);
		opt.no_map = 0;
		ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err),
				 0);
		ck_assert_int_eq(res.root_matches, 1);
		ck_assert_int_gt(m.maps, 0);
		ck_assert_int_eq(m.live, 0);
	}
}
END_TEST

/* The run of PAT: hashed without being read, to the root its bytes
 * give; read when data_seen must see it. */
START_TEST(pattern_run)
{
	struct ht_io io = plain_io();
	struct ht_error err = {0};
	uint8_t root[32];

	io.data_extent = data_extent;
	for (unsigned t = 1; t <= 3; t += 2) {
		struct ht_options opt = {.threads = t};
		struct ht_verify_result res;

		m.run_bytes_read = 0;
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert_mem_eq(root, root_plain, 32);
		ck_assert_uint_eq(m.run_bytes_read, 0);
		ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err),
				 0);
		ck_assert_int_eq(res.root_matches, 1);
		ck_assert_uint_eq(res.bad_data_blocks, 0);
		ck_assert_uint_eq(m.run_bytes_read, 0);
	}
	io.data_seen = seen_fn;
	{
		struct ht_options opt = {.threads = 2};

		m.run_bytes_read = 0;
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert_mem_eq(root, root_plain, 32);
		ck_assert_uint_eq(m.run_bytes_read,
				  (uint64_t)(RUN1 - RUN0) * BS);
	}
}
END_TEST

/* One digest of level 0's block 1 changed: that block is bad, its 128
 * data blocks unchecked; with suspects, the one child whose digest it
 * was reported as a suspect. */
START_TEST(suspects)
{
	struct ht_io io = plain_io();
	struct ht_error err = {0};
	struct ht_verify_result res;
	/* level 0 follows level 1's one block; block 1 of level 0 holds
	 * data blocks 128-255; slot 5: data block 133 */
	size_t at = (g.level_first[0] + 1) * BS + 5 * 32;

	m.tree[at] ^= 1;
	for (int s = 0; s < 2; s++) {
		struct ht_options opt = {.threads = 2,
					 .report = report,
					 .report_ctx = &m,
					 .suspects = s};

		m.nf = 0;
		ck_assert_int_eq(
			ht_verify(&g, &h, &io, &opt, root_plain, &res, &err),
			0);
		ck_assert_uint_eq(res.bad_hash_blocks, 1);
		ck_assert_uint_eq(res.bad_data_blocks, 0);
		ck_assert_uint_eq(res.unchecked_data_blocks, 128);
		ck_assert_int_eq(m.nf, s ? 2 : 1);
		ck_assert_int_eq(m.f[0].kind, HT_BAD_HASH_BLOCK);
		ck_assert_uint_eq(m.f[0].block, g.level_first[0] + 1);
		ck_assert_int_eq(m.f[0].suspect, 0);
		if (s) {
			ck_assert_int_eq(m.f[1].kind, HT_BAD_DATA_BLOCK);
			ck_assert_uint_eq(m.f[1].block, 133);
			ck_assert_int_eq(m.f[1].suspect, 1);
		}
	}
	m.tree[at] ^= 1;
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"window",  0, wsetup,
					    wteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(mapped, pattern_run, suspects));
}
