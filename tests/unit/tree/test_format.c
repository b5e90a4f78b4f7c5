/* verity/tree/format.c: format on files made here: the tree and the
 * superblock written whole (data blocks 0 filled in from the data, the
 * root in the outcome and the pair), the same bytes whatever the
 * threads; without a superblock the tree at the hash offset; one data
 * block, the superblock alone; written in place behind the data in its
 * own file, the marker replaced by the superblock; parity in a file of
 * its own; and data that is not whole blocks refused with no output
 * made. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "hashtree/sha256.h"
#include "unit_files.h"
#include "verity/tree/format.h"
#include "verity/tree/superblock.h"
#include "verity/tree/verify.h"

#define BS 4096u

static char dir[64];

static char *path_of(const char *name)
{
	return unit_path(dir, "/tmp/fv-format.XXXXXX", name);
}

/* blocks of data at path (extra bytes after them). */
static void data_file(const char *path, unsigned blocks, unsigned extra)
{
	size_t n = (size_t)blocks * BS + extra;
	uint8_t *b = malloc(n ? n : 1);
	FILE *f = fopen(path, "wb");

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 13 + i / BS);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
	free(b);
}

static void pair_of(struct verity_pair *p, const char *data, const char *hash)
{
	memset(p, 0, sizeof(*p));
	verity_params_default(&p->params);
	p->params.salt_size = 3;
	memcpy(p->params.salt, "abc", 3);
	p->data.path = data;
	p->hash.path = hash;
}

