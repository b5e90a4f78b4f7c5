/* The storage behind a name: a regular file (seen directly or through
 * loop devices and partitions) or a whole disk, and where a device's
 * byte 0 sits in it. Two names share bytes when their storage is the
 * same and their ranges meet, however they are named. */
#ifndef FV_STORAGE_BACKING_H
#define FV_STORAGE_BACKING_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct verity_backing {
	int is_file;    /* 1: file dev/ino; 0: whole disk rdev */
	dev_t dev;      /* file system of the file */
	ino_t ino;      /* the file */
	dev_t disk;     /* the whole disk */
	uint64_t start; /* where the device's byte 0 is in it */
	char via[96];   /* "", or how: "loop device of", "partition of" */
};

struct verity_device;

/* Follows partitions to their disk and loop devices to their backing
 * file or device, adding up the offsets. What cannot be followed stays
 * the block device itself. */
void verity_backing_resolve(struct verity_backing *b, dev_t rdev);

/* Who holds block device rdev, for a message: " (it is mounted on
 * /mnt)", " (held by dm-3, root)", or "" when sysfs and mountinfo do not
 * say. A whole disk is also held through its partitions. */
void verity_backing_holder(dev_t rdev, char *out, size_t len);

/* 1 when the two paths name the same existing file or block device
 * (after symlinks); 0 otherwise, also when either does not exist. */
int verity_path_same(const char *a, const char *b);
/* When two existing paths share their storage (the same file, a file and
 * a loop device of it, a disk and its partition, two loop devices of one
 * file): a phrase for messages, "" when they are the same name for it or
 * " (a loop device of the same file)"; NULL when they do not. */
const char *verity_path_same_storage(const char *a, const char *b);

/* The same file or block device (what the kernel and veritysetup call
 * the same device: one-file layouts). */
int verity_device_same(const struct verity_device *a,
		       const struct verity_device *b);
/* The same device and the same region of it (regions of one image at
 * different offsets, or of different lengths, are not). */
int verity_device_same_region(const struct verity_device *a,
			      const struct verity_device *b);
/* Whether bytes [a_off, a_off + a_len) of a and [b_off, b_off + b_len)
 * of b (offsets in their regions) are the same bytes of storage, however
 * the devices are named (a file and a loop device of it, a disk and its
 * partitions, two regions of one image). */
int verity_device_overlap(const struct verity_device *a, uint64_t a_off,
			  uint64_t a_len, const struct verity_device *b,
			  uint64_t b_off, uint64_t b_len);
/* "a" and "b" name the same storage: a phrase for messages, such as
 * "a loop device of", or "". */
const char *verity_device_via(const struct verity_device *a,
			      const struct verity_device *b);

#endif
