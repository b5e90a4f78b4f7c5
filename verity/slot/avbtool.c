/* avbtool's verify_image as it says a walk (verity/slot/show.h): the
 * vbmeta's signature and signer, every hash and hashtree descriptor over
 * its image, chain descriptors against the expected or followed, each
 * in avbtool's words as its step ends; with --json one document
 * (docs/android.md). */
#include "verity/slot/show.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/shown.h"

/* avbtool's lines on stdout; with --json, the document alone. */
static void say(struct slot_view *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct slot_view *v, const char *fmt, ...)
{
	va_list ap;

	if (v->sh->json)
		return;
	va_start(ap, fmt);
	verity_show_vtextf(v->sh, fmt, ap);
	va_end(ap);
}

/* The error that stops the check, said and kept for --json's error
 * document. */
static void fail(struct slot_view *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(struct slot_view *v, const char *fmt, ...)
{
	va_list ap;

	free(v->said);
	va_start(ap, fmt);
	if (vasprintf(&v->said, fmt, ap) < 0)
		v->said = NULL;
	va_end(ap);
	if (!v->said) {
		verity_show_error(v->sh, NULL); /* out of memory */
		return;
	}
	verity_show_errorf(v->sh, "fastverity: %s\n", v->said);
}

static struct fv_avb_descriptor descriptor_of(const struct slot_step *st)
{
	struct fv_avb_descriptor d;

	memset(&d, 0, sizeof(d));
	if (st->avb && st->descriptor < st->avb->img.vbmeta.ndesc)
		verity_android_shown_descriptor(
			&st->avb->img.vbmeta.desc[st->descriptor], &d);
	return d;
}

/* --json: one partition's verdict (counts may be NULL). */
static void part(struct slot_view *v, const struct slot_step *st,
		 const char *kind, const char *result,
		 const struct ht_verify_result *counts)
{
	struct slot_vouch vouch;

	if (!v->sh->json)
		return;
	if (strcmp(result, "ok") && strcmp(result, "skipped"))
		v->corrupted = 1;
	verity_slot_vouch(v->w, st->parent, &vouch);
	verity_slot_part_json(&v->doc, st, kind, &vouch, result);
	if (counts)
		verity_show_counts_json(&v->doc, counts);
	if (v->failing) {
		verity_show_array(&v->doc, "failures");
		verity_show_replay(&v->doc, &v->bad);
		verity_show_end(&v->doc);
	} else if (counts) {
		verity_show_null(&v->doc, "failures");
	}
	verity_show_end(&v->doc);
}

void verity_slot_avbtool_failed(struct slot_view *v,
				const struct verity_failure *f)
{
	if (v->failing) {
		verity_show_object(&v->fail, NULL);
		verity_show_failure_json(&v->fail, f);
		verity_show_end(&v->fail);
		return;
	}
	if (f->kind == HT_BAD_HASH_BLOCK)
		verity_show_errorf(v->sh,
				   "Verification failed at position %" PRIu64
				   " (hash block, level %u).\n",
				   f->position, f->level);
	else
		verity_show_errorf(v->sh, "%s at position %" PRIu64 ".\n",
				   verity_show_failure_words(f->kind),
				   f->position);
}

/* ---- each step ---- */

static void vbmeta_begins(struct slot_view *v, const struct slot_step *st)
{
	const struct slot_ask *ask = v->ask;

	if (st->depth) {
		const struct slot_step *ch = &v->w->steps[st->parent];
		struct fv_avb_descriptor d = descriptor_of(ch);
		struct fv_avb_chain_partition cp = d.chain_partition;

		/* a chained image is checked against the key its chain
		 * descriptor pins: avbtool's words only when that key is
		 * the key's given, or no key was given */
		if (d.tag == FV_AVB_CHAIN_PARTITION && ask->key_blob &&
		    (cp.public_key_len != ask->key_len ||
		     memcmp(cp.public_key, ask->key_blob, ask->key_len))) {
			say(v,
			    "Verifying image %s using the key %s pins for %s "
			    "(sha1 %s)\n",
			    st->path, v->w->steps[ch->parent].path, ch->name,
			    cp.public_key_sha1);
			return;
		}
	}
	if (ask->key)
		say(v, "Verifying image %s using key at %s\n", st->path,
		    ask->key);
	else
		say(v, "Verifying image %s using embedded public key\n",
		    st->path);
}

static void vbmeta_ends(struct slot_view *v, const struct slot_step *st)
{
	const char *alg = st->avb ? verity_slot_algorithm(st->avb) : "";

	if (st->result == SLOT_OK) {
		say(v,
		    "vbmeta: Successfully verified %s%s vbmeta struct in %s\n",
		    st->avb->img.has_footer ? "footer and " : "", alg,
		    st->path);
		return;
	}
	switch (st->why) {
	case SLOT_WHY_SIGNATURE:
		fail(v, "%s: Signature check failed for %s vbmeta struct (%s)",
		     st->path, alg, verity_slot_message(st));
		break;
	case SLOT_WHY_OTHER_KEY:
		fail(v, "%s: Embedded public key does not match given key.",
		     st->path);
		break;
	case SLOT_WHY_PINNED_KEY:
		fail(v,
		     "%s: Embedded public key does not match the key the "
		     "chain partition descriptor for %s pins.",
		     st->path, v->w->steps[st->parent].name);
		break;
	default:
		fail(v, "%s", verity_slot_message(st));
		break;
	}
}

static const struct slot_expected *expected_of(const struct slot_view *v,
					       const char *name)
{
	for (size_t k = 0; k < v->ask->nexpected; k++)
		if (!strcmp(v->ask->expected[k].name, name))
			return &v->ask->expected[k];
	return NULL;
}

static void chain_ends(struct slot_view *v, const struct slot_step *st)
{
	struct fv_avb_chain_partition cp = descriptor_of(st).chain_partition;
	const struct slot_expected *x = expected_of(v, st->name);

	switch (st->result == SLOT_OK ? SLOT_WHY_NONE : st->why) {
	case SLOT_WHY_NONE:
		if (st->expected) {
			say(v,
			    "%s: Successfully verified chain partition "
			    "descriptor matches expected data\n",
			    st->name);
			part(v, st, "chain partition", "ok", NULL);
		} else if (st->followed) {
			say(v,
			    "%s: Chained but ROLLBACK_SLOT (which is %u) and "
			    "KEY (which has sha1 %s) not specified\n",
			    st->name, cp.rollback_index_location,
			    cp.public_key_sha1);
		}
		if (st->followed)
			say(v, "--\n");
		return;
	case SLOT_WHY_NOT_EXPECTED:
		verity_show_errorf(
			v->sh,
			"No expected chain partition for partition %s. Use "
			"--expected_chain_partition to specify expected "
			"contents or --follow_chain_partitions.\n",
			st->name);
		return;
	case SLOT_WHY_LOCATION:
		verity_show_errorf(
			v->sh,
			"Expected rollback_index_location %u does not match "
			"%u in descriptor for partition %s\n",
			x ? x->rollback_index_location : 0,
			cp.rollback_index_location, st->name);
		return;
	case SLOT_WHY_KEY_BLOB:
		verity_show_errorf(
			v->sh,
			"Expected public key blob does not match public key "
			"blob in descriptor for partition %s\n",
			st->name);
		return;
	case SLOT_WHY_VISITED:
		say(v, "%s: chained partition checked already\n", st->name);
		return;
	default:
		fail(v, "%s", verity_slot_message(st));
		return;
	}
}

static void hash_ends(struct slot_view *v, const struct slot_step *st)
{
	struct fv_avb_hash h = descriptor_of(st).hash;

	if (st->result == SLOT_OK) {
		say(v,
		    "%s: Successfully verified %s hash of %s for image of "
		    "%" PRIu64 " bytes\n",
		    st->name, h.hash_algorithm, st->path, h.image_size);
		part(v, st, "hash", "ok", NULL);
	} else if (st->result == SLOT_BAD) {
		/* avbtool's line, as it prints it */
		verity_show_errorf(v->sh, "%s\n", verity_slot_message(st));
		part(v, st, "hash", "corrupted", NULL);
	} else if (st->result == SLOT_SKIPPED) {
		say(v, "%s: checked already\n", st->name);
	} else {
		fail(v, "%s", verity_slot_message(st));
	}
}

static void tree_ends(struct slot_view *v, const struct slot_step *st)
{
	struct fv_avb_hashtree t = descriptor_of(st).hashtree;
	const struct ht_verify_result *n = st->checked ? &st->out.res : NULL;

	if (st->result == SLOT_OK) {
		part(v, st, "hashtree", "ok", n);
		say(v,
		    "%s: Successfully verified %s hashtree of %s for image of "
		    "%" PRIu64 " bytes\n",
		    st->name, t.hash_algorithm, st->path, t.image_size);
		return;
	}
	if (st->result == SLOT_SKIPPED && st->why == SLOT_WHY_ZEROED) {
		say(v,
		    "%s: skipping verification since hashtree is zeroed and "
		    "--accept_zeroed_hashtree was given\n",
		    st->name);
		part(v, st, "hashtree", "skipped", NULL);
		return;
	}
	if (st->result == SLOT_SKIPPED) {
		say(v, "%s: checked already\n", st->name);
		return;
	}
	if (st->result != SLOT_BAD) {
		fail(v, "%s", verity_slot_message(st));
		return;
	}
	if (st->why == SLOT_WHY_PARITY) {
		verity_show_errorf(
			v->sh,
			"parity of %s: %" PRIu64 " codewords in %" PRIu64
			" rounds disagree with the verified data\n",
			st->path, st->checked ? st->out.fec.stale_codewords : 0,
			st->checked ? st->out.fec.stale_rounds : 0);
		part(v, st, "hashtree", "corrupted", n);
		return;
	}
	/* avbtool's two words: the data's own root against the
	 * descriptor's says which (a tree made zeros, or damaged, over
	 * intact data: the tree's fault) */
	verity_show_errorf(
		v->sh,
		st->why == SLOT_WHY_TREE
			? "hashtree of %s contains invalid data\n"
			: "hashtree of %s does not match descriptor\n",
		st->path);
	part(v, st, "hashtree",
	     n && verity_show_verdict(n) == 1 ? "root hash mismatch"
					      : "corrupted",
	     n);
}

void verity_slot_avbtool_told(struct slot_view *v, size_t i, int done)
{
	const struct slot_step *st = &v->w->steps[i];

	if (!done) {
		if (st->kind == SLOT_VBMETA)
			vbmeta_begins(v, st);
		if (st->kind == SLOT_HASHTREE)
			v->failing = v->sh->json;
		return;
	}
	if (st->kind == SLOT_VBMETA)
		vbmeta_ends(v, st);
	else if (st->kind == SLOT_CHAIN)
		chain_ends(v, st);
	else if (st->kind == SLOT_HASH)
		hash_ends(v, st);
	else if (st->kind == SLOT_HASHTREE)
		tree_ends(v, st);
	if (st->result != SLOT_OK && st->result != SLOT_SKIPPED &&
	    v->stopped == SIZE_MAX)
		v->stopped = i;
	verity_show_forget(&v->bad);
	v->failing = 0;
}

/* After a failure: each vbmeta whose descriptors were being checked
 * says so, the innermost first (avbtool's lines). */
static void error_lines(struct slot_view *v)
{
	const struct slot_step *st = &v->w->steps[v->stopped];
	size_t at = st->kind == SLOT_VBMETA && st->why != SLOT_WHY_DESCRIPTORS
			    ? st->parent
			    : v->stopped;

	while (at != SIZE_MAX) {
		st = &v->w->steps[at];
		if (st->kind == SLOT_VBMETA)
			verity_show_errorf(
				v->sh,
				"fastverity: %s: Error verifying descriptor.\n",
				st->path);
		at = st->parent;
	}
}

int verity_slot_avbtool_end(struct slot_view *v)
{
	const struct slot_walk *w = v->w;
	int found = 0;

	for (size_t i = 0; i < w->nnotes; i++)
		verity_show_errorf(v->sh, "fastverity: %s\n", w->notes[i]);
	if (v->stopped != SIZE_MAX) {
		const struct slot_step *st = &w->steps[v->stopped];

		error_lines(v);
		found = st->error ? -st->error : EINVAL;
	}
	if (!v->sh->json)
		return found;
	/* --json: the image document when every descriptor was checked or
	 * one failed its check (avbtool's exit code 1 for that); else the
	 * error document, with what was said */
	verity_show_object(v->sh, NULL);
	if (!found || v->corrupted) {
		verity_show_str(v->sh, "image", v->ask->image);
		verity_show_str(v->sh, "container", "avb");
		verity_show_str(v->sh, "result", found ? "corrupted" : "ok");
		verity_show_array(v->sh, "partitions");
		verity_show_replay(v->sh, &v->parts);
		verity_show_end(v->sh);
	} else {
		verity_show_str(v->sh, "result", "error");
		verity_show_str(v->sh, "error",
				v->said ? v->said : "verification failed");
		verity_show_u64(v->sh, "exit_code", 1);
	}
	verity_show_end(v->sh);
	return found;
}
