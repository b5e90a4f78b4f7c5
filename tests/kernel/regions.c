/* A verity pair of regions against the real dm-verity target (run in the
 * kernel test's guest): data and tree at offsets inside one image file,
 * opened through loop devices with offset and size limit.
 * Usage: fv-regions NAME IMAGE DATA_OFF DATA_LEN HASH_OFF HASH_LEN ROOT.
 * Exit 0 when the device is open (the caller reads and closes it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/ops/ops.h"
#include "verity/tree/superblock.h"

int main(int argc, char **argv)
{
	struct verity_pair pair;
	struct verity_run run;
	struct verity_outcome out;
	struct ht_error err;
	size_t len;
	int r;

	if (argc != 8) {
		fprintf(stderr,
			"usage: fv-regions NAME IMAGE DATA_OFF DATA_LEN "
			"HASH_OFF HASH_LEN ROOT\n");
		return 2;
	}
	memset(&pair, 0, sizeof(pair));
	memset(&run, 0, sizeof(run));
	run.ht.threads = 1;
	verity_params_default(&pair.params);
	pair.data = (struct verity_region){argv[2], strtoull(argv[3], NULL, 0),
					   strtoull(argv[4], NULL, 0), NULL};
	pair.hash = (struct verity_region){argv[2], strtoull(argv[5], NULL, 0),
					   strtoull(argv[6], NULL, 0), NULL};
	if (verity_hex_decode(argv[7], pair.root, sizeof(pair.root), &len)) {
		fprintf(stderr, "bad root hash\n");
		return 2;
	}
	pair.root_size = len;
	r = verity_read_superblock(&pair.hash, &pair.params, &err);
	if (!r)
		r = verity_op_verify(&pair, &run, &out, &err);
	if (!r && (out.res.bad_data_blocks || !out.res.root_matches))
		fprintf(stderr, "verify found damage\n"), r = -1;
	if (!r)
		r = verity_op_open(argv[1], &pair, &run, &err);
	if (r) {
		fprintf(stderr, "%s\n", ht_msg(&err));
		return 1;
	}
	return 0;
}