/* p verified against its root (every block fine). */
static void verified(struct verity_pair *p)
{
	struct verity_pair v = *p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err = {0};

	ck_assert_msg(verity_tree_verify(&v, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_uint_eq(out.res.bad_data_blocks + out.res.bad_hash_blocks, 0);
}

START_TEST(whole)
{
	char *data = path_of("data"), *hash[2] = {path_of("h1"), path_of("h3")};
	uint8_t *img[2];
	size_t len[2];
	struct verity_params sb;
	struct ht_error err = {0};

	data_file(data, 200, 0);
	for (int k = 0; k < 2; k++) {
		struct verity_pair p;
		struct verity_run run = {.ht = {.threads = k ? 3 : 1}};
		struct verity_outcome out;

		pair_of(&p, data, hash[k]);
		ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
			      ht_msg(&err));
		ck_assert_uint_eq(p.params.data_blocks, 200);
		ck_assert_uint_eq(p.root_size, 32);
		ck_assert_mem_eq(p.root, out.root, 32);
		ck_assert_uint_eq(out.layout.geo.tree_blocks, 3);
		ck_assert_uint_eq(out.layout.hash_end, 4 * BS);
		verified(&p);
		img[k] = unit_slurp(hash[k], &len[k]);
	}
	ck_assert_uint_eq(len[0], 4 * BS);
	ck_assert_uint_eq(len[1], len[0]);
	ck_assert_mem_eq(img[0], img[1], len[0]);
	/* the superblock says the pair's parameters; zeros to the tree */
	verity_params_default(&sb);
	ck_assert_msg(verity_sb_decode(img[0], &sb, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(sb.data_blocks, 200);
	ck_assert_uint_eq(sb.salt_size, 3);
	ck_assert_mem_eq(sb.salt, "abc", 3);
	for (size_t i = VERITY_SB_SIZE; i < BS; i++)
		ck_assert_uint_eq(img[0][i], 0);
	for (int k = 0; k < 2; k++) {
		free(img[k]);
		unlink(hash[k]);
		free(hash[k]);
	}
	unlink(data);
	free(data);
}
END_TEST

START_TEST(no_superblock)
{
	char *data = path_of("data"), *hash = path_of("hash");
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *img;
	size_t len;

	data_file(data, 200, 0);
	pair_of(&p, data, hash);
	p.params.no_superblock = 1;
	p.params.hash_offset = 2 * BS;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(out.layout.tree_offset, 2 * BS);
	verified(&p);
	img = unit_slurp(hash, &len);
	ck_assert_uint_eq(len, 5 * BS);
	/* nothing before the tree; the top's first digest after */
	for (size_t i = 0; i < 2 * BS; i++)
		ck_assert_uint_eq(img[i], 0);
	ck_assert_mem_ne(img + 2 * BS, (uint8_t[32]){0}, 32);
	free(img);
	unlink(hash);
	unlink(data);
	free(hash);
	free(data);
}
END_TEST

/* One data block: its digest is the root, the hash image the superblock
 * alone (4096 bytes). */
START_TEST(one_block)
{
	char *data = path_of("data"), *hash = path_of("hash");
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b, *msg, want[32];
	size_t len;

	data_file(data, 1, 0);
	pair_of(&p, data, hash);
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(out.layout.geo.tree_blocks, 0);
	b = unit_slurp(data, &len);
	msg = malloc(3 + BS);
	memcpy(msg, "abc", 3);
	memcpy(msg + 3, b, BS);
	ht_sha256(msg, 3 + BS, want);
	ck_assert_mem_eq(p.root, want, 32);
	free(msg);
	free(b);
	b = unit_slurp(hash, &len);
	ck_assert_uint_eq(len, BS);
	free(b);
	unlink(hash);
	unlink(data);
	free(hash);
	free(data);
}
END_TEST

/* The hash area behind the data in the same file, written in place:
 * the data untouched, the superblock (not the unfinished marker) at the
 * hash offset once done. */
START_TEST(in_place)
{
	char *img = path_of("img");
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *before, *after;
	size_t n0, n1;

	data_file(img, 100, 0);
	ck_assert_int_eq(truncate(img, 110 * BS), 0);
	before = unit_slurp(img, &n0);
	pair_of(&p, img, img);
	p.params.data_blocks = 100;
	p.params.hash_offset = 100 * BS;
	p.data.length = 100 * BS;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	verified(&p);
	after = unit_slurp(img, &n1);
	ck_assert_uint_eq(n1, n0);
	ck_assert_mem_eq(after, before, 100 * BS);
	ck_assert_mem_eq(after + 100 * BS, "verity\0\0", 8);
	free(before);
	free(after);
	unlink(img);
	free(img);
}
END_TEST

/* Parity in a file of its own, of the layout's size. */
START_TEST(parity)
{
	char *data = path_of("data"), *hash = path_of("hash"),
	     *fec = path_of("fec");
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome out;
	struct ht_error err = {0};
	struct stat st;

	data_file(data, 64, 0);
	pair_of(&p, data, hash);
	p.fec.region.path = fec;
	p.fec.roots = 2;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(out.layout.fec.roots, 2);
	ck_assert_uint_gt(out.layout.fec.parity_bytes, 0);
	ck_assert_int_eq(stat(fec, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_size, out.layout.fec.parity_bytes);
	unlink(fec);
	unlink(hash);
	unlink(data);
	free(fec);
	free(hash);
	free(data);
}
END_TEST

/* Data that is not whole blocks, taken whole: refused, no hash image
 * made; a data file that is not there: refused. */
START_TEST(refused)
{
	char *data = path_of("data"), *hash = path_of("hash");
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err = {0};

	data_file(data, 10, 100);
	pair_of(&p, data, hash);
	ck_assert_int_lt(verity_format(&p, &run, &out, &err), 0);
	ck_assert_int_ne(access(hash, F_OK), 0);
	/* the blocks given: the tail is not data */
	pair_of(&p, data, hash);
	p.params.data_blocks = 10;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	unlink(hash);
	/* more blocks than there are */
	pair_of(&p, data, hash);
	p.params.data_blocks = 11;
	ck_assert_int_lt(verity_format(&p, &run, &out, &err), 0);
	ck_assert_int_ne(access(hash, F_OK), 0);
	unlink(data);
	pair_of(&p, data, hash);
	ck_assert_int_lt(verity_format(&p, &run, &out, &err), 0);
	ck_assert_int_ne(access(hash, F_OK), 0);
	free(hash);
	free(data);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "format"};

	return run_unit(&u, UNIT_TESTS(whole, no_superblock, one_block,
				       in_place, parity, refused));
}
