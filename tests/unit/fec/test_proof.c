/* verity/fec/proof.c: proofs of covered blocks against the root, on a
 * pair formatted here (300 data blocks, a tree of four blocks, one more
 * covered hash block after it): a data block and a tree block prove as
 * read; a changed one does not, nor one under a changed tree block
 * (whose proof reads the tree now); a dry run's rebuilt tree block
 * proves what is under it; a block past the tree proves nothing and
 * passes; the parents of covered blocks; proven blocks forgotten on
 * reset. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fec/proof.h"
#include "verity/tree/format.h"

#define BS     4096u
#define BLOCKS 300u

static char dir[64];
static char *data_path, *hash_path;
static struct verity_layout lay;
static uint8_t root[HT_MAX_DIGEST_SIZE];

static void setup(void)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b = malloc(BLOCKS * BS);
	FILE *f;

	data_path = unit_path(dir, "/tmp/fv-proof.XXXXXX", "data");
	hash_path = unit_path(dir, "/tmp/fv-proof.XXXXXX", "hash");
	for (size_t i = 0; i < BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 3 + i / BS);
	f = fopen(data_path, "wb");
	ck_assert_uint_eq(fwrite(b, 1, BLOCKS * BS, f), BLOCKS * BS);
	fclose(f);
	free(b);
	memset(&p, 0, sizeof(p));
	verity_params_default(&p.params);
	p.data.path = data_path;
	p.hash.path = hash_path;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	lay = out.layout;
	ck_assert_uint_eq(lay.geo.tree_blocks, 4);
	memcpy(root, p.root, sizeof(root));
	/* one covered block past the tree */
	ck_assert_int_eq(truncate(hash_path, (off_t)lay.hash_end + BS), 0);
}

static void teardown(void)
{
	unlink(data_path);
	unlink(hash_path);
	rmdir(dir);
	free(data_path);
	free(hash_path);
}

struct bench {
	struct verity_device data, hash;
	struct verity_fec_layout fl;
	struct fec_source src;
	struct ht_hasher h;
	struct fec_proof p;
};

static void open_bench(struct bench *b, const struct fec_overlay *ov)
{
	static const uint8_t nosalt[1];
	struct ht_error err = {0};

	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(
		verity_device_open(&b->data, data_path, VERITY_OPEN_READ, &err),
		0);
	ck_assert_int_eq(
		verity_device_open(&b->hash, hash_path, VERITY_OPEN_READ, &err),
		0);
	b->fl.block_size = BS;
	b->fl.data_blocks = BLOCKS;
	b->fl.hash_start_block = lay.tree_offset / BS;
	b->fl.hash_blocks = lay.geo.tree_blocks + 1;
	b->fl.blocks = BLOCKS + b->fl.hash_blocks;
	b->src = (struct fec_source){&b->data, &b->hash, NULL, &b->fl, ov};
	ck_assert_int_eq(ht_hasher_init(&b->h, "sha256", 1, nosalt, 0, &err),
			 0);
	ck_assert_int_eq(verity_fec_proof_init(&b->p, &lay.geo, &b->h, &b->src,
					       root, &err),
			 0);
}

static void close_bench(struct bench *b)
{
	verity_fec_proof_free(&b->p);
	ck_assert_ptr_null(b->p.cache);
	verity_fec_proof_free(&b->p);
	ht_hasher_free(&b->h);
	verity_device_close(&b->data);
	verity_device_close(&b->hash);
}

/* Covered block c as read now. */
static void covered(struct bench *b, uint64_t c, uint8_t *buf)
{
	struct ht_error err = {0};

	ck_assert_int_eq(verity_fec_read_covered(&b->src, c, 1, buf, &err), 0);
}

