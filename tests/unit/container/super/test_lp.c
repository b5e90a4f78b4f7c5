/* verity/container/super/lp.c: liblp's metadata read and checked, on
 * super images made here byte by byte (two slots of 4 KiB, three
 * partitions, a zero extent): what is read (sizes, lookups, extents
 * located); the backup geometry and the backup metadata copy read only
 * when the primary is not intact, and said; an intact copy that is
 * malformed refused, never replaced by its backup; every field from
 * disk a later step trusts refused when out of bounds, the message
 * naming it. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "hashtree/sha256.h"
#include "unit_files.h"
#include "verity/container/super/lp.h"

#define MAX    4096u  /* metadata_max_size */
#define FIRST  64u    /* the first sector partitions use */
#define IMG    40960u /* the image: 80 sectors */
#define GEO    LP_RESERVED
#define GEO_B  (LP_RESERVED + LP_GEOMETRY_AREA)
#define TABLES 0u /* partitions at 0, then the others */
#define P_OFF  0u
#define E_OFF  (3 * 52u)
#define G_OFF  (E_OFF + 2 * 24u)
#define B_OFF  (G_OFF + 48u)
#define TSIZE  (B_OFF + 64u)

static char dir[64];
static uint8_t img[IMG];

static void le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Byte where copy (0 primary, 1 backup) of slot's metadata starts. */
static uint8_t *slot_at(unsigned slots, unsigned copy, unsigned slot)
{
	return img + LP_METADATA_OFFSET + (copy * slots + slot) * MAX;
}

/* The geometry copy at g, its checksum made. */
static void geo_seal(uint8_t *g)
{
	memset(g + 8, 0, 32);
	ht_sha256(g, LP_GEOMETRY_SIZE, g + 8);
}

static void geometry(uint8_t *g, uint32_t max, uint32_t slots, uint32_t bs)
{
	memset(g, 0, LP_GEOMETRY_SIZE);
	le(g, LP_GEOMETRY_MAGIC, 4);
	le(g + 4, LP_GEOMETRY_SIZE, 4);
	le(g + 40, max, 4);
	le(g + 44, slots, 4);
	le(g + 48, bs, 4);
	geo_seal(g);
}

/* The header at h (header_size bytes of version 10.minor): both
 * checksums made again. */
static void seal(uint8_t *h)
{
	uint32_t hs = h[8] | h[9] << 8, ts = h[44] | h[45] << 8;

	ht_sha256(h + hs, ts, h + 48);
	memset(h + 12, 0, 32);
	ht_sha256(h, hs, h + 12);
}

static void partition(uint8_t *t, unsigned i, const char *name, uint32_t attr,
		      uint32_t first, uint32_t n)
{
	uint8_t *q = t + P_OFF + i * 52;

	memset(q, 0, 52);
	memcpy(q, name, strlen(name));
	le(q + 36, attr, 4);
	le(q + 40, first, 4);
	le(q + 44, n, 4);
	le(q + 48, 0, 4);
}

static void extent(uint8_t *t, unsigned i, uint64_t sectors, uint32_t type,
		   uint64_t target, uint32_t source)
{
	uint8_t *q = t + E_OFF + i * 24;

	le(q, sectors, 8);
	le(q + 8, type, 4);
	le(q + 12, target, 8);
	le(q + 20, source, 4);
}

/* One copy of metadata at h, version 10.minor. */
static void metadata(uint8_t *h, unsigned minor)
{
	uint32_t hs = minor >= 2 ? 256 : 128;
	uint8_t *t = h + hs, *q;

	memset(h, 0, MAX);
	le(h, LP_HEADER_MAGIC, 4);
	le(h + 4, 10, 2);
	le(h + 6, minor, 2);
	le(h + 8, hs, 4);
	le(h + 44, TSIZE, 4);
	le(h + 80, P_OFF, 4), le(h + 84, 3, 4), le(h + 88, 52, 4);
	le(h + 92, E_OFF, 4), le(h + 96, 2, 4), le(h + 100, 24, 4);
	le(h + 104, G_OFF, 4), le(h + 108, 1, 4), le(h + 112, 48, 4);
	le(h + 116, B_OFF, 4), le(h + 120, 1, 4), le(h + 124, 64, 4);
	partition(t, 0, "system_a", LP_ATTR_READONLY, 0, 1);
	partition(t, 1, "system_b", LP_ATTR_READONLY, 1, 0);
	partition(t, 2, "vendor_a", 0, 1, 1);
	extent(t, 0, 8, LP_TARGET_LINEAR, FIRST, 0);
	extent(t, 1, 4, LP_TARGET_ZERO, 0, 0);
	memcpy(t + G_OFF, "default", 7);
	q = t + B_OFF;
	le(q, FIRST, 8);
	le(q + 8, 4096, 4);
	le(q + 16, IMG, 8);
	memcpy(q + 24, "super", 5);
	seal(h);
}

