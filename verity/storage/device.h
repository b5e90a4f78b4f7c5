/* Image files and block devices: open, size, full reads and writes at
 * 64-bit offsets. Every message names the path. */
#ifndef FV_DEVICE_H
#define FV_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hashtree/error.h"

/* Where a device's bytes really live: a regular file (seen directly or
 * through loop devices and partitions), or a whole disk. */
struct verity_backing {
	int is_file;    /* 1: file dev/ino; 0: whole disk rdev */
	dev_t dev;      /* file system of the file */
	ino_t ino;      /* the file */
	dev_t disk;     /* the whole disk */
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
	int exclusive; /* a block device opened with O_EXCL (written to) */
	/* an output written whole: the temporary file written, and the
	 * path it replaces on commit (both NULL otherwise) */
	char *tmp;
	char *final;
};

enum verity_open_mode {
	VERITY_OPEN_READ,
	VERITY_OPEN_WRITE,  /* read-write, the file must exist */
	VERITY_OPEN_CREATE, /* read-write, a missing file is made with 0600 */
};

/* -ENODEV for a missing or inaccessible path (exit code 4). */
int verity_device_open(struct verity_device *d, const char *path,
		       enum verity_open_mode mode, struct fv_error *err);
/* verity_device_open, but a block device that held (may be NULL) already
 * holds exclusively is shared (a second exclusive open of it would fail):
 * one device holding data and tree, or tree and parity. */
int verity_device_open_beside(struct verity_device *d, const char *path,
			      enum verity_open_mode mode,
			      const struct verity_device *held,
			      struct fv_error *err);
/* Closes d; an output not committed is removed (its temporary file). */
void verity_device_close(struct verity_device *d);

/* An output file written whole: a new file, or a regular file replaced,
 * is written as a temporary file in the same directory (the mode and
 * owner of the file it replaces, or new_mode less the umask) and renamed over
 * path by verity_device_commit(), so that an interrupted run leaves the old
 * file as it was. Paths that are block devices are opened in place. */
int verity_device_open_output(struct verity_device *d, const char *path,
			      const char *what, mode_t new_mode,
			      struct fv_error *err);
/* format's outputs: in place when path is a block device, the data file
 * itself (one-file layout) or an existing file written from offset > 0;
 * otherwise whole, through verity_device_open_output (new: 0600). */
int verity_device_open_format_output(struct verity_device *d, const char *path,
				     const char *what, const char *data_path,
				     uint64_t offset, struct fv_error *err);
/* Makes an output durable and visible under its name: fsync, rename over
 * the old file, fsync of the directory. A no-op for devices opened in
 * place (beyond fsync). */
int verity_device_commit(struct verity_device *d, struct fv_error *err);
/* Commits two outputs: both flushed at once, then a renamed, then b, so
 * that b never shows under its name before a does. */
int verity_device_commit_pair(struct verity_device *a, struct verity_device *b,
			      struct fv_error *err);
/* 1 when the two paths name the same existing file or block device
 * (after symlinks); 0 otherwise, also when either does not exist. */
int verity_path_same(const char *a, const char *b);
/* When two existing paths share their storage (the same file, a file and
 * a loop device of it, a disk and its partition, two loop devices of one
 * file): a phrase for messages, "" when they are the same name for it or
 * " (a loop device of the same file)"; NULL when they do not. */
const char *verity_path_same_storage(const char *a, const char *b);
/* Writes a small file whole (temporary file, fsync, rename): the root
 * hash, a signature. A new file gets mode 0644 less the umask. */
int verity_write_file(const char *path, const char *what, const void *buf,
		      size_t len, struct fv_error *err);
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
/* Reads len bytes at off: -EIO is an error of the medium (the bytes
 * cannot be read), -ENODATA the end of the device or file, other errors
 * their errno. */
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
