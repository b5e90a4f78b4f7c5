/* Android super images as a container (docs/android.md, "Factory images
 * and super.img"): the image (raw or sparse) and its other block devices
 * opened, one metadata slot read (verity/container/super/lp.h), and a
 * logical partition's bytes made a source of extents
 * (verity/storage/extents.h) over them, so that every reader of images
 * reads a logical partition as it reads a file.
 *
 * A logical partition is also named by a path through the image:
 * "super.img/system_a" cannot name a file (super.img is not a
 * directory), and names partition system_a of super.img wherever an
 * image is read. */
#ifndef FV_CONTAINER_SUPER_H
#define FV_CONTAINER_SUPER_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/container/super/lp.h"
#include "verity/storage/device.h"
#include "verity/storage/extents.h"

struct verity_super {
	char *path;
	struct verity_device d; /* the image, its unsparsed bytes */
	int sparse;
	struct lp_metadata m;
	/* block devices 1.. (a split super), opened raw; files[k - 1] is
	 * block device k's */
	struct verity_device *other;
	const struct verity_device **files;
	char **other_path;
	uint32_t nother;
	/* the slots whose primary copy failed, said (note[1]'s kind),
	 * besides the one read */
	char (*slot_notes)[256];
	uint32_t nslot_notes;
};

/* Opens the super image at path and reads metadata slot slot. Block
 * devices past the first are the files given for their names (names[i]
 * = files[i], n of them), else <dir>/<name>.img beside the image; one
 * neither given nor beside is refused, naming it. Every other slot's
 * metadata is read too: a slot that reads in neither copy is refused, a
 * backup read is noted. -EINVAL naming the field; open errors. */
int verity_super_open(struct verity_super *s, const char *path,
		      const char *const *names, const char *const *files,
		      size_t n, uint32_t slot, struct ht_error *err);
void verity_super_close(struct verity_super *s);

/* Partition i's bytes as extents over the image's file (file 0) and the
 * other block devices' (s->files): the image's own sparse chunks
 * followed, zero extents as zeros. x borrows s's devices: s outlives
 * it. */
int verity_super_extents(const struct verity_super *s, uint32_t i,
			 struct verity_extents *x, struct ht_error *err);

/* The partition a path through a super image names: 1 and *image (the
 * image's path, to free) and *name (into path) when path is
 * IMAGE/NAME with IMAGE an existing file or block device (so path is no
 * file); 0 otherwise. */
int verity_super_split_path(const char *path, char **image, const char **name);

/* A path through a super image (verity_super_split_path) opened: *x the
 * partition's extents, owning the image it reads (freed with
 * verity_extents_free), *file the file its extents' file 0 is (owned by
 * x's image: valid as long as x). The partition must have extents. A
 * name with a slot suffix is read from that slot's metadata (liblp's
 * rule), slot 0's on an image of one slot.
 * 1 when path is not such a path (nothing set); the super reader's
 * errors (*x NULL), -ENOENT naming the partition the image does not
 * have. */
int verity_super_open_path(const char *path, struct verity_extents **x,
			   const char **file, struct ht_error *err);

/* The partition name stands for in metadata m (read for slot
 * m->slot): name itself when it carries a slot suffix or the image is
 * not A/B, else NAME_<slot> (verity_lp_ab); *picked says which. Its
 * index, or -ENOENT. */
int verity_super_pick(const struct lp_metadata *m, const char *name,
		      char *picked, size_t len);

/* The logical partition name stands for (verity_super_pick) in
 * dir/super.img (dir NULL: the working directory), read for metadata
 * slot slot (slot 0 on an image of one slot), as a path through it
 * (dir/super.img/system_a, to free); NULL when there is none or it is
 * empty. */
char *verity_super_beside(const char *dir, const char *name, uint32_t slot);

/* fv_file's FV_FILE_SUPER_EXTRACT: partition name of metadata slot slot
 * of the super image at image written whole to out, crash-safe (a
 * temporary renamed over out once flushed); out is none of the image's
 * files. -EINVAL, -ENOENT naming the partition, the reader's and the
 * output's errors. */
int verity_super_extract(const char *image, uint64_t slot, const char *name,
			 const char *out, struct ht_error *err);

#endif
