/* verity/android/shown.c: the readings of Android images and super
 * images as the public structures show them, on readings made here:
 * every field carried over, the chain's key's SHA-1, a tag without a
 * structure of its own left zeroed; a super image's entries, each kind
 * bounded by its count (one past the last refused, naming it), a kind
 * that is none refused, and an answer left as it was on refusal. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_main.h"
#include "verity/android/shown.h"

START_TEST(avb_info)
{
	static const uint8_t key[] = "key blob";
	static struct verity_android a;
	struct avb_descriptor d;
	struct fv_avb_info out;

	memset(&a, 0, sizeof(a));
	a.img.has_footer = 1;
	a.img.vbmeta.ndesc = 3;
	a.img.vbmeta.h.algorithm = 2;
	a.img.vbmeta.h.rollback_index = 77;
	a.img.vbmeta.public_key = key;
	a.img.vbmeta.h.public_key_size = 8;
	strcpy(a.key_sha1, "0123456789012345678901234567890123456789");
	memset(&out, 0xa5, sizeof(out));
	verity_android_shown_info(&a, &out);
	ck_assert_int_eq(out.has_footer, 1);
	ck_assert_int_eq(out.has_hashtree, 0);
	ck_assert_int_eq(out.parity_unusable, 0);
	ck_assert_uint_eq(out.descriptors, 3);
	ck_assert_uint_eq(out.header.size, sizeof(out.header));
	ck_assert_str_eq(out.header.algorithm, "SHA256_RSA4096");
	ck_assert_ptr_eq(out.header.public_key_sha1, a.key_sha1);
	ck_assert_uint_eq(out.header.rollback_index, 77);
	/* a hashtree descriptor; parity that cannot be used only counts
	 * for a pair made */
	a.ht = &d;
	a.unusable = 1;
	verity_android_shown_info(&a, &out);
	ck_assert_int_eq(out.has_hashtree, 1);
	ck_assert_int_eq(out.parity_unusable, 0);
	a.paired = 1;
	verity_android_shown_info(&a, &out);
	ck_assert_int_eq(out.parity_unusable, 1);
	a.img.vbmeta.h.algorithm = 0;
	verity_android_shown_info(&a, &out);
	ck_assert_str_eq(out.header.algorithm, "NONE");
}
END_TEST