/* The image: geometry and its backup, two slots, each in two copies. */
static void build(unsigned minor)
{
	memset(img, 0, sizeof(img));
	geometry(img + GEO, MAX, 2, 4096);
	memcpy(img + GEO_B, img + GEO, LP_GEOMETRY_SIZE);
	for (unsigned c = 0; c < 2; c++)
		for (unsigned s = 0; s < 2; s++)
			metadata(slot_at(2, c, s), minor);
	/* system_a's bytes */
	memset(img + FIRST * 512, 0x5a, 8 * 512);
}

/* The primary copy of slot 0's tables. */
static uint8_t *tables0(void)
{
	uint8_t *h = slot_at(2, 0, 0);

	return h + (h[8] | h[9] << 8);
}

/* img (its first len bytes) read as slot slot: the return, m filled. */
static int read_as(size_t len, uint32_t slot, struct lp_metadata *m,
		   struct ht_error *err)
{
	char *path = unit_path(dir, "/tmp/fv-lp.XXXXXX", "super.img");
	struct verity_device d;
	FILE *f = fopen(path, "wb");
	int r;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(img, 1, len, f), len);
	fclose(f);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, err),
			 0);
	r = verity_lp_read(&d, "super.img", slot, m, err);
	verity_device_close(&d);
	unlink(path);
	free(path);
	return r;
}

/* Slot 0's primary changed by the caller, sealed again: refused with a
 * message holding want. */
static void refused_sealed(const char *want)
{
	struct lp_metadata m;
	struct ht_error err = {0};

	seal(slot_at(2, 0, 0));
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), -EINVAL);
	ck_assert_msg(strstr(ht_msg(&err), want), "'%s' lacks '%s'",
		      ht_msg(&err), want);
	ck_assert_ptr_null(m.p);
	ck_assert_uint_eq(m.np, 0);
}

