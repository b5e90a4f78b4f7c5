/* The public API of images given alone (include/fastverity.h): the
 * registry says what an image is, its pairs are made by its container
 * (Android, disk image, sidecar files) and judged by the trust policy;
 * a disk image described. */
#include "verity/api/internal.h"
#include "verity/container/ota/ota.h"
#include "verity/android/show.h"
#include "verity/image/alone.h"
#include "verity/image/takes.h"
#include "verity/image/avbdump.h"
#include "verity/image/open.h"

/* --- images given alone -------------------------------------------------- */

API void fv_image_free(fv_image *img)
{
	verity_image_free(img);
}

API int fv_open(const struct fv_open_request *req, const fv_options *o,
		fv_image **out)
{
	struct fv_open_request full;
	struct ht_error err;
	fv_options opts;
	int r;

	NEED(out);
	*out = NULL;
	TAKE(full, req, writes);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	return verity_api_keep(verity_image_open(&full, &opts, out, &err),
			       &err);
}

API int fv_image_info(const fv_image *img, struct fv_image_info *out)
{
	struct fv_image_info full;

	NEED(img);
	NEED(out);
	memset(&full, 0, sizeof(full));
	full.container = verity_container_name(img->in.kind);
	full.pairs = img->in.n;
	full.path = img->in.path;
	full.avb = verity_api_avb_of(img->in.av);
	/* an Android image's vbmeta is judged whether or not it has a pair */
	full.trust = img->in.n || img->in.av
			     ? (enum fv_trust)img->in.pairs[0].trust
			     : FV_TRUST_UNSIGNED;
	GIVE(out, full, trust);
	return 0;
}

API int fv_image_pair_info(const fv_image *img, size_t i,
			   struct fv_image_pair_info *out)
{
	struct fv_image_pair_info full;
	const struct ddi_verity *v;

	NEED(img);
	NEED(out);
	if (i >= img->in.n)
		return verity_api_fail(EINVAL, "%s: no pair %zu (%zu pairs)",
				       img->in.path, i, img->in.n);
	memset(&full, 0, sizeof(full));
	full.name = img->in.pairs[i].name;
	full.trust = (enum fv_trust)img->in.pairs[i].trust;
	if (img->in.ddi_read && (v = img->in.pairs[i].ddi))
		verity_image_ddi_pair_of(v, &full.ddi);
	if (img->own) {
		const fv_pair *pr = img->own;

		full.data = pr->data;
		full.hash = pr->hash;
		full.fec = pr->fec;
		full.params = &img->params[0];
		full.root_hex = pr->root_hex;
		full.signature = pr->pair.signature ? pr->signature_name : NULL;
	} else {
		const struct verity_image_pair *ip = &img->in.pairs[i];

		full.data = ip->pair.data.path;
		full.hash = ip->pair.hash.path;
		full.fec = ip->pair.fec.region.path ? ip->pair.fec.region.path
						    : img->fec_path;
		full.params = &img->params[i];
		full.root_hex = ip->root_hex;
		full.signature = ip->pair.signature
					 ? (ip->pair.signature_name
						    ? ip->pair.signature_name
						    : img->in.path)
					 : NULL;
	}
	GIVE(out, full, ddi);
	return 0;
}

/* --- actions on an opened image ----------------------------------------- */

/* A copy of pair i to act on, with the parity the request gave a pair
 * whose container has none. */
static int acting(const fv_image *img, size_t i, fv_pair **pr)
{
	int r;

	NEED(img);
	/* an Android image with no pair: why (a persistent digest, a
	 * descriptor that does not fit the file, ...) */
	if (i == 0 && !img->in.n && img->in.av)
		return verity_api_avb_unpaired(verity_api_avb_of(img->in.av));
	if ((r = verity_api_image_pair(img, i, pr)))
		return r;
	if (img->fec_path && !(*pr)->fec &&
	    (r = verity_api_pair_set_fec(*pr, img->fec_path, img->fec_offset,
					 img->fec_roots))) {
		verity_api_pair_free(*pr);
		*pr = NULL;
	}
	return r;
}

/* The options of an action on img: o's, with the certificates the
 * image was judged with (an anchor given to the action is refused: the
 * open judged the image, once). */
static int action_options(const char *who, const fv_image *img,
			  const fv_options *o, fv_options *full)
{
	int r;

	NEED(img);
	if ((r = verity_api_options_in(who, o, full)))
		return r;
	if (full->key || full->ntrusted_certs)
		return verity_api_fail(EINVAL,
				       "%s: the trust anchor (key, "
				       "trusted_certs) is fv_open's options': "
				       "the image was judged when it opened",
				       who);
	full->trusted_certs = (const char *const *)img->certs;
	full->ntrusted_certs = img->ncerts;
	return 0;
}

