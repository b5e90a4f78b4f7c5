/* verity/api/image.c through <fastverity.h> alone (as a program sees
 * it): the door (fv_open) to pairs and images, verify with failures,
 * repair from FEC parity and its checks of the signature, Android and
 * sidecar images, and the errors of device-mapper calls. */
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

/* An fv_show visitor that counts what it is handed. */
static int count_item(void *ctx, const struct fv_item *it)
{
	(void)it;
	++*(int *)ctx;
	return 0;
}

START_TEST(android_images)
{
	char img[96], key[96], other[96];
	uint8_t salt[8] = {1, 2, 3, 4, 5, 6, 7, 8}, root[32];
	struct fv_vbmeta_property prop = {"com.x", (const uint8_t *)"v1", 2};
	const char *cmdline = "quiet";
	struct fv_vbmeta_request vo = {.size = sizeof(vo),
				       .algorithm = "SHA256_RSA2048",
				       .rollback_index = 9,
				       .properties = &prop,
				       .nproperties = 1,
				       .cmdlines = &cmdline,
				       .ncmdlines = 1};
	struct fv_footer_request fo = {.size = sizeof(fo),
				       .kind = FV_FOOTER_HASHTREE,
				       .partition_name = "system",
				       .hash = "sha256",
				       .block_size = BS,
				       .salt = salt,
				       .salt_len = sizeof(salt),
				       .flags = FV_FOOTER_SALT_GIVEN,
				       .fec_roots = 2,
				       .vbmeta = &vo};
	fv_options two_ = {.size = sizeof(two_)}, *two = &two_;
	const fv_avb *a;
	fv_image *im;
	fv_params *p;
	fv_result *res;
	uint64_t size, toff, tsize, foff, fsize;
	unsigned roots;
	char hex[65];

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	snprintf(other, sizeof(other), "%s/k2.pem", dir);
	write_file(img, image, (size_t)BLOCKS * BS);
	make_key(key, 2048);
	make_key(other, 2048);
	/* add_hashtree_footer, as the command's avb subcommand makes it */
	vo.key = key;
	two->threads = 2;
	ck_assert_msg(fv_avb_add_footer(img, &fo, two) == 0, "%s",
		      fv_last_error());
	/* the root the descriptor must have: the data's tree, built apart */
	p = params_new();
	params_salt(p, salt, sizeof(salt));
	p->superblock = 0;
	p->data_blocks = BLOCKS;
	ck_assert_int_eq(t_format(p, data, hash, NULL, &res), 0);
	ck_assert_uint_eq(root_of(res, root, sizeof(root)), 32);
	fv_result_free(res);
	free(p);
	for (int i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", root[i]);

	ck_assert_int_eq(image_open(img, "avb", NULL, &im), 0);
	ck_assert_ptr_nonnull(a = img_info(im).avb);
	{
		struct fv_avb_info in = avb_info(a);
		struct fv_avb_hashtree t;
		size_t k = 0;

		while (avb_desc(a, k).tag != FV_AVB_HASHTREE)
			k++;
		t = avb_desc(a, k).hashtree;
		ck_assert_uint_eq(t.partition_name_len, 6);
		ck_assert_int_eq(memcmp(t.partition_name, "system", 6), 0);
		ck_assert_int_eq(memcmp(t.root_digest, root, 32), 0);
		ck_assert_str_eq(in.header.algorithm, "SHA256_RSA2048");
		ck_assert_uint_eq(in.header.rollback_index, 9);
		size = t.image_size, toff = t.tree_offset;
		tsize = t.tree_size, roots = t.fec_num_roots;
		foff = t.fec_offset, fsize = t.fec_size;
		/* a smaller size than the first member's end refused */
		in.size = 4;
		ck_assert_int_eq(fv_avb_info(a, &in), -EINVAL);
	}
	/* 300 blocks: 3 leaf blocks and a top block; 304 blocks covered */
	ck_assert_uint_eq(size, (uint64_t)BLOCKS * BS);
	ck_assert_uint_eq(toff, size);
	ck_assert_uint_eq(tsize, 4 * BS);
	ck_assert_uint_eq(roots, 2);
	ck_assert_uint_eq(foff, toff + tsize);
	ck_assert_uint_eq(fsize, 2 * 2 * BS);
	{
		struct fv_image_pair_info pi = img_pair(im, 0);

		ck_assert_uint_eq(pi.params->data_blocks, BLOCKS);
		ck_assert_uint_eq(pi.params->hash_offset, toff);
		ck_assert_int_eq(pi.params->superblock, 0);
	}
	fv_image_free(im);
	ck_assert_int_eq(avb_check(img, NULL, 0, NULL, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);

	poke(img, 7 * BS + 100);
	ck_assert_int_eq(avb_check(img, NULL, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	fv_result_free(res);
	/* a signed image is repaired only once its signer is checked */
	ck_assert_int_eq(avb_check(img, NULL, REPAIR, NULL, NULL, &res),
			 -EINVAL);
	ck_assert_int_eq(avb_check(img, other, REPAIR, NULL, NULL, &res),
			 -EPERM);
	ck_assert_int_eq(avb_check(img, key, REPAIR, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);

	/* the same image through the container-neutral handle */
	{
		fv_options o_ = {.size = sizeof(o_)}, *o = &o_;

		ck_assert_int_eq(image_open(img, NULL, NULL, &im), 0);
		ck_assert_str_eq(img_info(im).container, "avb");
		ck_assert_uint_eq(img_info(im).pairs, 1);
		ck_assert_str_eq(img_pair(im, 0).name, "system");
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNCHECKED);
		/* not a disk image: no table, no disk image pairs or signers */
		{
			struct fv_image_pair_info pi = {.size = sizeof(pi)};
			fv_result *dr;

			ck_assert_uint_eq(img_pair(im, 0).ddi.size, 0);
			ck_assert_ptr_null(img_pair(im, 0).ddi.role);
			ck_assert_int_eq(fv_image_pair_info(im, 1, &pi),
					 -EINVAL);
			pi.size = 4;
			ck_assert_int_eq(fv_image_pair_info(im, 0, &pi),
					 -EINVAL);
			ck_assert_int_eq(fv_image_info(NULL, NULL), -EINVAL);
			/* a signer is a disk image's pair's alone */
			ck_assert_int_eq(fv_describe(im, 0, NULL, &dr), 0);
			ck_assert_str_eq(rpt(dr).signer, "");
			fv_result_free(dr);
		}
		poke(img, 9 * BS + 1);
		ck_assert_int_eq(image_check(im, 0, NULL, 0, NULL, NULL, &res),
				 0);
		ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
		fv_result_free(res);
		/* a write with the signer unchecked: refused */
		ck_assert_int_eq(
			image_check(im, 0, NULL, REPAIR, NULL, NULL, &res),
			-EINVAL);
		ck_assert_int_eq(image_check(im, 1, NULL, 0, NULL, NULL, &res),
				 -EINVAL);
		fv_image_free(im);
		/* a certificate for a vbmeta: the wrong anchor */
		o->trusted_certs = (const char *const[]){key};
		o->ntrusted_certs = 1;
		ck_assert_int_eq(image_open(img, NULL, o, &im), -EINVAL);
		o->trusted_certs = NULL;
		o->ntrusted_certs = 0;
		o->key = other;
		ck_assert_int_eq(image_open(img, NULL, o, &im), -EPERM);
		o->key = key;
		ck_assert_int_eq(image_open(img, "avb", o, &im), 0);
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
		/* opened to be read: no repair on its word; the anchor is
		 * the open's, not the action's */
		ck_assert_int_eq(
			image_check(im, 0, o, REPAIR, NULL, NULL, &res),
			-EINVAL);
		ck_assert_ptr_nonnull(
			strstr(fv_last_error(), "opened to be read"));
		ck_assert_int_eq(fv_verify(im, 0, o, &res), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "fv_open's"));
		fv_image_free(im);
		ck_assert_int_eq(avb_check(img, key, REPAIR, NULL, NULL, &res),
				 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		fv_result_free(res);
		ck_assert_int_eq(image_open(img, "ddi", o, &im), -EINVAL);
		/* fv_show: a disk image's dump of an image that is none
		 * (nothing handed to the visitor), a kind it has not */
		{
			struct fv_show_request q = {.size = sizeof(q),
						    .what = FV_SHOW_DDI,
						    .image = img};
			int items = 0;

			ck_assert_int_eq(fv_show(&q, count_item, &items),
					 -EINVAL);
			ck_assert_int_eq(items, 0);
			q.what = (enum fv_show_what)99;
			ck_assert_int_eq(fv_show(&q, count_item, &items),
					 -EINVAL);
			ck_assert_ptr_nonnull(
				strstr(fv_last_error(), "no kind 99"));
		}
	}

	/* read as it is, then judged; the pair as a pair */
	{
		fv_options o_ = {.size = sizeof(o_)}, *o = &o_;

		ck_assert_int_eq(image_open(img, "avb", NULL, &im), 0);
		a = img_info(im).avb;
		struct fv_avb_info in = avb_info(a);

		ck_assert_int_eq(in.has_footer, 1);
		ck_assert_int_eq(in.has_hashtree, 1);
		ck_assert_int_eq(in.parity_unusable, 0);
		ck_assert_uint_eq(strlen(in.header.public_key_sha1), 40);
		/* one type a descriptor */
		{
			struct fv_avb_header hd = in.header;
			struct fv_avb_hashtree t;
			struct fv_avb_descriptor d = {.size = sizeof(d)};
			size_t n = in.descriptors, it = n, ip = n, ik = n;

			ck_assert_uint_eq(hd.size, sizeof(hd));
			ck_assert_str_eq(hd.algorithm, "SHA256_RSA2048");
			ck_assert_uint_eq(hd.rollback_index, 9);
			ck_assert_uint_eq(n, 3);
			for (size_t i = 0; i < n; i++) {
				uint64_t tag = avb_desc(a, i).tag;

				it = tag == FV_AVB_HASHTREE ? i : it;
				ip = tag == FV_AVB_PROPERTY ? i : ip;
				ik = tag == FV_AVB_KERNEL_CMDLINE ? i : ik;
			}
			ck_assert_uint_lt(it, n);
			t = avb_desc(a, it).hashtree;
			ck_assert_uint_eq(t.size, sizeof(t));
			ck_assert_uint_eq(t.tree_offset, toff);
			ck_assert_uint_eq(t.fec_num_roots, 2);
			ck_assert_uint_eq(t.partition_name_len, 6);
			ck_assert_int_eq(memcmp(t.partition_name, "system", 6),
					 0);
			ck_assert_uint_eq(t.salt_len, sizeof(salt));
			ck_assert_uint_eq(t.root_digest_len, 32);
			/* a property's and a command line's: their tags */
			ck_assert_uint_lt(ip, n);
			ck_assert_uint_lt(ik, n);
			/* no such descriptor, or too small a structure */
			ck_assert_int_eq(fv_avb_descriptor(a, n, &d), -EINVAL);
			d.size = 8;
			ck_assert_int_eq(fv_avb_descriptor(a, 0, &d), -EINVAL);
			/* verify_image's steps */
			{
				char *path, shown[64];

				ck_assert_int_eq(
					fv_avb_described_image(a, it, &path),
					0);
				ck_assert_str_eq(path, img);
				fv_free(path);
				ck_assert_str_eq(fv_name_shown("a\nb\\", 4,
							       shown,
							       sizeof(shown)),
						 "a\\x0ab\\x5c");
			}
		}
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNCHECKED);
		fv_image_free(im);
		o->key = other;
		ck_assert_int_eq(image_open(img, "avb", o, &im), -EPERM);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "not by"));
		o->key = key;
		ck_assert_int_eq(image_open(img, "avb", o, &im), 0);
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
		ck_assert_str_eq(img_pair(im, 0).root_hex, hex);
		ck_assert_str_eq(img_pair(im, 0).fec, img);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_CHECK);
		fv_result_free(res);
		fv_image_free(im);
	}

	/* not an Android image; a vbmeta whose signature fails */
	ck_assert_int_eq(image_open(data, "avb", NULL, &im), -EINVAL);
	poke(img, foff + fsize + 300); /* in the vbmeta's auxiliary block */
	ck_assert_int_eq(image_open(img, "avb", NULL, &im), -EPERM);
	/* shown as it is, never acted on; its signature checked on asking */
	{
		struct fv_open_request rq = {
			.size = sizeof(rq), .image = img, .show = 1};
		const fv_avb *shown = image_shown(img, &im);

		ck_assert_uint_eq(avb_info(shown).descriptors, 3);
		ck_assert_uint_eq(img_info(im).pairs, 0);
		ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNCHECKED);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
		ck_assert_ptr_nonnull(
			strstr(fv_last_error(), "read for showing"));
		fv_image_free(im);
		/* the image alone: no anchor, nothing else, no other
		 * container */
		rq.writes = 1;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "writes"));
		rq.writes = 0;
		two->key = key;
		ck_assert_int_eq(fv_open(&rq, two, &im), -EINVAL);
		two->key = NULL;
		rq.container = "ddi";
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		rq.container = "avb";
		rq.image = data;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	}
}
END_TEST

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct seen *s = ctx;

	s->progress_done = done;
	s->progress_total = total;
}

