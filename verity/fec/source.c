/* The covered blocks and the parity as one address space, and the
 * blocks a dry run rebuilt, kept in memory in their place. */
#include "verity/fec/source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t overlay_find(const struct fec_overlay *ov, uint64_t c);

void verity_fec_overlay_patch(const struct fec_overlay *ov,
			      uint64_t first_block, uint64_t off, uint8_t *buf,
			      size_t len, size_t bs)
{
	uint64_t hi_b = first_block + (off + len + bs - 1) / bs;
	size_t lo = overlay_find(ov, first_block + off / bs);

	for (; lo < ov->count && ov->index[lo] < hi_b; lo++) {
		uint64_t start = (ov->index[lo] - first_block) * bs;
		uint64_t s = start > off ? start : off;
		uint64_t e = start + bs < off + len ? start + bs : off + len;

		memcpy(buf + (s - off), ov->block[lo] + (s - start), e - s);
	}
}

int verity_fec_read_covered(const struct fec_source *s, uint64_t first,
			    uint64_t count, uint8_t *buf, struct ht_error *err)
{
	const struct verity_fec_layout *fl = s->fl;
	size_t bs = fl->block_size;
	uint64_t at = first, left = count;
	uint8_t *out = buf;

	while (left) {
		uint64_t n;
		int r = 0;

		if (at < fl->data_blocks) {
			n = fl->data_blocks - at < left ? fl->data_blocks - at
							: left;
			r = verity_device_read(s->data, at * bs, out, n * bs,
					       err);
		} else if (at < fl->blocks) {
			n = fl->blocks - at < left ? fl->blocks - at : left;
			r = verity_device_read(
				s->hash,
				(fl->hash_start_block + at - fl->data_blocks) *
					bs,
				out, n * bs, err);
		} else {
			n = left;
			memset(out, 0, n * bs);
		}
		if (r)
			return r;
		at += n;
		left -= n;
		out += n * bs;
	}
	if (s->overlay && s->overlay->count)
		verity_fec_overlay_patch(s->overlay, first, 0, buf, count * bs,
					 bs);
	return 0;
}

int verity_fec_overlay_add(struct fec_overlay *ov, uint64_t c,
			   const uint8_t *block, size_t bs,
			   struct ht_error *err)
{
	uint8_t *copy;
	size_t i;

	if (ov->bytes + bs > FEC_OVERLAY_MAX_BYTES)
		return ht_fail_fix(err, ENOMEM, HT_PARAM_DRY_RUN, 0, 0,
				   "run %0",
				   "a dry run holds rebuilt blocks in memory, "
				   "and more than %u MiB are needed",
				   FEC_OVERLAY_MAX_BYTES >> 20);
	if (ov->count == ov->cap) {
		size_t cap = ov->cap ? 2 * ov->cap : 64;
		uint64_t *ix = realloc(ov->index, cap * sizeof(*ix));
		uint8_t **bl;

		if (!ix)
			return ht_fail(err, ENOMEM, "out of memory");
		ov->index = ix;
		bl = realloc(ov->block, cap * sizeof(*bl));
		if (!bl)
			return ht_fail(err, ENOMEM, "out of memory");
		ov->block = bl;
		ov->cap = cap;
	}
	copy = malloc(bs);
	if (!copy)
		return ht_fail(err, ENOMEM, "out of memory");
	memcpy(copy, block, bs);
	for (i = ov->count; i > 0 && ov->index[i - 1] > c; i--) {
		ov->index[i] = ov->index[i - 1];
		ov->block[i] = ov->block[i - 1];
	}
	ov->index[i] = c;
	ov->block[i] = copy;
	ov->count++;
	ov->bytes += bs;
	return 0;
}

void verity_fec_overlay_free(struct fec_overlay *ov)
{
	for (size_t i = 0; i < ov->count; i++)
		free(ov->block[i]);
	free(ov->index);
	free(ov->block);
	memset(ov, 0, sizeof(*ov));
}

/* The first overlaid block at or after covered block c. */
static size_t overlay_find(const struct fec_overlay *ov, uint64_t c)
{
	size_t lo = 0, hi = ov->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ov->index[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int verity_fec_overlay_has(const struct fec_overlay *ov, uint64_t c)
{
	size_t i = overlay_find(ov, c);

	return i < ov->count && ov->index[i] == c;
}
