/* verity/android/android.c on Android images made here by the library's
 * writers (tests/unit/android/avb_make.h): a signed and an unsigned
 * hashtree footer read (its pair, name, key, verdict), read for showing,
 * a hash footer and a bare vbmeta image (no pair, and why), descriptors
 * by index and tag, a descriptor's pair, images that are not Android
 * images or whose signature does not hold, and a super image: opened,
 * its partitions found by name and slot, located, read. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/android/android.h"

#define BLOCKS 32u

static char key[160], pub[160], sys[160], unsig[160], boot[160], vb[160];

static void asetup(void)
{
	struct ht_error err;

	amk_dir("/tmp/fv-android-XXXXXX");
	amk_path(key, "k.pem");
	amk_path(pub, "k.avbpubkey");
	amk_path(sys, "system.img");
	amk_path(unsig, "vendor.img");
	amk_path(boot, "boot.img");
	amk_path(vb, "vbmeta.img");
	amk_key(key, pub);
	amk_data(sys, BLOCKS, 7);
	amk_data(unsig, BLOCKS, 11);
	amk_data(boot, 4, 3);
	ck_assert_msg(amk_hashtree(sys, "system", key, 1, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hashtree(unsig, "vendor", NULL, 0, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_hash(boot, "boot", key, 64 * AMK_BS, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(amk_vbmeta(vb, key, NULL, 0, (const char *[]){sys}, 1,
				 "quiet", &err) == 0,
		      "%s", ht_msg(&err));
}

static void ateardown(void)
{
	amk_rmdir();
}

START_TEST(signed_footer)
{
	struct verity_android *a;
	struct verity_pair vp;
	struct ht_error err;
	struct stat st;
	char small[160];

	ck_assert_msg(verity_android_read(sys, NULL, 0, &a, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(a->path, sys);
	ck_assert_ptr_null(a->src);
	ck_assert_int_eq(a->trust, VERITY_TRUST_UNCHECKED); /* not judged */
	ck_assert_int_eq(a->shown, 0);
	ck_assert_ptr_nonnull(a->ht);
	ck_assert_str_eq(a->name, "system");
	ck_assert_int_eq(a->paired, 1);
	ck_assert_int_eq(a->unusable, 0);
	ck_assert_uint_eq(a->pair.root_size, 32);
	ck_assert_uint_eq(strlen(a->root_hex), 64);
	ck_assert_uint_eq(strlen(a->key_sha1), 40);
	/* the pair: data, tree and parity regions of the image, in order */
	ck_assert_str_eq(a->pair.data.path, sys);
	ck_assert_uint_eq(a->pair.data.offset, 0);
	ck_assert_uint_eq(a->pair.data.length, (uint64_t)BLOCKS * AMK_BS);
	ck_assert_uint_ge(a->pair.hash.offset + a->pair.params.hash_offset,
			  (uint64_t)BLOCKS * AMK_BS);
	ck_assert_int_eq(a->pair.params.no_superblock, 1);
	ck_assert_ptr_nonnull(a->pair.fec.region.path);
	ck_assert_uint_eq(a->pair.fec.roots, 2);
	ck_assert_int_eq(stat(sys, &st), 0);
	ck_assert_uint_lt(a->pair.fec.offset, (uint64_t)st.st_size);
	ck_assert_int_eq(verity_android_unpaired(a, &err), 0);
	/* its descriptor's pair, made again over the file */
	ck_assert_int_eq(verity_android_descriptor_pair(a, 0, sys, &vp, &err),
			 0);
	ck_assert_mem_eq(vp.root, a->pair.root, 32);
	ck_assert_uint_eq(vp.hash.offset, a->pair.hash.offset);
	ck_assert_uint_eq(vp.params.hash_offset, a->pair.params.hash_offset);
	ck_assert_uint_eq(vp.data.length, a->pair.data.length);
	/* over a file too small for it */
	amk_data(amk_path(small, "small"), 2, 1);
	ck_assert_int_lt(
		verity_android_descriptor_pair(a, 0, small, &vp, &err), 0);
	ck_assert_int_lt(verity_android_descriptor_pair(a, 0, "/nonexistent",
							&vp, &err),
			 0);
	verity_android_free(a);
	verity_android_free(NULL);
}
END_TEST

START_TEST(unsigned_and_shown)
{
	struct verity_android *a, *b;
	struct ht_error err;

	ck_assert_int_eq(verity_android_read(unsig, NULL, 0, &a, &err), 0);
	ck_assert_int_eq(a->trust, VERITY_TRUST_UNSIGNED);
	ck_assert_str_eq(a->key_sha1, "");
	ck_assert_str_eq(a->name, "vendor");
	ck_assert_int_eq(a->paired, 1);
	ck_assert_uint_eq(a->pair.fec.roots, 0);
	ck_assert_ptr_null(a->pair.fec.region.path);
	/* read for showing: the same facts, no pair to be had */
	ck_assert_int_eq(verity_android_read(sys, NULL, 1, &b, &err), 0);
	ck_assert_int_eq(b->shown, 1);
	ck_assert_int_eq(b->paired, 1);
	ck_assert_int_eq(verity_android_unpaired(b, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "read for showing"));
	/* the same key signs both: the same SHA-1 as the signed read */
	verity_android_free(a);
	ck_assert_int_eq(verity_android_read(sys, NULL, 0, &a, &err), 0);
	ck_assert_str_eq(a->key_sha1, b->key_sha1);
	verity_android_free(a);
	verity_android_free(b);
}
END_TEST

