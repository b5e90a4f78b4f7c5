/* SHA-1 with the x86 SHA extensions (hashtree/sha1.h): one stream, and
 * two streams whose round chains are issued alternately so that the
 * dependent chains overlap. Built with -msha -msse4.1 on x86-64; a stub
 * elsewhere. */
#include "hashtree/sha1.h"

#include <string.h>

#include "hashtree/sha256.h" /* ht_sha256_cpu_has_shani(): the same CPU */

#if defined(__x86_64__)
#include <immintrin.h>

int ht_sha1_kernel_available(void)
{
	return ht_sha256_cpu_has_shani();
}

/* The instructions want the message's bytes reversed in each quad (W0 in
 * the top lane) and the state as ABCD (A in the top lane) and E. */
#define BSWAP_MASK _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL)

static inline void load_state(const uint32_t h[5], __m128i *abcd, __m128i *e)
{
	*abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1b);
	*e = _mm_set_epi32((int)h[4], 0, 0, 0);
}

static inline void store_state(uint32_t h[5], __m128i abcd, __m128i e)
{
	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e, 3);
}

/* Four rounds, step k of 20 (f: the round function, k / 5), of a stream
 * with state abcd, E values e[2] (e[k & 1] is this step's, the other
 * receives ABCD for the next) and message quads m[4]: the schedule of
 * quad k + 1, k + 2 and k + 3 advances as far as quad 19. */
#define STEP(k, f, abcd, e, m)                                              \
	do {                                                                \
		if ((k) == 0)                                               \
			e[0] = _mm_add_epi32(e[0], m[0]);                   \
		else                                                        \
			e[(k)&1] = _mm_sha1nexte_epu32(e[(k)&1], m[(k)&3]); \
		e[((k) + 1) & 1] = abcd;                                    \
		if ((k) >= 3 && (k) <= 18)                                  \
			m[((k) + 1) & 3] = _mm_sha1msg2_epu32(              \
				m[((k) + 1) & 3], m[(k)&3]);                \
		abcd = _mm_sha1rnds4_epu32(abcd, e[(k)&1], f);              \
		if ((k) >= 1 && (k) <= 16)                                  \
			m[((k) + 3) & 3] = _mm_sha1msg1_epu32(              \
				m[((k) + 3) & 3], m[(k)&3]);                \
		if ((k) >= 2 && (k) <= 17)                                  \
			m[((k) + 2) & 3] =                                  \
				_mm_xor_si128(m[((k) + 2) & 3], m[(k)&3]);  \
	} while (0)

/* The 20 steps, for each stream of a list (STREAMS applies S to each). */
#define ALL_STEPS(S) \
	S(0, 0);     \
	S(1, 0);     \
	S(2, 0);     \
	S(3, 0);     \
	S(4, 0);     \
	S(5, 1);     \
	S(6, 1);     \
	S(7, 1);     \
	S(8, 1);     \
	S(9, 1);     \
	S(10, 2);    \
	S(11, 2);    \
	S(12, 2);    \
	S(13, 2);    \
	S(14, 2);    \
	S(15, 3);    \
	S(16, 3);    \
	S(17, 3);    \
	S(18, 3);    \
	S(19, 3)

static inline void load_msg(__m128i m[4], const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		m[i] = _mm_shuffle_epi8(
			_mm_loadu_si128((const __m128i *)(p + 16 * i)),
			BSWAP_MASK);
}

static void blocks1(uint32_t h[5], const uint8_t *p, size_t n)
{
	__m128i abcd, e[2];

	load_state(h, &abcd, &e[0]);
	for (; n; n--, p += 64) {
		__m128i abcd0 = abcd, e0 = e[0], m[4];

		load_msg(m, p);
#define S1(k, f) STEP(k, f, abcd, e, m)
		ALL_STEPS(S1);
#undef S1
		e[0] = _mm_sha1nexte_epu32(e[0], e0);
		abcd = _mm_add_epi32(abcd, abcd0);
	}
	store_state(h, abcd, e[0]);
}

static void blocks2(uint32_t h1[5], uint32_t h2[5], const uint8_t *p1,
		    const uint8_t *p2, size_t n)
{
	__m128i a1, a2, e1[2], e2[2];

	load_state(h1, &a1, &e1[0]);
	load_state(h2, &a2, &e2[0]);
	for (; n; n--, p1 += 64, p2 += 64) {
		__m128i a1s = a1, a2s = a2, e1s = e1[0], e2s = e2[0], m1[4],
			m2[4];

		load_msg(m1, p1);
		load_msg(m2, p2);
#define S2(k, f)                        \
	do {                            \
		STEP(k, f, a1, e1, m1); \
		STEP(k, f, a2, e2, m2); \
	} while (0)
		ALL_STEPS(S2);
#undef S2
		e1[0] = _mm_sha1nexte_epu32(e1[0], e1s);
		a1 = _mm_add_epi32(a1, a1s);
		e2[0] = _mm_sha1nexte_epu32(e2[0], e2s);
		a2 = _mm_add_epi32(a2, a2s);
	}
	store_state(h1, a1, e1[0]);
	store_state(h2, a2, e2[0]);
}