START_TEST(proven)
{
	static struct bench b;
	struct ht_error err = {0};
	uint8_t buf[BS];

	open_bench(&b, NULL);
	for (uint64_t c = 0; c < BLOCKS + 5; c += (c < 5 || c > 296 ? 1 : 37)) {
		covered(&b, c, buf);
		ck_assert_msg(verity_fec_proof_check(&b.p, c, buf, &err) == 1,
			      "covered block %llu", (unsigned long long)c);
	}
	/* changed: not proven, each level */
	covered(&b, 130, buf);
	buf[9] ^= 1;
	ck_assert_int_eq(verity_fec_proof_check(&b.p, 130, buf, &err), 0);
	covered(&b, BLOCKS, buf); /* the top */
	buf[BS - 1] ^= 1;
	ck_assert_int_eq(verity_fec_proof_check(&b.p, BLOCKS, buf, &err), 0);
	covered(&b, BLOCKS + 2, buf); /* level 0's second */
	buf[0] ^= 1;
	ck_assert_int_eq(verity_fec_proof_check(&b.p, BLOCKS + 2, buf, &err),
			 0);
	/* past the tree: no digest proves it; it passes whatever it holds */
	memset(buf, 0x99, BS);
	ck_assert_int_eq(verity_fec_proof_check(&b.p, BLOCKS + 4, buf, &err),
			 1);
	close_bench(&b);
}
END_TEST

START_TEST(parents)
{
	static struct bench b;
	uint64_t parent;
	size_t slot;

	open_bench(&b, NULL);
	/* data block 130: level 0's second block (tree block 2), slot 2 */
	ck_assert_int_eq(verity_fec_proof_parent(&b.p, 130, &parent, &slot), 0);
	ck_assert_uint_eq(parent, 2);
	ck_assert_uint_eq(slot, 2 * 32);
	/* level 0's third block (tree block 3): in the top, slot 2 */
	ck_assert_int_eq(
		verity_fec_proof_parent(&b.p, BLOCKS + 3, &parent, &slot), 0);
	ck_assert_uint_eq(parent, 0);
	ck_assert_uint_eq(slot, 2 * 32);
	/* the top: the root */
	ck_assert_int_eq(verity_fec_proof_parent(&b.p, BLOCKS, &parent, &slot),
			 1);
	/* past the tree: none */
	ck_assert_int_eq(
		verity_fec_proof_parent(&b.p, BLOCKS + 4, &parent, &slot), -1);
	close_bench(&b);
}
END_TEST

/* A tree block changed on disk: the data under it does not prove, even
 * after a block of another level was proven; a dry run's rebuilt copy of
 * it in the overlay, once the proven blocks are forgotten, does. */
START_TEST(through_tree)
{
	static struct bench b;
	struct fec_overlay ov = {0};
	struct ht_error err = {0};
	uint8_t buf[BS], good[BS];
	const uint64_t at = lay.tree_offset + 1 * BS + 64; /* tree block 1 */
	FILE *f;
	int c;

	open_bench(&b, &ov);
	covered(&b, BLOCKS + 1, good);
	/* proven once, kept: the data block under it proves */
	covered(&b, 3, buf);
	ck_assert_int_eq(verity_fec_proof_check(&b.p, 3, buf, &err), 1);
	f = fopen(hash_path, "r+b");
	fseek(f, (long)at, SEEK_SET);
	c = fgetc(f);
	fseek(f, (long)at, SEEK_SET);
	fputc(c ^ 0xff, f);
	fclose(f);
	/* still proven from the cache */
	covered(&b, 4, buf);
	ck_assert_int_eq(verity_fec_proof_check(&b.p, 4, buf, &err), 1);
	/* forgotten: read again, and it no longer proves */
	verity_fec_proof_reset(&b.p);
	ck_assert_int_eq(verity_fec_proof_check(&b.p, 4, buf, &err), 0);
	/* the rebuilt block in the overlay: proves again */
	ck_assert_int_eq(
		verity_fec_overlay_add(&ov, BLOCKS + 1, good, BS, &err), 0);
	verity_fec_proof_reset(&b.p);
	ck_assert_int_eq(verity_fec_proof_check(&b.p, 4, buf, &err), 1);
	/* data under another level-0 block is not affected */
	covered(&b, 200, buf);
	ck_assert_int_eq(verity_fec_proof_check(&b.p, 200, buf, &err), 1);
	f = fopen(hash_path, "r+b");
	fseek(f, (long)at, SEEK_SET);
	fputc(c, f);
	fclose(f);
	verity_fec_overlay_free(&ov);
	close_bench(&b);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"fec_proof", 0, setup,
					    teardown,    1, NULL};

	return run_unit(&u, UNIT_TESTS(proven, parents, through_tree));
}
