/* An image given alone to verify: the registry's word and its walk
 * (verity/image/alone.h). */
#include "verity/image/alone.h"

#include <stdio.h>
#include <string.h>

#include "verity/android/android.h"
#include "verity/container/avb/vbmeta.h"
#include "verity/image/open.h"
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
	int r;

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

/* A note said as it is. */
static void note(fv_item_fn said, void *ctx, const char *text)
{
	if (said)
		said(ctx,
		     &(struct fv_item){.kind = FV_ITEM_ERROR, .text = text});
}

void verity_image_alone_notes(const fv_image *img, const char *image,
			      fv_item_fn said, void *ctx, const char *args,
			      char *buf, size_t len)
{
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
	if (a && unchecked) {
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
	snprintf(buf, len, "%s%s", args ? args : "",
		 !unchecked ? ""
		 : a        ? " and with --key=<key.pem>"
			    : " and with --trusted-cert=<cert.pem>");
}
