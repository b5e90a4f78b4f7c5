/* Build and verify over memory buffers: the known vectors (docs/format.md),
 * and corruption at every place verify must find it. */
#include <check.h>
#include "check_main.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hashtree/thread.h"
#include "hashtree/tree.h"
#include "verity/tree/params.h"

struct mem {
	uint8_t *data;
	size_t data_size;
	uint8_t *tree;
	size_t tree_size;
	struct ht_failure seen[64];
	int nseen;
	/* bytes that cannot be read (EIO), as on a failing disk */
	uint64_t bad_data_start, bad_data_end;
	uint64_t bad_tree_start, bad_tree_end;
	/* reads of the tree at or past this offset, counted */
	uint64_t count_from;
	atomic_int tree_reads_counted;
};

static int touches(uint64_t off, size_t len, uint64_t start, uint64_t end)
{
	return off < end && start < off + len;
}

static int mem_read_data(void *c, uint64_t off, void *buf, size_t len,
			 struct ht_error *err)
{
	struct mem *m = c;

	if (off + len > m->data_size)
		return ht_fail(err, ENODATA, "data read past end");
	if (touches(off, len, m->bad_data_start, m->bad_data_end))
		return ht_fail(err, EIO, "data read error");
	memcpy(buf, m->data + off, len);
	return 0;
}

static int mem_read_tree(void *c, uint64_t off, void *buf, size_t len,
			 struct ht_error *err)
{
	struct mem *m = c;

	if (off + len > m->tree_size)
		return ht_fail(err, ENODATA, "tree read past end");
	if (touches(off, len, m->bad_tree_start, m->bad_tree_end))
		return ht_fail(err, EIO, "tree read error");
	if (m->count_from && off + len > m->count_from)
		atomic_fetch_add(&m->tree_reads_counted, 1);
	memcpy(buf, m->tree + off, len);
	return 0;
}

static int mem_write_tree(void *c, uint64_t off, const void *buf, size_t len,
			  struct ht_error *err)
{
	struct mem *m = c;

	if (off + len > m->tree_size)
		return ht_fail(err, EIO, "tree write past end");
	memcpy(m->tree + off, buf, len);
	return 0;
}

static void mem_report(void *c, const struct ht_failure *f)
{
	struct mem *m = c;

	if (m->nseen < 64)
		m->seen[m->nseen++] = *f;
}

/* I/O over m's buffers. */
static struct ht_io mem_io(struct mem *m)
{
	return (struct ht_io){.ctx = m,
			      .read_data = mem_read_data,
			      .read_tree = mem_read_tree,
			      .write_tree = mem_write_tree};
}

/* Builds a tree over m->data and returns the root as hex. */
static void build(struct mem *m, struct ht_geometry *g, struct ht_hasher *h,
		  const char *alg, int type, const char *salt_hex, uint32_t dbs,
		  uint32_t hbs, char *root_hex)
{
	struct ht_io io = mem_io(m);
	uint8_t salt[256], root[64];
	size_t salt_len = 0;
	struct ht_error err;

	ck_assert_int_eq(verity_hex_decode(salt_hex, salt, 256, &salt_len), 0);
	ck_assert_int_eq(ht_hasher_init(h, alg, type, salt, salt_len, &err), 0);
	ck_assert_int_eq(ht_geometry_init(g, m->data_size / dbs, dbs, hbs,
					  h->digest_size, type, &err),
			 0);
	m->tree_size = g->tree_blocks * hbs;
	m->tree = calloc(1, m->tree_size + 1);
	ck_assert_int_eq(ht_build(g, h, &io, NULL, root, &err), 0);
	verity_hex_encode(root, h->digest_size, root_hex);
}

static int verify(struct mem *m, const struct ht_geometry *g,
		  const struct ht_hasher *h, const char *root_hex,
		  struct ht_verify_result *res)
{
	struct ht_io io = mem_io(m);
	uint8_t root[64];
	size_t n;
	struct ht_error err;

	struct ht_options opt = {.report = mem_report, .report_ctx = m};

	verity_hex_decode(root_hex, root, 64, &n);
	m->nseen = 0;
	return ht_verify(g, h, &io, &opt, root, res, &err);
}

