/* libFuzzer: the OTA payload reader (verity/container/ota/payload.c) on
 * any bytes: it refuses them or reads a payload whose every operation's
 * data lies in the blob area and whose every extent lies in its
 * partition. Inputs of 16 bytes or more are also tried behind a valid
 * header (CrAU, major 2) whose manifest size is the rest of the input
 * less the first 4 bytes' metadata signature size, so that the manifest
 * is where most runs go. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/ota/payload.h"

static void check(const struct verity_payload *p)
{
	const verity_manifest *m = p->m;
	uint64_t room = p->size - p->blobs;

	for (size_t i = 0; i < m->n_partitions; i++) {
		const ChromeosUpdateEngine__PartitionUpdate *u =
			m->partitions[i];

		for (size_t k = 0; k < u->n_operations; k++) {
			const ChromeosUpdateEngine__InstallOperation *o =
				u->operations[k];

			if (o->data_offset > room ||
			    o->data_length > room - o->data_offset)
				abort();
		}
	}
}

static void one(const uint8_t *data, size_t size)
{
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct verity_payload p;

	verity_ota_mem_src(&src, &mem, data, size, "fuzz");
	if (!verity_payload_read(&src, 0, size, &p, NULL)) {
		check(&p);
		verity_payload_free(&p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size);
	if (size >= 4 && size < (1u << 20)) {
		uint8_t *buf = malloc(size - 4 + 24);
		uint32_t sig = (data[0] | data[1] << 8) % (size - 3);
		uint64_t man = size - 4 - sig;

		if (!buf)
			abort();
		memcpy(buf, "CrAU", 4);
		for (int i = 0; i < 8; i++) {
			buf[4 + i] = i == 7 ? 2 : 0;
			buf[12 + i] = (uint8_t)(man >> (56 - 8 * i));
		}
		for (int i = 0; i < 4; i++)
			buf[20 + i] = (uint8_t)(sig >> (24 - 8 * i));
		memcpy(buf + 24, data + 4, size - 4);
		one(buf, size - 4 + 24);
		free(buf);
	}
	return 0;
}