START_TEST(read_whole)
{
	struct lp_metadata m;
	struct ht_error err = {0};
	uint32_t dev = 9;
	uint64_t at = 0;

	for (unsigned minor = 0; minor <= 2; minor++) {
		build(minor);
		ck_assert_msg(read_as(IMG, 0, &m, &err) == 0, "%s",
			      ht_msg(&err));
		ck_assert_uint_eq(m.minor, minor);
		ck_assert_uint_eq(m.header_size, minor >= 2 ? 256 : 128);
		ck_assert_uint_eq(m.max_size, MAX);
		ck_assert_uint_eq(m.slots, 2);
		ck_assert_uint_eq(m.block_size, 4096);
		ck_assert_int_eq(m.geometry_backup, 0);
		ck_assert_int_eq(m.backup, 0);
		ck_assert_str_eq(m.note[0], "");
		ck_assert_str_eq(m.note[1], "");
		ck_assert_uint_eq(m.np, 3);
		ck_assert_uint_eq(m.ne, 2);
		ck_assert_uint_eq(m.ng, 1);
		ck_assert_uint_eq(m.nb, 1);
		ck_assert_str_eq(m.p[0].name, "system_a");
		ck_assert_uint_eq(m.p[0].size, 4096);
		ck_assert_uint_eq(m.p[1].size, 0);
		ck_assert_uint_eq(m.p[2].size, 2048);
		ck_assert_str_eq(m.g[0].name, "default");
		ck_assert_str_eq(m.b[0].name, "super");
		ck_assert_uint_eq(m.b[0].first_sector, FIRST);
		ck_assert_uint_eq(m.b[0].size, IMG);
		verity_lp_free(&m);
		ck_assert_ptr_null(m.p);
	}
	/* slot 1 */
	build(0);
	ck_assert_int_eq(read_as(IMG, 1, &m, &err), 0);
	ck_assert_uint_eq(m.slot, 1);
	/* lookups */
	ck_assert_int_eq(verity_lp_find(&m, "system_a"), 0);
	ck_assert_int_eq(verity_lp_find(&m, "vendor_a"), 2);
	ck_assert_int_eq(verity_lp_find(&m, "system"), -1);
	ck_assert_int_eq(verity_lp_ab(&m), 1);
	/* system_a's byte 100 lies on super at sector 64; vendor_a's bytes
	 * are zeros (no device); past the end, nothing */
	ck_assert_int_eq(verity_lp_locate(&m, 0, 100, &dev, &at), 0);
	ck_assert_uint_eq(dev, 0);
	ck_assert_uint_eq(at, FIRST * 512 + 100);
	ck_assert_int_eq(verity_lp_locate(&m, 0, 4095, &dev, &at), 0);
	ck_assert_uint_eq(at, FIRST * 512 + 4095);
	ck_assert_int_eq(verity_lp_locate(&m, 0, 4096, &dev, &at), -1);
	ck_assert_int_eq(verity_lp_locate(&m, 2, 0, &dev, &at), -1);
	ck_assert_int_eq(verity_lp_locate(&m, 1, 0, &dev, &at), -1);
	/* a slot the image has not */
	verity_lp_free(&m);
	ck_assert_int_eq(read_as(IMG, 2, &m, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "super.img: metadata slot 2: the image has 2");
}
END_TEST

START_TEST(names)
{
	struct lp_metadata m = {0};
	struct lp_partition p[2];

	ck_assert(verity_lp_name_ok("system_a"));
	ck_assert(verity_lp_name_ok("a"));
	ck_assert(verity_lp_name_ok("...")); /* only "." and ".." are not */
	ck_assert(verity_lp_name_ok("012345678901234567890123456789012345"));
	ck_assert(!verity_lp_name_ok("0123456789012345678901234567890123456"));
	ck_assert(!verity_lp_name_ok(""));
	ck_assert(!verity_lp_name_ok("."));
	ck_assert(!verity_lp_name_ok(".."));
	ck_assert(!verity_lp_name_ok("a/b"));
	ck_assert(!verity_lp_name_ok("tab\there"));
	ck_assert(!verity_lp_name_ok("del\x7f"));
	ck_assert(!verity_lp_name_ok("\xc3\xa9t\xc3\xa9"));
	ck_assert_int_eq(verity_lp_suffix_slot("system_a"), 0);
	ck_assert_int_eq(verity_lp_suffix_slot("system_b"), 1);
	ck_assert_int_eq(verity_lp_suffix_slot("x_a"), 0);
	ck_assert_int_eq(verity_lp_suffix_slot("_a"), -1);
	ck_assert_int_eq(verity_lp_suffix_slot("system_c"), -1);
	ck_assert_int_eq(verity_lp_suffix_slot("system-a"), -1);
	ck_assert_int_eq(verity_lp_suffix_slot("system"), -1);
	ck_assert_int_eq(verity_lp_suffix_slot(""), -1);
	memset(p, 0, sizeof(p));
	m.p = p;
	m.np = 2;
	strcpy(p[0].name, "system");
	strcpy(p[1].name, "vendor");
	ck_assert_int_eq(verity_lp_ab(&m), 0);
	strcpy(p[1].name, "vendor_b");
	ck_assert_int_eq(verity_lp_ab(&m), 1);
}
END_TEST

START_TEST(probe)
{
	char *path = unit_path(dir, "/tmp/fv-lp.XXXXXX", "probe.img");
	struct verity_device d;
	struct ht_error err = {0};
	FILE *f;

	build(0);
	/* the primary's magic gone: the backup's found */
	memset(img + GEO, 0, 4);
	f = fopen(path, "wb");
	ck_assert_uint_eq(fwrite(img, 1, IMG, f), IMG);
	fclose(f);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_lp_probe(&d), 1);
	verity_device_close(&d);
	/* neither */
	memset(img + GEO_B, 0, 4);
	f = fopen(path, "wb");
	ck_assert_uint_eq(fwrite(img, 1, IMG, f), IMG);
	fclose(f);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_lp_probe(&d), 0);
	verity_device_close(&d);
	/* a file too short for a geometry */
	f = fopen(path, "wb");
	ck_assert_uint_eq(fwrite(img, 1, 4100, f), 4100);
	fclose(f);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_lp_probe(&d), 0);
	verity_device_close(&d);
	unlink(path);
	free(path);
}
END_TEST