#define S "e48da609055204e89ae53b655ca2216dd983cf3cb829f34f63a297d106d53e2d"

static const struct {
	uint32_t bs;
	const char *alg;
	int type;
	const char *salt;
	const char *root;
} vectors[] = {
	{512, "sha256", 1, S,
	 "9de18652fe74edfb9b805aaed72ae2aa48f94333f1ba5c452ac33b1c39325174"},
	{1024, "sha256", 1, S,
	 "54d92778750495d1f80832b486ebd007617d746271511bbf0e295e143da2b3df"},
	{4096, "sha256", 1, S,
	 "e522df0f97da4febb882ac40f30b37dc0b444bf6df418929463fa25280f09d5c"},
	{4096, "sha256", 0, S,
	 "cbbf4ebd004ef65e29b935bb635a39cf754d677f3fa10b0126da725bbdf10f7d"},
	{4096, "sha256", 1, "",
	 "ef29c902d87350f1da4bfa536e16cebc162a909bf89abe448b81ec500d4fb9bf"},
	{1024, "sha1", 1, S, "d0e9163ca8844aaa2e88fe5265a8c5d9ee494a99"},
	{1024, "sha1", 1, "dadada", "73509e8e868be6b8ac939817a98a3d35121413b2"},
};

START_TEST(known_vectors_8mib_of_zeros)
{
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_verify_result res;
	char root[129];

	m.data_size = 8 << 20;
	m.data = calloc(1, m.data_size);
	build(&m, &g, &h, vectors[_i].alg, vectors[_i].type, vectors[_i].salt,
	      vectors[_i].bs, vectors[_i].bs, root);
	ck_assert_str_eq(root, vectors[_i].root);
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert(res.root_matches);
	ck_assert_uint_eq(
		res.bad_data_blocks + res.bad_hash_blocks + res.bad_padding, 0);
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}
END_TEST

/* 512-byte blocks, sha256: 16 digests a block, so 5000 blocks make 4
 * levels (313, 20, 2, 1 blocks). */
static void multilevel(struct mem *m, struct ht_geometry *g,
		       struct ht_hasher *h, char *root)
{
	m->data_size = 5000 * 512;
	m->data = malloc(m->data_size);
	srand(7);
	for (size_t i = 0; i < m->data_size; i++)
		m->data[i] = (uint8_t)rand();
	build(m, g, h, "sha256", 1, "0102", 512, 512, root);
	ck_assert_uint_eq(g->levels, 4);
}

START_TEST(every_failure_is_reported_not_only_the_first)
{
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_verify_result res;
	char root[65];

	multilevel(&m, &g, &h, root);
	m.data[7 * 512 + 3] ^= 1;
	m.data[4999 * 512] ^= 0x80;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert_uint_eq(res.bad_data_blocks, 2);
	ck_assert_int_eq(m.nseen, 2);
	ck_assert_int_eq(m.seen[0].kind, HT_BAD_DATA_BLOCK);
	ck_assert_uint_eq(m.seen[0].block, 7);
	ck_assert_uint_eq(m.seen[1].block, 4999);
	ck_assert(res.root_matches);
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}
END_TEST

/* A damaged hash block is the one blamed, at every level: it fails
 * against its proven parent, and the blocks under it are unchecked. */
