/* verity/api/super.c through <fastverity.h> alone (as a program sees
 * it): super images and their partitions. */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "include/fastverity.h"

#include "api_test.h"

static int count(void *ctx, const struct fv_item *it)
{
	*(size_t *)ctx += it->kind == FV_ITEM_TEXT ? (size_t)it->u : 0;
	return 0;
}

/* fv_show's FV_SHOW_LPUNPACK: the partition named written whole as
 * OUT/NAME.img (OUT made), lpunpack's lines said; a name the image does
 * not have said (ENOENT, positive) before anything is written; no
 * directory refused. */
static void unpack(const char *sup, const uint8_t *bytes, size_t n)
{
	const char *one[] = {"system_a"}, *none[] = {"vendor", "system_a"};
	char out[128], got[160];
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_LPUNPACK,
				    .image = sup,
				    .names = one,
				    .n = 1,
				    .dir = out};
	size_t said = 0;

	snprintf(out, sizeof(out), "%s/out/deep", dir);
	snprintf(got, sizeof(got), "%s/system_a.img", out);
	ck_assert_msg(fv_show(&q, count, &said) == 0, "%s", fv_last_error());
	ck_assert(same_file(got, bytes, n));
	ck_assert_uint_gt(said, 0);
	unlink(got);
	q.names = none;
	q.n = 2;
	ck_assert_int_eq(fv_show(&q, count, &said), ENOENT);
	ck_assert_int_ne(access(got, F_OK), 0);
	q.dir = NULL;
	ck_assert_int_eq(fv_show(&q, count, &said), -EINVAL);
}

/* A super image's logical partition through the door (slot 1: b's). */
static int part_open(const char *sup, const char *name, unsigned slot,
		     fv_image **im)
{
	return fv_open(
		&(struct fv_open_request){
			.size = sizeof(struct fv_open_request),
			.image = sup,
			.partition = name,
			.slot = slot},
		NULL, im);
}

