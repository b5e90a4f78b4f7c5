/* What dump shows of an Android image given alone (include/
 * fastverity.h, fv_show FV_SHOW_AVB_DUMP): its pair's parameters and
 * layout as veritysetup dump words them, the hashtree descriptor and
 * the vbmeta; of a hash footer, its hash descriptor and the vbmeta.
 * Text or the --json document (verity/image/avbdump.c). */
#ifndef FV_IMAGE_AVBDUMP_H
#define FV_IMAGE_AVBDUMP_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/show/show.h"

/* q->image read for showing (its signature not checked: the caller
 * judges it as it opens it) to sh: 0, sh's visitor's non-zero return,
 * or the error (the image's read, no pair nor hash descriptor, the
 * layout's). */
int verity_image_avb_dump(const struct fv_show_request *q, struct show *sh,
			  struct ht_error *err);

#endif
