/* An image given alone, as its container reads it
 * (verity/image/image.h). */
#include "verity/image/image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/ota/ota.h"
#include "verity/image/ddishow.h"
#include "verity/tree/params.h"

enum verity_signature_from verity_image_avb_from(const struct verity_android *a)
{
	return a->img.vbmeta.h.algorithm != AVB_ALG_NONE
		       ? VERITY_SIGNATURE_FOUND
		       : VERITY_SIGNATURE_NONE;
}

/* img's pair 0 made of its Android image a, read and judged also where
 * it describes no pair (a vbmeta image, a hash footer, a persistent
 * digest): fv_image_info's avb says what it holds. */
static int take_avb(struct verity_image *img, struct verity_android *a)
{
	struct verity_image_pair *ip = &img->pairs[0];

	ip->from = verity_image_avb_from(a);
	ip->avb = a;
	if (!a->paired)
		return 0;
	ip->pair = a->pair;
	snprintf(ip->name, sizeof(ip->name), "%s", a->name);
	img->n = 1;
	return 0;
}

int verity_image_avb(struct verity_image *img, struct ht_error *err)
{
	int r;

	if ((r = verity_android_read(img->path, NULL, 0, &img->av, err)))
		return r;
	return take_avb(img, img->av);
}

int verity_image_super(struct verity_image *img, struct ht_error *err)
{
	struct verity_android_super *s;
	size_t np;
	int r;

	if ((r = verity_android_super_open(img->path, NULL, NULL, 0, 0, &s,
					   err)))
		return r;
	np = s->s.m.np;
	free(img->pairs);
	if (!(img->pairs = calloc(np ? np : 1, sizeof(*img->pairs))) ||
	    !(img->avs = calloc(np ? np : 1, sizeof(*img->avs)))) {
		verity_android_super_close(s);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; !r && i < np; i++) {
		const struct lp_partition *p = &s->s.m.p[i];
		struct verity_image_pair *ip = &img->pairs[img->n];
		char path[4096 + 64];
		struct verity_android *a;

		if (!p->num_extents)
			continue;
		snprintf(path, sizeof(path), "%s/%s", img->path, p->name);
		/* (read to be told whether it is an Android image) */
		if ((r = verity_android_super_read(s, i, 0, &a, err)) ==
		    -ENOMSG) {
			r = 0;
			continue;
		}
		verity_android_free(a);
		if (r || (r = verity_android_read(path, NULL, 0, &a, err)))
			break;
		img->avs[img->navs++] = a;
		if (!a->paired)
			continue;
		ip->from = verity_image_avb_from(a);
		ip->avb = a;
		ip->pair = a->pair;
		snprintf(ip->name, sizeof(ip->name), "%s", p->name);
		img->n++;
	}
	verity_android_super_close(s);
	return r;
}

/* The super image at img->path opened for metadata slot slot (its notes
 * told). */
static int super_slot(struct verity_image *img,
		      const struct verity_image_part *w, unsigned slot,
		      struct ht_error *err)
{
	struct verity_android_super *s;
	int r;

	verity_android_super_close(img->super);
	img->super = NULL;
	if ((r = verity_android_super_open(img->path, w->names, w->files, w->n,
					   slot, &s, err)))
		return r;
	img->super = s;
	for (size_t i = 0; w->note && i < s->nnotes; i++)
		w->note(w->ctx, s->notes[i]);
	return 0;
}

int verity_image_super_part(struct verity_image *img,
			    const struct verity_image_part *w,
			    struct ht_error *err)
{
	struct verity_android *a;
	char *path;
	int i, r;

