/* What each walk of an image given alone takes of the options the
 * caller was given (fv_show's VERIFY, REPAIR, PAIR: dump, OPEN with an
 * open request and no pair): what it does not take refused, in the
 * words of fastverity's options, and what it runs with. */
#ifndef FV_IMAGE_TAKES_H
#define FV_IMAGE_TAKES_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/container/sidecar.h"
#include "verity/image/alone.h"
#include "verity/show/show.h"

/* The walk's request, finished from the caller's. */
struct verity_alone_takes {
	struct fv_open_request rq;  /* q's open request, finished */
	struct fv_slot_request set; /* a set's, a super image's */
	fv_options o;               /* the options the walk starts with */
	const fv_options *from;     /* the caller's */
	unsigned flags;             /* open's, its policies whole */
	int super;             /* open's: a super image's logical partition */
	int own;               /* the caller's own walk: 2 a super image's
				* logical partition */
	uint64_t max;          /* failures listed */
	const char *partition; /* a disk image's role asked */
	const char *one[1];
	const char **names, **files; /* --block-device's, split */
	size_t n;
	int said; /* the walk said (verity_image_alone_said) */
	/* an image with sidecar files: their names, the tree's parameters
	 * given (rq's params when no superblock is read) and the tree the
	 * door reads (dump: the image itself when it is one) */
	struct verity_sidecar side;
	fv_params params;
	const char *tree;
};

/* What the walk a of q's image takes of q (its options, name and value
 * pairs: the tree's parameters, the parity's, root-hash-file,
 * root-hash-signature, partition, slot, block-device, max-failures,
 * threads, uuid, check-crc, no-superblock, error-as-corruption; its o:
 * the anchor, the run, repair's and open's flags; an image with sidecar
 * files: its pair's request made of them and of the files beside it,
 * explicit options first, or for dump its tree's), into t (freed with
 * verity_image_alone_takes_free, also after an error): 0, or -EINVAL
 * (-ENOMEM) with what is refused, naming the option. */
int verity_image_alone_takes(const struct fv_show_request *q,
			     const struct verity_alone *a,
			     struct verity_alone_takes *t,
			     struct ht_error *err);
/* The options a pair of q's image runs with, judged (path: its name,
 * pairs: the image's), into run, without the anchor the open judged
 * with: 0, or -EINVAL refusing what it does not
 * take (repair: one of several; open: a super image's partition's tree
 * options; a count not a number). */
int verity_image_alone_runs(const struct fv_show_request *q,
			    const struct verity_alone_takes *t,
			    const char *path, size_t pairs, fv_options *run,
			    struct ht_error *err);
/* A walk of an image given alone (the caller's, fv_show's, showing
 * through sh): its return into *walked. */
struct verity_alone_again {
	int (*walk)(const struct fv_show_request *q, struct show *sh);
	struct show *sh;
	int *walked;
};
/* A super image's logical partition walked by its path (t's own 2: dump
 * and repair): q's partition of its slot's metadata (a: 0; b: 1, read
 * after slot 0 as the device booting it does), NAME_<slot> on an A/B
 * image; the metadata's notes and the name it is, when not the one
 * asked, said through said (warnings); then again's walk of q for its
 * path, IMAGE/NAME, as any image given alone, without --partition,
 * --slot or --container (a fresh open request, q's action and said): 0
 * and the walk's return in *again->walked, or -errno before it
 * (ENOENT: no such partition). */
int verity_image_alone_partition(const struct fv_show_request *q,
				 struct verity_alone_takes *t, fv_item_fn said,
				 void *ctx,
				 const struct verity_alone_again *again,
				 struct ht_error *err);
void verity_image_alone_takes_free(struct verity_alone_takes *t);

#endif
