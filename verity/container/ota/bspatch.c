/* bspatch (verity/container/ota/ota.h, verity_ota_bspatch; the format:
 * docs/ota.md): a 32-byte header (BSDIFF40, or
 * BSDF2 and a compressor byte for each stream; the control and diff
 * streams' compressed lengths and the new data's size, sign-magnitude
 * little-endian), then the control, diff and extra streams. Each control
 * entry (x, y, z): x bytes of diff added to the old data from the old
 * position (zeros outside it), y bytes of extra, then the old position
 * moved by z. Every length is checked before it is used. Written here:
 * Debian 12 packages bspatch as a program only (bsdiff), no library. */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 32
#define CHUNK  (64u << 10)

/* A sign-magnitude 64-bit integer: -1 for the one it cannot be. */
static int offtin(const uint8_t *p, int64_t *v)
{
	uint64_t m = 0;

	for (int i = 7; i >= 0; i--)
		m = m << 8 | p[i];
	if ((m & ~(1ull << 63)) > (uint64_t)INT64_MAX / 2)
		return -1; /* far past any size here */
	*v = (int64_t)(m & ~(1ull << 63));
	if (m >> 63)
		*v = -*v;
	return 0;
}

struct grow {
	uint8_t *p;
	size_t n, cap, max;
};

static int collect(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	struct grow *g = ctx;

	if (n > g->max - g->n)
		return ht_fail(err, EINVAL, "a stream past its bound");
	if (g->n + n > g->cap) {
		size_t cap = g->cap ? g->cap : 4096;
		uint8_t *q;

		while (cap < g->n + n)
			cap = cap > g->max / 2 ? g->max : cap * 2;
		if (!(q = realloc(g->p, cap)))
			return ht_fail(err, ENOMEM, "out of memory");
		g->p = q;
		g->cap = cap;
	}
	memcpy(g->p + g->n, p, n);
	g->n += n;
	return 0;
}

/* Stream k (its compressor kind) of len bytes at p into g, at most max. */
static int stream(unsigned kind, const uint8_t *p, size_t len, size_t max,
		  struct grow *g, const char *what, const char *name,
		  struct ht_error *err)
{
	char w[600];
	uint64_t got = 0;

	snprintf(w, sizeof(w), "%s: its %s stream", what, name);
	g->max = max;
	return verity_ota_decompress(kind, p, len, max, collect, g, &got, w,
				     err);
}

int verity_ota_bspatch(const uint8_t *patch, size_t len, const uint8_t *old,
		       size_t oldlen, uint64_t max, verity_ota_put_fn put,
		       void *ctx, uint64_t *produced, const char *what,
		       struct ht_error *err)
{
	struct grow ctrl = {0}, diff = {0}, extra = {0};
	unsigned kinds[3] = {1, 1, 1};
	int64_t clen, dlen, nsize, oldpos = 0;
	uint64_t newpos = 0;
	size_t cpos = 0, dpos = 0, epos = 0;
	uint8_t *buf = NULL;
	int r;

	*produced = 0;
	if (len < HEADER)
		return ht_fail(err, EINVAL, "%s: a patch of %zu bytes: shorter "
					    "than its header",
			       what, len);
	if (!memcmp(patch, "BSDF2", 5)) {
		for (int i = 0; i < 3; i++) {
			if (patch[5 + i] != 1 && patch[5 + i] != 2)
				return ht_fail(err, EINVAL,
					       "%s: BSDF2 compressor %u of "
					       "stream %d: bzip2 (1) or brotli "
					       "(2) only",
					       what, patch[5 + i], i);
			kinds[i] = patch[5 + i] == 1 ? 1 : VERITY_OTA_BROTLI;
		}
	} else if (memcmp(patch, "BSDIFF40", 8)) {
		return ht_fail(err, EINVAL,
			       "%s: not a bsdiff patch (neither BSDIFF40 nor "
			       "BSDF2)",
			       what);
	}
	if (offtin(patch + 8, &clen) || offtin(patch + 16, &dlen) ||
	    offtin(patch + 24, &nsize) || clen < 0 || dlen < 0 || nsize < 0 ||
	    (uint64_t)clen > len - HEADER ||
	    (uint64_t)dlen > len - HEADER - (uint64_t)clen)
		return ht_fail(err, EINVAL,
			       "%s: its header's lengths (control, diff, new "
			       "size) do not fit the patch's %zu bytes",
			       what, len);
	if ((uint64_t)nsize > max)
		return ht_fail(err, EINVAL,
			       "%s: a new size of %lld bytes: more than its "
			       "dst_extents' %llu",
			       what, (long long)nsize, (unsigned long long)max);
	if ((r = stream(kinds[0], patch + HEADER, (size_t)clen,
			VERITY_OTA_MAX_OP, &ctrl, what, "control", err)) ||
	    (r = stream(kinds[1], patch + HEADER + clen, (size_t)dlen,
			(size_t)nsize, &diff, what, "diff", err)) ||
	    (r = stream(kinds[2], patch + HEADER + clen + dlen,
			len - HEADER - (size_t)clen - (size_t)dlen,
			(size_t)nsize, &extra, what, "extra", err)))
		goto out;
	if (!(buf = malloc(CHUNK))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	while (newpos < (uint64_t)nsize) {
		int64_t x, y, z;

		if (ctrl.n - cpos < 24) {
			r = ht_fail(err, EINVAL,
				    "%s: its control entries end at %llu of "
				    "%lld new bytes",
				    what, (unsigned long long)newpos,
				    (long long)nsize);
			goto out;
		}
		if (offtin(ctrl.p + cpos, &x) || offtin(ctrl.p + cpos + 8, &y) ||
		    offtin(ctrl.p + cpos + 16, &z) || x < 0 || y < 0 ||
		    (uint64_t)x > (uint64_t)nsize - newpos ||
		    (uint64_t)y > (uint64_t)nsize - newpos - (uint64_t)x ||
		    (uint64_t)x > diff.n - dpos || (uint64_t)y > extra.n - epos) {
			r = ht_fail(err, EINVAL,
				    "%s: control entry %zu goes past the new "
				    "size, the diff or the extra data",
				    what, cpos / 24);
			goto out;
		}
		cpos += 24;
		for (int64_t done = 0; done < x;) {
			size_t step = x - done < CHUNK ? (size_t)(x - done) : CHUNK;

			for (size_t i = 0; i < step; i++) {
				int64_t at = oldpos + done + (int64_t)i;

				buf[i] = (uint8_t)(diff.p[dpos + i] +
						   (at >= 0 && (uint64_t)at < oldlen
							    ? old[at]
							    : 0));
			}
			if ((r = put(ctx, buf, step, err)))
				goto out;
			dpos += step;
			done += (int64_t)step;
		}
		if (y && (r = put(ctx, extra.p + epos, (size_t)y, err)))
			goto out;
		epos += (size_t)y;
		newpos += (uint64_t)x + (uint64_t)y;
		/* |oldpos| stays under 2^62: offtin bounds x and z */
		oldpos += x + z;
		if (oldpos > INT64_MAX / 2 || oldpos < -(INT64_MAX / 2)) {
			r = ht_fail(err, EINVAL,
				    "%s: control entry %zu moves the old "
				    "position out of range",
				    what, cpos / 24 - 1);
			goto out;
		}
	}
	*produced = newpos;
out:
	free(ctrl.p);
	free(diff.p);
	free(extra.p);
	free(buf);
	return r;
}
