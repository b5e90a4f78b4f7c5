/* update with the change found by hashing: byte for byte a format of the
 * changed data on every path it takes: the parity made from the verify's
 * reads or by a pass of its own, level 0 streamed through a buffer or
 * read into memory, on one to three threads, parity in a file of its own
 * or after the tree, no parity, and a change too small for either. */
#include <check.h>

#include "check_main.h"
#include "unit_files.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/fec/encode.h"
#include "verity/tree/format.h"
#include "verity/tree/update.h"

#define BLOCKS 3000
#define BS     4096

static uint64_t rng = 0x9e3779b97f4a7c15u;

/* xorshift64: no short period in its low bytes, as an LCG's has (a
 * changed block would repeat the old one) */
static uint8_t next_byte(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)(rng >> 32);
}

static char dir[64];

static char *path_of(const char *name)
{
	return unit_path(dir, "/tmp/fv-unit-update.XXXXXX", name);
}

static void spill(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void same_files(const char *a, const char *b, const char *what)
{
	size_t la, lb;
	uint8_t *x = unit_slurp(a, &la), *y = unit_slurp(b, &lb);

	ck_assert_msg(la == lb && memcmp(x, y, la) == 0, "%s differ", what);
	free(x);
	free(y);
}

/* The pair over data, hash and (roots) fec; fec NULL: after the tree. */
static void pair_of(struct verity_pair *pair, const char *data,
		    const char *hash, const char *fec, unsigned roots)
{
	memset(pair, 0, sizeof(*pair));
	verity_params_default(&pair->params);
	pair->params.salt_size = 5;
	memcpy(pair->params.salt, "salty", 5);
	memset(pair->params.uuid, 0x5a, sizeof(pair->params.uuid));
	pair->params.data_blocks = BLOCKS;
	pair->data.path = data;
	pair->hash.path = hash;
	if (roots) {
		pair->fec.roots = roots;
		pair->fec.region.path = fec ? fec : hash;
		/* on the hash image, a gap after the tree */
		if (!fec)
			pair->fec.offset = 32 * BS;
	}
}

static void format_to(const char *data, const char *hash, const char *fec,
		      unsigned roots, uint8_t root[HT_MAX_DIGEST_SIZE])
{
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_pair pair;
	struct verity_outcome out;
	struct ht_error err;

	pair_of(&pair, data, hash, fec, roots);
	unlink(hash);
	if (fec)
		unlink(fec);
	ck_assert_msg(verity_format(&pair, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	memcpy(root, out.root, HT_MAX_DIGEST_SIZE);
}

/* changed data blocks: every step-th from first (count of them) */
struct change {
	unsigned first, step, count;
};

/* One case: the old image formatted, the data changed, the old tree and
 * parity updated with the change found by hashing against a format of
 * the changed data. */
static void update_case(unsigned roots, int own_fec, unsigned threads,
			int hold_leaves, size_t fused_max, struct change ch)
{
	char *data = path_of("data"), *old = path_of("old");
	char *h0 = path_of("h0"), *f0 = path_of("f0");
	char *h = path_of("h"), *f = path_of("f");
	char *href = path_of("href"), *fref = path_of("fref");
	const char *fec0 = own_fec ? f0 : NULL, *fec = own_fec ? f : NULL;
	uint8_t root0[HT_MAX_DIGEST_SIZE], rootref[HT_MAX_DIGEST_SIZE];
	struct verity_run run = {.ht = {.threads = threads},
				 .tuning = {.fused_max_bytes = fused_max,
					    .update_hold_leaves = hold_leaves}};
	struct verity_update_result res;
	struct verity_pair pair;
	struct ht_error err;
	uint8_t *img;
	size_t len, hl;

	img = unit_slurp(old, &len);
	format_to(old, h0, fec0, roots, root0);
	for (unsigned i = 0; i < ch.count; i++)
		for (size_t b = 0; b < BS; b++)
			img[(size_t)(ch.first + i * ch.step) * BS + b] =
				next_byte();
	spill(data, img, len);
	format_to(data, href, fec0 ? fref : NULL, roots, rootref);
	/* the old tree and parity, to be updated */
	free(img);
	img = unit_slurp(h0, &hl);
	spill(h, img, hl);
	free(img);
	if (own_fec) {
		img = unit_slurp(f0, &hl);
		spill(f, img, hl);
		free(img);
	}
	pair_of(&pair, data, h, fec, roots);
	memcpy(pair.root, root0, sizeof(pair.root));
	pair.root_size = 32;
	ck_assert_msg(verity_update(&pair, NULL, 0, &run, &res, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_uint_eq(res.changed_blocks, ch.count);
	ck_assert_msg(memcmp(res.root, rootref, 32) == 0,
		      "roots %u, threads %u: another root", roots, threads);
	same_files(h, href, "hash images");
	if (own_fec)
		same_files(f, fref, "parity files");
	unlink(data);
	unlink(h0);
	unlink(f0);
	unlink(h);
	unlink(f);
	unlink(href);
	unlink(fref);
	free(data);
	free(old);
	free(h0);
	free(f0);
	free(h);
	free(f);
	free(href);
	free(fref);
}

START_TEST(found_by_hashing_equals_format)
{
	char *old = path_of("old");
	uint8_t *img = malloc((size_t)BLOCKS * BS);
	/* most rounds: the parity made again whole; a few: round by round */
	const struct change many = {1, 5, 599}, few = {7, 1000, 3};

	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		img[i] = next_byte();
	spill(old, img, (size_t)BLOCKS * BS);
	free(img);
	for (unsigned t = 1; t <= 3; t++) {
		/* the parity from the verify's reads, level 0 streamed */
		update_case(2, 1, t, 0, 0, many);
		/* ... level 0 read into memory */
		update_case(2, 1, t, 1, 0, many);
		/* the parity by a pass of its own (planes never fit) */
		update_case(2, 1, t, 0, 1, many);
	}
	/* roots past the verify's: its own pass */
	update_case(24, 1, 2, 0, 0, many);
	/* the parity after the tree, on the hash image */
	update_case(2, 0, 2, 0, 0, many);
	/* no parity, streamed */
	update_case(0, 0, 2, 0, 0, many);
	/* a few blocks: neither */
	update_case(2, 1, 2, 0, 0, few);
	update_case(0, 0, 1, 0, 0, few);
	update_case(0, 0, 1, 1, 0, few);
	unlink(old);
	free(old);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "update", .timeout = 60};
	int r = run_unit(&u, UNIT_TESTS(found_by_hashing_equals_format));

	rmdir(dir);
	return r;
}
