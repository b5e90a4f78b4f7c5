/* libFuzzer: the super image reader (verity/container/super/) on any
 * bytes: it refuses, or every partition it returns has extents inside
 * the image that add up to its size, and every byte of them reads. The
 * input is tried as a whole image, and as the metadata of slot 0 (header
 * and tables, both copies) behind a valid geometry with its checksums
 * set, so that most runs reach the tables rather than a checksum. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "verity/container/super/super.h"

#define META  4096u
#define IMAGE (64u << 10)

static char path[64];

static void cleanup(void)
{
	unlink(path);
}

static void sum(const uint8_t *p, size_t n, uint8_t *out)
{
	unsigned len = 32;

	if (!EVP_Digest(p, n, out, &len, EVP_sha256(), NULL))
		abort();
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void one(const uint8_t *data, size_t size)
{
	struct verity_super s;
	struct ht_error err;
	FILE *f;

	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size ||
	    fclose(f))
		abort();
	if (verity_super_open(&s, path, NULL, NULL, 0, 0, &err))
		return;
	for (uint32_t i = 0; i < s.m.np; i++) {
		const struct lp_partition *p = &s.m.p[i];
		struct verity_extents x;
		struct verity_region whole = {path, 0, 0, &x};
		struct verity_device d;
		uint8_t b[16];

		if (verity_super_extents(&s, i, &x, &err))
			abort();
		if (x.size != p->size)
			abort();
		x.path = path;
		if (x.size) {
			if (verity_device_open_region(&d, &whole,
						      VERITY_OPEN_READ, &err))
				abort();
			for (size_t k = 0; k < x.n && k < 32; k++) {
				size_t n = x.e[k].length < sizeof(b)
						   ? (size_t)x.e[k].length
						   : sizeof(b);

				if (verity_device_read(&d, x.e[k].logical, b, n,
						       &err))
					abort();
			}
			verity_device_close(&d);
		}
		verity_extents_free(&x);
	}
	verity_super_close(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *img, *g, *h;
	uint32_t hs, ts;

	if (!path[0]) {
		strcpy(path, "/tmp/fv-fuzz-super-XXXXXX");
		close(mkstemp(path));
		atexit(cleanup);
	}
	if (size < (1u << 20))
		one(data, size);
	if (size > META)
		return 0;
	/* behind a valid geometry: 4096-byte metadata, one slot */
	if (!(img = calloc(1, IMAGE)))
		abort();
	g = img + 4096;
	le32(g, 0x616c4467);
	le32(g + 4, 52);
	le32(g + 40, META);
	le32(g + 44, 1);
	le32(g + 48, 4096);
	sum(g, 52, g + 8);
	memcpy(img + 8192, g, 52);
	h = img + 12288;
	memcpy(h, data, size);
	/* the checksums the input's sizes call for, where they fit */
	hs = size >= 12 ? (uint32_t)(h[8] | h[9] << 8 | h[10] << 16 |
				     (uint32_t)h[11] << 24)
			: 0;
	ts = size >= 48 ? (uint32_t)(h[44] | h[45] << 8 | h[46] << 16 |
				     (uint32_t)h[47] << 24)
			: 0;
	if ((hs == 128 || hs == 256) && ts <= META - hs) {
		sum(h + hs, ts, h + 48);
		memset(h + 12, 0, 32);
		sum(h, hs, h + 12);
	}
	memcpy(img + 12288 + META, h, META);
	one(img, IMAGE);
	free(img);
	return 0;
}