START_TEST(super_images)
{
	struct fv_super_info in = {.size = sizeof(in)};
	struct fv_super_entry e = {.size = sizeof(e)};
	struct fv_footer_request fo = {.size = sizeof(fo),
				       .kind = FV_FOOTER_HASHTREE,
				       .partition_name = "system",
				       .partition_size = 2u << 20,
				       .hash = "sha256",
				       .block_size = BS};
	char img[96], sup[96], part[128], empty[128];
	struct seen seen;
	const char *kind;
	fv_result *res;
	fv_image *im;
	fv_super *s;
	uint8_t *bytes;
	uint64_t at;
	uint32_t dev;
	long n;
	FILE *f;

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(sup, sizeof(sup), "%s/super.img", dir);
	snprintf(part, sizeof(part), "%s/system_a", sup);
	snprintf(empty, sizeof(empty), "%s/system_b", sup);
	write_file(img, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(fv_avb_add_footer(img, &fo, NULL), 0);
	f = fopen(img, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	bytes = malloc((size_t)n);
	ck_assert_uint_eq(fread(bytes, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	make_super(sup, bytes, (size_t)n);

	ck_assert_int_eq(f_container(sup, NULL, &kind), 0);
	ck_assert_str_eq(kind, "super");
	ck_assert_int_eq(f_container(part, NULL, &kind), 0);
	ck_assert_str_eq(kind, "avb");
	ck_assert_int_eq(f_container(part, "nothing", &kind), -EINVAL);
	ck_assert_msg(fv_super_open(sup, NULL, NULL, 0, 0, &s) == 0, "%s",
		      fv_last_error());
	ck_assert_int_eq(fv_super_info(s, &in), 0);
	ck_assert_uint_eq(in.major, 10);
	ck_assert_uint_eq(in.metadata_slot_count, 2);
	ck_assert_int_eq(in.metadata_backup, 0);
	ck_assert_uint_eq(in.notes, 0);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_NOTE, 0, &e), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "note 0 of 0");
	ck_assert_uint_eq(in.partitions, 2);
	ck_assert_uint_eq(in.extents, 1);
	ck_assert_uint_eq(in.groups, 1);
	ck_assert_uint_eq(in.block_devices, 1);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_PARTITION, 1, &e), 0);
	ck_assert_int_eq(e.kind, FV_SUPER_PARTITION);
	ck_assert_uint_eq(e.partition.size, sizeof(e.partition));
	ck_assert_str_eq(e.partition.name, "system_b");
	ck_assert_uint_eq(e.partition.num_extents, 0);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_PARTITION, 2, &e), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "partition 2 of 2");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_PARTITION, 0, &e), 0);
	ck_assert_uint_eq(e.partition.bytes, (uint64_t)n);
	ck_assert_str_eq(e.partition.group, "default");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_EXTENT, 0, &e), 0);
	ck_assert_int_eq(e.kind, FV_SUPER_EXTENT);
	ck_assert_uint_eq(e.extent.size, sizeof(e.extent));
	ck_assert_uint_eq(e.extent.target, 2048);
	ck_assert_str_eq(e.extent.device, "super");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_EXTENT, 1, &e), -EINVAL);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_GROUP, 0, &e), 0);
	ck_assert_str_eq(e.group.name, "default");
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_BLOCK_DEVICE, 0, &e), 0);
	ck_assert_uint_eq(e.block_device.size, sizeof(e.block_device));
	ck_assert_str_eq(e.block_device.file, sup);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_BLOCK_DEVICE, 1, &e),
			 -EINVAL);
	ck_assert_str_eq(fv_last_error(), "block device 1 of 1");
	ck_assert_int_eq(fv_super_entry(s, (enum fv_super_kind)5, 0, &e),
			 -EINVAL);
	e.size = offsetof(struct fv_super_entry, partition);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_GROUP, 0, &e), -EINVAL);
	e.size = sizeof(e);
	ck_assert_int_eq(fv_super_find(s, "system", NULL), 0);
	ck_assert_int_eq(fv_super_find(s, "system", "b"), 1);
	ck_assert_int_eq(fv_super_find(s, "vendor", NULL), -ENOENT);
	ck_assert_int_eq(fv_super_offset(s, 0, 5000, &dev, &at), 0);
	ck_assert_uint_eq(at, (1u << 20) + 5000);
	ck_assert_int_eq(fv_super_offset(s, 0, (uint64_t)n, &dev, &at),
			 -EINVAL);
	/* a partition by its name through the door: the empty one (slot
	 * b's) refused, one that is not there refused, the Android one
	 * verified */
	ck_assert_int_eq(part_open(sup, "system", 1, &im), -ENODATA);
	ck_assert_ptr_null(im);
	ck_assert_int_eq(part_open(sup, "vendor", 0, &im), -ENOENT);
	ck_assert_msg(part_open(sup, "system", 0, &im) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(img_info(im).container, "avb");
	ck_assert_ptr_nonnull(strstr(img_info(im).path, "/system_a"));
	ck_assert_uint_eq(img_info(im).pairs, 1);
	ck_assert_str_eq(img_pair(im, 0).name, "system");
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);
	fv_super_free(s);
	unpack(sup, bytes, (size_t)n);
	free(bytes);
	/* a logical partition by its path: an empty one refused, one that
	 * is an Android image read as one */
	ck_assert_int_eq(image_open(empty, NULL, NULL, &im), -ENODATA);
	ck_assert_msg(image_open(part, NULL, NULL, &im) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(img_info(im).container, "avb");
	ck_assert_str_eq(img_pair(im, 0).name, "system");
	ck_assert_int_eq(avb_info(img_info(im).avb).has_hashtree, 1);
	fv_image_free(im);
	/* a partition is a disk image's or a super image's */
	ck_assert_int_eq(part_open(part, "system", 0, &im), -EINVAL);
	ck_assert_ptr_null(im);
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(avb_check(part, NULL, 0, on_failure, &seen, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 0);
	fv_result_free(res);
	/* a byte of the partition changed in super.img: found at its
	 * offset in the partition */
	poke(sup, (1u << 20) + 5 * BS + 7);
	ck_assert_int_eq(avb_check(part, NULL, 0, on_failure, &seen, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(seen.n, 1);
	ck_assert_uint_eq(seen.offset[0], 5 * BS);
	fv_result_free(res);
	/* the image alone: a container of one pair, the Android image's */
	ck_assert_msg(image_open(sup, NULL, NULL, &im) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(img_info(im).container, "super");
	ck_assert_uint_eq(img_info(im).pairs, 1);
	ck_assert_str_eq(img_pair(im, 0).name, "system_a");
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	fv_result_free(res);
	fv_image_free(im);
	/* both geometries damaged: refused, naming both */
	poke(sup, 4096 + 20);
	ck_assert_int_eq(fv_super_open(sup, NULL, NULL, 0, 0, &s), 0);
	ck_assert_int_eq(fv_super_info(s, &in), 0);
	ck_assert_uint_eq(in.notes, 1);
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_NOTE, 0, &e), 0);
	ck_assert_int_eq(e.kind, FV_SUPER_NOTE);
	ck_assert_ptr_nonnull(strstr(e.note, "read its backup"));
	ck_assert_int_eq(fv_super_entry(s, FV_SUPER_NOTE, 1, &e), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "note 1 of 1");
	fv_super_free(s);
	poke(sup, 8192 + 20);
	ck_assert_int_eq(fv_super_open(sup, NULL, NULL, 0, 0, &s), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "its backup at byte 8192"));
	ck_assert_int_eq(fv_super_open(img, NULL, NULL, 0, 0, &s), -EINVAL);
}
END_TEST

/* lp dump -j of what is no super image: lpdump's warning and {}, 0;
 * without -j, the error. */
static int lpdump_seen(void *ctx, const struct fv_item *it)
{
	char *seen = ctx;

	if (it->kind == FV_ITEM_WARNING)
		strcat(seen, "warning;");
	if (it->kind == FV_ITEM_TEXT)
		strncat(seen, it->text, (size_t)it->u);
	return 0;
}

START_TEST(lpdump_json_without_metadata)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_LPDUMP,
				    .image = "/dev/null",
				    .json = 1};
	char seen[64] = "";

	ck_assert_int_eq(fv_show(&q, lpdump_seen, seen), 0);
	ck_assert_str_eq(seen, "warning;{}\n");
	q.json = 0;
	ck_assert_int_lt(fv_show(&q, lpdump_seen, seen), 0);
}
END_TEST

