/* What avbtool's calculate_vbmeta_digest writes of an image
 * (include/fastverity.h, fv_show FV_SHOW_AVB_VBMETA_DIGEST): one digest
 * of its vbmeta blob and, one level down, the blobs of the images its
 * chain descriptors name, read by one walk of the set
 * (vbmeta_digest.c). */
#ifndef FV_SLOT_VBMETA_DIGEST_H
#define FV_SLOT_VBMETA_DIGEST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/show/show.h"

/* The digest (its option hash_algorithm, else sha256) of q->image's set to sh, in hex
 * and a newline: 0, sh's visitor's non-zero return, or the first error
 * (an unknown hash, an image that cannot be read, as avbtool stops). */
int verity_slot_vbmeta_digest(const struct fv_show_request *q, struct show *sh,
			      struct ht_error *err);

#endif
