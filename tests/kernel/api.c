/* The public API against the real dm-verity target (run in the kernel
 * test's guest): fv_open and fv_activate, fv_status_get (with its
 * struct fv_status_info), fv_close.
 * Usage: fv-api NAME DATA_DEV HASH_DEV ROOT_HEX. Prints what failed;
 * exit 0 when everything held. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "include/fastverity.h"

static int failed;

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("not ok: %s (%s)\n", what, fv_last_error());
		failed = 1;
	}
}

int main(int argc, char **argv)
{
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	const fv_params *p;
	fv_options opts = {.size = sizeof(opts),
			   .flags = FV_IGNORE_ZERO_BLOCKS |
				    FV_CHECK_AT_MOST_ONCE},
		   *o = &opts;
	struct fv_open_request rq = {.size = sizeof(rq), .activates = 1};
	fv_image *im = NULL;
	fv_result *res = NULL;
	fv_status *st = NULL;

	if (argc != 5) {
		fprintf(stderr, "usage: fv-api NAME DATA HASH ROOT\n");
		return 2;
	}
	/* the pair as its superblock says, the root given */
	rq.data = argv[2];
	rq.hash = argv[3];
	rq.root_hex = argv[4];
	expect(fv_open(&rq, o, &im) == 0, "fv_open");
	if (!im)
		return 1;
	expect(fv_image_pair_info(im, 0, &pi) == 0 && pi.params,
	       "fv_image_pair_info");
	if (!pi.params)
		return 1;
	p = pi.params;
	expect(fv_activate(argv[1], im, 0, o, &res) == 0, "fv_activate");
	{
		struct fv_report rep = {.size = sizeof(rep)};

		expect(res && fv_result_report(res, &rep) == 0 &&
			       rep.trust == FV_TRUST_UNSIGNED,
		       "fv_activate's result: unsigned");
		fv_result_free(res);
		res = NULL;
	}
	expect(fv_activate(argv[1], im, 0, o, &res) == -EBUSY && !res,
	       "fv_activate of a name in use: -EBUSY");
	struct fv_status_info i = {.size = sizeof(i)};

	expect(fv_status_get(argv[1], &st, &i) == 0, "fv_status_get");
	if (st) {
		expect(i.size == sizeof(i), "the whole structure filled");
		expect(i.is_verity, "a verity target");
		expect(!i.corrupted, "not corrupted");
		expect(i.root_hex && !strcmp(i.root_hex, argv[4]), "root hash");
		expect(i.data_device && !strcmp(i.data_device, argv[2]),
		       "data device");
		expect(i.hash_device && !strcmp(i.hash_device, argv[3]),
		       "hash device");
		expect(!i.data_file && !i.hash_file, "no loop backing files");
		expect(!i.fec_device && !i.fec_roots, "no FEC");
		expect(i.open_count == 0, "nobody holds it open");
		expect(i.flags ==
			       (FV_IGNORE_ZERO_BLOCKS | FV_CHECK_AT_MOST_ONCE),
		       "flags as opened");
		expect(i.params && i.params->data_blocks ==
					   p->data_blocks,
		       "data blocks");
		expect(i.params && !strcmp(i.params->hash, "sha256"),
		       "hash");
		expect(i.read_only, "read-only");
		expect(!i.is_signed, "no signature given");
		expect(i.size_sectors == p->data_blocks *
						 p->data_block_size /
						 512,
		       "size in sectors");
		expect(i.hash_start_block == 1, "tree after the superblock");
		/* the kernel's words, in its order */
		expect(i.flag_name[0] &&
			       !strcmp(i.flag_name[0], "ignore_corruption"),
		       "the first flag's word");
		expect(i.flag_name[FV_NFLAGS - 1] &&
			       !strcmp(i.flag_name[FV_NFLAGS - 1],
				       "try_verify_in_tasklet"),
		       "the last flag's word");
		expect(!i.fec_file && !i.fec_blocks && !i.fec_start_block,
		       "no parity");
		fv_status_free(st);
		i.size = offsetof(struct fv_status_info, is_verity);
		expect(fv_status_get(argv[1], &st, &i) == -EINVAL && !st,
		       "fv_status_get with a size too small: -EINVAL");
	}
	expect(fv_close(argv[1], FV_CLOSE_NOW) == 0, "fv_close");
	st = NULL;
	expect(fv_status_get(argv[1], &st, NULL) == -ENODEV && !st,
	       "fv_status_get after close: -ENODEV");
	expect(fv_close(argv[1], FV_CLOSE_NOW) == -ENODEV,
	       "fv_close of no device: -ENODEV");
	fv_image_free(im);
	if (!failed)
		printf("ok\n");
	return failed;
}