/* action on a copy of pair i (once per call, not per block). */
static int act_on(const char *who, const fv_image *img, size_t i,
		  const fv_options *o, fv_result **res,
		  int (*action)(const fv_pair *, const fv_options *,
				fv_result **))
{
	fv_options opts;
	fv_pair *pr;
	int r;

	NEED(res);
	*res = NULL;
	if ((r = action_options(who, img, o, &opts)))
		return r;
	/* a signature judged for the kernel (the opening column) is not
	 * judged for a read: a given one with no anchor is the kernel's to
	 * check, a read's to refuse */
	if (img->activates && action != verity_api_pair_dump)
		return verity_api_fail(EINVAL,
				       "%s: %s: opened to be mapped (the open "
				       "request's activates): open it without "
				       "to read it",
				       who, img->in.path);
	if ((r = acting(img, i, &pr)))
		return r;
	r = action(pr, &opts, res);
	verity_api_pair_free(pr);
	return r;
}

API int fv_verify(const fv_image *img, size_t i, const fv_options *o,
		  fv_result **res)
{
	return act_on(__func__, img, i, o, res, verity_api_pair_verify);
}

API int fv_repair(const fv_image *img, size_t i, const fv_options *o,
		  fv_result **res)
{
	return act_on(__func__, img, i, o, res, verity_api_pair_repair);
}

/* The signer a disk image's pair i's signature names, unchecked, into
 * r's (where the door did not check it); one that cannot be read, why,
 * into r's warning (verity_image_ddi_signer). */
static int ddi_signer(const fv_image *img, size_t i, fv_result *r)
{
	struct verity_sig_check who;
	struct ht_error err;
	int rc;

	if (r->sig.signer[0] ||
	    (rc = verity_image_ddi_signer(&img->in, i, &who, &err)) > 0)
		return 0;
	if (rc)
		return verity_api_keep(rc, &err);
	_Static_assert(sizeof(who.signer) == sizeof(who.warning), "one size");
	memcpy(*who.signer ? r->sig.signer : r->sig.warning,
	       *who.signer ? who.signer : who.warning, sizeof(who.signer));
	return 0;
}

API int fv_describe(const fv_image *img, size_t i, const fv_options *o,
		    fv_result **res)
{
	int r = act_on(__func__, img, i, o, res, verity_api_pair_dump);

	if (!r && img->in.ddi_read && i < img->in.n &&
	    (r = ddi_signer(img, i, *res))) {
		fv_result_free(*res);
		*res = NULL;
	}
	return r;
}

API int fv_activate(const char *name, const fv_image *img, size_t i,
		    const fv_options *o, fv_result **res)
{
	fv_result *made = NULL;
	fv_options opts;
	fv_pair *pr;
	int r;

	NEED(name);
	if (res)
		*res = NULL;
	if ((r = action_options(__func__, img, o, &opts)) ||
	    (r = acting(img, i, &pr)))
		return r;
	o = &opts;
	/* a signer the door judged checkable is checked here, offline,
	 * before the table is loaded (the kernel still gets the
	 * signature) */
	if (pr->pair.signature &&
	    img->in.pairs[img->own ? 0 : i].trust == VERITY_TRUST_CHECK)
		r = verity_api_pair_check_signature(pr, o, &made);
	/* (the check's verdict handed back also when the mapping fails) */
	if (!r && !(r = verity_api_pair_activate(name, pr, o)) && res &&
	    !made && !(made = verity_api_result_new()))
		r = -ENOMEM;
	verity_api_pair_free(pr);
	if (res)
		*res = made;
	else
		fv_result_free(made);
	return r;
}

/* What pair 0 of img, opened alone, runs with (q's options as t took
 * them), into run: 0, or the refusal kept. */
static int runs(const struct fv_show_request *q,
		const struct verity_alone_takes *t, const fv_image *img,
		fv_options *run)
{
	struct ht_error err;

	return verity_api_keep(verity_image_alone_runs(q, t, img->in.path,
						       img->in.n, run, &err),
			       &err);
}

/* An image's one pair through the door (w: verify's, repair's, dump's,
 * open's; o: the anchor it is judged with), its notes said (rq's said),
 * then checked, shown as dump shows an Android image, or mapped. */
static int alone_pair(const struct fv_show_request *q, struct show *sh,
		      const struct verity_alone_takes *t, const char *container,
		      struct fv_show_request *w, const fv_options *o)
{
	const struct fv_open_request *rq = &t->rq;
	struct fv_open_request orq = {.size = sizeof(orq)};
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	int open = w->what == FV_SHOW_OPEN;
	struct fv_item judged;
	struct ht_error err;
	fv_result *res = NULL;
	fv_options run;
	char args[256];
	fv_image *img;
	int r;

