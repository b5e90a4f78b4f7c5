/* Android images read (verity/android/android.h): the container's reader
 * (verity/container/avb/) and super image metadata
 * (verity/container/super/) made into what the door and the
 * firmware-set walk share. */
#include "verity/android/android.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "hashtree/libcrypto.h"
#include "verity/container/source.h"
#include "verity/tree/params.h"

void verity_android_free(struct verity_android *a)
{
	if (!a)
		return;
	verity_avb_image_free(&a->img);
	if (a->src) {
		verity_extents_free(a->src);
		free(a->src);
	}
	free(a->path);
	free(a->name);
	free(a);
}

void verity_android_key_sha1(const struct avb_vbmeta *v, char out[41])
{
	uint8_t d[20];
	unsigned len = 0;
	EVP_MD *md;

	out[0] = '\0';
	if (!v->h.public_key_size)
		return;
	md = EVP_MD_fetch(ht_crypto_libctx(), "SHA1", NULL);
	if (md &&
	    EVP_Digest(v->public_key, (size_t)v->h.public_key_size, d, &len, md,
		       NULL) &&
	    len == 20)
		verity_hex_encode(d, 20, out);
	EVP_MD_free(md);
}

int verity_android_read(const char *image, struct verity_extents *src, int show,
			struct verity_android **out, struct ht_error *err)
{
	struct ht_error quiet;
	struct verity_android *a;
	int r;

	*out = NULL;
	if (!(a = calloc(1, sizeof(*a))) || !(a->path = strdup(image))) {
		free(a);
		if (src) {
			verity_extents_free(src);
			free(src);
		}
		return ht_fail(err, ENOMEM, "out of memory");
	}
	a->src = src;
	if ((r = src ? verity_avb_image_read_source(a->path, src, &a->img, err)
		     : verity_avb_image_read(a->path, &a->img, err)) ||
	    (!show &&
	     (r = verity_avb_vbmeta_check(&a->img.vbmeta, a->path, err)))) {
		verity_android_free(a);
		return r;
	}
	a->shown = show;
	/* as read, with no anchor: the door judges it */
	a->trust = a->img.vbmeta.h.algorithm != AVB_ALG_NONE
			   ? VERITY_TRUST_UNCHECKED
			   : VERITY_TRUST_UNSIGNED;
	verity_android_key_sha1(&a->img.vbmeta, a->key_sha1);
	if ((a->ht = verity_avb_image_hashtree(&a->img)) &&
	    !(a->name = strndup((const char *)a->ht->hashtree.p.name,
				a->ht->hashtree.p.name_len))) {
		verity_android_free(a);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	/* the pair, when the image has one; its errors are
	 * verity_android_unpaired's */
	if (a->ht && a->img.has_footer && a->ht->hashtree.p.digest_len &&
	    !verity_avb_image_pair(&a->img, a->ht, &a->pair, &a->unusable,
				   &quiet)) {
		a->paired = 1;
		verity_hex_encode(a->pair.root, a->pair.root_size, a->root_hex);
	}
	*out = a;
	return 0;
}

int verity_android_unpaired(const struct verity_android *a,
			    struct ht_error *err)
{
	struct verity_pair pair;
	int unusable;

	if (a->shown)
		return ht_fail(err, EINVAL,
			       "%s: read for showing (fv_open's show), its "
			       "signature not checked: no pair",
			       a->path);
	if (!a->ht)
		return ht_fail(err, EINVAL,
			       "%s: the vbmeta has no hashtree descriptor",
			       a->path);
	if (!a->ht->hashtree.p.digest_len)
		return ht_fail(
			err, EINVAL,
			"%s: the hashtree descriptor holds no root digest (a "
			"persistent digest the device keeps): nothing to "
			"check the data against here (fastverity avb "
			"verify_image --image %s checks the tree against the "
			"data)",
			a->path, a->path);
	return verity_avb_image_pair(&a->img, a->ht, &pair, &unusable, err);
}

const struct avb_descriptor *
verity_android_descriptor(const struct verity_android *a, size_t i,
			  uint64_t tag, struct ht_error *err)
{
	const struct avb_descriptor *d;

	if (!a || i >= a->img.vbmeta.ndesc) {
		ht_fail(err, EINVAL, "%s: no descriptor %zu",
			a ? a->path : "(NULL)", i);
		return NULL;
	}
	d = &a->img.vbmeta.desc[i];
	if (tag != UINT64_MAX && d->tag != tag) {
		ht_fail(err, EINVAL,
			"%s: descriptor %zu has tag %llu, not %llu", a->path, i,
			(unsigned long long)d->tag, (unsigned long long)tag);
		return NULL;
	}
	return d;
}

int verity_android_descriptor_pair(const struct verity_android *a, size_t i,
				   const char *image, struct verity_pair *vp,
				   struct ht_error *err)
{
	const struct avb_descriptor *d =
		verity_android_descriptor(a, i, AVB_TAG_HASHTREE, err);
	struct verity_device dev;
	int unusable, r;

