/* libFuzzer: an OTA operation's blob decompressed
 * (verity/container/ota/decomp.c) from any bytes: byte 0 picks bzip2,
 * xz or zstd, bytes 1-2 the most it may make (in KiB); the rest is the
 * blob. It refuses it, or hands on at most that many bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "verity/container/ota/ota.h"

struct count {
	uint64_t n;
};

static int put(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	struct count *c = ctx;

	(void)p;
	(void)err;
	c->n += n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned types[3] = {1, 8, 14};
	struct count c = {0};
	uint64_t max, got = 0;

	if (size < 3)
		return 0;
	max = ((uint64_t)data[1] | (uint64_t)data[2] << 8) << 10;
	if (!verity_ota_decompress(types[data[0] % 3], data + 3, size - 3, max,
				   put, &c, &got, "fuzz", NULL) &&
	    (got > max || got != c.n))
		abort();
	if (got > max || c.n > max)
		abort();
	return 0;
}
