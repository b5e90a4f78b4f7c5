/* avbtool's subcommands the command hands over whole (run.c). */
#ifndef FV_ANDROID_RUN_H
#define FV_ANDROID_RUN_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"

/* FV_SHOW_AVB_RUN: subcommand q->args (add_hashtree_footer,
 * add_hash_footer, make_vbmeta_image, erase_footer, append_vbmeta_image,
 * resize_image, zero_hashtree, extract_public_key,
 * extract_public_key_digest, generate_key, version) run on q's options
 * (every one given, names and values in pairs; q->dir the temporary
 * files' directory; a hash tree built as q->o says, --threads read when
 * it is built), what it prints to fn as FV_ITEM_TEXT (stdout's) and
 * FV_ITEM_ERROR (stderr's: avbtool's notes). 0, fn's return, or -errno
 * with err's message: -EDOM (a usage error) only while the options are
 * read. */
int verity_android_run(const struct fv_show_request *q, fv_item_fn fn,
		       void *ctx, struct ht_error *err);

#endif
