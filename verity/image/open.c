/* An image opened by the door, below it (verity/image/open.h). */
#include "verity/image/open.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/android.h"
#include "verity/container/ota/ota.h"
#include "verity/container/ddi/ddi.h"
#include "verity/image/judge.h"
#include "verity/policy/kinds.h"
#include "verity/registry/registry.h"
#include "verity/show/pair.h"

void verity_image_free(fv_image *img)
{
	if (!img)
		return;
	verity_image_clear(&img->in);
	verity_held_free(img->own);
	for (size_t i = 0; i < img->ncerts; i++)
		free(img->certs[i]);
	free(img->certs);
	free(img->params);
	free(img->fec_path);
	free(img);
}

enum verity_anchor verity_image_anchor_of(const fv_options *o)
{
	return o->key              ? VERITY_ANCHOR_KEY
	       : o->ntrusted_certs ? VERITY_ANCHOR_CERT
				   : VERITY_ANCHOR_NONE;
}

/* The member of a request to show that is not its image, or NULL. */
static const char *show_stray(const struct fv_open_request *q,
			      const fv_options *o)
{
	return q->data             ? "data"
	       : q->hash           ? "hash"
	       : q->params         ? "params"
	       : q->hash_offset    ? "hash_offset"
	       : q->fec_path       ? "fec_path"
	       : q->fec_offset     ? "fec_offset"
	       : q->fec_roots      ? "fec_roots"
	       : q->signature_path ? "signature_path"
	       : q->writes         ? "writes"
	       : q->root_hex       ? "root_hex"
	       : q->root_hash_file ? "root_hash_file"
	       : q->activates      ? "activates"
	       : o->key            ? "the options' key"
	       : o->ntrusted_certs ? "the options' trusted_certs"
				   : NULL;
}

int verity_image_open_shown(const struct fv_open_request *req,
			    const fv_options *o, fv_image **out,
			    struct ht_error *err)
{
	const char *stray = show_stray(req, o);
	struct verity_android *a;
	fv_image *img;
	int r;

	if (req->container && strcmp(req->container, "avb"))
		return ht_fail(err, EINVAL,
			       "fv_open: show reads an Android image "
			       "(container avb), not %s",
			       req->container);
	if (!req->image || stray)
		return ht_fail(err, EINVAL,
			       "fv_open: show takes an image alone (%s given)",
			       req->image ? stray : "no image");
	if (!(img = calloc(1, sizeof(*img))) ||
	    !(img->in.path = strdup(req->image)) ||
	    !(img->in.pairs = calloc(1, sizeof(*img->in.pairs)))) {
		verity_image_free(img);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	img->in.kind = VERITY_CONTAINER_AVB;
	if ((r = verity_android_read(img->in.path, NULL, 1, &a, err))) {
		verity_image_free(img);
		return r;
	}
	img->in.av = a;
	img->in.pairs[0].trust = a->trust;
	*out = img;
	return 0;
}

/* The one pair of a disk image that open maps, the partition not
 * named: its only one, or root's of several. */
static int ddi_open_pick(struct verity_image *in, struct ht_error *err)
{
	size_t at = 0;

	while (in->n > 1 && at < in->n &&
	       strcmp(verity_ddi_role_name(in->pairs[at].ddi->role), "root"))
		at++;
	if (at == in->n)
		return ht_fail(err, EINVAL,
			       "%s: no protected partition to open", in->path);
	return in->n > 1 ? verity_image_ddi_pick(in, "root", err) : 0;
}

int verity_image_opened(fv_image *img, const struct fv_open_request *req,
			const fv_options *o, struct ht_error *err)
{
	size_t n;
	int r = verity_image_judge(
		&img->in, img->own,
		&(struct verity_image_ask){verity_image_anchor_of(o), o->key,
					   req->writes, req->activates},
		err);

	img->writes = req->writes;
	img->activates = req->activates;
	if (!r && o->ntrusted_certs &&
	    !(img->certs = calloc(o->ntrusted_certs, sizeof(*img->certs))))
		r = ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; !r && i < o->ntrusted_certs; i++, img->ncerts++)
		if (!(img->certs[i] = strdup(o->trusted_certs[i])))
			r = ht_fail(err, ENOMEM, "out of memory");
	/* the partition asked for, once every pair was judged; open maps
	 * one: root's, of several */
	if (!r && !req->partition && img->in.kind == VERITY_CONTAINER_DDI &&
	    req->action && !strcmp(req->action, "open"))
		r = ddi_open_pick(&img->in, err);
	else if (!r && req->partition && !img->in.super)
		r = verity_image_ddi_pick(&img->in, req->partition, err);
	if (r)
		return r;
	verity_image_facts(&img->in);
	n = img->in.n ? img->in.n : 1;
	if (!(img->params = calloc(n, sizeof(*img->params))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < img->in.n; i++) {
		img->params[i].size = sizeof(img->params[i]);
		verity_show_params(img->own ? &img->own->params
					    : &img->in.pairs[i].pair.params,
				   &img->params[i]);
	}
	if (img->own || !req->fec_path)
		return 0;
	img->fec_offset = req->fec_offset;
	img->fec_roots = req->fec_roots;
	return verity_held_string(&img->fec_path, req->fec_path, err);
}

void verity_image_told(void *ctx, const char *text)
{
	const struct fv_open_request *req = ctx;

	if (req->said)
		req->said(req->ctx, &(struct fv_item){.kind = FV_ITEM_WARNING,
						      .text = text});
}

int verity_image_acts(const fv_image *img, const struct fv_open_request *req,
		      struct ht_error *err)
{
	const struct verity_android *a = img->in.av;
	const char *path = img->in.path;
	int r;

