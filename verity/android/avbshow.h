/* What avbtool's info_image shows of an Android image (include/
 * fastverity.h, fv_show FV_SHOW_AVB_INFO): its text line for line, or
 * fastverity's --json document, made from the vbmeta as read for
 * showing (its signature not checked) (verity/android/avbshow.c). */
#ifndef FV_ANDROID_AVBSHOW_H
#define FV_ANDROID_AVBSHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdio.h>

#include "hashtree/error.h"
#include "verity/android/android.h"
#include "verity/show/show.h"

/* q->image's info_image to sh: 0, sh's visitor's non-zero return, or
 * the image's read error. Also its vbmeta's public key blob
 * (FV_SHOW_AVB_PUBKEY: info_image --output_pubkey), its vbmeta blob
 * padded (FV_SHOW_AVB_VBMETA: extract_vbmeta_image), as bytes. */
int verity_android_avb_show(const struct fv_show_request *q, struct show *sh,
			    struct ht_error *err);

/* Bytes as lowercase hex, as avbtool prints digests and salts (also
 * the set's walk's, verity/slot/show.c). */
void verity_android_hex(FILE *f, const uint8_t *p, size_t n);

#endif
