/* verity/tree/update_parity.c: update's parity with the changed ranges
 * given (the rounds a changed data block reaches encoded while the old
 * tree is proven, and held; rounds whose only change is a tree block
 * made from their stored parity and that block's change): byte for byte
 * the parity of a format of the changed data, in a file of its own or
 * after the tree, on one or three threads; a range given that changed
 * nothing rewrites nothing; a range past the data, and an old tree that
 * does not prove, refused with nothing written. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/tree/format.h"
#include "verity/tree/update.h"

#define BLOCKS 1000u
#define BS     4096u

static char dir[64];
static uint8_t *old_img;

static char *path_of(const char *name)
{
	return unit_path(dir, "/tmp/fv-upar.XXXXXX", name);
}

static void spill(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void copy(const char *from, const char *to)
{
	size_t n;
	uint8_t *b = unit_slurp(from, &n);

	spill(to, b, n);
	free(b);
}

static int same(const char *a, const char *b)
{
	size_t la, lb;
	uint8_t *x = unit_slurp(a, &la), *y = unit_slurp(b, &lb);
	int r = la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return r;
}

static void pair_of(struct verity_pair *p, const char *data, const char *hash,
		    const char *fec)
{
	memset(p, 0, sizeof(*p));
	verity_params_default(&p->params);
	p->params.salt_size = 4;
	memcpy(p->params.salt, "upar", 4);
	memset(p->params.uuid, 0x11, sizeof(p->params.uuid));
	p->params.data_blocks = BLOCKS;
	p->data.path = data;
	p->hash.path = hash;
	p->fec.roots = 2;
	p->fec.region.path = fec ? fec : hash;
	if (!fec)
		p->fec.offset = 16 * BS;
}

static void format_to(const char *data, const char *hash, const char *fec,
		      uint8_t *root)
{
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_pair p;
	struct verity_outcome out;
	struct ht_error err = {0};

	pair_of(&p, data, hash, fec);
	unlink(hash);
	if (fec)
		unlink(fec);
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	memcpy(root, out.root, 32);
}

static void usetup(void)
{
	old_img = malloc((size_t)BLOCKS * BS);
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		old_img[i] = (uint8_t)(i * 2654435761u >> 13);
}

static void uteardown(void)
{
	char cmd[96];

	free(old_img);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* blocks (n of them) changed, updated with their ranges given: the tree
 * and parity equal a format's; *rounds: the parity rounds written. */
static void changed(int own_fec, unsigned threads, const unsigned *blocks,
		    size_t n, int really, uint64_t *rounds)
{
	char *data = path_of("data"), *h0 = path_of("h0"), *f0 = path_of("f0");
	char *h = path_of("h"), *f = path_of("f");
	char *href = path_of("href"), *fref = path_of("fref");
	uint8_t *img = malloc((size_t)BLOCKS * BS), root0[32], rootref[32];
	struct verity_range ranges[8];
	struct verity_run run = {.ht = {.threads = threads}};
	struct verity_update_result res;
	struct verity_pair p;
	struct ht_error err = {0};

	memcpy(img, old_img, (size_t)BLOCKS * BS);
	spill(data, img, (size_t)BLOCKS * BS);
	format_to(data, h0, own_fec ? f0 : NULL, root0);
	for (size_t i = 0; i < n; i++) {
		if (really)
			for (size_t b = 0; b < BS; b += 7)
				img[(size_t)blocks[i] * BS + b] ^=
					(uint8_t)(b + i + 1);
		ranges[i] = (struct verity_range){(uint64_t)blocks[i] * BS + 10,
						  100};
	}
	spill(data, img, (size_t)BLOCKS * BS);
	format_to(data, href, own_fec ? fref : NULL, rootref);
	copy(h0, h);
	if (own_fec)
		copy(f0, f);
	pair_of(&p, data, h, own_fec ? f : NULL);
	memcpy(p.root, root0, 32);
	p.root_size = 32;
	ck_assert_msg(verity_update(&p, ranges, n, &run, &res, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_mem_eq(res.root, rootref, 32);
	ck_assert_msg(same(h, href), "hash images differ (%u threads)",
		      threads);
	if (own_fec)
		ck_assert_msg(same(f, fref), "parity differs (%u threads)",
			      threads);
	*rounds = res.parity_rounds;
	free(img);
	free(data);
	free(h0);
	free(f0);
	free(h);
	free(f);
	free(href);
	free(fref);
}

START_TEST(ranges_given)
{
	static const unsigned one[] = {17}, spread[] = {0, 250, 251, 999};
	uint64_t rounds;

	for (unsigned t = 1; t <= 3; t += 2) {
		changed(1, t, one, 1, 1, &rounds);
		ck_assert_uint_gt(rounds, 0);
		changed(1, t, spread, 4, 1, &rounds);
		changed(0, t, spread, 4, 1, &rounds);
	}
}
END_TEST

/* The ranges name blocks whose bytes are the same: what is written again
 * (the given ranges' rounds are encoded as they are given) is the same
 * bytes, on one thread or three. */
START_TEST(nothing_changed)
{
	static const unsigned some[] = {5, 600};
	uint64_t rounds;

	changed(1, 1, some, 2, 0, &rounds);
	changed(1, 3, some, 2, 0, &rounds);
	changed(0, 2, some, 2, 0, &rounds);
}
END_TEST

START_TEST(refused)
{
	char *data = path_of("data"), *h = path_of("h"), *f = path_of("f");
	char *h1 = path_of("h1"), *f1 = path_of("f1");
	struct verity_range past = {(uint64_t)BLOCKS * BS, 1}, ok = {0, 1};
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_update_result res;
	struct verity_pair p;
	struct ht_error err = {0};
	uint8_t root[32];

	spill(data, old_img, (size_t)BLOCKS * BS);
	format_to(data, h, f, root);
	copy(h, h1);
	copy(f, f1);
	pair_of(&p, data, h, f);
	memcpy(p.root, root, 32);
	p.root_size = 32;
	ck_assert_int_eq(verity_update(&p, &past, 1, &run, &res, &err),
			 -EINVAL);
	ck_assert(same(h, h1));
	ck_assert(same(f, f1));
	/* the old tree does not prove: a level-0 block changed */
	{
		FILE *fp = fopen(h, "r+b");
		uint8_t x = 0x77;

		fseek(fp, (long)(BS + 3 * BS + 9), SEEK_SET);
		fwrite(&x, 1, 1, fp);
		fclose(fp);
		copy(h, h1);
	}
	pair_of(&p, data, h, f);
	memcpy(p.root, root, 32);
	p.root_size = 32;
	ck_assert_int_eq(verity_update(&p, &ok, 1, &run, &res, &err), -EPERM);
	ck_assert(same(h, h1));
	ck_assert(same(f, f1));
	free(data);
	free(h);
	free(f);
	free(h1);
	free(f1);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"update_parity", 0, usetup,
					    uteardown,       1, NULL};

	return run_unit(&u, UNIT_TESTS(ranges_given, nothing_changed, refused));
}
