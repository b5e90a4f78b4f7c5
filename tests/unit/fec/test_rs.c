/* FEC: the ISA-L parity against libfec's encoder for every roots value,
 * erasure and error decoding, and the layout formulas. */
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

/* Codeword x of len: message symbol i = src[i][x]. */
static void random_columns(uint8_t **src, unsigned rsn, size_t len)
{
	for (unsigned i = 0; i < rsn; i++)
		for (size_t x = 0; x < len; x++)
			src[i][x] = next_byte();
}

START_TEST(parity_matches_libfec_every_roots)
{
	enum { LEN = 97 };
	for (unsigned roots = FEC_MIN_ROOTS; roots <= FEC_MAX_ROOTS; roots++) {
		struct fec_rs rs;
		uint8_t *src[FEC_RS_N], *par[FEC_MAX_ROOTS];
		uint8_t msg[FEC_RS_N], want[FEC_MAX_ROOTS];
		void *karn = init_rs_char(8, 0x11d, 0, 1, (int)roots, 0);

		/* the encoder as format and update make it (its generator
		 * the library's own, libfec not opened) */
		ck_assert_int_eq(verity_fec_rs_init_encoder(&rs, roots, NULL),
				 0);
		ck_assert_ptr_null(rs.karn);
		ck_assert_uint_eq(rs.rsn, 255 - roots);
		for (unsigned i = 0; i < rs.rsn; i++)
			src[i] = malloc(LEN);
		for (unsigned j = 0; j < roots; j++)
			par[j] = malloc(LEN);
		random_columns(src, rs.rsn, LEN);
		verity_fec_rs_encode(&rs, LEN, src, par);
		for (size_t x = 0; x < LEN; x++) {
			for (unsigned i = 0; i < rs.rsn; i++)
				msg[i] = src[i][x];
			encode_rs_char(karn, msg, want);
			for (unsigned j = 0; j < roots; j++)
				ck_assert_uint_eq(par[j][x], want[j]);
		}
		for (unsigned i = 0; i < rs.rsn; i++)
			free(src[i]);
		for (unsigned j = 0; j < roots; j++)
			free(par[j]);
		free_rs_char(karn);
		verity_fec_rs_free(&rs);
	}
}
END_TEST

START_TEST(erasures_up_to_roots_are_rebuilt)
{
	enum { LEN = 64 };
	static const unsigned roots_list[] = {2, 3, 8, 24};

	for (size_t ri = 0; ri < 4; ri++) {
		unsigned roots = roots_list[ri];
		struct fec_rs rs;
		uint8_t *src[FEC_RS_N + FEC_MAX_ROOTS], *par[FEC_MAX_ROOTS];
		uint8_t *out[FEC_MAX_ROOTS];

		ck_assert_int_eq(verity_fec_rs_init(&rs, roots, NULL), 0);
		for (unsigned i = 0; i < rs.rsn; i++)
			src[i] = malloc(LEN);
		for (unsigned j = 0; j < roots; j++) {
			par[j] = malloc(LEN);
			out[j] = malloc(LEN);
		}
		random_columns(src, rs.rsn, LEN);
		verity_fec_rs_encode(&rs, LEN, src, par);
		for (unsigned ne = 1; ne <= roots; ne++) {
			struct fec_rs_erasure e;
			unsigned pos[FEC_MAX_ROOTS];

			/* spread out, first and last included */
			for (unsigned t = 0; t < ne; t++)
				pos[t] = ne == 1 ? rs.rsn - 1
						 : t * (rs.rsn - 1) / (ne - 1);
			ck_assert_int_eq(verity_fec_rs_erasure_init(
						 &rs, &e, pos, ne, NULL),
					 0);
			for (unsigned t = 0; t < ne; t++)
				src[rs.rsn + t] = par[e.rows[t]];
			verity_fec_rs_erasure_decode(&rs, &e, LEN, src, out);
			for (unsigned t = 0; t < ne; t++)
				ck_assert_mem_eq(out[t], src[pos[t]], LEN);
			verity_fec_rs_erasure_free(&e);
		}
		for (unsigned i = 0; i < rs.rsn; i++)
			free(src[i]);
		for (unsigned j = 0; j < roots; j++) {
			free(par[j]);
			free(out[j]);
		}
		verity_fec_rs_free(&rs);
	}
}
END_TEST

START_TEST(erasure_patterns_refused)
{
	struct fec_rs rs;
	struct fec_rs_erasure e;
	unsigned pos[3] = {5, 5, 9};

	ck_assert_int_eq(verity_fec_rs_init(&rs, 2, NULL), 0);
	ck_assert_int_eq(verity_fec_rs_erasure_init(&rs, &e, pos, 3, NULL),
			 -EINVAL);
	ck_assert_int_eq(verity_fec_rs_erasure_init(&rs, &e, pos, 2, NULL),
			 -EINVAL);
	pos[0] = 253;
	ck_assert_int_eq(verity_fec_rs_erasure_init(&rs, &e, pos, 1, NULL),
			 -EINVAL);
	verity_fec_rs_free(&rs);
	ck_assert_int_eq(verity_fec_rs_init(&rs, 1, NULL), -EINVAL);
	ck_assert_int_eq(verity_fec_rs_init(&rs, 25, NULL), -EINVAL);
}
END_TEST

