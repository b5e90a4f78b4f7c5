/* The public API against the real dm-verity target (run in the kernel
 * test's guest): fv_pair_activate, fv_status_get and fv_status_info,
 * fv_close.
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
	const fv_params *p;
	fv_options opts = {.size = sizeof(opts),
			   .flags = FV_IGNORE_ZERO_BLOCKS |
				    FV_CHECK_AT_MOST_ONCE},
		   *o = &opts;
	fv_pair *pr = NULL;
	fv_status *st = NULL;

	if (argc != 5) {
		fprintf(stderr, "usage: fv-api NAME DATA HASH ROOT\n");
		return 2;
	}
	expect(fv_pair_new(argv[2], argv[3], &pr) == 0, "handles");
	if (!pr)
		return 1;
	expect(fv_pair_read_superblock(pr, 0) == 0, "read superblock");
	expect(fv_pair_set_root_hex(pr, argv[4]) == 0, "root");
	p = fv_pair_params(pr);
	expect(fv_pair_activate(argv[1], pr, o) == 0, "fv_pair_activate");
	expect(fv_pair_activate(argv[1], pr, o) == -EBUSY,
	       "fv_pair_activate of a name in use: -EBUSY");
	expect(fv_status_get(argv[1], &st) == 0, "fv_status_get");
	if (st) {
		struct fv_status_info i = {.size = sizeof(i)};

		expect(fv_status_info(st, &i) == 0, "fv_status_info");
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
		expect(!i.fec_file && !i.fec_blocks && !i.fec_start_block,
		       "no parity");
		i.size = offsetof(struct fv_status_info, is_verity);
		expect(fv_status_info(st, &i) == -EINVAL,
		       "fv_status_info with a size too small: -EINVAL");
		fv_status_free(st);
	}
	expect(fv_close(argv[1], FV_CLOSE_NOW) == 0, "fv_close");
	st = NULL;
	expect(fv_status_get(argv[1], &st) == -ENODEV && !st,
	       "fv_status_get after close: -ENODEV");
	expect(fv_close(argv[1], FV_CLOSE_NOW) == -ENODEV,
	       "fv_close of no device: -ENODEV");
	fv_pair_free(pr);
	if (!failed)
		printf("ok\n");
	return failed;
}
