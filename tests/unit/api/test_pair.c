/* verity/api/pair.c through <fastverity.h> alone (as a program sees
 * it): the files around a pair (superblocks, root hash files, signatures,
 * sidecars, input and output) and update requests. */
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

/* The files around pairs: root hash files, superblocks looked for,
 * sidecar names and pairs, outputs written whole, signatures read,
 * sparse images refused. */
START_TEST(files_around_pairs)
{
	char path[128], os[96], tree[96], roothash[96], sig[96], fecf[96];
	char hex[129];
	struct fv_file_answer fa;
	static const uint8_t sparse[12] = {0x3a, 0xff, 0x26, 0xed, 1,  0,
					   0,    0,    28,   0,    12, 0};
	fv_params *p = params_new();
	fv_result *made, *res;
	unsigned removed;
	uint64_t off;
	fv_image *im;

	/* a root hash file: digits, then only white space */
	snprintf(path, sizeof(path), "%s/root", dir);
	write_text(path, "00ff\n\n");
	ck_assert_int_eq(f_root(path, hex, sizeof(hex)), 0);
	ck_assert_str_eq(hex, "00ff");
	write_text(path, "00ff x");
	ck_assert_int_eq(f_root(path, hex, sizeof(hex)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "byte 5 is not a hex"));
	ck_assert_int_eq(f_root(path, hex, 3), -EINVAL);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(f_root(path, hex, sizeof(hex)), -EINVAL);

	/* a superblock where it is, and where an appended tree's would be */
	ck_assert_int_eq(t_format(p, data, hash, NULL, &made), 0);
	ck_assert_int_eq(f_probe(hash, 0), FV_SUPERBLOCK_FOUND);
	ck_assert_int_eq(f_probe(data, 0), FV_SUPERBLOCK_NONE);
	ck_assert_int_eq(f_probe(path, 0), FV_SUPERBLOCK_NONE);
	snprintf(path, sizeof(path), "%s/appended", dir);
	write_file(path, image, (size_t)BLOCKS * BS);
	p->hash_offset = (uint64_t)BLOCKS * BS;
	p->data_blocks = BLOCKS;
	ck_assert_int_eq(t_format(p, data, path, NULL, &res), 0);
	fv_result_free(res);
	ck_assert_int_eq(f_search(path, 0, &off), 0);
	ck_assert_uint_eq(off, (uint64_t)BLOCKS * BS);
	ck_assert_int_eq(f_search(path, off, &off), -ENOENT);
	ck_assert_int_eq(fv_params_check(p), 0);
	ck_assert_int_eq(fv_params_check(NULL), -EINVAL);

	/* the same storage, named twice */
	ck_assert_str_eq(f_same(data, data), "");
	ck_assert_ptr_null(f_same(data, hash));
	ck_assert_ptr_null(f_same(data, NULL));

	/* sidecar names and the sidecar pair */
	snprintf(os, sizeof(os), "%s/os.raw", dir);
	snprintf(tree, sizeof(tree), "%s/os.verity", dir);
	snprintf(roothash, sizeof(roothash), "%s/os.roothash", dir);
	snprintf(sig, sizeof(sig), "%s/os.roothash.p7s", dir);
	snprintf(fecf, sizeof(fecf), "%s/os.fec", dir);
	ck_assert_int_eq(f_op(FV_FILE_SIDECAR_NAMES, os, &fa), 0);
	ck_assert_str_eq(fa.tree, tree);
	ck_assert_str_eq(fa.roothash, roothash);
	ck_assert_str_eq(fa.signature, sig);
	ck_assert_str_eq(fa.fec, fecf);
	fv_free(fa.tree);
	fv_free(fa.roothash);
	fv_free(fa.signature);
	fv_free(fa.fec);
	write_file(os, image, (size_t)BLOCKS * BS);
	p->hash_offset = 0;
	p->data_blocks = 0;
	ck_assert_int_eq(t_format(p, os, tree, NULL, &res), 0);
	ck_assert_int_eq(f_write(roothash, "the root hash file",
				 rpt(res).root_hex, strlen(rpt(res).root_hex)),
			 0);
	fv_result_free(res);
	/* a signal handler's call: committed outputs stay */
	fv_remove_temporaries();
	ck_assert_int_eq(access(roothash, F_OK), 0);
	ck_assert_int_eq(access(tree, F_OK), 0);
	ck_assert_int_eq(image_open(os, "sidecar", NULL, &im), 0);
	ck_assert_str_eq(img_pair(im, 0).data, os);
	ck_assert_str_eq(img_pair(im, 0).hash, tree);
	ck_assert_ptr_null(img_pair(im, 0).fec);
	ck_assert_ptr_null(img_pair(im, 0).signature);
	ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
	ck_assert_int_eq(rpt(res).intact, 1);
	fv_result_free(res);
	fv_image_free(im);

	/* stale sidecars removed, and said */
	write_text(sig, "x");
	write_text(fecf, "x");
	ck_assert_int_eq(f_prune(os, FV_SIDECAR_FEC, &removed), 0);
	ck_assert_uint_eq(removed, FV_SIDECAR_SIGNATURE);
	ck_assert_int_eq(access(fecf, F_OK), 0);
	ck_assert_int_eq(f_prune(os, 0, &removed), 0);
	ck_assert_uint_eq(removed, FV_SIDECAR_FEC);
	ck_assert_int_ne(access(fecf, F_OK), 0);
	ck_assert_int_eq(f_prune(os, 4, NULL), -EINVAL);

	/* a signature file read whole */
	write_text(sig, "abc");
	ck_assert_int_eq(f_op(FV_FILE_SIGNATURE, sig, &fa), 0);
	ck_assert_uint_eq(fa.len, 3);
	ck_assert_int_eq(memcmp(fa.data, "abc", 3), 0);
	fv_free(fa.data);
	ck_assert_int_eq(f_op(FV_FILE_SIGNATURE, fecf, &fa), -EINVAL);
	ck_assert_ptr_null(fa.data);

	/* fv_file's own checks: an op, a path, an answer's size */
	{
		struct fv_file_request q = {.size = sizeof(q), .path = sig};

		ck_assert_int_eq(f_ask(&q, &fa), -EINVAL);
		q.op = FV_FILE_SIZE;
		fa.size = sizeof(fa) - 1;
		ck_assert_int_eq(fv_file(&q, &fa), -EINVAL);
		q.path = NULL;
		ck_assert_int_eq(f_ask(&q, &fa), -EINVAL);
		ck_assert_int_eq(fv_file(NULL, &fa), -EINVAL);
	}

	/* an Android sparse image with sidecar files: its own bytes are the
	 * data (two blocks of its 8244 bytes), as the kernel maps them, not
	 * its 102 unsparsed blocks */
	{
		static uint8_t sp[28 + 12 + 2 * BS + 12];
		static const uint8_t head[28] = {
			0x3a, 0xff, 0x26, 0xed, 1,   0, 0, 0, 28, 0, 12, 0,
			0,    0x10, 0,    0,    102, 0, 0, 0, 2,  0, 0,  0};
		static const uint8_t raw[12] = {0xc1, 0xca, 0,    0,    2, 0,
						0,    0,    0x0c, 0x20, 0, 0};
		static const uint8_t skip[12] = {0xc3, 0xca, 0,  0, 100, 0,
						 0,    0,    12, 0, 0,   0};
		struct fv_layout l;
		char spt[128], sprh[128];

		memcpy(sp, head, sizeof(head));
		memcpy(sp + 28, raw, sizeof(raw));
		memcpy(sp + 28 + 12, image, 2 * BS);
		memcpy(sp + 28 + 12 + 2 * BS, skip, sizeof(skip));
		snprintf(path, sizeof(path), "%s/sp.img", dir);
		snprintf(spt, sizeof(spt), "%s/sp.img.verity", dir);
		snprintf(sprh, sizeof(sprh), "%s/sp.img.roothash", dir);
		write_file(path, sp, sizeof(sp));
		struct fv_format_request fq = {.size = sizeof(fq),
					       .data = path,
					       .hash = spt,
					       .params = p,
					       .sidecar = 1};

		/* its 52 bytes past the blocks left uncovered, as said */
		p->data_blocks = 2;
		ck_assert_int_eq(fv_format(&fq, NULL, &res), 0);
		p->data_blocks = 0;
		l = layout_of(res);
		ck_assert_uint_eq(l.data_blocks, 2);
		ck_assert_uint_eq(rpt(res).params.data_blocks, 2);
		ck_assert_int_eq(f_write(sprh, "the root hash file",
					 rpt(res).root_hex,
					 strlen(rpt(res).root_hex)),
				 0);
		fv_result_free(res);
		ck_assert_msg(image_open(path, "sidecar", NULL, &im) == 0,
			      "%s", fv_last_error());
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_int_eq(rpt(res).intact, 1);
		fv_result_free(res);
		/* the header is data: a byte of it changed is a bad block */
		poke(path, 20);
		ck_assert_int_eq(fv_verify(im, 0, NULL, &res), 0);
		ck_assert_uint_eq(rpt(res).bad_data_blocks, 1);
		fv_result_free(res);
		fv_image_free(im);
	}

	/* an Android sparse image where raw data belongs */
	ck_assert_int_eq(f_op(FV_FILE_REFUSE_SPARSE, data, NULL), 0);
	write_file(path, sparse, sizeof(sparse));
	ck_assert_int_eq(f_op(FV_FILE_REFUSE_SPARSE, path, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "sparse"));
	fv_result_free(made);
	free(p);
}
END_TEST

