/* verity/tree/verify.c: verify without parity, on pairs formatted here
 * (300 data blocks: level 0 of three hash blocks, a top of one): a clean
 * pair verified; a bad data block and a bad hash block reported at
 * their device offsets (the blocks under a bad hash block not reported
 * as failures of their own); a wrong root stopped before any block with
 * ROOT_FIRST, every block judged without; a pair that cannot be opened
 * refused before any work; tree failures turned into device offsets. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/tree/format.h"
#include "verity/tree/verify.h"

#define BS     4096u
#define BLOCKS 300u

static char dir[64];
static char *data_path, *hash_path;
static uint8_t root[HT_MAX_DIGEST_SIZE];

struct seen {
	struct verity_failure f[16];
	unsigned n;
};

static void seen_fn(void *ctx, const struct verity_failure *f)
{
	struct seen *s = ctx;

	if (s->n < 16)
		s->f[s->n] = *f;
	s->n++;
}

static void pair_of(struct verity_pair *p)
{
	memset(p, 0, sizeof(*p));
	verity_params_default(&p->params);
	p->params.salt_size = 4;
	memcpy(p->params.salt, "salt", 4);
	p->params.data_blocks = BLOCKS;
	p->data.path = data_path;
	p->hash.path = hash_path;
}

static void poke(const char *path, uint64_t off, uint8_t v)
{
	FILE *f = fopen(path, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_int_eq(fputc(v, f), v);
	fclose(f);
}

static uint8_t peek(const char *path, uint64_t off)
{
	FILE *f = fopen(path, "rb");
	int c;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	c = fgetc(f);
	fclose(f);
	return (uint8_t)c;
}

static void setup(void)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b = malloc(BLOCKS * BS);
	FILE *f;

	data_path = unit_path(dir, "/tmp/fv-verify.XXXXXX", "data");
	hash_path = unit_path(dir, "/tmp/fv-verify.XXXXXX", "hash");
	for (size_t i = 0; i < BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 7 + i / BS);
	f = fopen(data_path, "wb");
	ck_assert_uint_eq(fwrite(b, 1, BLOCKS * BS, f), BLOCKS * BS);
	fclose(f);
	free(b);
	pair_of(&p);
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(out.layout.geo.tree_blocks, 4);
	memcpy(root, p.root, sizeof(root));
}

static void teardown(void)
{
	unlink(data_path);
	unlink(hash_path);
	rmdir(dir);
	free(data_path);
	free(hash_path);
}

/* verify of the pair (root: the formatted one unless changed): the
 * return, what it found in out and s. */
static int verify(unsigned flags, const uint8_t *r, struct verity_outcome *out,
		  struct seen *s, struct ht_error *err)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}, .flags = flags};

	pair_of(&p);
	memcpy(p.root, r, sizeof(p.root));
	p.root_size = 32;
	run.report = seen_fn;
	run.ctx = s;
	memset(s, 0, sizeof(*s));
	return verity_tree_verify(&p, &run, out, err);
}

