/* verity/container/ddi/gpt.c on bytes made here: GPT headers and entries
 * (CRCs, ranges, overlaps). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "check_main.h"
#include "verity/container/avb/image.h"
#include "verity/container/ddi/ddi.h"
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/policy/trust.h"

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* A GPT header over entries: 4 entries of 128 bytes at sector 2. */
static void header(uint8_t h[512], const uint8_t *entries)
{
	memset(h, 0, 512);
	memcpy(h, "EFI PART", 8);
	put32(h + 8, 0x00010000);
	put32(h + 12, 92);
	put64(h + 24, 1);
	put64(h + 40, 34);
	put64(h + 48, 2000);
	put64(h + 72, 2);
	put32(h + 80, 4);
	put32(h + 84, 128);
	put32(h + 88, (uint32_t)crc32(0, entries, 4 * 128));
	put32(h + 16, (uint32_t)crc32(0, h, 92));
}

static void entry(uint8_t *e, uint8_t tag, uint64_t first, uint64_t last)
{
	memset(e, 0, 128);
	e[0] = tag;
	e[16] = tag;
	put64(e + 32, first);
	put64(e + 40, last);
	e[56] = 'p';
}

START_TEST(gpt_checks)
{
	uint8_t h[512], entries[4 * 128];
	struct gpt_header gh;
	struct gpt g;
	struct ht_error err;

	memset(entries, 0, sizeof(entries));
	entry(entries, 1, 34, 99);
	entry(entries + 2 * 128, 2, 100, 199);
	header(h, entries);
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err), 0);
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 0);
	ck_assert_uint_eq(g.nparts, 2);
	ck_assert_uint_eq(g.part[1].index, 3);
	ck_assert_uint_eq(g.part[1].offset, 100 * 512);
	ck_assert_uint_eq(g.part[1].size, 100 * 512);
	ck_assert_str_eq(g.part[0].label, "p");
	verity_gpt_free(&g);
	/* the image ends before the usable sectors do */
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 1000 * 512, "t", &gh, &err),
		-EINVAL);
	/* a header CRC that does not match */
	h[60] ^= 1;
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "GPT header: CRC"));
	/* overlapping partitions */
	entry(entries + 2 * 128, 2, 99, 199);
	header(h, entries);
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err), 0);
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "partitions 1 and 3 overlap"));
	/* past the usable sectors; and an entry CRC that does not match */
	entry(entries + 2 * 128, 2, 100, 2001);
	header(h, entries);
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err), 0);
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "partition 3: sectors 100"));
	entries[200] ^= 1;
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "GPT entries: CRC"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "gpt"};

	return run_unit(&u, UNIT_TESTS(gpt_checks));
}
