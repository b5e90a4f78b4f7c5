/* An image given alone to verify with no pair opened (fv_show's VERIFY
 * of an image alone): what it is, the registry's word, and which walk
 * applies to it. */
#ifndef FV_IMAGE_ALONE_H
#define FV_IMAGE_ALONE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
/* What verify says of img (image: its name) opened alone, before its
 * pair is checked, through said(ctx): an Android image's parity the
 * kernel cannot use, left out; its signer not checked. Then repair's
 * arguments, args and the anchor a write needs when the signer was not
 * checked, into buf (len bytes). */
void verity_image_alone_notes(const fv_image *img, const char *image,
			      fv_item_fn said, void *ctx, const char *args,
			      char *buf, size_t len);

#endif

#include <stddef.h>

#include "hashtree/error.h"
#include "include/fastverity.h"

/* The walks: an OTA package's checks (as ota verify), a disk image's
 * protected partitions, a firmware set (a super image, a vbmeta image, an
 * image whose vbmeta has no hashtree descriptor), the one pair of an
 * Android image, an image with sidecar files. */
enum verity_alone_walk {
	VERITY_ALONE_OTA,
	VERITY_ALONE_DDI,
	VERITY_ALONE_SET,
	VERITY_ALONE_PAIR,
	VERITY_ALONE_SIDECAR,
};

struct verity_alone {
	const char *container; /* the registry's name (static) */
	enum verity_alone_walk walk;
};

/* What image (container: NULL, or the one named) is, and its walk: 0 and
 * *out, or the registry's refusal. An Android image that cannot be read
 * for showing is a pair, whose open says why. */
int verity_image_alone(const char *image, const char *container,
		       struct verity_alone *out, struct ht_error *err);

/* What verify says of img (image: its name) opened alone, before its
 * pair is checked, through said(ctx): an Android image's parity the
 * kernel cannot use, left out; its signer not checked. Then repair's
 * arguments, args and the anchor a write needs when the signer was not
 * checked, into buf (len bytes). */
void verity_image_alone_notes(const fv_image *img, const char *image,
			      fv_item_fn said, void *ctx, const char *args,
			      char *buf, size_t len);

#endif