static void on_pass(void *ctx, const char *pass)
{
	struct seen *s = ctx;
	size_t n = strlen(s->passes);

	snprintf(s->passes + n, sizeof(s->passes) - n, "%s%s", n ? "|" : "",
		 pass);
}

START_TEST(format_verify_and_failures)
{
	fv_params *p = params_new(), *q = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	struct seen s = {0};
	uint8_t root[64];
	char root_hex[65], uuid[37], uuid2[37];

	o->progress = on_progress;
	o->progress_ctx = &s;
	o->pass = on_pass;
	o->threads = 2;
	ck_assert_int_eq(t_format(p, data, hash, o, &made), 0);
	/* one pass, named, its progress counted from 0 to its total */
	ck_assert_str_eq(s.passes, "hash data");
	ck_assert_uint_eq(p->data_blocks, BLOCKS); /* filled in */
	ck_assert_uint_eq(root_of(made, root, sizeof(root)), 32);
	ck_assert_uint_eq(strlen(rpt(made).root_hex), 64);
	ck_assert_str_eq(rpt(made).hashing_path, "fast");
	ck_assert_uint_eq(s.progress_done, s.progress_total);
	ck_assert_uint_gt(s.progress_total, 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);

	/* the superblock gives the same parameters back */
	ck_assert_int_eq(sb_params(q, hash), 0);
	snprintf(uuid, 37, "%s", p->uuid);
	snprintf(uuid2, 37, "%s", q->uuid);
	ck_assert_str_eq(uuid, uuid2);
	ck_assert_uint_eq(q->salt_len, p->salt_len);
	ck_assert(!memcmp(q->salt, p->salt, 32));
	ck_assert_uint_eq(q->data_blocks, BLOCKS);

	/* intact, on one thread and with the data mapped */
	o->threads = 1;
	o->map = 1;
	ck_assert_int_eq(
		t_verify(q, data, hash, root_hex, o, on_failure, &s, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	ck_assert_int_eq(rpt(res).root_matches, 1);
	ck_assert_uint_eq(s.n, 0);
	fv_result_free(res);

	/* a bad leaf hash block and a bad data block elsewhere, each named,
	 * top-down: hash block 2 (after the superblock and the top block)
	 * holds the leaves of data blocks 0..127, so those are unchecked,
	 * not blamed (data block 7 too); data block 200 is under hash block
	 * 3, which is intact */
	poke(data, 7 * BS + 100);
	poke(data, 200 * BS + 9);
	poke(hash, 2 * BS + 3 * 32);
	ck_assert_int_eq(
		t_verify(q, data, hash, root_hex, NULL, on_failure, &s, &res),
		0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_int_eq(rpt(res).root_matches, 1);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(rpt(res).bad_hash_blocks, 1);
	ck_assert_uint_eq(rpt(res).bad_padding, 0);
	ck_assert_uint_eq(rpt(res).unreadable, 0);
	{
		struct fv_report rep = rpt(res);

		ck_assert_uint_eq(rep.unchecked_data_blocks, 128);
		ck_assert_uint_eq(rep.unchecked_hash_blocks, 0);
	}
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(s.kind[0], FV_BAD_HASH_BLOCK);
	ck_assert_uint_eq(s.block[0], 2);
	ck_assert_uint_eq(s.offset[0], 2 * BS);
	ck_assert_uint_eq(s.level[0], 0);
	ck_assert_int_eq(s.kind[1], FV_BAD_DATA_BLOCK);
	ck_assert_uint_eq(s.block[1], 200);
	ck_assert_uint_eq(s.offset[1], 200 * BS);
	fv_result_free(res);

	/* a wrong root: not intact, the top does not match, no block named */
	s.n = 0;
	root_hex[0] = root_hex[0] == '0' ? '1' : '0';
	ck_assert_int_eq(
		t_verify(q, data, hash, root_hex, NULL, on_failure, &s, &res),
		0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_int_eq(rpt(res).root_matches, 0);
	ck_assert_int_eq(rpt(res).root_first, 1);
	ck_assert_uint_eq(s.n, 0);
	fv_result_free(res);

	/* errors: bad root text, a missing file, named in the message */
	ck_assert_int_eq(t_verify(q, data, hash, "abc", NULL, NULL, NULL, &res),
			 -EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(
		fv_last_error(), "invalid root hash string specified: 'abc'"));
	ck_assert_int_eq(t_verify(q, "/nonexistent/d", hash, root_hex, NULL,
				  NULL, NULL, &res),
			 -ENODEV);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "/nonexistent/d"));
	ck_assert_int_eq(sb_params(q, data), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), data));
	free(p);
	free(q);
}
END_TEST

