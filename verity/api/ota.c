/* The public library: Android A/B OTA packages through the door
 * (include/fastverity.h, "Android OTA packages"; docs/ota.md): fv_open
 * reads one (container "ota"), fv_ota_check checks and applies it, its
 * facts are read with fv_ota_fact, fv_image_free frees it. */
#include "verity/api/internal.h"
#include "verity/container/ota/ota.h"

/* img's package, or NULL (the message set). */
static struct verity_ota *ota_of(const char *who, const fv_image *img)
{
	if (!img || img->in.kind != VERITY_CONTAINER_OTA || !img->in.ota) {
		verity_api_fail(EINVAL, "%s: %s", who,
				img ? "not an Android OTA package (fv_open's "
				      "container \"ota\")"
				    : "img is NULL");
		return NULL;
	}
	return img->in.ota;
}

API int fv_ota_check(fv_image *img, unsigned how, const char *dir,
		     const char *src, const char *names)
{
	struct verity_ota *o = ota_of(__func__, img);
	struct ht_error err;
	int r;

	if (!o)
		return -EINVAL;
	if (how > 3)
		return verity_api_fail(EINVAL, "%s: how %u: 0 to 3", __func__,
				       how);
	/* the signer checked against the open's certificate (one), else
	 * the package's own (said not checked) */
	if (img->ncerts > 1)
		return verity_api_fail(EINVAL,
				       "%s: one certificate checks a payload's "
				       "signatures (%zu given to fv_open)",
				       __func__, img->ncerts);
	if (((how & 1) &&
	     (r = verity_ota_verify(o, img->ncerts ? img->certs[0] : NULL,
				    &err))) ||
	    ((how & 2) && (r = verity_ota_apply(o, dir, src, names, &err))) ||
	    (r = verity_ota_facts(o, &err)))
		return verity_api_keep(r, &err);
	return 0;
}

API int fv_ota_fact(const fv_image *img, size_t i, const char *kv[2], int *type)
{
	const struct verity_ota *o = ota_of(__func__, img);

	NEED(kv);
	NEED(type);
	if (!o)
		return -EINVAL;
	if (i >= o->nf)
		return -ENOENT;
	kv[0] = o->f[i].key;
	kv[1] = o->f[i].value;
	*type = o->f[i].type;
	return 0;
}
