/* verity/fec/encode.c: the parity made along the tree's pass equals the
 * parity's own pass. */
#include <check.h>
#include <errno.h>
#include "check_main.h"
#include "unit_files.h"
#include <fec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "verity/fec/encode.h"
#include "verity/fec/layout.h"
#include "verity/tree/format.h"

static uint32_t rng = 12345;

static uint8_t next_byte(void)
{
	rng = rng * 1103515245u + 12345u;
	return (uint8_t)(rng >> 16);
}

/* --- parity built with the tree (fused) == parity of its own pass ----- */

static char dir[64];

static char *tmp_path(const char *name)
{
	return unit_path(dir, "/tmp/fv-unit-fec.XXXXXX", name);
}

/* Formats data with FEC fused (forced) and with a pass of its own
 * (forced); the hash and FEC files must be equal byte for byte. */
static void fused_equals_pass(const char *data, uint64_t blocks, unsigned roots,
			      unsigned threads, int on_hash, int no_sb)
{
	char *h[2] = {tmp_path("h0"), tmp_path("h1")};
	char *fe[2] = {tmp_path("f0"), tmp_path("f1")};
	uint8_t *img[2], *par[2];
	size_t ilen[2], plen[2];
	struct verity_layout l[2];
	struct ht_error err;

	for (int k = 0; k < 2; k++) {
		struct verity_pair pair;
		struct verity_outcome out;
		/* fused forced (k 0), or a pass of its own (k 1: planes of
		 * at most one byte never fit) */
		struct verity_run run = {
			.ht = {.threads = threads},
			.tuning = {k ? 1 : (size_t)1 << 30, FEC_MAX_ROOTS}};

		memset(&pair, 0, sizeof(pair));
		verity_params_default(&pair.params);
		pair.params.salt_size = 5;
		memcpy(pair.params.salt, "salty", 5);
		pair.params.no_superblock = no_sb;
		pair.params.data_blocks = blocks;
		pair.data.path = data;
		pair.hash.path = h[k];
		pair.fec.region.path = on_hash ? h[k] : fe[k];
		pair.fec.roots = roots;
		/* parity after the tree with a gap of two blocks */
		if (on_hash)
			pair.fec.offset = 64 * 4096;
		unlink(h[k]);
		unlink(fe[k]);
		ck_assert_msg(verity_format(&pair, &run, &out, &err) == 0, "%s",
			      ht_msg(&err));
		l[k] = out.layout;
		img[k] = unit_slurp(h[k], &ilen[k]);
		par[k] = on_hash ? NULL : unit_slurp(fe[k], &plen[k]);
	}
	ck_assert_uint_eq(ilen[0], ilen[1]);
	ck_assert_msg(memcmp(img[0], img[1], ilen[0]) == 0,
		      "hash files differ: %llu blocks, %u roots, %u threads",
		      (unsigned long long)blocks, roots, threads);
	if (!on_hash) {
		ck_assert_uint_eq(plen[0], plen[1]);
		ck_assert_msg(memcmp(par[0], par[1], plen[0]) == 0,
			      "FEC files differ: %llu blocks, %u roots, %u "
			      "threads",
			      (unsigned long long)blocks, roots, threads);
	}
	ck_assert_uint_eq(l[0].fec.rounds, l[1].fec.rounds);
	for (int k = 0; k < 2; k++) {
		free(img[k]);
		free(par[k]);
		unlink(h[k]);
		unlink(fe[k]);
		free(h[k]);
		free(fe[k]);
	}
}

START_TEST(fused_parity_equals_own_pass)
{
	/* sizes around round and chunk edges: 1 round, a partial last
	 * round, many rounds per chunk */
	static const uint64_t sizes[] = {2, 253, 300, 1000, 5000};
	char *data = tmp_path("data");
	FILE *f = fopen(data, "wb");

	ck_assert_ptr_nonnull(f);
	for (size_t b = 0; b < 5000; b++) {
		uint8_t block[4096];

		for (size_t i = 0; i < sizeof(block); i++)
			block[i] = next_byte();
		ck_assert_uint_eq(fwrite(block, 1, sizeof(block), f),
				  sizeof(block));
	}
	fclose(f);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (unsigned roots = 2; roots <= 24; roots += 11)
			for (unsigned t = 1; t <= 3; t++)
				fused_equals_pass(data, sizes[s], roots, t, 0,
						  s & 1);
	fused_equals_pass(data, 1000, 2, 2, 1, 0);
	fused_equals_pass(data, 300, 7, 3, 1, 1);
	unlink(data);
	free(data);
	/* the suite's directory too (the test may run in a child: its
	 * name is known only here) */
	rmdir(dir);
	dir[0] = '\0';
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "fec_encode", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(fused_parity_equals_own_pass));
}