	if (w->slot > 1)
		return ht_fail(err, EINVAL,
			       "%s: metadata slot %u: a or b (0, 1)", img->path,
			       w->slot);
	if ((r = super_slot(img, w, 0, err)))
		return r;
	if (w->slot && img->super->s.m.slots < 2)
		return ht_fail(err, EINVAL,
			       "%s: metadata of 1 slot: no slot b (slot b is "
			       "metadata slot 1)",
			       img->path);
	if (w->slot && (r = super_slot(img, w, 1, err)))
		return r;
	if ((i = verity_android_super_find(img->super, w->name, NULL)) < 0)
		return ht_fail(err, ENOENT,
			       "%s: no logical partition %s in slot %s",
			       img->path, w->name, w->slot ? "b" : "a");
	if ((r = verity_android_super_read(img->super, (size_t)i, 0, &a, err)))
		return r;
	if (!(path = strdup(a->path))) {
		verity_android_free(a);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	free(img->path);
	img->path = path;
	img->kind = VERITY_CONTAINER_AVB;
	img->av = a;
	return take_avb(img, a);
}

int verity_image_ddi(struct verity_image *img, struct ht_error *err)
{
	int r;

	if ((r = verity_ddi_image_read(img->path, &img->ddi, err)))
		return r;
	img->ddi_read = 1;
	/* (room the caller made: replaced, as verity_image_super does) */
	free(img->pairs);
	if (!(img->pairs = calloc(img->ddi.nv ? img->ddi.nv : 1,
				  sizeof(*img->pairs))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < img->ddi.nv; i++) {
		const struct ddi_verity *v = &img->ddi.v[i];
		struct verity_image_pair *ip = &img->pairs[i];

		if ((r = verity_ddi_pair(&img->ddi, v, &ip->pair, err)))
			return r;
		ip->from = v->signature ? VERITY_SIGNATURE_FOUND
					: VERITY_SIGNATURE_NONE;
		ip->ddi = v;
		snprintf(ip->name, sizeof(ip->name), "%s-%s",
			 verity_ddi_role_name(v->role), v->arch);
		img->n++;
	}
	return 0;
}

int verity_image_ddi_signer(const struct verity_image *img, size_t i,
			    struct verity_sig_check *who, struct ht_error *err)
{
	const struct ddi_verity *v = img->pairs[i].ddi;
	char name[64];
	int r;

	if (!v->sig)
		return 1;
	/* named as messages name the partition */
	snprintf(name, sizeof(name), "partition %u", v->sig->index);
	memset(who, 0, sizeof(*who));
	r = verity_signature_signer(
		&(struct verity_sig){v->signature, v->signature_len, name}, who,
		err);
	/* one that cannot be read names no signer: why, as its warning
	 * (dump checks nothing; verify refuses it when it checks it) */
	if (r && r != -ENOMEM) {
		memset(who, 0, sizeof(*who));
		snprintf(who->warning, sizeof(who->warning), "%s", ht_msg(err));
		r = 0;
	}
	return r;
}

int verity_image_ddi_pick(struct verity_image *img, const char *partition,
			  struct ht_error *err)
{
	size_t k = 0;
	int r;

	if (img->kind != VERITY_CONTAINER_DDI)
		return ht_fail(
			err, EINVAL,
			"%s: a partition is a disk image's (its role) or a "
			"super image's (its name)",
			img->path);
	if ((r = verity_image_ddi_asked(&img->ddi, img->path, partition, err)))
		return r;
	/* (the pairs point into the table, which stays whole) */
	for (size_t i = 0; i < img->n; i++)
		if (verity_image_ddi_picks(partition, img->pairs[i].ddi))
			img->pairs[k++] = img->pairs[i];
	img->n = k;
	return 0;
}

void verity_image_facts(struct verity_image *img)
{
	for (size_t i = 0; i < img->n; i++) {
		struct verity_image_pair *ip = &img->pairs[i];

		if (ip->pair.root_size)
			verity_hex_encode(ip->pair.root, ip->pair.root_size,
					  ip->root_hex);
	}
}

void verity_image_clear(struct verity_image *img)
{
	verity_android_free(img->av);
	for (size_t i = 0; i < img->navs; i++)
		verity_android_free(img->avs[i]);
	free(img->avs);
	if (img->ddi_read)
		verity_ddi_image_free(&img->ddi);
	verity_ota_free(img->ota);
	/* (after the partition read through its files) */
	verity_android_super_close(img->super);
	free(img->pairs);
	free(img->path);
	memset(img, 0, sizeof(*img));
}
