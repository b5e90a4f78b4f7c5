/* A source of bytes: a region's logical bytes mapped onto extents, each
 * a range of a file, a repeated 4-byte pattern (an Android sparse
 * image's FILL chunk) or zeros (a hole, a DONT_CARE chunk). Containers
 * whose data is not one range of one file (sparse images, and next the
 * linear and zero extents of super.img's logical partitions) describe
 * it as extents; reading goes through them (docs/architecture.md). */
#ifndef FV_STORAGE_EXTENTS_H
#define FV_STORAGE_EXTENTS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
struct verity_device;

enum verity_extent_kind {
	VERITY_EXTENT_FILE, /* bytes of the source's file, from file_offset */
	VERITY_EXTENT_FILL, /* the 4-byte pattern, repeated */
	VERITY_EXTENT_ZERO, /* zeros, nothing stored */
};

struct verity_extent {
	uint64_t logical; /* its first byte in the source's logical bytes */
	uint64_t length;
	enum verity_extent_kind kind;
	uint64_t file_offset; /* FILE */
	uint32_t pattern;     /* FILL: the 4 bytes, little-endian as stored */
	uint32_t origin;      /* the container's number for what made it (a
			       * sparse chunk's, 1-based), for messages */
	uint32_t file;        /* FILE: 0 the device's own file, k > 0 the
			       * extents' files[k - 1] */
};

/* The extents in logical order, without gaps, covering [0, size). */
struct verity_extents {
	struct verity_extent *e;
	size_t n, cap;
	uint64_t size;
	const char *unit; /* what an origin numbers ("sparse chunk") */
	/* the other files FILE extents lie in (a super image's other block
	 * devices: a logical partition's linear extents on any of them),
	 * open for as long as the extents are used; not owned */
	const struct verity_device *const *files;
	uint32_t nfiles;
	/* what keeps those files open, let go by verity_extents_free (a
	 * super image opened for one partition's extents); NULL: the
	 * caller keeps them */
	void (*release)(void *owner);
	void *owner;
	/* the file the device's own extents (file 0) lie in, when the
	 * region's path names a place inside it rather than a file (a
	 * logical partition: super.img/system_a); NULL: the region's path */
	const char *path;
};

/* Appends an extent at the end (logical: the current size): -ENOMEM,
 * -EOVERFLOW (the size past 64 bits). */
int verity_extents_add(struct verity_extents *x, enum verity_extent_kind kind,
		       uint64_t length, uint64_t file_offset, uint32_t pattern,
		       uint32_t origin, struct ht_error *err);
/* The same for a FILE extent in files[file - 1] (file 0: the device's
 * own): -EINVAL for a file the extents do not have. */
int verity_extents_add_in(struct verity_extents *x, uint32_t file,
			  uint64_t length, uint64_t file_offset,
			  uint32_t origin, struct ht_error *err);
/* Bytes [off, off + len) of under (NULL: of a file's own bytes) appended
 * to x as extents: under's file extents as extents in x's file file
 * (0: the device's own, k: files[k - 1]), its patterns and zeros as they
 * are; origins kept (x's own when under is NULL). -EINVAL past under's
 * end; verity_extents_add's errors. */
int verity_extents_add_from(struct verity_extents *x,
			    const struct verity_extents *under, uint32_t file,
			    uint64_t off, uint64_t len, uint32_t origin,
			    struct ht_error *err);
/* The file a FILE extent lies in: d itself, or one of x's files. */
const struct verity_device *verity_extent_file(const struct verity_extents *x,
					       const struct verity_extent *e,
					       const struct verity_device *d);
/* A copy of x's extents on the heap, borrowing x's files (never its
 * release: the copy must not outlive what keeps them), NULL when out of
 * memory; freed with verity_extents_free and free. */
struct verity_extents *verity_extents_copy(const struct verity_extents *x);
/* Frees the extents and lets their files go (release). */
void verity_extents_free(struct verity_extents *x);
/* The extents cut to size bytes (size <= x->size). */
void verity_extents_cut(struct verity_extents *x, uint64_t size);
/* The extent holding logical byte off (off < x->size), by binary
 * search. */
const struct verity_extent *verity_extents_at(const struct verity_extents *x,
					      uint64_t off);
/* n bytes of extent e (FILL or ZERO) as they lie from byte in of it. */
void verity_extent_fill(const struct verity_extent *e, uint64_t in,
			uint8_t *out, size_t n);
/* The 4 bytes that repeat in e from its byte in on, as a little-endian
 * pattern (0 for ZERO). */
uint32_t verity_extent_pattern_at(const struct verity_extent *e, uint64_t in);
/* The bytes of [off, off + len) (clipped to the extents' size) that lie
 * in FILL or ZERO extents, which the files do not store; and the bytes
 * of all the FILE extents, which they do. Bounded by the extents there
 * are, not by their lengths. */
uint64_t verity_extents_unstored(const struct verity_extents *x, uint64_t off,
				 uint64_t len);
uint64_t verity_extents_stored(const struct verity_extents *x);
/* len bytes from logical byte off (all inside [0, size)), the file
 * extents read from d: -EINVAL past the end, and d's errors. */
int verity_extents_read(const struct verity_extents *x,
			const struct verity_device *d, uint64_t off, void *buf,
			size_t len, struct ht_error *err);

#endif
