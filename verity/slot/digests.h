/* What avbtool's print_partition_digests and calculate_kernel_cmdline
 * show of a firmware set (include/fastverity.h, fv_show
 * FV_SHOW_AVB_DIGESTS, FV_SHOW_AVB_CMDLINE): the set walked once, read
 * and not checked, as avbtool's print commands read it
 * (digests.c). */
#ifndef FV_SLOT_DIGESTS_H
#define FV_SLOT_DIGESTS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/show/show.h"

/* q->image's set to sh, all of it or nothing: 0, sh's visitor's
 * non-zero return, or the walk's error (the first image that cannot be
 * read, as avbtool stops there). */
int verity_slot_digests(const struct fv_show_request *q, struct show *sh,
			struct ht_error *err);

#endif
