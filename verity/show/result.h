/* A pair's layout and what its parity did, as the public report shows
 * them (include/fastverity.h, fv_result_report). */
#ifndef FV_SHOW_RESULT_H
#define FV_SHOW_RESULT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"
#include "verity/tree/layout.h"
#include "verity/sign/signature.h"
#include "verity/tree/pair.h"
#include "verity/tree/update.h"

void verity_show_layout(const struct verity_layout *in, struct fv_layout *out);
void verity_show_fec(const struct verity_fec_result *in,
		     struct fv_fec_report *out);

/* What an action found, behind the public fv_result (the door makes
 * it; fv_result_report shows it). */
struct fv_result {
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t root_size;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	struct ht_verify_result res; /* verify; repair: the image as left */
	struct verity_fec_result fec;
	int checked;   /* verify or repair ran */
	int has_fec;   /* fec holds a repair's figures */
	char path[16]; /* "fast" or "generic" */
	/* since 0.6 */
	struct verity_layout layout;
	int has_layout;
	struct verity_info info;
	enum verity_trust trust;
	struct verity_sig_check sig; /* trust CHECK: who signed */
	/* since 0.8 */
	struct verity_update_result update;
	int has_update;
	/* since 0.10: format's and update's parameters */
	fv_params params;
	int has_params;
};
/* r as fv_result_report hands it out (strings into r). */
void verity_show_report(const struct fv_result *r, struct fv_report *out);

/* The door's results made (NULL: out of memory, said in err) and
 * filled: the root, where the tree was built, an action's outcome, a
 * verify's or repair's outcome with the root it checked. */
fv_result *verity_show_result_new(struct ht_error *err);
void verity_show_result_root(fv_result *r, const uint8_t *root, size_t size);
void verity_show_result_info(fv_result *r, const struct verity_info *info);
void verity_show_result_outcome(fv_result *r, const struct verity_outcome *out);
void verity_show_result_checked(fv_result *r, const struct verity_outcome *out,
				const uint8_t *root, size_t root_size);

#endif
