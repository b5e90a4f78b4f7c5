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

#include "verity/android/android.h"
#include "verity/android/show.h"
#include "verity/container/avb/image.h"
#include "verity/sign/scheme.h"
#include "verity/container/ddi/ddi.h"
#include "verity/image/ddishow.h"
#include "verity/image/image.h"
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/container/super/super.h"
#include "verity/container/sidecar.h"
#include "verity/fec/rs.h"
#include "verity/ops/ops.h"
#include "verity/ops/options.h"
#include "verity/pairs/held.h"
#include "verity/show/result.h"
#include "verity/show/pair.h"
#include "verity/show/verify.h"
#include "verity/sign/signature.h"
#include "verity/storage/backing.h"
#include "verity/storage/file.h"
#include "verity/storage/output.h"
#include "verity/tree/superblock.h"
#include "verity/policy/trust.h"

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

/* What check does with a pair. */
enum check_op { CHECK_VERIFY, CHECK_REPAIR };

/* The pairs the door acts on are held pairs (verity/pairs/). */
typedef struct verity_held fv_pair;

/* The handles of Android images and super images are the internal
 * readings (verity/android/), one member each: a handle points to its
 * reading, and the reading handed out is its handle (verity_api_avb_of). */
struct fv_super {
	struct verity_android_super in;
};

struct fv_avb {
	struct verity_android in;
};
_Static_assert(sizeof(struct fv_avb) == sizeof(struct verity_android) &&
		       sizeof(struct fv_super) ==
			       sizeof(struct verity_android_super),
	       "a handle is its reading");

static inline fv_avb *verity_api_avb_of(struct verity_android *a)
{
	return (fv_avb *)(void *)a;
}

/* An opened image: its container's reading (verity/image/), and what
 * the door keeps of the open (the verdicts are in.pairs[i].trust). */
struct fv_image {
	struct verity_image in;
	/* each pair's parameters as fv_image_pair_info shows them, made
	 * when the image opened */
	fv_params *params;
	fv_pair *own; /* a plain pair's, a sidecar image's */
	/* the parity the request gave, for a pair whose container has none
	 * (a disk image's) */
	char *fec_path;
	uint64_t fec_offset;
	unsigned fec_roots;
	/* what the open request judged with: whether the actions may write
	 * on its word (repair), the certificates a signature the policy
	 * said to check is checked against (copies) */
	int writes;
	int activates; /* judged for the kernel: not for a read */
	char **certs;
	size_t ncerts;
};

int verity_api_keep(int r, const struct ht_error *err);
int verity_api_params_in(const fv_params *in, struct verity_params *out);
__attribute__((format(printf, 2, 3))) int verity_api_fail(int errnum,
							  const char *fmt, ...);
/* The caller's options (NULL: the defaults) copied into full, zeros
 * past what the caller has, and checked as 0.3-0.9's setters checked
 * them (who: the call, in messages). The calls that take options start
 * with it and hand full on. */
int verity_api_options_in(const char *who, const fv_options *in,
			  fv_options *full);
fv_result *verity_api_result_new(void);
/* An Android image read, for showing (show 1: its signature not checked,
 * fv_open's show) or judged (0); freed by verity_api_avb_free (public as
 * fv_avb_show and fv_avb_free in 0.6-0.9). */
int verity_api_avb_read(const char *image, int show, fv_avb **out);
void verity_api_avb_free(fv_avb *a);
int verity_api_avb_unpaired(const fv_avb *a);
/* fv_show's verify of a firmware set (FV_SHOW_SET_VERIFY, _AVB_VERIFY):
 * the walk of q->set shown on sh (verity/slot/show.h). */
struct show;
int verity_api_slot_show(const struct fv_show_request *q, struct show *sh);
/* The same for FV_SHOW_AVB_VERIFY with avbtool's options (avb.c). */
int verity_api_avb_verify_show(const struct fv_show_request *q,
			       struct show *sh);
/* fv_show's FV_SHOW_VERIFY and FV_SHOW_REPAIR (verity/api/pair.c). */
int verity_api_check_show(const struct fv_show_request *q, struct show *sh);
/* verity_api_super_avb, read for showing (show 1: its signature not checked,
 * as fv_open's show) or judged (0). */
int verity_api_super_avb(const fv_super *s, size_t i, int show, fv_avb **out);
enum verity_anchor verity_api_anchor_of(const fv_options *o);
int verity_api_set_string(char **dst, const char *s);

/* --- pairs (public in 0.6-0.9; the door's insides since 0.10) ---------
 * What format, verify, repair, dump and open act on (verity/pairs/held.h):
 * made of parts (verity_api_pair_new, verity_held_request) or copied
 * from an opened image (verity_api_image_pair). */
int verity_api_pair_new(const char *data, const char *hash, fv_pair **out);
void verity_api_pair_free(fv_pair *pr);
/* The parity: path (copied; NULL: none), offset, roots (0: told from
 * its size). */
int verity_api_pair_set_fec(fv_pair *pr, const char *path, uint64_t offset,
			    unsigned roots);
/* A copy of img's pair i, with what its container says (where its
 * signature came from, how its signer was judged when opened). */
int verity_api_image_pair(const fv_image *img, size_t i, fv_pair **out);
/* An image with systemd's sidecar files: IMAGE.verity, and when they
 * exist IMAGE.roothash, IMAGE.roothash.p7s (carried by the container),
 * IMAGE.fec; parameters not read. */
int verity_api_pair_sidecar(const char *image, fv_pair **out);
/* The actions (include/fastverity.h: fv_format, fv_update, fv_verify,
 * fv_repair, fv_describe, fv_activate say what they do). */
int verity_api_pair_verify(const fv_pair *pr, const fv_options *o,
			   fv_result **res);
int verity_api_pair_repair(const fv_pair *pr, const fv_options *o,
			   fv_result **res);
int verity_api_pair_dump(const fv_pair *pr, const fv_options *o,
			 fv_result **res);
/* The signature judged by the policy and checked against the options'
 * certificates, without reading a block. */
int verity_api_pair_check_signature(const fv_pair *pr, const fv_options *o,
				    fv_result **res);
int verity_api_pair_activate(const char *name, const fv_pair *pr,
			     const fv_options *o);
/* A signing request (taken already) as the signing code reads it: its
 * key and certificate given, its flags known. */
int verity_api_signer_of(const struct fv_sign_request *q,
			 struct verity_signer *vs);
const struct ddi_verity *verity_api_ddi_at(const fv_image *img, size_t i);
/* fv_show's FV_SHOW_DDI (verity/api/ddi.c): 0, fn's non-zero return, or
 * the open's or a describe's error (kept). */
int verity_api_ddi_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx);
/* fv_show's FV_SHOW_OTA_* (verity/api/ota.c): 0, EPERM (a check bad,
 * said), fn's non-zero return, or the package's error (kept). */
int verity_api_ota_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx);
/* FV_SHOW_FSVERITY_* (verity/api/fsverity.c): verity/fsverity/show.h's. */
int verity_api_fsverity_show(const struct fv_show_request *q, fv_item_fn fn,
			     void *ctx);

#endif
