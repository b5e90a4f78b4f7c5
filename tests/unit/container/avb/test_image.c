/* verity/container/avb/image.c, its hash footer's round trip and its
 * refusals: add_hash_footer (read back, its digest checked, a changed
 * byte found; the largest image a partition takes and one byte more;
 * the partition size's refusals; a dynamic size; run again over its own
 * footer: the same bytes), resize_image, erase_footer,
 * append_vbmeta_image of a vbmeta image made here; a hashtree footer's
 * tree zeroed and its footer erased keeping the tree and parity; the
 * sparse header's probe, byte by byte. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/container/avb/image.h"

#define META (AVB_MAX_VBMETA_ROOM + AVB_FOOTER_BLOCK) /* 69632 */
#define PART (1u << 20)

static char dir[64], img[96], other[96];
static struct ht_error err;

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	strcpy(dir, "/tmp/fvavbimgXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/img", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
}

static void teardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* n bytes of data at p */
static void data(const char *p, size_t n, unsigned seed)
{
	uint8_t *b = malloc(n ? n : 1);
	FILE *f = fopen(p, "wb");

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 131 + seed + i / 4093);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
	free(b);
}

static uint64_t size_of(const char *p)
{
	struct stat st;

	ck_assert_int_eq(stat(p, &st), 0);
	return (uint64_t)st.st_size;
}

static uint8_t *read_all(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	uint8_t *b;

	ck_assert_ptr_nonnull(f);
	*n = (size_t)size_of(p);
	ck_assert_ptr_nonnull(b = malloc(*n ? *n : 1));
	ck_assert_uint_eq(fread(b, 1, *n, f), *n);
	fclose(f);
	return b;
}

static void flip(const char *p, uint64_t off)
{
	FILE *f = fopen(p, "r+b");
	int c;

	ck_assert_ptr_nonnull(f);
	fseek(f, (long)off, SEEK_SET);
	c = fgetc(f);
	fseek(f, (long)off, SEEK_SET);
	fputc(c ^ 0x40, f);
	fclose(f);
}

/* add_hash_footer of img (partition_size 0 with dynamic: sized to it) */
static int hash_footer(uint64_t partition_size, int dynamic)
{
	struct avb_footer_opts o = {.image = img,
				    .partition_size = partition_size,
				    .dynamic_size = dynamic,
				    .partition_name = "boot",
				    .hash_algorithm = "sha256",
				    .block_size = 4096};

	o.vb.algorithm = AVB_ALG_NONE;
	return verity_avb_add_hash_footer(&o, &err);
}

/* The hash descriptor of img read back, checked over img */
static void read_back(uint64_t original, uint64_t file_size)
{
	struct avb_image a;
	const struct avb_descriptor *hd = NULL;

	ck_assert_msg(verity_avb_image_read(img, &a, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(a.has_footer, 1);
	ck_assert_uint_eq(a.file_size, file_size);
	ck_assert_uint_eq(a.footer.original_image_size, original);
	ck_assert_uint_eq(a.footer.vbmeta_offset % AVB_FOOTER_BLOCK, 0);
	ck_assert_uint_ge(a.footer.vbmeta_offset, original);
	for (size_t i = 0; i < a.vbmeta.ndesc; i++)
		if (a.vbmeta.desc[i].tag == AVB_TAG_HASH)
			hd = &a.vbmeta.desc[i];
	ck_assert_ptr_nonnull(hd);
	ck_assert_uint_eq(hd->hash.p.image_size, original);
	ck_assert_str_eq(hd->hash.p.hash_algorithm, "sha256");
	ck_assert_uint_eq(hd->hash.p.name_len, 4);
	ck_assert_mem_eq(hd->hash.p.name, "boot", 4);
	ck_assert_uint_eq(hd->hash.p.salt_len, 32);
	ck_assert_uint_eq(hd->hash.p.digest_len, 32);
	ck_assert_msg(verity_avb_hash_check(img, NULL, hd, &err) == 0, "%s",
		      ht_msg(&err));
	verity_avb_image_free(&a);
}

START_TEST(hash_footer_round_trip)
{
	struct avb_image a;
	uint8_t *before, *after;
	size_t n1, n2;

	data(img, 3 * 4096 + 100, 1);
	ck_assert_msg(hash_footer(PART, 0) == 0, "%s", ht_msg(&err));
	read_back(3 * 4096 + 100, PART);
	/* again over its own footer: its salt kept, the same bytes */
	before = read_all(img, &n1);
	ck_assert_msg(hash_footer(PART, 0) == 0, "%s", ht_msg(&err));
	after = read_all(img, &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_mem_eq(before, after, n1);
	free(before);
	free(after);
	/* a byte of the data changed: the check finds it */
	flip(img, 5000);
	ck_assert_int_eq(verity_avb_image_read(img, &a, &err), 0);
	for (size_t i = 0; i < a.vbmeta.ndesc; i++)
		if (a.vbmeta.desc[i].tag == AVB_TAG_HASH)
			ck_assert_int_eq(
				verity_avb_hash_check(img, NULL,
						      &a.vbmeta.desc[i], &err),
				-EPERM);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), img));
	verity_avb_image_free(&a);
}
END_TEST

