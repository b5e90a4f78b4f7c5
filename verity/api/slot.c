/* The public library: Android firmware sets walked once
 * (include/fastverity.h, "Android firmware sets: one walk";
 * docs/android.md, "Firmware sets"). The walk is verity/slot/walk.c's;
 * the door checks the request, reads the top signer's key, judges the
 * top vbmeta (the trust policy is the door's, image.c) and shows each
 * step as fv_slot_step, a hashtree step's verify as an fv_result. */
#include "verity/api/internal.h"
#include "verity/image/judge.h"
#include "verity/slot/show.h"
#include "verity/pairs/act.h"

_Static_assert((int)FV_SLOT_CHECK == SLOT_CHECK &&
		       (int)FV_SLOT_FOLLOW == SLOT_FOLLOW &&
		       (int)FV_SLOT_FOLLOW_NESTED == SLOT_FOLLOW_NESTED &&
		       (int)FV_SLOT_EXPECTED == SLOT_EXPECTED &&
		       (int)FV_SLOT_STOP == SLOT_STOP &&
		       (int)FV_SLOT_ACCEPT_ZEROED == SLOT_ACCEPT_ZEROED &&
		       (int)FV_SLOT_PARTITION == SLOT_PARTITION &&
		       (int)FV_SLOT_CMDLINE == SLOT_CMDLINE &&
		       (int)FV_SLOT_ERROR == SLOT_ERROR &&
		       (int)FV_SLOT_SKIPPED == SLOT_SKIPPED &&
		       (int)FV_SLOT_WHY_DESCRIPTORS == SLOT_WHY_DESCRIPTORS &&
		       (int)FV_SLOT_WHY_ZEROED == SLOT_WHY_ZEROED,
	       "fv_slot's enumerations and the walk's differ");

struct fv_slot {
	struct slot_walk w;
	fv_result **res; /* a hashtree step's verify, shown */
	size_t nres;
	fv_slot_fn fn;
	void *ctx;
};

/* The top vbmeta judged by the door (image.c asks the policy). */
static int judge(void *ctx, struct verity_android *a, enum verity_anchor anchor,
		 const char *key_path, const uint8_t *key, size_t len,
		 enum slot_judged *why, struct ht_error *err)
{
	enum verity_avb_judgement j;
	int r;

	(void)ctx;
	r = verity_image_avb_verdict(a, anchor, key_path, key, len, 0, &j, err);
	*why = j == VERITY_AVB_OTHER_KEY ? SLOT_OTHER_KEY
	       : j == VERITY_AVB_REFUSED ? SLOT_REFUSED_BY_POLICY
					 : SLOT_JUDGED;
	return r;
}

/* Step i begins or ends: a verify that ran is shown as a result, then
 * the caller is told. */
static void told(void *ctx, const struct slot_walk *w, size_t i, int done)
{
	fv_slot *s = ctx;
	const struct slot_step *st = &w->steps[i];

	if (done && st->checked && (i >= s->nres || !s->res[i])) {
		fv_result **v = realloc(s->res, w->cap * sizeof(*v));
		fv_result *made = verity_api_result_new();

		if (v && w->cap > s->nres) {
			memset(v + s->nres, 0, (w->cap - s->nres) * sizeof(*v));
			s->nres = w->cap;
		}
		if (v)
			s->res = v;
		if (v && made) {
			verity_show_result_checked(made, &st->out, st->root,
						   st->root_size);
			s->res[i] = made;
		} else {
			fv_result_free(made);
		}
	}
	if (s->fn)
		s->fn(s->ctx, s, i, done);
}

/* req and o checked, o's options into *opts. */
static int slot_check(const struct fv_slot_request *req, const fv_options *o,
		      fv_options *opts)
{
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
	if (req->slot && strcmp(req->slot, "a") && strcmp(req->slot, "b"))
		return verity_api_fail(EINVAL, "%s: slot '%s' is not a or b",
				       req->image, req->slot);
	if (req->nexpected && !req->expected)
		return verity_api_fail(EINVAL, "fv_slot_verify: expected is "
					       "NULL");
	if (req->npartitions && !req->partitions)
		return verity_api_fail(EINVAL, "fv_slot_verify: partitions is "
					       "NULL");
	return 0;
}

/* req's set walked into s (checked, its options opts), each step told
 * (s->fn), or shown on sh in how's words (fv_show). */
static int slot_run(const struct fv_slot_request *req, fv_options *opts,
		    fv_slot *s, enum slot_words how, struct show *sh)
{
	struct slot_ask ask = {0};
	struct slot_expected *x = NULL;
	struct ht_error err = {0};
	struct verity_run run;
	uint8_t *key = NULL;
	int r;

	if ((r = verity_api_keep(verity_container_named(req->image,
							req->container,
							&ask.kind, &err),
				 &err)))
		return r;
	if (req->key && (req->flags & FV_SLOT_CHECK) &&
	    (r = verity_api_keep(verity_sigkey_file_blob(req->key, &key,
							 &ask.key_len, &err),
				 &err)))
		return r;
	if (verity_slot_ask_of(req, &ask, &x)) {
		free(key);
		return verity_api_fail(ENOMEM, "out of memory");
	}
	verity_pairs_run(opts, &run);
	ask.key_blob = key;
	ask.certs = opts->ntrusted_certs != 0;
	ask.threads = opts->threads;
	ask.run = &run;
	ask.judge = judge;
	ask.told = told;
	ask.ctx = s;
	r = sh ? verity_slot_show(&s->w, &ask, &run, how, sh, &err)
	       : verity_slot_walk(&s->w, &ask, &err);
	/* a step's failure is the thread's last error, as it was found */
	if (r < 0 || err.serial)
		ht_keep(&verity_api_last, &err);
	free(x);
	free(key);
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
	if (!s)
		return;
	for (size_t i = 0; i < s->nres; i++)
		fv_result_free(s->res[i]);
	free(s->res);
	verity_slot_walk_free(&s->w);
	free(s);
}

API int fv_slot_info(const fv_slot *s, struct fv_slot_info *info)
{
	struct fv_slot_info full = {0};

	NEED(s);
	NEED(info);
	full.steps = s->w.n;
	full.notes = s->w.nnotes;
	full.super = (const fv_super *)(const void *)s->w.super;
	full.slot = s->w.slot;
	full.note = (const char *const *)s->w.notes;
	GIVE(info, full, steps);
	return 0;
}

API int fv_slot_step(const fv_slot *s, size_t i, struct fv_slot_step *out)
{
	struct fv_slot_step full = {0};
	const struct slot_step *st;

	NEED(s);
	NEED(out);
	if (i >= s->w.n)
		return verity_api_fail(EINVAL, "step %zu of %zu", i, s->w.n);
	st = &s->w.steps[i];
	full.kind = (enum fv_slot_kind)st->kind;
	full.result = (enum fv_slot_result)st->result;
	full.why = (enum fv_slot_why)st->why;
	full.error = st->error;
	full.message = st->message ? st->message : "";
	full.depth = st->depth;
	full.parent = st->parent;
	full.name = st->name;
	full.path = st->path;
	full.avb = st->avb ? verity_api_avb_of((struct verity_android *)st->avb)
			   : NULL;
	full.descriptor = st->descriptor;
	full.trust = (enum fv_trust)st->trust;
	full.signer = st->signer;
	full.result_of = i < s->nres ? s->res[i] : NULL;
	full.followed = st->followed;
	full.partition = st->partition;
	GIVE(out, full, kind);
	return 0;
}