/* The backup geometry is read when the primary fails, and said; both
 * failing is one message with both reasons. */
START_TEST(geometry_backup)
{
	struct lp_metadata m;
	struct ht_error err = {0};

	build(0);
	img[GEO + 20] ^= 1; /* the checksum */
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), 0);
	ck_assert_int_eq(m.geometry_backup, 1);
	ck_assert_str_eq(m.note[0],
			 "super.img: the geometry at byte 4096: its SHA-256 "
			 "checksum does not match; read its backup at byte "
			 "8192");
	verity_lp_free(&m);
	le(img + GEO_B, 0x12345678, 4);
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "super.img: not a usable super image: the geometry "
			 "at byte 4096: its SHA-256 checksum does not match; "
			 "its backup at byte 8192: magic 0x12345678 (a "
			 "geometry has 0x616c4467)");
	/* an image that ends inside the geometry */
	build(0);
	ck_assert_int_eq(read_as(4096 + 40, 0, &m, &err), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(ht_msg(&err), "ends inside the geometry (byte 4096"));
}
END_TEST

/* Each field of the geometry out of bounds (sealed, the backup the same):
 * refused, naming it. */
START_TEST(geometry_fields)
{
	static const struct {
		uint32_t max, slots, bs;
		const char *want;
	} bad[] = {
		{0, 2, 4096, "metadata_max_size 0 "},
		{4000, 2, 4096, "metadata_max_size 4000 "},
		{(16u << 20) + 512, 2, 4096, "metadata_max_size 16777728 "},
		{MAX, 0, 4096, "metadata_slot_count 0 (1 to 64)"},
		{MAX, 65, 4096, "metadata_slot_count 65 (1 to 64)"},
		{MAX, 2, 0, "logical_block_size 0 "},
		{MAX, 2, 1000, "logical_block_size 1000 "},
	};
	struct lp_metadata m;
	struct ht_error err = {0};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		build(0);
		geometry(img + GEO, bad[i].max, bad[i].slots, bad[i].bs);
		memcpy(img + GEO_B, img + GEO, LP_GEOMETRY_SIZE);
		ck_assert_int_eq(read_as(IMG, 0, &m, &err), -EINVAL);
		ck_assert_msg(strstr(ht_msg(&err), bad[i].want), "%s",
			      ht_msg(&err));
	}
	/* the largest bounds taken: 16 MiB of metadata, 64 slots (the
	 * metadata then lies past this image: refused for that) */
	build(0);
	geometry(img + GEO, 16u << 20, 64, 512);
	memcpy(img + GEO_B, img + GEO, LP_GEOMETRY_SIZE);
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), -EINVAL);
	ck_assert_ptr_null(strstr(ht_msg(&err), "geometry"));
	/* a struct size other than 10.x's */
	build(0);
	le(img + GEO + 4, 60, 4);
	geo_seal(img + GEO);
	memcpy(img + GEO_B, img + GEO, LP_GEOMETRY_SIZE);
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "struct size 60 (10.x "
						   "has 52)"));
}
END_TEST

/* A primary copy that is not intact (a checksum, the magic, a version
 * not read): the backup read, and said; both not intact: one message. */
