/* SHA-256 sixteen messages at a time with AVX-512: one message in each
 * 32-bit lane of a 512-bit register, the rounds and the message schedule
 * as vector operations (Ch, Maj and the three-way XORs of the sigmas as
 * single ternary-logic instructions, the rotations as vprord), the 16
 * messages' words brought into lanes by a 16x16 transpose of unpacks and
 * 128-bit shuffles. Hand-written because no Debian package offers a
 * multi-buffer SHA-256 (ISA-L's crypto library, which has one, is not
 * packaged). For the tree's level 0: many messages of one length from one
 * salted state; what is left of a batch under 16, and single messages,
 * go to SHA-NI (or the portable code on a CPU without it). Built with
 * -mavx512f -mavx512bw; called only when ht_sha256_cpu_has_avx512() says
 * so; chosen by itself where it was measured faster than SHA-NI (AMD
 * family 1Ah: hashtree/sha256.c). */
#if defined(__x86_64__)
#include <immintrin.h>

#include "sha256_finup.h"

#define K ht_sha256_round_constants /* FIPS 180-4; one copy, in sha256.c */

#define LANES 16

/* (a macro: the count must be a constant where the intrinsic sees it) */
#define ror(x, n) _mm512_ror_epi32((x), (n))

/* x ^ y ^ z in one instruction */
static inline __m512i xor3(__m512i x, __m512i y, __m512i z)
{
	return _mm512_ternarylogic_epi32(x, y, z, 0x96);
}

/* The 16 rows r[i] (one message block each) as 16 columns: w[j] holds
 * word j of every message, lane i of message i. */
static inline void transpose16(const __m512i r[16], __m512i w[16])
{
	__m512i t[16], u[16], v[16];

#pragma GCC unroll 16
	for (int i = 0; i < 8; i++) {
		t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
		t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
	}
	/* in each 128-bit lane k of u[4q + c]: word 4k + c of rows 4q to
	 * 4q + 3 */
#pragma GCC unroll 16
	for (int q = 0; q < 4; q++) {
		u[4 * q] = _mm512_unpacklo_epi64(t[4 * q], t[4 * q + 2]);
		u[4 * q + 1] = _mm512_unpackhi_epi64(t[4 * q], t[4 * q + 2]);
		u[4 * q + 2] =
			_mm512_unpacklo_epi64(t[4 * q + 1], t[4 * q + 3]);
		u[4 * q + 3] =
			_mm512_unpackhi_epi64(t[4 * q + 1], t[4 * q + 3]);
	}
	/* v[2c] and v[2c + 1]: words c, 8 + c and 4 + c, 12 + c of rows 0-7
	 * (from u[c], u[4 + c]); v[8 + ...] the same of rows 8-15 */
#pragma GCC unroll 16
	for (int h = 0; h < 2; h++)
#pragma GCC unroll 16
		for (int c = 0; c < 4; c++) {
			__m512i a = u[8 * h + c], b = u[8 * h + 4 + c];

			v[8 * h + 2 * c] = _mm512_shuffle_i32x4(a, b, 0x88);
			v[8 * h + 2 * c + 1] = _mm512_shuffle_i32x4(a, b, 0xdd);
		}
#pragma GCC unroll 16
	for (int c = 0; c < 4; c++) {
		w[c] = _mm512_shuffle_i32x4(v[2 * c], v[8 + 2 * c], 0x88);
		w[8 + c] = _mm512_shuffle_i32x4(v[2 * c], v[8 + 2 * c], 0xdd);
		w[4 + c] =
			_mm512_shuffle_i32x4(v[2 * c + 1], v[9 + 2 * c], 0x88);
		w[12 + c] =
			_mm512_shuffle_i32x4(v[2 * c + 1], v[9 + 2 * c], 0xdd);
	}
}

/* Keeps x as computed: GCC's reassociation would otherwise turn a
 * round's sums into one chain with four adds after Sigma1 (12 cycles a
 * round at Zen 5's two-cycle vector latency instead of 6; measured 4.7
 * against 6.5 GB/s). Emits nothing. */
#define PIN(x) __asm__("" : "+v"(x))

/* One round: the state a..h in s[(8 - t) % 8 ...], rotated by index so
 * that no register moves. The chain from e to the next e is Ch, one add,
 * then the add of Sigma1 (d + h + kw is summed off it); T1 is taken back
 * out of the new e by one subtraction, and the new a adds Sigma0 last, so
 * that each of the two chains is three operations a round. */
