/* verity/api/ddi.c through fv_show (FV_SHOW_DDI, FV_SHOW_DDI_VERIFY),
 * the public API alone: a disk image made here (a GPT of a root-x86-64
 * partition and its -verity partition, formatted by fv_format, the
 * partition UUIDs the root hash's halves): dump's text and --json, the
 * partition asked for (and its refusal before anything is said),
 * verify's verdicts (well, a bad data block, a tree that does not match
 * its root) with their exit errnos, and an image that is no disk. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "api/api_test.h"
#include "check_main.h"

#define SECTOR   512u
#define DDI_SIZE (4096u * SECTOR)
#define DATA_LBA 2048u
#define DATA_N   64u                      /* 4096-byte blocks */
#define HASH_LBA (DATA_LBA + DATA_N * 8u) /* 2560 */
#define HASH_N   64u                      /* sectors: 32 KiB */

static const char ROOT_X86_64[] = "4f68bce3e8cd4db196e7fbcaf984b709",
		  ROOT_X86_64_VERITY[] = "2c7357edebd246d9aec123d437ec2bf5",
		  ROOT_X86_64_SIG[] = "41092b059fc84523994f2def0408b176";
#define SIG_LBA (HASH_LBA + HASH_N) /* 2624 */
#define SIG_N   32u
/* the signature partition's fingerprint; its DER no signature */
static const char FP[] =
	"abababababababababababababababababababababababababababababababab";

static char disk[128], root[65];

static unsigned nib(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

/* 32 hex digits as a GUID's bytes on disk (its first three fields
 * little-endian). */
static void guid(const char *hex, uint8_t out[16])
{
	static const int order[16] = {3, 2, 1,  0,  5,  4,  7,  6,
				      8, 9, 10, 11, 12, 13, 14, 15};

	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)(nib(hex[2 * order[i]]) << 4 |
				   nib(hex[2 * order[i] + 1]));
}

static void entry(uint8_t *e, const char *type, const char *uuid_hex,
		  uint64_t first, uint64_t n)
{
	memset(e, 0, 128);
	guid(type, e);
	guid(uuid_hex, e + 16);
	le(e + 32, first, 8);
	le(e + 40, first + n - 1, 8);
	e[56] = 'p';
}

/* The disk image at disk (type: its data partition's type), root its
 * tree's root (wrong: its last digit changed in the UUIDs, and in root). */
static void make_disk_signed(const char *type, int wrong, int sig)
{
	char d[128], h[128];
	uint8_t *img = calloc(1, DDI_SIZE), *hdr, *e;
	fv_params *p = params_new();
	fv_result *res;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(img);
	snprintf(d, sizeof(d), "%s/part", dir);
	snprintf(h, sizeof(h), "%s/part.verity", dir);
	snprintf(disk, sizeof(disk), "%s/disk.raw", dir);
	write_file(d, image, (size_t)DATA_N * BS);
	ck_assert_int_eq(t_format(p, d, h, NULL, &res), 0);
	snprintf(root, sizeof(root), "%s", rpt(res).root_hex);
	if (wrong)
		root[63] = root[63] == '0' ? '1' : '0';
	fv_result_free(res);
	free(p);
	memcpy(img + DATA_LBA * SECTOR, image, (size_t)DATA_N * BS);
	ck_assert_ptr_nonnull(f = fopen(h, "rb"));
	n = fread(img + HASH_LBA * SECTOR, 1, HASH_N * SECTOR + 1, f);
	fclose(f);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_le(n, HASH_N * SECTOR);
	hdr = img + SECTOR;
	e = img + 2 * SECTOR;
	entry(e, type, root, DATA_LBA, DATA_N * 8u);
	entry(e + 128, ROOT_X86_64_VERITY, root + 32, HASH_LBA, HASH_N);
	if (sig) {
		entry(e + 256, ROOT_X86_64_SIG,
		      "0123456789abcdef0123456789abcdef", SIG_LBA, SIG_N);
		snprintf((char *)img + SIG_LBA * SECTOR, SIG_N * SECTOR,
			 "{\"rootHash\":\"%s\",\"certificateFingerprint\":"
			 "\"%s\",\"signature\":\"MAMCAQc=\"}",
			 root, FP);
	}
	memcpy(hdr, "EFI PART", 8);
	le(hdr + 8, 0x00010000, 4);
	le(hdr + 12, 92, 4);
	le(hdr + 24, 1, 8);
	le(hdr + 40, 34, 8);
	le(hdr + 48, DDI_SIZE / SECTOR - 34, 8);
	le(hdr + 72, 2, 8);
	le(hdr + 80, 4, 4);
	le(hdr + 84, 128, 4);
	le(hdr + 88, (uint32_t)crc32(0, e, 4 * 128), 4);
	le(hdr + 16, (uint32_t)crc32(0, hdr, 92), 4);
	write_file(disk, img, DDI_SIZE);
	free(img);
}

