/* The readings of Android images and super images (android.h) as the
 * public structures show them (include/fastverity.h): the door checks
 * the arguments and gives what these fill (its size as the caller's). */
#ifndef FV_ANDROID_SHOWN_H
#define FV_ANDROID_SHOWN_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/android/android.h"

void verity_android_shown_info(const struct verity_android *a,
			       struct fv_avb_info *out);
/* Descriptor d, its tag's member filled. */
void verity_android_shown_descriptor(const struct avb_descriptor *d,
				     struct fv_avb_descriptor *out);

void verity_android_shown_super(const struct verity_android_super *s,
				struct fv_super_info *info);
/* Entry i of kind: -EINVAL naming an index past the last, or a kind
 * that is none. */
int verity_android_shown_entry(const struct verity_android_super *s,
			       enum fv_super_kind kind, size_t i,
			       struct fv_super_entry *e, struct ht_error *err);

#endif
