/* SHA-256 with the x86 SHA extensions: one stream, and two or three
 * streams whose round chains are issued alternately so that the dependent
 * chains overlap in the pipeline. Built with -msha -msse4.1; called only when
 * ht_sha256_cpu_has_shani() says so. */
#if defined(__x86_64__)
#include <immintrin.h>

#include "sha256_finup.h"

#define K ht_sha256_round_constants /* FIPS 180-4; one copy, in sha256.c */

/* The instructions keep the state as ABEF and CDGH; h[] is A..H. */
static inline void load_state(const uint32_t h[8], __m128i *abef, __m128i *cdgh)
{
	__m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);

	*abef = _mm_alignr_epi8(cdab, efgh, 8);
	*cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);
}

static inline void store_state(uint32_t h[8], __m128i abef, __m128i cdgh)
{
	__m128i feba = _mm_shuffle_epi32(abef, 0x1b);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);

	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

#define BSWAP_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL)

/* Message schedule: w[i] for quad i >= 4 from the four before it. */
static inline __m128i schedule(__m128i w4, __m128i w3, __m128i w2, __m128i w1)
{
	__m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w4, w3),
				  _mm_alignr_epi8(w1, w2, 4));
	return _mm_sha256msg2_epu32(t, w1);
}

/* Four rounds with message quad w and constants quad i. */
#define QUAD(abef, cdgh, w, i)                                             \
	do {                                                               \
		__m128i m_ = _mm_add_epi32(                                \
			w, _mm_load_si128((const __m128i *)&K[4 * (i)]));  \
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m_);              \
		abef = _mm_sha256rnds2_epu32(abef, cdgh,                   \
					     _mm_shuffle_epi32(m_, 0x0e)); \
	} while (0)

