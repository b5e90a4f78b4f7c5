/* Android super images (dynamic partitions): liblp's metadata 10.0-10.2
 * read and checked (docs/android.md, "Factory images and super.img"):
 * the geometry and its backup, one metadata slot and its backup (the
 * backup read only when the primary's checksums do not match, and said:
 * an intact primary is what liblp maps, and is refused when malformed,
 * never replaced by its backup), partitions,
 * extents, groups and block devices; every field a later step trusts
 * checked first, each refusal naming the field.
 *
 * Hand-written: Debian packages no liblp (AOSP's is C++ over its own
 * file opener and base library, and says only "invalid metadata"). */
#ifndef FV_CONTAINER_SUPER_LP_H
#define FV_CONTAINER_SUPER_LP_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/storage/device.h"

#define LP_SECTOR          512u
#define LP_RESERVED        4096u /* bytes before the geometry */
#define LP_GEOMETRY_AREA   4096u /* each copy of the geometry */
#define LP_GEOMETRY_MAGIC  0x616c4467u
#define LP_GEOMETRY_SIZE   52u
#define LP_HEADER_MAGIC    0x414c5030u
#define LP_NAME_MAX        36u
#define LP_METADATA_OFFSET (LP_RESERVED + 2 * LP_GEOMETRY_AREA)
/* bounds a reader keeps (liblp's builder stays far below them) */
#define LP_MAX_METADATA (16u << 20)
#define LP_MAX_SLOTS    64u

enum lp_attribute {
	LP_ATTR_READONLY = 1u << 0,
	LP_ATTR_SLOT_SUFFIXED = 1u << 1,
	LP_ATTR_UPDATED = 1u << 2,  /* 10.1 */
	LP_ATTR_DISABLED = 1u << 3, /* 10.1 */
};

enum lp_target { LP_TARGET_LINEAR = 0, LP_TARGET_ZERO = 1 };

struct lp_partition {
	char name[LP_NAME_MAX + 1];
	uint32_t attributes;
	uint32_t first_extent, num_extents;
	uint32_t group;
	uint64_t size; /* bytes: its extents' sectors */
};

struct lp_extent {
	uint64_t sectors;
	uint32_t type;   /* enum lp_target */
	uint64_t target; /* linear: the first sector on the block device */
	uint32_t source; /* linear: the block device's index */
};

struct lp_group {
	char name[LP_NAME_MAX + 1];
	uint32_t flags; /* bit 0: slot-suffixed */
	uint64_t max_size;
};

struct lp_block_device {
	uint64_t first_sector; /* the first sector partitions may use */
	uint32_t alignment, alignment_offset;
	uint64_t size;
	char name[LP_NAME_MAX + 1];
	uint32_t flags; /* bit 0: slot-suffixed */
};

struct lp_metadata {
	/* the geometry */
	uint32_t max_size;   /* of one copy of one slot's metadata */
	uint32_t slots;      /* metadata slots */
	uint32_t block_size; /* logical block size */
	int geometry_backup; /* read from the backup copy */
	/* the slot read */
	uint32_t slot;
	int backup; /* read from the backup copy */
	uint16_t major, minor;
	uint32_t header_size, tables_size, flags;
	struct lp_partition *p;
	struct lp_extent *e;
	struct lp_group *g;
	struct lp_block_device *b;
	uint32_t np, ne, ng, nb;
	/* what was read from a backup, and why, for the caller to say
	 * ("" when nothing was) */
	char note[2][256];
};

/* 1 when d's bytes (a super image, unsparsed) carry a geometry magic in
 * either copy. */
int verity_lp_probe(const struct verity_device *d);

/* Reads metadata slot slot of the super image d (its unsparsed bytes;
 * path names it in messages): the geometry (its backup when the primary
 * fails), the slot's primary copy when its checksums match, else its
 * backup, every table checked (bounds, entry sizes, indexes, attributes,
 * names given once, extents inside their block device and outside the
 * metadata, no extent shared or overlapping another, block device 0
 * inside d).
 * -EINVAL naming the field; d's read errors. */
int verity_lp_read(const struct verity_device *d, const char *path,
		   uint32_t slot, struct lp_metadata *m, struct ht_error *err);
void verity_lp_free(struct lp_metadata *m);

/* The partition named name, or -1. */
int verity_lp_find(const struct lp_metadata *m, const char *name);

/* Byte off of partition i (off < its size) as the block device and the
 * byte on it that hold it: 0, or -1 for a zero extent (nothing holds
 * it). */
int verity_lp_locate(const struct lp_metadata *m, uint32_t i, uint64_t off,
		     uint32_t *device, uint64_t *at);

/* Whether a partition name can be named in a path (SUPER/NAME): 1-36
 * printable ASCII bytes, no '/', not "." or "..". The metadata takes
 * more (liblp takes any bytes up to the first NUL): such a partition is
 * read, shown escaped, and not looked up by path. */
int verity_lp_name_ok(const char *name);

/* The metadata slot a partition name's slot suffix stands for: 0 for
 * "_a", 1 for "_b", -1 for none (liblp's SlotNumberForSlotSuffix). */
int verity_lp_suffix_slot(const char *name);

/* 1 when m is an A/B image's: a partition is named with a slot suffix.
 * A name without one then stands for the slot's NAME_<slot> (a device
 * maps that one: fstab's slotselect), never for a partition NAME. */
int verity_lp_ab(const struct lp_metadata *m);

#endif