START_TEST(metadata_backup)
{
	struct lp_metadata m;
	struct ht_error err = {0};

	build(1);
	tables0()[0] ^= 1; /* the tables' checksum no longer matches */
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), 0);
	ck_assert_int_eq(m.backup, 1);
	ck_assert_str_eq(m.note[1],
			 "super.img: metadata slot 0 at byte 12288: the "
			 "tables' SHA-256 checksum does not match; read its "
			 "backup at byte 20480");
	ck_assert_str_eq(m.p[0].name, "system_a");
	verity_lp_free(&m);
	/* version 11, sealed: not what is read, so not intact */
	build(0);
	le(slot_at(2, 0, 0) + 4, 11, 2);
	seal(slot_at(2, 0, 0));
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), 0);
	ck_assert_int_eq(m.backup, 1);
	ck_assert_ptr_nonnull(strstr(m.note[1], "version 11.0"));
	verity_lp_free(&m);
	/* 10.3 */
	build(0);
	le(slot_at(2, 0, 0) + 6, 3, 2);
	seal(slot_at(2, 0, 0));
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), 0);
	ck_assert_int_eq(m.backup, 1);
	verity_lp_free(&m);
	/* a header size the version has not */
	build(0);
	le(slot_at(2, 0, 0) + 8, 256, 4);
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), 0);
	ck_assert_ptr_nonnull(
		strstr(m.note[1], "header_size 256 (version 10.0 has 128)"));
	verity_lp_free(&m);
	/* both copies: one message, each reason */
	build(0);
	le(slot_at(2, 0, 0), 0, 4);
	slot_at(2, 1, 0)[20] ^= 1;
	ck_assert_int_eq(read_as(IMG, 0, &m, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "super.img: metadata slot 0: at byte 12288: header "
			 "magic 0 (metadata has 0x414c5030); its backup at "
			 "byte 20480: the header's SHA-256 checksum does not "
			 "match");
	ck_assert_ptr_null(m.p);
	/* slot 1's copies are its own */
	ck_assert_int_eq(read_as(IMG, 1, &m, &err), 0);
	ck_assert_int_eq(m.backup, 0);
	verity_lp_free(&m);
	/* an image that ends inside slot 0's primary tables: its backup
	 * lies past the end too */
	build(0);
	ck_assert_int_eq(read_as(12288 + 200, 0, &m, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "ends inside the "
						   "metadata"));
}
END_TEST

/* An intact copy (its checksums match) that is malformed is refused,
 * never replaced by its backup (which is intact and well formed here). */
START_TEST(intact_malformed)
{
	uint8_t *h;

	build(0);
	h = slot_at(2, 0, 0);
	le(h + 44, MAX - 128 + 1, 4);
	refused_sealed("tables_size 3969 past metadata_max_size 4096");
	build(0);
	le(slot_at(2, 0, 0) + 100, 25, 4);
	refused_sealed("extent entry size 25 (10.x has 24)");
	build(0);
	le(slot_at(2, 0, 0) + 116, TSIZE - 63, 4);
	refused_sealed("the block device table (1 entries at 253) lies past "
		       "the tables (316 bytes)");
	build(0);
	le(slot_at(2, 0, 0) + 84, 0x40000000, 4);
	refused_sealed("the partition table (1073741824 entries at 0)");
	build(0);
	le(slot_at(2, 0, 0) + 80, 0xffffffff, 4);
	refused_sealed("the partition table (3 entries at 4294967295)");
	build(0);
	le(slot_at(2, 0, 0) + 120, 0, 4);
	refused_sealed("no block device (the super device is block device "
		       "0)");
	build(0);
	memset(tables0() + B_OFF + 24, 0, 36);
	refused_sealed("block device 0 has no name");
	build(0);
	memset(tables0() + P_OFF + 52, 0, 36);
	refused_sealed("partition 1 has no name");
	/* the message names the copy and its place */
	build(0);
	memset(tables0() + P_OFF, 0, 36);
	refused_sealed("super.img: metadata slot 0 at byte 12288 (its "
		       "checksums match): partition 0 has no name");
}
END_TEST