#define ROUND(a, b, c, d, e, f, g, h, kw)                               \
	do {                                                            \
		__m512i x_ = _mm512_add_epi32(h, kw);                   \
		__m512i dx_ = _mm512_add_epi32(d, x_);                  \
		__m512i ch_ = _mm512_ternarylogic_epi32(e, f, g, 0xca); \
		__m512i s1_ = xor3(ror(e, 6), ror(e, 11), ror(e, 25));  \
		__m512i mj_ = _mm512_ternarylogic_epi32(a, b, c, 0xe8); \
		__m512i s0_ = xor3(ror(a, 2), ror(a, 13), ror(a, 22));  \
		PIN(dx_);                                               \
		__m512i dxc_ = _mm512_add_epi32(dx_, ch_);              \
		PIN(dxc_);                                              \
		__m512i e_ = _mm512_add_epi32(dxc_, s1_); /* d + T1 */  \
		PIN(e_);                                                \
		__m512i t1_ = _mm512_sub_epi32(e_, d);                  \
		PIN(t1_);                                               \
		__m512i r_ = _mm512_add_epi32(t1_, mj_);                \
		PIN(r_);                                                \
		d = e_;                                                 \
		h = _mm512_add_epi32(r_, s0_); /* T1 + T2 */            \
	} while (0)

/* Word t of the schedule (t >= 16) into w[t % 16], from the words
 * before it. */
#define SCHED(t)                                                        \
	do {                                                            \
		__m512i w15_ = w[((t)-15) & 15], w2_ = w[((t)-2) & 15]; \
		__m512i s0_ = xor3(ror(w15_, 7), ror(w15_, 18),         \
				   _mm512_srli_epi32(w15_, 3));         \
		__m512i s1_ = xor3(ror(w2_, 17), ror(w2_, 19),          \
				   _mm512_srli_epi32(w2_, 10));         \
		w[(t)&15] = _mm512_add_epi32(                           \
			_mm512_add_epi32(w[(t)&15], s0_),               \
			_mm512_add_epi32(w[((t)-7) & 15], s1_));        \
	} while (0)

#define STEP(t, a, b, c, d, e, f, g, h)                                \
	do {                                                           \
		if ((t) >= 16)                                         \
			SCHED(t);                                      \
		ROUND(a, b, c, d, e, f, g, h,                          \
		      _mm512_add_epi32(w[(t)&15],                      \
				       _mm512_set1_epi32((int)K[t]))); \
	} while (0)

/* nblocks 64-byte blocks of each of 16 streams; h[l] the state of stream
 * l, p[l] its bytes. */
static void avx512_blocks16(uint32_t h[LANES][8], const uint8_t *const p[LANES],
			    size_t nblocks)
{
	const __m512i bswap = _mm512_broadcast_i32x4(
		_mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL));
	/* the chaining values in memory between blocks, not in registers:
	 * the rounds need all 32 (a spill in the rounds costs more than
	 * eight loads and stores a block) */
	_Alignas(64) uint32_t cols[8][LANES];

	for (int j = 0; j < 8; j++)
		for (int l = 0; l < LANES; l++)
			cols[j][l] = h[l][j];
	for (size_t b = 0; b < nblocks; b++) {
		__m512i r[16], w[16], a, bb, c, d, e, f, g, hh;

		__asm__ volatile("" : : "r"(cols) : "memory");
		a = _mm512_load_si512(cols[0]);
		bb = _mm512_load_si512(cols[1]);
		c = _mm512_load_si512(cols[2]);
		d = _mm512_load_si512(cols[3]);
		e = _mm512_load_si512(cols[4]);
		f = _mm512_load_si512(cols[5]);
		g = _mm512_load_si512(cols[6]);
		hh = _mm512_load_si512(cols[7]);

#pragma GCC unroll 16
		for (int l = 0; l < LANES; l++)
			r[l] = _mm512_loadu_si512(
				(const void *)(p[l] + b * SHA256_BLOCK_SIZE));
		transpose16(r, w);
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++)
			w[i] = _mm512_shuffle_epi8(w[i], bswap);
			/* every index a constant: the schedule stays in
			 * registers */
