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
#include "verity/show/check.h"
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
	const char *unread;   /* NULL, "" or why the signature cannot be read */
};

/* Protected partition v of the image at image, with its pair's s. */
void verity_image_ddi_show_pair(struct show *sh, const char *image,
				const struct ddi_verity *v,
				const struct verity_ddi_shown *s);

/* The --json document closed (the text has no end). */
void verity_image_ddi_show_end(struct show *sh);

/* verify of a disk image (fv_show's FV_SHOW_DDI_VERIFY; the door runs
 * each check): a bad block of pair d, said at once, or (--json) its
 * object, which the caller keeps for the partition's. */
void verity_image_ddi_failure(struct show *sh, const struct fv_ddi_pair *d,
			      const struct verity_failure *f);
/* A check of pair d refused with r (why: the library's message), *code
 * its verdict: said on stderr and 0 where the next partition is checked
 * (EPERM, and --json's parameters), else r with why named for d. */
int verity_image_ddi_refused(struct show *sh, const struct fv_ddi_pair *d,
			     int r, const char *why, int *code,
			     struct ht_error *err);
/* What one check found. */
struct verity_ddi_checked {
	const struct fv_ddi_pair *d;
	enum fv_trust trust;         /* the door's verdict */
	const struct fv_report *rep; /* counts, the signer, its warning */
};
/* Its verdict said (text), or its --json object with the failures kept
 * (handed on): the verdict, 0, 1 or 2. */
int verity_image_ddi_checked(struct show *sh, const char *image,
			     const struct verity_ddi_checked *c,
			     struct show_kept *failures);
/* --json: the document, the worst verdict code and the partitions kept
 * (handed on); the text has no end. */
void verity_image_ddi_verified(struct show *sh, const char *image, int code,
			       struct show_kept *partitions);
/* Protected partition v as fv_image_pair_info has it (strings into v). */
void verity_image_ddi_pair_of(const struct ddi_verity *v,
			      struct fv_ddi_pair *d);
/* Whether partition (a role: root, usr; NULL: every one) picks v. */
int verity_image_ddi_picks(const char *partition, const struct ddi_verity *v);
/* Whether partition picks one of d's: 0, or EINVAL (a name that is no
 * role: HT_PARAM_PARTITION's fix). */
int verity_image_ddi_asked(const struct ddi_image *d, const char *image,
			   const char *partition, struct ht_error *err);

#endif
