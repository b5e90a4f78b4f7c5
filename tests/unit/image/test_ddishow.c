/* verity/image/ddishow.c on a disk image's facts made here (no file): the
 * text dump shows (the GPT's line, a signed and an unsigned protected
 * partition, a label with odd bytes, a type with no DPS name), the --json
 * document's items in order, and a visitor's non-zero return ending the
 * items. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "verity/image/ddishow.h"

/* What a visitor was handed: text as it is; each JSON item as a word. */
struct got {
	char text[8192], items[8192];
	int stop_after, seen; /* a non-zero return after that many */
};

static int collect(void *ctx, const struct fv_item *it)
{
	static const char *const kinds[] = {"T", "W", "S", "U", "B",
					    "N", "O", "A", "E"};
	struct got *g = ctx;
	size_t at = strlen(g->items);

	if (it->kind == FV_ITEM_TEXT)
		strncat(g->text, it->text,
			sizeof(g->text) - strlen(g->text) - 1);
	else
		snprintf(g->items + at, sizeof(g->items) - at, "%s%s%s%s%s ",
			 kinds[it->kind], it->key ? ":" : "",
			 it->key ? it->key : "",
			 it->kind == FV_ITEM_STRING ? "=" : "",
			 it->kind == FV_ITEM_STRING ? it->text : "");
	if (it->kind == FV_ITEM_UINT || it->kind == FV_ITEM_BOOL) {
		at = strlen(g->items) - 1;
		snprintf(g->items + at, sizeof(g->items) - at, "=%llu ",
			 (unsigned long long)it->u);
	}
	return g->stop_after && ++g->seen >= g->stop_after ? 7 : 0;
}

static struct gpt_partition parts[] = {
	{1, "4f68bce3-e8cd-4db1-96e7-fbcaf984b709",
	 "11111111-2222-3333-4444-555555555555", "root\x01", 0, 0, 0, 1048576,
	 8192},
	{2, "2c7357ed-ebd2-46d9-aec1-23d437ec2bf5",
	 "66666666-7777-8888-9999-aaaaaaaaaaaa", "tree", 0, 0, 0, 1056768,
	 4096},
	{3, "01234567-89ab-cdef-0123-456789abcdef",
	 "bbbbbbbb-cccc-dddd-eeee-ffffffffffff", "sig", 0, 0, 0, 1060864,
	 16384},
};

static struct ddi_verity signed_v = {DDI_ROOT,  "x86-64",  &parts[0],
				     &parts[1], &parts[2], "",
				     NULL,      0,         "abcd"};
static struct ddi_verity unsigned_v = {
	DDI_USR, "arm64", &parts[0], &parts[1], NULL, "", NULL, 0, ""};

static struct ddi_image disk = {
	.path = "d.raw",
	.gpt = {.h = {.sector = 512,
		      .disk_uuid = "0799e5ce-2141-4c11-b9fb-bafbe95464ec"},
		.part = parts,
		.nparts = 3},
};

static fv_params params = {.size = sizeof(fv_params),
			   .hash = "sha256",
			   .hash_type = 1,
			   .data_block_size = 4096,
			   .hash_block_size = 4096,
			   .data_blocks = 2,
			   .salt = {0xab, 0x01},
			   .salt_len = 2,
			   .uuid = "8ea018df-5e73-416e-9804-bc6474743509",
			   .superblock = 1};
static struct fv_layout layout = {.size = sizeof(struct fv_layout),
				  .tree_offset = 4096,
				  .tree_blocks = 1,
				  .levels = 1};

static const struct verity_ddi_shown shown = {&params, &layout, "00ff",
					      "/CN=signer", ""};

static void show_all(struct got *g, int json)
{
	struct show sh = {collect, g, json, 0};

	verity_image_ddi_show_disk(&sh, "d.raw", &disk);
	verity_image_ddi_show_pair(&sh, "d.raw", &signed_v, &shown);
	verity_image_ddi_show_pair(&sh, "d.raw", &unsigned_v, &shown);
	verity_image_ddi_show_end(&sh);
	g->seen = sh.r;
}

