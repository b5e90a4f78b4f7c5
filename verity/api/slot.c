/* The public library: Android firmware sets walked once
 * (include/fastverity.h, "Android firmware sets: one walk";
 * docs/android.md, "Firmware sets"). The walk is verity/slot/walk.c's;
 * the door checks the request, reads the top signer's key, judges the
 * top vbmeta (the trust policy is the door's, image.c) and shows each
 * step as fv_slot_step, a hashtree step's verify as an fv_result. */
#include "verity/api/internal.h"
#include "verity/slot/run.h"

/* req and o checked, o's options into *opts. */
static int slot_check(const struct fv_slot_request *req, const fv_options *o,
		      fv_options *opts)
{
	struct ht_error err;
	int r;

	NEED(req);
	if (req->size <
	    offsetof(struct fv_slot_request, flags) + sizeof(req->flags))
		return verity_api_fail(EINVAL,
				       "fv_slot_verify: size %zu is too "
				       "small",
				       req->size);
	if ((r = verity_api_options_in("fv_slot_verify", o, opts)))
		return r;
	NEED(req->image);
	return verity_api_keep(verity_slot_request_check(req, &err), &err);
}

/* req's set walked into s (checked, its options opts): a step's failure
 * is the thread's last error, as it was found. */
static int slot_run(const struct fv_slot_request *req, fv_options *opts,
		    fv_slot *s, enum slot_words how, struct show *sh)
{
	struct ht_error err = {0};
	int r = verity_slot_run(req, opts, s, how, sh, &err);

	if (r < 0 || err.serial)
		ht_keep(&verity_api_last, &err);
	return r;
}

API int fv_slot_verify(const struct fv_slot_request *req, const fv_options *o,
		       fv_slot_fn fn, void *ctx, fv_slot **out)
{
	fv_options opts;
	fv_slot *s;
	int r;

	NEED(req);
	NEED(out);
	*out = NULL;
	if ((r = slot_check(req, o, &opts)))
		return r;
	if (!(s = calloc(1, sizeof(*s))))
		return verity_api_fail(ENOMEM, "out of memory");
	*out = s;
	s->fn = fn;
	s->ctx = ctx;
	return slot_run(req, &opts, s, 0, NULL);
}

int verity_api_slot_show(const struct fv_show_request *q, struct show *sh)
{
	fv_options opts;
	fv_slot *s;
	int r;

	if ((r = slot_check(q->set, q->o, &opts)))
		return r;
	if (!(s = calloc(1, sizeof(*s))))
		return verity_api_fail(ENOMEM, "out of memory");
	r = slot_run(q->set, &opts, s,
		     q->what == FV_SHOW_AVB_VERIFY ? SLOT_WORDS_AVBTOOL
						   : SLOT_WORDS_SET,
		     sh);
	fv_slot_free(s);
	return r;
}

API void fv_slot_free(fv_slot *s)
{
	verity_slot_run_free(s);
}

API int fv_slot_info(const fv_slot *s, struct fv_slot_info *info)
{
	struct fv_slot_info full;

	NEED(s);
	NEED(info);
	verity_slot_run_info(s, &full);
	GIVE(info, full, steps);
	return 0;
}

API int fv_slot_step(const fv_slot *s, size_t i, struct fv_slot_step *out)
{
	struct fv_slot_step full;

	NEED(s);
	NEED(out);
	if (i >= s->w.n)
		return verity_api_fail(EINVAL, "step %zu of %zu", i, s->w.n);
	verity_slot_run_step(s, i, &full);
	GIVE(out, full, kind);
	return 0;
}