/* the largest image a partition takes, and one byte more */
START_TEST(hash_footer_max)
{
	struct avb_footer_opts o = {.partition_size = PART,
				    .hash_algorithm = "sha256"};
	uint64_t max = verity_avb_max_image_size(&o, AVB_FOOTER_HASH);
	char want[256];

	ck_assert_uint_eq(max, PART - META);
	/* a partition no larger than the metadata leaves nothing */
	o.partition_size = META;
	ck_assert_uint_eq(verity_avb_max_image_size(&o, AVB_FOOTER_HASH), 0);
	o.partition_size = META - 4096;
	ck_assert_uint_eq(verity_avb_max_image_size(&o, AVB_FOOTER_HASH), 0);
	data(img, (size_t)max + 1, 2);
	ck_assert_int_eq(hash_footer(PART, 0), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: image size of %llu exceeds maximum image size of %llu "
		 "in order to fit in a partition size of %u",
		 img, (unsigned long long)max + 1, (unsigned long long)max,
		 PART);
	ck_assert_str_eq(ht_msg(&err), want);
	/* nothing written */
	ck_assert_uint_eq(size_of(img), max + 1);
	data(img, (size_t)max, 2);
	ck_assert_msg(hash_footer(PART, 0) == 0, "%s", ht_msg(&err));
	read_back(max, PART);
}
END_TEST

START_TEST(hash_footer_refused)
{
	struct avb_footer_opts o = {
		.image = img, .partition_size = PART, .hash_algorithm = "md5"};

	data(img, 4096, 3);
	ck_assert_int_eq(hash_footer(0, 0), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "--dynamic_partition_size required "
				       "when not specifying a partition size");
	ck_assert_int_eq(hash_footer(META - 4096, 0), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "partition size of 65536 is too small: "
				       "it needs to be at least 69632");
	ck_assert_int_eq(hash_footer(PART + 512, 0), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "Partition size of 1049088 is not a "
				       "multiple of the image block size 4096");
	ck_assert_int_lt(verity_avb_add_hash_footer(&o, &err), 0);
	/* none wrote a byte */
	ck_assert_uint_eq(size_of(img), 4096);
	/* no image */
	snprintf(img, sizeof(img), "%s/none", dir);
	ck_assert_int_lt(hash_footer(PART, 0), 0);
}
END_TEST

/* a dynamic size: the image's own, rounded, with the metadata's room */
START_TEST(hash_footer_dynamic)
{
	data(img, 5000, 4);
	ck_assert_msg(hash_footer(0, 1) == 0, "%s", ht_msg(&err));
	read_back(5000, 8192 + META);
}
END_TEST