START_TEST(corrupt_hash_block_at_each_level)
{
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_verify_result res;
	char root[65];

	multilevel(&m, &g, &h, root);
	for (uint32_t level = 0; level + 1 < g.levels; level++) {
		uint64_t block = g.level_first[level] + 1;
		uint8_t *p = m.tree + block * 512 + 5;
		/* block 1 of its level covers blocks [span, 2 * span) of
		 * each level below, clipped to that level's size */
		uint64_t span = 1, under = 0, under_hash = 0;

		for (uint32_t l = level + 1; l-- > 0;) {
			uint64_t n = l ? g.level_blocks[l - 1] : g.data_blocks;

			span *= 16;
			n = n < 2 * span ? n - span : span;
			if (l)
				under_hash += n;
			else
				under = n;
		}
		*p ^= 1;
		ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
		ck_assert_uint_eq(res.bad_hash_blocks, 1);
		ck_assert_uint_eq(res.bad_data_blocks, 0);
		ck_assert(res.root_matches);
		ck_assert_int_eq(m.nseen, 1);
		ck_assert_int_eq(m.seen[0].kind, HT_BAD_HASH_BLOCK);
		ck_assert_uint_eq(m.seen[0].block, block);
		ck_assert_uint_eq(m.seen[0].level, level);
		ck_assert_uint_eq(res.unchecked_data_blocks, under);
		ck_assert_uint_eq(res.unchecked_hash_blocks, under_hash);
		*p ^= 1;
	}
	/* the top block: its children rebuild a top that the root proves,
	 * so the top is blamed and nothing is left unchecked */
	m.tree[5] ^= 1;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert(res.root_matches);
	ck_assert_uint_eq(res.bad_hash_blocks, 1);
	ck_assert_int_eq(m.nseen, 1);
	ck_assert_uint_eq(m.seen[0].block, g.level_first[g.levels - 1]);
	ck_assert_uint_eq(m.seen[0].level, g.levels - 1);
	ck_assert_uint_eq(res.unchecked_data_blocks, 0);
	m.tree[5] ^= 1;
	/* two levels at once: a level-1 block and a leaf under it (not
	 * blamed), and a data block elsewhere */
	m.tree[(g.level_first[1] + 2) * 512 + 40] ^= 1;
	m.tree[(g.level_first[0] + 2 * 16 + 3) * 512 + 7] ^= 1;
	m.data[4000 * 512] ^= 1;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert_int_eq(m.nseen, 2);
	ck_assert_int_eq(m.seen[0].kind, HT_BAD_HASH_BLOCK);
	ck_assert_uint_eq(m.seen[0].block, g.level_first[1] + 2);
	ck_assert_int_eq(m.seen[1].kind, HT_BAD_DATA_BLOCK);
	ck_assert_uint_eq(m.seen[1].block, 4000);
	ck_assert_uint_eq(res.unchecked_hash_blocks, 16);
	ck_assert_uint_eq(res.unchecked_data_blocks, 256);
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}
END_TEST

START_TEST(nonzero_padding_and_wrong_root)
{
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_verify_result res;
	char root[65];
	uint64_t last;

	multilevel(&m, &g, &h, root);
	last = g.level_first[0] + g.level_blocks[0] - 1;
	/* 5000 = 312 * 16 + 8: the last leaf block holds 8 digests; the
	 * block fails against its parent, then its spare area says where */
	m.tree[last * 512 + 8 * 32 + 1] = 0xaa;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert_uint_eq(res.bad_hash_blocks, 1);
	ck_assert_uint_eq(m.seen[0].block, last);
	ck_assert_uint_eq(res.bad_padding, 1);
	ck_assert_int_eq(m.seen[1].kind, HT_BAD_PADDING);
	ck_assert_uint_eq(m.seen[1].block, last);
	ck_assert_uint_eq(m.seen[1].offset, 256);
	m.tree[last * 512 + 8 * 32 + 1] = 0;
	/* a wrong root: the top is blamed, nothing under it checked */
	root[0] = root[0] == '0' ? '1' : '0';
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert(!res.root_matches);
	ck_assert_uint_eq(res.bad_hash_blocks, 1);
	ck_assert_uint_eq(res.bad_data_blocks + res.bad_padding, 0);
	ck_assert_uint_eq(res.unchecked_data_blocks, 5000);
	ck_assert_uint_eq(res.unchecked_hash_blocks, g.tree_blocks - 1);
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}
END_TEST

/* A block that cannot be read is reported as such, by its own place,
 * and the check goes on; under an unreadable hash block nothing is
 * checked. */
