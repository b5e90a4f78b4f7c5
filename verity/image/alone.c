/* An image given alone to verify: the registry's word and its walk
 * (verity/image/alone.h). */
#include "verity/image/alone.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verity/android/android.h"
#include "verity/container/avb/vbmeta.h"
#include "verity/image/open.h"
#include "verity/image/takes.h"
#include "verity/policy/kinds.h"
#include "verity/registry/registry.h"

/* A set's top: a vbmeta image (no footer), or an image whose vbmeta has
 * no hashtree descriptor (a hash footer's digest). */
static int set_top(const char *image)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = image, .show = 1};
	fv_options o = {.size = sizeof(o)};
	struct ht_error err;
	fv_image *img;
	int yes;

	if (verity_image_open_shown(&rq, &o, &img, &err))
		return 0;
	yes = !img->in.av->img.has_footer || !img->in.av->ht;
	verity_image_free(img);
	return yes;
}

int verity_image_alone(const char *image, const char *container,
		       struct verity_alone *out, struct ht_error *err)
{
	const char *name;
	int r, k = container ? verity_container_by_name(container) : 0;

	/* a name the caller may ask for: not a sparse image (read under
	 * any), not an OTA package (found by its probe alone) */
	if (k < 0 || k == VERITY_CONTAINER_SPARSE || k == VERITY_CONTAINER_OTA)
		return ht_fail(err, EINVAL,
			       "--container: '%s' is not avb, ddi, super, "
			       "sidecar or plain",
			       container);
	if ((r = verity_container_named(image, container, &name, err)))
		return r;
	out->container = name;
	out->walk = !strcmp(name, "ota")     ? VERITY_ALONE_OTA
		    : !strcmp(name, "ddi")   ? VERITY_ALONE_DDI
		    : !strcmp(name, "super") ? VERITY_ALONE_SET
		    : strcmp(name, "avb")    ? VERITY_ALONE_SIDECAR
		    : set_top(image)         ? VERITY_ALONE_SET
					     : VERITY_ALONE_PAIR;
	return 0;
}

int verity_image_alone_said(const struct fv_open_request *rq,
			    const struct verity_alone *a,
			    struct verity_alone_takes *t)
{
	static const unsigned walks[] = {[VERITY_ALONE_OTA] = 2,
					 [VERITY_ALONE_DDI] = 3,
					 [VERITY_ALONE_SET] = 1,
					 [VERITY_ALONE_PAIR] = 0,
					 [VERITY_ALONE_SIDECAR] = 4};

	int r;

	t->said = 1;
	if (!rq->said ||
	    (r = rq->said(rq->ctx, &(struct fv_item){.kind = FV_ITEM_STRING,
						     .key = "container",
						     .text = a->container,
						     .u = walks[a->walk],
						     .d = t->own})))
		return rq->said ? r : 0;
	/* the tree an image with sidecar files is read from, for the
	 * caller's words when it holds no superblock */
	return t->tree ? rq->said(rq->ctx,
				  &(struct fv_item){.kind = FV_ITEM_STRING,
						    .key = "tree",
						    .text = t->tree,
						    .u = t->rq.hash_offset,
						    .d = t->rq.params != NULL})
		       : 0;
}

void verity_image_alone_hint(const struct fv_show_request *q,
			     const struct verity_alone *a,
			     const struct verity_alone_takes *t, int r)
{
	const struct fv_open_request *rq = q->open;
	int devices = 0, split, helps;

	if (!t->said || !rq->said || r != -ENODEV ||
	    strcmp(a->container, "super"))
		return;
	for (size_t i = 0; q->options && i < q->noptions; i++)
		devices |= !strcmp(q->options[2 * i], "block-device");
	/* a split super image's device missing: which option gives it.
	 * verify: when none was given; open: not a device-mapper's ENODEV,
	 * after the pair was judged; dump, repair: no other */
	split = strstr(fv_last_error(), "split super") != NULL;
	helps = q->what == FV_SHOW_VERIFY ? split && !devices
		: q->what == FV_SHOW_OPEN ? split
					  : 1;
	if (helps)
		rq->said(rq->ctx,
			 &(struct fv_item){.kind = FV_ITEM_ERROR,
					   .key = "hint",
					   .text = "give it: --block-device "
						   "NAME=FILE"});
}

/* A note said as it is. */
static void note(fv_item_fn said, void *ctx, const char *text)
{
	if (said)
		said(ctx,
		     &(struct fv_item){.kind = FV_ITEM_ERROR, .text = text});
}