START_TEST(descriptors)
{
	static const uint8_t name[] = "system", salt[] = {1, 2, 3},
			     digest[32] = {9}, key[] = "abc";
	struct avb_descriptor d;
	struct fv_avb_descriptor out;

	memset(&d, 0, sizeof(d));
	d.tag = AVB_TAG_HASHTREE;
	d.hashtree.dm_verity_version = 1;
	d.hashtree.p.image_size = 1 << 20;
	d.hashtree.tree_offset = 1 << 20;
	d.hashtree.tree_size = 12288;
	d.hashtree.data_block_size = 4096;
	d.hashtree.hash_block_size = 4096;
	d.hashtree.fec_num_roots = 2;
	d.hashtree.fec_offset = (1 << 20) + 12288;
	d.hashtree.fec_size = 16384;
	strcpy(d.hashtree.p.hash_algorithm, "sha256");
	d.hashtree.p.name = name;
	d.hashtree.p.name_len = 6;
	d.hashtree.p.salt = salt;
	d.hashtree.p.salt_len = 3;
	d.hashtree.p.digest = digest;
	d.hashtree.p.digest_len = 32;
	d.hashtree.p.flags = AVB_HASHTREE_DO_NOT_USE_AB;
	memset(&out, 0xa5, sizeof(out));
	verity_android_shown_descriptor(&d, &out);
	ck_assert_uint_eq(out.tag, FV_AVB_HASHTREE);
	ck_assert_uint_eq(out.hashtree.size, sizeof(out.hashtree));
	ck_assert_uint_eq(out.hashtree.dm_verity_version, 1);
	ck_assert_uint_eq(out.hashtree.image_size, 1 << 20);
	ck_assert_uint_eq(out.hashtree.tree_offset, 1 << 20);
	ck_assert_uint_eq(out.hashtree.tree_size, 12288);
	ck_assert_uint_eq(out.hashtree.data_block_size, 4096);
	ck_assert_uint_eq(out.hashtree.hash_block_size, 4096);
	ck_assert_uint_eq(out.hashtree.fec_num_roots, 2);
	ck_assert_uint_eq(out.hashtree.fec_offset, (1 << 20) + 12288);
	ck_assert_uint_eq(out.hashtree.fec_size, 16384);
	ck_assert_str_eq(out.hashtree.hash_algorithm, "sha256");
	ck_assert_ptr_eq(out.hashtree.partition_name, name);
	ck_assert_uint_eq(out.hashtree.partition_name_len, 6);
	ck_assert_ptr_eq(out.hashtree.salt, salt);
	ck_assert_uint_eq(out.hashtree.salt_len, 3);
	ck_assert_ptr_eq(out.hashtree.root_digest, digest);
	ck_assert_uint_eq(out.hashtree.root_digest_len, 32);
	ck_assert_uint_eq(out.hashtree.flags, AVB_HASHTREE_DO_NOT_USE_AB);
	/* a hash descriptor */
	memset(&d, 0, sizeof(d));
	d.tag = AVB_TAG_HASH;
	d.hash.p.image_size = 8192;
	strcpy(d.hash.p.hash_algorithm, "sha512");
	d.hash.p.name = name;
	d.hash.p.name_len = 4;
	d.hash.p.digest = digest;
	d.hash.p.digest_len = 32;
	d.hash.p.flags = 5;
	verity_android_shown_descriptor(&d, &out);
	ck_assert_uint_eq(out.tag, FV_AVB_HASH);
	ck_assert_uint_eq(out.hash.size, sizeof(out.hash));
	ck_assert_uint_eq(out.hash.image_size, 8192);
	ck_assert_str_eq(out.hash.hash_algorithm, "sha512");
	ck_assert_uint_eq(out.hash.partition_name_len, 4);
	ck_assert_ptr_null(out.hash.salt);
	ck_assert_uint_eq(out.hash.salt_len, 0);
	ck_assert_ptr_eq(out.hash.digest, digest);
	ck_assert_uint_eq(out.hash.flags, 5);
	/* a chain: its key's SHA-1 as a vbmeta's (SHA-1 of "abc") */
	memset(&d, 0, sizeof(d));
	d.tag = AVB_TAG_CHAIN_PARTITION;
	d.chain.rollback_index_location = 3;
	d.chain.name = name;
	d.chain.name_len = 6;
	d.chain.public_key = key;
	d.chain.public_key_len = 3;
	d.chain.flags = 1;
	verity_android_shown_descriptor(&d, &out);
	ck_assert_uint_eq(out.tag, FV_AVB_CHAIN_PARTITION);
	ck_assert_uint_eq(out.chain_partition.size,
			  sizeof(out.chain_partition));
	ck_assert_uint_eq(out.chain_partition.rollback_index_location, 3);
	ck_assert_ptr_eq(out.chain_partition.partition_name, name);
	ck_assert_uint_eq(out.chain_partition.partition_name_len, 6);
	ck_assert_ptr_eq(out.chain_partition.public_key, key);
	ck_assert_uint_eq(out.chain_partition.public_key_len, 3);
	ck_assert_str_eq(out.chain_partition.public_key_sha1,
			 "a9993e364706816aba3e25717850c26c9cd0d89d");
	ck_assert_uint_eq(out.chain_partition.flags, 1);
	/* a chain without a key: no SHA-1 */
	d.chain.public_key_len = 0;
	verity_android_shown_descriptor(&d, &out);
	ck_assert_str_eq(out.chain_partition.public_key_sha1, "");
	/* a property, a command line, a tag past the known: the tag
	 * alone, the rest zeroed */
	for (uint64_t tag = AVB_TAG_PROPERTY; tag <= 99;
	     tag = tag == AVB_TAG_PROPERTY ? AVB_TAG_KERNEL_CMDLINE : 99) {
		static const struct fv_avb_descriptor zero;

		memset(&d, 0x11, sizeof(d));
		d.tag = tag;
		memset(&out, 0xa5, sizeof(out));
		verity_android_shown_descriptor(&d, &out);
		ck_assert_uint_eq(out.tag, tag);
		ck_assert_mem_eq(&out.hash, &zero.hash, sizeof(zero.hash));
		ck_assert_mem_eq(&out.hashtree, &zero.hashtree,
				 sizeof(zero.hashtree));
		if (tag == 99)
			break;
	}
}
END_TEST