START_TEST(repair_from_parity)
{
	fv_params *p = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	char root_hex[65];

	ck_assert_int_eq(set_parity(fec, 4), 0);
	ck_assert_int_eq(t_format(p, data, hash, o, &made), 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);
	ck_assert_int_eq(set_parity(fec, 0), 0); /* inferred */
	{
		struct fv_layout l;
		fv_image *im;

		/* 300 data blocks, 4 tree blocks: 304 covered, 2 rounds */
		ck_assert_int_eq(pair_open(p, data, hash, root_hex, o, 0, &im),
				 0);
		ck_assert_msg(fv_describe(im, 0, o, &res) == 0, "%s",
			      fv_last_error());
		l = layout_of(res);
		ck_assert_uint_eq(l.fec_roots, 4);
		ck_assert_uint_eq(l.fec_blocks, 304);
		ck_assert_uint_eq(l.fec_parity_bytes, 2 * 4 * BS);
		fv_result_free(res);
		fv_image_free(im);
	}
	poke(data, 3 * BS);
	poke(data, 150 * BS + 9);
	poke(data, 299 * BS + 4095);

	/* verify with parity: the damage, and that it is repairable */
	ck_assert_int_eq(t_verify(p, data, hash, root_hex, o, NULL, NULL, &res),
			 0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 3);
	ck_assert_uint_eq(rpt(res).repaired, 3);
	fv_result_free(res);
	/* a dry run changes nothing */
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o, FV_REPAIR_DRY_RUN,
				  NULL, NULL, &res),
			 0);
	ck_assert_uint_eq(rpt(res).repaired, 3);
	ck_assert(!same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	/* the repair restores every byte */
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).repaired, 3);
	ck_assert_uint_eq(rpt(res).unrepaired, 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	/* damaged parity: counted and left alone, unless asked */
	poke(fec, 5);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 1);
	fv_result_free(res);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 1);
	fv_result_free(res);
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o,
				  FV_REPAIR_REWRITE_PARITY, NULL, NULL, &res),
			 0);
	fv_result_free(res);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 0);
	fv_result_free(res);
	/* parity that is not this image's (every codeword disagrees): verify
	 * fails naming it, as a rewrite (or a dry run of one) refuses it; a
	 * repair that only reads it counts it */
	for (uint64_t off = 0; off < 2 * 4 * BS; off += 4)
		poke(fec, off);
	ck_assert_int_eq(t_verify(p, data, hash, root_hex, o, NULL, NULL, &res),
			 -EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), fec));
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "it is not this image's parity"));
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o,
				  FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY,
				  NULL, NULL, &res),
			 -EINVAL);
	ck_assert_int_eq(t_repair(p, data, hash, root_hex, o, FV_REPAIR_DRY_RUN,
				  NULL, NULL, &res),
			 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 2 * BS);
	fv_result_free(res);
	for (uint64_t off = 0; off < 2 * 4 * BS; off += 4)
		poke(fec, off);
	ck_assert_int_eq(t_verify(p, data, hash, root_hex, o, NULL, NULL, &res),
			 0);
	ck_assert_uint_eq(rpt(res).stale_codewords, 0);
	fv_result_free(res);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 4, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "unknown repair flags"));
	/* repair without parity is an error */
	set_parity(NULL, 0);
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, NULL, 0, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "FEC"));
	free(p);
}
END_TEST

