/* The public library: Android A/B OTA packages through the door
 * (include/fastverity.h, fv_show's FV_SHOW_OTA_*; docs/ota.md): the
 * package opened by fv_open (container "ota"), its signer's certificate
 * the options' one, shown by verity/container/ota/show.c, the AVB set a
 * verify extracted walked by verity/slot/run.c. */
#include "verity/api/internal.h"
#include "verity/container/ota/show.h"
#include "verity/slot/run.h"

int verity_api_ota_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx)
{
	struct show sh = {fn, ctx, q->json, 0};
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = q->image, .container = "ota"};
	struct ht_error err;
	fv_image *img;
	int r;

	if ((r = fv_open(&rq, q->o, &img)))
		return r;
	/* the signer checked against the open's certificate (one), else
	 * the package's own (said not checked) */
	if (img->ncerts > 1)
		r = verity_api_fail(EINVAL,
				    "fv_show: one certificate checks a "
				    "payload's signatures (%zu given)",
				    img->ncerts);
	else if ((r = verity_ota_show(img->in.ota,
				      img->ncerts ? img->certs[0] : NULL, q,
				      &sh, verity_slot_run_top, &err)) < 0 &&
		 r != sh.r)
		r = verity_api_keep(r, &err);
	fv_image_free(img);
	return r;
}
