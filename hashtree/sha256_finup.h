/* Finishing templates shared by the SHA-256 kernels. Each kernel file
 * includes this and passes its own block functions as constants, so the
 * compiler emits direct calls: no indirect call per block. Internal. */
#ifndef FV_SHA256_FINUP_H
#define FV_SHA256_FINUP_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <string.h>

#include "sha256.h"

/* The 64 round constants of FIPS 180-4 (in sha256.c), aligned for the
 * kernels' 16-byte loads. */
extern const uint32_t ht_sha256_round_constants[64]
	__attribute__((aligned(16), visibility("hidden")));

/* The kernels' own entry points (sha256.c dispatches to them). */
void ht_sha256_portable_finup(const struct sha256_salted_state *st,
			      const uint8_t *msg, size_t len, uint8_t *out);
void ht_sha256_portable_finup_many(const struct sha256_salted_state *st,
				   const uint8_t *msgs, size_t msg_len,
				   size_t count, uint8_t *out,
				   size_t out_stride);
#if defined(__x86_64__)
void ht_sha256_shani_finup(const struct sha256_salted_state *st,
			   const uint8_t *msg, size_t len, uint8_t *out);
void ht_sha256_shani_finup2x(const struct sha256_salted_state *st,
			     const uint8_t *msg1, const uint8_t *msg2,
			     size_t len, uint8_t *out1, uint8_t *out2);
void ht_sha256_shani_finup_many(const struct sha256_salted_state *st,
				const uint8_t *msgs, size_t msg_len,
				size_t count, uint8_t *out, size_t out_stride);
void ht_sha256_shani_finup_many3(const struct sha256_salted_state *st,
				 const uint8_t *msgs, size_t msg_len,
				 size_t count, uint8_t *out, size_t out_stride);
void ht_sha256_avx512_finup(const struct sha256_salted_state *st,
			    const uint8_t *msg, size_t len, uint8_t *out);
void ht_sha256_avx512_finup2x(const struct sha256_salted_state *st,
			      const uint8_t *msg1, const uint8_t *msg2,
			      size_t len, uint8_t *out1, uint8_t *out2);
void ht_sha256_avx512_finup_many(const struct sha256_salted_state *st,
				 const uint8_t *msgs, size_t msg_len,
				 size_t count, uint8_t *out, size_t out_stride);
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

/* The digest, big-endian. Byte swaps and word stores: written byte by
 * byte, the compiler vectorises the loop into byte inserts and extracts
 * that cost 4% of the time at 512-byte blocks. */