static void make_disk(const char *type, int wrong)
{
	make_disk_signed(type, wrong, 0);
}

struct got {
	char out[8192], err[4096], items[8192];
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
		return 0;
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

static struct got g;

static int show(enum fv_show_what what, int json, const char *part)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .image = disk,
				    .json = json,
				    .partition = part};

	memset(&g, 0, sizeof(g));
	return fv_show(&q, collect, &g);
}

/* A UUID's text of 32 hex digits. */
static void uuid_of(const char *hex, char out[37])
{
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
		 hex + 16, hex + 20);
}

static void has(const char *hay, const char *needle)
{
	ck_assert_msg(strstr(hay, needle), "no <%s> in <%s>", needle, hay);
}

static void ddi_setup(void)
{
	setup();
	make_disk(ROOT_X86_64, 0);
}

START_TEST(dump_text)
{
	char want[1024], du[37], hu[37];

	uuid_of(root, du);
	uuid_of(root + 32, hu);
	ck_assert_int_eq(show(FV_SHOW_DDI, 0, NULL), 0);
	snprintf(want, sizeof(want),
		 "Discoverable disk image %s: GPT of 512-byte sectors, disk "
		 "UUID 00000000-0000-0000-0000-000000000000, 2 partitions\n\n"
		 "root-x86-64:\n"
		 "  data:      partition 1 (root-x86-64, label 'p', UUID %s), "
		 "262144 bytes at 1048576\n"
		 "  hash tree: partition 2 (root-x86-64-verity, label 'p', "
		 "UUID %s), 32768 bytes at 1310720\n"
		 "  signature: none (unsigned: the root hash comes from the "
		 "partition UUIDs)\n"
		 "VERITY header information for partition 2 "
		 "(root-x86-64-verity, label 'p', UUID %s)\n",
		 disk, du, hu, hu);
	ck_assert_msg(!strncmp(g.out, want, strlen(want)), "<%s>", g.out);
	has(g.out, "Data blocks:     \t64\nData block size: \t4096\n");
	snprintf(want, sizeof(want),
		 "Root hash:      \t%s\nHash device size: \t8192 [bytes]\n",
		 root);
	has(g.out, want);
	ck_assert_str_eq(g.err, "");
	ck_assert_str_eq(g.items, "");
	/* the partition asked for: the same */
	{
		char all[sizeof(g.out)];

		strcpy(all, g.out);
		ck_assert_int_eq(show(FV_SHOW_DDI, 0, "root"), 0);
		ck_assert_str_eq(g.out, all);
	}
}
END_TEST