#define EIGHT(t)                                         \
	do {                                             \
		STEP((t), a, bb, c, d, e, f, g, hh);     \
		STEP((t) + 1, hh, a, bb, c, d, e, f, g); \
		STEP((t) + 2, g, hh, a, bb, c, d, e, f); \
		STEP((t) + 3, f, g, hh, a, bb, c, d, e); \
		STEP((t) + 4, e, f, g, hh, a, bb, c, d); \
		STEP((t) + 5, d, e, f, g, hh, a, bb, c); \
		STEP((t) + 6, c, d, e, f, g, hh, a, bb); \
		STEP((t) + 7, bb, c, d, e, f, g, hh, a); \
	} while (0)
		EIGHT(0);
		EIGHT(8);
		EIGHT(16);
		EIGHT(24);
		EIGHT(32);
		EIGHT(40);
		EIGHT(48);
		EIGHT(56);
#undef EIGHT
#define ADD(j, x)                   \
	_mm512_store_si512(cols[j], \
			   _mm512_add_epi32(_mm512_load_si512(cols[j]), x))
		ADD(0, a);
		ADD(1, bb);
		ADD(2, c);
		ADD(3, d);
		ADD(4, e);
		ADD(5, f);
		ADD(6, g);
		ADD(7, hh);
#undef ADD
	}
	for (int l = 0; l < LANES; l++)
		for (int j = 0; j < 8; j++)
			h[l][j] = cols[j][l];
}

/* What is left of a batch, and single messages: the SHA unit's, where
 * the CPU has one. */
static void rest_many(const struct sha256_salted_state *st, const uint8_t *msgs,
		      size_t msg_len, size_t count, uint8_t *out,
		      size_t out_stride)
{
	if (ht_sha256_cpu_has_shani())
		ht_sha256_shani_finup_many3(st, msgs, msg_len, count, out,
					    out_stride);
	else
		ht_sha256_portable_finup_many(st, msgs, msg_len, count, out,
					      out_stride);
}

void ht_sha256_avx512_finup(const struct sha256_salted_state *st,
			    const uint8_t *msg, size_t len, uint8_t *out)
{
	if (ht_sha256_cpu_has_shani())
		ht_sha256_shani_finup(st, msg, len, out);
	else
		ht_sha256_portable_finup(st, msg, len, out);
}

void ht_sha256_avx512_finup2x(const struct sha256_salted_state *st,
			      const uint8_t *msg1, const uint8_t *msg2,
			      size_t len, uint8_t *out1, uint8_t *out2)
{
	if (ht_sha256_cpu_has_shani()) {
		ht_sha256_shani_finup2x(st, msg1, msg2, len, out1, out2);
	} else {
		ht_sha256_portable_finup(st, msg1, len, out1);
		ht_sha256_portable_finup(st, msg2, len, out2);
	}
}

/* count messages of msg_len bytes: sixteen at a time, each lane with the
 * head and tail blocks laid out once per call (sha256_finup.h). */
void ht_sha256_avx512_finup_many(const struct sha256_salted_state *st,
				 const uint8_t *msgs, size_t msg_len,
				 size_t count, uint8_t *out, size_t out_stride)
{
	size_t i = 0;

	if (msg_len >= SHA256_BLOCK_SIZE && count >= LANES) {
		struct sha256_shape sh;
		struct sha256_lane ln[LANES];
		const uint8_t *heads[LANES], *tails[LANES];

		sha256_shape_init(&sh, st, msg_len);
		for (int l = 0; l < LANES; l++) {
			sha256_lane_init(&ln[l], st, &sh);
			heads[l] = ln[l].head;
			tails[l] = ln[l].tail + 64;
		}
		for (; i + LANES <= count; i += LANES) {
			uint32_t h[LANES][8];
			const uint8_t *p[LANES];

			for (int l = 0; l < LANES; l++) {
				const uint8_t *m = msgs + (i + l) * msg_len;

				memcpy(h[l], st->h, sizeof(h[l]));
				sha256_lane_load(&ln[l], &sh, m, msg_len);
				p[l] = m + sh.take;
			}
			if (sh.buffered)
				avx512_blocks16(h, heads, 1);
			avx512_blocks16(h, p, sh.whole);
			avx512_blocks16(h, tails, sh.tail_blocks);
			for (int l = 0; l < LANES; l++)
				sha256_out(h[l], out + (i + l) * out_stride);
		}
	}
	if (i < count)
		rest_many(st, msgs + i * msg_len, msg_len, count - i,
			  out + i * out_stride, out_stride);
}
#else
typedef int sha256_avx512_unused;
#endif