	if (!req->action || !a)
		return 0;
	/* dump shows a hash footer's descriptor: it needs no pair */
	if (!strcmp(req->action, "dump") && a->img.has_footer && !a->ht)
		return 0;
	if (!a->img.has_footer)
		return ht_fail(err, EINVAL,
			       "%s: a vbmeta image (no footer): its "
			       "descriptors describe other partitions' "
			       "images, which fastverity avb verify_image "
			       "--image %s checks",
			       path, path);
	if (!a->ht)
		return ht_fail(err, EINVAL,
			       "%s: the vbmeta has no hashtree descriptor, "
			       "no tree to %s (verify checks its hash "
			       "descriptor)",
			       path, req->action);
	if (img->in.n)
		return 0;
	/* why the descriptor makes no pair, in the library's words */
	if ((r = verity_android_unpaired(a, err)))
		return r;
	return ht_fail(err, EINVAL, "%s: no pair to %s", path, req->action);
}

/* A plain pair or an image with sidecar files: the pair made of what
 * req gives (what it does not give, a sidecar image's files), then
 * judged. */
static int open_pair(fv_image *img, const struct fv_open_request *req,
		     struct ht_error *err)
{
	struct verity_image_pair *ip = &img->in.pairs[0];
	int side = img->in.kind == VERITY_CONTAINER_SIDECAR, r;
	struct verity_params q;
	struct verity_held *pr;

	r = side ? verity_held_sidecar(req->image, &img->own, err)
		 : verity_held_new(req->data, req->hash, &img->own, err);
	if (!r && req->params &&
	    !(r = verity_show_params_in(req->params, &q, err)))
		r = verity_params_validate(&q, err);
	if (r)
		return r;
	pr = img->own;
	if ((r = verity_held_request(
		     pr,
		     &(struct verity_held_request){
			     .params = req->params ? &q : NULL,
			     .hash_offset = req->hash_offset,
			     .fec_path = req->fec_path,
			     .fec_offset = req->fec_offset,
			     .fec_roots = req->fec_roots,
			     .signature_path = req->signature_path,
			     .root_hex = req->root_hex,
			     .root_hash_file = req->root_hash_file},
		     err)))
		return r;
	ip->from = !pr->pair.signature        ? VERITY_SIGNATURE_NONE
		   : pr->pair.signature_found ? VERITY_SIGNATURE_FOUND
					      : VERITY_SIGNATURE_GIVEN;
	snprintf(ip->name, sizeof(ip->name), "%s", "data");
	img->in.n = 1;
	return 0;
}

int verity_image_open(const struct fv_open_request *req, const fv_options *o,
		      fv_image **out, struct ht_error *err)
{
	int want = VERITY_CONTAINER_AUTO, r;
	fv_image *img;

	if (req->show)
		return verity_image_open_shown(req, o, out, err);
	if (req->container &&
	    ((want = verity_container_by_name(req->container)) < 0 ||
	     want == VERITY_CONTAINER_SPARSE))
		return ht_fail(err, EINVAL,
			       "no container of images named '%s' (avb, ddi, "
			       "super, sidecar, plain)",
			       req->container);
	if (!req->image && (!req->data || !req->hash))
		return ht_fail(err, EINVAL,
			       "fv_open: an image, or a data and a hash "
			       "device");
	if (!req->image && want != VERITY_CONTAINER_AUTO &&
	    want != VERITY_CONTAINER_PLAIN)
		return ht_fail(err, EINVAL,
			       "container %s: takes an image alone; a data "
			       "and a hash device are a plain pair",
			       req->container);
	if (!(img = calloc(1, sizeof(*img))) ||
	    !(img->in.path = strdup(req->image ? req->image : req->data))) {
		free(img);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	img->in.kind = VERITY_CONTAINER_PLAIN;
	r = req->image ? verity_container_identify(req->image,
						   (enum verity_container)want,
						   &img->in.kind, err)
		       : 0;
	if (!r && img->in.kind != VERITY_CONTAINER_DDI &&
	    !(img->in.pairs = calloc(1, sizeof(*img->in.pairs))))
		r = ht_fail(err, ENOMEM, "out of memory");
	if (!r)
		r = img->in.kind == VERITY_CONTAINER_AVB
			    ? verity_image_avb(&img->in, err)
		    : img->in.kind == VERITY_CONTAINER_DDI
			    ? verity_image_ddi(&img->in, err)
		    : img->in.kind == VERITY_CONTAINER_SUPER && req->partition
			    ? verity_image_super_part(
				      &img->in,
				      &(struct verity_image_part){
					      req->partition, req->slot,
					      req->names, req->files, req->n,
					      verity_image_told, (void *)req},
				      err)
		    : img->in.kind == VERITY_CONTAINER_SUPER
			    ? verity_image_super(&img->in, err)
		    : img->in.kind == VERITY_CONTAINER_OTA
			    ? verity_ota_open(img->in.path, 0, NULL, o->threads,
					      &img->in.ota, err)
			    : open_pair(img, req, err);
	if (!r)
		r = verity_image_opened(img, req, o, err);
	if (!r)
		r = verity_image_acts(img, req, err);
	if (r) {
		verity_image_free(img);
		return r;
	}
	*out = img;
	return 0;
}