	if (!d)
		return -EINVAL;
	if ((r = verity_container_open(&dev, image, NULL, err)))
		return r;
	r = verity_avb_hashtree_pair(image, dev.size, d, vp, &unusable, err);
	verity_device_close(&dev);
	return r;
}

/* --- super images --- */

int verity_android_super_open(const char *image, const char *const *names,
			      const char *const *files, size_t n, unsigned slot,
			      struct verity_android_super **out,
			      struct ht_error *err)
{
	struct verity_android_super *s;
	int r;

	*out = NULL;
	/* (the public fv_super_open's checks, said in its name) */
	if (n && (!names || !files))
		return ht_fail(err, EINVAL,
			       "fv_super_open: names or files is NULL");
	for (size_t i = 0; i < n; i++)
		if (!names[i] || !files[i])
			return ht_fail(err, EINVAL,
				       "fv_super_open: block device %zu is "
				       "NULL",
				       i);
	if (!(s = calloc(1, sizeof(*s))))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = verity_super_open(&s->s, image, names, files, n, slot, err))) {
		free(s);
		return r;
	}
	for (int k = 0; k < 2; k++)
		if (s->s.m.note[k][0])
			s->notes[s->nnotes++] = s->s.m.note[k];
	for (uint32_t k = 0; k < s->s.nslot_notes; k++)
		s->notes[s->nnotes++] = s->s.slot_notes[k];
	*out = s;
	return 0;
}

void verity_android_super_close(struct verity_android_super *s)
{
	if (!s)
		return;
	verity_super_close(&s->s);
	free(s);
}

int verity_android_super_find(const struct verity_android_super *s,
			      const char *name, const char *slot)
{
	char picked[LP_NAME_MAX + 8];
	int own = verity_lp_suffix_slot(name), i;

	/* a name with a slot suffix is that partition, of that slot */
	if (slot && own >= 0)
		return own == (slot[0] == 'b') &&
				       (i = verity_lp_find(&s->s.m, name)) >= 0
			       ? i
			       : -ENOENT;
	if (slot && verity_lp_ab(&s->s.m)) {
		snprintf(picked, sizeof(picked), "%s_%s", name, slot);
		return (i = verity_lp_find(&s->s.m, picked)) < 0 ? -ENOENT : i;
	}
	i = verity_super_pick(&s->s.m, name, picked, sizeof(picked));
	return i < 0 ? -ENOENT : i;
}

int verity_android_super_locate(const struct verity_android_super *s, size_t i,
				uint64_t off, uint32_t *device, uint64_t *at,
				struct ht_error *err)
{
	if (off >= s->s.m.p[i].size)
		return ht_fail(err, EINVAL,
			       "%s: byte %llu past partition %s (%llu bytes)",
			       s->s.path, (unsigned long long)off,
			       s->s.m.p[i].name,
			       (unsigned long long)s->s.m.p[i].size);
	if (verity_lp_locate(&s->s.m, (uint32_t)i, off, device, at))
		return -ENODATA;
	return 0;
}

/* 1 when the bytes of x carry an AVB footer or start with a vbmeta. */
static int avb_there(const struct verity_extents *x, const char *path)
{
	struct verity_region whole = {path, 0, 0, x};
	struct verity_device d;
	int yes;

	if (verity_device_open_region(&d, &whole, VERITY_OPEN_READ, NULL))
		return 0;
	yes = verity_avb_device_probe(&d);
	verity_device_close(&d);
	return yes;
}

int verity_android_super_read(const struct verity_android_super *s, size_t i,
			      int show, struct verity_android **out,
			      struct ht_error *err)
{
	struct verity_extents *x;
	size_t len;
	char *path;
	int r;

	*out = NULL;
	if (!s->s.m.p[i].num_extents)
		return ht_fail(err, ENODATA,
			       "%s/%s: the partition is empty (no extents)",
			       s->s.path, s->s.m.p[i].name);
	len = strlen(s->s.path) + 1 + strlen(s->s.m.p[i].name) + 1;
	if (!(x = calloc(1, sizeof(*x))) || !(path = malloc(len))) {
		free(x);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	snprintf(path, len, "%s/%s", s->s.path, s->s.m.p[i].name);
	if ((r = verity_super_extents(&s->s, (uint32_t)i, x, err))) {
		free(x);
		free(path);
		return r;
	}
	x->path = s->s.path;
	if (!avb_there(x, path)) {
		r = ht_fail(err, ENOMSG,
			    "%s: not an Android image: no AVB footer in its "
			    "last 64 bytes and no vbmeta at byte 0",
			    path);
		verity_extents_free(x);
		free(x);
		free(path);
		return r;
	}
	r = verity_android_read(path, x, show, out, err);
	free(path);
	return r;
}
