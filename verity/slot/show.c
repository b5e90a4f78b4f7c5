/* A firmware set's walk shown (verity/slot/show.h): fastverity's verify
 * of a set (docs/android.md, "Firmware sets"): one verdict a partition,
 * bad blocks named by partition (and by their bytes in a super image),
 * refusals on stderr, or one --json document. */
#include "verity/slot/show.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/shown.h"

/* ---- words shared with avbtool.c ---- */

const char *verity_slot_message(const struct slot_step *st)
{
	return st->message ? st->message : "";
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

const char *verity_slot_algorithm(const struct verity_android *a)
{
	return verity_avb_algorithm(a->img.vbmeta.h.algorithm)->name;
}

void verity_slot_vouch(const struct slot_walk *w, size_t i,
		       struct slot_vouch *v)
{
	const struct slot_step *vb = &w->steps[i];
	const char *alg = verity_slot_algorithm(vb->avb);

	memset(v, 0, sizeof(*v));
	v->vbmeta = vb->path;
	v->trust = vb->trust;
	snprintf(v->algorithm, sizeof(v->algorithm), "%s", alg);
	snprintf(v->key_sha1, sizeof(v->key_sha1), "%s",
		 strcmp(alg, "NONE") ? vb->avb->key_sha1 : "");
	if (vb->depth)
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed by the key %s pins%s", vb->path,
			 vb->signer ? vb->signer : "its chain",
			 vb->trust == VERITY_TRUST_CHECK ? ""
							 : " (not checked)");
	else if (vb->trust == VERITY_TRUST_CHECK)
		snprintf(v->words, sizeof(v->words), "vbmeta %s signed by %s",
			 vb->path, vb->signer);
	else if (vb->trust == VERITY_TRUST_UNSIGNED)
		snprintf(v->words, sizeof(v->words), "vbmeta %s unsigned",
			 vb->path);
	else
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed, signer not checked", vb->path);
}

void verity_slot_part_json(struct show *sh, const struct slot_step *st,
			   const char *kind, const struct slot_vouch *v,
			   const char *result)
{
	verity_show_object(sh, NULL);
	verity_show_str(sh, "name", st->name);
	verity_show_str(sh, "descriptor", kind);
	verity_show_str(sh, "path", st->path);
	verity_show_str(sh, "trust", verity_trust_name(v->trust));
	verity_show_str(sh, "vbmeta", v->vbmeta);
	verity_show_str(sh, "algorithm", v->algorithm);
	verity_show_str(sh, "public_key_sha1",
			v->key_sha1[0] ? v->key_sha1 : NULL);
	verity_show_str(sh, "vouched_by", v->words);
	verity_show_str(sh, "result", result);
}

/* ---- fastverity's verify of a set ---- */

/* The failures kept for the step checked now, as --json's "failures". */
static void failures(struct slot_view *v)
{
	verity_show_array(&v->doc, "failures");
	verity_show_replay(&v->doc, &v->bad);
	verity_show_end(&v->doc);
}

/* A failure of the partition checked now. */
static void failed(void *ctx, const struct verity_failure *f)
{
	struct slot_view *v = ctx;
	struct fv_super_entry b;
	struct ht_error err;
	uint32_t dev = 0;
	uint64_t at = 0;
	int mapped;

	if (v->how == SLOT_WORDS_AVBTOOL) {
		verity_slot_avbtool_failed(v, f);
		return;
	}
	mapped = v->super && v->partition != SIZE_MAX &&
		 v->partition < v->w->super->s.m.np &&
		 !verity_android_super_locate(v->w->super, v->partition,
					      f->position, &dev, &at, &err) &&
		 !verity_android_shown_entry(v->w->super, FV_SUPER_BLOCK_DEVICE,
					     dev, &b, &err);
	if (v->failing) {
		verity_show_object(&v->fail, NULL);
		verity_show_failure_json(&v->fail, f);
		if (v->super) {
			verity_show_str(&v->fail, "block_device",
					mapped ? b.block_device.name : NULL);
			if (mapped)
				verity_show_u64(&v->fail, "device_offset", at);
			else
				verity_show_null(&v->fail, "device_offset");
		}
		verity_show_end(&v->fail);
		return;
	}
	if (mapped)
		verity_show_errorf(
			v->sh,
			"%s at position %" PRIu64 " (partition %s; %s byte "
			"%" PRIu64 ").\n",
			verity_show_failure_words(f->kind), f->position,
			v->name, dev ? b.block_device.file : v->ask->image, at);
	else if (v->super)
		verity_show_errorf(
			v->sh, "%s at position %" PRIu64 " (partition %s).\n",
			verity_show_failure_words(f->kind), f->position,
			v->name);
	else
		verity_show_errorf(v->sh,
				   "%s at position %" PRIu64
				   " (partition %s, %s).\n",
				   verity_show_failure_words(f->kind),
				   f->position, v->name, v->path);
}