START_TEST(no_pair)
{
	struct verity_android *a;
	struct ht_error err;

	/* a hash footer: no hashtree descriptor */
	ck_assert_int_eq(verity_android_read(boot, NULL, 0, &a, &err), 0);
	ck_assert_ptr_null(a->ht);
	ck_assert_ptr_null(a->name);
	ck_assert_int_eq(a->paired, 0);
	ck_assert_str_eq(a->root_hex, "");
	ck_assert_int_eq(verity_android_unpaired(a, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no hashtree descriptor"));
	ck_assert_ptr_nonnull(
		verity_android_descriptor(a, 0, AVB_TAG_HASH, &err));
	verity_android_free(a);
	/* a bare vbmeta image: system's descriptor, then the command line;
	 * no footer, so no pair of its own */
	ck_assert_int_eq(verity_android_read(vb, NULL, 0, &a, &err), 0);
	ck_assert_int_eq(a->img.has_footer, 0);
	ck_assert_ptr_nonnull(a->ht);
	ck_assert_str_eq(a->name, "system");
	ck_assert_int_eq(a->paired, 0);
	ck_assert_int_lt(verity_android_unpaired(a, &err), 0);
	ck_assert_uint_eq(a->img.vbmeta.ndesc, 2);
	ck_assert_ptr_nonnull(
		verity_android_descriptor(a, 0, AVB_TAG_KERNEL_CMDLINE, &err));
	ck_assert_ptr_nonnull(
		verity_android_descriptor(a, 1, AVB_TAG_HASHTREE, &err));
	ck_assert_ptr_nonnull(verity_android_descriptor(a, 1, UINT64_MAX, &err));
	/* by index past the end, by the wrong tag */
	ck_assert_ptr_null(verity_android_descriptor(a, 2, UINT64_MAX, &err));
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no descriptor 2"));
	ck_assert_ptr_null(verity_android_descriptor(a, SIZE_MAX, UINT64_MAX,
						     &err));
	ck_assert_ptr_null(verity_android_descriptor(a, 0, AVB_TAG_HASH, &err));
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "has tag"));
	ck_assert_ptr_null(verity_android_descriptor(NULL, 0, UINT64_MAX, &err));
	/* the included descriptor's pair over system.img: its root */
	{
		struct verity_android *s;
		struct verity_pair vp;

		ck_assert_int_eq(verity_android_read(sys, NULL, 0, &s, &err),
				 0);
		ck_assert_int_eq(
			verity_android_descriptor_pair(a, 1, sys, &vp, &err), 0);
		ck_assert_mem_eq(vp.root, s->pair.root, 32);
		/* descriptor 0 is not a hashtree one */
		ck_assert_int_eq(
			verity_android_descriptor_pair(a, 0, sys, &vp, &err),
			-EINVAL);
		verity_android_free(s);
	}
	verity_android_free(a);
}
END_TEST

START_TEST(not_android)
{
	struct verity_android *a = (struct verity_android *)1;
	struct ht_error err;
	char p[160];
	uint8_t *b;
	size_t n;

	amk_data(amk_path(p, "plain"), 2, 5);
	ck_assert_int_lt(verity_android_read(p, NULL, 0, &a, &err), 0);
	ck_assert_ptr_null(a);
	amk_write(amk_path(p, "empty"), "", 0);
	ck_assert_int_lt(verity_android_read(p, NULL, 1, &a, &err), 0);
	ck_assert_int_lt(
		verity_android_read(amk_path(p, "none"), NULL, 1, &a, &err), 0);
	ck_assert_int_lt(verity_android_read(amk, NULL, 1, &a, &err), 0);
	/* a byte of the vbmeta's signature changed: read for
	 * showing, refused when checked */
	b = amk_read(vb, &n);
	{
		const struct avb_header *h;
		struct verity_android *ok;
		uint64_t at;

		ck_assert_int_eq(verity_android_read(vb, NULL, 1, &ok, &err), 0);
		h = &ok->img.vbmeta.h;
		ck_assert_uint_gt(h->signature_size, 0);
		at = 256 + h->signature_offset;
		verity_android_free(ok);
		b[at] ^= 0x40;
	}
	amk_write(amk_path(p, "bad.img"), b, n);
	free(b);
	ck_assert_int_eq(verity_android_read(p, NULL, 1, &a, &err), 0);
	verity_android_free(a);
	ck_assert_int_lt(verity_android_read(p, NULL, 0, &a, &err), 0);
	ck_assert_ptr_null(a);
	/* a footer cut off (the last 64 bytes gone): not an image */
	b = amk_read(sys, &n);
	amk_write(amk_path(p, "cut.img"), b, n - 64);
	free(b);
	ck_assert_int_lt(verity_android_read(p, NULL, 1, &a, &err), 0);
}
END_TEST