/* path opened with o: a sidecar image whose one pair has the verdict
 * want and checks out. */
static void image_intact(const char *path, fv_options *o, enum fv_trust want)
{
	fv_image *im;
	fv_result *res;

	ck_assert_int_eq(image_open(path, NULL, o, &im), 0);
	ck_assert_str_eq(img_info(im).container, "sidecar");
	ck_assert_int_eq(img_info(im).trust, want);
	ck_assert_int_eq(image_check(im, 0, o, 0, NULL, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);
}

/* An image with sidecar files through the door: unsigned, then
 * signed (its signer not checked without a certificate, checked with
 * one, refused with a certificate for an unsigned image). */
START_TEST(sidecar_images)
{
	char os[96], tree[96], roothash[96], sig[96], key[128], cert[128];
	const char *trusted[1] = {cert};
	fv_params *p = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made;
	fv_image *im;
	uint8_t *der;
	size_t len;
	FILE *f;

	snprintf(os, sizeof(os), "%s/os.raw", dir);
	snprintf(tree, sizeof(tree), "%s/os.verity", dir);
	snprintf(roothash, sizeof(roothash), "%s/os.roothash", dir);
	snprintf(sig, sizeof(sig), "%s/os.roothash.p7s", dir);
	snprintf(key, sizeof(key), "%s/sk.pem", dir);
	snprintf(cert, sizeof(cert), "%s/sc.pem", dir);
	write_file(os, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(t_format(p, os, tree, NULL, &made), 0);
	write_text(roothash, rpt(made).root_hex);
	image_intact(os, NULL, FV_TRUST_UNSIGNED);
	o->trusted_certs = trusted;
	o->ntrusted_certs = 1;
	ck_assert_int_eq(image_open(os, NULL, o, &im), -EPERM);
	make_signer(key, cert);
	ck_assert_int_eq(sign_root(key, cert, rpt(made).root_hex, &der, &len),
			 0);
	ck_assert_ptr_nonnull(f = fopen(sig, "wb"));
	ck_assert_uint_eq(fwrite(der, 1, len, f), len);
	fclose(f);
	fv_free(der);
	image_intact(os, NULL, FV_TRUST_UNCHECKED);
	image_intact(os, o, FV_TRUST_CHECK);
	{
		fv_result *res;

		ck_assert_int_eq(image_open(os, NULL, o, &im), 0);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_CHECK);
		ck_assert_ptr_nonnull(strstr(rpt(res).signer, "CN="));
		ck_assert_str_eq(rpt(res).signature_warning, "");
		ck_assert_uint_eq(strlen(rpt(res).signer_fingerprint), 64);
		fv_result_free(res);
		fv_image_free(im);
		/* opened without the certificate: checked blocks, unchecked
		 * signer */
		ck_assert_int_eq(image_open(os, NULL, NULL, &im), 0);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_UNCHECKED);
		ck_assert_str_eq(rpt(res).signer, "");
		fv_result_free(res);
		fv_image_free(im);
	}
	fv_result_free(made);
	free(p);
}
END_TEST

/* A signed root hash: verify and repair check the signature first, and
 * a repair never writes on an unchecked or failing one. */
