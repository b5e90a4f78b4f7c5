/* fastverity bench: the FEC parity encoders side by side, on one core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/fec/rs.h"
#include "bench.h"
#include "cli/cli.h"

/* Codewords per pass: one 4096-byte block of each message position, as a
 * round of dm-verity FEC with 4 KiB blocks (about 1 MB of message). */
#define FEC_CODEWORDS 4096

static const unsigned fec_roots[] = {2, 8, 16, 24};

/* One pass of fastverity's encoder: ISA-L over rsn columns. */
static void pass_isal(const struct fec_rs *rs, uint8_t *const *cols,
		      uint8_t *const *par)
{
	fec_rs_encode(rs, FEC_CODEWORDS, cols, par);
}

/* One pass of veritysetup's: each codeword gathered from the columns,
 * then libfec's scalar encoder. */
static void pass_scalar(const struct fec_rs *rs, uint8_t *const *cols,
			uint8_t *out)
{
	uint8_t msg[FEC_RS_N];

	for (size_t x = 0; x < FEC_CODEWORDS; x++) {
		for (unsigned i = 0; i < rs->rsn; i++)
			msg[i] = cols[i][x];
		fec_rs_encode_scalar(rs, msg, out + x * rs->roots);
	}
}

void bench_run_fec(struct bench_report *rep, double total)
{
	size_t nroots = sizeof(fec_roots) / sizeof(fec_roots[0]);
	double budget = total / (double)(2 * nroots);
	uint8_t *buf = malloc((size_t)FEC_RS_N * FEC_CODEWORDS);
	uint8_t *out = malloc((size_t)FEC_MAX_ROOTS * FEC_CODEWORDS);
	uint8_t *cols[FEC_RS_N];

	for (size_t k = 0; k < nroots; k++) {
		struct fec_rs rs;
		struct ht_error err;
		int ok = 0;

		if (!buf || !out)
			snprintf(err.msg, sizeof(err.msg), "out of memory");
		else
			ok = !fec_rs_init(&rs, fec_roots[k], &err);
		for (int impl = 0; impl < 2; impl++) {
			struct bench_fec *r = &rep->fec[rep->nfec++];
			uint64_t passes = 0;
			double t0, t, rates[BENCH_ROUNDS];

			r->roots = fec_roots[k];
			r->scalar = impl;
			r->name = impl ? "libfec, one codeword at a time"
				       : "ISA-L, every codeword of a round";
			r->note = impl ? "how veritysetup encodes"
				       : "fastverity's encoder";
			r->mb_per_s = -1;
			if (!ok) {
				snprintf(r->why, sizeof(r->why), "%.159s",
					 err.msg);
				continue;
			}
			for (unsigned i = 0; i < FEC_RS_N; i++)
				cols[i] = buf + (size_t)i * FEC_CODEWORDS;
			for (size_t i = 0; i < (size_t)rs.rsn * FEC_CODEWORDS;
			     i++)
				buf[i] = (uint8_t)(i * 167 + (i >> 11));
			for (unsigned round = 0; round < BENCH_ROUNDS;
			     round++) {
				passes = 0;
				t0 = cli_now();
				do {
					if (impl)
						pass_scalar(&rs, cols, out);
					else
						pass_isal(&rs, cols,
							  cols + rs.rsn);
					passes++;
					t = cli_now() - t0;
				} while (t < budget / BENCH_ROUNDS);
				rates[round] = (double)passes * rs.rsn *
					       FEC_CODEWORDS / t / 1e6;
			}
			bench_stats(rates, BENCH_ROUNDS, &r->mb_per_s, &r->lo,
				    &r->hi);
		}
		if (ok)
			fec_rs_free(&rs);
	}
	free(buf);
	free(out);
}
