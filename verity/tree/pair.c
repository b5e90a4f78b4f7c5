/* The one opener of a verity pair's regions, for format (the hash and
 * parity regions are outputs, made once everything else is known good),
 * verify, repair and open: every check made before a block is read or
 * written. */
#include "verity/tree/pair.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "verity/tree/superblock.h"

#include "verity/fec/layout.h"
#include "verity/storage/backing.h"
#include "verity/storage/output.h"

/* Fills p->data_blocks from the device when 0; refuses a partial tail. */
static int resolve_data_blocks(struct verity_params *p,
			       const struct verity_device *data,
			       struct ht_error *err)
{
	uint64_t tail = data->size % p->data_block_size;

	if (p->data_blocks) {
		if (p->data_blocks > data->size / p->data_block_size)
			return ht_fail(err, EINVAL,
				       "%s: device has %llu bytes, fewer than "
				       "%llu data blocks of %u bytes",
				       data->path,
				       (unsigned long long)data->size,
				       (unsigned long long)p->data_blocks,
				       p->data_block_size);
		return 0;
	}
	if (tail)
		return ht_fail_fix(
			err, EINVAL, HT_PARAM_DATA_BLOCKS,
			data->size / p->data_block_size, 0,
			"pad the image to a whole block, or give %1 to leave "
			"the tail uncovered",
			"%s: size %llu is not a multiple of the %u-byte data "
			"block size, so its last %llu bytes would not be "
			"protected",
			data->path, (unsigned long long)data->size,
			p->data_block_size, (unsigned long long)tail);
	p->data_blocks = data->size / p->data_block_size;
	if (!p->data_blocks)
		return ht_fail(
			err, EINVAL,
			"%s: device is empty, there is nothing to protect",
			data->path);
	return 0;
}

/* Refuses a hash area that overlaps the data area of the same file. */
static int check_overlap(const struct verity_layout *l,
			 const struct verity_device *data,
			 const struct verity_device *hash, struct ht_error *err)
{
	uint64_t hlen = l->hash_end - l->hash_area_start;

	if (verity_device_same(data, hash)) {
		/* one file: offsets in it, whatever the regions */
		uint64_t hs = hash->base + l->hash_area_start;
		uint64_t ds = data->base, de = data->base + l->data_bytes;

		if (hs < de && ds < hash->base + l->hash_end)
			return ht_fail(err, EINVAL,
				       "%s: the hash area at byte %llu "
				       "overlaps the data area, which ends at "
				       "byte %llu",
				       hash->path, (unsigned long long)hs,
				       (unsigned long long)de);
		return 0;
	}
	/* different names, same bytes: a loop device or a partition */
	if (verity_device_overlap(data, 0, l->data_bytes, hash,
				  l->hash_area_start, hlen))
		return ht_fail(err, EINVAL,
			       "%s: the hash area [%llu, %llu) is stored in "
			       "the same bytes as the data area of %s (one is "
			       "%s the other)",
			       hash->path,
			       (unsigned long long)l->hash_area_start,
			       (unsigned long long)l->hash_end, data->path,
			       verity_device_via(data, hash));
	return 0;
}

/* Without a superblock the tree starts at the block holding the offset:
 * before it, over bytes nobody handed over. */
static int unaligned_tree(const struct verity_params *p, struct ht_error *err)
{
	uint64_t below = p->hash_offset - p->hash_offset % p->hash_block_size;

	if (!p->no_superblock || p->hash_offset % p->hash_block_size == 0)
		return 0;
	return ht_fail_fix(err, EINVAL, HT_PARAM_HASH_OFFSET, below,
			   below + p->hash_block_size, "give %1 or %3",
			   "hash offset %llu is not a multiple of the %u-byte "
			   "hash block size: without a superblock the tree "
			   "would start at byte %llu, before it",
			   (unsigned long long)p->hash_offset,
			   p->hash_block_size, (unsigned long long)below);
}

/* The regions' sizes against the layout, and the root digest's. */
static int check_sizes(const struct verity_pair *pair,
		       const struct verity_devices *d, int create,
		       struct ht_error *err)
{
	const struct verity_layout *l = &pair->layout;

	if (create && (d->hash.is_block || d->hash.bounded) &&
	    d->hash.size < l->hash_end)
		return ht_fail(err, ENOSPC,
			       "%s: device has %llu bytes, the hash area needs "
			       "%llu",
			       d->hash.path, (unsigned long long)d->hash.size,
			       (unsigned long long)l->hash_end);
	/* (a single data block with no superblock reads nothing from the
	 * hash device: its digest is the root) */
	if (!create && d->hash.size < l->hash_end &&
	    (l->geo.levels || !pair->params.no_superblock))
		return ht_fail(err, EINVAL,
			       "%s: device has %llu bytes, the hash tree needs "
			       "%llu",
			       d->hash.path, (unsigned long long)d->hash.size,
			       (unsigned long long)l->hash_end);
	if (pair->root_size && pair->root_size != l->geo.digest_size) {
		char hex[2 * HT_MAX_DIGEST_SIZE + 1];

		verity_hex_encode(pair->root, pair->root_size, hex);
		return ht_fail(err, EINVAL,
			       "invalid root hash %s: %zu bytes, %s digests "
			       "have %u",
			       hex, pair->root_size, pair->params.hash_name,
			       l->geo.digest_size);
	}
	return 0;
}

