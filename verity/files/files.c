/* The files around pairs (verity/files/files.h). */
#include "verity/files/files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/sidecar.h"
#include "verity/container/source.h"
#include "verity/container/sparse/sparse.h"
#include "verity/storage/file.h"
#include "verity/tree/params.h"
#include "verity/tree/superblock.h"

#define ROOT_FILE_MAX 4096

int verity_files_root_read(const char *path, char *hex, size_t size,
			   struct ht_error *err)
{
	uint8_t *text;
	size_t len, bad;
	int r;

	r = verity_read_file(path, "root hash file", ROOT_FILE_MAX, &text, &len,
			     err);
	if (r)
		return r == -ENOENT ? -EINVAL : r;
	r = verity_root_text_parse(text, len, hex, size, &bad);
	free(text);
	if (r && bad)
		return ht_fail(err, EINVAL,
			       "%s: invalid root hash string specified: byte "
			       "%zu is not a hex digit (the file holds the hex "
			       "root hash, and nothing after it but white "
			       "space)",
			       path, bad);
	if (r)
		return ht_fail(err, EINVAL,
			       "%s: invalid root hash string specified (more "
			       "than %zu hex digits)",
			       path, size ? size - 1 : 0);
	return 0;
}

int verity_files_bytes_at(const struct verity_device *d, uint64_t off,
			  const void *want, size_t n)
{
	uint8_t m[8];

	return n <= sizeof(m) && off + n <= d->size &&
	       !verity_device_read(d, off, m, n, NULL) && !memcmp(m, want, n);
}

enum verity_files_sb verity_files_superblock_at(const char *path,
						uint64_t offset)
{
	struct verity_device d;
	enum verity_files_sb at = VERITY_FILES_SB_NONE;

	if (!path || verity_container_open(&d, path, NULL, NULL))
		return VERITY_FILES_SB_NONE;
	if (verity_files_bytes_at(&d, offset, "verity\0\0", 8))
		at = VERITY_FILES_SB_FOUND;
	else if (verity_files_bytes_at(&d, offset, VERITY_SB_UNFINISHED,
				       sizeof(VERITY_SB_UNFINISHED)))
		at = VERITY_FILES_SB_UNFINISHED;
	else if (verity_files_bytes_at(&d, offset, VERITY_SB_UPDATING,
				       sizeof(VERITY_SB_UPDATING)))
		at = VERITY_FILES_SB_UPDATING;
	verity_device_close(&d);
	return at;
}

/* At most this many places are looked at: one per 4 KiB of the last
 * part of the image, where format --hash-offset puts an appended tree's
 * superblock (the tree of 4 KiB blocks and sha256 is 1/127 of the
 * data). */
#define SCAN_MAX 16384

int verity_files_superblock_find(const char *path, uint64_t skip,
				 uint64_t *offset, struct ht_error *err)
{
	struct verity_device h;
	uint64_t from;
	int r;

	if ((r = verity_container_open(&h, path, NULL, err)))
		return r;
	from = h.size - h.size / 64;
	from -= from % 4096;
	if (h.size / 64 / 4096 > SCAN_MAX)
		from = h.size - (uint64_t)SCAN_MAX * 4096;
	r = -ENOENT;
	for (uint64_t off = from; off + 512 <= h.size; off += 4096)
		if (off != skip &&
		    verity_files_bytes_at(&h, off, "verity\0\0", 8)) {
			*offset = off;
			r = 0;
			break;
		}
	verity_device_close(&h);
	return r ? ht_fail(err, ENOENT,
			   "%s: no superblock where an appended tree's "
			   "would be",
			   path)
		 : 0;
}

int verity_files_superblock_read(struct verity_pair *pair, uint64_t hash_offset,
				 int update, struct verity_params *p,
				 struct ht_error *err)
{
	struct verity_sources s = {0};
	int r, updating;

	verity_params_default(p);
	p->hash_offset = hash_offset;
	if ((r = verity_container_region_source(&pair->hash, &s, err)))
		return r;
	r = update ? verity_read_superblock_update(&pair->hash, p, &updating,
						   err)
		   : verity_read_superblock(&pair->hash, p, err);
	verity_container_sources_end(pair, &s);
	return r;
}

int verity_files_sidecar_prune(const char *image, int keep_signature,
			       int keep_fec, unsigned *removed,
			       struct ht_error *err)
{
	struct verity_sidecar side;
	struct verity_pair pair;
	unsigned gone = 0;
	int r;

	if ((r = verity_sidecar_names(image, &side, err)))
		return r;
	memset(&pair, 0, sizeof(pair));
	if (keep_fec)
		pair.fec.region.path = side.fec;
	r = verity_sidecar_prune(&side, &pair, keep_signature, &gone, err);
	verity_sidecar_free(&side);
	if (removed)
		*removed = gone;
	return r;
}

int verity_files_size(const char *path, uint64_t *size, struct ht_error *err)
{
	struct verity_device d;
	int r;

	if ((r = verity_device_open(&d, path, VERITY_OPEN_READ, err)))
		return r;
	*size = d.size;
	verity_device_close(&d);
	return 0;
}

int verity_files_sparse_crc(const char *path, unsigned *sums,
			    struct ht_error *err)
{
	struct verity_device d;
	struct verity_sparse sp;
	int r;

	if (sums)
		*sums = 0;
	if ((r = verity_device_open(&d, path, VERITY_OPEN_READ, err)))
		return r;
	if (!verity_sparse_magic(&d)) {
		verity_device_close(&d);
		return 1;
	}
	if (!(r = verity_sparse_read(&d, path, &sp, err))) {
		r = verity_sparse_check_crc(&d, path, &sp, err);
		if (!r && sums)
			*sums = sp.crc_chunks + (sp.image_crc != 0);
		verity_sparse_free(&sp);
	}
	verity_device_close(&d);
	return r;
}
