/* A pair's verify and repair as the command says them
 * (include/fastverity.h, fv_show's FV_SHOW_VERIFY and FV_SHOW_REPAIR;
 * verity/show/verify.c): each bad block as it is found or rebuilt,
 * then the counts, the verdict, the parity's figures and the signer's
 * warnings, or the --json document (verify's streamed: its failures as
 * they come, so that memory stays bounded however many blocks are bad).
 * The door runs the check (verity/api/pair.c) with these callbacks. */
#ifndef FV_SHOW_VERIFY_H
#define FV_SHOW_VERIFY_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/show/show.h"

/* What the door knows of the pair before the check. */
struct show_check_pair {
	const struct fv_image_pair_info *pi;
	enum fv_trust trust; /* the door's verdict (an Android image's:
			      * its vbmeta's) */
	const struct fv_avb_info *avb;     /* an Android image's; NULL */
	const struct fv_report *described; /* --json verify: fv_describe's */
};

struct show_check {
	struct show *sh;
	const struct fv_show_request *q;
	struct show_check_pair p;
	int repair, opened;
	uint64_t shown, not_shown, max;
	struct show_kept fixed, unfixed; /* --json: kept for their place */
	struct show keep_fixed, keep_unfixed;
};

void verity_show_check_begin(struct show_check *c, struct show *sh,
			     const struct fv_show_request *q,
			     const struct show_check_pair *p);
/* fv_options' failure and block callbacks (ctx: the struct show_check). */
void verity_show_check_failure(void *ctx, enum fv_failure_kind kind,
			       uint64_t block, uint64_t offset, unsigned level);
void verity_show_check_block(void *ctx, int repaired, enum fv_failure_kind kind,
			     uint64_t block, uint64_t offset, unsigned level);
/* repair of a pair with no parity (avb: an Android image's; image: the
 * image given alone, NULL for a data and a hash device; container:
 * fv_image_info's): EINVAL, where the parity would be, said. */
int verity_show_no_parity(int avb, const char *image, const char *container,
			  struct ht_error *err);
/* The check refused (error: the library's message): a --json stream
 * already open is closed with it. */
void verity_show_check_failed(struct show_check *c, const char *error);
/* What the check found (rep: its result's report) said: the verdict,
 * 0, 1 or 2. Frees what c kept. */
int verity_show_check_end(struct show_check *c, const struct fv_report *rep);

#endif
