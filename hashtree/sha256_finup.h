/* Finishing templates shared by the SHA-256 kernels. Each kernel file
 * includes this and passes its own block functions as constants, so the
 * compiler emits direct calls: no indirect call per block. Internal. */
#ifndef FV_SHA256_FINUP_H
#define FV_SHA256_FINUP_H

#include <string.h>

#include "sha256.h"

/* The 64 round constants of FIPS 180-4 (in sha256.c), aligned for the
 * kernels' 16-byte loads. */
extern const uint32_t sha256_round_constants[64]
	__attribute__((aligned(16), visibility("hidden")));

/* The kernels' own entry points (sha256.c dispatches to them). */
void sha256_portable_finup(const struct sha256_salted_state *st,
			   const uint8_t *msg, size_t len, uint8_t *out);
void sha256_portable_finup_many(const struct sha256_salted_state *st,
				const uint8_t *msgs, size_t msg_len,
				size_t count, uint8_t *out, size_t out_stride);
#if defined(__x86_64__)
void sha256_shani_finup(const struct sha256_salted_state *st,
			const uint8_t *msg, size_t len, uint8_t *out);
void sha256_shani_finup2x(const struct sha256_salted_state *st,
			  const uint8_t *msg1, const uint8_t *msg2, size_t len,
			  uint8_t *out1, uint8_t *out2);
void sha256_shani_finup_many(const struct sha256_salted_state *st,
			     const uint8_t *msgs, size_t msg_len, size_t count,
			     uint8_t *out, size_t out_stride);
void sha256_shani_finup_many3(const struct sha256_salted_state *st,
			      const uint8_t *msgs, size_t msg_len, size_t count,
			      uint8_t *out, size_t out_stride);
#endif
#if defined(__aarch64__)
void sha256_armv8_finup(const struct sha256_salted_state *st,
			const uint8_t *msg, size_t len, uint8_t *out);
void sha256_armv8_finup2x(const struct sha256_salted_state *st,
			  const uint8_t *msg1, const uint8_t *msg2, size_t len,
			  uint8_t *out1, uint8_t *out2);
void sha256_armv8_finup_many(const struct sha256_salted_state *st,
			     const uint8_t *msgs, size_t msg_len, size_t count,
			     uint8_t *out, size_t out_stride);
#endif

typedef void (*sha256_blocks_fn)(uint32_t h[8], const uint8_t *p,
				 size_t nblocks);
/* ahead: how far past p1 and p2 to prefetch while hashing (0: nothing
 * worth fetching; the addresses are only hints and are never read). */
typedef void (*sha256_blocks2_fn)(uint32_t h1[8], uint32_t h2[8],
				  const uint8_t *p1, const uint8_t *p2,
				  size_t nblocks, size_t ahead);

/* Three streams; h[s], p[s] for stream s. */
typedef void (*sha256_blocks3_fn)(uint32_t h[3][8], const uint8_t *const p[3],
				  size_t nblocks, size_t ahead);

static inline void sha256_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void sha256_put_be64(uint8_t *p, uint64_t v)
{
	sha256_put_be32(p, (uint32_t)(v >> 32));
	sha256_put_be32(p + 4, (uint32_t)v);
}

static inline void sha256_out(const uint32_t h[8], uint8_t *out)
{
	for (int i = 0; i < 8; i++)
		sha256_put_be32(out + 4 * i, h[i]);
}

/* Fills the buffered salt bytes and the first part of msg into a block.
 * Returns the bytes of msg consumed; *n is the fill of tail afterwards. */
static inline size_t sha256_fill_head(const struct sha256_salted_state *st,
				      const uint8_t *msg, size_t len,
				      uint8_t tail[128], size_t *n)
{
	size_t buffered = (size_t)(st->bytes % SHA256_BLOCK_SIZE);
	size_t take = 0;

	memcpy(tail, st->buf, buffered);
	if (buffered) {
		take = SHA256_BLOCK_SIZE - buffered;
		if (take > len)
			take = len;
		memcpy(tail + buffered, msg, take);
	}
	*n = buffered + take;
	return take;
}

/* Appends the padding and length; returns the number of blocks in tail. */
static inline size_t sha256_pad(uint8_t tail[128], size_t n, uint64_t total)
{
	size_t blocks = n < 56 ? 1 : 2;

	tail[n++] = 0x80;
	memset(tail + n, 0, blocks * 64 - 8 - n);
	sha256_put_be64(tail + blocks * 64 - 8, total * 8);
	return blocks;
}

static inline void sha256_finup_tmpl(sha256_blocks_fn blocks,
				     const struct sha256_salted_state *st,
				     const uint8_t *msg, size_t len,
				     uint8_t *out)
{
	uint8_t tail[128];
	uint32_t h[8];
	uint64_t total = st->bytes + len;
	size_t n, take;

	memcpy(h, st->h, sizeof(h));
	take = sha256_fill_head(st, msg, len, tail, &n);
	msg += take;
	len -= take;
	if (n == SHA256_BLOCK_SIZE) {
		blocks(h, tail, 1);
		n = 0;
	}
	if (n == 0) {
		size_t whole = len / SHA256_BLOCK_SIZE;
		blocks(h, msg, whole);
		msg += whole * SHA256_BLOCK_SIZE;
		len -= whole * SHA256_BLOCK_SIZE;
		memcpy(tail, msg, len);
		n = len;
	}
	blocks(h, tail, sha256_pad(tail, n, total));
	sha256_out(h, out);
}

