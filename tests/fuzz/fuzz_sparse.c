/* libFuzzer: the Android sparse image reader (verity/container/sparse/)
 * on any bytes: it refuses or returns extents that cover exactly the
 * declared blocks, without gaps, every file extent inside the file, and
 * every byte of them readable. Inputs of 8 bytes or more are also tried
 * behind a valid header (their first 8 bytes choose its block and chunk
 * counts: up to 63 blocks, or any 32-bit count when byte 3's top bit is
 * set), so that the chunk list is where most runs go. What reads as an
 * image also has its CRC32 sums checked (--check-crc), whatever blocks
 * it declares: DONT_CARE and FILL runs are summed without their bytes,
 * so a run slow enough to time out is a finding. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/container/sparse/sparse.h"

static char path[64];

static void cleanup(void)
{
	unlink(path);
}

static void one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size);
	if (size >= 8 && size < (1u << 20)) {
		uint8_t *img = malloc(size - 8 + 28);
		uint32_t blocks = data[3] & 0x80
					  ? (uint32_t)data[0] |
						    (uint32_t)data[1] << 8 |
						    (uint32_t)data[2] << 16 |
						    (uint32_t)data[3] << 24
					  : (data[0] | data[1] << 8) % 64,
			 chunks = data[4] % 16;
		static const uint8_t h[12] = {0x3a, 0xff, 0x26, 0xed, 1,  0,
					      0,    0,    28,   0,    12, 0};

		if (!img)
			abort();
		memcpy(img, h, 12);
		/* 4096-byte blocks, the counts, no checksum */
		memcpy(img + 12, (const uint8_t[4]){0, 16, 0, 0}, 4);
		memcpy(img + 16, &blocks, 4);
		memcpy(img + 20, &chunks, 4);
		memset(img + 24, 0, 4);
		memcpy(img + 28, data + 8, size - 8);
		one(img, size - 8 + 28);
		free(img);
	}
	return 0;
}

static void one(const uint8_t *data, size_t size)
{
	struct verity_sparse s;
	struct verity_device d;
	struct ht_error err;
	uint64_t at = 0;
	FILE *f;

	if (!path[0]) {
		strcpy(path, "/tmp/fv-fuzz-sparse-XXXXXX");
		close(mkstemp(path));
		atexit(cleanup);
	}
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size ||
	    fclose(f))
		abort();
	if (verity_device_open(&d, path, VERITY_OPEN_READ, &err))
		abort();
	if (!verity_sparse_read(&d, path, &s, &err)) {
		if (s.x.size != (uint64_t)s.blocks * s.block_size)
			abort();
		for (size_t i = 0; i < s.x.n; i++) {
			const struct verity_extent *e = &s.x.e[i];

			if (e->logical != at || !e->length ||
			    (e->kind == VERITY_EXTENT_FILE &&
			     (e->file_offset > size ||
			      e->length > size - e->file_offset)))
				abort();
			at += e->length;
		}
		if (at != s.x.size)
			abort();
		/* a few bytes of every extent, read back */
		for (size_t i = 0; i < s.x.n && i < 64; i++) {
			uint8_t b[16];
			const struct verity_extent *e = &s.x.e[i];
			size_t n = e->length < sizeof(b) ? (size_t)e->length
							 : sizeof(b);

			if (verity_extents_read(&s.x, &d, e->logical, b, n,
						&err))
				abort();
		}
		/* --check-crc's sums over what it reads: they hold or are
		 * named, whatever the unsparsed size */
		{
			int r = verity_sparse_check_crc(&d, path, &s, &err);

			if (r && r != -EPERM)
				abort();
		}
		verity_sparse_free(&s);
	}
	verity_device_close(&d);
}
