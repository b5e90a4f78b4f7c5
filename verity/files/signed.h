/* A root hash's signature as `fastverity sign` hands it on (fv_show's
 * FV_SHOW_SIGN): written whole, or its bytes as text, and its --json
 * document. */
#ifndef FV_FILES_SIGNED_H
#define FV_FILES_SIGNED_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/show/show.h"

/* der (len bytes, the signature of q->args) to q->image ("-": as text
 * on sh, unless q->json), then with q->json sign's document: 0, sh's
 * visitor's return, or -EIO (err: the write's message). */
int verity_files_signed(const struct fv_show_request *q, const uint8_t *der,
			size_t len, struct show *sh, struct ht_error *err);

#endif
