/* GUID partition tables: the primary header and its entries, checked
 * field by field. CRC-32 from zlib (verity/storage/crc32.h). */
#include "verity/container/ddi/gpt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/storage/crc32.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int verity_gpt_signature(const uint8_t *buf)
{
	return !memcmp(buf, "EFI PART", 8);
}

void verity_gpt_guid_text(const uint8_t *b, char out[37])
{
	snprintf(out, 37, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 (unsigned)le32(b), (unsigned)(b[4] | b[5] << 8),
		 (unsigned)(b[6] | b[7] << 8), b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
}

int verity_gpt_header_parse(const uint8_t *buf, unsigned sector,
			    uint64_t image_size, const char *path,
			    struct gpt_header *h, struct ht_error *err)
{
	uint8_t copy[4096];
	uint32_t size, crc;
	uint64_t sectors = image_size / sector, bytes;
	int r;

	memset(h, 0, sizeof(*h));
	if (!verity_gpt_signature(buf))
		return ht_fail(err, EINVAL, "%s: no GPT header (EFI PART)",
			       path);
	size = le32(buf + 12);
	if (le32(buf + 8) != 0x00010000)
		return ht_fail(err, EINVAL,
			       "%s: GPT header: revision %08x is not 1.0", path,
			       (unsigned)le32(buf + 8));
	if (size < GPT_HEADER_MIN || size > sector)
		return ht_fail(err, EINVAL,
			       "%s: GPT header: size %u is not %d to %u", path,
			       (unsigned)size, GPT_HEADER_MIN, sector);
	memcpy(copy, buf, size);
	memset(copy + 16, 0, 4);
	if ((r = verity_crc32_load("checking a GPT header", err)))
		return r;
	crc = verity_crc32(0, copy, size);
	if (crc != le32(buf + 16))
		return ht_fail(err, EINVAL,
			       "%s: GPT header: CRC %08x does not match its "
			       "bytes (%08x)",
			       path, (unsigned)le32(buf + 16), (unsigned)crc);
	if (le64(buf + 24) != 1)
		return ht_fail(err, EINVAL,
			       "%s: GPT header: its own LBA is %llu, not 1",
			       path, (unsigned long long)le64(buf + 24));
	h->sector = sector;
	h->first_usable = le64(buf + 40);
	h->last_usable = le64(buf + 48);
	verity_gpt_guid_text(buf + 56, h->disk_uuid);
	h->entries_lba = le64(buf + 72);
	h->entries = le32(buf + 80);
	h->entry_size = le32(buf + 84);
	h->entries_crc = le32(buf + 88);
	if (h->first_usable > h->last_usable || h->last_usable >= sectors)
		return ht_fail(
			err, EINVAL,
			"%s: GPT header: usable sectors %llu to %llu are "
			"not inside the image (%llu sectors)",
			path, (unsigned long long)h->first_usable,
			(unsigned long long)h->last_usable,
			(unsigned long long)sectors);
	if (h->entry_size < 128 || h->entry_size % 8 ||
	    h->entries > GPT_MAX_ENTRIES)
		return ht_fail(err, EINVAL,
			       "%s: GPT header: %u entries of %u bytes (128 "
			       "bytes or more, a multiple of 8; at most %d "
			       "entries)",
			       path, (unsigned)h->entries,
			       (unsigned)h->entry_size, GPT_MAX_ENTRIES);
	bytes = (uint64_t)h->entries * h->entry_size;
	if (bytes > GPT_ENTRIES_MAX || h->entries_lba < 2 ||
	    h->entries_lba >= sectors ||
	    bytes > (sectors - h->entries_lba) * sector)
		return ht_fail(err, EINVAL,
			       "%s: GPT header: the entry array (%llu bytes at "
			       "sector %llu) is not inside the image",
			       path, (unsigned long long)bytes,
			       (unsigned long long)h->entries_lba);
	/* no partition may cover the table itself: the usable sectors
	 * start after the header and the entry array */
	if (h->first_usable < h->entries_lba + (bytes + sector - 1) / sector ||
	    h->first_usable < 2)
		return ht_fail(
			err, EINVAL,
			"%s: GPT header: the usable sectors start at "
			"%llu, over the partition table (header at 1, "
			"entries at %llu to %llu)",
			path, (unsigned long long)h->first_usable,
			(unsigned long long)h->entries_lba,
			(unsigned long long)(h->entries_lba +
					     (bytes + sector - 1) / sector -
					     1));
	return 0;
}

/* The UTF-16LE name as UTF-8 (unpaired surrogates become U+FFFD). */
static void label_text(const uint8_t *p, char *out)
{
	size_t o = 0;

	for (int i = 0; i < 36; i++) {
		uint32_t c = (uint32_t)(p[2 * i] | p[2 * i + 1] << 8);

		if (!c)
			break;
		if (c >= 0xd800 && c <= 0xdfff)
			c = 0xfffd;
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = 0;
}

static int by_start(const void *a, const void *b)
{
	const struct gpt_partition *x = a, *y = b;

	return x->first_lba < y->first_lba ? -1 : x->first_lba > y->first_lba;
}

int verity_gpt_entries_parse(const struct gpt_header *h, const uint8_t *entries,
			     const char *path, struct gpt *g,
			     struct ht_error *err)
{
	static const uint8_t unused[16];
	size_t bytes = (size_t)h->entries * h->entry_size;
	struct gpt_partition *sorted = NULL;
	uint32_t crc;
	int r;

	memset(g, 0, sizeof(*g));
	g->h = *h;
	if ((r = verity_crc32_load("checking GPT entries", err)))
		return r;
	crc = verity_crc32(0, entries, bytes);
	if (crc != h->entries_crc)
		return ht_fail(err, EINVAL,
			       "%s: GPT entries: CRC %08x does not match their "
			       "bytes (%08x)",
			       path, (unsigned)h->entries_crc, (unsigned)crc);
	if (!(g->part = calloc(h->entries + 1, sizeof(*g->part))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < h->entries; i++) {
		const uint8_t *e = entries + (size_t)i * h->entry_size;
		struct gpt_partition *p = &g->part[g->nparts];

		if (!memcmp(e, unused, 16))
			continue;
		p->index = i + 1;
		verity_gpt_guid_text(e, p->type);
		verity_gpt_guid_text(e + 16, p->uuid);
		p->first_lba = le64(e + 32);
		p->last_lba = le64(e + 40);
		p->attributes = le64(e + 48);
		label_text(e + 56, p->label);
		if (p->first_lba > p->last_lba ||
		    p->first_lba < h->first_usable ||
		    p->last_lba > h->last_usable) {
			r = ht_fail(
				err, EINVAL,
				"%s: partition %u: sectors %llu to %llu are "
				"not inside the usable sectors %llu to %llu",
				path, p->index,
				(unsigned long long)p->first_lba,
				(unsigned long long)p->last_lba,
				(unsigned long long)h->first_usable,
				(unsigned long long)h->last_usable);
			break;
		}
		p->offset = p->first_lba * h->sector;
		p->size = (p->last_lba - p->first_lba + 1) * h->sector;
		g->nparts++;
	}
	if (!r && g->nparts > 1 &&
	    !(sorted = malloc(g->nparts * sizeof(*sorted))))
		r = ht_fail(err, ENOMEM, "out of memory");
	if (!r && sorted) {
		memcpy(sorted, g->part, g->nparts * sizeof(*sorted));
		qsort(sorted, g->nparts, sizeof(*sorted), by_start);
		for (size_t i = 1; !r && i < g->nparts; i++)
			if (sorted[i].first_lba <= sorted[i - 1].last_lba)
				r = ht_fail(
					err, EINVAL,
					"%s: partitions %u and %u overlap "
					"(sectors %llu to %llu and %llu to "
					"%llu)",
					path, sorted[i - 1].index,
					sorted[i].index,
					(unsigned long long)sorted[i - 1]
						.first_lba,
					(unsigned long long)sorted[i - 1]
						.last_lba,
					(unsigned long long)sorted[i].first_lba,
					(unsigned long long)sorted[i].last_lba);
	}
	free(sorted);
	if (r)
		verity_gpt_free(g);
	return r;
}

void verity_gpt_free(struct gpt *g)
{
	free(g->part);
	g->part = NULL;
	g->nparts = 0;
}