void verity_image_alone_notes(const fv_image *img, const char *image,
			      const struct fv_open_request *req,
			      const char *args, char *buf, size_t len)
{
	fv_item_fn said = req->said;
	void *ctx = req->ctx;
	const struct verity_android *a = img->in.av;
	int unchecked =
		img->in.n && img->in.pairs[0].trust == VERITY_TRUST_UNCHECKED;
	char text[512];

	if (a && a->paired && a->unusable) {
		snprintf(text, sizeof(text),
			 "%s: the parity uses 4096-byte blocks under a tree of "
			 "%u-byte blocks (avbtool's way), which the kernel "
			 "cannot use: left out",
			 image, img->params[0].data_block_size);
		note(said, ctx, text);
	}
	if (a && unchecked && (!req->action || strcmp(req->action, "dump"))) {
		snprintf(text, sizeof(text),
			 "%s: warning: the vbmeta is signed (%s, public key "
			 "sha1 %s) and checks out against the key it carries, "
			 "but its signer was not checked (give "
			 "--key=<key.pem>): nothing proves who made it",
			 image,
			 verity_avb_algorithm(a->img.vbmeta.h.algorithm)->name,
			 a->key_sha1);
		note(said, ctx, text);
	}
	/* its flags, as the set walk says a top vbmeta's: a device obeys
	 * them where this vbmeta is the top one (chained, libavb refuses
	 * flags) */
	if (a && (a->img.vbmeta.h.flags & 3) && req->action &&
	    !strcmp(req->action, "verify") && said) {
		const uint32_t f = a->img.vbmeta.h.flags;

		snprintf(text, sizeof(text),
			 "%s: its vbmeta disables %s (flags %u): as the top "
			 "vbmeta, a device booting it %s; chained, libavb "
			 "refuses it; checked here all the same",
			 image, f & 2 ? "verification" : "hashtrees", f,
			 f & 2 ? "checks none of it"
			       : "maps it without dm-verity");
		said(ctx,
		     &(struct fv_item){.kind = FV_ITEM_WARNING, .text = text});
	}
	if (buf)
		snprintf(buf, len, "%s%s", args ? args : "",
			 !unchecked ? ""
			 : a        ? " and with --key=<key.pem>"
				    : " and with --trusted-cert=<cert.pem>");
}

void verity_image_alone_anchor(const fv_options *o, fv_options *anchor,
			       fv_options *run)
{
	fv_options full;

	memset(&full, 0, sizeof(full));
	if (o)
		memcpy(&full, o,
		       o->size < sizeof(full) ? o->size : sizeof(full));
	full.size = sizeof(full);
	if (anchor)
		*anchor = full;
	full.key = NULL;
	full.trusted_certs = NULL;
	full.ntrusted_certs = 0;
	if (run)
		*run = full;
}

int verity_image_alone_request(const struct fv_show_request *q,
			       const struct verity_alone *a,
			       struct fv_show_request *w, fv_options *o,
			       struct ht_error *err)
{
	const struct fv_slot_request *set = q->set;
	int dump = q->what == FV_SHOW_PAIR, repair = q->what == FV_SHOW_REPAIR;
	int open = q->what == FV_SHOW_OPEN;

	verity_image_alone_anchor(q->o, o, NULL);
	memset(w, 0, sizeof(*w));
	w->size = sizeof(*w);
	w->image = q->image;
	w->json = q->json;
	w->o = dump ? NULL : o;
	/* repair and open: a pair, what holds none refused (the pair's
	 * action says what it cannot do with an Android image); open's of a
	 * disk image judged with the certificates trusted with no anchor */
	if (open && a->walk == VERITY_ALONE_DDI && !o->ntrusted_certs) {
		o->trusted_certs = q->certs;
		o->ntrusted_certs = q->ncerts;
	}
	if ((repair &&
	     (a->walk == VERITY_ALONE_OTA || !strcmp(a->container, "super"))) ||
	    (open &&
	     (a->walk == VERITY_ALONE_OTA || a->walk == VERITY_ALONE_SIDECAR)))
		return ht_fail(
			err, EINVAL, "%s: %s holds no one pair to %s", q->image,
			verity_container_words(
				(enum verity_container)verity_container_by_name(
					a->container)),
			open ? "open" : "repair");
	switch (repair || open ? VERITY_ALONE_PAIR : a->walk) {
	case VERITY_ALONE_OTA: /* as ota info and ota verify */
		w->what = dump ? FV_SHOW_OTA_INFO : FV_SHOW_OTA_VERIFY;
		w->dir = o->key ? q->dir : NULL;
		w->key = o->key;
		o->key = NULL;
		return 0;
	case VERITY_ALONE_DDI:
		w->what = dump ? FV_SHOW_DDI : FV_SHOW_DDI_VERIFY;
		w->partition = q->partition;
		if (!o->ntrusted_certs) {
			o->trusted_certs = q->certs;
			o->ntrusted_certs = q->ncerts;
		}
		return 0;
	case VERITY_ALONE_SIDECAR:
		/* its tree shown, the image named when the tree is beside
		 * it (verity/image/takes.c) */
		if (dump && q->open && q->open->data) {
			w->what = FV_SHOW_PAIR;
			w->image = q->open->data != q->image ? q->image : NULL;
			return 0;
		}
		if (dump)
			return ht_fail(err, EINVAL,
				       "%s: an image with sidecar files: dump "
				       "its tree",
				       q->image);
		break;
	default:
		break;
	}
	if (!strcmp(a->container, "super") && dump) {
		w->what = FV_SHOW_SUPER;
		if (!set)
			return ht_fail(err, EINVAL, "fv_show: set is NULL");
		w->names = set->device_names;
		w->files = set->device_files;
		w->n = set->ndevices;
		w->slot = set->slot && !strcmp(set->slot, "b");
		w->all = !set->slot;
		return 0;
	}
	if (a->walk == VERITY_ALONE_SET && !dump && !repair && !open) {
		if (!set)
			return ht_fail(err, EINVAL, "fv_show: set is NULL");
		w->what = FV_SHOW_SET_VERIFY;
		w->set = set;
		o->key = NULL;
		return 0;
	}
	/* an Android image's pair (or an image with sidecar files); the
	 * key its vbmeta is judged against, for the words of the check */
	w->what = dump ? FV_SHOW_AVB_DUMP : q->what;
	w->o = o;
	w->key = o->key;
	w->all = repair || open ? 0 : q->all;
	w->res = q->res;
	w->max = q->max;
	return 0;
}