	memcpy(&orq, rq, rq->size < sizeof(orq) ? rq->size : sizeof(orq));
	orq.size = sizeof(orq);
	orq.image = orq.data ? NULL : q->image; /* (a tree dumped alone) */
	orq.container = orq.data ? NULL : container;
	if ((r = fv_open(&orq, o, &img)))
		return r;
	/* judged: the options it runs with (the check or mapping runs on
	 * the open's verdict, without the anchor), what it does not take
	 * refused; open's before its notes, the others' after */
	judged = (struct fv_item){.kind = FV_ITEM_UINT,
				  .key = "trust",
				  .text = img->in.path,
				  .u = img->in.pairs[0].trust,
				  .d = (double)img->in.n};
	if (open && ((r = runs(q, t, img, &run)) ||
		     (rq->said && (r = rq->said(rq->ctx, &judged)))))
		goto out;
	verity_image_alone_notes(img, open ? img->in.path : q->image, &orq,
				 q->args, args, sizeof(args));
	if (w->what == FV_SHOW_AVB_DUMP) {
		fv_image_free(img);
		r = verity_image_avb_dump(w, sh, &err);
		return !r || r == sh->r ? r : verity_api_keep(r, &err);
	}
	if (!open && ((r = runs(q, t, img, &run)) ||
		      (rq->said && (r = rq->said(rq->ctx, &judged)))))
		goto out;
	if (open) { /* mapped as args; its files said once it is */
		fv_image_pair_info(img, 0, &pi);
		r = fv_activate(q->args, img, 0, &run, q->res ? q->res : &res);
		fv_result_free(res);
		if (r || !rq->said)
			goto out;
		rq->said(rq->ctx, &(struct fv_item){.kind = FV_ITEM_STRING,
						    .key = "data",
						    .text = pi.data});
		rq->said(rq->ctx, &(struct fv_item){.kind = FV_ITEM_STRING,
						    .key = "hash",
						    .text = pi.hash});
		goto out;
	}
	w->o = &run;
	w->img = img;
	w->args = args;
	r = verity_api_check_show(w, sh);
out:
	fv_image_free(img);
	return r;
}

/* The walk w of q's image (a), its request made. */
static int alone_walk(const struct fv_show_request *q, struct show *sh,
		      const struct verity_alone_takes *t,
		      const struct verity_alone *a, struct fv_show_request *w,
		      const fv_options *o)
{
	struct ht_error err;
	int r;

	switch (w->what) {
	case FV_SHOW_OTA_INFO:
	case FV_SHOW_OTA_VERIFY:
		return verity_api_ota_show(w, sh->fn, sh->ctx);
	case FV_SHOW_DDI:
	case FV_SHOW_DDI_VERIFY:
		return verity_api_ddi_show(w, sh->fn, sh->ctx);
	case FV_SHOW_SET_VERIFY:
		return verity_api_slot_show(w, sh);
	case FV_SHOW_SUPER:
		r = verity_android_show(w, sh, &err);
		return !r || r == sh->r ? r : verity_api_keep(r, &err);
	default:
		return alone_pair(q, sh, t, a->container, w, o);
	}
}

int verity_api_alone_show(const struct fv_show_request *q, struct show *sh)
{
	const struct fv_open_request *rq = q->open;
	struct verity_alone_takes t;
	struct fv_show_request w, qt;
	struct verity_alone a;
	struct ht_error err;
	fv_options o;
	int r, walked;

	NEED(rq);
	if ((r = verity_image_alone(q->image, rq->container, &a, &err)))
		return verity_api_keep(r, &err);
	/* what the walk does not take refused; then what it is (d: 2 a
	 * super image's logical partition, walked by its path): a refusal
	 * of the caller's ends it, with its return */
	qt = *q;
	if ((r = verity_image_alone_takes(q, &a, &t, &err))) {
		r = verity_api_keep(r, &err);
		goto out;
	}
	qt.o = &t.o;
	qt.set = &t.set;
	qt.open = &t.rq;
	qt.max = t.max;
	qt.partition = t.partition;
	if ((r = verity_image_alone_said(rq, &a, &t)))
		goto out;
	if (t.own == 2) { /* walked again by its path, IMAGE/NAME */
		r = verity_image_alone_partition(
			q, &t, rq->said, rq->ctx,
			&(struct verity_alone_again){verity_api_alone_show, sh,
						     &walked},
			&err);
		r = r ? verity_api_keep(r, &err) : walked;
		goto out;
	}
	if ((r = verity_image_alone_request(&qt, &a, &w, &o, &err))) {
		r = verity_api_keep(r, &err);
		goto out;
	}
	r = alone_walk(&qt, sh, &t, &a, &w, &o);
out:
	verity_image_alone_hint(q, &a, &t, r);
	verity_image_alone_takes_free(&t);
	return r;
}
