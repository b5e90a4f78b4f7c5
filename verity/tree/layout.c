/* Layout checks shared by format and verify. */
#include <errno.h>
#include <string.h>

#include "verity/storage/device.h"
#include "verity/tree/layout_internal.h"
#include "verity/tree/superblock.h"
#include "verity/verity.h"

int verity_layout_compute(const struct verity_params *p,
			  struct verity_layout *l, struct fv_error *err)
{
	uint64_t start;
	int r = verity_params_validate(p, err);

	memset(l, 0, sizeof(*l));
	if (r)
		return r;
	/* only now: it divides by the hash block size */
	start = verity_tree_start_block(p);
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
		return fv_fail(err, EOVERFLOW, "hash area overflows 64 bits");
	l->hash_end = l->tree_offset + l->geo.tree_blocks * p->hash_block_size;
	/* one data block, no tree: the hash image is the superblock alone,
	 * which veritysetup writes as one piece of at most 4 KiB */
	if (!l->geo.tree_blocks && !p->no_superblock &&
	    p->hash_offset + 4096 < l->hash_end)
		l->hash_end = p->hash_offset + 4096;
	return 0;
}

/* Fills p->data_blocks from the device when 0; refuses a partial tail. */
static int verity_resolve_data_blocks(struct verity_params *p,
				      const struct verity_device *data,
				      struct fv_error *err)
{
	uint64_t tail = data->size % p->data_block_size;

	if (p->data_blocks) {
		if (p->data_blocks > data->size / p->data_block_size)
			return fv_fail(err, EINVAL,
				       "%s: device has %llu bytes, fewer than "
				       "%llu data blocks of %u bytes",
				       data->path,
				       (unsigned long long)data->size,
				       (unsigned long long)p->data_blocks,
				       p->data_block_size);
		return 0;
	}
	if (tail)
		return fv_fail(
			err, EINVAL,
			"%s: size %llu is not a multiple of the %u-byte data "
			"block "
			"size, so its last %llu bytes would not be protected; "
			"pad "
			"the image to a whole block, or pass "
			"--data-blocks=%llu to "
			"leave the tail uncovered",
			data->path, (unsigned long long)data->size,
			p->data_block_size, (unsigned long long)tail,
			(unsigned long long)(data->size / p->data_block_size));
	p->data_blocks = data->size / p->data_block_size;
	if (!p->data_blocks)
		return fv_fail(
			err, EINVAL,
			"%s: device is empty, there is nothing to protect",
			data->path);
	return 0;
}

/* Refuses a hash area that overlaps the data area of the same file. */
static int verity_check_overlap(const struct verity_layout *l,
				const struct verity_device *data,
				const struct verity_device *hash,
				struct fv_error *err)
{
	uint64_t hlen = l->hash_end - l->hash_area_start;

	if (verity_device_same(data, hash)) {
		if (l->hash_area_start < l->data_bytes)
			return fv_fail(err, EINVAL,
				       "%s: the hash area at byte %llu "
				       "overlaps the data area, which ends at "
				       "byte %llu",
				       hash->path,
				       (unsigned long long)l->hash_area_start,
				       (unsigned long long)l->data_bytes);
		return 0;
	}
	/* different names, same bytes: a loop device or a partition */
	if (verity_device_overlap(data, 0, l->data_bytes, hash,
				  l->hash_area_start, hlen))
		return fv_fail(err, EINVAL,
			       "%s: the hash area [%llu, %llu) is stored in "
			       "the same bytes as the data area of %s (one is "
			       "%s the other)",
			       hash->path,
			       (unsigned long long)l->hash_area_start,
			       (unsigned long long)l->hash_end, data->path,
			       verity_device_via(data, hash));
	return 0;
}

void verity_fill_info(struct verity_info *info, const struct ht_hasher *h)
{
	if (!info)
		return;
	info->hash_path = ht_path_name(h->path);
	info->path_reason = h->path_reason;
	info->kernel = h->path == HT_PATH_FAST ? sha256_kernel_name(h->kernel)
					       : "OpenSSL EVP";
	memcpy(info->provider, h->provider, sizeof(info->provider));
}

int verity_open_pair(struct verity_params *p, const char *data_path,
		     const char *hash_path, size_t root_size,
		     enum verity_open_mode mode, struct verity_device *data,
		     struct verity_device *hash, struct verity_layout *l,
		     struct fv_error *err)
{
	int create = mode == VERITY_OPEN_CREATE;
	int r = verity_params_validate(p, err);

	if (!r)
		r = verity_device_open(data, data_path,
				       create ? VERITY_OPEN_READ : mode, err);
	if (r)
		return r;
	hash->fd = -1;
	hash->tmp = hash->final = NULL;
	if (!create)
		r = verity_device_open_beside(hash, hash_path, mode, data, err);
	if (!r)
		r = verity_resolve_data_blocks(p, data, err);
	if (!r)
		r = verity_layout_compute(p, l, err);
	/* without a superblock the tree starts at the block holding the
	 * offset: before it, over bytes the user did not hand over */
	if (!r && create && p->no_superblock &&
	    p->hash_offset % p->hash_block_size) {
		uint64_t below =
			p->hash_offset - p->hash_offset % p->hash_block_size;

		r = fv_fail(err, EINVAL,
			    "--hash-offset=%llu is not a multiple of the "
			    "%u-byte hash block size: without a superblock "
			    "the tree would start at byte %llu, before it "
			    "(give --hash-offset=%llu or %llu)",
			    (unsigned long long)p->hash_offset,
			    p->hash_block_size, (unsigned long long)below,
			    (unsigned long long)below,
			    (unsigned long long)(below + p->hash_block_size));
	}
	/* format creates the hash image only once everything else is
	 * known good */
	if (!r && create)
		r = verity_device_open_format_output(
			hash, hash_path, "the hash image", data_path,
			p->hash_offset, err);
	if (!r)
		r = verity_check_overlap(l, data, hash, err);
	if (!r && create && hash->is_block && hash->size < l->hash_end)
		r = fv_fail(
			err, ENOSPC,
			"%s: device has %llu bytes, the hash area needs %llu",
			hash_path, (unsigned long long)hash->size,
			(unsigned long long)l->hash_end);
	if (!r && !create && hash->size < l->hash_end)
		r = fv_fail(
			err, EINVAL,
			"%s: device has %llu bytes, the hash tree needs %llu",
			hash_path, (unsigned long long)hash->size,
			(unsigned long long)l->hash_end);
	if (!r && root_size && root_size != l->geo.digest_size)
		r = fv_fail(err, EINVAL,
			    "root hash has %zu bytes, %s digests have %u",
			    root_size, p->hash_name, l->geo.digest_size);
	if (r) {
		verity_device_close(hash);
		verity_device_close(data);
	}
	return r;
}