START_TEST(errors_up_to_half_roots_are_corrected)
{
	struct fec_rs rs;
	uint8_t cw[FEC_RS_N], good[FEC_RS_N];
	uint8_t *src[FEC_RS_N], *par[FEC_MAX_ROOTS];
	int eras[2] = {3, 200};

	ck_assert_int_eq(verity_fec_rs_init(&rs, 8, NULL), 0);
	for (unsigned i = 0; i < rs.rsn; i++) {
		good[i] = next_byte();
		src[i] = &good[i];
	}
	for (unsigned j = 0; j < 8; j++)
		par[j] = &good[rs.rsn + j];
	verity_fec_rs_encode(&rs, 1, src, par);
	/* four unknown errors: roots / 2 */
	memcpy(cw, good, sizeof(cw));
	cw[0] ^= 1;
	cw[77] ^= 0xff;
	cw[246] ^= 0x10;
	cw[254] ^= 0x42;
	ck_assert_int_eq(verity_fec_rs_decode_codeword(&rs, cw, NULL, 0), 4);
	ck_assert_mem_eq(cw, good, sizeof(cw));
	/* two erasures and three errors: 2 + 2 * 3 = roots */
	memcpy(cw, good, sizeof(cw));
	cw[3] = 0;
	cw[200] = 0;
	cw[10] ^= 9;
	cw[11] ^= 9;
	cw[250] ^= 9;
	ck_assert_int_ge(verity_fec_rs_decode_codeword(&rs, cw, eras, 2), 0);
	ck_assert_mem_eq(cw, good, sizeof(cw));
	/* five unknown errors are too many */
	memcpy(cw, good, sizeof(cw));
	for (int k = 0; k < 5; k++)
		cw[k * 40] ^= 0x5a;
	/* beyond repair: libfec's negative count */
	ck_assert_int_lt(verity_fec_rs_decode_codeword(&rs, cw, NULL, 0), 0);
	verity_fec_rs_free(&rs);
}
END_TEST

/* The layout of 1000 4 KiB blocks with a superblock: the tree is 9
 * blocks from block 1 (veritysetup's numbers, FEC blocks 8 at 2 roots). */
static void sample(struct verity_params *p, struct verity_layout *l)
{
	verity_params_default(p);
	p->data_blocks = 1000;
	ck_assert_int_eq(verity_layout_compute(p, l, NULL), 0);
	ck_assert_uint_eq(l->hash_end, 40960);
}

START_TEST(layout_separate_device)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp = {.region = {"f", 0, 0}, .roots = 2};
	struct verity_fec_layout fl;

	sample(&p, &l);
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL), 0);
	ck_assert_uint_eq(fl.hash_start_block, 1);
	ck_assert_uint_eq(fl.hash_blocks, 9);
	ck_assert_uint_eq(fl.blocks, 1009);        /* 1000 + 40960 / 4096 - 1 */
	ck_assert_uint_eq(fl.rounds, 4);           /* ceil(1009 / 253) */
	ck_assert_uint_eq(fl.parity_bytes, 32768); /* 4 * 2 * 4096 */
	/* a larger hash device: all of it is covered */
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 1 << 20, 0, &fl, NULL),
		0);
	ck_assert_uint_eq(fl.blocks, 1000 + 256 - 1);
	fp.roots = 24;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL), 0);
	ck_assert_uint_eq(fl.rsn, 231);
	ck_assert_uint_eq(fl.rounds, 5);
	ck_assert_uint_eq(fl.parity_bytes, 5 * 24 * 4096);
}
END_TEST

START_TEST(layout_on_hash_device)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp = {
		.region = {"h", 0, 0}, .offset = 81920, .roots = 2};
	struct verity_fec_layout fl;

	sample(&p, &l);
	/* the covered area ends at the FEC offset */
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 0, 1, &fl, NULL), 0);
	ck_assert_uint_eq(fl.blocks, 1000 + 20 - 1);
	ck_assert_uint_eq(fl.offset, 81920);
	/* overlapping the tree, off the block grid */
	fp.offset = 36864;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 0, 1, &fl, NULL),
		-EINVAL);
	fp.offset = 40960 + 512;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 0, 1, &fl, NULL),
		-EINVAL);
}
END_TEST

START_TEST(layout_validates_before_dividing)
{
	struct verity_params p;
	struct verity_layout l;

	verity_params_default(&p);
	p.data_blocks = 10;
	p.hash_block_size = 0; /* once a SIGFPE */
	ck_assert_int_eq(verity_layout_compute(&p, &l, NULL), -EINVAL);
	p.hash_block_size = 4096;
	p.data_block_size = 0;
	ck_assert_int_eq(verity_layout_compute(&p, &l, NULL), -EINVAL);
}
END_TEST

START_TEST(layout_refusals)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp = {.region = {"f", 0, 0}, .roots = 2};
	struct verity_fec_layout fl;

	sample(&p, &l);
	fp.roots = 1;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL),
		-EINVAL);
	fp.roots = 25;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL),
		-EINVAL);
	fp.roots = 2;
	/* a hash device that ends inside the tree */
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 36864, 0, &fl, NULL),
		-EINVAL);
	/* block sizes apart */
	p.hash_block_size = 1024;
	ck_assert_int_eq(verity_layout_compute(&p, &l, NULL), 0);
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 1 << 20, 0, &fl, NULL),
		-EINVAL);
}
END_TEST

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
	static const struct unit_suite u = {.name = "fec", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(parity_matches_libfec_every_roots,
				       erasures_up_to_roots_are_rebuilt,
				       erasure_patterns_refused,
				       errors_up_to_half_roots_are_corrected,
				       layout_separate_device,
				       layout_on_hash_device, layout_refusals,
				       layout_validates_before_dividing,
				       fused_parity_equals_own_pass));
}