/* A refusal or error of a step: said on stderr (not with --json), its
 * errno kept when it is the first. */
static void refused(struct slot_view *v, const struct slot_step *st)
{
	if (!v->sh->json)
		verity_show_errorf(v->sh, "fastverity: %s\n",
				   verity_slot_message(st));
	if (!v->error)
		v->error = st->error ? -st->error : EINVAL;
}

/* --json: an entry of a step that checked nothing. */
static void json_plain(struct slot_view *v, const struct slot_step *st,
		       const char *kind, const char *result)
{
	verity_show_object(&v->doc, NULL);
	verity_show_str(&v->doc, "name", st->name);
	if (kind)
		verity_show_str(&v->doc, "descriptor", kind);
	verity_show_str(&v->doc, "path", st->path);
	verity_show_str(&v->doc, "result", result);
	if (st->message && st->message[0])
		verity_show_str(&v->doc, "error", st->message);
	verity_show_end(&v->doc);
}

static const char *kind_word(enum slot_kind k)
{
	return k == SLOT_HASHTREE ? "hashtree"
	       : k == SLOT_HASH   ? "hash"
				  : "chained vbmeta";
}

static const char *refusal_word(const struct slot_step *st)
{
	return st->result == SLOT_REFUSED ? "refused" : "error";
}

/* The unchecked signer of a vbmeta, said (of what: "the set", "it"). */
static void unchecked(struct slot_view *v, const struct slot_step *st,
		      const char *what)
{
	verity_show_errorf(
		v->sh,
		"fastverity: %s: warning: the vbmeta is signed (%s, public key "
		"sha1 %s) and checks out against the key it carries, but its "
		"signer was not checked (give --key=<key.pem>): nothing proves "
		"who made %s\n",
		st->path, verity_slot_algorithm(st->avb), st->avb->key_sha1,
		what);
}

/* ---- a vbmeta's set ---- */

/* A hash or hashtree step of a vbmeta's set ended. */
static void vbmeta_partition(struct slot_view *v, const struct slot_step *st)
{
	const char *kind = kind_word(st->kind);
	const struct ht_verify_result *c = st->checked ? &st->out.res : NULL;
	struct slot_vouch vouch;
	char words[160];
	int code;

	if (st->result == SLOT_MISSING) {
		v->missing = 1;
		if (v->sh->json)
			json_plain(v, st, kind, "missing");
		else
			verity_show_textf(
				v->sh,
				"%s: %s of %s: missing (no such file, and no "
				"super.img beside holding it).\n",
				st->name, kind, st->path);
		return;
	}
	if (st->result == SLOT_SKIPPED) {
		if (v->sh->json)
			json_plain(v, st, kind, "skipped");
		else
			verity_show_textf(
				v->sh,
				"%s: %s of %s: checked already in this set.\n",
				st->name, kind, st->path);
		return;
	}
	if (st->result == SLOT_REFUSED || st->result == SLOT_ERROR) {
		refused(v, st);
		if (v->sh->json)
			json_plain(v, st, kind, refusal_word(st));
		return;
	}
	v->checked++;
	code = c ? verity_show_verdict(c) : st->result == SLOT_OK ? 0 : 2;
	if (code)
		v->bad_seen = 1;
	verity_slot_vouch(v->w, st->parent, &vouch);
	if (v->sh->json) {
		verity_slot_part_json(&v->doc, st, kind, &vouch,
				      verity_show_verdict_word(code));
		if (c)
			verity_show_counts_json(&v->doc, c);
		if (v->failing)
			failures(v);
		else
			verity_show_null(&v->doc, "failures");
		verity_show_end(&v->doc);
		return;
	}
	if (c && code == 2)
		verity_show_counts_said(v->sh, c);
	if (c && !c->root_matches)
		verity_show_errorf(v->sh,
				   "Verification of root hash failed.\n");
	if (!c && code)
		verity_show_errorf(v->sh, "fastverity: %s\n",
				   verity_slot_message(st));
	verity_show_textf(v->sh, "%s: %s of %s, %s: %s.\n", st->name, kind,
			  st->path, vouch.words,
			  verity_show_verdict_text(code, c, words, sizeof(words)));
}

