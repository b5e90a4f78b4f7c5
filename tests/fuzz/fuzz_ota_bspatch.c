/* libFuzzer: bspatch (verity/container/ota/bspatch.c) on any bytes: the
 * first two bytes give the old data's size (from the input's tail) and
 * the bound, the rest is the patch. It refuses it, or hands on exactly
 * the new size it says, never past the bound. */
#include <stdint.h>
#include <stdlib.h>

#include "verity/container/ota/ota.h"

static int put(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	(void)p;
	(void)err;
	*(uint64_t *)ctx += n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t n = 0, got = 0, max;
	size_t oldlen;

	if (size < 2)
		return 0;
	oldlen = data[0] % (size - 1);
	max = (uint64_t)data[1] << 8;
	if (!verity_ota_bspatch(data + 2, size - 2 - oldlen,
				data + size - oldlen, oldlen, max, put, &n,
				&got, "fuzz", NULL) &&
	    (got != n || got > max))
		abort();
	if (n > max)
		abort();
	return 0;
}
