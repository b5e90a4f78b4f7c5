/* What dump shows of a systemd disk image (include/fastverity.h,
 * fv_show's FV_SHOW_DDI; docs/ddi.md): the image opened as fv_open opens
 * it for dump (not judged: dump checks nothing), each protected
 * partition described as fv_describe describes it, and its items made in
 * verity/image/ddishow.c. */
#include "verity/api/internal.h"
#include "verity/image/ddishow.h"

/* Whether q's partition (a role: root, usr; NULL: every one) picks v. */
static int picked(const struct fv_show_request *q, const struct ddi_verity *v)
{
	return !q->partition ||
	       !strcmp(q->partition, verity_ddi_role_name(v->role));
}

/* Pair i of img shown: 0, or fv_describe's error (kept). */
static int show_pair(const struct fv_show_request *q, struct show *sh,
		     const fv_image *img, size_t i)
{
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	struct fv_report rep = {.size = sizeof(rep)};
	fv_result *res;
	int r;

	if ((r = fv_describe(img, i, NULL, &res)))
		return r;
	fv_result_report(res, &rep);
	fv_image_pair_info(img, i, &pi);
	verity_image_ddi_show_pair(
		sh, q->image, &img->in.ddi.v[i],
		&(struct verity_ddi_shown){pi.params, &rep.layout, pi.root_hex,
					   rep.signer});
	fv_result_free(res);
	return 0;
}

int verity_api_ddi_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx)
{
	struct show shown = {fn, ctx, q->json, 0}, *sh = &shown;
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = q->image, .container = "ddi"};
	const struct ddi_image *d;
	fv_image *img;
	size_t i;
	int r;

	if ((r = fv_open(&rq, NULL, &img)))
		return r;
	d = &img->in.ddi;
	/* the partition asked for is there before anything is shown */
	for (i = 0; q->partition && i < d->nv && !picked(q, &d->v[i]); i++)
		;
	if (q->partition && i == d->nv) {
		r = verity_api_fail(EINVAL, "%s: no protected %s partition",
				    q->image, q->partition);
		goto out;
	}
	verity_image_ddi_show_disk(sh, q->image, d);
	for (i = 0; !r && !sh->r && i < d->nv; i++)
		if (picked(q, &d->v[i]))
			r = show_pair(q, sh, img, i);
	verity_image_ddi_show_end(sh);
out:
	fv_image_free(img);
	return r ? r : sh->r;
}
