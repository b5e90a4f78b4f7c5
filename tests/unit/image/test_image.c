/* verity/image/image.c on small images written here: Android images
 * (a signed and an unsigned hashtree footer, a hash footer with no
 * pair, a file that is not one), super images (a partition that is an
 * Android image, an empty one, one that is not an image), and disk
 * images (a GPT made here with a root partition and its -verity
 * partition, unsigned and with a -verity-sig partition), each image's
 * pairs, names, roots and where their signatures come from. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/container/ddi/ddi.h"
#include "verity/image/image.h"
#include "verity/tree/params.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], unsig[160], boot[160];

static void isetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-image-XXXXXX");
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	amk_data(amk_path(sys, "system.img"), BLOCKS, 7);
	amk_data(amk_path(unsig, "vendor.img"), BLOCKS, 9);
	amk_data(amk_path(boot, "boot.img"), 2, 3);
	ck_assert_msg(amk_hashtree(sys, "system", key, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hashtree(unsig, "vendor", NULL, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hash(boot, "boot", key, 32 * AMK_BS, &err) == 0, "%s",
		      ht_msg(&err));
}

static void iteardown(void)
{
	amk_rmdir();
}

/* An image of path and kind, as the door sets it up: pairs room for
 * one. */
static void img_init(struct verity_image *img, const char *path,
		     enum verity_container kind)
{
	memset(img, 0, sizeof(*img));
	ck_assert_ptr_nonnull(img->path = strdup(path));
	img->kind = kind;
	ck_assert_ptr_nonnull(img->pairs = calloc(1, sizeof(*img->pairs)));
}

START_TEST(android_images)
{
	struct verity_image img;
	struct ht_error err;
	char p[160];

	img_init(&img, sys, VERITY_CONTAINER_AVB);
	ck_assert_msg(verity_image_avb(&img, &err) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(img.n, 1);
	ck_assert_ptr_nonnull(img.av);
	ck_assert_ptr_eq(img.pairs[0].avb, img.av);
	ck_assert_str_eq(img.pairs[0].name, "system");
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_FOUND);
	ck_assert_mem_eq(img.pairs[0].pair.root, img.av->pair.root, 32);
	ck_assert_str_eq(img.pairs[0].root_hex, "");
	verity_image_facts(&img);
	ck_assert_str_eq(img.pairs[0].root_hex, img.av->root_hex);
	ck_assert_uint_eq(strlen(img.pairs[0].root_hex), 64);
	verity_image_clear(&img);
	ck_assert_ptr_null(img.path);
	ck_assert_ptr_null(img.av);
	ck_assert_uint_eq(img.n, 0);

	img_init(&img, unsig, VERITY_CONTAINER_AVB);
	ck_assert_int_eq(verity_image_avb(&img, &err), 0);
	ck_assert_uint_eq(img.n, 1);
	ck_assert_str_eq(img.pairs[0].name, "vendor");
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_NONE);
	verity_image_clear(&img);

	/* a hash footer: read and judged, no pair */
	img_init(&img, boot, VERITY_CONTAINER_AVB);
	ck_assert_int_eq(verity_image_avb(&img, &err), 0);
	ck_assert_uint_eq(img.n, 0);
	ck_assert_ptr_nonnull(img.av);
	ck_assert_ptr_eq(img.pairs[0].avb, img.av);
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_FOUND);
	verity_image_facts(&img);
	verity_image_clear(&img);

	/* not an Android image, missing */
	amk_data(amk_path(p, "plain"), 2, 1);
	img_init(&img, p, VERITY_CONTAINER_AVB);
	ck_assert_int_lt(verity_image_avb(&img, &err), 0);
	ck_assert_ptr_null(img.av);
	ck_assert_uint_eq(img.n, 0);
	verity_image_clear(&img);
	img_init(&img, amk_path(p, "none"), VERITY_CONTAINER_AVB);
	ck_assert_int_lt(verity_image_avb(&img, &err), 0);
	verity_image_clear(&img);
	/* clear of nothing */
	memset(&img, 0, sizeof(img));
	verity_image_clear(&img);
}
END_TEST