START_TEST(dump_json)
{
	char want[1024], du[37], hu[37];

	uuid_of(root, du);
	uuid_of(root + 32, hu);
	ck_assert_int_eq(show(FV_SHOW_DDI, 1, NULL), 0);
	snprintf(want, sizeof(want),
		 "{ image=%s disk_uuid=00000000-0000-0000-0000-000000000000 "
		 "partitions[ { device=%s uuid=",
		 disk, disk);
	ck_assert_msg(!strncmp(g.items, want, strlen(want)), "<%s>", g.items);
	snprintf(want, sizeof(want),
		 "root_hash=%s role=root architecture=x86-64 data{ index=1 "
		 "type=root-x86-64 label=p uuid=%s offset=1048576 size=262144 "
		 "} hash{ index=2 type=root-x86-64-verity label=p uuid=%s "
		 "offset=1310720 size=32768 } signature=null "
		 "certificate_fingerprint=null signed=0 signer=null "
		 "trust=unsigned } } } ",
		 root, du, hu);
	has(g.items, want);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* a partition not there: refused, nothing said */
START_TEST(partition_refused)
{
	char want[256];
	static const enum fv_show_what what[] = {FV_SHOW_DDI,
						 FV_SHOW_DDI_VERIFY};

	for (int w = 0; w < 2; w++)
		for (int json = 0; json < 2; json++) {
			ck_assert_int_eq(show(what[w], json, "usr"), -EINVAL);
			snprintf(want, sizeof(want),
				 "%s: no protected usr partition", disk);
			ck_assert_str_eq(fv_last_error(), want);
			ck_assert_int_eq(show(what[w], json, "bogus"), -EINVAL);
			snprintf(want, sizeof(want),
				 "%s: no protected bogus partition (give the "
				 "partition: root or usr)",
				 disk);
			ck_assert_str_eq(fv_last_error(), want);
			ck_assert_str_eq(g.out, "");
			ck_assert_str_eq(g.err, "");
			ck_assert_str_eq(g.items, "");
		}
}
END_TEST

START_TEST(verify_well)
{
	char want[1024], du[37], hu[37];

	uuid_of(root, du);
	uuid_of(root + 32, hu);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 0, NULL), 0);
	snprintf(want, sizeof(want),
		 "root-x86-64: partition 1 (root-x86-64, label 'p', UUID %s), "
		 "tree in partition 2, unsigned (the root hash comes from the "
		 "partition UUIDs): verified.\n",
		 du);
	ck_assert_str_eq(g.out, want);
	ck_assert_str_eq(g.err, "");
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 1, "root"), 0);
	snprintf(want, sizeof(want),
		 "{ image=%s result=ok partitions[ { role=root "
		 "architecture=x86-64 data{ index=1 type=root-x86-64 label=p "
		 "uuid=%s offset=1048576 size=262144 } hash{ index=2 "
		 "type=root-x86-64-verity label=p uuid=%s offset=1310720 "
		 "size=32768 } signature=null signer=null "
		 "certificate_fingerprint=null trust=unsigned root_hash=%s "
		 "result=ok root_hash_matches=1 bad_data_blocks=0 "
		 "bad_hash_blocks=0 bad_spare_areas=0 unreadable_blocks=0 "
		 "unchecked_data_blocks=0 unchecked_hash_blocks=0 failures[ } "
		 "} } } ",
		 disk, du, hu, root);
	ck_assert_str_eq(g.items, want);
	ck_assert_str_eq(g.out, "");
}
END_TEST

/* a bad data block: EPERM, the block said with its place in the image */
START_TEST(verify_bad_block)
{
	char want[1024], du[37];

	uuid_of(root, du);
	poke(disk, DATA_LBA * SECTOR + 3 * BS + 5);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 0, NULL), EPERM);
	snprintf(want, sizeof(want),
		 "root-x86-64: partition 1 (root-x86-64, label 'p', UUID %s), "
		 "tree in partition 2, unsigned (the root hash comes from the "
		 "partition UUIDs): FAILED: 1 bad data block.\n",
		 du);
	ck_assert_str_eq(g.out, want);
	snprintf(want, sizeof(want),
		 "Verification failed at position 12288 (partition 1: "
		 "root-x86-64, label 'p', UUID %s; image byte 1060864).\n"
		 "Verification of data area failed: 1 bad data block, 0 bad "
		 "hash blocks, 0 bad spare areas.\n",
		 du);
	ck_assert_str_eq(g.err, want);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 1, NULL), EPERM);
	has(g.items, "result=corrupted partitions[ ");
	has(g.items, "result=corrupted root_hash_matches=1 bad_data_blocks=1 ");
	has(g.items, "failures[ { type=data position=12288 block=3 "
		     "partition=1 image_offset=1060864 } } } } } ");
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* the tree's only block changed: a bad hash block, said with its place
 * in the -verity partition */
