/* libFuzzer: the OTA zip reader (verity/container/ota/zip.c) and the
 * package reader above it (ota.c) on any bytes: they refuse them or
 * return entries whose data lies before the central directory, and a
 * signature footer inside the comment. Inputs are also tried with an
 * end of central directory record appended that points its directory
 * at the input's start (the first 2 bytes: the entry count), so that
 * the central directory is where most runs go. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/ota/ota.h"

static void one(const uint8_t *data, size_t size)
{
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct verity_zip z;
	struct verity_ota *o;

	verity_ota_mem_src(&src, &mem, data, size, "fuzz");
	if (!verity_zip_read(&src, &z, NULL)) {
		for (size_t i = 0; i < z.n; i++)
			if (z.e[i].data > z.cd || z.e[i].csize > z.cd - z.e[i].data)
				abort();
		if (z.signature && (z.cms_len + 6 > z.comment_len ||
				    z.signed_len >= size))
			abort();
		verity_zip_free(&z);
	}
	if (!(o = calloc(1, sizeof(*o))))
		abort();
	o->dev.fd = -1;
	verity_ota_read(&src, o, NULL);
	verity_ota_free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size);
	if (size >= 2 && size < (1u << 20)) {
		uint8_t *buf = malloc(size + 22);
		uint16_t n = (uint16_t)(data[0] | data[1] << 8);
		uint32_t cd = (uint32_t)size;

		if (!buf)
			abort();
		memcpy(buf, data, size);
		memcpy(buf + size, "PK\5\6\0\0\0\0", 8);
		memcpy(buf + size + 8, &n, 2);
		memcpy(buf + size + 10, &n, 2);
		memcpy(buf + size + 12, &cd, 4); /* directory: the input */
		memset(buf + size + 16, 0, 6);   /* at 0, no comment */
		one(buf, size + 22);
		free(buf);
	}
	return 0;
}
