/* The public API against the real dm-verity target (run in the kernel
 * test's guest): fv_pair_activate, fv_status_get and its readers, fv_close.
 * Usage: fv-api NAME DATA_DEV HASH_DEV ROOT_HEX. Prints what failed;
 * exit 0 when everything held. */
#include <errno.h>
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
	fv_options *o;
	fv_pair *pr = NULL;
	fv_status *st = NULL;

	if (argc != 5) {
		fprintf(stderr, "usage: fv-api NAME DATA HASH ROOT\n");
		return 2;
	}
	o = fv_options_new();
	expect(o && fv_pair_new(argv[2], argv[3], &pr) == 0, "handles");
	if (!o || !pr)
		return 1;
	expect(fv_pair_read_superblock(pr, 0) == 0, "read superblock");
	expect(fv_pair_set_root_hex(pr, argv[4]) == 0, "root");
	p = fv_pair_params(pr);
	expect(fv_options_set_flags(o, FV_IGNORE_ZERO_BLOCKS |
					       FV_CHECK_AT_MOST_ONCE) == 0,
	       "flags");
	expect(fv_pair_activate(argv[1], pr, o) == 0, "fv_pair_activate");
	expect(fv_pair_activate(argv[1], pr, o) == -EBUSY,
	       "fv_pair_activate of a name in use: -EBUSY");
	expect(fv_status_get(argv[1], &st) == 0, "fv_status_get");
	if (st) {
		expect(fv_status_is_verity(st), "a verity target");
		expect(!fv_status_corrupted(st), "not corrupted");
		expect(!strcmp(fv_status_root_hex(st), argv[4]), "root hash");
		expect(fv_status_data_device(st) &&
			       !strcmp(fv_status_data_device(st), argv[2]),
		       "data device");
		expect(fv_status_hash_device(st) &&
			       !strcmp(fv_status_hash_device(st), argv[3]),
		       "hash device");
		expect(!fv_status_data_file(st) && !fv_status_hash_file(st),
		       "no loop backing files");
		expect(!fv_status_fec_device(st) && !fv_status_fec_roots(st),
		       "no FEC");
		expect(fv_status_open_count(st) == 0, "nobody holds it open");
		expect(fv_status_flags(st) ==
			       (FV_IGNORE_ZERO_BLOCKS | FV_CHECK_AT_MOST_ONCE),
		       "flags as opened");
		expect(fv_status_params(st)->data_blocks ==
			       p->data_blocks,
		       "data blocks");
		expect(!strcmp(fv_status_params(st)->hash, "sha256"),
		       "hash");
		expect(fv_status_read_only(st), "read-only");
		expect(!fv_status_signed(st), "no signature given");
		expect(fv_status_size_sectors(st) ==
			       p->data_blocks *
				       p->data_block_size / 512,
		       "size in sectors");
		expect(fv_status_hash_start_block(st) == 1,
		       "tree after the superblock");
		expect(!fv_status_fec_file(st) && !fv_status_fec_blocks(st) &&
			       !fv_status_fec_start_block(st),
		       "no parity");
		fv_status_free(st);
	}
	expect(fv_close(argv[1], FV_CLOSE_NOW) == 0, "fv_close");
	st = NULL;
	expect(fv_status_get(argv[1], &st) == -ENODEV && !st,
	       "fv_status_get after close: -ENODEV");
	expect(fv_close(argv[1], FV_CLOSE_NOW) == -ENODEV,
	       "fv_close of no device: -ENODEV");
	fv_options_free(o);
	fv_pair_free(pr);
	if (!failed)
		printf("ok\n");
	return failed;
}
