/* verity/android/show.c: what dump, lp dump and lp unpack show of a
 * super image (made here, avb_make.h's: two slots, system_a of one
 * extent, system_b empty) -- dump's text and --json, every slot with
 * --all (a slot that holds what slot 0 holds said so), --slot b and its
 * refusal on metadata of one slot; lpdump's text, -d and -j (and -j's
 * {} when the metadata does not read); lp unpack's lines and files, and
 * its refusals before anything is written. */
#include <check.h>
#include <errno.h>
#include <sys/stat.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/android/show.h"

#define META  65536u
#define TSIZE (2 * 52 + 24 + 48 + 64)

struct got {
	char out[16384], err[4096], items[8192];
	int stop; /* the visitor's return on stdout's text */
};

static void add(char *buf, size_t cap, const char *s)
{
	size_t at = strlen(buf);

	snprintf(buf + at, cap - at, "%s", s);
}

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	char one[512];
	const char *k = it->key ? it->key : "";

	switch (it->kind) {
	case FV_ITEM_TEXT:
		add(g->out, sizeof(g->out), it->text);
		return g->stop;
	case FV_ITEM_ERROR:
		add(g->err, sizeof(g->err), it->text);
		return 0;
	case FV_ITEM_WARNING:
		snprintf(one, sizeof(one), "warning: %s\n", it->text);
		add(g->err, sizeof(g->err), one);
		return 0;
	case FV_ITEM_STRING:
		snprintf(one, sizeof(one), "%s=%s ", k, it->text);
		break;
	case FV_ITEM_UINT:
	case FV_ITEM_BOOL:
		snprintf(one, sizeof(one), "%s=%llu ", k,
			 (unsigned long long)it->u);
		break;
	case FV_ITEM_NULL:
		snprintf(one, sizeof(one), "%s=null ", k);
		break;
	case FV_ITEM_OBJECT:
		snprintf(one, sizeof(one), "%s{ ", k);
		break;
	case FV_ITEM_ARRAY:
		snprintf(one, sizeof(one), "%s[ ", k);
		break;
	case FV_ITEM_END:
		snprintf(one, sizeof(one), "} ");
		break;
	default:
		snprintf(one, sizeof(one), "?%d ", (int)it->kind);
	}
	add(g->items, sizeof(g->items), one);
	return 0;
}

/* lpdump's text of either slot of the image made (N: the slot) */
#define SLOT_TEXT(N)                                   \
	"Slot " #N ":\n"                               \
	"Metadata version: 10.0\n"                     \
	"Metadata size: 368 bytes\n"                   \
	"Metadata max size: 65536 bytes\n"             \
	"Metadata slot count: 2\n"                     \
	"Header flags: none\n"                         \
	"Partition table:\n"                           \
	"------------------------\n"                   \
	"  Name: system_a\n"                           \
	"  Group: default\n"                           \
	"  Attributes: readonly\n"                     \
	"  Extents:\n"                                 \
	"    0 .. 63 linear super 2048\n"              \
	"------------------------\n"                   \
	"  Name: system_b\n"                           \
	"  Group: default\n"                           \
	"  Attributes: readonly\n"                     \
	"  Extents:\n"                                 \
	"------------------------\n"                   \
	"Super partition layout:\n"                    \
	"------------------------\n"                   \
	"super: 2048 .. 2112: system_a (64 sectors)\n" \
	"------------------------\n"                   \
	"Block device table:\n"                        \
	"------------------------\n"                   \
	"  Partition name: super\n"                    \
	"  First sector: 2048\n"                       \
	"  Size: 3178496 bytes\n"                      \
	"  Flags: none\n"                              \
	"------------------------\n"                   \
	"Group table:\n"                               \
	"------------------------\n"                   \
	"  Name: default\n"                            \
	"  Maximum size: 0 bytes\n"                    \
	"  Flags: none\n"                              \
	"------------------------\n"

static struct got g;
static struct show sh;
static struct ht_error err;
static char sup[160];
static uint8_t part[8 * AMK_BS];

static void setup(void)
{
	memset(&g, 0, sizeof(g));
	memset(&err, 0, sizeof(err));
	sh = (struct show){collect, &g, 0, 0};
	amk_dir("/tmp/fvandshowXXXXXX");
	for (size_t i = 0; i < sizeof(part); i++)
		part[i] = (uint8_t)(i * 7 + 1);
	amk_super(amk_path(sup, "super.img"), part, sizeof(part));
}

static void teardown(void)
{
	amk_rmdir();
}

/* The metadata copy c of the image's bytes (0, 1: the slots' primary,
 * 2, 3: their backups) checksummed again after a change. */
