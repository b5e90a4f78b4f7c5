/* What dump and lp dump show of a super image (verity/android/show.c). */
#ifndef FV_ANDROID_SHOW_H
#define FV_ANDROID_SHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/android/android.h"
#include "verity/show/show.h"

/* q->what FV_SHOW_SUPER (dump) or FV_SHOW_LPDUMP (lp dump), its items to
 * sh: 0, sh's visitor's non-zero return, or the image's open error. */
int verity_android_show(const struct fv_show_request *q, struct show *sh,
			struct ht_error *err);

#endif
