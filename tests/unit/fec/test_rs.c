/* verity/fec/rs.c: the ISA-L parity against libfec's encoder for every
 * roots value (and the library's scalar encoder, libfec's, that bench
 * compares it with), erasure and error decoding. */
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
		uint8_t scalar[FEC_MAX_ROOTS];
		void *karn = init_rs_char(8, 0x11d, 0, 1, (int)roots, 0);

		/* the encoder as format and update make it (its generator
		 * the library's own, libfec not opened) */
		ck_assert_int_eq(verity_fec_rs_init_encoder(&rs, roots, NULL),
				 0);
		ck_assert_ptr_null(rs.karn);
		ck_assert_uint_eq(rs.rsn, 255 - roots);
		/* then libfec's, for verity_fec_rs_encode_scalar */
		ck_assert_int_eq(verity_fec_rs_open_decoder(&rs, NULL), 0);
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
			verity_fec_rs_encode_scalar(&rs, msg, scalar);
			for (unsigned j = 0; j < roots; j++) {
				ck_assert_uint_eq(par[j][x], want[j]);
				ck_assert_uint_eq(scalar[j], want[j]);
			}
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

int main(void)
{
	static const struct unit_suite u = {.name = "fec", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(parity_matches_libfec_every_roots, erasures_up_to_roots_are_rebuilt, erasure_patterns_refused, errors_up_to_half_roots_are_corrected));
}
