/* The tree's place and shape from validated parameters (docs/format.md,
 * "Tree"). */
#include "verity/tree/layout.h"

#include <errno.h>
#include <string.h>

#include "hashtree/hasher.h"

int verity_layout_of(const struct verity_params *p, struct verity_layout *l,
		     struct ht_error *err)
{
	/* after validation: it divides by the hash block size */
	uint64_t start = verity_tree_start_block(p);
	int r;

	memset(l, 0, sizeof(*l));
	r = ht_geometry_init(&l->geo, p->data_blocks, p->data_block_size,
			     p->hash_block_size, ht_digest_size(p->hash_name),
			     p->hash_type, err);
	if (r)
		return r;
	l->data_bytes = p->data_blocks * p->data_block_size;
	l->tree_offset = start * p->hash_block_size;
	l->hash_area_start = p->no_superblock ? l->tree_offset : p->hash_offset;
	if (l->geo.tree_blocks >
	    (INT64_MAX - l->tree_offset) / p->hash_block_size)
		return ht_fail(err, EOVERFLOW, "hash area overflows 64 bits");
	l->hash_end = l->tree_offset + l->geo.tree_blocks * p->hash_block_size;
	/* one data block, no tree: the hash image is the superblock alone,
	 * which veritysetup writes as one piece of at most 4 KiB */
	if (!l->geo.tree_blocks && !p->no_superblock &&
	    p->hash_offset + 4096 < l->hash_end)
		l->hash_end = p->hash_offset + 4096;
	return 0;
}

int verity_layout_compute(const struct verity_params *p,
			  struct verity_layout *l, struct ht_error *err)
{
	int r = verity_params_validate(p, err);

	if (r) {
		memset(l, 0, sizeof(*l));
		return r;
	}
	return verity_layout_of(p, l, err);
}

void verity_fill_info(struct verity_info *info, const struct ht_hasher *h)
{
	if (!info)
		return;
	info->hash_path = ht_path_name(h->path);
	info->path_reason = h->path_reason;
	info->kernel = h->path != HT_PATH_FAST ? "OpenSSL EVP"
		       : h->sha1               ? "sha-ni sha1 (two-way)"
				 : ht_sha256_kernel_name(h->kernel);
	memcpy(info->provider, h->provider, sizeof(info->provider));
}