static void shani_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	__m128i abef, cdgh;

	load_state(h, &abef, &cdgh);
	for (; nblocks; nblocks--, p += SHA256_BLOCK_SIZE) {
		__m128i abef0 = abef, cdgh0 = cdgh, w[4];

#pragma GCC unroll 4
		for (int i = 0; i < 4; i++) {
			w[i] = _mm_shuffle_epi8(
				_mm_loadu_si128((const __m128i *)(p + 16 * i)),
				BSWAP_MASK);
			QUAD(abef, cdgh, w[i], i);
		}
#pragma GCC unroll 12
		for (int i = 4; i < 16; i++) {
			w[i & 3] = schedule(w[i & 3], w[(i + 1) & 3],
					    w[(i + 2) & 3], w[(i + 3) & 3]);
			QUAD(abef, cdgh, w[i & 3], i);
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	store_state(h, abef, cdgh);
}

/* Each 64-byte step also prefetches the cache line `ahead` bytes further
 * in both streams: hardware prefetchers stop at page boundaries, so
 * without this each new 4 KiB block starts with misses to memory. */
static void shani_blocks2(uint32_t h1[8], uint32_t h2[8], const uint8_t *p1,
			  const uint8_t *p2, size_t nblocks, size_t ahead)
{
	__m128i a1, c1, a2, c2;

	load_state(h1, &a1, &c1);
	load_state(h2, &a2, &c2);
	for (; nblocks;
	     nblocks--, p1 += SHA256_BLOCK_SIZE, p2 += SHA256_BLOCK_SIZE) {
		__m128i a1s = a1, c1s = c1, a2s = a2, c2s = c2, x[4], y[4];

		_mm_prefetch((const char *)p1 + ahead, _MM_HINT_T0);
		_mm_prefetch((const char *)p2 + ahead, _MM_HINT_T0);

#pragma GCC unroll 4
		for (int i = 0; i < 4; i++) {
			x[i] = _mm_shuffle_epi8(
				_mm_loadu_si128((const __m128i *)(p1 + 16 * i)),
				BSWAP_MASK);
			QUAD(a1, c1, x[i], i);
			y[i] = _mm_shuffle_epi8(
				_mm_loadu_si128((const __m128i *)(p2 + 16 * i)),
				BSWAP_MASK);
			QUAD(a2, c2, y[i], i);
		}
#pragma GCC unroll 12
		for (int i = 4; i < 16; i++) {
			x[i & 3] = schedule(x[i & 3], x[(i + 1) & 3],
					    x[(i + 2) & 3], x[(i + 3) & 3]);
			QUAD(a1, c1, x[i & 3], i);
			y[i & 3] = schedule(y[i & 3], y[(i + 1) & 3],
					    y[(i + 2) & 3], y[(i + 3) & 3]);
			QUAD(a2, c2, y[i & 3], i);
		}
		a1 = _mm_add_epi32(a1, a1s);
		c1 = _mm_add_epi32(c1, c1s);
		a2 = _mm_add_epi32(a2, a2s);
		c2 = _mm_add_epi32(c2, c2s);
	}
	store_state(h1, a1, c1);
	store_state(h2, a2, c2);
}

/* Three streams, as two: on CPUs whose SHA unit has room for a third
 * dependent chain (sha256.c says which) this is faster, on others the
 * spilled registers make it slower. */
static void shani_blocks3(uint32_t h[3][8], const uint8_t *const p[3],
			  size_t nblocks, size_t ahead)
{
	const uint8_t *q[3] = {p[0], p[1], p[2]};
	__m128i a[3], c[3];

	for (int s = 0; s < 3; s++)
		load_state(h[s], &a[s], &c[s]);
	for (; nblocks; nblocks--) {
		__m128i as[3], cs[3], w[3][4];

#pragma GCC unroll 3
		for (int s = 0; s < 3; s++) {
			as[s] = a[s];
			cs[s] = c[s];
			_mm_prefetch((const char *)q[s] + ahead, _MM_HINT_T0);
		}
#pragma GCC unroll 4
		for (int i = 0; i < 4; i++)
#pragma GCC unroll 3
			for (int s = 0; s < 3; s++) {
				w[s][i] = _mm_shuffle_epi8(
					_mm_loadu_si128(
						(const __m128i *)(q[s] +
								  16 * i)),
					BSWAP_MASK);
				QUAD(a[s], c[s], w[s][i], i);
			}
#pragma GCC unroll 12
		for (int i = 4; i < 16; i++)
#pragma GCC unroll 3
			for (int s = 0; s < 3; s++) {
				w[s][i & 3] = schedule(
					w[s][i & 3], w[s][(i + 1) & 3],
					w[s][(i + 2) & 3], w[s][(i + 3) & 3]);
				QUAD(a[s], c[s], w[s][i & 3], i);
			}
#pragma GCC unroll 3
		for (int s = 0; s < 3; s++) {
			a[s] = _mm_add_epi32(a[s], as[s]);
			c[s] = _mm_add_epi32(c[s], cs[s]);
			q[s] += SHA256_BLOCK_SIZE;
		}
	}
	for (int s = 0; s < 3; s++)
		store_state(h[s], a[s], c[s]);
}

void ht_sha256_shani_finup(const struct sha256_salted_state *st,
			   const uint8_t *msg, size_t len, uint8_t *out)
{
	sha256_finup_tmpl(shani_blocks, st, msg, len, out);
}

void ht_sha256_shani_finup2x(const struct sha256_salted_state *st,
			     const uint8_t *msg1, const uint8_t *msg2,
			     size_t len, uint8_t *out1, uint8_t *out2)
{
	sha256_finup2x_tmpl(shani_blocks2, st, msg1, msg2, len, out1, out2, 0);
}

void ht_sha256_shani_finup_many(const struct sha256_salted_state *st,
				const uint8_t *msgs, size_t msg_len,
				size_t count, uint8_t *out, size_t out_stride)
{
	sha256_finup_many_tmpl(shani_blocks, shani_blocks2, st, msgs, msg_len,
			       count, out, out_stride);
}
void ht_sha256_shani_finup_many3(const struct sha256_salted_state *st,
				 const uint8_t *msgs, size_t msg_len,
				 size_t count, uint8_t *out, size_t out_stride)
{
	sha256_finup_many3_tmpl(shani_blocks, shani_blocks2, shani_blocks3, st,
				msgs, msg_len, count, out, out_stride);
}
#else
typedef int sha256_shani_unused;
#endif
