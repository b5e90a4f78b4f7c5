/* bench: the FEC parity encoders side by side, on one core, and what
 * their roots mean for the data measured. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/bench/bench.h"
#include "verity/fec/rs.h"

/* Codewords per pass: one 4096-byte block of each message position, as a
 * round of dm-verity FEC with 4 KiB blocks (about 1 MB of message). */
#define FEC_CODEWORDS 4096

static const unsigned fec_roots[] = {2, 4, 8, 16, 24};

/* One pass of veritysetup's encoder: each codeword gathered from the
 * columns, then libfec's scalar encoder. */
static void pass_scalar(const struct fec_rs *rs, uint8_t *const *cols,
			uint8_t *out)
{
	uint8_t msg[FEC_RS_N];

	for (size_t x = 0; x < FEC_CODEWORDS; x++) {
		for (unsigned i = 0; i < rs->rsn; i++)
			msg[i] = cols[i][x];
		verity_fec_rs_encode_scalar(rs, msg, out + x * rs->roots);
	}
}

/* An encoder's speed over libfec's for the same roots, or -1. */
static double fec_ratio(const struct bench_report *r, const struct bench_fec *f)
{
	for (size_t i = 0; i < r->nfec; i++)
		if (r->fec[i].roots == f->roots && r->fec[i].scalar &&
		    r->fec[i].mb_per_s > 0 && f->mb_per_s > 0)
			return f->mb_per_s / r->fec[i].mb_per_s;
	return -1;
}

void verity_bench_fec(struct bench_report *rep, double total)
{
	size_t nroots = sizeof(fec_roots) / sizeof(fec_roots[0]);
	double budget = total / (double)(2 * nroots);
	uint8_t *buf = malloc((size_t)FEC_RS_N * FEC_CODEWORDS);
	uint8_t *out = malloc((size_t)FEC_MAX_ROOTS * FEC_CODEWORDS);
	uint8_t *cols[FEC_RS_N];
	struct ht_error err;

	ht_fail(&err, ENOMEM, "out of memory");
	for (size_t k = 0; k < nroots && rep->nfec + 2 <= BENCH_FEC_ROWS; k++) {
		struct fec_rs rs;
		unsigned rsn = 0;
		int ok = 0;

		memset(&rs, 0, sizeof(rs));
		if (buf && out) {
			ok = !verity_fec_rs_init(&rs, fec_roots[k], &err);
			rsn = rs.rsn;
		}
		for (int impl = 0; impl < 2; impl++) {
			struct bench_fec *r = &rep->fec[rep->nfec++];
			uint64_t passes = 0;
			double t0, t, rates[BENCH_ROUNDS];

			memset(r, 0, sizeof(*r));
			r->roots = fec_roots[k];
			r->scalar = impl;
			r->name = impl ? "libfec, one codeword at a time"
				       : "ISA-L, every codeword of a round";
			r->note = impl ? "how veritysetup encodes"
				       : "fastverity's encoder";
			r->mb_per_s = -1;
			r->ratio = -1;
			if (!ok) {
				snprintf(r->why, sizeof(r->why), "%.159s",
					 ht_msg(&err));
				continue;
			}
			for (unsigned i = 0; i < FEC_RS_N; i++)
				cols[i] = buf + (size_t)i * FEC_CODEWORDS;
			for (size_t i = 0; i < (size_t)rsn * FEC_CODEWORDS; i++)
				buf[i] = (uint8_t)(i * 167 + (i >> 11));
			for (unsigned round = 0; round < BENCH_ROUNDS;
			     round++) {
				passes = 0;
				t0 = verity_bench_now();
				do {
					if (impl)
						pass_scalar(&rs, cols, out);
					else
						verity_fec_rs_encode(
							&rs, FEC_CODEWORDS,
							cols, cols + rsn);
					passes++;
					t = verity_bench_now() - t0;
				} while (t < budget / BENCH_ROUNDS);
				rates[round] = (double)passes * rsn *
					       FEC_CODEWORDS / t / 1e6;
			}
			verity_bench_stats(rates, BENCH_ROUNDS, &r->mb_per_s,
					   &r->lo, &r->hi);
		}
		if (ok)
			verity_fec_rs_free(&rs);
	}
	for (size_t i = 0; i < rep->nfec; i++)
		rep->fec[i].ratio = fec_ratio(rep, &rep->fec[i]);
	free(buf);
	free(out);
}

/* Rounds of parity over covered blocks (as the kernel lays them out):
 * each round holds rsn blocks spaced rounds apart, so a run of
 * consecutive bad blocks puts at most ceil(run / rounds) into one
 * codeword. */
void verity_bench_fec_advise(struct bench_report *r)
{
	const uint64_t bs = 4096, data = r->size / bs;
	uint64_t tree = 0, covered;

	r->nadvice = 0;
	r->advice_data_bytes = data * bs;
	if (!data)
		return;
	for (uint64_t n = data; n > 1;) { /* sha256: 128 digests a block */
		n = (n + 127) / 128;
		tree += n;
	}
	covered = data + tree;
	for (size_t k = 0; k < sizeof(fec_roots) / sizeof(fec_roots[0]) &&
			   r->nadvice < BENCH_FEC_ADVICE;
	     k++) {
		struct bench_fec_advice *a = &r->advice[r->nadvice++];
		unsigned roots = fec_roots[k], rsn = FEC_RS_N - roots;
		uint64_t rounds = (covered + rsn - 1) / rsn;

		a->roots = roots;
		a->parity_bytes = rounds * roots * bs;
		a->run_named = rounds * roots * bs;
		a->run_unnamed = rounds * (roots / 2) * bs;
		a->encode_seconds = -1;
		for (size_t i = 0; i < r->nfec; i++)
			if (r->fec[i].roots == roots && !r->fec[i].scalar &&
			    r->fec[i].mb_per_s > 0)
				a->encode_seconds =
					(double)(covered * bs) /
					(r->fec[i].mb_per_s * 1e6 *
					 (r->threads ? r->threads : 1));
	}
}
