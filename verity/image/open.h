/* An image opened by the door (fv_open, include/fastverity.h): the
 * handle's structure, and the open's work below the door: an Android
 * image read for showing, every pair of an image judged, and what
 * fv_image_pair_info shows of each kept. The door checks the request and
 * keeps the thread's last error. */
#ifndef FV_IMAGE_OPEN_H
#define FV_IMAGE_OPEN_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"

#include "hashtree/error.h"
#include "verity/image/image.h"
#include "verity/pairs/held.h"
#include "verity/policy/trust.h"

/* An opened image: its container's reading, and what the door keeps of
 * the open (the verdicts are in.pairs[i].trust). */
struct fv_image {
	struct verity_image in;
	/* each pair's parameters as fv_image_pair_info shows them, made
	 * when the image opened */
	fv_params *params;
	struct verity_held *own; /* a plain pair's, a sidecar image's */
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

void verity_image_free(fv_image *img);
/* fv_open's work (req taken whole, o checked): what the image is (the
 * registry, or req's container), its pairs made by its container or of
 * req's parts, each judged, what req's action cannot do refused. */
int verity_image_open(const struct fv_open_request *req, const fv_options *o,
		      fv_image **out, struct ht_error *err);
/* The anchor the options give: a key, certificates, or none. */
enum verity_anchor verity_image_anchor_of(const fv_options *o);
/* req's show: an Android image read for showing what it says, its
 * vbmeta parsed and validated as the registry's avb reads it, not
 * judged, no pair (o: checked options). */
int verity_image_open_shown(const struct fv_open_request *req,
			    const fv_options *o, fv_image **out,
			    struct ht_error *err);
/* Every pair of img judged (verity_image_judge), with what the request
 * judged with kept, then what fv_image_pair_info shows of each and the
 * parity req gives for the pairs whose container has none. */
int verity_image_opened(fv_image *img, const struct fv_open_request *req,
			const fv_options *o, struct ht_error *err);
/* What req's action (when named) cannot do with an opened Android image:
 * a vbmeta image without a footer, no hashtree descriptor, a descriptor
 * that makes no pair (dump shows a hash footer's). 0 or the refusal. */
int verity_image_acts(const fv_image *img, const struct fv_open_request *req,
		      struct ht_error *err);
/* The callback of verity_image_part's notes: req's said (ctx: req). */
void verity_image_told(void *ctx, const char *text);

#endif