static void resum(uint8_t *img, unsigned c)
{
	uint8_t *h = img + 12288 + c * META;

	amk_sha256(h + 128, TSIZE, h + 48);
	memset(h + 12, 0, 32);
	amk_sha256(h, 128, h + 12);
}

/* Partition i (0 system_a, 1 system_b) named name in the copies mask
 * (bit c: copy c) of the image. */
static void rename_part(unsigned i, const char *name, unsigned mask)
{
	size_t n;
	uint8_t *img = amk_read(sup, &n);

	for (unsigned c = 0; c < 4; c++) {
		uint8_t *t = img + 12288 + c * META + 128 + i * 52;

		if (!(mask & (1u << c)))
			continue;
		memset(t, 0, 36);
		memcpy(t, name, strlen(name));
		resum(img, c);
	}
	amk_write(sup, img, n);
	free(img);
}

static int show(enum fv_show_what what, int json, unsigned slot, int all)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .image = sup,
				    .json = json,
				    .slot = slot,
				    .all = all};

	sh.json = json;
	return verity_android_show(&q, &sh, &err);
}

START_TEST(dump_text)
{
	ck_assert_int_eq(show(FV_SHOW_SUPER, 0, 0, 0), 0);
	ck_assert_str_eq(g.out, SLOT_TEXT(0));
	ck_assert_str_eq(g.err, "");
	/* --all: slot 1 holds what slot 0 holds */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(show(FV_SHOW_SUPER, 0, 0, 1), 0);
	ck_assert_str_eq(g.out, SLOT_TEXT(0) "Slot 1: the same as slot 0.\n");
	/* --slot b: metadata slot 1 */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(show(FV_SHOW_SUPER, 0, 1, 0), 0);
	ck_assert_str_eq(g.out, SLOT_TEXT(1));
}
END_TEST

START_TEST(dump_all_slots_differ)
{
	/* slot 1's copies (primary and backup) name vendor_a */
	rename_part(0, "vendor_a", 1u << 1 | 1u << 3);
	ck_assert_int_eq(show(FV_SHOW_SUPER, 0, 0, 1), 0);
	ck_assert_ptr_null(strstr(g.out, "the same as slot 0"));
	ck_assert_ptr_nonnull(strstr(g.out,
				     "------------------------\nSlot 1:\n"
				     "Metadata version: 10.0\n"));
	ck_assert_ptr_nonnull(strstr(g.out, "  Name: vendor_a\n"));
	ck_assert_ptr_nonnull(strstr(g.out, "super: 2048 .. 2112: vendor_a "
					    "(64 sectors)\n"));
	/* --json: slot 1's metadata in full */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(show(FV_SHOW_SUPER, 1, 0, 1), 0);
	ck_assert_ptr_nonnull(strstr(g.items, "sparse=0 slots[ { metadata{ "
					      "slot=1 "));
	ck_assert_ptr_nonnull(strstr(g.items, "partitions[ { name=vendor_a "));
	ck_assert_ptr_nonnull(strstr(g.items, "slot=1 } } } "));
}
END_TEST

START_TEST(dump_json)
{
	char want[4096];

	ck_assert_int_eq(show(FV_SHOW_SUPER, 1, 0, 0), 0);
	snprintf(want, sizeof(want),
		 "{ metadata{ slot=0 version_major=10 version_minor=0 size=368 "
		 "max_size=65536 slot_count=2 logical_block_size=4096 "
		 "header_flags=none geometry_from_backup=0 "
		 "metadata_from_backup=0 } partitions[ { name=system_a "
		 "group=default size=32768 attributes=readonly extents[ { "
		 "first_sector=0 sectors=64 type=linear block_device=super "
		 "target_sector=2048 } } } { name=system_b group=default "
		 "size=0 attributes=readonly extents[ } } } groups[ { "
		 "name=default maximum_size=0 flags=none } } block_devices[ { "
		 "name=super file=%s first_sector=2048 size=3178496 "
		 "alignment=1048576 alignment_offset=0 flags=none } } image=%s "
		 "container=super sparse=0 } ",
		 sup, sup);
	ck_assert_str_eq(g.items, want);
	ck_assert_str_eq(g.out, "");
	/* --all, the same slot: said so */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(show(FV_SHOW_SUPER, 1, 0, 1), 0);
	ck_assert_ptr_nonnull(strstr(g.items, "sparse=0 slots[ { slot=1 "
					      "same_as_slot=0 } } } "));
}
END_TEST