START_TEST(super_images)
{
	struct verity_image img;
	struct ht_error err;
	char sup[160];
	uint8_t *b;
	size_t n;

	/* system_a: system.img; system_b empty */
	b = amk_read(sys, &n);
	amk_super(amk_path(sup, "super.img"), b, n);
	free(b);
	img_init(&img, sup, VERITY_CONTAINER_SUPER);
	ck_assert_msg(verity_image_super(&img, &err) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(img.n, 1);
	ck_assert_uint_eq(img.navs, 1);
	ck_assert_str_eq(img.pairs[0].name, "system_a");
	ck_assert_ptr_eq(img.pairs[0].avb, img.avs[0]);
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_FOUND);
	ck_assert_ptr_nonnull(strstr(img.avs[0]->path, "super.img/system_a"));
	verity_image_facts(&img);
	ck_assert_uint_eq(strlen(img.pairs[0].root_hex), 64);
	verity_image_clear(&img);

	/* an unsigned one */
	b = amk_read(unsig, &n);
	amk_super(sup, b, n);
	free(b);
	img_init(&img, sup, VERITY_CONTAINER_SUPER);
	ck_assert_int_eq(verity_image_super(&img, &err), 0);
	ck_assert_uint_eq(img.n, 1);
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_NONE);
	verity_image_clear(&img);

	/* a hash footer's image: read, no pair */
	b = calloc(1, 32 * AMK_BS);
	{
		size_t bn;
		uint8_t *bb = amk_read(boot, &bn);

		ck_assert_uint_le(bn, 32 * AMK_BS);
		memcpy(b, bb, bn);
		free(bb);
		amk_super(sup, b, bn);
	}
	img_init(&img, sup, VERITY_CONTAINER_SUPER);
	ck_assert_int_eq(verity_image_super(&img, &err), 0);
	ck_assert_uint_eq(img.n, 0);
	ck_assert_uint_eq(img.navs, 1);
	verity_image_clear(&img);

	/* a partition that is not an Android image: none */
	memset(b, 0, 32 * AMK_BS);
	amk_super(sup, b, 32 * AMK_BS);
	free(b);
	img_init(&img, sup, VERITY_CONTAINER_SUPER);
	ck_assert_int_eq(verity_image_super(&img, &err), 0);
	ck_assert_uint_eq(img.n, 0);
	ck_assert_uint_eq(img.navs, 0);
	verity_image_clear(&img);

	/* not a super image */
	img_init(&img, sys, VERITY_CONTAINER_SUPER);
	ck_assert_int_lt(verity_image_super(&img, &err), 0);
	ck_assert_uint_eq(img.n, 0);
	verity_image_clear(&img);
}
END_TEST

/* ---- disk images ---- */

#define SECTOR   512u
#define DDI_SIZE (4096u * SECTOR)
#define DATA_LBA 2048u
#define DATA_N   64u                       /* 4096-byte blocks */
#define HASH_LBA (DATA_LBA + DATA_N * 8u)  /* 2560 */
#define HASH_N   64u                       /* sectors: 32 KiB */
#define SIG_LBA  (HASH_LBA + HASH_N)       /* 2624 */
#define SIG_N    32u                       /* 16 KiB */

static const char FP[] =
	"abababababababababababababababababababababababababababababababab";
static const char ROOT_X86_64[] = "4f68bce3-e8cd-4db1-96e7-fbcaf984b709",
		  ROOT_X86_64_VERITY[] = "2c7357ed-ebd2-46d9-aec1-23d437ec2bf5",
		  ROOT_X86_64_SIG[] = "41092b05-9fc8-4523-994f-2def0408b176";

/* 32 hex digits (a UUID's, without dashes) as a GUID's bytes on disk:
 * its first three fields little-endian. */
static void guid(const char *hex32, uint8_t out[16])
{
	uint8_t b[16];
	size_t len;
	char h[33];
	static const int order[16] = {3, 2, 1, 0, 5, 4, 7, 6,
				      8, 9, 10, 11, 12, 13, 14, 15};

	snprintf(h, sizeof(h), "%s", hex32);
	ck_assert_int_eq(verity_hex_decode(h, b, sizeof(b), &len), 0);
	ck_assert_uint_eq(len, 16);
	for (int i = 0; i < 16; i++)
		out[i] = b[order[i]];
}

/* A UUID's text as 32 hex digits. */
static void undash(const char *uuid, char out[33])
{
	size_t o = 0;

	for (; *uuid; uuid++)
		if (*uuid != '-')
			out[o++] = *uuid;
	out[o] = '\0';
}

static void entry(uint8_t *e, const char *type, const char *uuid_hex,
		  uint64_t first, uint64_t n)
{
	char t[33];

	memset(e, 0, 128);
	undash(type, t);
	guid(t, e);
	guid(uuid_hex, e + 16);
	amk_le(e + 32, first, 8);
	amk_le(e + 40, first + n - 1, 8);
	e[56] = 'p';
}

/* A disk image at path: root-x86-64 (DATA_N blocks) and its -verity
 * partition formatted, the partition UUIDs the root's halves; sig: a
 * -verity-sig partition too, naming the root, with a DER that is not a
 * signature. root_hex: the tree's root. */
