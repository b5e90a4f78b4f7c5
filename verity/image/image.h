/* An image given alone, as its container reads it (the door's fv_open;
 * docs/architecture.md): what the registry says it is, and the pairs
 * its container makes of it, each with where its signature came from,
 * for the door to judge (the trust policy is asked there, once for each
 * pair). An Android image's vbmeta, a super image's logical partitions
 * that are Android images, a disk image's protected partitions. */
#ifndef FV_IMAGE_H
#define FV_IMAGE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>

#include "hashtree/error.h"
#include "verity/android/android.h"
#include "verity/container/ddi/ddi.h"
#include "verity/policy/trust.h"
#include "verity/registry/registry.h"
#include "verity/sign/signature.h"
#include "verity/tree/pair.h"

struct verity_ota; /* verity/container/ota/ota.h */

/* One pair of an image. */
struct verity_image_pair {
	struct verity_pair pair;
	char name[64];
	enum verity_trust trust; /* the door's verdict */
	enum verity_signature_from from;
	struct verity_android *avb;   /* an Android image's vbmeta, judged for
				       * the pair */
	const struct ddi_verity *ddi; /* its protected partition */
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1]; /* verity_image_facts */
};

struct verity_image {
	char *path;
	enum verity_container kind;
	struct verity_image_pair *pairs;
	size_t n;
	struct verity_android *av;   /* an Android image's */
	struct verity_android **avs; /* a super image's logical partitions' */
	size_t navs;
	struct ddi_image ddi;
	int ddi_read;
	struct verity_ota *ota; /* an OTA package's (no pair) */
	/* a super image whose logical partition this is: its files hold the
	 * partition's, open until the image is freed */
	struct verity_android_super *super;
};

/* The pairs of img (its path and kind set, pairs room for one), by its
 * container. An Android image's vbmeta is read (its signature checked)
 * also where it describes no pair: img->av, pairs[0].avb. */
int verity_image_avb(struct verity_image *img, struct ht_error *err);
/* A super image's: each logical partition that is an Android image with
 * a hashtree descriptor, read by its path through the super image
 * (super.img/system_a); empty partitions and those that are not Android
 * images have none. */
int verity_image_super(struct verity_image *img, struct ht_error *err);
/* Where a super image's logical partition is: its name (NAME_<slot> on
 * an A/B image), the metadata slot (0: a, 1: b, read after slot 0 as the
 * device booting it does), a split image's n devices, and who hears the
 * notes of what was read (note: NULL, none). */
struct verity_image_part {
	const char *name;
	unsigned slot;
	const char *const *names, *const *files;
	size_t n;
	void (*note)(void *ctx, const char *text);
	void *ctx;
};
/* Logical partition w->name of the super image at img->path, read as
 * the Android image it is (as verity_image_avb; img->path becomes its,
 * IMAGE/NAME): -ENOENT when there is no such partition; the super
 * image's errors. */
int verity_image_super_part(struct verity_image *img,
			    const struct verity_image_part *w,
			    struct ht_error *err);
/* A disk image's: one each protected partition ("root-x86-64"). */
int verity_image_ddi(struct verity_image *img, struct ht_error *err);

/* A disk image's pairs cut to those of partition's role (root, usr):
 * -EINVAL, HT_PARAM_PARTITION's fix for a name that is no role, when
 * none is there. */
int verity_image_ddi_pick(struct verity_image *img, const char *partition,
			  struct ht_error *err);

/* Who signed a disk image's pair i, as its signature names the signer
 * (unchecked) into *who: 1 when the pair is not signed. A signature that
 * cannot be read names none: why, in who->warning, and 0. */
int verity_image_ddi_signer(const struct verity_image *img, size_t i,
			    struct verity_sig_check *who, struct ht_error *err);

/* Where an Android image's signature came from: found, or none. */
enum verity_signature_from
verity_image_avb_from(const struct verity_android *a);

/* Each pair's root as hex, when it has one. */
void verity_image_facts(struct verity_image *img);

/* What img holds freed (not img itself). */
void verity_image_clear(struct verity_image *img);

#endif
