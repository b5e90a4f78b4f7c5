/* What dump shows of a systemd disk image (verity/image/ddishow.c;
 * docs/ddi.md): the GPT's line, each protected partition's data, tree and
 * signature partitions and its header, as text or as the members of the
 * --json document, handed to fv_show's visitor. */
#ifndef FV_IMAGE_DDISHOW_H
#define FV_IMAGE_DDISHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/container/ddi/ddi.h"
#include "verity/show/show.h"

/* The disk image at image (its name as given): the text's first line, or
 * the --json document opened (its image, disk UUID, and the list of
 * partitions that verity_image_ddi_show_pair fills). */
void verity_image_ddi_show_disk(struct show *sh, const char *image,
				const struct ddi_image *d);

/* What one protected partition's pair holds, as dump describes it. */
struct verity_ddi_shown {
	const fv_params *params;
	const struct fv_layout *layout;
	const char *root_hex; /* the pair's */
	const char *signer;   /* named by the signature, not checked */
};

/* Protected partition v of the image at image, with its pair's s. */
void verity_image_ddi_show_pair(struct show *sh, const char *image,
				const struct ddi_verity *v,
				const struct verity_ddi_shown *s);

/* The --json document closed (the text has no end). */
void verity_image_ddi_show_end(struct show *sh);

#endif
