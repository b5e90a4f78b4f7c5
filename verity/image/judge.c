/* The trust policy asked, once for each pair an open judges. */
#include "verity/image/judge.h"

#include <errno.h>
#include <stdlib.h>

#include "verity/sign/scheme.h"

int verity_image_avb_verdict(struct verity_android *a,
			     enum verity_anchor anchor, const char *key_path,
			     const uint8_t *key, size_t len, int writes,
			     enum verity_avb_judgement *why,
			     struct ht_error *err)
{
	struct verity_trust_ask ask = {VERITY_CONTAINER_AVB,
				       a->path,
				       verity_image_avb_from(a),
				       anchor,
				       writes,
				       0};
	int r;

	*why = VERITY_AVB_REFUSED;
	if ((r = verity_trust_decide(&ask, &a->trust, err)))
		return r;
	*why = VERITY_AVB_OTHER_KEY;
	if (a->trust == VERITY_TRUST_CHECK &&
	    (!key || !verity_avb_vbmeta_has_key(&a->img.vbmeta, key, len)))
		return ht_fail(err, EPERM,
			       "%s: the vbmeta is signed by another key "
			       "(public key sha1 %s), not by %s",
			       a->path, a->key_sha1,
			       key_path ? key_path : "the key given");
	*why = VERITY_AVB_JUDGED;
	return 0;
}

int verity_image_judge(struct verity_image *img, struct verity_held *own,
		       const struct verity_image_ask *ask, struct ht_error *err)
{
	size_t n = img->n ? img->n : img->av ? 1 : 0, len = 0;
	uint8_t *key = NULL;
	int r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		struct verity_image_pair *ip = &img->pairs[i];

		if (ip->avb) {
			enum verity_avb_judgement why;

			/* the key read once, before the first verdict: one
			 * that cannot be read is said as such */
			if (ask->key && !key &&
			    (r = verity_sigkey_file_blob(ask->key, &key, &len,
							 err)))
				break;
			r = verity_image_avb_verdict(ip->avb, ask->anchor,
						     ask->key, key, len,
						     ask->writes, &why, err);
			ip->trust = ip->avb->trust;
		} else {
			struct verity_trust_ask t = {
				img->kind,
				!own ? img->path
				: ip->from != VERITY_SIGNATURE_NONE
					? own->signature_name
					: own->data,
				ip->from,
				ask->anchor,
				ask->writes,
				ask->activates};

			r = verity_trust_decide(&t, &ip->trust, err);
		}
		ip->pair.trust = ip->trust;
		ip->pair.judged = 1;
		if (own) {
			own->pair.trust = ip->trust;
			own->pair.judged = 1;
		}
	}
	free(key);
	return r;
}
