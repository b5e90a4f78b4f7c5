/* A firmware set walked for the public API (include/fastverity.h,
 * fv_slot_verify; fv_show's FV_SHOW_SET_VERIFY and _AVB_VERIFY): the
 * handle behind fv_slot, each hashtree step's verify kept as an
 * fv_result, the top vbmeta judged by the trust policy
 * (verity/image/judge.h). */
#ifndef FV_SLOT_RUN_H
#define FV_SLOT_RUN_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"
#include "verity/slot/show.h"

struct fv_slot {
	struct slot_walk w;
	fv_result **res; /* a hashtree step's verify, shown */
	size_t nres;
	fv_slot_fn fn;
	void *ctx;
};

/* What fv_slot_verify checks of req beyond its size and image: its slot
 * and lists. */
int verity_slot_request_check(const struct fv_slot_request *req,
			      struct ht_error *err);
/* req's set (checked, its options o checked) walked into s, each step
 * told (s->fn), or shown on sh in how's words: verity_slot_walk's or
 * verity_slot_show's return; a step's failure is in err as found
 * (err->serial set). */
int verity_slot_run(const struct fv_slot_request *req, const fv_options *o,
		    fv_slot *s, enum slot_words how, struct show *sh,
		    struct ht_error *err);
void verity_slot_run_free(fv_slot *s);
/* s's facts, its step i's (i < s->w.n), every member. */
void verity_slot_run_info(const fv_slot *s, struct fv_slot_info *out);
void verity_slot_run_step(const fv_slot *s, size_t i, struct fv_slot_step *out);

/* The AVB set whose top is the file top, signed by key, walked with
 * every chain followed (verity_ota_walk_fn): 0 with why "" (every step
 * good) or the first bad step's message; a negative errno with why the
 * walk's message. */
int verity_slot_run_top(const char *top, const char *key, char *why,
			size_t len);

#endif