START_TEST(dump_slot_b_refused)
{
	size_t n;
	uint8_t *img = amk_read(sup, &n);

	/* the geometry (and its backup) of one slot */
	for (unsigned at = 4096; at <= 8192; at += 4096) {
		amk_le(img + at + 44, 1, 4);
		memset(img + at + 8, 0, 32);
		amk_sha256(img + at, 52, img + at + 8);
	}
	amk_write(sup, img, n);
	free(img);
	ck_assert_int_eq(show(FV_SHOW_SUPER, 0, 1, 0), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err),
				     ": metadata of 1 slot: no slot b (slot b "
				     "is metadata slot 1)"));
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), sup));
	ck_assert_str_eq(g.out, "");
	/* slot a of it reads */
	ck_assert_int_eq(show(FV_SHOW_SUPER, 0, 0, 1), 0);
	ck_assert_ptr_nonnull(strstr(g.out, "Metadata slot count: 1\n"));
	ck_assert_ptr_null(strstr(g.out, "Slot 1"));
}
END_TEST

START_TEST(lpdump_text)
{
	ck_assert_int_eq(show(FV_SHOW_LPDUMP, 0, 0, 0), 0);
	ck_assert_str_eq(g.out, SLOT_TEXT(0));
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(show(FV_SHOW_LPDUMP, 0, 0, 1), 0);
	ck_assert_str_eq(g.out, SLOT_TEXT(0) "\n" SLOT_TEXT(1));
	/* -d: the bytes before the first sector */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(show(FV_SHOW_LPDUMP_SIZE, 0, 0, 0), 0);
	ck_assert_str_eq(g.out, "1048576\n");
}
END_TEST

START_TEST(lpdump_json)
{
	ck_assert_int_eq(show(FV_SHOW_LPDUMP, 1, 0, 0), 0);
	ck_assert_str_eq(g.out, "{\n"
				" \"partitions\": [\n"
				"  {\n"
				"   \"name\": \"system_a\",\n"
				"   \"group_name\": \"default\",\n"
				"   \"is_dynamic\": true,\n"
				"   \"size\": \"32768\"\n"
				"  },\n"
				"  {\n"
				"   \"name\": \"system_b\",\n"
				"   \"group_name\": \"default\",\n"
				"   \"is_dynamic\": true\n"
				"  }\n"
				" ],\n"
				" \"groups\": [\n"
				"  {\n"
				"   \"name\": \"default\"\n"
				"  }\n"
				" ],\n"
				" \"block_devices\": [\n"
				"  {\n"
				"   \"name\": \"super\",\n"
				"   \"size\": \"3178496\",\n"
				"   \"block_size\": \"4096\",\n"
				"   \"alignment\": \"1048576\"\n"
				"  }\n"
				" ]\n"
				"}\n");
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* metadata that does not read: -j says so and {} (lpdump's rule), the
 * others fail with nothing said */
START_TEST(lpdump_unreadable)
{
	char other[160];

	amk_data(amk_path(other, "plain.img"), 8, 3);
	strcpy(sup, other);
	ck_assert_int_eq(show(FV_SHOW_LPDUMP, 1, 0, 0), 0);
	ck_assert_str_eq(g.out, "{}\n");
	ck_assert_ptr_nonnull(strstr(g.err, "warning: failed to read "
					    "metadata: "));
	memset(&g, 0, sizeof(g));
	ck_assert_int_lt(show(FV_SHOW_LPDUMP, 0, 0, 0), 0);
	ck_assert_int_lt(show(FV_SHOW_LPDUMP_SIZE, 1, 0, 0), 0);
	ck_assert_int_lt(show(FV_SHOW_SUPER, 0, 0, 0), 0);
	ck_assert_int_lt(show(FV_SHOW_SUPER, 1, 0, 0), 0);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.items, "");
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* lpdump -j's strings as protobuf's JSON printer writes them */
START_TEST(lpdump_json_escapes)
{
	rename_part(1, "q\"b\\n<t>\t\x7f", 15);
	ck_assert_int_eq(show(FV_SHOW_LPDUMP, 1, 0, 0), 0);
	ck_assert_ptr_nonnull(
		strstr(g.out, "   \"name\": \"q\\\"b\\\\n\\u003ct\\u003e\\t"
			      "\\u007f\",\n"));
}
END_TEST

static int unpack(const char *dir, const char *const *names, size_t n)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_LPUNPACK,
				    .image = sup,
				    .dir = dir,
				    .names = names,
				    .n = n};

	return verity_android_show(&q, &sh, &err);
}

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

START_TEST(lpunpack_all)
{
	char dir[160], p[200];
	size_t n;
	uint8_t *b;

	amk_path(dir, "out/a/b");
	ck_assert_int_eq(unpack(dir, NULL, 0), 0);
	ck_assert_str_eq(g.out, "Attempting to extract partition "
				"'system_a'...\n"
				"  Dealing with extent 0 from target source "
				"0...\n"
				"Attempting to extract partition "
				"'system_b'...\n");
	ck_assert_str_eq(g.err, "");
	snprintf(p, sizeof(p), "%s/system_a.img", dir);
	b = amk_read(p, &n);
	ck_assert_uint_eq(n, sizeof(part));
	ck_assert_mem_eq(b, part, n);
	free(b);
	snprintf(p, sizeof(p), "%s/system_b.img", dir);
	b = amk_read(p, &n);
	ck_assert_uint_eq(n, 0);
	free(b);
}
END_TEST

