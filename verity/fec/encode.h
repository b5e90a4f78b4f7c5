/* The parity of every round: encoded or checked in a pass of its own
 * (threads splitting the rounds in batches), or made while the tree is
 * built (fused). */
#ifndef FV_FEC_ENCODE_H
#define FV_FEC_ENCODE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "verity/fec/rs.h"
#include "verity/fec/source.h"
#include "verity/tree/pair.h"

/* Parity computed while the tree is built (format): every data block is
 * added into its rounds' parity as the tree hashes it (ht_io.data_seen),
 * each thread into planes of its own; then the covered hash blocks, the
 * sum over threads, and one write. Used when the planes of all threads
 * fit max_bytes and the roots are at most max_roots (beyond, the
 * read-modify-write of the planes costs more than reading the data
 * again); tests lower these to cover both paths. */
#define FEC_FUSED_MAX_BYTES (32u << 20)
#define FEC_FUSED_MAX_ROOTS 3

struct fec_fused {
	const struct fec_rs *rs;
	const struct verity_fec_layout *fl;
	unsigned threads;
	size_t plane_bytes; /* rounds * block size */
	uint8_t *planes;    /* threads sets of roots planes */
};

/* 0 and set up, or 1 when fused encoding does not apply (use
 * verity_fec_parity_pass), or a negative errno. t (may be NULL) lowers the
 * limits. */
int verity_fec_fused_init(struct fec_fused *f, const struct fec_rs *rs,
			  const struct verity_fec_layout *fl, unsigned threads,
			  const struct verity_tuning *t, struct ht_error *err);
/* From ht_io.data_seen: data blocks [first, first + n), just hashed. */
int verity_fec_fused_data_seen(struct fec_fused *f, unsigned worker,
			       uint64_t first, const uint8_t *blocks, size_t n,
			       struct ht_error *err);
/* Adds the covered hash blocks, the tree as written and what follows it
 * (read back: 1/128 of the data, in cache, where a set of planes for
 * them would be fresh memory, about 1.6 ms a MiB here), sums the sets
 * and writes the parity area. */
int verity_fec_fused_finish(struct fec_fused *f, const struct fec_source *s,
			    struct ht_error *err);
void verity_fec_fused_free(struct fec_fused *f);

enum fec_pass_mode {
	FEC_PASS_WRITE, /* compute and write all parity */
	FEC_PASS_CHECK, /* compare with the stored parity */
};

struct fec_pass_result {
	uint64_t stale_codewords;
	uint64_t stale_rounds;
	uint8_t *stale; /* check: a bitmap of the stale rounds, or NULL */
};

/* Computes the parity of every round, threads splitting the rounds.
 * skip (may be NULL): a bitmap of rounds left alone (blocks still bad).
 * A check never writes; it marks stale rounds in res->stale when the
 * caller gave a bitmap (rounds bits, zeroed), and leaves alone rounds
 * with a block it cannot read. opt (may be NULL): its progress callback
 * is told the covered bytes read, batch by batch, from 0 (the caller
 * names the pass). */
int verity_fec_parity_pass(const struct fec_source *s, const struct fec_rs *rs,
			   enum fec_pass_mode mode, const uint8_t *skip,
			   unsigned threads, const struct ht_options *opt,
			   struct fec_pass_result *res, struct ht_error *err);

/* The parity a flat layout describes (verity_fec_layout_flat) of d,
 * written onto d and flushed. */
int verity_fec_encode_flat(const struct verity_device *d,
			   const struct verity_fec_layout *fl, unsigned threads,
			   struct ht_error *err);

/* Parity as stored (out: roots bytes per codeword, len codewords) from
 * roots planes of len bytes, and back. */
void verity_fec_interleave(uint8_t *out, uint8_t *const *planes, unsigned roots,
			   size_t len);
void verity_fec_deinterleave(uint8_t *const *planes, const uint8_t *in,
			     unsigned roots, size_t len);

/* The parity of one round (or of a batch of consecutive rounds, len
 * bytes of each message position): src[i] holds symbol position i,
 * planes receives roots planes of len bytes, out the parity as stored
 * (roots bytes per codeword). */
void verity_fec_encode_stored(const struct fec_rs *rs, size_t len,
			      uint8_t *const *src, uint8_t *const *planes,
			      uint8_t *out);

#endif