START_TEST(repair_checks_signature)
{
	char key[128], cert[128], other_key[128], other[128], root_hex[65];
	char saved;
	const char *trusted[1] = {cert}, *untrusted[1] = {other};
	fv_params *p = params_new();
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	uint8_t *der;
	size_t len;

	snprintf(key, sizeof(key), "%s/rkey.pem", dir);
	snprintf(cert, sizeof(cert), "%s/rcert.pem", dir);
	snprintf(other_key, sizeof(other_key), "%s/okey.pem", dir);
	snprintf(other, sizeof(other), "%s/ocert.pem", dir);
	make_signer(key, cert);
	make_signer(other_key, other);
	ck_assert_int_eq(set_parity(fec, 2), 0);
	ck_assert_int_eq(t_format(p, data, hash, o, &made), 0);
	strcpy(root_hex, rpt(made).root_hex);
	fv_result_free(made);
	ck_assert_int_eq(sign_root(key, cert, root_hex, &der, &len), 0);
	ck_assert_int_eq(set_signature(der, len), 0);
	fv_free(der);
	poke(data, 7 * BS);
	/* no certificate to check it against: refused */
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res),
		-EINVAL);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "nothing to check it against"));
	ck_assert_int_eq(t_verify(p, data, hash, root_hex, o, NULL, NULL, &res),
			 -EINVAL);
	/* another signer trusted: refused, nothing written */
	o->trusted_certs = untrusted;
	o->ntrusted_certs = 1;
	ck_assert_msg(t_repair(p, data, hash, root_hex, o, 0, NULL, NULL,
			       &res) == -EPERM,
		      "%s", fv_last_error());
	ck_assert(!same_file(data, image, (size_t)BLOCKS * BS));
	/* another root hash under the right signer: refused */
	o->trusted_certs = trusted;
	o->ntrusted_certs = 1;
	saved = root_hex[5];
	root_hex[5] = saved == 'a' ? 'b' : 'a';
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res),
		-EPERM);
	ck_assert(!same_file(data, image, (size_t)BLOCKS * BS));
	root_hex[5] = saved;
	/* the signer trusted: repaired */
	ck_assert_int_eq(
		t_repair(p, data, hash, root_hex, o, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	/* the pair's signature alone, as fv_activate checks it before
	 * mapping (a name the kernel would refuse, so that nothing is
	 * mapped: refused for it only once the signer passed): the signer
	 * trusted, then another one */
	{
		struct fv_open_request rq = {.size = sizeof(rq),
					     .data = data,
					     .hash = hash,
					     .signature_path = t_sig,
					     .root_hex = root_hex,
					     .activates = 1};
		fv_image *im;

		/* judged for the kernel, with no anchor: the keyring's to
		 * check, and not to be read on that verdict */
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_int_eq(img_pair(im, 0).trust, FV_TRUST_UNCHECKED);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
		ck_assert_ptr_nonnull(
			strstr(fv_last_error(), "opened to be mapped"));
		ck_assert_ptr_null(res);
		fv_image_free(im);
		ck_assert_int_eq(fv_open(&rq, o, &im), 0);
		ck_assert_int_eq(img_pair(im, 0).trust, FV_TRUST_CHECK);
		res = (fv_result *)1;
		ck_assert_int_eq(fv_activate("bad/name", im, 0, NULL, &res),
				 -EINVAL);
		/* the check's verdict, also when the mapping then fails */
		{
			struct fv_report rep = {.size = sizeof(rep)};

			ck_assert_ptr_nonnull(res);
			ck_assert_int_eq(fv_result_report(res, &rep), 0);
			ck_assert_int_eq(rep.trust, FV_TRUST_CHECK);
			ck_assert_ptr_nonnull(strstr(rep.signer, "CN="));
			fv_result_free(res);
			res = (fv_result *)1;
		}
		ck_assert_ptr_null(strstr(fv_last_error(), "signer"));
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "bad/name"));
		/* an anchor given to the action: the open's is the one */
		o->trusted_certs = untrusted;
		o->ntrusted_certs = 1;
		ck_assert_int_eq(fv_activate("bad/name", im, 0, o, &res),
				 -EINVAL);
		ck_assert_ptr_null(res);
		fv_image_free(im);
		/* opened for the untrusted signer: refused before mapping */
		ck_assert_int_eq(fv_open(&rq, o, &im), 0);
		ck_assert_int_eq(fv_activate("bad/name", im, 0, NULL, &res),
				 -EPERM);
		ck_assert_ptr_null(res);
		fv_image_free(im);
	}
	o->trusted_certs = NULL;
	o->ntrusted_certs = 0;
	free(p);
}
END_TEST

/* Each errno the header documents, from the case it names. */
/* Failures and blocks as the pair actions' callbacks see them. */
struct seen_pair {
	unsigned failures, repaired, left;
	uint64_t first_block;
};

static void seen_failure(void *c, enum fv_failure_kind kind, uint64_t block,
			 uint64_t offset, unsigned level)
{
	struct seen_pair *s = c;

	(void)kind;
	(void)offset;
	(void)level;
	if (!s->failures++)
		s->first_block = block;
}

static void seen_block(void *c, int repaired, enum fv_failure_kind kind,
		       uint64_t block, uint64_t offset, unsigned level)
{
	struct seen_pair *s = c;

	(void)kind;
	(void)block;
	(void)offset;
	(void)level;
	if (repaired)
		s->repaired++;
	else
		s->left++;
}

/* A pair made of its parts: format, dump, verify with failures, repair
 * from parity, each SHA-256 kernel; and an image's pair acted on. */
/* The door of a plain pair: its tree read from the superblock or given,
 * its parity and signature, judged once for the anchor and whether the
 * action writes. */