/* A vbmeta or chain step of a vbmeta's set ended. */
static void vbmeta_step(struct slot_view *v, const struct slot_step *st)
{
	if (st->result == SLOT_MISSING) {
		v->missing = 1;
		if (v->sh->json)
			json_plain(v, st, "chained vbmeta", "missing");
		else
			verity_show_textf(
				v->sh,
				"%s: chained vbmeta of %s: missing (no such "
				"file, "
				"and no super.img beside holding it).\n",
				st->name, st->path);
		return;
	}
	if (st->result == SLOT_SKIPPED) {
		if (v->sh->json)
			json_plain(v, st, "chained vbmeta", "skipped");
		else
			verity_show_textf(
				v->sh,
				"%s: chained vbmeta of %s: visited already in "
				"this set.\n",
				st->name, st->path);
		return;
	}
	if (st->result == SLOT_REFUSED || st->result == SLOT_ERROR) {
		refused(v, st);
		if (v->sh->json)
			json_plain(v, st,
				   st->kind == SLOT_CHAIN ? "chain partition"
							  : "vbmeta",
				   refusal_word(st));
		return;
	}
	if (st->kind == SLOT_VBMETA && !st->depth &&
	    st->trust == VERITY_TRUST_UNCHECKED)
		unchecked(v, st, "the set");
}

/* ---- a super image ---- */

static const char *group_of(const struct slot_view *v, size_t i)
{
	struct fv_super_entry e;
	struct ht_error err;

	if (verity_android_shown_entry(v->w->super, FV_SUPER_PARTITION, i, &e,
				       &err))
		return NULL;
	return e.partition.group;
}

/* --json: a logical partition's object opened, its first members. */
static void json_part(struct slot_view *v, const struct slot_step *part)
{
	verity_show_object(&v->doc, NULL);
	verity_show_str(&v->doc, "name", part->name);
	verity_show_str(&v->doc, "group", group_of(v, part->partition));
	verity_show_u64(&v->doc, "size", part->bytes);
	verity_show_u64(&v->doc, "extents", part->extents);
}

/* A logical partition that checked nothing, or could not be. */
static void super_plain(struct slot_view *v, const struct slot_step *st)
{
	const char *result = st->why == SLOT_WHY_EMPTY       ? "empty"
			     : st->why == SLOT_WHY_NO_FOOTER ? "not_android"
							     : "error";

	if (st->result == SLOT_REFUSED || st->result == SLOT_ERROR)
		refused(v, st);
	if (v->sh->json) {
		json_part(v, st);
		verity_show_str(&v->doc, "result",
				st->result == SLOT_SKIPPED ? result
							   : refusal_word(st));
		if (st->message && st->message[0])
			verity_show_str(&v->doc, "error", st->message);
		verity_show_end(&v->doc);
		return;
	}
	if (st->result != SLOT_SKIPPED)
		return;
	if (st->why == SLOT_WHY_EMPTY)
		verity_show_textf(v->sh,
				  "%s: empty (no extents): nothing to check.\n",
				  st->name);
	else
		verity_show_textf(v->sh,
				  "%s: %" PRIu64
				  " bytes, no AVB footer: not checked.\n",
				  st->name, st->bytes);
}

/* A logical partition's own descriptor checked (or its vbmeta
 * refused): its verdict. */
