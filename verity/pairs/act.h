/* The actions on a held pair (held.h) as the public API asks them: the
 * caller's options checked already (verity/ops/options.h), the callbacks
 * passed on, what the action found made into an fv_result
 * (verity/show/result.h). Each returns 0 or -errno with err set. */
#ifndef FV_PAIRS_ACT_H
#define FV_PAIRS_ACT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"
#include "verity/pairs/held.h"

/* How an action runs: o's, with its failure and block callbacks. */
void verity_pairs_run(const fv_options *o, struct verity_run *run);

/* fv_format's and fv_update's pair: pr as req asks (q: its parameters
 * checked; NULL, update's: the superblock's). */
int verity_pairs_request(struct verity_held *pr,
			 const struct fv_format_request *req,
			 const struct verity_params *q, int update,
			 struct ht_error *err);

/* res NULL: no result made (format, update). */
int verity_pairs_format(struct verity_held *pr, const fv_options *o,
			fv_result **res, struct ht_error *err);
int verity_pairs_update(struct verity_held *pr, const uint64_t *ranges,
			size_t n, const fv_options *o, fv_result **res,
			struct ht_error *err);
/* verify (repair 0) or repair (o->repair its flags). */
int verity_pairs_check(const struct verity_held *pr, const fv_options *o,
		       int repair, fv_result **res, struct ht_error *err);
/* The signature judged and checked, without reading a block. */
int verity_pairs_check_signature(const struct verity_held *pr,
				 const fv_options *o, fv_result **res,
				 struct ht_error *err);
int verity_pairs_dump(const struct verity_held *pr, fv_result **res,
		      struct ht_error *err);
int verity_pairs_activate(const char *name, const struct verity_held *pr,
			  const fv_options *o, struct ht_error *err);

#endif