START_TEST(super_image)
{
	struct verity_android_super *s = (struct verity_android_super *)1;
	struct verity_android *a = (struct verity_android *)1, *own;
	const char *names[1] = {NULL}, *files[1] = {NULL};
	struct ht_error err;
	char sup[160], p[160];
	uint32_t device = 9;
	uint64_t at = 0;
	uint8_t *b;
	size_t n;

	/* system_a holds system.img (its data, tree, parity and footer) */
	b = amk_read(sys, &n);
	ck_assert_uint_eq(n % 512, 0);
	amk_super(amk_path(sup, "super.img"), b, n);
	free(b);
	ck_assert_msg(verity_android_super_open(sup, NULL, NULL, 0, 0, &s,
						&err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_uint_eq(s->s.m.np, 2);
	ck_assert_uint_le(s->nnotes, 2 + LP_MAX_SLOTS);
	/* by name and slot */
	ck_assert_int_eq(verity_android_super_find(s, "system", "a"), 0);
	ck_assert_int_eq(verity_android_super_find(s, "system", "b"), 1);
	ck_assert_int_eq(verity_android_super_find(s, "system_a", "a"), 0);
	ck_assert_int_eq(verity_android_super_find(s, "system_a", "b"),
			 -ENOENT);
	ck_assert_int_eq(verity_android_super_find(s, "system_b", NULL), 1);
	ck_assert_int_eq(verity_android_super_find(s, "system", NULL), 0);
	ck_assert_int_eq(verity_android_super_find(s, "vendor", "a"), -ENOENT);
	ck_assert_int_eq(verity_android_super_find(s, "vendor", NULL), -ENOENT);
	/* located: byte 0 of system_a is byte 1 MiB of block device 0 */
	ck_assert_int_eq(verity_android_super_locate(s, 0, 0, &device, &at,
						     &err),
			 0);
	ck_assert_uint_eq(device, 0);
	ck_assert_uint_eq(at, 1u << 20);
	ck_assert_int_eq(verity_android_super_locate(s, 0, n - 1, &device, &at,
						     &err),
			 0);
	ck_assert_uint_eq(at, (1u << 20) + n - 1);
	ck_assert_int_eq(verity_android_super_locate(s, 0, n, &device, &at,
						     &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "past partition system_a"));
	ck_assert_int_eq(verity_android_super_locate(s, 1, 0, &device, &at,
						     &err),
			 -EINVAL);
	/* read over its extents: the same pair as the file's */
	ck_assert_msg(verity_android_super_read(s, 0, 0, &a, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_ptr_nonnull(a->src);
	ck_assert_ptr_nonnull(strstr(a->path, "super.img/system_a"));
	ck_assert_int_eq(a->paired, 1);
	ck_assert_str_eq(a->name, "system");
	ck_assert_int_eq(verity_android_read(sys, NULL, 0, &own, &err), 0);
	ck_assert_str_eq(a->root_hex, own->root_hex);
	ck_assert_str_eq(a->key_sha1, own->key_sha1);
	verity_android_free(own);
	verity_android_free(a);
	/* the empty one */
	ck_assert_int_eq(verity_android_super_read(s, 1, 1, &a, &err),
			 -ENODATA);
	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "system_b: the partition "
						   "is empty"));
	verity_android_super_close(s);
	verity_android_super_close(NULL);

	/* a partition that is not an Android image: ENOMSG */
	b = calloc(1, 8 * AMK_BS);
	amk_super(sup, b, 8 * AMK_BS);
	free(b);
	ck_assert_int_eq(verity_android_super_open(sup, NULL, NULL, 0, 0, &s,
						   &err),
			 0);
	ck_assert_int_eq(verity_android_super_read(s, 0, 1, &a, &err), -ENOMSG);
	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not an Android image"));
	verity_android_super_close(s);

	/* split devices named NULL; not a super image; missing */
	ck_assert_int_eq(verity_android_super_open(sup, NULL, NULL, 1, 0, &s,
						   &err),
			 -EINVAL);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(verity_android_super_open(sup, names, files, 1, 0, &s,
						   &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "block device 0 is NULL"));
	ck_assert_int_lt(verity_android_super_open(sys, NULL, NULL, 0, 0, &s,
						   &err),
			 0);
	ck_assert_ptr_null(s);
	ck_assert_int_lt(verity_android_super_open(amk_path(p, "none"), NULL,
						   NULL, 0, 0, &s, &err),
			 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"android", 0, asetup, ateardown, 1,
					    NULL};

	return run_unit(&u, UNIT_TESTS(signed_footer, unsigned_and_shown,
				       no_pair, not_android, super_image));
}