START_TEST(unreadable_blocks_are_reported_and_skipped)
{
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_verify_result res;
	char root[65];

	multilevel(&m, &g, &h, root);
	/* data block 615 (inside the first 256 KiB read) */
	m.bad_data_start = 615 * 512 + 100;
	m.bad_data_end = 615 * 512 + 101;
	m.data[3000 * 512] ^= 1;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert_int_eq(m.nseen, 2);
	ck_assert_int_eq(m.seen[0].kind, HT_UNREADABLE_DATA);
	ck_assert_uint_eq(m.seen[0].block, 615);
	ck_assert_int_eq(m.seen[1].kind, HT_BAD_DATA_BLOCK);
	ck_assert_uint_eq(m.seen[1].block, 3000);
	ck_assert_uint_eq(res.unreadable_blocks, 1);
	ck_assert_uint_eq(res.bad_data_blocks, 1);
	m.data[3000 * 512] ^= 1;
	m.bad_data_start = m.bad_data_end = 0;
	/* a leaf hash block: unreadable, its 16 data blocks unchecked */
	m.bad_tree_start = (g.level_first[0] + 7) * 512;
	m.bad_tree_end = m.bad_tree_start + 1;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert_int_eq(m.nseen, 1);
	ck_assert_int_eq(m.seen[0].kind, HT_UNREADABLE_HASH);
	ck_assert_uint_eq(m.seen[0].block, g.level_first[0] + 7);
	ck_assert_uint_eq(m.seen[0].level, 0);
	ck_assert_uint_eq(res.unchecked_data_blocks, 16);
	ck_assert(res.root_matches);
	/* the top block */
	m.bad_tree_start = 0;
	m.bad_tree_end = 1;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert_int_eq(m.nseen, 1);
	ck_assert_int_eq(m.seen[0].kind, HT_UNREADABLE_HASH);
	ck_assert_uint_eq(m.seen[0].block, 0);
	ck_assert_uint_eq(res.unchecked_data_blocks, 5000);
	ck_assert(!res.root_matches);
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}
END_TEST

START_TEST(one_block_has_no_tree)
{
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_verify_result res;
	char root[65];

	m.data_size = 4096;
	m.data = calloc(1, 4096);
	build(&m, &g, &h, "sha256", 1, "", 4096, 4096, root);
	ck_assert_uint_eq(g.levels, 0);
	ck_assert_uint_eq(g.tree_blocks, 0);
	/* the root is the one block's digest: SHA-256 of 4096 zero bytes */
	ck_assert_str_eq(root, "ad7facb2586fc6e966c004d7d1d16b024f5805ff7cb47c7"
			       "a85dabd8b48892ca7");
	m.data[100] = 1;
	ck_assert_int_eq(verify(&m, &g, &h, root, &res), 0);
	ck_assert(!res.root_matches);
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
}
END_TEST

/* Holes: every block in [hole_start, hole_end) reads as zero, and the
 * tree must not read it. */
struct sparse {
	struct mem m;
	uint64_t hole_start, hole_end;
	int hole_reads;
};

static int sparse_read_data(void *c, uint64_t off, void *buf, size_t len,
			    struct ht_error *err)
{
	struct sparse *sp = c;

	if (off < sp->hole_end && off + len > sp->hole_start)
		sp->hole_reads++;
	return mem_read_data(&sp->m, off, buf, len, err);
}

static int sparse_read_tree(void *c, uint64_t off, void *buf, size_t len,
			    struct ht_error *err)
{
	return mem_read_tree(&((struct sparse *)c)->m, off, buf, len, err);
}

static int sparse_write_tree(void *c, uint64_t off, const void *buf, size_t len,
			     struct ht_error *err)
{
	return mem_write_tree(&((struct sparse *)c)->m, off, buf, len, err);
}

static int sparse_extent(void *c, uint64_t off, int *is_hole, uint32_t *pattern,
			 uint64_t *end)
{
	struct sparse *sp = c;

	*pattern = 0;
	*is_hole = off >= sp->hole_start && off < sp->hole_end;
	*end = *is_hole               ? sp->hole_end
	       : off < sp->hole_start ? sp->hole_start
				      : UINT64_MAX;
	return 0;
}

