/* Verity pairs of regions: data, tree and parity at offsets inside one
 * image file (as an Android image keeps them) give the same bytes as
 * whole files, verify and repair there, and regions that share bytes or
 * lie past the end are refused. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/fec/repair.h"
#include "verity/ops/ops.h"

#define BS      4096u
#define BLOCKS  300u
#define DATA_AT (3 * BS)             /* data region: after 3 blocks */
#define HASH_AT (DATA_AT + 310 * BS) /* tree: after the data and a gap */
#define TREE    (4 * BS)             /* 300 blocks: 3 leaves and a top */
#define FEC_AT  (HASH_AT + 16 * BS)  /* parity: after a gap */
#define IMAGE   (FEC_AT + 40 * BS)

static char dir[64], image[96], data[96], hash[96], fec[96];
static uint8_t *bytes;

static const uint8_t salt[4] = {1, 2, 3, 4};

static void setup(void)
{
	FILE *f;

	strcpy(dir, "/tmp/fv-pair-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(image, sizeof(image), "%s/image", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(hash, sizeof(hash), "%s/hash", dir);
	snprintf(fec, sizeof(fec), "%s/fec", dir);
	bytes = malloc((size_t)BLOCKS * BS);
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		bytes[i] = (uint8_t)(i * 7 + i / 4099);
	/* the data alone, and inside an image of junk */
	f = fopen(data, "wb");
	ck_assert_uint_eq(fwrite(bytes, 1, (size_t)BLOCKS * BS, f),
			  (size_t)BLOCKS * BS);
	fclose(f);
	f = fopen(image, "wb");
	for (size_t i = 0; i < IMAGE; i++)
		fputc(0x5a, f);
	fseek(f, DATA_AT, SEEK_SET);
	ck_assert_uint_eq(fwrite(bytes, 1, (size_t)BLOCKS * BS, f),
			  (size_t)BLOCKS * BS);
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(bytes);
}

static void pair_init(struct verity_pair *p)
{
	memset(p, 0, sizeof(*p));
	verity_params_default(&p->params);
	memcpy(p->params.salt, salt, sizeof(salt));
	p->params.salt_size = sizeof(salt);
	p->params.no_superblock = 1;
}

/* The pair of the image's regions. */
static void image_pair(struct verity_pair *p)
{
	pair_init(p);
	p->data = (struct verity_region){image, DATA_AT, (uint64_t)BLOCKS * BS,
					 NULL};
	/* the parity covers the hash region whole: the tree, exactly */
	p->hash = (struct verity_region){image, HASH_AT, TREE, NULL};
	/* 304 covered blocks, 2 rounds of 2 roots: 4 blocks of parity */
	p->fec.region = (struct verity_region){image, FEC_AT, 4 * BS, NULL};
	p->fec.roots = 2;
}

static uint8_t *slurp(const char *path, off_t at, size_t len)
{
	uint8_t *b = malloc(len);
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, b, len, at), (ssize_t)len);
	close(fd);
	return b;
}

static void poke(const char *path, off_t at)
{
	int fd = open(path, O_RDWR);
	uint8_t c;

	ck_assert_int_eq(pread(fd, &c, 1, at), 1);
	c ^= 0xa5;
	ck_assert_int_eq(pwrite(fd, &c, 1, at), 1);
	close(fd);
}

START_TEST(regions_give_the_bytes_of_whole_files)
{
	struct verity_pair whole, in_image;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome a, b;
	struct ht_error err;
	uint8_t *t1, *t2, *f1, *f2;
	size_t tree_bytes, parity_bytes;

	pair_init(&whole);
	whole.data.path = data;
	whole.hash.path = hash;
	whole.fec.region.path = fec;
	whole.fec.roots = 2;
	ck_assert_msg(verity_op_format(&whole, &run, &a, &err) == 0, "%s",
		      ht_msg(&err));
	image_pair(&in_image);
	ck_assert_msg(verity_op_format(&in_image, &run, &b, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert(!memcmp(a.root, b.root, 32));
	tree_bytes = (size_t)a.layout.hash_end;
	parity_bytes = (size_t)a.layout.fec.parity_bytes;
	t1 = slurp(hash, 0, tree_bytes);
	t2 = slurp(image, HASH_AT, tree_bytes);
	f1 = slurp(fec, 0, parity_bytes);
	f2 = slurp(image, FEC_AT, parity_bytes);
	ck_assert(!memcmp(t1, t2, tree_bytes));
	ck_assert(!memcmp(f1, f2, parity_bytes));
	free(t1);
	free(t2);
	free(f1);
	free(f2);
	/* the bytes around the regions were not touched */
	t1 = slurp(image, 0, DATA_AT);
	for (size_t i = 0; i < DATA_AT; i++)
		ck_assert_uint_eq(t1[i], 0x5a);
	free(t1);
}
END_TEST

struct seen {
	uint64_t position[8];
	int n;
};

static void on_failure(void *c, const struct verity_failure *f)
{
	struct seen *s = c;

	if (s->n < 8)
		s->position[s->n++] = f->position;
}

START_TEST(verify_and_repair_inside_an_image)
{
	struct verity_pair p;
	struct seen s = {{0}, 0};
	struct verity_run run = {
		.ht = {.threads = 2}, .report = on_failure, .ctx = &s};
	struct verity_outcome out;
	struct ht_error err;
	uint8_t root[32], *after;

	image_pair(&p);
	ck_assert(verity_op_format(&p, &run, &out, &err) == 0);
	memcpy(root, out.root, 32);
	/* data block 9 of the region damaged */
	poke(image, DATA_AT + 9 * BS + 17);
	image_pair(&p);
	memcpy(p.root, root, 32);
	p.root_size = 32;
	ck_assert_msg(verity_op_verify(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(out.res.bad_data_blocks, 1);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(s.position[0], 9 * BS); /* in the region */
	ck_assert_uint_eq(out.fec.repaired, 1);   /* the parity can */
	run.report = NULL;
	ck_assert_int_eq(verity_op_repair(&p, &run, &out, &err), 0);
	ck_assert_uint_eq(out.fec.repaired, 1);
	after = slurp(image, DATA_AT, (size_t)BLOCKS * BS);
	ck_assert(!memcmp(after, bytes, (size_t)BLOCKS * BS));
	free(after);
}
END_TEST

START_TEST(regions_that_share_bytes_or_overrun_are_refused)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err;

	/* the tree over the data's last blocks */
	image_pair(&p);
	p.hash.offset = DATA_AT + 290 * BS;
	ck_assert_int_eq(verity_op_format(&p, &run, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "overlaps the data area"));
	/* the parity over the tree */
	image_pair(&p);
	p.fec.region.offset = HASH_AT + BS;
	ck_assert_int_eq(verity_op_format(&p, &run, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "overlaps the hash area"));
	/* a data region past the end of the image */
	image_pair(&p);
	p.data.offset = IMAGE - BS;
	ck_assert_int_eq(verity_op_format(&p, &run, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "lies past its end"));
	/* a tree region too small for the tree */
	image_pair(&p);
	p.hash.length = BS;
	ck_assert_int_eq(verity_op_format(&p, &run, &out, &err), -ENOSPC);
	/* nothing of the image was written */
	{
		uint8_t *t = slurp(image, HASH_AT, TREE);

		for (size_t i = 0; i < TREE; i++)
			ck_assert_uint_eq(t[i], 0x5a);
		free(t);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "pair",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(
		&u,
		UNIT_TESTS(regions_give_the_bytes_of_whole_files,
			   verify_and_repair_inside_an_image,
			   regions_that_share_bytes_or_overrun_are_refused));
}
