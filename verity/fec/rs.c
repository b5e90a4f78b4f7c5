/* Reed-Solomon for dm-verity FEC through ISA-L (bulk GF(2^8) products)
 * and libfec (the reference codec, and error decoding). */
#include "verity/fec/rs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fec.h>
#include <isa-l/erasure_code.h>
#include <pthread.h>

#include "hashtree/dl.h"

/* libfec is opened when errors are first decoded (a repair whose bad
 * blocks the tree cannot name) or a codeword encoded symbol by symbol
 * (the bench's reference): linked, it and the libm it brings cost every
 * run of the command about 0.5 ms to load (dump of a hash image:
 * 3.6-3.8 ms linked, 3.1-3.2 ms not; dlopen of it 0.45-0.7 ms), and
 * encoding and erasures need only the code's generator. */
#define FEC_FUNCTIONS(X) \
	X(init_rs_char) X(encode_rs_char) X(decode_rs_char) X(free_rs_char)

static struct {
#define FEC_FIELD(f) __typeof__(f) *f;
	FEC_FUNCTIONS(FEC_FIELD)
#undef FEC_FIELD
} feclib;
static pthread_once_t feclib_once = PTHREAD_ONCE_INIT;
static int feclib_loaded;
static char feclib_error[256];

static void feclib_open(void)
{
	static const char *const soname[] = {"libfec.so.0"};
#define FEC_NAME(f) #f,
	static const char *const names[] = {FEC_FUNCTIONS(FEC_NAME)};
#undef FEC_NAME
	void *fns[sizeof(names) / sizeof(names[0])];
	size_t i = 0;

	if (ht_dl_open(soname, 1, names, sizeof(names) / sizeof(names[0]), fns,
		       feclib_error, sizeof(feclib_error)))
		return;
#define FEC_SET(f) memcpy(&feclib.f, &fns[i++], sizeof(fns[0]));
	FEC_FUNCTIONS(FEC_SET)
#undef FEC_SET
	feclib_loaded = 1;
}

/* ISA-L's AVX2/AVX-512 kernels return with the upper halves of the vector
 * registers in use; the SHA-NI code that runs next on the same thread is
 * legacy SSE, and mixing the two costs a state transition on every SSE
 * instruction on many CPUs (measured here: format with parity built
 * alongside the tree took 0.43 s of CPU instead of 0.25 s). vzeroupper
 * after each ISA-L call clears that state. */
static inline void simd_clean(void)
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx"))
		__asm__ volatile("vzeroupper");
#endif
}

int verity_fec_rs_init_encoder(struct fec_rs *rs, unsigned roots,
			       struct ht_error *err)
{
	uint8_t g[FEC_MAX_ROOTS + 1], parity[FEC_MAX_ROOTS], gen[FEC_MAX_ROOTS];
	uint8_t a = 1;

