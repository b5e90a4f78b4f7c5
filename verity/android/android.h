/* Android images read for the door and the firmware-set walk: an
 * image's vbmeta (its footer's, or a vbmeta image's, or a super image's
 * logical partition's over its extents), its hashtree descriptor and
 * the pair it makes, and a super image's metadata with its notes. The
 * trust policy is not asked here: a read image is UNCHECKED or UNSIGNED
 * until the door judges it (verity/api/image.c). */
#ifndef FV_ANDROID_H
#define FV_ANDROID_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/container/avb/image.h"
#include "verity/container/super/super.h"
#include "verity/policy/trust.h"
#include "verity/tree/pair.h"

/* An Android image read. */
struct verity_android {
	char *path;
	/* a logical partition's extents (verity_android_super_read), owned;
	 * their files are the super image's */
	struct verity_extents *src;
	struct avb_image img;
	const struct avb_descriptor *ht; /* NULL: no hashtree descriptor */
	struct verity_pair pair;         /* with ht and a footer */
	int paired;
	int unusable; /* parity dm-verity cannot use, left out */
	int shown;    /* read for showing: its signature not checked */
	char *name;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	char key_sha1[41];
	enum verity_trust trust;
};

/* The image at path (src: its extents, which *out takes, freed also on
 * failure; NULL: the file itself), read for showing (show 1: its
 * signature not checked) or with its signature checked (0). */
int verity_android_read(const char *path, struct verity_extents *src, int show,
			struct verity_android **out, struct ht_error *err);
void verity_android_free(struct verity_android *a);

/* The vbmeta's public key's SHA-1, hex ("" for none). */
void verity_android_key_sha1(const struct avb_vbmeta *v, char out[41]);

/* The reason a's pair cannot be had (always an error). */
int verity_android_unpaired(const struct verity_android *a,
			    struct ht_error *err);

/* Descriptor i of tag (any tag: UINT64_MAX), or NULL with the message
 * (a NULL: none). */
const struct avb_descriptor *
verity_android_descriptor(const struct verity_android *a, size_t i,
			  uint64_t tag, struct ht_error *err);

/* Hashtree descriptor i over image as a pair (data, tree and parity of
 * image, the descriptor's root), every offset checked against the
 * file; its paths are image's and the descriptor's. */
int verity_android_descriptor_pair(const struct verity_android *a, size_t i,
				   const char *image, struct verity_pair *vp,
				   struct ht_error *err);

/* A super image's metadata of slot (0: a, 1: b), and the notes of what
 * was read: geometry's and slot's first, then the other slots'. */
struct verity_android_super {
	struct verity_super s;
	const char *notes[2 + LP_MAX_SLOTS];
	size_t nnotes;
};

/* names, files: n block devices of a split super image (checked). */
int verity_android_super_open(const char *image, const char *const *names,
			      const char *const *files, size_t n, unsigned slot,
			      struct verity_android_super **out,
			      struct ht_error *err);
void verity_android_super_close(struct verity_android_super *s);

/* The logical partition name names (slot: "a", "b" or NULL: a name
 * with a slot's suffix is that slot's; without one, the slot's twin of
 * an A/B image, else the name as liblp picks it): its index, or
 * -ENOENT. */
int verity_android_super_find(const struct verity_android_super *s,
			      const char *name, const char *slot);

/* Byte off of logical partition i (< s->s.m.np): the block device
 * (*device) and its byte (*at) it lies at; -ENODATA where no extent
 * maps it. */
int verity_android_super_locate(const struct verity_android_super *s, size_t i,
				uint64_t off, uint32_t *device, uint64_t *at,
				struct ht_error *err);

/* Logical partition i (< s->s.m.np) read as an Android image over its
 * extents; -ENOMSG when it carries no AVB footer nor a vbmeta. */
int verity_android_super_read(const struct verity_android_super *s, size_t i,
			      int show, struct verity_android **out,
			      struct ht_error *err);

/* The public handles of Android images and super images are these
 * readings, one member each: a handle points to its reading, and the
 * reading handed out is its handle. */
struct fv_super {
	struct verity_android_super in;
};

struct fv_avb {
	struct verity_android in;
};
_Static_assert(sizeof(struct fv_avb) == sizeof(struct verity_android) &&
		       sizeof(struct fv_super) ==
			       sizeof(struct verity_android_super),
	       "a handle is its reading");

#endif
