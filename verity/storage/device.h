/* Images and block devices, and regions of them: open, size, full reads
 * and writes at 64-bit offsets. Every message names the path. */
#ifndef FV_STORAGE_DEVICE_H
#define FV_STORAGE_DEVICE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hashtree/error.h"
#include "verity/storage/backing.h"

struct verity_extents;

/* Bytes [offset, offset + length) of a file or block device: where a
 * container keeps data, tree or parity (an Android image holds all three
 * in one partition, a disk image holds partitions). A whole file is the
 * region at offset 0 of length 0. */
struct verity_region {
	const char *path; /* NULL: none */
	uint64_t offset;  /* where the region starts in the file or device */
	uint64_t length;  /* its bytes; 0: up to the end */
	/* NULL: the file's bytes. Else the file is a source of extents (an
	 * Android sparse image) and offset and length are in its logical
	 * bytes (verity/storage/extents.h); the caller keeps them. */
	const struct verity_extents *extents;
};

struct verity_device {
	int fd;
	const char *path;
	uint64_t base; /* the region's offset in the file or device */
	uint64_t size; /* the region's bytes (the file's or device's size,
			* less base, when the region goes to the end) */
	int bounded;   /* a region of a given length: nothing past size is
			* read or written */
	int is_block;
	dev_t dev;
	ino_t ino;
	dev_t rdev;
	struct verity_backing backing;
	int exclusive; /* a block device opened with O_EXCL (written to) */
	/* an output written whole: the temporary file written, and the
	 * path it replaces on commit (both NULL otherwise) */
	char *tmp;
	char *final;
	int anonymous;   /* tmp not yet made: an O_TMPFILE file until commit */
	char reopen[32]; /* /proc/self/fd/N (verity_device_output_path) */
	/* a source of extents: base and size are in its logical bytes,
	 * reads go through it and writes only to its file extents; NULL:
	 * the file's own bytes */
	const struct verity_extents *src;
	struct verity_extents *src_owned; /* freed on close */
};

enum verity_open_mode {
	VERITY_OPEN_READ,
	VERITY_OPEN_WRITE,  /* read-write, the file must exist */
	VERITY_OPEN_CREATE, /* read-write, a missing file is made with 0600 */
};

/* The whole file or block device at path. -ENODEV for a missing or
 * inaccessible path (exit code 4), -ENOTBLK for a directory or character
 * device, -EINVAL for a FIFO or socket (never waited on), -EBUSY for a
 * block device another user holds when writing. A block device opened
 * for writing is held exclusively. */
int verity_device_open(struct verity_device *d, const char *path,
		       enum verity_open_mode mode, struct ht_error *err);
/* The same for region r of its file or device: an existing region must
 * lie inside it (-EINVAL naming both sizes); a region being created
 * (VERITY_OPEN_CREATE) may go past the end of a file. Offsets given to
 * verity_device_read/write are then from the region's start. */
int verity_device_open_region(struct verity_device *d,
			      const struct verity_region *r,
			      enum verity_open_mode mode, struct ht_error *err);
/* verity_device_open_region, but a block device that held (may be NULL)
 * already holds exclusively is shared (a second exclusive open of it
 * would fail): one device holding data and tree, or tree and parity. */
int verity_device_open_beside(struct verity_device *d,
			      const struct verity_region *r,
			      enum verity_open_mode mode,
			      const struct verity_device *held,
			      struct ht_error *err);
/* Makes d, opened whole on the file, the source x of its logical bytes
 * (owned: freed on close, also on failure). */
int verity_device_take_source(struct verity_device *d, struct verity_extents *x,
			      struct ht_error *err);
/* Closes d; an output not committed is removed (its temporary file). */
void verity_device_close(struct verity_device *d);

/* Reads len bytes at off of the region: -EIO is an error of the medium
 * (the bytes cannot be read), -ENODATA the end of the device, file or
 * region, other errors their errno. */
int verity_device_read(const struct verity_device *d, uint64_t off, void *buf,
		       size_t len, struct ht_error *err);
int verity_device_write(const struct verity_device *d, uint64_t off,
			const void *buf, size_t len, struct ht_error *err);
/* Reads [off, off + len) of the region into the page cache, unless its
 * last byte is there already (a hint: nothing is returned; the reader
 * ahead of the tree's workers). */
void verity_device_prefetch(const struct verity_device *d, uint64_t off,
			    uint64_t len);
/* fsync: what was written is on the medium (-EIO when it is not). */
int verity_device_flush(const struct verity_device *d, struct ht_error *err);
/* a and b flushed at once (b's on a thread of its own: two files' flushes
 * wait for the disk once, not one after the other); b NULL, or a's
 * file: a alone. The error is b's, else a's. */
int verity_device_flush_both(const struct verity_device *a,
			     const struct verity_device *b,
			     struct ht_error *err);

/* "a directory", "a FIFO"...: what a file of mode m is, for messages. */
const char *verity_file_kind(mode_t m);

#endif
