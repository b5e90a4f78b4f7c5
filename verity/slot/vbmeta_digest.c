/* calculate_vbmeta_digest (verity/slot/vbmeta_digest.h): the vbmeta
 * blobs one walk reads, in avbtool's order, hashed as one message. */
#include "verity/slot/vbmeta_digest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/hasher.h"
#include "verity/android/request.h"
#include "verity/registry/registry.h"
#include "verity/slot/walk.h"

/* The vbmeta step the chain step c led to: the one after it, or for a
 * partition visited already, the first of that name (avbtool hashes a
 * chained partition's blob once for each descriptor naming it). */
static const struct slot_step *chained(const struct slot_walk *w, size_t c)
{
	for (size_t i = 0; i < w->n; i++) {
		const struct slot_step *st = &w->steps[i];

		if (st->kind == SLOT_VBMETA && st->depth == 1 &&
		    (w->steps[c].followed
			     ? st->parent == c
			     : !strcmp(st->name, w->steps[c].name)))
			return st;
	}
	return NULL;
}

/* The walk's blobs into parts and sizes (one per vbmeta hashed, w->n at
 * most): their count, or the first step that failed's error. */
static int blobs(const struct slot_walk *w, const void **parts, size_t *sizes,
		 size_t *n, struct ht_error *err)
{
	*n = 0;
	for (size_t i = 0; i < w->n; i++) {
		const struct slot_step *st = &w->steps[i], *vb = st;

		/* the top vbmeta and its chains; what lies below is not
		 * read */
		if (st->depth || (i && st->kind != SLOT_CHAIN))
			continue;
		if (st->kind == SLOT_CHAIN && st->result == SLOT_OK &&
		    !st->followed)
			continue;
		if (st->kind == SLOT_CHAIN && st->result != SLOT_SKIPPED &&
		    st->result != SLOT_OK)
			return ht_fail(err, st->error ? -st->error : EINVAL,
				       "%s", st->message);
		if (st->kind == SLOT_CHAIN && !(vb = chained(w, i)))
			return ht_fail(err, EINVAL, "%s: no vbmeta read",
				       st->path);
		if (vb->result != SLOT_OK)
			return ht_fail(err, vb->error ? -vb->error : EINVAL,
				       "%s", vb->message);
		parts[*n] = vb->avb->img.vbmeta.blob;
		sizes[(*n)++] = vb->avb->img.vbmeta.size;
	}
	return 0;
}

int verity_slot_vbmeta_digest(const struct fv_show_request *q, struct show *sh,
			      struct ht_error *err)
{
	struct verity_android_shown opts;
	const char *alg;
	uint8_t d[HT_MAX_DIGEST_SIZE];
	char hex[2 * HT_MAX_DIGEST_SIZE + 2];
	const void **parts = NULL;
	size_t *sizes = NULL, n, len;
	struct slot_walk w;
	struct slot_ask ask;
	int r;

	memset(&w, 0, sizeof(w));
	memset(&ask, 0, sizeof(ask));
	if ((r = verity_android_shown_of(q, &opts, err)))
		return r;
	alg = opts.hash ? opts.hash : "sha256";
	if ((r = ht_digest_parts(alg, 0, NULL, NULL, d, &len, err)))
		return r != -EINVAL ? r
				    : ht_fail(err, EINVAL,
					      "hash algorithm '%s' is not "
					      "supported",
					      alg);
	if ((r = verity_container_named(q->image, "avb", &ask.kind, err)))
		return r;
	/* read, not checked: the top's chains, one level down */
	ask.image = q->image;
	ask.flags = SLOT_FOLLOW;
	if ((r = verity_slot_walk(&w, &ask, err)))
		goto out;
	if (!(parts = calloc(w.n, sizeof(*parts))) ||
	    !(sizes = calloc(w.n, sizeof(*sizes)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if ((r = blobs(&w, parts, sizes, &n, err)) ||
	    (r = ht_digest_parts(alg, n, parts, sizes, d, &len, err)))
		goto out;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	hex[2 * len] = '\n';
	verity_show_bytes(sh, hex, 2 * len + 1);
	r = sh->r;
out:
	free(parts);
	free(sizes);
	verity_slot_walk_free(&w);
	return r;
}
