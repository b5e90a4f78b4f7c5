/* Reed-Solomon arithmetic of dm-verity FEC: RS(255, rsn = 255 - roots)
 * over GF(2^8), field polynomial 0x11d, first consecutive root 0,
 * primitive element 1 (docs/format.md, "FEC").
 *
 * Parity is linear in the message: parity = M * message, with M a
 * roots x rsn matrix whose column i is the parity of the unit vector e_i.
 * M comes from libfec (the reference codec); the bulk products go through
 * ISA-L's SIMD GF(2^8) kernels. Erasures (symbols known to be bad) are
 * rebuilt with a small matrix inverted once per erasure pattern; unknown
 * errors go through libfec's decoder, one codeword at a time. */
#ifndef FV_FEC_RS_H
#define FV_FEC_RS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

#define FEC_RS_N      255
#define FEC_MIN_ROOTS 2
#define FEC_MAX_ROOTS 24

/* Rounds (codewords of 255 - roots message blocks, one block deep) that
 * cover blocks blocks: the parity is rounds * roots blocks. */
static inline uint64_t fec_rounds(uint64_t blocks, unsigned roots)
{
	return (blocks + (FEC_RS_N - roots) - 1) / (FEC_RS_N - roots);
}

struct fec_rs {
	unsigned roots;
	unsigned rsn;
	uint8_t *matrix;     /* roots x rsn, row-major */
	uint8_t *enc_tables; /* ISA-L tables of matrix */
	void *karn;          /* libfec codec (verity_fec_rs_init) */
};

/* ISA-L's tables of the code with roots parity symbols, for encoding
 * (format, update, the parity's check) and erasures; then libfec's codec
 * too, for decoding errors and its scalar encoder (libfec opened then:
 * verity_fec_rs_open_decoder, once; verity_fec_rs_init does both). */
int verity_fec_rs_init_encoder(struct fec_rs *rs, unsigned roots,
			       struct ht_error *err);
int verity_fec_rs_open_decoder(struct fec_rs *rs, struct ht_error *err);
int verity_fec_rs_init(struct fec_rs *rs, unsigned roots, struct ht_error *err);
void verity_fec_rs_free(struct fec_rs *rs);

/* Parity of len codewords laid out column-wise: byte x of src[i] is
 * message symbol i of codeword x, byte x of par[j] parity symbol j. */
void verity_fec_rs_encode(const struct fec_rs *rs, size_t len,
			  uint8_t *const *src, uint8_t *const *par);

/* Adds message column pos (len bytes: symbol pos of len codewords) into
 * the parity rows par, which hold the sum of the other columns so far:
 * parity is linear, so columns can come in any order. len <= INT_MAX. */
void verity_fec_rs_encode_update(const struct fec_rs *rs, size_t len,
				 unsigned pos, const uint8_t *src,
				 uint8_t *const *par);

/* The parity of one codeword (msg[0..rsn) -> parity[0..roots)) with
 * libfec's scalar encoder, one symbol at a time: veritysetup's encoder,
 * kept for the bench and the tests. */
void verity_fec_rs_encode_scalar(const struct fec_rs *rs, const uint8_t *msg,
				 uint8_t *parity);

/* Rebuilding ne <= roots erased message symbols from the others and ne
 * parity rows (rows[t]). */
struct fec_rs_erasure {
	unsigned ne;
	unsigned erased[FEC_MAX_ROOTS]; /* message positions, ascending */
	unsigned rows[FEC_MAX_ROOTS];   /* parity rows used */
	uint8_t *tables;                /* ISA-L tables, ne x (rsn + ne) */
};

/* Prepares the decode for a pattern; -EINVAL if it cannot be solved. */
int verity_fec_rs_erasure_init(const struct fec_rs *rs,
			       struct fec_rs_erasure *e, const unsigned *erased,
			       unsigned ne, struct ht_error *err);
void verity_fec_rs_erasure_free(struct fec_rs_erasure *e);

/* src[0..rsn) the message columns (erased ones are ignored), src[rsn + t]
 * parity row e->rows[t]; out[k] receives erased column e->erased[k]. */
void verity_fec_rs_erasure_decode(const struct fec_rs *rs,
				  const struct fec_rs_erasure *e, size_t len,
				  uint8_t *const *src, uint8_t *const *out);

/* Decodes one whole codeword in place (cw[0..rsn) message, cw[rsn..255)
 * parity) with libfec, erasures at positions eras[0..neras) of the
 * codeword. Returns the number of symbols corrected, or a negative
 * number when the codeword is beyond repair (libfec's count; -1 for more
 * erasures than roots). */
int verity_fec_rs_decode_codeword(const struct fec_rs *rs, uint8_t cw[FEC_RS_N],
				  const int *eras, int neras);

#endif