START_TEST(holes_are_not_read_and_hash_as_zeros)
{
	struct sparse sp = {0};
	struct ht_io io = {.ctx = &sp,
			   .read_data = sparse_read_data,
			   .read_tree = sparse_read_tree,
			   .write_tree = sparse_write_tree,
			   .data_extent = sparse_extent};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_error err;
	uint8_t root[32], *plain_tree;
	char hex[65], want[65];

	/* 3000 blocks of 4096, the middle third a hole (not block-aligned
	 * at its start: the block holding it must still be read). */
	sp.m.data_size = 3000 * 4096;
	sp.m.data = malloc(sp.m.data_size);
	for (size_t i = 0; i < sp.m.data_size; i++)
		sp.m.data[i] = (uint8_t)(i * 7 + i / 4096);
	sp.hole_start = 1000 * 4096 + 100;
	sp.hole_end = 2000 * 4096;
	memset(sp.m.data + sp.hole_start, 0, sp.hole_end - sp.hole_start);
	build(&sp.m, &g, &h, "sha256", 1, "abcd", 4096, 4096, want);
	plain_tree = sp.m.tree;
	sp.m.tree = calloc(1, sp.m.tree_size);
	sp.hole_reads = 0;
	ck_assert_int_eq(ht_build(&g, &h, &io, NULL, root, &err), 0);
	verity_hex_encode(root, 32, hex);
	ck_assert_str_eq(hex, want);
	ck_assert(!memcmp(plain_tree, sp.m.tree, sp.m.tree_size));
	ck_assert_int_eq(sp.hole_reads, 1); /* only the partial block */
	ht_hasher_free(&h);
	free(plain_tree);
	free(sp.m.tree);
	free(sp.m.data);
}
END_TEST

/* The data asked for ahead of the workers (io->prefetch, from a thread of
 * its own): never past the data, never inside a hole, in steps of at
 * most 2 MiB, extents asked for once each, and the tree the same. Reads
 * are slowed so that the prefetcher does get ahead. */
struct slow {
	struct sparse sp;
	atomic_int calls, outside, in_hole, too_long;
	atomic_int prefetcher_extents; /* data_extent calls it made */
};

/* set in the prefetcher's thread by its first prefetch call */
static _Thread_local int is_prefetcher;

static int slow_extent(void *c, uint64_t off, int *is_hole, uint32_t *pattern,
		       uint64_t *end)
{
	struct slow *s = c;

	if (is_prefetcher)
		atomic_fetch_add(&s->prefetcher_extents, 1);
	return sparse_extent(&s->sp, off, is_hole, pattern, end);
}

static int slow_read_data(void *c, uint64_t off, void *buf, size_t len,
			  struct ht_error *err)
{
	usleep(1000);
	return mem_read_data(&((struct slow *)c)->sp.m, off, buf, len, err);
}

static void slow_prefetch(void *c, uint64_t off, uint64_t len)
{
	struct slow *s = c;

	is_prefetcher = 1;
	atomic_fetch_add(&s->calls, 1);
	if (off + len > s->sp.m.data_size || !len)
		atomic_fetch_add(&s->outside, 1);
	if (touches(off, len, s->sp.hole_start, s->sp.hole_end))
		atomic_fetch_add(&s->in_hole, 1);
	if (len > (2u << 20))
		atomic_fetch_add(&s->too_long, 1);
}