/* update: two changed blocks rewritten, the same root and bytes as a
 * new format; a wrong old root refused with nothing written; found by
 * hashing when no range is given. */
START_TEST(updates)
{
	struct fv_update_report u;
	const uint64_t ranges[] = {5 * BS + 10, 1, 200 * BS, BS + 3};
	char fresh[96], fresh_fec[96], old[65], now[65];
	uint8_t *img = malloc((size_t)BLOCKS * BS), *big;
	fv_params *p = params_new();
	struct fv_format_request rq = {.size = sizeof(rq),
				       .data = data,
				       .hash = hash,
				       .params = p,
				       .fec_path = fec,
				       .fec_roots = 2};
	fv_result *made, *res;

	snprintf(fresh, sizeof(fresh), "%s/fresh", dir);
	snprintf(fresh_fec, sizeof(fresh_fec), "%s/fresh.fec", dir);
	ck_assert_int_eq(fv_format(&rq, NULL, &made), 0);
	snprintf(old, sizeof(old), "%s", rpt(made).root_hex);
	ck_assert(!(rpt(made).has & FV_REPORT_UPDATE));
	fv_result_free(made);
	/* update: the parameters read from the superblock, the old root
	 * needed */
	rq.params = NULL;
	ck_assert_int_eq(fv_update(&rq, ranges, 2, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no root hash"));
	/* two ranges of the data changed */
	memcpy(img, image, (size_t)BLOCKS * BS);
	img[5 * BS + 10] ^= 1;
	img[201 * BS] ^= 0xff;
	write_file(data, img, (size_t)BLOCKS * BS);
	rq.root_hex = old;
	ck_assert_msg(fv_update(&rq, ranges, 2, NULL, &res) == 0, "%s",
		      fv_last_error());
	ck_assert(rpt(res).has & FV_REPORT_UPDATE);
	u = rpt(res).update;
	ck_assert_uint_eq(u.size, sizeof(u));
	ck_assert_uint_eq(u.changed_blocks, 3);
	ck_assert_uint_gt(u.tree_blocks, 0);
	ck_assert_uint_gt(u.parity_rounds, 0);
	ck_assert_int_eq(u.resumed, 0);
	snprintf(now, sizeof(now), "%s", rpt(res).root_hex);
	/* a new format of the changed data, with the same salt and UUID
	 * (the parameters the update kept) */
	ck_assert(rpt(res).has & FV_REPORT_PARAMS);
	*p = rpt(res).params;
	{
		struct fv_format_request fr = {.size = sizeof(fr),
					       .data = data,
					       .hash = fresh,
					       .params = p,
					       .fec_path = fresh_fec,
					       .fec_roots = 2};

		ck_assert_int_eq(fv_format(&fr, NULL, &made), 0);
	}
	ck_assert_str_eq(rpt(made).root_hex, rpt(res).root_hex);
	fv_result_free(made);
	fv_result_free(res);
	/* the old root again: the tree is the new one's now, refused */
	rq.fec_path = NULL;
	rq.fec_roots = 0;
	ck_assert_int_eq(fv_update(&rq, NULL, 0, NULL, &res), -EPERM);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "nothing written"));
	rq.fec_path = fec;
	rq.fec_roots = 2;
	/* the data grown past the tree's blocks: refused (a tree's size is
	 * fixed), unless the caller gives the data blocks */
	ck_assert_ptr_nonnull(big = calloc((size_t)BLOCKS + 1, BS));
	memcpy(big, img, (size_t)BLOCKS * BS);
	write_file(data, big, ((size_t)BLOCKS + 1) * BS);
	free(big);
	rq.root_hex = now;
	ck_assert_int_eq(fv_update(&rq, ranges, 2, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(fv_last_error(), "more than the 300 data blocks"));
	/* another count than the tree's: refused, named */
	rq.data_blocks = BLOCKS + 1;
	ck_assert_int_eq(fv_update(&rq, ranges, 2, NULL, &res), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "a tree's size is fixed"));
	rq.data_blocks = BLOCKS;
	ck_assert_msg(fv_update(&rq, ranges, 2, NULL, &res) == 0, "%s",
		      fv_last_error());
	ck_assert_str_eq(rpt(res).root_hex, now);
	ck_assert_uint_eq(rpt(res).params.data_blocks, BLOCKS);
	fv_result_free(res);
	write_file(data, image, (size_t)BLOCKS * BS);
	free(img);
	free(p);
	/* an Android image's changed ranges: a count without its list
	 * refused, checked before anything is read */
	{
		struct fv_footer_request fo = {.size = sizeof(fo),
					       .kind = FV_FOOTER_HASHTREE,
					       .partition_size = 2u << 20,
					       .flags = FV_FOOTER_CHANGED_GIVEN,
					       .nchanged = 1};
		uint64_t max;

		ck_assert_int_eq(max_size(&fo, &max), -EINVAL);
		fo.changed = ranges;
		ck_assert_int_eq(max_size(&fo, &max), 0);
		fo.changed = NULL;
		fo.nchanged = 0;
		ck_assert_int_eq(max_size(&fo, &max), 0);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_pair",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(files_around_pairs, updates));
}