/* What the tables say, checked against each other and the image. */
START_TEST(tables)
{
	uint8_t *t;

	build(0);
	le(tables0() + B_OFF, 8, 8);
	refused_sealed("block device 0 (super): partitions start at sector "
		       "8, inside the metadata (which ends at byte 28672)");
	/* 64 slots: the metadata ends past the image */
	build(0);
	geometry(img + GEO, MAX, 64, 4096);
	le(tables0() + B_OFF, 2048, 8);
	refused_sealed("the metadata of 64 slots of 4096 bytes ends at byte "
		       "536576, past the image (40960 bytes)");
	build(0);
	extent(tables0(), 0, 8, 2, FIRST, 0);
	refused_sealed("extent 0: target type 2 (0 linear, 1 zero)");
	build(0);
	extent(tables0(), 1, 0, LP_TARGET_ZERO, 0, 0);
	refused_sealed("extent 1: 0 sectors");
	build(0);
	extent(tables0(), 1, UINT64_MAX / 512 + 1, LP_TARGET_ZERO, 0, 0);
	refused_sealed("extent 1: 36028797018963968 sectors");
	build(0);
	extent(tables0(), 0, 8, LP_TARGET_LINEAR, FIRST, 1);
	refused_sealed("extent 0: block device 1 of 1");
	build(0);
	extent(tables0(), 0, 8, LP_TARGET_LINEAR, FIRST - 1, 0);
	refused_sealed("extent 0: sector 63 of super lies in the metadata");
	/* past the block device's end, and a target that would wrap */
	build(0);
	extent(tables0(), 0, 17, LP_TARGET_LINEAR, FIRST, 0);
	refused_sealed("extent 0: sectors [64, 81) lie past the end of super "
		       "(40960 bytes)");
	build(0);
	extent(tables0(), 0, 8, LP_TARGET_LINEAR, UINT64_MAX - 4, 0);
	refused_sealed("lie past the end of super");
	/* block device 0 larger than the image: the extent checked against
	 * the image too */
	build(0);
	le(tables0() + B_OFF + 16, 2 * IMG, 8);
	extent(tables0(), 0, 17, LP_TARGET_LINEAR, FIRST, 0);
	refused_sealed("extent 0: sectors [64, 81) lie past the end of the "
		       "image (40960 bytes)");
	/* the last sector of the image: taken */
	build(0);
	extent(tables0(), 0, 16, LP_TARGET_LINEAR, FIRST, 0);
	seal(slot_at(2, 0, 0));
	{
		struct lp_metadata m;
		struct ht_error err = {0};

		ck_assert_msg(read_as(IMG, 0, &m, &err) == 0, "%s",
			      ht_msg(&err));
		ck_assert_uint_eq(m.p[0].size, 16 * 512);
		verity_lp_free(&m);
	}
	/* partitions */
	build(0);
	t = tables0();
	partition(t, 0, "system_a", LP_ATTR_UPDATED, 0, 1);
	refused_sealed("partition system_a: attributes 0x4 (version 10.0 "
		       "knows 0x3)");
	build(0);
	partition(tables0(), 2, "vendor_a", 0, 1, 2);
	refused_sealed("partition vendor_a: extents 1 to 3 of 2");
	build(0);
	partition(tables0(), 2, "vendor_a", 0, 0xffffffff, 2);
	refused_sealed("partition vendor_a: extents 4294967295 to 1 of 2");
	build(0);
	le(tables0() + P_OFF + 52 + 48, 1, 4);
	refused_sealed("partition system_b: group 1 of 1");
	build(0);
	partition(tables0(), 2, "system_a", 0, 1, 1);
	refused_sealed("two partitions are named system_a");
	build(0);
	partition(tables0(), 2, "vendor_a", 0, 0, 1);
	refused_sealed("partitions system_a and vendor_a share extent 0");
	/* two zero extents whose sum passes 64 bits */
	build(0);
	extent(tables0(), 0, UINT64_MAX / 512, LP_TARGET_ZERO, 0, 0);
	extent(tables0(), 1, UINT64_MAX / 512, LP_TARGET_ZERO, 0, 0);
	partition(tables0(), 0, "system_a", 0, 0, 2);
	partition(tables0(), 2, "vendor_a", 0, 2, 0);
	refused_sealed("partition system_a: its size is past 64 bits");
	/* two linear extents on the same sectors */
	build(0);
	extent(tables0(), 1, 4, LP_TARGET_LINEAR, FIRST + 4, 0);
	refused_sealed("extent 0 (partition system_a) and extent 1 "
		       "(partition vendor_a) overlap on super at sector 68");
	/* an odd name is shown escaped */
	build(0);
	partition(tables0(), 2, "bad\nname", 0, 0, 1);
	refused_sealed("share extent 0");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "lp"};
	int r = run_unit(&u,
			 UNIT_TESTS(read_whole, names, probe, geometry_backup,
				    geometry_fields, metadata_backup,
				    intact_malformed, tables));

	rmdir(dir);
	return r;
}
