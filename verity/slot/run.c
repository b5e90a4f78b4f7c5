/* A firmware set walked for the public API (run.h). */
#include "verity/slot/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/source.h"
#include "verity/image/judge.h"
#include "verity/pairs/act.h"
#include "verity/show/result.h"
#include "verity/sign/scheme.h"

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

/* The top vbmeta judged by the trust policy (verity/image/judge.h). */
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
		fv_result *made = verity_show_result_new(&(struct ht_error){0});

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
			free(made);
		}
	}
	if (s->fn)
		s->fn(s->ctx, s, i, done);
}

int verity_slot_request_check(const struct fv_slot_request *req,
			      struct ht_error *err)
{
	if (req->slot && strcmp(req->slot, "a") && strcmp(req->slot, "b"))
		return ht_fail(err, EINVAL, "%s: slot '%s' is not a or b",
			       req->image, req->slot);
	if (req->nexpected && !req->expected)
		return ht_fail(err, EINVAL,
			       "fv_slot_verify: expected is "
			       "NULL");
	if (req->npartitions && !req->partitions)
		return ht_fail(err, EINVAL,
			       "fv_slot_verify: partitions is "
			       "NULL");
	return 0;
}

/* req's set walked into s (checked, its options opts), each step told
 * (s->fn), or shown on sh in how's words (fv_show). */
int verity_slot_run(const struct fv_slot_request *req, const fv_options *opts,
		    fv_slot *s, enum slot_words how, struct show *sh,
		    struct ht_error *err)
{
	struct slot_ask ask = {0};
	struct slot_expected *x = NULL;
	struct verity_run run;
	uint8_t *key = NULL;
	int r;

	if ((r = verity_container_named(req->image, req->container, &ask.kind,
					err)) ||
	    (req->key && (req->flags & FV_SLOT_CHECK) &&
	     (r = verity_sigkey_file_blob(req->key, &key, &ask.key_len, err))))
		return r;
	if (verity_slot_ask_of(req, &ask, &x)) {
		free(key);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	verity_pairs_run(opts, &run);
	ask.key_blob = key;
	ask.certs = opts->ntrusted_certs != 0;
	ask.threads = opts->threads;
	ask.run = &run;
	ask.judge = judge;
	ask.told = told;
	ask.ctx = s;
	r = sh ? verity_slot_show(&s->w, &ask, &run, how, sh, err)
	       : verity_slot_walk(&s->w, &ask, err);
	free(x);
	free(key);
	return r;
}

void verity_slot_run_free(fv_slot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nres; i++)
		free(s->res[i]);
	free(s->res);
	verity_slot_walk_free(&s->w);
	free(s);
}

void verity_slot_run_info(const fv_slot *s, struct fv_slot_info *full)
{
	memset(full, 0, sizeof(*full));
	full->steps = s->w.n;
	full->notes = s->w.nnotes;
	full->super = (const fv_super *)(const void *)s->w.super;
	full->slot = s->w.slot;
	full->note = (const char *const *)s->w.notes;
}

void verity_slot_run_step(const fv_slot *s, size_t i, struct fv_slot_step *full)
{
	const struct slot_step *st = &s->w.steps[i];

	memset(full, 0, sizeof(*full));
	full->kind = (enum fv_slot_kind)st->kind;
	full->result = (enum fv_slot_result)st->result;
	full->why = (enum fv_slot_why)st->why;
	full->error = st->error;
	full->message = st->message ? st->message : "";
	full->depth = st->depth;
	full->parent = st->parent;
	full->name = st->name;
	full->path = st->path;
	full->avb = st->avb ? (fv_avb *)(void *)st->avb : NULL;
	full->descriptor = st->descriptor;
	full->trust = (enum fv_trust)st->trust;
	full->signer = st->signer;
	full->result_of = i < s->nres ? s->res[i] : NULL;
	full->followed = st->followed;
	full->partition = st->partition;
}

int verity_slot_run_top(const char *top, const char *key, char *why, size_t len)
{
	struct fv_slot_request req = {.size = sizeof(req),
				      .image = top,
				      .container = "avb",
				      .key = key,
				      .flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW |
					       FV_SLOT_FOLLOW_NESTED |
					       FV_SLOT_STOP};
	fv_options o = {.size = sizeof(o)};
	struct ht_error err = {0};
	fv_slot *s = calloc(1, sizeof(*s));
	int r;

	*why = '\0';
	if (!s)
		r = ht_fail(&err, ENOMEM, "out of memory");
	else
		r = verity_slot_run(&req, &o, s, 0, NULL, &err);
	if (r)
		snprintf(why, len, "%s", ht_msg(&err));
	for (size_t i = 0; !r && i < s->w.n; i++) {
		const struct slot_step *st = &s->w.steps[i];

		if (st->result != SLOT_OK && st->result != SLOT_SKIPPED) {
			snprintf(why, len, "%s",
				 st->message && st->message[0]
					 ? st->message
					 : "a step failed");
			break;
		}
	}
	verity_slot_run_free(s);
	return r;
}
