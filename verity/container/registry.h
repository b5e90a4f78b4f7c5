/* The registry: the one place that decides what an image given alone is
 * (docs/trust.md, "The registry"). One row a container, tried in one
 * documented order: sparse, Android super image (liblp geometry), Android (AVB
 * footer), systemd disk image (GPT), sidecar
 * files, and plain pairs, which are never an image alone. An image that
 * reads two ways (a GPT disk image with an AVB footer; a disk image or
 * Android image with a sidecar tree beside it) is refused unless the
 * caller names the container: the library never picks one reading over
 * another that would be judged differently. */
#ifndef FV_CONTAINER_REGISTRY_H
#define FV_CONTAINER_REGISTRY_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/container/sparse/sparse.h"
#include "verity/storage/device.h"

struct verity_pair;

enum verity_container {
	VERITY_CONTAINER_AUTO = 0, /* asked: let the registry decide */
	VERITY_CONTAINER_SPARSE,   /* an Android sparse image: its unsparsed
				    * bytes are read as the image */
	VERITY_CONTAINER_SUPER,    /* an Android super image: logical
				    * partitions, each an Android image */
	VERITY_CONTAINER_AVB,      /* an Android image: vbmeta and footer */
	VERITY_CONTAINER_DDI,      /* a systemd Discoverable Disk Image */
	VERITY_CONTAINER_SIDECAR,  /* IMAGE with IMAGE.verity beside it */
	VERITY_CONTAINER_PLAIN,    /* a data and a hash device, given */
	VERITY_CONTAINER_COUNT
};

/* "avb", "ddi", "sidecar", "plain", "sparse", "super"; "auto" for
 * AUTO. */
const char *verity_container_name(enum verity_container c);
/* What a container is, in a message: "an Android image (AVB footer)". */
const char *verity_container_words(enum verity_container c);
/* The container of a name (as verity_container_name gives it); -1 for
 * a name that is none. */
int verity_container_by_name(const char *name);

/* What image (given alone) is. asked AUTO: the registry's order, with
 * an image that reads two ways refused (-EINVAL, the fix
 * HT_PARAM_CONTAINER with both readings in value[0] and value[1]); an
 * Android sparse image refused (-EINVAL); an image that reads no way is
 * a sidecar image (whose missing tree is then the error). asked a
 * container: the image must read that way (-EINVAL otherwise). PLAIN is
 * never an image alone. The image that cannot be opened is -ENODEV. */
int verity_container_identify(const char *image, enum verity_container asked,
			      enum verity_container *kind,
			      struct ht_error *err);

/* -EINVAL, with the message verify_container_identify gives, when the
 * file at path is an Android sparse image (data given where raw bytes
 * are read); 0 otherwise. */
int verity_container_refuse_sparse(const char *path, struct ht_error *err);

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
