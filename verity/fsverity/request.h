/* fs-verity's requests (include/fastverity.h, "fs-verity") read into
 * verity/fsverity/digest.h's: the parameters, one file's digest from a
 * path or a reader, many files at once, each digest kept with what is
 * shown of it (its hex, what a built-in signature signs). Each returns
 * 0 or -errno with err's message (the door's words). */
#ifndef FV_FSVERITY_REQUEST_H
#define FV_FSVERITY_REQUEST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/fsverity/digest.h"

/* The handle of a digest: the digest and what is shown of it. */
struct fv_fsverity_digest {
	struct fsv_digest d;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	/* what a built-in signature signs */
	uint8_t sig[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE];
	size_t sig_len;
};

void verity_fsv_shown_free(fv_fsverity_digest *d);
/* d as fv_fsverity_digest_info shows it (every member). */
void verity_fsv_shown_info(const fv_fsverity_digest *d,
			   struct fv_fsverity_info *out);

/* The caller's parameters as the library's (NULL: the defaults), read
 * as far as in->size says. */
int verity_fsv_params_of(const struct fv_fsverity_params *in,
			 struct fsv_params *p, struct ht_error *err);

/* fv_fsverity_compute of q (copied whole; ho: the run's options). */
int verity_fsv_request(const struct fv_fsverity_request *q,
		       const struct ht_options *ho, fv_fsverity_digest **out,
		       struct ht_error *err);

/* fv_fsverity_compute_files of paths with parameters p (paths and
 * flags checked here, out zeroed): n 0, p checked alone; *failed the
 * first that failed. */
int verity_fsv_request_files(const struct fv_fsverity_params *p,
			     const char *const *paths, size_t n,
			     const struct ht_options *ho, unsigned flags,
			     fv_fsverity_digest **out, size_t *failed,
			     struct ht_error *err);

#endif
