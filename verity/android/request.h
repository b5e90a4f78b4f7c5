/* avbtool's writers' requests as the container takes them: a vbmeta
 * request or a footer request (include/fastverity.h) checked, its lists
 * copied into the container's types; a vbmeta image written; what a
 * request needs of libavb. Each returns 0 or -errno with err's message
 * (the door's words). */
#ifndef FV_ANDROID_REQUEST_H
#define FV_ANDROID_REQUEST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/container/avb/image.h"

/* A vbmeta request's options, the lists they point to, and what its
 * avbtool options were read into (the names and values they hold). */
struct verity_android_vb {
	struct avb_vbmeta_opts o;
	struct avb_prop *props;
	struct avb_chain *chains;
	struct fv_vbmeta_chain *in_chains;
	struct fv_vbmeta_property *in_props;
	uint8_t **values; /* the property files' bytes */
	size_t nin_props;
	const char **cmdlines, **includes;
	uint8_t salt[FV_MAX_SALT_SIZE]; /* a footer's */
	uint64_t padding;               /* a vbmeta image's */
	uint64_t *changed;              /* a footer's --changed */
};

void verity_android_vb_done(struct verity_android_vb *v);

/* A footer request's options for image (NULL: none, for what it
 * needs), its vbmeta's in v, the changed ranges it gives. */
struct verity_android_footer {
	struct avb_footer_opts o;
	struct verity_android_vb v;
	struct verity_range *changed;
};

/* in (checked; an output of its is none of its inputs, nor image) into
 * f, freed by verity_android_footer_done (not on failure). */
int verity_android_footer_of(const struct fv_footer_request *in,
			     const char *image, struct verity_android_footer *f,
			     struct ht_error *err);
void verity_android_footer_done(struct verity_android_footer *f);
/* fv_avb_add_footer: in's footer added to image, a hashtree's built as
 * run says. */
struct verity_run;
int verity_android_add_footer(const char *image,
			      const struct fv_footer_request *in,
			      const struct verity_run *run,
			      struct ht_error *err);

/* fv_avb_make_vbmeta_image: output is none of in's inputs. */
int verity_android_make_vbmeta(const char *output,
			       const struct fv_vbmeta_request *in,
			       uint64_t padding, struct ht_error *err);

/* fv_avb_needs: one of in and fin; *minor the libavb minor version it
 * needs, and for a footer *max its largest image (minor NULL: its
 * avbtool options read, nothing else). */
int verity_android_needs(const struct fv_vbmeta_request *in,
			 const struct fv_footer_request *fin, unsigned *minor,
			 uint64_t *max, struct ht_error *err);

/* fv_avb_edit: e checked (its avbtool options, partition_size, read
 * into it first) and made. */
int verity_android_edit(struct fv_avb_edit_request *e, struct ht_error *err);

/* What avb's fv_show requests read of their avbtool options (pairs):
 * extract_vbmeta_image's padding_size, calculate_vbmeta_digest's
 * hash_algorithm, verify_image's expected_chain_partition (each
 * NAME:LOCATION:KEY_PATH, its key read into expected[i], and the
 * set's key's blob read to say what is wrong with it first). */
struct verity_android_shown {
	uint64_t padding;
	const char *hash;
	struct fv_slot_expected *expected;
	size_t nexpected;
};

int verity_android_shown_of(const struct fv_show_request *q,
			    struct verity_android_shown *s,
			    struct ht_error *err);
void verity_android_shown_done(struct verity_android_shown *s);
/* verify_image's set: q->set (non-NULL) copied into set, zeros past
 * the caller's, with the expected chains q's options read into s (which
 * verity_android_shown_done frees, also on failure). */
int verity_android_shown_set(const struct fv_show_request *q,
			     struct verity_android_shown *s,
			     struct fv_slot_request *set, struct ht_error *err);

/* FV_SHOW_AVB_USAGE: what avbtool's parser refuses before subcommand
 * q->args runs, q's options all its own (image and output too): an
 * option it requires missing, a file argparse opens that cannot be:
 * -EDOM (a usage error), or -ENOMEM; then an image read that is no
 * Android image: the registry's refusal; resize_image's partition_size
 * missing (-EINVAL, as avbtool's run() refuses it). */
int verity_android_usage(const struct fv_show_request *q, struct ht_error *err);

#endif
