#include "verity/fec/refresh.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/fec/encode.h"

uint64_t verity_parity_rewrite_limit(const struct verity_fec_layout *fl)
{
	uint64_t all = fl->rounds * fl->block_size;
	uint64_t limit = all / 100 * VERITY_PARITY_REWRITE_PERCENT;

	return limit > fl->block_size ? limit : fl->block_size;
}

static int bit(const uint8_t *map, uint64_t i)
{
	return map[i / 8] >> (i % 8) & 1;
}

/* One round's blocks into round (rsn blocks), each proven as it is read. */
static int read_proven_round(const struct verity_fec_refresh *x, uint64_t n,
			     uint8_t *const *src, struct ht_error *err)
{
	const struct verity_fec_layout *fl = x->src->fl;

	for (unsigned i = 0; i < x->rs->rsn; i++) {
		uint64_t c = (uint64_t)i * fl->rounds + n;
		int r = verity_fec_read_covered(x->src, c, 1, src[i], err);

		if (!r && c < fl->blocks)
			r = verity_fec_proof_check(x->proof, c, src[i], err);
		else if (!r)
			r = 1; /* past the covered blocks: zeros */
		if (r < 0)
			return r;
		if (r == 0) {
			int data = c < fl->data_blocks;
			const struct verity_device *d =
				data ? x->src->data : x->src->hash;

			return ht_fail(
				err, ESTALE,
				"%s: %s block %llu no longer matches "
				"the tree (changed while repair "
				"ran?); the parity of its round is "
				"left as it was",
				d->path, data ? "data" : "hash",
				(unsigned long long)(data ? c
							  : fl->hash_start_block +
								     c -
								     fl->data_blocks));
		}
	}
	return 0;
}

/* Rewrites the parity of each stale round from its blocks, each read
 * once and proven against the root before it goes in. */
static int rewrite_rounds(const struct verity_fec_refresh *x,
			  const uint8_t *stale, struct verity_fec_result *res,
			  struct ht_error *err)
{
	const struct verity_fec_layout *fl = x->src->fl;
	size_t bs = fl->block_size, round_bytes = bs * fl->roots;
	uint8_t *src[FEC_RS_N], *planes[FEC_MAX_ROOTS];
	uint8_t *round = malloc(bs * x->rs->rsn);
	uint8_t *plane_buf = malloc(round_bytes), *parity = malloc(round_bytes);
	int r = round && plane_buf && parity
			? 0
			: ht_fail(err, ENOMEM, "out of memory");

	for (unsigned i = 0; i < x->rs->rsn; i++)
		src[i] = round + (size_t)i * bs;
	for (unsigned k = 0; k < fl->roots; k++)
		planes[k] = plane_buf + (size_t)k * bs;
	for (uint64_t n = 0; !r && n < fl->rounds; n++) {
		if (!bit(stale, n))
			continue;
		r = read_proven_round(x, n, src, err);
		if (r)
			break;
		verity_fec_encode_stored(x->rs, bs, src, planes, parity);
		r = verity_device_write(x->src->fec,
					fl->offset + n * round_bytes, parity,
					round_bytes, err);
		if (!r)
			res->parity_rewritten++;
	}
	free(round);
	free(plane_buf);
	free(parity);
	return r;
}

int verity_fec_refresh(const struct verity_fec_refresh *x,
		       struct verity_fec_result *res, struct ht_error *err)
{
	const struct verity_fec_layout *fl = x->src->fl;
	struct fec_pass_result pr = {0, 0, NULL};
	const char *where =
		fl->on_hash_device ? x->src->hash->path : x->src->fec->path;
	int r;

	if (x->rewrite && !(pr.stale = calloc((fl->rounds + 7) / 8, 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	ht_pass(x->opt, "check parity");
	r = verity_fec_parity_pass(x->src, x->rs, FEC_PASS_CHECK, x->skip,
				   x->threads, x->opt, &pr, err);
	res->stale_codewords = pr.stale_codewords;
	res->stale_rounds = pr.stale_rounds;
	res->rewrite_limit = verity_parity_rewrite_limit(fl);
	if (!r && (x->rewrite_asked || x->must_match) &&
	    pr.stale_codewords > res->rewrite_limit)
		r = ht_fail(err, EINVAL,
			    "%s: %llu of %llu parity codewords disagree with "
			    "the verified image, more than the %d%% (%llu) "
			    "that damage explains: it is not this image's "
			    "parity, or the roots or offset are wrong%s",
			    where, (unsigned long long)pr.stale_codewords,
			    (unsigned long long)(fl->rounds * fl->block_size),
			    VERITY_PARITY_REWRITE_PERCENT,
			    (unsigned long long)res->rewrite_limit,
			    x->rewrite_asked ? "; nothing rewritten" : "");
	if (!r && x->rewrite && pr.stale_rounds)
		r = rewrite_rounds(x, pr.stale, res, err);
	if (!r && res->parity_rewritten)
		r = verity_device_flush(x->src->fec, err);
	free(pr.stale);
	return r;
}