/* avb's table through the door: no image needed; subcommands, then
 * options (an option's help after it), argparse's order last. */
static int table_seen(void *ctx, const struct fv_item *it)
{
	size_t *n = ctx;

	n[it->kind == FV_ITEM_STRING ? 0
	  : it->kind == FV_ITEM_UINT ? 1
	  : it->kind == FV_ITEM_TEXT ? 2
				     : 3]++;
	return 0;
}

START_TEST(avb_options_table)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_OPTIONS};
	size_t n[4] = {0};

	ck_assert_int_eq(fv_show(&q, table_seen, n), 0);
	ck_assert_uint_eq(n[0], 17);
	ck_assert_uint_gt(n[1], 50);
	ck_assert_uint_eq(n[2], n[1]);
	ck_assert_uint_eq(n[3], 10 + 1); /* avbtool's lacking; the order */
	ck_assert_int_eq(fv_show(&q, NULL, n), -EINVAL);
	/* a subcommand run whole: version's line, one text item */
	memset(n, 0, sizeof(n));
	q.what = FV_SHOW_AVB_RUN;
	q.args = "version";
	ck_assert_int_eq(fv_show(&q, table_seen, n), 0);
	ck_assert_uint_eq(n[2], 1);
	q.args = "no_such_subcommand";
	ck_assert_int_eq(fv_show(&q, table_seen, n), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_super",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u,
			UNIT_TESTS(super_images, lpdump_json_without_metadata,
				   avb_options_table));
}
