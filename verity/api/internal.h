/* The public API's insides (verity/api/): the structures behind the
 * handles of include/fastverity.h, and what the files of the API share
 * (the thread's last error, the handovers to the operations). Nothing
 * outside verity/api/ includes this. */
#ifndef FV_API_H
#define FV_API_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/android/show.h"
#include "verity/image/ddishow.h"
#include "verity/image/open.h"
#include "verity/ops/ops.h"
#include "verity/ops/options.h"
#include "verity/show/pair.h"
#include "verity/show/verify.h"

/* What the shared library exports. */
#define API __attribute__((visibility("default")))

/* An argument that must not be NULL. */
#define NEED(x)                                                          \
	do {                                                             \
		if (!(x))                                                \
			return verity_api_fail(EINVAL, "%s: %s is NULL", \
					       __func__, #x);            \
	} while (0)

/* Copies full (of its type) into out, as much as out->size says: the
 * versioned structures' one rule. */
#define GIVE(out, full, first)                                                \
	do {                                                                  \
		if ((out)->size <                                             \
		    offsetof(__typeof__(full), first) + sizeof((full).first)) \
			return verity_api_fail(EINVAL,                        \
					       "%s: size %zu is too small",   \
					       __func__, (out)->size);        \
		(full).size = (out)->size < sizeof(full) ? (out)->size        \
							 : sizeof(full);      \
		memcpy((out), &(full), (full).size);                          \
	} while (0)

/* A caller's versioned request (in) copied into full, zeros past what
 * the caller has: its size at least up to last, the member that ended
 * the type when it came. */
#define TAKE(full, in, last)                                                   \
	do {                                                                   \
		NEED(in);                                                      \
		memset(&(full), 0, sizeof(full));                              \
		if ((in)->size <                                               \
		    offsetof(__typeof__(full), last) + sizeof((full).last))    \
			return verity_api_fail(EINVAL,                         \
					       "%s: size %zu is too small",    \
					       __func__, (in)->size);          \
		memcpy(&(full), (in),                                          \
		       (in)->size < sizeof(full) ? (in)->size : sizeof(full)); \
	} while (0)

/* This thread's last error, its fix included. */
extern _Thread_local struct ht_error verity_api_last;

/* The pairs the door acts on are held pairs (verity/pairs/). */
typedef struct verity_held fv_pair;

/* A reading handed out as its handle (verity/android/android.h). */
static inline fv_avb *verity_api_avb_of(struct verity_android *a)
{
	return (fv_avb *)(void *)a;
}

/* The thread's last error: err's when r is not 0 (returns r); a new
 * one (returns -errnum). */
int verity_api_keep(int r, const struct ht_error *err);
__attribute__((format(printf, 2, 3))) int verity_api_fail(int errnum,
							  const char *fmt, ...);
/* The public parameters and options checked (verity/show/pair.h,
 * verity/ops/options.h; who names the call), a result made. */
int verity_api_params_in(const fv_params *in, struct verity_params *out);
int verity_api_options_in(const char *who, const fv_options *in,
			  fv_options *full);
fv_result *verity_api_result_new(void);

/* The reason an Android image has no pair, in the library's words. */
int verity_api_avb_unpaired(const fv_avb *a);

/* The pairs fv_open's image acts on (verity/pairs/held.h, act.h): made
 * of parts, a sidecar image's, or copied from img's pair i. */
int verity_api_pair_new(const char *data, const char *hash, fv_pair **out);
void verity_api_pair_free(fv_pair *pr);
int verity_api_pair_set_fec(fv_pair *pr, const char *path, uint64_t offset,
			    unsigned roots);
int verity_api_image_pair(const fv_image *img, size_t i, fv_pair **out);
int verity_api_pair_verify(const fv_pair *pr, const fv_options *o,
			   fv_result **res);
int verity_api_pair_repair(const fv_pair *pr, const fv_options *o,
			   fv_result **res);
int verity_api_pair_dump(const fv_pair *pr, const fv_options *o,
			 fv_result **res);
int verity_api_pair_check_signature(const fv_pair *pr, const fv_options *o,
				    fv_result **res);
int verity_api_pair_activate(const char *name, const fv_pair *pr,
			     const fv_options *o);

/* fv_show's kinds shown by the door's files (super.c dispatches): 0,
 * the visitor's non-zero return, or the error (kept). */
struct show;
int verity_api_slot_show(const struct fv_show_request *q, struct show *sh);
int verity_api_avb_verify_show(const struct fv_show_request *q,
			       struct show *sh);
int verity_api_check_show(const struct fv_show_request *q, struct show *sh);
/* VERIFY of an image given alone (q->open): the registry's walk
 * (verity/api/image.c). */
int verity_api_alone_show(const struct fv_show_request *q, struct show *sh);
int verity_api_ddi_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx);
int verity_api_ota_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx);
/* FV_SHOW_SIGN (verity/api/api.c). */
int verity_api_sign_show(const struct fv_show_request *q, struct show *sh);
int verity_api_fsverity_show(const struct fv_show_request *q, fv_item_fn fn,
			     void *ctx);

#endif