START_TEST(verify_bad_hash_block)
{
	char want[512], hu[37];

	uuid_of(root + 32, hu);
	poke(disk, HASH_LBA * SECTOR + BS + 5);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 0, NULL), EPERM);
	has(g.out, "(the root hash comes from the partition UUIDs): FAILED: "
		   "1 bad hash block.\n");
	snprintf(want, sizeof(want),
		 "Verification failed at position 4096 (partition 2: "
		 "root-x86-64-verity, label 'p', UUID %s; image byte "
		 "1314816).\n"
		 "Verification of data area failed: 0 bad data blocks, 1 bad "
		 "hash block, 0 bad spare areas.\n",
		 hu);
	ck_assert_str_eq(g.err, want);
	/* dump checks nothing */
	ck_assert_int_eq(show(FV_SHOW_DDI, 0, NULL), 0);
}
END_TEST

/* UUIDs that name another root: EINVAL, the root said not to match */
START_TEST(verify_root_mismatch)
{
	teardown();
	setup();
	make_disk(ROOT_X86_64, 1);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 0, NULL), EINVAL);
	has(g.out, "(the root hash comes from the partition UUIDs): FAILED: "
		   "the tree does not match the root hash.\n");
	has(g.err, "Verification of root hash failed.\n");
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 1, NULL), EINVAL);
	has(g.items, "result=root hash mismatch partitions[ ");
	has(g.items, "result=root hash mismatch root_hash_matches=0 ");
	ck_assert_int_eq(show(FV_SHOW_DDI, 0, NULL), 0);
}
END_TEST

/* A signature partition, no anchor: verified, its signer said not to be
 * checked (its DER is no PKCS#7: dump_sig_unreadable). */
