/* A protobuf writer for the OTA suites: the few wire types a manifest
 * uses, so that the suites make their payloads themselves. */
#ifndef FV_UNIT_OTA_PB_H
#define FV_UNIT_OTA_PB_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pb {
	uint8_t *p;
	size_t n, cap;
};

static inline void pb_bytes(struct pb *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = 2 * (b->n + n) + 64;
		ck_assert_ptr_nonnull(b->p = realloc(b->p, b->cap));
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static inline void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t c;

	do {
		c = (uint8_t)(v & 0x7f);
		v >>= 7;
		c |= v ? 0x80 : 0;
		pb_bytes(b, &c, 1);
	} while (v);
}

/* field f, a varint */
static inline void pb_u(struct pb *b, unsigned f, uint64_t v)
{
	pb_varint(b, (uint64_t)f << 3);
	pb_varint(b, v);
}

/* field f, length-delimited */
static inline void pb_ld(struct pb *b, unsigned f, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)f << 3 | 2);
	pb_varint(b, n);
	pb_bytes(b, p, n);
}

/* field f, a message (freed) */
static inline void pb_msg(struct pb *b, unsigned f, struct pb *m)
{
	pb_ld(b, f, m->p, m->n);
	free(m->p);
	memset(m, 0, sizeof(*m));
}

/* field f, fixed32 */
static inline void pb_f32(struct pb *b, unsigned f, uint32_t v)
{
	uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24)};

	pb_varint(b, (uint64_t)f << 3 | 5);
	pb_bytes(b, le, 4);
}

/* A Signatures message of one entry of n bytes of fill. */
static inline void pb_signatures(struct pb *b, size_t n, uint8_t fill)
{
	struct pb s = {0};
	uint8_t *d = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(d);
	memset(d, fill, n);
	pb_ld(&s, 2, d, n);
	pb_f32(&s, 3, (uint32_t)n);
	pb_msg(b, 1, &s);
	free(d);
}

#endif