static void super_checked(struct slot_view *v, const struct slot_step *st,
			  const struct slot_step *part)
{
	const struct slot_step *vb =
		st->kind == SLOT_VBMETA ? st : &v->w->steps[st->parent];
	const char *alg = verity_slot_algorithm(vb->avb);
	const char *sha1 = strcmp(alg, "NONE") ? vb->avb->key_sha1 : "";
	const char *shown = !strcmp(alg, "NONE") ? "unsigned" : alg;
	const struct ht_verify_result *c = st->checked ? &st->out.res : NULL;
	char words[160];
	int code;

	if (st->result == SLOT_REFUSED || st->result == SLOT_ERROR ||
	    st->result == SLOT_MISSING) {
		refused(v, st);
		if (v->sh->json) {
			json_part(v, part);
			verity_show_str(&v->doc, "path", st->path);
			verity_show_str(&v->doc, "result", refusal_word(st));
			verity_show_str(&v->doc, "error",
					verity_slot_message(st));
			verity_show_end(&v->doc);
		}
		return;
	}
	v->checked++;
	code = c ? verity_show_verdict(c) : st->result == SLOT_OK ? 0 : 2;
	if (code)
		v->bad_seen = 1;
	if (v->sh->json) {
		json_part(v, part);
		verity_show_str(&v->doc, "path", st->path);
		verity_show_str(&v->doc, "algorithm", alg);
		if (c)
			verity_show_str(&v->doc, "public_key_sha1",
					sha1[0] ? sha1 : NULL);
		verity_show_str(&v->doc, "trust", verity_trust_name(vb->trust));
		if (c)
			verity_show_str(&v->doc, "root_hash",
					vb->avb->root_hex);
		verity_show_str(&v->doc, "result",
				c      ? verity_show_verdict_word(code)
				: code ? "corrupted"
				       : verity_show_verdict_word(0));
		if (c) {
			verity_show_counts_json(&v->doc, c);
			if (v->failing)
				failures(v);
			else
				verity_show_null(&v->doc, "failures");
		}
		verity_show_end(&v->doc);
		return;
	}
	if (!c) {
		if (code)
			verity_show_errorf(v->sh, "fastverity: %s\n",
					   verity_slot_message(st));
		verity_show_textf(v->sh,
				  "%s: %" PRIu64
				  " bytes in %u extent%s, Android image with "
				  "a hash footer (%s): %s.\n",
				  part->name, part->bytes, part->extents,
				  plural(part->extents), shown,
				  code ? "FAILED" : "verified");
		return;
	}
	if (code == 2)
		verity_show_counts_said(v->sh, c);
	if (!c->root_matches)
		verity_show_errorf(v->sh,
				   "Verification of root hash failed.\n");
	verity_show_textf(
		v->sh,
		"%s: %" PRIu64 " bytes in %u extent%s, Android image "
		"(%s%s%s%s): %s.\n",
		part->name, part->bytes, part->extents, plural(part->extents),
		shown, sha1[0] ? ", key sha1 " : "", sha1,
		vb->trust == VERITY_TRUST_UNCHECKED ? ", signer not checked"
		: vb->trust == VERITY_TRUST_CHECK   ? ", signed by --key"
						    : "",
		verity_show_verdict_text(code, c, words, sizeof(words)));
}

/* The partition step a super step belongs to. */
static const struct slot_step *owner(const struct slot_walk *w,
				     const struct slot_step *st)
{
	for (int k = 0;
	     k < 3 && st->kind != SLOT_PARTITION && st->parent != SIZE_MAX; k++)
		st = &w->steps[st->parent];
	return st;
}

static void super_step(struct slot_view *v, const struct slot_step *st)
{
	if (st->kind == SLOT_PARTITION) {
		if (st->result != SLOT_OK)
			super_plain(v, st);
		return;
	}
	if (st->kind == SLOT_VBMETA) {
		if (st->result != SLOT_OK)
			super_checked(v, st, owner(v->w, st));
		else if (st->trust == VERITY_TRUST_UNCHECKED)
			unchecked(v, st, "it");
		return;
	}
	if (st->kind == SLOT_HASH || st->kind == SLOT_HASHTREE)
		super_checked(v, st, owner(v->w, st));
}

/* ---- the walk ---- */

static void told(void *ctx, const struct slot_walk *w, size_t i, int done)
{
	struct slot_view *v = ctx;
	const struct slot_step *st = &w->steps[i];

	v->w = w;
	if (v->how == SLOT_WORDS_AVBTOOL) {
		verity_slot_avbtool_told(v, i, done);
		return;
	}
	if (!done) {
		/* a check begins: its failures are named by it */
		if (st->kind == SLOT_HASHTREE) {
			const struct slot_step *part = owner(w, st);

			v->name = v->super ? part->name : st->name;
			v->path = st->path;
			v->partition = v->super ? part->partition : SIZE_MAX;
			v->failing = v->sh->json;
		}
		return;
	}
	if (v->super)
		super_step(v, st);
	else if (st->kind == SLOT_HASH || st->kind == SLOT_HASHTREE)
		vbmeta_partition(v, st);
	else if (st->kind == SLOT_VBMETA || st->kind == SLOT_CHAIN)
		vbmeta_step(v, st);
	verity_show_forget(&v->bad);
	v->failing = 0;
}

/* What the top vbmeta's signature is, in words. */
static void signature_words(const struct slot_walk *w, char *out, size_t len)
{
	const struct slot_step *top = &w->steps[0];
	const char *alg = top->avb ? verity_slot_algorithm(top->avb) : "NONE";

	if (!strcmp(alg, "NONE"))
		snprintf(out, len, "none");
	else if (top->trust == VERITY_TRUST_CHECK)
		snprintf(out, len, "%s, signed by %s", alg, top->signer);
	else
		snprintf(out, len, "%s, signer not checked", alg);
}