START_TEST(resize)
{
	char want[256];

	data(img, 8192, 5);
	ck_assert_int_eq(hash_footer(PART, 0), 0);
	/* larger, then smaller: the footer moves, the data stays */
	ck_assert_msg(verity_avb_resize_image(img, 2 * PART, &err) == 0, "%s",
		      ht_msg(&err));
	read_back(8192, 2 * PART);
	ck_assert_msg(verity_avb_resize_image(img, 4 * 4096, &err) == 0, "%s",
		      ht_msg(&err));
	read_back(8192, 4 * 4096);
	/* below the vbmeta's end and a footer block: refused */
	ck_assert_int_eq(verity_avb_resize_image(img, 3 * 4096, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: Requested size of 12288 is too small for an image of "
		 "size 16384",
		 img);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_int_eq(verity_avb_resize_image(img, 0, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "Partition size of 0 is not a "
				       "multiple of the image block size 4096");
	ck_assert_int_eq(verity_avb_resize_image(img, 4097, &err), -EINVAL);
	read_back(8192, 4 * 4096);
	/* no Android image; a vbmeta image, which has no footer */
	data(other, 8192, 5);
	ck_assert_int_eq(verity_avb_resize_image(other, PART, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: not an Android image: no AVB footer in its last 64 "
		 "bytes and no vbmeta at byte 0",
		 other);
	ck_assert_str_eq(ht_msg(&err), want);
	{
		struct avb_vbmeta_opts vo = {.algorithm = AVB_ALG_NONE};

		ck_assert_int_eq(
			verity_avb_make_vbmeta_image(other, &vo, 0, &err), 0);
	}
	ck_assert_int_eq(verity_avb_resize_image(other, PART, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: the image has no footer", other);
	ck_assert_str_eq(ht_msg(&err), want);
}
END_TEST

START_TEST(erase)
{
	uint8_t *b;
	size_t n;
	char want[256];

	data(img, 3 * 4096 + 7, 6);
	data(other, 3 * 4096 + 7, 6);
	ck_assert_int_eq(hash_footer(PART, 0), 0);
	/* a hash footer has no tree to keep */
	ck_assert_int_eq(verity_avb_erase_footer(img, 1, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: asked to keep the hashtree, and there is no hashtree "
		 "descriptor",
		 img);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_uint_eq(size_of(img), PART);
	/* cut back to the data, as it was */
	ck_assert_msg(verity_avb_erase_footer(img, 0, &err) == 0, "%s",
		      ht_msg(&err));
	b = read_all(img, &n);
	ck_assert_uint_eq(n, 3 * 4096 + 7);
	{
		size_t m;
		uint8_t *o = read_all(other, &m);

		ck_assert_mem_eq(b, o, n);
		free(o);
	}
	free(b);
	/* twice: no footer left */
	ck_assert_int_eq(verity_avb_erase_footer(img, 0, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), ": not an Android image"));
	ck_assert_uint_eq(size_of(img), 3 * 4096 + 7);
}
END_TEST

START_TEST(append_vbmeta)
{
	struct avb_vbmeta_opts vo = {.algorithm = AVB_ALG_NONE,
				     .rollback_index = 7};
	char vbm[96], want[300];
	struct avb_image a;

	snprintf(vbm, sizeof(vbm), "%s/vbmeta.img", dir);
	ck_assert_msg(verity_avb_make_vbmeta_image(vbm, &vo, 4096, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_uint_eq(size_of(vbm) % 4096, 0);
	data(img, 10000, 7);
	ck_assert_msg(verity_avb_append_vbmeta_image(img, vbm, PART, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(verity_avb_image_read(img, &a, &err), 0);
	ck_assert_int_eq(a.has_footer, 1);
	ck_assert_uint_eq(a.file_size, PART);
	ck_assert_uint_eq(a.footer.original_image_size, 10000);
	ck_assert_uint_eq(a.vbmeta.h.rollback_index, 7);
	verity_avb_image_free(&a);
	/* refusals: the partition's size, the image itself, no room */
	ck_assert_int_eq(verity_avb_append_vbmeta_image(img, vbm, 0, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_avb_append_vbmeta_image(img, img, PART, &err),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: is the vbmeta image %s: an output is never written over "
		 "what is read",
		 img, img);
	ck_assert_str_eq(ht_msg(&err), want);
	data(other, 8192, 8);
	ck_assert_int_eq(verity_avb_append_vbmeta_image(other, vbm, 8192, &err),
			 -ENOSPC);
	snprintf(want, sizeof(want),
		 "%s: the image needs 16384 bytes, more than the partition "
		 "size 8192",
		 other);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_uint_eq(size_of(other), 8192);
	/* a vbmeta image that is not one */
	data(vbm, 8192, 9);
	ck_assert_int_eq(verity_avb_append_vbmeta_image(other, vbm, PART, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), ": not an Android image"));
	ck_assert_uint_eq(size_of(other), 8192);
}
END_TEST

/* zero_hashtree, then erase_footer keeping the tree and parity */
START_TEST(hashtree_zeroed_and_erased)
{
	struct avb_image a;
	const struct avb_descriptor *ht;
	uint64_t tree_end, fec_end;
	uint8_t *before, *after;
	size_t n1, n2;
	char want[256];

	data(img, 16 * 4096, 10);
	before = read_all(img, &n1);
	ck_assert_msg(amk_hashtree(img, "system", NULL, 1, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(verity_avb_image_read(img, &a, &err), 0);
	ck_assert_ptr_nonnull(ht = verity_avb_image_hashtree(&a));
	ck_assert_uint_gt(ht->hashtree.fec_size, 0);
	tree_end = ht->hashtree.tree_offset + ht->hashtree.tree_size;
	fec_end = ht->hashtree.fec_offset + ht->hashtree.fec_size;
	ck_assert_int_eq(verity_avb_tree_zeroed(img, ht, &err), 0);
	ck_assert_msg(verity_avb_zero_hashtree(img, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(verity_avb_tree_zeroed(img, ht, &err), 1);
	verity_avb_image_free(&a);
	/* the data untouched */
	after = read_all(img, &n2);
	ck_assert_mem_eq(before, after, n1);
	free(after);
	ck_assert_msg(verity_avb_erase_footer(img, 1, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(size_of(img),
			  tree_end > fec_end ? tree_end : fec_end);
	after = read_all(img, &n2);
	ck_assert_mem_eq(before, after, n1);
	free(after);
	free(before);
	/* a hash footer has no tree to zero */
	data(other, 4096, 11);
	snprintf(img, sizeof(img), "%s", other);
	ck_assert_int_eq(hash_footer(PART, 0), 0);
	ck_assert_int_eq(verity_avb_zero_hashtree(other, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: no hashtree descriptor was found",
		 other);
	ck_assert_str_eq(ht_msg(&err), want);
}
END_TEST

/* the sparse header: magic, version 1.0, 28- and 12-byte headers */
START_TEST(sparse_probe)
{
	static const uint8_t h[12] = {0x3a, 0xff, 0x26, 0xed, 1,  0,
				      0,    0,    28,   0,    12, 0};
	uint8_t b[16];
	FILE *f;

	for (int k = -1; k < 12; k++) {
		memset(b, 0, sizeof(b));
		memcpy(b, h, sizeof(h));
		if (k >= 0)
			b[k] ^= 1;
		ck_assert_ptr_nonnull(f = fopen(img, "wb"));
		ck_assert_uint_eq(fwrite(b, 1, sizeof(b), f), sizeof(b));
		fclose(f);
		ck_assert_msg(verity_avb_sparse_probe(img) == (k < 0),
			      "byte %d", k);
	}
	/* 11 bytes: too short to be one */
	ck_assert_ptr_nonnull(f = fopen(img, "wb"));
	ck_assert_uint_eq(fwrite(h, 1, 11, f), 11);
	fclose(f);
	ck_assert_int_eq(verity_avb_sparse_probe(img), 0);
	ck_assert_int_eq(verity_avb_sparse_probe(dir), 0);
	ck_assert_int_eq(verity_avb_sparse_probe(other), 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"avb_image", 0, setup,
					    teardown,    0, NULL};

	return run_unit(&u,
			UNIT_TESTS(hash_footer_round_trip, hash_footer_max,
				   hash_footer_refused, hash_footer_dynamic,
				   resize, erase, append_vbmeta,
				   hashtree_zeroed_and_erased, sparse_probe));
}