/* A split super image's reading: two block devices, two partitions, a
 * linear and a zero extent, a group, a note. */
static struct lp_partition parts[2] = {
	{"system_a", LP_ATTR_READONLY, 0, 1, 0, 4096},
	{"vendor_a", 0, 1, 1, 0, 2048},
};
static struct lp_extent exts[2] = {
	{8, LP_TARGET_LINEAR, 2048, 1},
	{4, LP_TARGET_ZERO, 0, 0},
};
static struct lp_group groups[1] = {{"main", 1, 1 << 30}};
static struct lp_block_device devs[2] = {
	{2048, 4096, 0, 1 << 24, "super", 0},
	{0, 4096, 512, 1 << 22, "super_1", 1},
};
static char path0[] = "/img/super.img", path1[] = "/img/super_1.img";
static char *other_paths[1] = {path1};

static void super_of(struct verity_android_super *s)
{
	memset(s, 0, sizeof(*s));
	s->s.path = path0;
	s->s.other_path = other_paths;
	s->s.nother = 1;
	s->s.sparse = 1;
	s->s.d.size = 1 << 24;
	s->s.m.major = 10;
	s->s.m.minor = 2;
	s->s.m.header_size = 256;
	s->s.m.tables_size = 1000;
	s->s.m.flags = 1;
	s->s.m.max_size = 65536;
	s->s.m.slots = 3;
	s->s.m.block_size = 4096;
	s->s.m.slot = 1;
	s->s.m.geometry_backup = 1;
	s->s.m.backup = 0;
	s->s.m.p = parts;
	s->s.m.e = exts;
	s->s.m.g = groups;
	s->s.m.b = devs;
	s->s.m.np = 2;
	s->s.m.ne = 2;
	s->s.m.ng = 1;
	s->s.m.nb = 2;
	s->notes[0] = "a note";
	s->nnotes = 1;
}

START_TEST(super_info)
{
	static struct verity_android_super s;
	struct fv_super_info info;

	super_of(&s);
	memset(&info, 0xa5, sizeof(info));
	verity_android_shown_super(&s, &info);
	ck_assert_uint_eq(info.major, 10);
	ck_assert_uint_eq(info.minor, 2);
	ck_assert_uint_eq(info.header_size, 256);
	ck_assert_uint_eq(info.tables_size, 1000);
	ck_assert_uint_eq(info.header_flags, 1);
	ck_assert_uint_eq(info.metadata_max_size, 65536);
	ck_assert_uint_eq(info.metadata_slot_count, 3);
	ck_assert_uint_eq(info.logical_block_size, 4096);
	ck_assert_uint_eq(info.slot, 1);
	ck_assert_int_eq(info.geometry_backup, 1);
	ck_assert_int_eq(info.metadata_backup, 0);
	ck_assert_int_eq(info.sparse, 1);
	ck_assert_uint_eq(info.image_size, 1 << 24);
	ck_assert_uint_eq(info.partitions, 2);
	ck_assert_uint_eq(info.extents, 2);
	ck_assert_uint_eq(info.groups, 1);
	ck_assert_uint_eq(info.block_devices, 2);
	ck_assert_uint_eq(info.notes, 1);
}
END_TEST

