/* The public library: Android A/B OTA packages (include/fastverity.h,
 * "Android OTA packages"; docs/ota.md). */
#include "verity/api/internal.h"
#include "verity/container/ota/ota.h"

struct fv_ota {
	struct verity_ota *o;
};

API int fv_ota_open(const char *path, unsigned how, const fv_options *opt,
		    fv_ota **out)
{
	struct ht_error err;
	fv_options full;
	fv_ota *p;
	int r;

	NEED(path);
	NEED(out);
	*out = NULL;
	if ((r = verity_api_options_in(__func__, opt, &full)))
		return r;
	if (how > 3)
		return verity_api_fail(EINVAL, "%s: how %u: 0 to 3", __func__,
				       how);
	if (full.ntrusted_certs > 1)
		return verity_api_fail(EINVAL,
				       "%s: one certificate checks a payload's "
				       "signatures (%zu given)",
				       __func__, full.ntrusted_certs);
	if (!(p = calloc(1, sizeof(*p))))
		return verity_api_fail(ENOMEM, "out of memory");
	if ((r = verity_ota_open(path, (int)how,
				 full.ntrusted_certs ? full.trusted_certs[0]
						     : NULL,
				 full.threads,
				 &p->o, &err))) {
		free(p);
		return verity_api_keep(r, &err);
	}
	*out = p;
	return 0;
}

API int fv_ota_extract(fv_ota *p, const char *dir, const char *src,
			  const char *names)
{
	struct ht_error err;
	int r;

	NEED(p);
	if ((r = verity_ota_apply(p->o, dir, src, names, &err)) ||
	    (r = verity_ota_facts(p->o, &err)))
		return verity_api_keep(r, &err);
	return 0;
}

API void fv_ota_free(fv_ota *p)
{
	if (!p)
		return;
	verity_ota_free(p->o);
	free(p);
}

API int fv_ota_fact(const fv_ota *p, size_t i, const char *kv[2], int *type)
{
	NEED(p);
	NEED(kv);
	NEED(type);
	if (i >= p->o->nf)
		return -ENOENT;
	kv[0] = p->o->f[i].key;
	kv[1] = p->o->f[i].value;
	*type = p->o->f[i].type;
	return 0;
}