START_TEST(door)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .data = data, .hash = hash};
	char key[128], cert[128], sig[128], root[65];
	const char *trusted[1] = {cert};
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	fv_image *im;
	uint8_t *der;
	size_t len;

	ck_assert_int_eq(set_parity(fec, 2), 0);
	{
		fv_params *p = params_new();

		ck_assert_int_eq(t_format(p, data, hash, NULL, &made), 0);
		free(p);
	}
	strcpy(root, rpt(made).root_hex);
	fv_result_free(made);
	/* the request checked */
	ck_assert_int_eq(fv_open(NULL, NULL, &im), -EINVAL);
	rq.size = 8;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	rq.size = sizeof(rq);
	rq.hash = NULL;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	rq.hash = hash;
	rq.container = "avb";
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "plain pair"));
	rq.container = "floppy";
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	rq.container = "plain";
	/* unsigned: read from its superblock, its parity given */
	rq.fec_path = fec;
	ck_assert_msg(fv_open(&rq, NULL, &im) == 0, "%s", fv_last_error());
	ck_assert_str_eq(img_info(im).container, "plain");
	ck_assert_uint_eq(img_info(im).pairs, 1);
	ck_assert_str_eq(img_pair(im, 0).name, "data");
	ck_assert_int_eq(img_info(im).trust, FV_TRUST_UNSIGNED);
	ck_assert_ptr_null(img_info(im).avb);
	ck_assert_str_eq(img_pair(im, 0).fec, fec);
	ck_assert_uint_eq(img_pair(im, 0).params->data_blocks, BLOCKS);
	ck_assert_str_eq(img_pair(im, 0).root_hex, "");
	ck_assert_ptr_null(img_pair(im, 0).signature);
	/* no root given: nothing to check against */
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no root hash"));
	fv_image_free(im);
	/* the root given as the file holding it, or as text; not both */
	{
		char rf[128];

		snprintf(rf, sizeof(rf), "%s/root.hex", dir);
		write_text(rf, root);
		rq.root_hash_file = rf;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_str_eq(img_pair(im, 0).root_hex, root);
		fv_image_free(im);
		rq.root_hex = root;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		rq.root_hash_file = NULL;
	}
	ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
	ck_assert_str_eq(img_pair(im, 0).root_hex, root);
	poke(data, 5 * BS);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	ck_assert_uint_eq(rpt(res).repaired, 1);
	fv_result_free(res);
	fv_image_free(im);
	/* a superblock where there is none: refused, named */
	rq.hash_offset = 4096;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), hash));
	rq.hash_offset = 0;
	/* a key for a plain pair: the wrong anchor */
	snprintf(key, sizeof(key), "%s/dkey.pem", dir);
	snprintf(cert, sizeof(cert), "%s/dcert.pem", dir);
	snprintf(sig, sizeof(sig), "%s/root.p7s", dir);
	make_signer(key, cert);
	o->key = key;
	ck_assert_int_eq(fv_open(&rq, o, &im), -EINVAL);
	o->key = NULL;
	/* a signature given: refused with nothing to check it against,
	 * judged CHECK with a certificate, and a write allowed then */
	ck_assert_int_eq(sign_root(key, cert, root, &der, &len), 0);
	write_file(sig, der, len);
	fv_free(der);
	rq.signature_path = sig;
	ck_assert_int_eq(fv_open(&rq, o, &im), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nothing to check"));
	o->trusted_certs = trusted;
	o->ntrusted_certs = 1;
	rq.writes = 1;
	ck_assert_msg(fv_open(&rq, o, &im) == 0, "%s", fv_last_error());
	ck_assert_int_eq(img_info(im).trust, FV_TRUST_CHECK);
	ck_assert_str_eq(img_pair(im, 0).signature, sig);
	ck_assert_msg(fv_repair(im, 0, NULL, &res) == 0, "%s", fv_last_error());
	ck_assert_uint_eq(rpt(res).repaired, 1);
	ck_assert_int_eq(rpt(res).trust, FV_TRUST_CHECK);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_result_free(res);
	fv_image_free(im);
	/* the tree's parameters given: the pair's, no superblock read */
	{
		fv_params *p = params_new();

		rq.params = p;
		rq.signature_path = NULL;
		rq.writes = 0;
		p->data_blocks = 7;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_uint_eq(img_pair(im, 0).params->data_blocks, 7);
		fv_image_free(im);
		/* parameters that do not hold: refused */
		p->hash_type = 2;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
		free(p);
	}
}
END_TEST

