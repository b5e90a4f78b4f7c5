/* libFuzzer: a payload's operations applied (verity/container/ota/
 * apply.c) from any bytes behind a valid header (CrAU, major 2, no
 * metadata signature, the manifest the first bytes' length): each
 * partition ends with a verdict, never a write outside its image. Only
 * payloads whose partitions are at most 1 MiB are applied (a larger
 * one's zeros would be hashed to its end). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/ota/ota.h"

static int small(const struct verity_payload *p)
{
	for (size_t i = 0; i < p->m->n_partitions; i++) {
		const ChromeosUpdateEngine__PartitionInfo *n =
			p->m->partitions[i]->new_partition_info;

		if (n && n->size > (1u << 20))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct verity_ota *o;
	uint8_t *buf;
	uint64_t man;

	if (size < 2 || size > (1u << 20))
		return 0;
	man = ((uint64_t)data[0] | (uint64_t)data[1] << 8) % (size - 1);
	if (!(buf = malloc(size - 2 + 24)) || !(o = calloc(1, sizeof(*o))))
		abort();
	memcpy(buf, "CrAU", 4);
	for (int i = 0; i < 8; i++) {
		buf[4 + i] = i == 7 ? 2 : 0;
		buf[12 + i] = (uint8_t)(man >> (56 - 8 * i));
	}
	memset(buf + 20, 0, 4);
	memcpy(buf + 24, data + 2, size - 2);
	o->dev.fd = -1;
	verity_ota_mem_src(&src, &mem, buf, size - 2 + 24, "fuzz");
	if (!verity_ota_read(&src, o, NULL) && small(&o->payload) &&
	    !verity_ota_apply(o, NULL, NULL, NULL, NULL))
		for (size_t i = 0; i < o->nparts; i++)
			if (!o->parts[i].verdict[0])
				abort();
	verity_ota_free(o);
	free(buf);
	return 0;
}
