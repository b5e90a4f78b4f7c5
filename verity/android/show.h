/* What dump and lp dump show of a super image (verity/android/show.c). */
#ifndef FV_ANDROID_SHOW_H
#define FV_ANDROID_SHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/android/android.h"
#include "verity/show/show.h"

/* q->what FV_SHOW_SUPER (dump), FV_SHOW_LPDUMP (lp dump; _SIZE: -d) or
 * FV_SHOW_LPUNPACK (lp unpack: q->dir's files written), its items to sh:
 * 0, sh's visitor's non-zero return, the image's open error, or lp
 * unpack's errno > 0, said, of a failure after the metadata read. */
int verity_android_show(const struct fv_show_request *q, struct show *sh,
			struct ht_error *err);

#endif