/* Two messages of equal length from one state, in lock step. While the
 * whole blocks are hashed, the bytes `ahead` of them are prefetched: the
 * next pair, when the caller hashes consecutive pairs. */
static inline void sha256_finup2x_tmpl(sha256_blocks2_fn blocks2,
				       const struct sha256_salted_state *st,
				       const uint8_t *m1, const uint8_t *m2,
				       size_t len, uint8_t *out1, uint8_t *out2,
				       size_t ahead)
{
	uint8_t t1[128], t2[128];
	uint32_t h1[8], h2[8];
	uint64_t total = st->bytes + len;
	size_t n, take, nb;

	memcpy(h1, st->h, sizeof(h1));
	memcpy(h2, st->h, sizeof(h2));
	take = sha256_fill_head(st, m1, len, t1, &n);
	sha256_fill_head(st, m2, len, t2, &n);
	m1 += take;
	m2 += take;
	len -= take;
	if (n == SHA256_BLOCK_SIZE) {
		blocks2(h1, h2, t1, t2, 1, 0);
		n = 0;
	}
	if (n == 0) {
		size_t whole = len / SHA256_BLOCK_SIZE;
		blocks2(h1, h2, m1, m2, whole, ahead);
		m1 += whole * SHA256_BLOCK_SIZE;
		m2 += whole * SHA256_BLOCK_SIZE;
		len -= whole * SHA256_BLOCK_SIZE;
		memcpy(t1, m1, len);
		memcpy(t2, m2, len);
		n = len;
	}
	nb = sha256_pad(t1, n, total);
	sha256_pad(t2, n, total);
	blocks2(h1, h2, t1, t2, nb, 0);
	sha256_out(h1, out1);
	sha256_out(h2, out2);
}

/* Three messages of equal length from one state, in lock step, as the
 * two-message template. */
static inline void sha256_finup3x_tmpl(sha256_blocks3_fn blocks3,
				       const struct sha256_salted_state *st,
				       const uint8_t *const m[3], size_t len,
				       uint8_t *const out[3], size_t ahead)
{
	uint8_t t[3][128];
	uint32_t h[3][8];
	const uint8_t *p[3], *const tp[3] = {t[0], t[1], t[2]};
	uint64_t total = st->bytes + len;
	size_t n = 0, take = 0, nb = 0;

	for (int s = 0; s < 3; s++) {
		memcpy(h[s], st->h, sizeof(h[s]));
		take = sha256_fill_head(st, m[s], len, t[s], &n);
		p[s] = m[s] + take;
	}
	len -= take;
	if (n == SHA256_BLOCK_SIZE) {
		blocks3(h, tp, 1, 0);
		n = 0;
	}
	if (n == 0) {
		size_t whole = len / SHA256_BLOCK_SIZE;

		blocks3(h, p, whole, ahead);
		len -= whole * SHA256_BLOCK_SIZE;
		for (int s = 0; s < 3; s++)
			memcpy(t[s], p[s] + whole * SHA256_BLOCK_SIZE, len);
		n = len;
	}
	for (int s = 0; s < 3; s++)
		nb = sha256_pad(t[s], n, total);
	blocks3(h, tp, nb, 0);
	for (int s = 0; s < 3; s++)
		sha256_out(h[s], out[s]);
}

/* count messages of msg_len bytes, in pairs through blocks2 (each pair
 * prefetching the next), the odd last one through blocks. */
static inline void sha256_finup_many_tmpl(sha256_blocks_fn blocks,
					  sha256_blocks2_fn blocks2,
					  const struct sha256_salted_state *st,
					  const uint8_t *msgs, size_t msg_len,
					  size_t count, uint8_t *out,
					  size_t out_stride)
{
	size_t i = 0;

	for (; i + 2 <= count; i += 2)
		sha256_finup2x_tmpl(blocks2, st, msgs + i * msg_len,
				    msgs + (i + 1) * msg_len, msg_len,
				    out + i * out_stride,
				    out + (i + 1) * out_stride, 2 * msg_len);
	if (i < count)
		sha256_finup_tmpl(blocks, st, msgs + i * msg_len, msg_len,
				  out + i * out_stride);
}

/* The same in threes through blocks3 (each three prefetching the next),
 * then a pair or a single one for the rest. */
static inline void sha256_finup_many3_tmpl(sha256_blocks_fn blocks,
					   sha256_blocks2_fn blocks2,
					   sha256_blocks3_fn blocks3,
					   const struct sha256_salted_state *st,
					   const uint8_t *msgs, size_t msg_len,
					   size_t count, uint8_t *out,
					   size_t out_stride)
{
	size_t i = 0;

	for (; i + 3 <= count; i += 3) {
		const uint8_t *const m[3] = {msgs + i * msg_len,
					     msgs + (i + 1) * msg_len,
					     msgs + (i + 2) * msg_len};
		uint8_t *const o[3] = {out + i * out_stride,
				       out + (i + 1) * out_stride,
				       out + (i + 2) * out_stride};

		sha256_finup3x_tmpl(blocks3, st, m, msg_len, o, 3 * msg_len);
	}
	sha256_finup_many_tmpl(blocks, blocks2, st, msgs + i * msg_len, msg_len,
			       count - i, out + i * out_stride, out_stride);
}

#endif
