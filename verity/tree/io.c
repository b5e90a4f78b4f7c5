/* The tree's I/O over devices: data read or mapped (holes of sparse
 * files skipped), tree blocks read and written at the tree offset; shared
 * by format, verify and repair. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verity/tree/io.h"

#include "verity/storage/extents.h"

static int io_read_data(void *c, uint64_t off, void *buf, size_t len,
			struct ht_error *err)
{
	const struct verity_io_ctx *ctx = c;

	return verity_device_read(ctx->data, off, buf, len, err);
}

static int io_read_tree(void *c, uint64_t off, void *buf, size_t len,
			struct ht_error *err)
{
	const struct verity_io_ctx *ctx = c;

	return verity_device_read(ctx->hash, ctx->tree_offset + off, buf, len,
				  err);
}

/* The tree's writeback is started this much at a time (see below). */
#define WRITEBACK_BYTES ((uint64_t)1 << 20)

static int io_write_tree(void *c, uint64_t off, const void *buf, size_t len,
			 struct ht_error *err)
{
	const struct verity_io_ctx *ctx = c;
	int r = verity_device_write(ctx->hash, ctx->tree_offset + off, buf, len,
				    err);

	/* writeback of each whole MiB of the tree started once a write
	 * ends in the next, while the workers hash on, so that the final
	 * fsync finds little left (17 MiB of tree for 256 MiB at 512-byte
	 * blocks); a MiB at a time, not each write's 256 KiB, as fewer
	 * and larger requests to the disk cost less CPU (3 ms less of
	 * 133 ms there). A hint: the fsync reports any error, and writes
	 * that come later are its own. */
	uint64_t from = off / WRITEBACK_BYTES * WRITEBACK_BYTES;
	uint64_t to = (off + len) / WRITEBACK_BYTES * WRITEBACK_BYTES;

	if (!r && to > from && !ctx->hash->src)
		sync_file_range(
			ctx->hash->fd,
			(off_t)(ctx->hash->base + ctx->tree_offset + from),
			(off_t)(to - from), SYNC_FILE_RANGE_WRITE);
	return r;
}

/* A source's extents (an Android sparse image's chunks): a FILL or
 * DONT_CARE chunk is a uniform run, hashed once, not read. */
static int source_extent(const struct verity_device *d, uint64_t off,
			 int *is_hole, uint32_t *pattern, uint64_t *end)
{
	uint64_t at = d->base + off;
	const struct verity_extent *e;

	if (at >= d->src->size)
		return -EINVAL;
	e = verity_extents_at(d->src, at);
	*is_hole = e->kind != VERITY_EXTENT_FILE;
	*pattern = verity_extent_pattern_at(e, at - e->logical);
	*end = e->logical + e->length - d->base;
	return 0;
}

/* Holes of a sparse data file read as zeros: their blocks need no read.
 * Offsets in the region (the file's, less its base). */
static int io_data_extent(void *c, uint64_t off, int *is_hole,
			  uint32_t *pattern, uint64_t *end)
{
	const struct verity_io_ctx *ctx = c;
	uint64_t base = ctx->data->base;

	*pattern = 0;
	if (ctx->data->src)
		return source_extent(ctx->data, off, is_hole, pattern, end);
	off_t data = lseek(ctx->data->fd, (off_t)(base + off), SEEK_DATA);

	if (data < 0) {
		struct stat st;

		if (errno != ENXIO)
			return -errno; /* no SEEK_DATA here: treat as data */
		/* no data after off: a hole to the end, unless the file
		 * shrank (then reading fails and says so) */
		if (fstat(ctx->data->fd, &st) < 0 ||
		    (uint64_t)st.st_size < base + ctx->data->size)
			return -EIO;
		*is_hole = 1;
		*end = UINT64_MAX;
		return 0;
	}
	if ((uint64_t)data > base + off) {
		*is_hole = 1;
		*end = (uint64_t)data - base;
		return 0;
	}
	off_t hole = lseek(ctx->data->fd, (off_t)(base + off), SEEK_HOLE);
	if (hole < 0 || (uint64_t)hole <= base + off)
		return -EIO;
	*is_hole = 0;
	*end = (uint64_t)hole - base;
	return 0;
}

/* Mapping avoids copying the data out of the page cache (a library
 * option; a file that shrinks while mapped raises SIGBUS in the program).
 * Offsets in the region. */
static const uint8_t *io_map_data(void *c, uint64_t off, size_t len)
{
	const struct verity_io_ctx *ctx = c;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t base;

	off += ctx->data->base;
	base = off - off % page;
	void *p = mmap(NULL, len + (off - base), PROT_READ,
		       MAP_SHARED | MAP_POPULATE, ctx->data->fd, (off_t)base);

	if (p == MAP_FAILED)
		return NULL;
	return (const uint8_t *)p + (off - base);
}

static void io_unmap_data(void *c, const uint8_t *p, size_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uintptr_t at = (uintptr_t)p, base = at - at % page;

	(void)c;
	munmap((void *)base, len + (at - base));
}

/* Offsets in the region. */
static void io_prefetch(void *c, uint64_t off, uint64_t len)
{
	verity_device_prefetch(((const struct verity_io_ctx *)c)->data, off,
			       len);
}

int verity_data_unchanged(const struct verity_device *data,
			  const struct verity_layout *l, struct ht_error *err)
{
	struct stat st;

	if (data->is_block || data->src || fstat(data->fd, &st) < 0 ||
	    (uint64_t)st.st_size >= data->base + l->data_bytes)
		return 0;
	return ht_fail(err, EIO,
		       "%s: the file shrank to %llu bytes while it was being "
		       "read (the data area has %llu)",
		       data->path, (unsigned long long)st.st_size,
		       (unsigned long long)l->data_bytes);
}

void verity_io_init(struct ht_io *io, struct verity_io_ctx *ctx)
{
	memset(io, 0, sizeof(*io));
	io->ctx = ctx;
	io->read_data = io_read_data;
	io->read_tree = io_read_tree;
	io->write_tree = io_write_tree;
	io->prefetch = io_prefetch;
	if (!ctx->data->is_block) {
		io->data_extent = io_data_extent;
		/* a source's bytes are not the file's: read, not mapped */
		if (!ctx->data->src) {
			io->map_data = io_map_data;
			io->unmap_data = io_unmap_data;
		}
	}
	posix_fadvise(ctx->data->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}
