/* libFuzzer: any 512 bytes as a superblock, then the layout it implies.
 * Must never crash, leak or overflow; accepted values must be sane. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/tree/superblock.h"
#include "verity/tree/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t sb[VERITY_SB_SIZE] = {0};
	struct verity_params p;
	struct verity_layout l;
	struct ht_error err;

	memcpy(sb, data, size < sizeof(sb) ? size : sizeof(sb));
	verity_params_default(&p);
	if (size > sizeof(sb))
		p.hash_offset = (uint64_t)data[sizeof(sb)] * 512;
	if (verity_sb_decode(sb, &p, &err) != 0)
		return 0;
	if (p.salt_size > VERITY_MAX_SALT_SIZE || !p.data_blocks)
		abort();
	/* one data block has no tree: the hash image is the superblock
	 * alone, at most 4 KiB, even when the empty tree would start
	 * further (veritysetup writes the same) */
	if (verity_layout_compute(&p, &l, &err) == 0 &&
	    ((l.geo.tree_blocks && l.hash_end < l.tree_offset) ||
	     l.geo.levels > HT_MAX_LEVELS))
		abort();
	return 0;
}