START_TEST(clean)
{
	struct verity_outcome out;
	struct seen s;
	struct ht_error err = {0};

	ck_assert_msg(verify(VERITY_RUN_ROOT_FIRST, root, &out, &s, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_int_eq(out.res.root_first, 0);
	ck_assert_uint_eq(out.res.bad_data_blocks, 0);
	ck_assert_uint_eq(out.res.bad_hash_blocks, 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_uint_eq(out.layout.tree_offset, BS);
	ck_assert_uint_eq(out.layout.geo.data_blocks, BLOCKS);
	ck_assert_ptr_nonnull(out.info.hash_path);
}
END_TEST

START_TEST(bad_data)
{
	struct verity_outcome out;
	struct seen s;
	struct ht_error err = {0};
	uint64_t at = 17 * BS + 5;
	uint8_t was = peek(data_path, at);

	poke(data_path, at, (uint8_t)~was);
	ck_assert_int_eq(verify(VERITY_RUN_ROOT_FIRST, root, &out, &s, &err),
			 0);
	poke(data_path, at, was);
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_uint_eq(out.res.bad_data_blocks, 1);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.f[0].kind, HT_BAD_DATA_BLOCK);
	ck_assert_uint_eq(s.f[0].block, 17);
	ck_assert_uint_eq(s.f[0].position, 17 * BS);
}
END_TEST

/* Level 0's second block (tree block 2: the top first) changed: one bad
 * hash block at its hash device offset; the 128 data blocks under it
 * are not checked, and not reported. */
START_TEST(bad_hash)
{
	struct verity_outcome out;
	struct seen s;
	struct ht_error err = {0};
	uint64_t at = BS + 2 * BS + 40;
	uint8_t was = peek(hash_path, at);

	poke(hash_path, at, (uint8_t)~was);
	ck_assert_int_eq(verify(VERITY_RUN_ROOT_FIRST, root, &out, &s, &err),
			 0);
	poke(hash_path, at, was);
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_uint_eq(out.res.bad_hash_blocks, 1);
	ck_assert_uint_eq(out.res.bad_data_blocks, 0);
	ck_assert_uint_eq(out.res.unchecked_data_blocks, 128);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.f[0].kind, HT_BAD_HASH_BLOCK);
	ck_assert_uint_eq(s.f[0].level, 0);
	ck_assert_uint_eq(s.f[0].block, 3);
	ck_assert_uint_eq(s.f[0].position, 3 * BS);
}
END_TEST

/* A root that is not the tree's: with ROOT_FIRST, stopped before any
 * block (one line, not a failure a block); without, every block judged
 * and the root said not to match. */
START_TEST(wrong_root)
{
	struct verity_outcome out;
	struct seen s;
	struct ht_error err = {0};
	uint8_t other[HT_MAX_DIGEST_SIZE];

	memcpy(other, root, sizeof(other));
	other[0] ^= 1;
	ck_assert_int_eq(verify(VERITY_RUN_ROOT_FIRST, other, &out, &s, &err),
			 0);
	ck_assert_int_eq(out.res.root_first, 1);
	ck_assert_int_eq(out.res.root_matches, 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(verify(0, other, &out, &s, &err), 0);
	ck_assert_int_eq(out.res.root_first, 0);
	ck_assert_int_eq(out.res.root_matches, 0);
	ck_assert_uint_eq(out.res.bad_data_blocks, 0);
}
END_TEST

/* A pair that cannot be opened: its error, nothing judged. */
START_TEST(refused)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct seen s = {0};
	struct ht_error err = {0};

	pair_of(&p);
	p.hash.path = "/nonexistent/hash";
	memcpy(p.root, root, sizeof(p.root));
	p.root_size = 32;
	run.report = seen_fn;
	run.ctx = &s;
	memset(&out, 0xa5, sizeof(out));
	ck_assert_int_lt(verity_tree_verify(&p, &run, &out, &err), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(out.res.root_matches, 0);
	/* more data blocks than the data device has */
	pair_of(&p);
	p.params.data_blocks = BLOCKS + 1;
	memcpy(p.root, root, sizeof(p.root));
	p.root_size = 32;
	ck_assert_int_lt(verity_tree_verify(&p, &run, &out, &err), 0);
	/* an unknown hash */
	pair_of(&p);
	strcpy(p.params.hash_name, "nosuch");
	ck_assert_int_lt(verity_tree_verify(&p, &run, &out, &err), 0);
}
END_TEST

START_TEST(failure_offsets)
{
	struct verity_layout l;
	struct ht_failure f = {0};
	struct verity_failure vf;
	struct ht_error err = {0};

	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(
		ht_geometry_init(&l.geo, 1000, 4096, 1024, 32, 1, &err), 0);
	l.tree_offset = 3 * 1024;
	f.kind = HT_UNREADABLE_DATA;
	f.block = 999;
	verity_failure_from_ht(&l, &f, &vf);
	ck_assert_uint_eq(vf.block, 999);
	ck_assert_uint_eq(vf.position, 999ull * 4096);
	/* a hash block: its index on the device, and its spare area's
	 * first bad byte */
	f.kind = HT_BAD_PADDING;
	f.block = 5;
	f.level = 1;
	f.offset = 700;
	verity_failure_from_ht(&l, &f, &vf);
	ck_assert_int_eq(vf.kind, HT_BAD_PADDING);
	ck_assert_uint_eq(vf.level, 1);
	ck_assert_uint_eq(vf.block, 8);
	ck_assert_uint_eq(vf.position, 8 * 1024 + 700);
	f.kind = HT_UNREADABLE_HASH;
	f.offset = 0;
	verity_failure_from_ht(&l, &f, &vf);
	ck_assert_uint_eq(vf.position, 8 * 1024);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"tree_verify", 0, setup,
					    teardown,      1, NULL};

	return run_unit(&u, UNIT_TESTS(clean, bad_data, bad_hash, wrong_root,
				       refused, failure_offsets));
}
