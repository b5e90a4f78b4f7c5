/* Image files and block devices: open, size, full reads and writes at
 * 64-bit offsets. Every message names the path. */
#ifndef FV_DEVICE_H
#define FV_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../hashtree/error.h"

/* Where a device's bytes really live: a regular file (seen directly or
 * through loop devices and partitions), or a whole disk. */
struct verity_backing {
	int is_file;   /* 1: file dev/ino; 0: whole disk rdev */
	dev_t dev;     /* file system of the file */
	ino_t ino;     /* the file */
	dev_t disk;    /* the whole disk */
	uint64_t start; /* where the device's byte 0 is in it */
	char via[96];   /* "", or how: "loop device of", "partition of" */
};

struct verity_device {
	int fd;
	const char *path;
	uint64_t size;
	int is_block;
	dev_t dev;
	ino_t ino;
	dev_t rdev;
	struct verity_backing backing;
};

enum verity_open_mode {
	VERITY_OPEN_READ,
	VERITY_OPEN_WRITE,  /* read-write, the file must exist */
	VERITY_OPEN_CREATE, /* read-write, a missing file is made with 0600 */
};

/* -ENODEV for a missing or inaccessible path (exit code 4). */
int verity_device_open(struct verity_device *d, const char *path,
		       enum verity_open_mode mode, struct fv_error *err);
void verity_device_close(struct verity_device *d);
/* The same file or block device (what the kernel and veritysetup call
 * the same device: one-file layouts). */
int verity_device_same(const struct verity_device *a,
		       const struct verity_device *b);
/* Whether bytes [a_off, a_off + a_len) of a and [b_off, b_off + b_len)
 * of b are the same bytes of storage, however the devices are named (a
 * file and a loop device of it, a disk and its partitions). */
int verity_device_overlap(const struct verity_device *a, uint64_t a_off,
			  uint64_t a_len, const struct verity_device *b,
			  uint64_t b_off, uint64_t b_len);
/* "a" and "b" name the same storage: a phrase for messages, such as
 * " (a loop device of the same file)", or "". */
const char *verity_device_via(const struct verity_device *a,
			      const struct verity_device *b);
int verity_device_read(const struct verity_device *d, uint64_t off, void *buf,
		       size_t len, struct fv_error *err);
int verity_device_write(const struct verity_device *d, uint64_t off,
			const void *buf, size_t len, struct fv_error *err);

/* Reads a whole small input file (a root hash, a signature, a key or a
 * certificate): a regular file of at most max bytes, opened without
 * blocking (a FIFO is refused, never waited on). *out is malloc'd with a
 * NUL after the last byte. what names the file in messages ("signature
 * file"). -EINVAL: missing, not a regular file, or too large; -EIO. */
int verity_read_file(const char *path, const char *what, size_t max,
		     uint8_t **out, size_t *len, struct fv_error *err);

#endif