START_TEST(lpunpack_named)
{
	static const char *const names[] = {"system_b"};
	char dir[160], p[200];

	amk_path(dir, "out");
	ck_assert_int_eq(unpack(dir, names, 1), 0);
	ck_assert_str_eq(g.out, "Attempting to extract partition "
				"'system_b'...\n");
	snprintf(p, sizeof(p), "%s/system_a.img", dir);
	ck_assert(!exists(p));
	snprintf(p, sizeof(p), "%s/system_b.img", dir);
	ck_assert(exists(p));
}
END_TEST

START_TEST(lpunpack_refused)
{
	static const char *const names[] = {"system_a", "vendor"};
	char dir[200], file[160], want[400];

	/* NULL dir, NULL names */
	ck_assert_int_eq(unpack(NULL, NULL, 0), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_show: lp unpack's dir is NULL");
	ck_assert_int_eq(unpack(amk_path(dir, "out"), NULL, 1), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_show: lp unpack's names is NULL");
	ck_assert_str_eq(g.err, "");
	/* a name not found: said, nothing made */
	ck_assert_int_eq(unpack(dir, names, 2), ENOENT);
	snprintf(want, sizeof(want),
		 "fastverity: lp unpack: %s: could not find partition "
		 "vendor\n",
		 sup);
	ck_assert_str_eq(g.err, want);
	ck_assert_str_eq(g.out, "");
	ck_assert(!exists(dir));
	/* the directory is a file */
	memset(&g, 0, sizeof(g));
	amk_data(amk_path(file, "file"), 1, 1);
	snprintf(dir, sizeof(dir), "%s/sub", file);
	ck_assert_int_eq(unpack(dir, NULL, 0), ENOTDIR);
	snprintf(want, sizeof(want), "fastverity: lp unpack: %s: %s\n", dir,
		 strerror(ENOTDIR));
	ck_assert_str_eq(g.err, want);
	ck_assert_str_eq(g.out, "");
}
END_TEST

/* A partition whose name is no file name is refused before anything is
 * made, named or not */
START_TEST(lpunpack_bad_names)
{
	static const char *const bad[] = {"a/b", "..", "."};
	static const char *const ok[] = {"system_a"};
	char dir[160], want[400];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&g, 0, sizeof(g));
		rename_part(1, bad[i], 15);
		ck_assert_int_eq(unpack(amk_path(dir, "out"), NULL, 0), EINVAL);
		snprintf(want, sizeof(want),
			 "fastverity: lp unpack: %s: partition %s cannot name "
			 "a file\n",
			 sup, bad[i]);
		ck_assert_str_eq(g.err, want);
		ck_assert_str_eq(g.out, "");
		ck_assert(!exists(dir));
	}
	/* no name at all: the metadata's read refuses it */
	memset(&g, 0, sizeof(g));
	rename_part(1, "", 15);
	ck_assert_int_eq(unpack(dir, NULL, 0), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "partition 1 has no name"));
	ck_assert(!exists(dir));
	/* one not asked for is not refused */
	memset(&g, 0, sizeof(g));
	rename_part(1, "a/b", 15);
	ck_assert_int_eq(unpack(dir, ok, 1), 0);
	ck_assert_str_eq(g.out, "Attempting to extract partition "
				"'system_a'...\n"
				"  Dealing with extent 0 from target source "
				"0...\n");
}
END_TEST

/* The visitor's non-zero return ends the unpack, handed back */
START_TEST(lpunpack_visitor_stops)
{
	char dir[160], p[200];

	g.stop = 7;
	ck_assert_int_eq(unpack(amk_path(dir, "out"), NULL, 0), 7);
	snprintf(p, sizeof(p), "%s/system_b.img", dir);
	ck_assert(!exists(p));
	memset(&g, 0, sizeof(g));
	g.stop = 9;
	sh.r = 0;
	ck_assert_int_eq(show(FV_SHOW_LPDUMP, 0, 0, 1), 9);
	ck_assert_str_eq(g.out, SLOT_TEXT(0));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"android_show", 0, setup,
					    teardown,       0, NULL};

	return run_unit(
		&u, UNIT_TESTS(dump_text, dump_all_slots_differ, dump_json,
			       dump_slot_b_refused, lpdump_text, lpdump_json,
			       lpdump_json_escapes, lpdump_unreadable,
			       lpunpack_all, lpunpack_named, lpunpack_refused,
			       lpunpack_bad_names, lpunpack_visitor_stops));
}