START_TEST(pairs)
{
	struct fv_report small = {.size = offsetof(struct fv_report, root)};
	struct fv_report rep;
	struct fv_layout l;
	struct fv_fec_report f;
	struct fv_format_request fq = {.size = sizeof(fq),
				       .data = data,
				       .hash = hash,
				       .fec_path = fec,
				       .fec_roots = 25};
	struct fv_open_request rq = {
		.size = sizeof(rq), .data = data, .hash = hash};
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_result *made, *res;
	struct seen_pair s = {0};
	fv_image *im, *other;
	fv_params *p = params_new();
	char root[65], sig[128];

	/* a pair made of its parts, its tree's parameters given: nothing
	 * read yet, no root to check against */
	rq.hash = NULL;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), -EINVAL);
	ck_assert_ptr_null(im);
	rq.hash = hash;
	rq.params = p;
	ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
	ck_assert_str_eq(img_pair(im, 0).data, data);
	ck_assert_str_eq(img_pair(im, 0).hash, hash);
	ck_assert_ptr_null(img_pair(im, 0).fec);
	ck_assert_str_eq(img_pair(im, 0).root_hex, "");
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no root hash"));
	fv_image_free(im);
	rq.params = NULL;
	/* format: 25 roots refused, 2 written; the parameters as written */
	ck_assert_int_eq(fv_format(&fq, NULL, &made), -EINVAL);
	ck_assert_ptr_null(made);
	fq.params = p;
	ck_assert_int_eq(fv_format(&fq, NULL, &made), -EINVAL);
	fq.fec_roots = 2;
	ck_assert_int_eq(fv_format(&fq, NULL, &made), 0);
	rep = rpt(made);
	ck_assert(rep.has & FV_REPORT_PARAMS);
	ck_assert_uint_eq(rep.params.size, sizeof(rep.params));
	ck_assert_uint_eq(rep.params.data_blocks, BLOCKS);
	ck_assert_uint_eq(p->data_blocks, 0); /* the caller's untouched */
	snprintf(root, sizeof(root), "%s", rep.root_hex);
	/* a report as an older program knows it: what fits, no more */
	ck_assert_int_eq(fv_result_report(NULL, &rep), -EINVAL);
	ck_assert_int_eq(fv_result_report(made, NULL), -EINVAL);
	ck_assert_int_eq(fv_result_report(made, &small), -EINVAL);
	memset(&rep, 0xff, sizeof(rep));
	rep.size = offsetof(struct fv_report, root_hex);
	ck_assert_int_eq(fv_result_report(made, &rep), 0);
	ck_assert_uint_eq(rep.size, offsetof(struct fv_report, root_hex));
	ck_assert_uint_eq(rep.root_size, 32);
	ck_assert_int_eq(rep.intact, -1); /* past size: untouched */
	rep = rpt(made);
	ck_assert_str_eq(rep.root_hex, root);
	ck_assert_int_eq(rep.intact, 0); /* format checks nothing */
	ck_assert_uint_eq(rep.has, FV_REPORT_LAYOUT | FV_REPORT_PARAMS);
	ck_assert_uint_eq(rep.fec.size, 0);
	ck_assert_uint_eq(rep.update.size, 0);
	l = layout_of(made);
	ck_assert_uint_eq(l.data_blocks, BLOCKS);
	ck_assert_uint_eq(l.data_bytes, (uint64_t)BLOCKS * BS);
	ck_assert_uint_eq(l.tree_offset, BS); /* after the superblock */
	ck_assert_uint_eq(l.tree_blocks, 4);
	ck_assert_uint_eq(l.levels, 2);
	ck_assert_uint_eq(l.digest_size, 32);
	ck_assert_uint_eq(l.fec_roots, 2);
	ck_assert_uint_eq(l.fec_blocks, BLOCKS + 4);
	fv_result_free(made);

	/* the same pair again from the superblock, its root as hex (the
	 * text checked: hex digits, as many as the hash's) */
	rq.root_hex = "xyz";
	ck_assert_int_eq(fv_open(&rq, NULL, &other), -EINVAL);
	ck_assert_int_eq(last_param(), FV_PARAM_ROOT_HASH);
	rq.root_hex = "";
	ck_assert_int_eq(fv_open(&rq, NULL, &other), -EINVAL);
	rq.root_hex = root;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	{
		uint8_t bytes[32];
		char hex[65];
		fv_result *again;

		ck_assert_int_eq(fv_verify(other, 0, NULL, &res), 0);
		ck_assert_uint_eq(root_of(res, bytes, sizeof(bytes)), 32);
		/* the root's bytes, as hex in upper case: the same root */
		for (int i = 0; i < 32; i++)
			sprintf(hex + 2 * i, "%02X", bytes[i]);
		rq.root_hex = hex;
		ck_assert_int_eq(fv_open(&rq, NULL, &im), 0);
		ck_assert_int_eq(strcasecmp(img_pair(im, 0).root_hex, root), 0);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &again), 0);
		ck_assert_int_eq(rpt(again).intact, 1);
		fv_result_free(again);
		fv_result_free(res);
		fv_image_free(im);
		rq.root_hex = root;
	}
	ck_assert_int_eq(fv_describe(other, 0, NULL, &res), 0);
	l = layout_of(res);
	ck_assert_uint_eq(l.fec_roots, 0); /* no parity given */
	ck_assert_uint_eq(l.tree_blocks, 4);
	fv_result_free(res);
	fv_image_free(other);
	/* the parity given, its roots told from its size; opened for the
	 * repairs below */
	rq.fec_path = fec;
	rq.writes = 1;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	ck_assert_int_eq(fv_describe(other, 0, NULL, &res), 0);
	l = layout_of(res);
	ck_assert_uint_eq(l.fec_roots, 2);
	ck_assert_int_eq(l.fec_roots_from, FV_ROOTS_INFERRED);
	fv_result_free(res);
	for (int k = FV_SHA256_FASTEST; k <= FV_SHA256_THREE_WAY; k++) {
		o->sha256 = k;
		ck_assert_int_eq(fv_verify(other, 0, o, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		ck_assert_str_eq(rpt(res).hashing_path, "fast");
		ck_assert(*rpt(res).hashing_reason);
		ck_assert(*rpt(res).hashing_kernel);
		ck_assert(*rpt(res).hashing_provider);
		ck_assert_int_eq(rpt(res).trust, FV_TRUST_UNSIGNED);
		ck_assert_str_eq(rpt(res).signer, "");
		fv_result_free(res);
	}
	o->sha256 = FV_SHA256_AVX512;
	o->sha256 = 5;
	ck_assert_int_eq(fv_verify(other, 0, o, &res), -EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_str_eq(fv_last_error(), "no SHA-256 kernel 5");
	o->sha256 = FV_SHA256_AVX512;

	/* a bad block: named as found, repairable, repaired */
	poke(data, 77 * BS + 9);
	o->failure = seen_failure;
	o->failure_ctx = &s;
	o->block = seen_block;
	o->block_ctx = &s;
	ck_assert_int_eq(fv_verify(other, 0, o, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 0);
	ck_assert_uint_eq(s.failures, 1);
	ck_assert_uint_eq(s.first_block, 77);
	ck_assert(rpt(res).has & FV_REPORT_FEC);
	f = rpt(res).fec;
	ck_assert_uint_eq(f.size, sizeof(f));
	ck_assert_uint_eq(f.bad_blocks, 1);
	ck_assert_uint_eq(f.repaired, 1);
	fv_result_free(res);
	o->repair = 4;
	ck_assert_int_eq(fv_repair(other, 0, o, &res), -EINVAL);
	ck_assert_int_eq(fv_verify(other, 0, o, &res), -EINVAL);
	ck_assert_str_eq(fv_last_error(), "unknown repair flags 0x4");
	o->repair = FV_REPAIR_DRY_RUN;
	ck_assert_int_eq(fv_repair(other, 0, o, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 0); /* as found */
	fv_result_free(res);
	o->repair = 0;
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(fv_repair(other, 0, o, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	ck_assert_uint_eq(s.repaired, 1);
	ck_assert_uint_eq(s.left, 0);
	fv_result_free(res);
	ck_assert(same_file(data, image, (size_t)BLOCKS * BS));
	fv_image_free(other);

	/* without parity: no FEC report, no repair */
	rq.fec_path = NULL;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	ck_assert_int_eq(fv_verify(other, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).has, FV_REPORT_LAYOUT);
	ck_assert_uint_eq(rpt(res).fec.size, 0);
	ck_assert_uint_eq(rpt(res).repaired, 0);
	fv_result_free(res);
	ck_assert_int_eq(fv_repair(other, 0, NULL, &res), -EINVAL);
	fv_image_free(other);
	rq.writes = 0;

	/* a signature given with nothing to check it: the policy refuses */
	snprintf(sig, sizeof(sig), "%s/sig.p7s", dir);
	write_text(sig, "x");
	rq.signature_path = sig;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), -EINVAL);
	ck_assert_int_eq(last_param(), FV_PARAM_TRUSTED_CERT);
	rq.signature_path = NULL;

	/* parameters given by hand: a wrong salt is a root mismatch */
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	*p = *img_pair(other, 0).params;
	fv_image_free(other);
	params_salt(p, (const uint8_t *)"s", 1);
	rq.params = p;
	ck_assert_int_eq(fv_open(&rq, NULL, &other), 0);
	ck_assert_int_eq(fv_verify(other, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).root_matches, 0);
	fv_result_free(res);
	fv_image_free(other);
	free(p);
}
END_TEST

/* An image's pair acts as the image does: what it reads, and each
 * action on it. */
START_TEST(image_pairs)
{
	char os[96], tree[96], roothash[96];
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	fv_params *p = params_new();
	fv_result *made, *res;
	fv_image *im;

	snprintf(os, sizeof(os), "%s/os.raw", dir);
	snprintf(tree, sizeof(tree), "%s/os.verity", dir);
	snprintf(roothash, sizeof(roothash), "%s/os.roothash", dir);
	write_file(os, image, (size_t)BLOCKS * BS);
	ck_assert_int_eq(t_format(p, os, tree, NULL, &made), 0);
	write_text(roothash, rpt(made).root_hex);
	ck_assert_int_eq(image_open(os, NULL, NULL, &im), 0);
	ck_assert_int_eq(fv_image_pair_info(im, 1, &pi), -EINVAL);
	ck_assert_int_eq(fv_verify(im, 1, NULL, &res), -EINVAL);
	ck_assert_int_eq(fv_describe(im, 1, NULL, &res), -EINVAL);
	ck_assert_str_eq(img_pair(im, 0).data, os);
	ck_assert_str_eq(img_pair(im, 0).hash, tree);
	ck_assert_str_eq(img_pair(im, 0).root_hex, rpt(made).root_hex);
	ck_assert_uint_eq(img_pair(im, 0).params->data_blocks, BLOCKS);
	poke(os, 5 * BS);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	fv_result_free(res);
	ck_assert_int_eq(image_check(im, 0, NULL, 0, NULL, NULL, &res), 0);
	ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
	fv_result_free(res);
	ck_assert_int_eq(fv_describe(im, 0, NULL, &res), 0);
	ck_assert_uint_eq(layout_of(res).data_blocks, BLOCKS);
	fv_result_free(res);
	fv_image_free(im);
	fv_result_free(made);
	free(p);
}
END_TEST

START_TEST(device_mapper_errors)
{
	struct fv_status_info info;
	fv_status *st = (fv_status *)1;
	int r = fv_status_get("fastverity-api-test-no-such-device", &st, NULL);

	/* -ENODEV with device-mapper, -ENOSYS (or -EACCES) without it */
	ck_assert(r == -ENODEV || r == -ENOSYS || r == -EACCES);
	ck_assert_ptr_null(st);
	ck_assert(*fv_last_error());
	ck_assert_int_eq(fv_close("x", (enum fv_close_how)7), -EINVAL);
	ck_assert_int_eq(fv_activate("x", NULL, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(fv_activate(NULL, NULL, 0, NULL, NULL), -EINVAL);
	info.size = 4;
	ck_assert_int_eq(fv_status_get("x", &st, &info), -EINVAL);
	ck_assert_ptr_null(st);
	ck_assert_int_eq(fv_status_get(NULL, &st, NULL), -EINVAL);
	fv_status_free(NULL);
	/* the last flag is the last of FV_NFLAGS */
	ck_assert_uint_eq(FV_USE_TASKLETS, 1u << (FV_NFLAGS - 1));
	ck_assert_ptr_nonnull(kernel_name(FV_SHA256_FASTEST));
	ck_assert_ptr_nonnull(kernel_name(FV_SHA256_PORTABLE));
	ck_assert_ptr_null(kernel_name((enum fv_sha256_kernel)9));
	ck_assert_str_eq(fastverity_version(), FASTVERITY_VERSION);
}
END_TEST

/* The open's notes of an image given alone: the first item's kept, the
 * visitor's return (ret) handed back. */
struct alone_seen {
	int ret, items;
	char container[16];
	uint64_t set;
};

static int alone_said(void *ctx, const struct fv_item *it)
{
	struct alone_seen *a = ctx;

	if (!a->items++ && it->key && !strcmp(it->key, "container")) {
		snprintf(a->container, sizeof(a->container), "%s", it->text);
		a->set = it->u;
	}
	return a->ret;
}

/* fv_show's VERIFY, REPAIR, PAIR and OPEN of an image given alone (.open,
 * no .img): what it is said first, through the open's said; a visitor
 * that refuses stops the walk, its return handed back; an image with
 * sidecar files opened by the walk, refused without its tree, and by
 * open (which takes a hash device). */
START_TEST(image_alone)
{
	struct alone_seen seen = {.ret = 42};
	struct fv_open_request rq = {.size = sizeof(rq),
				     .action = "verify",
				     .said = alone_said,
				     .ctx = &seen};
	struct fv_show_request q = {
		.size = sizeof(q), .what = FV_SHOW_VERIFY, .open = &rq};
	char raw[96], tree[96];
	uint8_t b[4 * BS];
	int items = 0;

	snprintf(raw, sizeof(raw), "%s/alone.raw", dir);
	fill(b, sizeof(b), 5);
	write_file(raw, b, sizeof(b));
	q.image = raw;
	/* no tree beside it: nothing fastverity knows */
	ck_assert_int_eq(fv_show(&q, count_item, &items), -ENODEV);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "alone.verity beside"));
	ck_assert_int_eq(seen.items, 0);
	snprintf(tree, sizeof(tree), "%s/alone.verity", dir);
	write_file(tree, b, BS);
	ck_assert_int_eq(fv_show(&q, count_item, &items), 42);
	ck_assert_str_eq(seen.container, "sidecar");
	ck_assert_uint_eq(seen.set, 4); /* the walk: sidecar files */
	ck_assert_int_eq(seen.items, 1);
	ck_assert_int_eq(items, 0);
	q.what = FV_SHOW_REPAIR;
	ck_assert_int_eq(fv_show(&q, count_item, &items), 42);
	q.what = FV_SHOW_PAIR;
	ck_assert_int_eq(fv_show(&q, count_item, &items), 42);
	/* the visitor takes it: the tree said, which holds no superblock */
	seen.ret = 0;
	seen.items = 0;
	q.what = FV_SHOW_VERIFY;
	ck_assert_int_lt(fv_show(&q, count_item, &items), 0);
	ck_assert_int_eq(seen.items, 2);
	q.what = FV_SHOW_PAIR;
	ck_assert_int_lt(fv_show(&q, count_item, &items), 0);
	q.what = FV_SHOW_OPEN;
	q.args = "alone";
	ck_assert_int_eq(fv_show(&q, count_item, &items), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "<hash_device>"));
	q.what = FV_SHOW_PAIR;
	/* the registry's refusal comes before anything is said */
	seen.items = 0;
	rq.container = "ddi";
	ck_assert_int_eq(fv_show(&q, count_item, &items), -EINVAL);
	ck_assert_int_eq(seen.items, 0);
	/* VERIFY of an image alone takes the open request */
	q.open = NULL;
	q.what = FV_SHOW_VERIFY;
	ck_assert_int_eq(fv_show(&q, count_item, &items), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_image",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(
		&u, UNIT_TESTS(android_images, format_verify_and_failures,
			       repair_from_parity, sidecar_images,
			       repair_checks_signature, door, pairs,
			       image_pairs, device_mapper_errors, image_alone));
}
