/* verity/api/avb.c through <fastverity.h> alone (as a program sees
 * it): the Android image writers (vbmeta images, footers, edits, keys). */
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

/* avbtool's writers through the header: a hashtree footer and a hash
 * footer added, read back, a vbmeta image that chains, includes and
 * carries properties, the footer erased. */
START_TEST(android_writers)
{
	char img[96], himg[96], key[96], pub[96], vb[96];
	struct fv_vbmeta_property prop = {"k", (const uint8_t *)"v", 1};
	struct fv_vbmeta_chain chains[2] = {{"system", 1, NULL, 0},
					    {"vendor", 2, NULL, 1u << 7}};
	const char *cmdline = "quiet", *include = himg;
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .algorithm = "MD5_RSA1",
				      .key = key,
				      .rollback_index = 3,
				      .release_append = "x",
				      .properties = &prop,
				      .nproperties = 1,
				      .cmdlines = &cmdline,
				      .ncmdlines = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system",
				      .hash = "md5",
				      .block_size = 4096,
				      .salt = (const uint8_t *)"salt",
				      .salt_len = 4,
				      .flags = FV_FOOTER_SALT_GIVEN | 1u << 9,
				      .fec_roots = 2,
				      .vbmeta = &v},
				 h = {.size = sizeof(h),
				      .kind = FV_FOOTER_HASH,
				      .partition_name = "boot",
				      .partition_size = 1 << 20},
				 bad = f;
	uint8_t *pk;
	size_t pklen;
	uint64_t max;
	unsigned minor;
	fv_options ko = {.size = sizeof(ko), .key = key};
	struct fv_avb_edit_request e = {.size = sizeof(e), .image = himg};
	const fv_avb *ia;
	const fv_avb *a;
	fv_image *im, *sim;
	fv_result *res;
	FILE *fp;

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(himg, sizeof(himg), "%s/boot.img", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	snprintf(pub, sizeof(pub), "%s/k.avbpubkey", dir);
	snprintf(vb, sizeof(vb), "%s/vbmeta.img", dir);
	write_file(img, image, (size_t)BLOCKS * BS);
	write_file(himg, image, 64 * BS);
	make_key(key, 2048);
	/* each part of the requests checked before anything is written */
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), -EINVAL);
	v.algorithm = "SHA256_RSA2048";
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), -EINVAL);
	f.hash = "sha256";
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), -EINVAL);
	f.flags = FV_FOOTER_SALT_GIVEN | FV_FOOTER_CHECK_AT_MOST_ONCE;
	bad.kind = (enum fv_footer_kind)5;
	ck_assert_int_eq(fv_avb_add_footer(img, &bad, NULL), -EINVAL);
	bad = f;
	bad.size = 8;
	ck_assert_int_eq(fv_avb_add_footer(img, &bad, NULL), -EINVAL);
	bad = f;
	bad.salt_len = 300;
	ck_assert_int_eq(fv_avb_add_footer(img, &bad, NULL), -EINVAL);
	ck_assert(same_file(img, image, (size_t)BLOCKS * BS));
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), 0);

	/* read back, judged by its key's blob, and verified */
	ck_assert_int_eq(key_blob(key, &pk, &pklen), 0);
	ck_assert_int_eq(image_open(img, "avb", &ko, &im), 0);
	ia = img_info(im).avb;
	ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
	ck_assert_uint_eq(avb_info(ia).descriptors, 3);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);

	/* a hash footer in a partition of 1 MiB, and what fits there */
	ck_assert_int_eq(max_size(&h, &max), 0);
	ck_assert_uint_gt(max, 64 * BS);
	ck_assert_uint_lt(max, 1 << 20);
	ck_assert_int_eq(fv_avb_add_footer(himg, &h, NULL), 0);
	ck_assert_int_eq(image_open(himg, "avb", NULL, &im), 0);
	ck_assert_uint_eq(img_info(im).pairs, 0); /* no hashtree */
	ia = img_info(im).avb;
	{
		struct fv_avb_descriptor d = avb_desc(ia, 0);

		ck_assert_uint_eq(d.tag, FV_AVB_HASH);
		ck_assert_uint_eq(d.hash.image_size, 64 * BS);
	}
	fv_image_free(im);

	/* a vbmeta image chaining system's key, including boot's */
	ck_assert_ptr_nonnull(fp = fopen(pub, "wb"));
	ck_assert_uint_eq(fwrite(pk, 1, pklen, fp), pklen);
	fclose(fp);
	fv_free(pk);
	chains[0].key_path = chains[1].key_path = pub;
	v.chains = chains;
	v.nchains = 1;
	v.includes = &include;
	v.nincludes = 1;
	ck_assert_int_eq(needs_minor(&v, NULL, &minor), 0);
	ck_assert_uint_eq(minor, 0);
	/* a footer's rule: its own flags count, its includes do not */
	ck_assert_int_eq(needs_minor(NULL, &f, &minor), 0);
	ck_assert_uint_eq(minor, 1);
	ck_assert_int_eq(needs_minor(&v, &f, &minor), -EINVAL);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(himg, &v, 0), -EINVAL);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &v, 4096), 0);
	a = image_shown(vb, &sim);
	ck_assert_int_eq(avb_info(a).has_footer, 0);
	{
		size_t n = avb_info(a).descriptors, found = 0;
		char *path;

		for (size_t i = 0; i < n; i++)
			if (avb_desc(a, i).tag == FV_AVB_CHAIN_PARTITION) {
				ck_assert_uint_eq(
					avb_desc(a, i)
						.chain_partition
						.rollback_index_location,
					1);
				ck_assert_int_eq(
					fv_avb_described_image(a, i, &path), 0);
				ck_assert_str_eq(path, img);
				fv_free(path);
				found++;
			}
		ck_assert_uint_eq(found, 1);
	}
	fv_image_free(sim);

	/* since 0.7: a chain without A/B, key metadata, no helper: libavb
	 * 1.3; the vbmeta appended to boot's data; resized; system's tree
	 * made zeros, its root still the data's */
	{
		char meta[4200], vb2[4200];
		struct fv_avb_hashtree t = {.size = sizeof(t)};

		snprintf(meta, sizeof(meta), "%s/pkmd", dir);
		snprintf(vb2, sizeof(vb2), "%s/vbmeta2.img", dir);
		write_file(meta, image, 100);
		v.nchains = 2;
		ck_assert_int_eq(needs_minor(&v, NULL, &minor), -EINVAL);
		chains[1].flags = FV_CHAIN_DO_NOT_USE_AB;
		v.public_key_metadata = meta;
		v.temp_dir = dir;
		ck_assert_int_eq(needs_minor(&v, NULL, &minor), 0);
		ck_assert_uint_eq(minor, 3);
		ck_assert_int_eq(fv_avb_make_vbmeta_image(vb2, NULL, 0),
				 -EINVAL);
		ck_assert_int_eq(fv_avb_make_vbmeta_image(vb2, &v, 0), 0);
		e.op = FV_AVB_EDIT_ERASE_FOOTER;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		e.op = FV_AVB_EDIT_APPEND_VBMETA_IMAGE;
		e.vbmeta_image = vb2;
		e.partition_size = 1 << 20;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		/* a member the edit does not read, refused by name */
		e.op = FV_AVB_EDIT_RESIZE_IMAGE;
		e.partition_size = 2 << 20;
		ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "vbmeta_image"));
		e.vbmeta_image = NULL;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		e.partition_size = 4096;
		ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
		a = image_shown(himg, &sim);
		ck_assert_int_eq(avb_info(a).has_footer, 1);
		fv_image_free(sim);

		/* not a sparse image: no sums to check */
		{
			struct fv_file_answer fa;

			ck_assert_int_eq(f_op(FV_FILE_SPARSE_CRC, img, &fa), 1);
			ck_assert_uint_eq(fa.count, 0);
		}
		a = image_shown(img, &sim);
		t = avb_desc(a, 0).hashtree;
		ck_assert_uint_eq(t.root_digest_len, 32);
		fv_image_free(sim);
		e.op = FV_AVB_EDIT_ZERO_HASHTREE;
		e.image = img;
		ck_assert_int_eq(fv_avb_edit(&e), -EINVAL); /* partition_size */
		e.partition_size = 0;
		ck_assert_int_eq(fv_avb_edit(&e), 0);
		a = image_shown(img, &sim);
		fv_image_free(sim);
	}

	/* the footer erased: the data as it was; no edit 0, nor 5 */
	e = (struct fv_avb_edit_request){.size = sizeof(e), .image = img};
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.op = (enum fv_avb_edit_op)5;
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.op = FV_AVB_EDIT_ERASE_FOOTER;
	e.flags = 4;
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.flags = FV_ERASE_KEEP_HASHTREE;
	e.size = 8;
	ck_assert_int_eq(fv_avb_edit(&e), -EINVAL);
	e.size = sizeof(e);
	ck_assert_int_eq(fv_avb_edit(&e), 0);
	e.image = himg;
	e.flags = 0;
	ck_assert_int_eq(fv_avb_edit(&e), 0);
	ck_assert(same_file(himg, image, 64 * BS));
}
END_TEST