START_TEST(super_entries)
{
	static struct verity_android_super s;
	struct fv_super_entry e;
	struct ht_error err = {0};

	super_of(&s);
	ck_assert_int_eq(
		verity_android_shown_entry(&s, FV_SUPER_PARTITION, 1, &e, &err),
		0);
	ck_assert_int_eq(e.kind, FV_SUPER_PARTITION);
	ck_assert_uint_eq(e.partition.size, sizeof(e.partition));
	ck_assert_str_eq(e.partition.name, "vendor_a");
	ck_assert_str_eq(e.partition.group, "main");
	ck_assert_uint_eq(e.partition.bytes, 2048);
	ck_assert_uint_eq(e.partition.first_extent, 1);
	ck_assert_uint_eq(e.partition.num_extents, 1);
	ck_assert_int_eq(
		verity_android_shown_entry(&s, FV_SUPER_EXTENT, 0, &e, &err),
		0);
	ck_assert_uint_eq(e.extent.sectors, 8);
	ck_assert_uint_eq(e.extent.target, 2048);
	ck_assert_uint_eq(e.extent.source, 1);
	ck_assert_str_eq(e.extent.device, "super_1");
	/* a zero extent lies on no device */
	ck_assert_int_eq(
		verity_android_shown_entry(&s, FV_SUPER_EXTENT, 1, &e, &err),
		0);
	ck_assert_uint_eq(e.extent.type, LP_TARGET_ZERO);
	ck_assert_ptr_null(e.extent.device);
	ck_assert_int_eq(
		verity_android_shown_entry(&s, FV_SUPER_GROUP, 0, &e, &err), 0);
	ck_assert_str_eq(e.group.name, "main");
	ck_assert_uint_eq(e.group.flags, 1);
	ck_assert_uint_eq(e.group.max_size, 1 << 30);
	/* block device 0 is the image, the others their files */
	ck_assert_int_eq(verity_android_shown_entry(&s, FV_SUPER_BLOCK_DEVICE,
						    0, &e, &err),
			 0);
	ck_assert_str_eq(e.block_device.name, "super");
	ck_assert_str_eq(e.block_device.file, "/img/super.img");
	ck_assert_uint_eq(e.block_device.first_sector, 2048);
	ck_assert_int_eq(verity_android_shown_entry(&s, FV_SUPER_BLOCK_DEVICE,
						    1, &e, &err),
			 0);
	ck_assert_str_eq(e.block_device.file, "/img/super_1.img");
	ck_assert_uint_eq(e.block_device.alignment, 4096);
	ck_assert_uint_eq(e.block_device.alignment_offset, 512);
	ck_assert_uint_eq(e.block_device.bytes, 1 << 22);
	ck_assert_uint_eq(e.block_device.flags, 1);
	ck_assert_int_eq(
		verity_android_shown_entry(&s, FV_SUPER_NOTE, 0, &e, &err), 0);
	ck_assert_str_eq(e.note, "a note");
}
END_TEST

START_TEST(super_refused)
{
	static struct verity_android_super s;
	static const struct {
		enum fv_super_kind kind;
		size_t i;
		const char *want;
	} bad[] = {
		{FV_SUPER_PARTITION, 2, "partition 2 of 2"},
		{FV_SUPER_EXTENT, 2, "extent 2 of 2"},
		{FV_SUPER_GROUP, 1, "group 1 of 1"},
		{FV_SUPER_BLOCK_DEVICE, 2, "block device 2 of 2"},
		{FV_SUPER_NOTE, 1, "note 1 of 1"},
		{FV_SUPER_PARTITION, (size_t)-1,
		 "partition 18446744073709551615 of 2"},
		{(enum fv_super_kind)5, 0, "fv_super_entry: kind 5 is not one"},
		{(enum fv_super_kind) - 1, 0,
		 "fv_super_entry: kind -1 is not one"},
	};
	struct fv_super_entry e, before;
	struct ht_error err = {0};

	super_of(&s);
	memset(&e, 0x3c, sizeof(e));
	before = e;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(verity_android_shown_entry(&s, bad[i].kind,
							    bad[i].i, &e, &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err), bad[i].want);
		ck_assert_mem_eq(&e, &before, sizeof(e));
	}
	/* an image with no notes */
	s.nnotes = 0;
	ck_assert_int_eq(
		verity_android_shown_entry(&s, FV_SUPER_NOTE, 0, &e, &err),
		-EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "android_shown"};

	return run_unit(&u, UNIT_TESTS(avb_info, descriptors, super_info,
				       super_entries, super_refused));
}