/* The walk's end: its notes, what nothing checked says, the document. */
static int set_end(struct slot_view *v)
{
	const struct slot_walk *w = v->w;
	int found = v->error      ? v->error
		    : v->bad_seen ? EPERM
		    : v->missing  ? ENODEV
				  : 0;
	char summary[512] = "", sig[256];

	/* (said whole: a note names files, of any length) */
	for (size_t i = 0; i < w->nnotes; i++)
		verity_show_errorf(v->sh, "fastverity: warning: %s\n",
				   w->notes[i]);
	/* a set that holds says what was checked: nothing, when nothing
	 * was */
	if (!found && !v->checked) {
		if (v->super) {
			snprintf(summary, sizeof(summary),
				 "%s: nothing to verify: no partition of "
				 "slot %s with an AVB footer",
				 v->ask->image, w->slot[0] ? w->slot : "0");
		} else {
			signature_words(w, sig, sizeof(sig));
			snprintf(summary, sizeof(summary),
				 "%s: %s: nothing to verify; signature: %s",
				 v->ask->image,
				 w->n && w->steps[0].avb &&
						 w->steps[0]
							 .avb->img.vbmeta.ndesc
					 ? "no hash, hashtree or chain "
					   "descriptor"
					 : "no descriptors",
				 sig);
		}
		if (!v->sh->json)
			verity_show_textf(v->sh, "%s.\n", summary);
	}
	if (v->sh->json) {
		verity_show_object(v->sh, NULL);
		verity_show_str(v->sh, "image", v->ask->image);
		verity_show_str(v->sh, "container", v->super ? "super" : "avb");
		verity_show_str(v->sh, "result",
				!found           ? "ok"
				: found == EPERM ? "corrupted"
				: found == ENODEV || found == ENOTBLK
					? "incomplete"
					: "error");
		if (v->super && w->slot[0])
			verity_show_str(v->sh, "slot", w->slot);
		if (summary[0])
			verity_show_str(v->sh, "summary", summary);
		verity_show_array(v->sh, "partitions");
		verity_show_replay(v->sh, &v->parts);
		verity_show_end(v->sh);
		verity_show_end(v->sh);
	}
	return found;
}

int verity_slot_show(struct slot_walk *w, struct slot_ask *ask,
		     struct verity_run *run, enum slot_words how,
		     struct show *sh, struct ht_error *err)
{
	struct slot_view v;
	int r;

	memset(&v, 0, sizeof(v));
	v.sh = sh;
	v.doc = (struct show){verity_show_keep, &v.parts, 1, 0};
	v.fail = (struct show){verity_show_keep, &v.bad, 1, 0};
	v.how = how;
	v.ask = ask;
	v.w = w;
	v.super = !strcmp(ask->kind, "super");
	v.partition = SIZE_MAX;
	v.stopped = SIZE_MAX;
	ask->told = told;
	ask->ctx = &v;
	run->report = failed;
	run->event =
		NULL; /* a verify with parity: its repair's events unasked */
	run->ctx = &v;
	r = verity_slot_walk(w, ask, err);
	if (!r && !sh->r && !(r = v.doc.r ? v.doc.r : v.fail.r))
		r = how == SLOT_WORDS_AVBTOOL ? verity_slot_avbtool_end(&v)
					      : set_end(&v);
	verity_show_forget(&v.parts);
	verity_show_forget(&v.bad);
	free(v.parts.v);
	free(v.said);
	free(v.bad.v);
	return sh->r ? sh->r : r;
}

int verity_slot_ask_of(const struct fv_slot_request *req, struct slot_ask *ask,
		       struct slot_expected **x)
{
	*x = NULL;
	if (req->nexpected && !(*x = calloc(req->nexpected, sizeof(**x))))
		return -ENOMEM;
	for (size_t k = 0; k < req->nexpected; k++)
		(*x)[k] = (struct slot_expected){
			req->expected[k].name,
			req->expected[k].rollback_index_location,
			req->expected[k].public_key,
			req->expected[k].public_key_len};
	ask->image = req->image;
	ask->key = req->key;
	ask->slot = req->slot;
	ask->partitions = req->partitions;
	ask->npartitions = req->npartitions;
	ask->device_names = req->device_names;
	ask->device_files = req->device_files;
	ask->ndevices = req->ndevices;
	ask->expected = *x;
	ask->nexpected = req->nexpected;
	ask->flags = req->flags;
	return 0;
}