/* avbtool's options as its command line spells them, read by the
 * library: numbers its way (0x, 0b), a chain without A/B, a footer's
 * own; not a number: EDOM; too large, malformed, another name: EINVAL,
 * each naming the option as avbtool does; read alone (out NULL). */
START_TEST(avbtool_options)
{
	const char *good[] = {"rollback_index_location",
			      "0b11",
			      "chain_partition_do_not_use_ab",
			      "vendor:0x2:k",
			      "prop",
			      "a:b",
			      "kernel_cmdline",
			      "quiet"},
		   *footer[] = {
			   "partition_size", "0x100000", "fec_num_roots", "0",
			   "salt",           "00ff",     "do_not_use_ab", "1"};
	struct fv_vbmeta_request v = {
		.size = sizeof(v), .options = good, .noptions = 4};
	struct fv_footer_request f = {
		.size = sizeof(f), .kind = FV_FOOTER_HASHTREE, .vbmeta = &v};
	struct {
		const char *name, *value, *says;
		int r;
	} bad[] = {
		{"rollback_index", "x", "--rollback_index: 'x' is not a number",
		 -EDOM},
		{"flags", "4294967296", "--flags: 4294967296 is larger than",
		 -EINVAL},
		{"chain_partition", "a:b",
		 "Malformed chained partition \"a:b\".", -EINVAL},
		{"chain_partition", "a:b:c", "--chain_partition: 'b' is not a",
		 -EINVAL},
		{"prop", "nocolon", "Malformed property \"nocolon\".", -EINVAL},
		{"salt", "0", "--salt: '0' is not hex", -EINVAL},
		{"image", "x", "no footer option image", -EINVAL},
		{"changed", "1:x", "--changed: '1:x' is not OFFSET:LENGTH",
		 -EINVAL},
	};
	unsigned minor;
	uint64_t max;

	ck_assert_int_eq(fv_avb_needs(&v, NULL, NULL), 0);
	ck_assert_int_eq(needs_minor(&v, NULL, &minor), 0);
	ck_assert_uint_eq(minor, 3); /* the chain without A/B */
	/* a footer's options ride in its vbmeta's, not a vbmeta image's */
	v.options = footer;
	ck_assert_int_eq(fv_avb_needs(&v, NULL, NULL), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "no vbmeta option partition_size"));
	ck_assert_int_eq(fv_avb_needs(NULL, &f, NULL), 0);
	ck_assert_int_eq(needs_minor(NULL, &f, &minor), 0);
	ck_assert_uint_eq(minor, 1); /* do_not_use_ab */
	ck_assert_int_eq(max_size(&f, &max), 0);
	ck_assert_uint_gt(max, 0);
	ck_assert_uint_lt(max, 1u << 20);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *o[] = {bad[i].name, bad[i].value};

		v.options = o;
		v.noptions = 1;
		ck_assert_int_eq(fv_avb_needs(NULL, &f, NULL), bad[i].r);
		ck_assert_msg(strstr(fv_last_error(), bad[i].says), "%s",
			      fv_last_error());
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_avb",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(android_writers, avbtool_options));
}