	memset(rs, 0, sizeof(*rs));
	if (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS)
		return ht_fail(err, EINVAL,
			       "%u FEC roots are not supported (%d to %d)",
			       roots, FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	rs->roots = roots;
	rs->rsn = FEC_RS_N - roots;
	rs->matrix = malloc((size_t)roots * rs->rsn);
	rs->enc_tables = malloc(32u * roots * rs->rsn);
	if (!rs->matrix || !rs->enc_tables) {
		verity_fec_rs_free(rs);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	/* the code's generator, g(x) = (x + a^0)(x + a^1)...(x + a^(roots-1))
	 * with a = 2 in ISA-L's GF(2^8) (polynomial 0x11d): the one libfec's
	 * init_rs_char(8, 0x11d, 0, 1, roots) makes, as veritysetup and the
	 * kernel have it; g[k] is the coefficient of x^k */
	memset(g, 0, sizeof(g));
	g[0] = 1;
	for (unsigned i = 0; i < roots; i++, a = gf_mul(a, 2)) {
		for (unsigned k = i + 1; k > 0; k--)
			g[k] = g[k - 1] ^ gf_mul(g[k], a);
		g[0] = gf_mul(g[0], a);
	}
	/* column i of M: the parity of the unit vector e_i, which is the
	 * encoder's register after a 1 and then rsn - 1 - i zeros. The
	 * register after the 1 alone is x^roots mod g(x): g's coefficients
	 * below x^roots, the highest first. A zero shifts the register and
	 * adds its first symbol times them: one column from the next in
	 * roots products */
	for (unsigned j = 0; j < roots; j++)
		gen[j] = parity[j] = g[roots - 1 - j];
	for (unsigned i = rs->rsn; i-- > 0;) {
		for (unsigned j = 0; j < roots; j++)
			rs->matrix[j * rs->rsn + i] = parity[j];
		if (i) {
			uint8_t f = parity[0];

			for (unsigned j = 0; j + 1 < roots; j++)
				parity[j] = parity[j + 1] ^ gf_mul(f, gen[j]);
			parity[roots - 1] = gf_mul(f, gen[roots - 1]);
		}
	}
	ec_init_tables((int)rs->rsn, (int)roots, rs->matrix, rs->enc_tables);
	return 0;
}

int verity_fec_rs_open_decoder(struct fec_rs *rs, struct ht_error *err)
{
	if (rs->karn)
		return 0;
	pthread_once(&feclib_once, feclib_open);
	if (!feclib_loaded)
		return ht_fail(err, ENOSYS,
			       "decoding parity needs libfec, which cannot be "
			       "loaded (%s)",
			       feclib_error);
	rs->karn = feclib.init_rs_char(8, 0x11d, 0, 1, (int)rs->roots, 0);
	return rs->karn ? 0 : ht_fail(err, ENOMEM, "out of memory");
}

int verity_fec_rs_init(struct fec_rs *rs, unsigned roots, struct ht_error *err)
{
	int r = verity_fec_rs_init_encoder(rs, roots, err);

	if (!r && (r = verity_fec_rs_open_decoder(rs, err)))
		verity_fec_rs_free(rs);
	return r;
}

void verity_fec_rs_encode_scalar(const struct fec_rs *rs, const uint8_t *msg,
				 uint8_t *parity)
{
	feclib.encode_rs_char(rs->karn, (uint8_t *)msg, parity);
}

void verity_fec_rs_free(struct fec_rs *rs)
{
	if (rs->karn)
		feclib.free_rs_char(rs->karn);
	free(rs->matrix);
	free(rs->enc_tables);
	memset(rs, 0, sizeof(*rs));
}

void verity_fec_rs_encode(const struct fec_rs *rs, size_t len,
			  uint8_t *const *src, uint8_t *const *par)
{
	ec_encode_data((int)len, (int)rs->rsn, (int)rs->roots, rs->enc_tables,
		       (unsigned char **)src, (unsigned char **)par);
	simd_clean();
}

void verity_fec_rs_encode_update(const struct fec_rs *rs, size_t len,
				 unsigned pos, const uint8_t *src,
				 uint8_t *const *par)
{
	ec_encode_data_update((int)len, (int)rs->rsn, (int)rs->roots, (int)pos,
			      rs->enc_tables, (unsigned char *)src,
			      (unsigned char **)par);
	simd_clean();
}

/* m_E = A^-1 (p_R + M_R,notE m_notE), A = M restricted to rows R and
 * columns E: one product over the surviving message and the parity. */
int verity_fec_rs_erasure_init(const struct fec_rs *rs,
			       struct fec_rs_erasure *e, const unsigned *erased,
			       unsigned ne, struct ht_error *err)
{
	uint8_t a[FEC_MAX_ROOTS * FEC_MAX_ROOTS];
	uint8_t inv[FEC_MAX_ROOTS * FEC_MAX_ROOTS];
	uint8_t *coef;
	unsigned k = rs->rsn + ne;

	memset(e, 0, sizeof(*e));
	if (ne == 0 || ne > rs->roots)
		return ht_fail(err, EINVAL, "%u erasures, at most %u", ne,
			       rs->roots);
	e->ne = ne;
	for (unsigned t = 0; t < ne; t++) {
		if (erased[t] >= rs->rsn || (t && erased[t] <= erased[t - 1]))
			return ht_fail(err, EINVAL, "bad erasure pattern");
		e->erased[t] = erased[t];
		e->rows[t] = t;
	}
	for (unsigned r = 0; r < ne; r++)
		for (unsigned c = 0; c < ne; c++)
			a[r * ne + c] =
				rs->matrix[e->rows[r] * rs->rsn + e->erased[c]];
	if (gf_invert_matrix(a, inv, (int)ne))
		return ht_fail(err, EINVAL, "erasure pattern is singular");
	coef = calloc((size_t)ne * k, 1);
	e->tables = malloc(32u * ne * k);
	if (!coef || !e->tables) {
		free(coef);
		verity_fec_rs_erasure_free(e);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (unsigned r = 0; r < ne; r++) {
		unsigned next = 0;

		for (unsigned i = 0; i < rs->rsn; i++) {
			uint8_t v = 0;

			if (next < ne && e->erased[next] == i) {
				next++;
				continue; /* coefficient 0: its value is unknown
					   */
			}
			for (unsigned t = 0; t < ne; t++)
				v ^= gf_mul(
					inv[r * ne + t],
					rs->matrix[e->rows[t] * rs->rsn + i]);
			coef[r * k + i] = v;
		}
		for (unsigned t = 0; t < ne; t++)
			coef[r * k + rs->rsn + t] = inv[r * ne + t];
	}
	ec_init_tables((int)k, (int)ne, coef, e->tables);
	free(coef);
	return 0;
}

void verity_fec_rs_erasure_free(struct fec_rs_erasure *e)
{
	free(e->tables);
	e->tables = NULL;
}

void verity_fec_rs_erasure_decode(const struct fec_rs *rs,
				  const struct fec_rs_erasure *e, size_t len,
				  uint8_t *const *src, uint8_t *const *out)
{
	ec_encode_data((int)len, (int)(rs->rsn + e->ne), (int)e->ne, e->tables,
		       (unsigned char **)src, (unsigned char **)out);
	simd_clean();
}

int verity_fec_rs_decode_codeword(const struct fec_rs *rs, uint8_t cw[FEC_RS_N],
				  const int *eras, int neras)
{
	/* libfec writes the positions it corrected into this array */
	int pos[FEC_RS_N];

	if (neras < 0 || neras > (int)rs->roots)
		return -1;
	if (neras)
		memcpy(pos, eras, (size_t)neras * sizeof(*pos));
	return feclib.decode_rs_char(rs->karn, cw, pos, neras);
}
