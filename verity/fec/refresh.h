/* The parity against the verified image: stale codewords counted, and,
 * when asked, the stale rounds written again from blocks that prove as
 * they are read (docs/format.md, "Where we differ", 12). */
#ifndef FV_FEC_REFRESH_H
#define FV_FEC_REFRESH_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/fec/proof.h"
#include "verity/fec/rs.h"
#include "verity/fec/source.h"
#include "verity/tree/pair.h"

/* Most stale parity codewords a repair rewrites, and verify accepts as
 * stale: 5% of all codewords, and at least one round's. More says the
 * parity is not this image's (another file's, or other roots or offset):
 * then nearly every codeword disagrees, where damage or a partial write
 * spoils a few parity blocks. */
#define VERITY_PARITY_REWRITE_PERCENT 5
uint64_t verity_parity_rewrite_limit(const struct verity_fec_layout *fl);

struct verity_fec_refresh {
	const struct fec_source *src;
	const struct fec_rs *rs;
	struct fec_proof *proof;
	const uint8_t *skip; /* rounds with blocks not proven: left alone */
	unsigned threads;
	int rewrite;       /* rewrite stale rounds (else only count them) */
	int rewrite_asked; /* rewrite, or a dry run of it */
	int must_match;    /* verify: parity past the limit is an error */
	const struct ht_options *opt; /* progress (may be NULL) */
};

/* Counts the stale codewords and rounds into res. With x->rewrite_asked
 * or x->must_match, more than the limit is refused (-EINVAL, naming the
 * parity, nothing written); else, with x->rewrite, each stale round is
 * written again and flushed. A block that no longer proves
 * (changed meanwhile) stops with -ESTALE, its round as it was. */
int verity_fec_refresh(const struct verity_fec_refresh *x,
		       struct verity_fec_result *res, struct ht_error *err);

#endif