static void make_ddi(const char *path, int sig, char root_hex[65])
{
	static const uint8_t salt[4] = {9, 8, 7, 6};
	static const uint8_t der[5] = {0x30, 3, 2, 1, 7};
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct verity_pair pair;
	struct ht_error err;
	uint8_t *img = calloc(1, DDI_SIZE), *h, *e;
	char *json;

	ck_assert_ptr_nonnull(img);
	for (size_t i = 0; i < (size_t)DATA_N * 4096; i++)
		img[DATA_LBA * SECTOR + i] = (uint8_t)(i * 5 + i / 4099);
	amk_write(path, img, DDI_SIZE);
	/* the tree, its superblock at the -verity partition's start */
	memset(&pair, 0, sizeof(pair));
	verity_params_default(&pair.params);
	memcpy(pair.params.salt, salt, sizeof(salt));
	pair.params.salt_size = sizeof(salt);
	pair.data = (struct verity_region){path, DATA_LBA * SECTOR,
					   DATA_N * 4096u, NULL};
	pair.hash = (struct verity_region){path, HASH_LBA * SECTOR,
					   HASH_N * SECTOR, NULL};
	ck_assert_msg(verity_op_format(&pair, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	verity_hex_encode(out.root, 32, root_hex);
	free(img);
	img = amk_read(path, &(size_t){0});
	/* the GPT: header at 1, 4 entries at 2 */
	h = img + SECTOR;
	e = img + 2 * SECTOR;
	memset(h, 0, 2 * SECTOR);
	entry(e, ROOT_X86_64, root_hex, DATA_LBA, DATA_N * 8u);
	entry(e + 128, ROOT_X86_64_VERITY, root_hex + 32, HASH_LBA, HASH_N);
	if (sig) {
		entry(e + 256, ROOT_X86_64_SIG, "0123456789abcdef0123456789abcdef",
		      SIG_LBA, SIG_N);
		ck_assert_int_eq(verity_ddi_sig_json_make(root_hex, FP, der,
							  sizeof(der), &json,
							  &err),
				 0);
		memcpy(img + SIG_LBA * SECTOR, json, strlen(json));
		free(json);
	}
	memcpy(h, "EFI PART", 8);
	amk_le(h + 8, 0x00010000, 4);
	amk_le(h + 12, 92, 4);
	amk_le(h + 24, 1, 8);
	amk_le(h + 40, 34, 8);
	amk_le(h + 48, DDI_SIZE / SECTOR - 34, 8);
	amk_le(h + 72, 2, 8);
	amk_le(h + 80, 4, 4);
	amk_le(h + 84, 128, 4);
	amk_le(h + 88, (uint32_t)crc32(0, e, 4 * 128), 4);
	amk_le(h + 16, (uint32_t)crc32(0, h, 92), 4);
	amk_write(path, img, DDI_SIZE);
	free(img);
}

START_TEST(disk_images)
{
	struct verity_image img;
	struct verity_sig_check who;
	struct ht_error err;
	char p[160], root[65];

	make_ddi(amk_path(p, "disk.raw"), 0, root);
	img_init(&img, p, VERITY_CONTAINER_DDI);
	ck_assert_msg(verity_image_ddi(&img, &err) == 0, "%s", ht_msg(&err));
	ck_assert_int_eq(img.ddi_read, 1);
	ck_assert_uint_eq(img.n, 1);
	ck_assert_str_eq(img.pairs[0].name, "root-x86-64");
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_NONE);
	ck_assert_ptr_eq(img.pairs[0].ddi, &img.ddi.v[0]);
	ck_assert_uint_eq(img.pairs[0].pair.data.offset, DATA_LBA * SECTOR);
	ck_assert_uint_eq(img.pairs[0].pair.hash.offset, HASH_LBA * SECTOR);
	ck_assert_uint_eq(img.pairs[0].pair.params.data_blocks, DATA_N);
	verity_image_facts(&img);
	ck_assert_str_eq(img.pairs[0].root_hex, root);
	/* not signed: 1 */
	ck_assert_int_eq(verity_image_ddi_signer(&img, 0, &who, &err), 1);
	verity_image_clear(&img);
	ck_assert_int_eq(img.ddi_read, 0);

	/* signed: the signature found, its signer asked of a DER that is
	 * no PKCS#7: none named, why in its warning */
	make_ddi(p, 1, root);
	img_init(&img, p, VERITY_CONTAINER_DDI);
	ck_assert_msg(verity_image_ddi(&img, &err) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(img.n, 1);
	ck_assert_int_eq(img.pairs[0].from, VERITY_SIGNATURE_FOUND);
	ck_assert_uint_eq(img.pairs[0].pair.signature_size, 5);
	ck_assert_str_eq(img.pairs[0].ddi->fingerprint, FP);
	ck_assert_int_eq(verity_image_ddi_signer(&img, 0, &who, &err), 0);
	ck_assert_str_eq(who.signer, "");
	ck_assert_ptr_nonnull(strstr(who.warning, "partition 3"));
	verity_image_clear(&img);

	/* no GPT; a GPT without a -verity partition */
	img_init(&img, sys, VERITY_CONTAINER_DDI);
	ck_assert_int_eq(verity_image_ddi(&img, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no GPT"));
	ck_assert_uint_eq(img.n, 0);
	verity_image_clear(&img);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"image", 0, isetup, iteardown, 1,
					    NULL};

	return run_unit(&u, UNIT_TESTS(android_images, super_images,
				       disk_images));
}