START_TEST(verify_signed_unchecked)
{
	char want[1024], du[37], hu[37];

	teardown();
	setup();
	make_disk_signed(ROOT_X86_64, 0, 1);
	uuid_of(root, du);
	uuid_of(root + 32, hu);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 0, NULL), 0);
	snprintf(want, sizeof(want),
		 "root-x86-64: partition 1 (root-x86-64, label 'p', UUID %s), "
		 "tree in partition 2, signed, signer not checked: "
		 "verified.\n",
		 du);
	ck_assert_str_eq(g.out, want);
	snprintf(want, sizeof(want),
		 "fastverity: %s: warning: partition 1 (root-x86-64, label "
		 "'p', UUID %s) is signed (partition 3), and its signer was "
		 "not checked (give --trusted-cert=<cert.pem>, or put the "
		 "certificate in /etc/verity.d/ as systemd does): the image "
		 "matches its root hash, but nothing proves who made it\n",
		 disk, du);
	ck_assert_str_eq(g.err, want);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 1, NULL), 0);
	snprintf(want, sizeof(want),
		 "hash{ index=2 type=root-x86-64-verity label=p uuid=%s "
		 "offset=1310720 size=32768 } signature{ index=3 "
		 "type=root-x86-64-verity-sig label=p "
		 "uuid=01234567-89ab-cdef-0123-456789abcdef offset=1343488 "
		 "size=16384 } signer=null certificate_fingerprint=null "
		 "trust=not checked root_hash=%s result=ok ",
		 hu, root);
	has(g.items, want);
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* A signature partition whose DER is no PKCS#7: dump shows the image
 * whole, exit 0 (it checks nothing, as verify without an anchor passes
 * it), the signature said not to be read, in its line; fv_describe's
 * report names no signer and says why. (It failed with -EINVAL
 * "partition 3: not a PKCS#7 signature" after the disk's first line.) */
START_TEST(dump_sig_unreadable)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = disk, .container = "ddi"};
	struct fv_report rep = {.size = sizeof(rep)};
	char want[1024], hu[37];
	fv_result *res;
	fv_image *img;

	teardown();
	setup();
	make_disk_signed(ROOT_X86_64, 0, 1);
	uuid_of(root + 32, hu);
	ck_assert_int_eq(show(FV_SHOW_DDI, 0, NULL), 0);
	snprintf(want, sizeof(want),
		 "  hash tree: partition 2 (root-x86-64-verity, label 'p', "
		 "UUID %s), 32768 bytes at 1310720\n"
		 "  signature: partition 3 (root-x86-64-verity-sig, label 'p', "
		 "UUID 01234567-89ab-cdef-0123-456789abcdef), cannot be read "
		 "(not a PKCS#7 signature), certificate sha256 %s\n"
		 "VERITY header information for partition 2 ",
		 hu, FP);
	has(g.out, want);
	snprintf(want, sizeof(want), "Root hash:      \t%s\n", root);
	has(g.out, want);
	ck_assert_str_eq(g.err, "");
	ck_assert_int_eq(show(FV_SHOW_DDI, 1, NULL), 0);
	snprintf(want, sizeof(want),
		 "certificate_fingerprint=%s signed=1 signer=null "
		 "error=partition 3: not a PKCS#7 signature trust=not checked "
		 "} } } ",
		 FP);
	has(g.items, want);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
	/* the library's own words */
	ck_assert_int_eq(fv_open(&rq, NULL, &img), 0);
	ck_assert_int_eq(fv_describe(img, 0, NULL, &res), 0);
	ck_assert_int_eq(fv_result_report(res, &rep), 0);
	ck_assert_str_eq(rep.signer, "");
	ck_assert_str_eq(rep.signature_warning,
			 "partition 3: not a PKCS#7 signature");
	fv_result_free(res);
	fv_image_free(img);
}
END_TEST

START_TEST(not_a_disk)
{
	char want[256];

	snprintf(disk, sizeof(disk), "%s", data);
	ck_assert_int_eq(show(FV_SHOW_DDI, 0, NULL), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: not a systemd disk image: no GPT header at sector 1 (of "
		 "512 or 4096 bytes)",
		 data);
	ck_assert_str_eq(fv_last_error(), want);
	ck_assert_int_eq(show(FV_SHOW_DDI_VERIFY, 1, NULL), -EINVAL);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.items, "");
	snprintf(disk, sizeof(disk), "%s/none", dir);
	ck_assert_int_lt(show(FV_SHOW_DDI, 0, NULL), 0);
}
END_TEST

static int stop_at_text(void *ctx, const struct fv_item *it)
{
	(*(int *)ctx)++;
	return it->kind == FV_ITEM_TEXT ? 5 : 0;
}

/* the visitor's non-zero return: handed back, nothing after it */
START_TEST(visitor_stops)
{
	struct fv_show_request q = {
		.size = sizeof(q), .what = FV_SHOW_DDI, .image = disk};
	int n = 0;

	ck_assert_int_eq(fv_show(&q, stop_at_text, &n), 5);
	ck_assert_int_eq(n, 1);
	n = 0;
	q.what = FV_SHOW_DDI_VERIFY;
	ck_assert_int_eq(fv_show(&q, stop_at_text, &n), 5);
	ck_assert_int_eq(n, 1);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "api_ddi", .setup = ddi_setup, .teardown = teardown};

	return run_unit(&u,
			UNIT_TESTS(dump_text, dump_json, partition_refused,
				   verify_well, verify_bad_block,
				   verify_bad_hash_block, verify_root_mismatch,
				   verify_signed_unchecked, dump_sig_unreadable,
				   not_a_disk, visitor_stops));
}