void ht_sha1_salted_init(struct sha1_salted_state *st, const uint8_t *salt,
			 size_t salt_len)
{
	static const uint32_t iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe,
				       0x10325476, 0xc3d2e1f0};
	size_t whole = salt_len / 64 * 64;

	memcpy(st->h, iv, sizeof(iv));
	blocks1(st->h, salt, salt_len / 64);
	memset(st->buf, 0, sizeof(st->buf));
	memcpy(st->buf, salt + whole, salt_len - whole);
	st->bytes = salt_len;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The bytes after the last whole block: the rest of the message (after
 * the buffered salt when nothing was compressed yet), 0x80, zeros, the
 * length in bits. Returns its blocks (1 or 2) in t[128]. */
static size_t tail(const struct sha1_salted_state *st, const uint8_t *msg,
		   size_t len, size_t used, uint8_t t[128])
{
	size_t n = 0, blocks;
	uint64_t bits = (st->bytes + len) * 8;

	memset(t, 0, 128);
	if (!used && st->bytes % 64) {
		n = st->bytes % 64;
		memcpy(t, st->buf, n);
	}
	memcpy(t + n, msg + used, len - used);
	n += len - used;
	t[n] = 0x80;
	blocks = n < 56 ? 1 : 2;
	put_be32(t + 64 * blocks - 8, (uint32_t)(bits >> 32));
	put_be32(t + 64 * blocks - 4, (uint32_t)bits);
	return blocks;
}

/* The first block when salt bytes are buffered: salt, then the message's
 * first bytes. Returns the message bytes it took, 0 when the message does
 * not fill it (the tail then holds both). */
static size_t head(const struct sha1_salted_state *st, const uint8_t *msg,
		   size_t len, uint8_t t[64])
{
	size_t r = st->bytes % 64;

	if (!r || r + len < 64)
		return 0;
	memcpy(t, st->buf, r);
	memcpy(t + r, msg, 64 - r);
	return 64 - r;
}

static void out_be(const uint32_t h[5], uint8_t *out)
{
	for (int i = 0; i < 5; i++)
		put_be32(out + 4 * i, h[i]);
}

static void finup1(const struct sha1_salted_state *st, const uint8_t *msg,
		   size_t len, uint8_t *out)
{
	uint32_t h[5];
	uint8_t t[128];
	size_t used;

	memcpy(h, st->h, sizeof(h));
	if ((used = head(st, msg, len, t)))
		blocks1(h, t, 1);
	blocks1(h, msg + used, (len - used) / 64);
	used += (len - used) / 64 * 64;
	blocks1(h, t, tail(st, msg, len, used, t));
	out_be(h, out);
}

static void finup2(const struct sha1_salted_state *st, const uint8_t *m1,
		   const uint8_t *m2, size_t len, uint8_t *o1, uint8_t *o2)
{
	uint32_t h1[5], h2[5];
	uint8_t t1[128], t2[128];
	size_t used, blocks;

	memcpy(h1, st->h, sizeof(h1));
	memcpy(h2, st->h, sizeof(h2));
	if ((used = head(st, m1, len, t1))) {
		head(st, m2, len, t2);
		blocks2(h1, h2, t1, t2, 1);
	}
	blocks2(h1, h2, m1 + used, m2 + used, (len - used) / 64);
	used += (len - used) / 64 * 64;
	blocks = tail(st, m1, len, used, t1);
	tail(st, m2, len, used, t2);
	blocks2(h1, h2, t1, t2, blocks);
	out_be(h1, o1);
	out_be(h2, o2);
}

void ht_sha1_finup_many(const struct sha1_salted_state *st, const uint8_t *msgs,
			size_t msg_len, size_t count, uint8_t *out,
			size_t out_stride)
{
	size_t i = 0;

	for (; i + 2 <= count; i += 2)
		finup2(st, msgs + i * msg_len, msgs + (i + 1) * msg_len,
		       msg_len, out + i * out_stride,
		       out + (i + 1) * out_stride);
	if (i < count)
		finup1(st, msgs + i * msg_len, msg_len, out + i * out_stride);
}

#else /* no SHA-1 kernel on this architecture: OpenSSL's generic path */

int ht_sha1_kernel_available(void)
{
	return 0;
}

void ht_sha1_salted_init(struct sha1_salted_state *st, const uint8_t *salt,
			 size_t salt_len)
{
	(void)salt;
	memset(st, 0, sizeof(*st));
	st->bytes = salt_len;
}

void ht_sha1_finup_many(const struct sha1_salted_state *st, const uint8_t *msgs,
			size_t msg_len, size_t count, uint8_t *out,
			size_t out_stride)
{
	(void)st;
	(void)msgs;
	(void)msg_len;
	(void)count;
	(void)out;
	(void)out_stride;
}
#endif
