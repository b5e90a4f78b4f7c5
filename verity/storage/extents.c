/* Sources of extents (verity/storage/extents.h). */
#include "verity/storage/extents.h"
#include "verity/storage/device.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int verity_extents_add(struct verity_extents *x, enum verity_extent_kind kind,
		       uint64_t length, uint64_t file_offset, uint32_t pattern,
		       uint32_t origin, struct ht_error *err)
{
	if (!length)
		return 0;
	if (length > UINT64_MAX - x->size)
		return ht_fail(err, EOVERFLOW, "extents past 64 bits of bytes");
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		struct verity_extent *more = realloc(x->e, cap * sizeof(*more));

		if (!more)
			return ht_fail(err, ENOMEM, "out of memory");
		x->e = more;
		x->cap = cap;
	}
	x->e[x->n++] = (struct verity_extent){
		x->size, length, kind, file_offset, pattern, origin, 0};
	x->size += length;
	return 0;
}

int verity_extents_add_in(struct verity_extents *x, uint32_t file,
			  uint64_t length, uint64_t file_offset,
			  uint32_t origin, struct ht_error *err)
{
	size_t n = x->n;
	int r;

	if (file > x->nfiles)
		return ht_fail(err, EINVAL,
			       "an extent in file %u of %u the extents have",
			       file, x->nfiles);
	if ((r = verity_extents_add(x, VERITY_EXTENT_FILE, length, file_offset,
				    0, origin, err)))
		return r;
	if (x->n > n)
		x->e[x->n - 1].file = file;
	return 0;
}

const struct verity_device *verity_extent_file(const struct verity_extents *x,
					       const struct verity_extent *e,
					       const struct verity_device *d)
{
	return e->file && e->file <= x->nfiles ? x->files[e->file - 1] : d;
}

struct verity_extents *verity_extents_copy(const struct verity_extents *x)
{
	struct verity_extents *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *x;
	c->release = NULL;
	c->owner = NULL;
	c->cap = x->n ? x->n : 1;
	if (!(c->e = malloc(c->cap * sizeof(*c->e)))) {
		free(c);
		return NULL;
	}
	if (x->n)
		memcpy(c->e, x->e, x->n * sizeof(*c->e));
	return c;
}

void verity_extents_free(struct verity_extents *x)
{
	void (*release)(void *) = x->release;
	void *owner = x->owner;

	free(x->e);
	memset(x, 0, sizeof(*x));
	if (release)
		release(owner);
}

int verity_extents_add_from(struct verity_extents *x,
			    const struct verity_extents *under, uint32_t file,
			    uint64_t off, uint64_t len, uint32_t origin,
			    struct ht_error *err)
{
	if (!under)
		return verity_extents_add_in(x, file, len, off, origin, err);
	if (off > under->size || len > under->size - off)
		return ht_fail(err, EINVAL,
			       "bytes [%llu, +%llu) past the end (%llu bytes)",
			       (unsigned long long)off,
			       (unsigned long long)len,
			       (unsigned long long)under->size);
	while (len) {
		const struct verity_extent *e = verity_extents_at(under, off);
		uint64_t in = off - e->logical, n = e->length - in;
		int r;

		if (n > len)
			n = len;
		if (e->kind == VERITY_EXTENT_FILE)
			r = verity_extents_add_in(x, file, n,
						  e->file_offset + in,
						  e->origin, err);
		else
			r = verity_extents_add(x, e->kind, n, 0,
					       verity_extent_pattern_at(e, in),
					       e->origin, err);
		if (r)
			return r;
		off += n;
		len -= n;
	}
	return 0;
}

void verity_extents_cut(struct verity_extents *x, uint64_t size)
{
	struct verity_extent *e;

	if (size >= x->size)
		return;
	if (!size) {
		x->n = 0;
		x->size = 0;
		return;
	}
	e = (struct verity_extent *)verity_extents_at(x, size - 1);
	e->length = size - e->logical;
	x->n = (size_t)(e - x->e) + 1;
	x->size = size;
}

const struct verity_extent *verity_extents_at(const struct verity_extents *x,
					      uint64_t off)
{
	size_t lo = 0, hi = x->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->e[mid].logical <= off)
			lo = mid;
		else
			hi = mid;
	}
	return x->n ? &x->e[lo] : NULL;
}

/* The pattern repeats from the extent's start. */
uint32_t verity_extent_pattern_at(const struct verity_extent *e, uint64_t in)
{
	unsigned shift = (unsigned)(in % 4) * 8;
	uint32_t p = e->kind == VERITY_EXTENT_FILL ? e->pattern : 0;

	return shift ? p >> shift | p << (32 - shift) : p;
}

void verity_extent_fill(const struct verity_extent *e, uint64_t in,
			uint8_t *out, size_t n)
{
	uint32_t p = verity_extent_pattern_at(e, in);
	uint8_t b[4] = {(uint8_t)p, (uint8_t)(p >> 8), (uint8_t)(p >> 16),
			(uint8_t)(p >> 24)};

	if (!p) {
		memset(out, 0, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = b[i % 4];
}

uint64_t verity_extents_unstored(const struct verity_extents *x, uint64_t off,
				 uint64_t len)
{
	uint64_t n = 0, end;

	if (off >= x->size)
		return 0;
	end = len > x->size - off ? x->size : off + len;
	for (const struct verity_extent *e = verity_extents_at(x, off);
	     e < x->e + x->n && e->logical < end; e++) {
		uint64_t from = e->logical > off ? e->logical : off;
		uint64_t to = e->logical + e->length < end
				      ? e->logical + e->length
				      : end;

		if (e->kind != VERITY_EXTENT_FILE)
			n += to - from;
	}
	return n;
}

uint64_t verity_extents_stored(const struct verity_extents *x)
{
	uint64_t n = 0;

	for (size_t i = 0; i < x->n; i++)
		if (x->e[i].kind == VERITY_EXTENT_FILE)
			n += x->e[i].length;
	return n;
}

int verity_extents_read(const struct verity_extents *x,
			const struct verity_device *d, uint64_t off, void *buf,
			size_t len, struct ht_error *err)
{
	uint8_t *out = buf;

	if (off > x->size || len > x->size - off)
		return ht_fail(err, EINVAL,
			       "a read of %zu bytes at %llu past the end (%llu "
			       "bytes)",
			       len, (unsigned long long)off,
			       (unsigned long long)x->size);
	while (len) {
		const struct verity_extent *e = verity_extents_at(x, off);
		uint64_t in = off - e->logical, left = e->length - in;
		size_t n = left < len ? (size_t)left : len;
		int r;

		switch (e->kind) {
		case VERITY_EXTENT_FILE:
			if ((r = verity_device_read(verity_extent_file(x, e, d),
						    e->file_offset + in, out, n,
						    err)))
				return r;
			break;
		default:
			verity_extent_fill(e, in, out, n);
		}
		out += n;
		off += n;
		len -= n;
	}
	return 0;
}