START_TEST(prefetch_stays_in_the_data_and_out_of_holes)
{
	struct slow s = {0};
	struct ht_io io = {.ctx = &s,
			   .read_data = slow_read_data,
			   .read_tree = sparse_read_tree,
			   .write_tree = sparse_write_tree,
			   .data_extent = slow_extent,
			   .prefetch = slow_prefetch};
	struct ht_options opt = {.threads = 2};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_error err;
	uint8_t root[32], *plain_tree;
	char hex[65], want[65];
	struct ht_verify_result res;

	/* 6000 blocks of 4096 (many windows), a hole from block 1000 */
	s.sp.m.data_size = 6000 * 4096;
	s.sp.m.data = malloc(s.sp.m.data_size);
	for (size_t i = 0; i < s.sp.m.data_size; i++)
		s.sp.m.data[i] = (uint8_t)(i * 13 + i / 4096);
	s.sp.hole_start = 1000 * 4096 + 100;
	s.sp.hole_end = 3000 * 4096;
	memset(s.sp.m.data + s.sp.hole_start, 0,
	       s.sp.hole_end - s.sp.hole_start);
	build(&s.sp.m, &g, &h, "sha256", 1, "abcd", 4096, 4096, want);
	plain_tree = s.sp.m.tree;
	s.sp.m.tree = calloc(1, s.sp.m.tree_size);
	ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
	verity_hex_encode(root, 32, hex);
	ck_assert_str_eq(hex, want);
	ck_assert(!memcmp(plain_tree, s.sp.m.tree, s.sp.m.tree_size));
	ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err), 0);
	ck_assert(res.root_matches);
	ck_assert_uint_eq(res.bad_data_blocks + res.bad_hash_blocks, 0);
	ck_assert_int_gt(atomic_load(&s.calls), 0);
	ck_assert_int_eq(atomic_load(&s.outside), 0);
	ck_assert_int_eq(atomic_load(&s.in_hole), 0);
	ck_assert_int_eq(atomic_load(&s.too_long), 0);
	/* asked once per extent (the hole, the data after it), not once
	 * per step: on tmpfs each SEEK_HOLE walks the file, and asking per
	 * 2 MiB made a cached format 50% slower */
	ck_assert_int_le(atomic_load(&s.prefetcher_extents), 4);
	ht_hasher_free(&h);
	free(plain_tree);
	free(s.sp.m.tree);
	free(s.sp.m.data);
}
END_TEST

/* The same tree and the same failure list, in the same order, for any
 * number of threads. */
START_TEST(threads_give_identical_results)
{
	static const unsigned counts[] = {1, 2, 3, 8};
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_io io = mem_io(&m);
	struct ht_error err;
	char root1[65];
	uint8_t *tree1, root[32];

	multilevel(&m, &g, &h, root1);
	tree1 = m.tree;
	m.tree = calloc(1, m.tree_size);
	for (size_t t = 0; t < 4; t++) {
		struct ht_options opt = {.threads = counts[t],
					 .report = mem_report,
					 .report_ctx = &m};
		struct ht_verify_result res;
		char hex[65];

		memset(m.tree, 0xee, m.tree_size);
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		verity_hex_encode(root, 32, hex);
		ck_assert_str_eq(hex, root1);
		ck_assert(!memcmp(tree1, m.tree, m.tree_size));

		/* corrupt many blocks: reported in position order */
		for (int b = 0; b < 5000; b += 97)
			m.data[b * 512] ^= 1;
		m.nseen = 0;
		ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err),
				 0);
		ck_assert_uint_eq(res.bad_data_blocks, 52);
		for (int i = 0; i < m.nseen; i++)
			ck_assert_uint_eq(m.seen[i].block, (uint64_t)i * 97);
		for (int b = 0; b < 5000; b += 97)
			m.data[b * 512] ^= 1;

		/* few windows with failures, far apart: still in order */
		static const int few[] = {4999, 3, 2500};
		for (int i = 0; i < 3; i++)
			m.data[few[i] * 512] ^= 1;
		m.nseen = 0;
		ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err),
				 0);
		ck_assert_int_eq(m.nseen, 3);
		ck_assert_uint_eq(m.seen[0].block, 3);
		ck_assert_uint_eq(m.seen[1].block, 2500);
		ck_assert_uint_eq(m.seen[2].block, 4999);
		for (int i = 0; i < 3; i++)
			m.data[few[i] * 512] ^= 1;
	}
	ht_hasher_free(&h);
	free(tree1);
	free(m.tree);
	free(m.data);
}
END_TEST

/* The tree of m->data made the plain way: each level from the one below
 * as stored, a parent block at a time. */
static uint8_t *reference_tree(const struct mem *m, const struct ht_geometry *g,
			       const struct ht_hasher *h)
{
	size_t hbs = g->hash_block_size;
	uint8_t *t = calloc(1, g->tree_blocks * hbs);
	struct ht_error err;

	for (uint32_t l = 0; l < g->levels; l++) {
		uint64_t children = l ? g->level_blocks[l - 1] : g->data_blocks;
		size_t csize = l ? hbs : g->data_block_size;
		const uint8_t *below =
			l ? t + g->level_first[l - 1] * hbs : m->data;

		for (uint64_t c = 0; c < children; c++)
			ck_assert_int_eq(
				ht_hash_blocks(
					h, below + c * csize, csize, 1,
					t +
						(g->level_first[l] +
						 (c >> g->bits)) *
							hbs +
						(c & ((1u << g->bits) - 1)) *
							g->slot_size,
					h->digest_size, &err),
				0);
	}
	return t;
}