static inline void sha256_out(const uint32_t h[8], uint8_t *out)
{
	for (int i = 0; i < 8; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		uint32_t v = __builtin_bswap32(h[i]);
#else
		uint32_t v = h[i];
#endif
		memcpy(out + 4 * i, &v, 4);
	}
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

/* The shape shared by every message of one call (equal lengths from one
 * state): a head block of the buffered salt and the first `take` bytes
 * (none when no salt is buffered), `whole` blocks, and `rest` bytes in
 * the padded tail of `tail_blocks` blocks. */
struct sha256_shape {
	size_t buffered, take, whole, rest, tail_blocks;
	uint64_t total;
};

/* One stream's head and tail blocks, laid out once per call with the
 * salt and the padding, so that each message needs only two copies of
 * a fixed 64 bytes (no copy or memset of a variable length per message:
 * at 512-byte blocks those cost 9% of the time). head[0, 64) is the head
 * block; tail[64, 64 + 64 * tail_blocks) the tail, tail[0, 64) scratch. */
struct sha256_lane {
	uint8_t head[128];
	uint8_t tail[192];
};

/* len >= SHA256_BLOCK_SIZE. */
static inline void sha256_shape_init(struct sha256_shape *sh,
				     const struct sha256_salted_state *st,
				     size_t len)
{
	sh->buffered = (size_t)(st->bytes % SHA256_BLOCK_SIZE);
	sh->take = sh->buffered ? SHA256_BLOCK_SIZE - sh->buffered : 0;
	sh->whole = (len - sh->take) / SHA256_BLOCK_SIZE;
	sh->rest = (len - sh->take) % SHA256_BLOCK_SIZE;
	sh->tail_blocks = sh->rest < 56 ? 1 : 2;
	sh->total = st->bytes + len;
}

static inline void sha256_lane_init(struct sha256_lane *ln,
				    const struct sha256_salted_state *st,
				    const struct sha256_shape *sh)
{
	memcpy(ln->head, st->buf, sh->buffered);
	memset(ln->tail, 0, sizeof(ln->tail));
	ln->tail[64 + sh->rest] = 0x80;
	sha256_put_be64(ln->tail + 64 + 64 * sh->tail_blocks - 8,
			sh->total * 8);
}

/* The message's first bytes after the salt, its last bytes before the
 * padding: the 64 bytes from msg to head + buffered (when there is a
 * head block), the 64 ending at the message's end to end at
 * tail + 64 + rest. */
static inline void sha256_lane_load(struct sha256_lane *ln,
				    const struct sha256_shape *sh,
				    const uint8_t *msg, size_t len)
{
	if (sh->buffered)
		memcpy(ln->head + sh->buffered, msg, SHA256_BLOCK_SIZE);
	memcpy(ln->tail + sh->rest, msg + len - SHA256_BLOCK_SIZE,
	       SHA256_BLOCK_SIZE);
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

	if (msg_len >= SHA256_BLOCK_SIZE && count >= 2) {
		struct sha256_shape sh;
		struct sha256_lane ln[2];

		sha256_shape_init(&sh, st, msg_len);
		for (int s = 0; s < 2; s++)
			sha256_lane_init(&ln[s], st, &sh);
		for (; i + 2 <= count; i += 2) {
			const uint8_t *m1 = msgs + i * msg_len,
				      *m2 = m1 + msg_len;
			uint32_t h1[8], h2[8];

			memcpy(h1, st->h, sizeof(h1));
			memcpy(h2, st->h, sizeof(h2));
			sha256_lane_load(&ln[0], &sh, m1, msg_len);
			sha256_lane_load(&ln[1], &sh, m2, msg_len);
			if (sh.buffered)
				blocks2(h1, h2, ln[0].head, ln[1].head, 1, 0);
			blocks2(h1, h2, m1 + sh.take, m2 + sh.take, sh.whole,
				2 * msg_len);
			blocks2(h1, h2, ln[0].tail + 64, ln[1].tail + 64,
				sh.tail_blocks, 0);
			sha256_out(h1, out + i * out_stride);
			sha256_out(h2, out + (i + 1) * out_stride);
		}
	}
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

	if (msg_len >= SHA256_BLOCK_SIZE && count >= 3) {
		struct sha256_shape sh;
		struct sha256_lane ln[3];
		const uint8_t *const heads[3] = {ln[0].head, ln[1].head,
						 ln[2].head};
		const uint8_t *const tails[3] = {
			ln[0].tail + 64, ln[1].tail + 64, ln[2].tail + 64};

		sha256_shape_init(&sh, st, msg_len);
		for (int s = 0; s < 3; s++)
			sha256_lane_init(&ln[s], st, &sh);
		for (; i + 3 <= count; i += 3) {
			uint32_t h[3][8];
			const uint8_t *p[3];

			for (int s = 0; s < 3; s++) {
				const uint8_t *m = msgs + (i + s) * msg_len;

				memcpy(h[s], st->h, sizeof(h[s]));
				sha256_lane_load(&ln[s], &sh, m, msg_len);
				p[s] = m + sh.take;
			}
			if (sh.buffered)
				blocks3(h, heads, 1, 0);
			blocks3(h, p, sh.whole, 3 * msg_len);
			blocks3(h, tails, sh.tail_blocks, 0);
			for (int s = 0; s < 3; s++)
				sha256_out(h[s], out + (i + s) * out_stride);
		}
	}
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
