/* GUID partition tables, as a systemd Discoverable Disk Image carries its
 * partitions (docs/ddi.md): the primary header and its entries, every
 * field checked (CRCs, places inside the image, no overlaps) before a
 * partition is used. Untrusted input: messages name the partition and
 * the field. */
#ifndef FV_CONTAINER_DDI_GPT_H
#define FV_CONTAINER_DDI_GPT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

#define GPT_HEADER_MIN  92
#define GPT_MAX_ENTRIES 1024
#define GPT_ENTRIES_MAX (1u << 20)   /* bytes of the entry array */
#define GPT_LABEL_MAX   (36 * 3 + 1) /* 36 UTF-16 units as UTF-8 */

struct gpt_partition {
	unsigned index; /* 1-based, as sfdisk and the kernel number them */
	char type[37];  /* type UUID, lowercase */
	char uuid[37];  /* partition UUID */
	char label[GPT_LABEL_MAX];
	uint64_t first_lba, last_lba, attributes;
	uint64_t offset, size; /* bytes */
};

/* What the primary header says. */
struct gpt_header {
	unsigned sector; /* 512 or 4096 */
	uint64_t first_usable, last_usable;
	uint64_t entries_lba;
	uint32_t entries, entry_size, entries_crc;
	char disk_uuid[37];
};

struct gpt {
	struct gpt_header h;
	struct gpt_partition *part; /* used entries, in table order */
	size_t nparts;
};

/* 1 when buf (a sector at byte sector) starts with "EFI PART". */
int verity_gpt_signature(const uint8_t *buf);
/* Checks the header in buf (sector bytes, read at byte sector of an
 * image of image_size bytes): signature, revision, size, CRC, own LBA,
 * the usable range and the entry array inside the image. */
int verity_gpt_header_parse(const uint8_t *buf, unsigned sector,
			    uint64_t image_size, const char *path,
			    struct gpt_header *h, struct ht_error *err);
/* Checks the entry array (h->entries * h->entry_size bytes): its CRC,
 * then each used entry inside the usable range, none overlapping
 * another. g->part is malloc'd (verity_gpt_free). */
int verity_gpt_entries_parse(const struct gpt_header *h, const uint8_t *entries,
			     const char *path, struct gpt *g,
			     struct ht_error *err);
void verity_gpt_free(struct gpt *g);
/* A GUID's 16 on-disk bytes (first three fields little-endian) as text. */
void verity_gpt_guid_text(const uint8_t *b, char out[37]);

#endif
