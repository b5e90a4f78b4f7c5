/* What dump shows of a systemd disk image (include/fastverity.h,
 * fv_show's FV_SHOW_DDI; docs/ddi.md): the image opened as fv_open opens
 * it for dump (not judged: dump checks nothing), each protected
 * partition described as fv_describe describes it, and its items made in
 * verity/image/ddishow.c. */
#include "verity/api/internal.h"
#include "verity/image/ddishow.h"

/* Whether q's partition (a role: root, usr; NULL: every one) picks v. */
#define picked(q, v) verity_image_ddi_picks((q)->partition, (v))

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
					   rep.signer, rep.signature_warning});
	fv_result_free(res);
	return 0;
}

/* One check of a disk image's verify (FV_SHOW_DDI_VERIFY). */
struct ddi_check {
	struct show *sh, kept; /* kept: --json's failures, until the verdict */
	const struct fv_ddi_pair *d;
};

static void failed(void *ctx, enum fv_failure_kind kind, uint64_t block,
		   uint64_t offset, unsigned level)
{
	struct ddi_check *c = ctx;
	struct verity_failure f = {(enum ht_failure_kind)kind, offset, block,
				   level};

	verity_image_ddi_failure(c->sh->json ? &c->kept : c->sh, c->d, &f);
}

/* Pair i checked with o (the anchor's judgment made by the open), said on
 * sh, its --json object kept in doc: 0 and *worst (the worst verdict),
 * or the error that stops (a refusal other than EPERM's, or a
 * parameter's in the text; the others are said, and counted). */
static int check_one(struct show *sh, struct show *doc, const char *image,
		     const fv_image *img, size_t i, fv_options *o, int *worst)
{
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	struct fv_report rep = {.size = sizeof(rep)};
	struct show_kept bad = {0};
	struct ddi_check c = {sh, {verity_show_keep, &bad, 1, 0}, &pi.ddi};
	struct ht_error err;
	fv_result *res = NULL;
	int r, code = 1;

	fv_image_pair_info(img, i, &pi);
	o->failure = failed;
	o->failure_ctx = &c;
	if ((r = fv_verify(img, i, o, &res)))
		r = verity_api_keep(verity_image_ddi_refused(sh, &pi.ddi, r,
							     fv_last_error(),
							     &code, &err),
				    &err);
	else if (!fv_result_report(res, &rep))
		code = verity_image_ddi_checked(
			sh->json ? doc : sh, image,
			&(struct verity_ddi_checked){&pi.ddi, pi.trust, &rep},
			&bad);
	*worst = code > *worst ? code : *worst;
	verity_show_forget(&bad);
	free(bad.v);
	fv_result_free(res);
	return r;
}

/* verify: each protected partition picked checked, judged as the open
 * judged it with q->o's anchor; > 0: what the checks found (EPERM: bad
 * blocks or a signature refused, EINVAL: a root that does not match). */
static int ddi_verify(const struct fv_show_request *q, struct show *sh,
		      fv_image *img)
{
	const struct ddi_image *d = &img->in.ddi;
	struct show_kept parts = {0};
	struct show doc = {verity_show_keep, &parts, 1, 0};
	fv_options o = {.size = sizeof(o)};
	int r = 0, worst = 0;

	if (q->o)
		memcpy(&o, q->o,
		       q->o->size < sizeof(o) ? q->o->size : sizeof(o));
	/* the anchor was the open's: the checks act on its verdict */
	o.key = NULL;
	o.trusted_certs = NULL;
	o.ntrusted_certs = 0;
	for (size_t i = 0; !r && !sh->r && i < d->nv; i++)
		if (picked(q, &d->v[i]))
			r = check_one(sh, &doc, q->image, img, i, &o, &worst);
	if (!r)
		verity_image_ddi_verified(sh, q->image, worst, &parts);
	verity_show_forget(&parts);
	free(parts.v);
	return r ? r : sh->r ? sh->r : worst == 2 ? EPERM : worst ? EINVAL : 0;
}

int verity_api_ddi_show(const struct fv_show_request *q, fv_item_fn fn,
			void *ctx)
{
	struct show shown = {fn, ctx, q->json, 0}, *sh = &shown;
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = q->image, .container = "ddi"};
	const struct ddi_image *d;
	struct ht_error err;
	fv_image *img;
	size_t i;
	int r;

	if ((r = fv_open(&rq, q->what == FV_SHOW_DDI_VERIFY ? q->o : NULL,
			 &img)))
		return r;
	d = &img->in.ddi;
	/* the partition asked for is there before anything is shown */
	if ((r = verity_api_keep(
		     verity_image_ddi_asked(d, q->image, q->partition, &err),
		     &err)))
		goto out;
	if (q->what == FV_SHOW_DDI_VERIFY) {
		r = ddi_verify(q, sh, img);
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
