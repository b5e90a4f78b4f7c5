/* The public library: Android A/B OTA packages through the door
 * (include/fastverity.h, fv_show's FV_SHOW_OTA_*; docs/ota.md): the
 * package opened by fv_open (container "ota"), its signer's certificate
 * the options' one, and shown by verity/container/ota/show.c; the AVB
 * set a verify extracted walked here, by fv_slot_verify. */
#include "verity/api/internal.h"
#include "verity/container/ota/show.h"
#include "verity/show/show.h"

/* The set at top walked (verity_ota_walk_fn). */
static int walk(const char *top, const char *key, char *why, size_t len)
{
	struct fv_slot_request req = {.size = sizeof(req),
				      .image = top,
				      .container = "avb",
				      .key = key,
				      .flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW |
					       FV_SLOT_FOLLOW_NESTED |
					       FV_SLOT_STOP};
	struct fv_slot_info info = {.size = sizeof(info)};
	fv_slot *s = NULL;
	int r;

	*why = '\0';
	if ((r = fv_slot_verify(&req, NULL, NULL, NULL, &s)) ||
	    (r = fv_slot_info(s, &info)))
		snprintf(why, len, "%s", fv_last_error());
	for (size_t i = 0; !r && i < info.steps; i++) {
		struct fv_slot_step st = {.size = sizeof(st)};

		if (!fv_slot_step(s, i, &st) && st.result != FV_SLOT_OK &&
		    st.result != FV_SLOT_SKIPPED) {
			snprintf(why, len, "%s",
				 st.message && st.message[0] ? st.message
							     : "a step failed");
			break;
		}
	}
	fv_slot_free(s);
	return r;
}

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
				      &sh, walk, &err)) < 0 &&
		 r != sh.r)
		r = verity_api_keep(r, &err);
	fv_image_free(img);
	return r;
}
