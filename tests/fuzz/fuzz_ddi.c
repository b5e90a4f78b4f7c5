/* libFuzzer: what a disk image's reader meets first: a GPT header and its
 * entry array (the input's first 512 bytes, then the array), and a
 * signature partition's JSON (the whole input). Must never crash or read
 * outside the input; an accepted table must have its partitions inside
 * the usable sectors and apart. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "verity/container/ddi/ddi.h"

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t hdr[512], entries[GPT_ENTRIES_MAX];
	const uint64_t image = 1ull << 30;
	struct gpt_header h;
	struct gpt g;
	struct ht_error err;
	char root[2 * HT_MAX_DIGEST_SIZE + 1], fp[65];
	uint8_t *der;
	size_t der_len, n;

	if (verity_ddi_sig_json_parse(data, size, "fuzz", root, &der, &der_len,
				      fp, &err) == 0) {
		if (strlen(root) != 64 && strlen(root) != 128)
			abort();
		free(der);
	}
	if (size < 92)
		return 0;
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, data, size < 512 ? size : 512);
	/* half the runs with the CRCs made right, to reach what is beyond */
	n = size > 512 ? size - 512 : 0;
	if (n > sizeof(entries))
		n = sizeof(entries);
	memset(entries, 0, sizeof(entries));
	memcpy(entries, data + 512, n);
	if (data[0] & 1) {
		uint32_t count, esize, hsize;

		memcpy(hdr, "EFI PART", 8);
		put32(hdr + 8, 0x00010000);
		memcpy(&count, hdr + 80, 4);
		memcpy(&esize, hdr + 84, 4);
		memcpy(&hsize, hdr + 12, 4);
		if ((uint64_t)count * esize <= sizeof(entries))
			put32(hdr + 88,
			      (uint32_t)crc32(0, entries, count * esize));
		if (hsize >= 92 && hsize <= 512) {
			memset(hdr + 16, 0, 4);
			put32(hdr + 16, (uint32_t)crc32(0, hdr, hsize));
		}
	}
	if (verity_gpt_header_parse(hdr, 512, image, "fuzz", &h, &err))
		return 0;
	if ((uint64_t)h.entries * h.entry_size > sizeof(entries))
		abort();
	if (verity_gpt_entries_parse(&h, entries, "fuzz", &g, &err))
		return 0;
	for (size_t i = 0; i < g.nparts; i++) {
		const struct gpt_partition *p = &g.part[i];

		if (p->first_lba < h.first_usable ||
		    p->last_lba > h.last_usable || p->offset + p->size > image)
			abort();
		for (size_t j = 0; j < i; j++)
			if (!(g.part[j].last_lba < p->first_lba ||
			      p->last_lba < g.part[j].first_lba))
				abort();
		(void)verity_ddi_type_name(p->type);
	}
	verity_gpt_free(&g);
	return 0;
}
