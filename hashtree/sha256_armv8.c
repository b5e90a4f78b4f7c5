/* SHA-256 with the Armv8 Cryptography Extensions (SHA256H, SHA256H2,
 * SHA256SU0, SHA256SU1 through <arm_neon.h>): one stream, and two streams
 * whose round chains are issued alternately so that the two dependent
 * chains overlap in the pipeline, as the x86 SHA-NI kernels do. No
 * package offers a salted import + finup over a caller's state (OpenSSL's
 * assembly takes only its own context), hence this file. Built with
 * +crypto for aarch64 only; called only when ht_sha256_cpu_has_armv8()
 * (HWCAP_SHA2) says so. */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "sha256_finup.h"

#define K ht_sha256_round_constants /* FIPS 180-4; one copy, in sha256.c */

static inline uint32x4_t load_be(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

/* Four rounds of quad i with message quad w[i & 3]; for i < 12 also the
 * schedule of the quad four ahead, in the same register. The state is
 * ABCD and EFGH, the order of h[] itself. */
#define QUAD(abcd, efgh, w, i)                                                 \
	do {                                                                   \
		uint32x4_t wk_ = vaddq_u32(w[(i)&3], vld1q_u32(&K[4 * (i)]));  \
		uint32x4_t abcd_ = abcd;                                       \
		if ((i) < 12)                                                  \
			w[(i)&3] =                                             \
				vsha256su0q_u32(w[(i)&3], w[((i) + 1) & 3]);   \
		abcd = vsha256hq_u32(abcd, efgh, wk_);                         \
		efgh = vsha256h2q_u32(efgh, abcd_, wk_);                       \
		if ((i) < 12)                                                  \
			w[(i)&3] = vsha256su1q_u32(w[(i)&3], w[((i) + 2) & 3], \
						   w[((i) + 3) & 3]);          \
	} while (0)

static void armv8_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(&h[0]), efgh = vld1q_u32(&h[4]);

	for (; nblocks; nblocks--, p += SHA256_BLOCK_SIZE) {
		uint32x4_t abcd0 = abcd, efgh0 = efgh, w[4];

		for (int i = 0; i < 4; i++)
			w[i] = load_be(p + 16 * i);
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++)
			QUAD(abcd, efgh, w, i);
		abcd = vaddq_u32(abcd, abcd0);
		efgh = vaddq_u32(efgh, efgh0);
	}
	vst1q_u32(&h[0], abcd);
	vst1q_u32(&h[4], efgh);
}

/* Each 64-byte step also prefetches the line `ahead` bytes further in
 * both streams (the next pair of blocks, when the caller hashes
 * consecutive pairs). */
static void armv8_blocks2(uint32_t h1[8], uint32_t h2[8], const uint8_t *p1,
			  const uint8_t *p2, size_t nblocks, size_t ahead)
{
	uint32x4_t a1 = vld1q_u32(&h1[0]), e1 = vld1q_u32(&h1[4]);
	uint32x4_t a2 = vld1q_u32(&h2[0]), e2 = vld1q_u32(&h2[4]);

	for (; nblocks;
	     nblocks--, p1 += SHA256_BLOCK_SIZE, p2 += SHA256_BLOCK_SIZE) {
		uint32x4_t a1s = a1, e1s = e1, a2s = a2, e2s = e2, x[4], y[4];

		__builtin_prefetch(p1 + ahead);
		__builtin_prefetch(p2 + ahead);
		for (int i = 0; i < 4; i++) {
			x[i] = load_be(p1 + 16 * i);
			y[i] = load_be(p2 + 16 * i);
		}
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++) {
			QUAD(a1, e1, x, i);
			QUAD(a2, e2, y, i);
		}
		a1 = vaddq_u32(a1, a1s);
		e1 = vaddq_u32(e1, e1s);
		a2 = vaddq_u32(a2, a2s);
		e2 = vaddq_u32(e2, e2s);
	}
	vst1q_u32(&h1[0], a1);
	vst1q_u32(&h1[4], e1);
	vst1q_u32(&h2[0], a2);
	vst1q_u32(&h2[4], e2);
}

void sha256_armv8_finup(const struct sha256_salted_state *st,
			const uint8_t *msg, size_t len, uint8_t *out)
{
	sha256_finup_tmpl(armv8_blocks, st, msg, len, out);
}

void sha256_armv8_finup2x(const struct sha256_salted_state *st,
			  const uint8_t *msg1, const uint8_t *msg2, size_t len,
			  uint8_t *out1, uint8_t *out2)
{
	sha256_finup2x_tmpl(armv8_blocks2, st, msg1, msg2, len, out1, out2, 0);
}

void sha256_armv8_finup_many(const struct sha256_salted_state *st,
			     const uint8_t *msgs, size_t msg_len, size_t count,
			     uint8_t *out, size_t out_stride)
{
	sha256_finup_many_tmpl(armv8_blocks, armv8_blocks2, st, msgs, msg_len,
			       count, out, out_stride);
}
#else
typedef int sha256_armv8_unused;
#endif