/* Small hash blocks: level 1 is hashed with level 0, window by window, as
 * level 0's blocks are made (they are not read back); the tree is the one
 * made level by level, whatever the number of threads, with a last
 * window and a last level-1 block that are partial; and verify finds it
 * whole. Format 1 sha256, and format 0 sha1, whose 20-byte digests are
 * packed: 16 of them in the first 320 bytes of a 512-byte block, so that
 * a window's digests are not one run across its parents. */
static const struct {
	const char *alg;
	int type;
	size_t digest;
} upward[] = {{"sha256", 1, 32}, {"sha1", 0, 20}};

START_TEST(level_one_made_with_level_zero)
{
	static const unsigned counts[] = {1, 2, 3};
	/* 3077 level-0 blocks: windows of 192, 96 or 64 of them (whole
	 * level-1 blocks' children), the last one of 5 */
	static const uint64_t blocks = 16384 * 3 + 77;
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_io io = mem_io(&m);
	struct ht_error err;
	size_t ds = upward[_i].digest;
	uint8_t *ref, root[32];
	char root_hex[65];

	m.data_size = blocks * 512;
	m.data = malloc(m.data_size);
	srand(11);
	for (size_t i = 0; i < m.data_size; i++)
		m.data[i] = (uint8_t)rand();
	build(&m, &g, &h, upward[_i].alg, upward[_i].type, "0102", 512, 512,
	      root_hex);
	ck_assert_uint_eq(g.levels, 4);
	ck_assert_uint_eq(g.level_blocks[0], 3077);
	ref = reference_tree(&m, &g, &h);
	m.count_from = g.level_first[0] * 512;
	for (size_t t = 0; t < 3; t++) {
		struct ht_options opt = {.threads = counts[t]};
		struct ht_verify_result res;
		char hex[65];

		memset(m.tree, 0xee, m.tree_size);
		atomic_store(&m.tree_reads_counted, 0);
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert(!memcmp(ref, m.tree, m.tree_size));
		verity_hex_encode(root, ds, hex);
		ck_assert_str_eq(hex, root_hex);
		int level0_reads = atomic_load(&m.tree_reads_counted);

		ck_assert_int_eq(level0_reads, 0);
		m.count_from = 0;
		ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err),
				 0);
		ck_assert(res.root_matches);
		ck_assert_uint_eq(res.bad_data_blocks + res.bad_hash_blocks +
					  res.bad_padding +
					  res.unreadable_blocks,
				  0);
		m.count_from = g.level_first[0] * 512;
	}
	ht_hasher_free(&h);
	free(ref);
	free(m.tree);
	free(m.data);
}
END_TEST

/* ht_build_leaves: level 0 alone, each block written once, whole, and
 * never far ahead of the first block not yet written, however long the
 * first window takes (its data read slowly here); nothing read back. */
struct leaves {
	struct mem *m;
	const struct ht_geometry *g;
	pthread_mutex_t lock;
	uint8_t *written;     /* one byte a level-0 block */
	uint64_t first_gap;   /* the first block not yet written */
	uint64_t aside[4096]; /* the first blocks of writes past first_gap */
	unsigned naside, most_aside;
	int bad;
	atomic_int slowed;
};

static int leaves_read(void *c, uint64_t off, void *buf, size_t len,
		       struct ht_error *err)
{
	struct leaves *l = c;

	if (off == 0 && !atomic_exchange(&l->slowed, 1))
		usleep(100000);
	return mem_read_data(l->m, off, buf, len, err);
}

