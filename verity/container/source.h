/* What the operations read a pair's regions through, and how an image's
 * path is opened for reading: a file's own bytes, an Android sparse
 * image's unsparsed bytes (its chunk list), or a logical partition of a
 * super image named through it (super.img/system_a). Below every
 * container that reads images by path; the registry (verity/api/
 * registry.h) decides what an image is, above them all. */
#ifndef FV_CONTAINER_SOURCE_H
#define FV_CONTAINER_SOURCE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/container/sparse/sparse.h"
#include "verity/storage/device.h"

struct verity_pair;

/* The file at path opened for reading as the bytes it holds: an Android
 * sparse image's unsparsed bytes (its chunk list read and checked, each
 * refusal naming the chunk), any other file's own. *sparse says which
 * (may be NULL). verity_device_open's errors, and the sparse reader's. */
int verity_container_open(struct verity_device *d, const char *path,
			  int *sparse, struct ht_error *err);

/* What a pair's regions are read through while an operation runs. */
#define VERITY_SOURCES_MAX 3
struct verity_sources {
	struct verity_sparse sparse[VERITY_SOURCES_MAX];
	/* a logical partition's extents (a path through a super image),
	 * in place of sparse[i] */
	struct verity_extents *part[VERITY_SOURCES_MAX];
	const char *path[VERITY_SOURCES_MAX];
	size_t n;
};

/* 1 when the pair's files are read as they are, never through a source:
 * an image with sidecar files, whose data veritysetup, systemd and the
 * kernel take as the file's own bytes (an Android sparse image's too,
 * not its unsparsed ones). */
int verity_container_as_is(const struct verity_pair *pair);
/* Every region of pair (data, hash, parity) whose file is an Android
 * sparse image, or whose path names a logical partition through its
 * super image (IMAGE/NAME), is read through its chunk list or the
 * partition's extents (offsets and lengths are
 * then its unsparsed bytes'), read once per file into s; end with
 * verity_container_sources_end. None for a pair read as it is
 * (verity_container_as_is). The sparse reader's errors. */
int verity_container_sources(struct verity_pair *pair, struct verity_sources *s,
			     struct ht_error *err);
/* The same for one region. */
int verity_container_region_source(struct verity_region *r,
				   struct verity_sources *s,
				   struct ht_error *err);
/* The pair's regions back to files, s freed. */
void verity_container_sources_end(struct verity_pair *pair,
				  struct verity_sources *s);
/* 1 when one of the pair's regions reads through a source. */
int verity_container_has_sources(const struct verity_pair *pair);

#endif
