/* What avbtool's writers need besides the container's writing
 * (verity/container/avb/): the libavb version a vbmeta or a footer
 * needs, and the keys an Android image is signed with (a new ML-DSA
 * key, a key's AVB public key blob's digest). */
#ifndef FV_ANDROID_WRITE_H
#define FV_ANDROID_WRITE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/container/avb/image.h"

/* The minor libavb version vb needs (footer: the footer it goes in,
 * NULL for a vbmeta image, whose included images count too), avbtool's
 * rule: a footer's flags need 1.1, a rollback index location 1.2, a
 * chain without A/B 1.3. */
int verity_android_required_minor(const struct avb_vbmeta_opts *vb,
				  const struct avb_footer_opts *footer,
				  unsigned *minor, struct ht_error *err);

/* fv_avb_key's ops on a request whose pointers the door checked:
 * generate (out and len NULL), blob, digest (hex, *out malloc'd). */
int verity_android_key(const struct fv_avb_key_request *q, uint8_t **out,
		       size_t *len, struct ht_error *err);

/* A new private key of algorithm (MLDSA65, MLDSA87) written to output,
 * which must not exist. */
int verity_android_key_generate(const char *algorithm, const char *output,
				struct ht_error *err);

/* The SHA-256 of the AVB public key blob of the key at path, hex. */
int verity_android_key_digest(const char *path, char hex[65],
			      struct ht_error *err);

#endif