static int leaves_write(void *c, uint64_t off, const void *buf, size_t len,
			struct ht_error *err)
{
	struct leaves *l = c;
	const struct ht_geometry *g = l->g;
	size_t hbs = g->hash_block_size;
	uint64_t first = off / hbs - g->level_first[0], n = len / hbs;
	unsigned k = 0;

	pthread_mutex_lock(&l->lock);
	if (off % hbs || len % hbs || off / hbs < g->level_first[0] ||
	    first + n > g->level_blocks[0] || l->naside == 4096)
		l->bad = 1;
	for (uint64_t b = first; !l->bad && b < first + n; b++)
		l->bad |= l->written[b]++;
	if (!l->bad && first > l->first_gap)
		l->aside[l->naside++] = first;
	while (l->first_gap < g->level_blocks[0] && l->written[l->first_gap])
		l->first_gap++;
	for (unsigned i = 0; i < l->naside; i++)
		if (l->aside[i] > l->first_gap)
			l->aside[k++] = l->aside[i];
	l->naside = k;
	if (k > l->most_aside)
		l->most_aside = k;
	pthread_mutex_unlock(&l->lock);
	return mem_write_tree(l->m, off, buf, len, err);
}

START_TEST(level_zero_alone_never_far_ahead)
{
	static const uint64_t blocks = 16384 * 3 + 77;
	struct mem m = {0};
	struct ht_geometry g;
	struct ht_hasher h;
	struct ht_error err;
	uint8_t *ref;
	char root_hex[65];

	m.data_size = blocks * 512;
	m.data = malloc(m.data_size);
	srand(12);
	for (size_t i = 0; i < m.data_size; i++)
		m.data[i] = (uint8_t)rand();
	build(&m, &g, &h, "sha256", 1, "0102", 512, 512, root_hex);
	ref = reference_tree(&m, &g, &h);
	for (unsigned threads = 1; threads <= 8; threads += 7) {
		struct leaves l = {.m = &m, .g = &g};
		struct ht_io io = {.ctx = &l,
				   .read_data = leaves_read,
				   .write_tree = leaves_write};
		struct ht_options opt = {.threads = threads};

		pthread_mutex_init(&l.lock, NULL);
		l.written = calloc(1, g.level_blocks[0]);
		memset(m.tree, 0xee, m.tree_size);
		ck_assert_int_eq(ht_build_leaves(&g, &h, &io, &opt, &err), 0);
		ck_assert(!l.bad);
		ck_assert_uint_eq(l.first_gap, g.level_blocks[0]);
		ck_assert(!memcmp(ref + g.level_first[0] * 512,
				  m.tree + g.level_first[0] * 512,
				  g.level_blocks[0] * 512));
		/* the levels above untouched */
		for (size_t i = 0; i < g.level_first[0] * 512; i++)
			ck_assert_uint_eq(m.tree[i], 0xee);
		ck_assert_uint_le(l.most_aside, HT_LEAVES_AHEAD + threads);
		/* and the workers did get ahead (how far is the scheduler's:
		 * 17 of 64 under qemu on arm64, more here) */
		if (threads > 1)
			ck_assert_uint_ge(l.most_aside, 1);
		free(l.written);
		pthread_mutex_destroy(&l.lock);
	}
	ht_hasher_free(&h);
	free(ref);
	free(m.tree);
	free(m.data);
}
END_TEST

static void add_loops(TCase *tc)
{
	tcase_add_loop_test(tc, known_vectors_8mib_of_zeros, 0,
			    sizeof(vectors) / sizeof(vectors[0]));
	tcase_add_loop_test(tc, level_one_made_with_level_zero, 0,
			    sizeof(upward) / sizeof(upward[0]));
}

int main(void)
{
	static const struct unit_suite u = {
		.name = "tree", .timeout = 60, .loops = add_loops};

	return run_unit(&u,
			UNIT_TESTS(holes_are_not_read_and_hash_as_zeros, prefetch_stays_in_the_data_and_out_of_holes, threads_give_identical_results, level_zero_alone_never_far_ahead, every_failure_is_reported_not_only_the_first, corrupt_hash_block_at_each_level, nonzero_padding_and_wrong_root, unreadable_blocks_are_reported_and_skipped, one_block_has_no_tree));
}