START_TEST(text)
{
	static struct got g;
	static const char want[] =
		"Discoverable disk image d.raw: GPT of 512-byte sectors, disk "
		"UUID 0799e5ce-2141-4c11-b9fb-bafbe95464ec, 3 partitions\n"
		"\nroot-x86-64:\n"
		"  data:      partition 1 (root-x86-64, label 'root\\x01', "
		"UUID "
		"11111111-2222-3333-4444-555555555555), 8192 bytes at 1048576\n"
		"  hash tree: partition 2 (root-x86-64-verity, label 'tree', "
		"UUID 66666666-7777-8888-9999-aaaaaaaaaaaa), 4096 bytes at "
		"1056768\n"
		"  signature: partition 3 "
		"(01234567-89ab-cdef-0123-456789abcdef, "
		"label 'sig', UUID bbbbbbbb-cccc-dddd-eeee-ffffffffffff), "
		"signer /CN=signer (not checked: verify checks it), "
		"certificate sha256 abcd\n"
		"VERITY header information for partition 2 "
		"(root-x86-64-verity, "
		"label 'tree', UUID 66666666-7777-8888-9999-aaaaaaaaaaaa)\n"
		"UUID:            \t8ea018df-5e73-416e-9804-bc6474743509\n"
		"Hash type:       \t1\n"
		"Data blocks:     \t2\n"
		"Data block size: \t4096\n"
		"Hash blocks:     \t1\n"
		"Hash block size: \t4096\n"
		"Hash algorithm:  \tsha256\n"
		"Salt:            \tab01\n"
		"Root hash:      \t00ff\n"
		"Hash device size: \t8192 [bytes]\n"
		"\nusr-arm64:\n";

	memset(&g, 0, sizeof(g));
	show_all(&g, 0);
	ck_assert_int_eq(g.seen, 0);
	ck_assert_str_eq(g.items, "");
	ck_assert_msg(!strncmp(g.text, want, strlen(want)), "%s", g.text);
	ck_assert_ptr_nonnull(
		strstr(g.text, "  signature: none (unsigned: the root hash "
			       "comes from the partition UUIDs)\n"));
}
END_TEST

START_TEST(json)
{
	static struct got g;
	static const char want[] =
		"O S:image=d.raw S:disk_uuid=0799e5ce-2141-4c11-b9fb-"
		"bafbe95464ec A:partitions O S:device=d.raw "
		"S:uuid=8ea018df-5e73-416e-9804-bc6474743509 B:superblock=1 "
		"U:hash_type=1 U:data_blocks=2 U:data_block_size=4096 "
		"U:hash_blocks=1 U:hash_block_size=4096 "
		"S:hash_algorithm=sha256 S:salt=ab01 U:hash_offset=0 "
		"U:tree_offset=4096 U:levels=1 U:hash_device_size=8192 "
		"S:root_hash=00ff S:role=root S:architecture=x86-64 "
		"O:data U:index=1 S:type=root-x86-64 S:label=root\x01 "
		"S:uuid=11111111-2222-3333-4444-555555555555 "
		"U:offset=1048576 U:size=8192 E ";

	memset(&g, 0, sizeof(g));
	show_all(&g, 1);
	ck_assert_int_eq(g.seen, 0);
	ck_assert_str_eq(g.text, "");
	ck_assert_msg(!strncmp(g.items, want, strlen(want)), "%s", g.items);
	/* the signed pair's signature, then the unsigned one's nulls */
	ck_assert_ptr_nonnull(strstr(
		g.items, "S:certificate_fingerprint=abcd B:signed=1 "
			 "S:signer=/CN=signer S:trust=not checked E O "));
	ck_assert_ptr_nonnull(strstr(
		g.items, "N:signature N:certificate_fingerprint B:signed=0 "
			 "N:signer S:trust=unsigned E E E "));
}
END_TEST

/* a visitor's non-zero return: nothing handed on after it, kept */
START_TEST(stopped)
{
	static struct got g;

	memset(&g, 0, sizeof(g));
	g.stop_after = 3;
	show_all(&g, 1);
	ck_assert_int_eq(g.seen, 7);
	ck_assert_str_eq(g.items,
			 "O S:image=d.raw S:disk_uuid=0799e5ce-2141-4c11-b9fb-"
			 "bafbe95464ec ");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"ddishow", 0, NULL, NULL, 0, NULL};

	return run_unit(&u, UNIT_TESTS(text, json, stopped));
}
