/* The trust policy asked for an image given alone (docs/trust.md): each
 * pair of an opened image, and an Android image's vbmeta, judged once
 * when it opens (fv_open); a firmware set's top vbmeta judged for its
 * walk. The verdicts are kept on the pairs the actions copy. */
#ifndef FV_IMAGE_JUDGE_H
#define FV_IMAGE_JUDGE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/image/image.h"
#include "verity/pairs/held.h"

/* How an Android image's vbmeta was judged: the failure, so that each
 * caller says it in its own words (err has the library's). */
enum verity_avb_judgement {
	VERITY_AVB_JUDGED,    /* 0: a->trust says what is trusted */
	VERITY_AVB_REFUSED,   /* the trust policy refused the request */
	VERITY_AVB_OTHER_KEY, /* signed, by another key than the one given */
};

/* a's vbmeta (its own signature checked when it was read) judged for
 * anchor and whether the action writes, and with the verdict "check"
 * its signer's key compared with key (an AVB public-key blob of len
 * bytes, read from the file key_path names): 0 and a->trust, or the
 * refusal and *why. */
int verity_image_avb_verdict(struct verity_android *a,
			     enum verity_anchor anchor, const char *key_path,
			     const uint8_t *key, size_t len, int writes,
			     enum verity_avb_judgement *why,
			     struct ht_error *err);

/* What an open judges with: the anchor, the key file (key: its path),
 * whether the actions write or hand the signature to the kernel. */
struct verity_image_ask {
	enum verity_anchor anchor;
	const char *key;
	int writes;
	int activates;
};

/* Every pair of img, and an Android image's vbmeta where it has none,
 * judged for what its container reported of each (where its signature
 * came from) and ask; the verdict kept on each pair (and on own, the
 * pair made of a plain pair's or a sidecar image's parts). */
int verity_image_judge(struct verity_image *img, struct verity_held *own,
		       const struct verity_image_ask *ask,
		       struct ht_error *err);

#endif