/* format over an existing file that looks like data, not a tree: larger
 * than the data and than the tree about to be written, with no
 * superblock (nor an interrupted format's marker) at its start. The
 * data and hash given the other way round look so, and format would
 * write a small tree over the image. A whole regular file only (a block
 * device is what it is); the data's own file (a tree appended to it),
 * regions of an image and a tree placed at a hash offset (written in
 * place, into a larger file) are never this. */
static int refuse_swapped(const struct verity_pair *pair,
			  const struct verity_device *data,
			  struct ht_error *err)
{
	const struct verity_params *p = &pair->params;
	const struct verity_region *h = &pair->hash;
	struct verity_device d;
	struct stat st;
	uint8_t m[8];
	int looks_like_data;

	if (h->offset || h->length || h->extents || p->hash_offset ||
	    !pair->data.path || stat(h->path, &st) != 0 ||
	    !S_ISREG(st.st_mode) || (uint64_t)st.st_size <= data->size ||
	    (uint64_t)st.st_size <= pair->layout.hash_end ||
	    verity_path_same_storage(h->path, pair->data.path))
		return 0;
	if (verity_device_open(&d, h->path, VERITY_OPEN_READ, NULL))
		return 0;
	looks_like_data =
		d.size >= sizeof(m) &&
		!verity_device_read(&d, 0, m, sizeof(m), NULL) &&
		memcmp(m, "verity\0\0", 8) != 0 &&
		memcmp(m, VERITY_SB_UNFINISHED, sizeof(VERITY_SB_UNFINISHED)) !=
			0;
	verity_device_close(&d);
	if (!looks_like_data)
		return 0;
	return ht_fail(err, EINVAL,
		       "%s: %llu bytes with no verity superblock, larger than "
		       "the data %s (%llu bytes): are the data and hash "
		       "swapped? Nothing written; if it is the hash image, "
		       "delete it first",
		       h->path, (unsigned long long)st.st_size, data->path,
		       (unsigned long long)data->size);
}

/* The parity's region: for format the hash image itself when it names
 * the same region (the parity then goes into the same temporary file),
 * else an output; for the others, existing parity. */
static int open_fec(struct verity_pair *pair, enum verity_open_mode mode,
		    struct verity_devices *d, struct ht_error *err)
{
	const struct verity_region *f = &pair->fec.region, *h = &pair->hash;
	int r;

	if (mode == VERITY_OPEN_CREATE && f->offset == h->offset &&
	    f->length == h->length &&
	    (!strcmp(f->path, h->path) || verity_path_same(f->path, h->path))) {
		d->fec = d->hash;
		d->fec.tmp = d->fec.final = NULL;
		d->fec.path = f->path;
		d->fec.fd = fcntl(d->hash.fd, F_DUPFD_CLOEXEC, 0);
		r = d->fec.fd < 0 ? ht_fail(err, errno, "%s: %s", f->path,
					    strerror(errno))
				  : 0;
	} else if (mode == VERITY_OPEN_CREATE) {
		r = verity_device_open_format_output(
			&d->fec, f, "the FEC file", pair->data.path,
			pair->fec.offset, UINT64_MAX, err);
	} else {
		r = verity_device_open_beside(
			&d->fec, f, mode,
			d->hash.exclusive ? &d->hash : &d->data, err);
	}
	if (!r)
		r = verity_fec_attach(&pair->params, &pair->layout, &pair->fec,
				      mode, d, err);
	return r;
}

static void devices_init(struct verity_devices *d)
{
	memset(d, 0, sizeof(*d));
	d->data.fd = d->hash.fd = d->fec.fd = -1;
}

int verity_pair_open(struct verity_pair *pair, enum verity_open_mode hash_mode,
		     enum verity_open_mode fec_mode, struct verity_devices *d,
		     struct ht_error *err)
{
	struct verity_params *p = &pair->params;
	int create = hash_mode == VERITY_OPEN_CREATE;
	/* the parameters are validated here, once */
	int r = verity_params_validate(p, err);

	devices_init(d);
	if (!r)
		r = verity_device_open_region(
			&d->data, &pair->data,
			create || pair->data_read_only ? VERITY_OPEN_READ
						       : hash_mode,
			err);
	if (!r && !create)
		r = verity_device_open_beside(&d->hash, &pair->hash, hash_mode,
					      &d->data, err);
	if (!r)
		r = resolve_data_blocks(p, &d->data, err);
	if (!r)
		r = verity_layout_of(p, &pair->layout, err);
	if (!r && create)
		r = unaligned_tree(p, err);
	if (!r && create)
		r = refuse_swapped(pair, &d->data, err);
	/* format makes the hash image only once everything else is known
	 * good */
	if (!r && create)
		r = verity_device_open_format_output(
			&d->hash, &pair->hash, "the hash image",
			pair->data.path, p->hash_offset,
			pair->layout.hash_end, err);
	if (!r)
		r = check_overlap(&pair->layout, &d->data, &d->hash, err);
	if (!r)
		r = check_sizes(pair, d, create, err);
	if (!r && pair->fec.region.path)
		r = open_fec(pair, fec_mode, d, err);
	if (r)
		verity_pair_close(d);
	return r;
}

void verity_pair_close(struct verity_devices *d)
{
	verity_device_close(&d->fec);
	verity_device_close(&d->hash);
	verity_device_close(&d->data);
}
