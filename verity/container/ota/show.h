/* What `fastverity ota` shows of a package (include/fastverity.h,
 * fv_show's FV_SHOW_OTA_INFO, _VERIFY, _EXTRACT; docs/ota.md): its facts
 * as indented text or one --json document, what verify and extract
 * found, and for verify with an AVB key the images taken as one AVB set,
 * the verdict decided here. */
#ifndef FV_CONTAINER_OTA_SHOW_H
#define FV_CONTAINER_OTA_SHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>

#include "include/fastverity.h"
#include "verity/container/ota/ota.h"

struct show;

/* The AVB set whose top is the file top, signed by key, walked with
 * every chain followed: 0 with why "" (every step good) or the first
 * bad step's message; a negative errno with why the walk's message. */
typedef int (*verity_ota_walk_fn)(const char *top, const char *key, char *why,
				  size_t len);

/* q's action on o (opened, its signer's certificate cert: NULL, the
 * package's own), then its items on sh: 0, EPERM when a check or an
 * image is bad (said), or a negative errno (err). For verify with q->key
 * the images go into q->dir (made by the caller, private; removed with
 * them) and are walked by walk; q->dir NULL: -ENOTDIR once the
 * signatures are good. */
int verity_ota_show(struct verity_ota *o, const char *cert,
		    const struct fv_show_request *q, struct show *sh,
		    verity_ota_walk_fn walk, struct ht_error *err);

#endif
