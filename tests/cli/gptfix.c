/* gptfix IMAGE: recomputes the CRCs of the primary GPT (512-byte
 * sectors) after a test has edited its entries or header, so that the
 * reader's checks beyond the CRCs can be reached. A test tool. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <zlib.h>

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int main(int argc, char **argv)
{
	static uint8_t entries[1 << 20];
	uint8_t h[512];
	FILE *f;
	uint32_t n, size;
	uint64_t lba;

	if (argc != 2 || !(f = fopen(argv[1], "r+b")))
		return 2;
	if (fseek(f, 512, SEEK_SET) || fread(h, 1, 512, f) != 512)
		return 1;
	memcpy(&lba, h + 72, 8);
	n = le32(h + 80);
	size = le32(h + 84);
	if ((uint64_t)n * size > sizeof(entries) ||
	    fseek(f, (long)(lba * 512), SEEK_SET) ||
	    fread(entries, 1, (size_t)n * size, f) != (size_t)n * size)
		return 1;
	put32(h + 88, (uint32_t)crc32(0, entries, n * size));
	memset(h + 16, 0, 4);
	put32(h + 16, (uint32_t)crc32(0, h, le32(h + 12)));
	if (fseek(f, 512, SEEK_SET) || fwrite(h, 1, 512, f) != 512)
		return 1;
	return fclose(f) ? 1 : 0;
}
