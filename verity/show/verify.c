/* A pair's verify and repair said (verity/show/verify.h). */
#include "verity/show/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/sidecar.h"
#include "verity/show/check.h"
#include "verity/show/pair.h"

/* The root did not match the top of the tree: no block was judged. */
static const char root_first_hint[] =
	"the top of the tree does not match the root hash, so no block was "
	"checked: the root hash, or a parameter (salt, block sizes, hash "
	"algorithm, data blocks, hash offset), is likely wrong";

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static const char *trust_word(enum fv_trust t)
{
	return t == FV_TRUST_CHECK       ? "checked"
	       : t == FV_TRUST_UNCHECKED ? "not checked"
					 : "unsigned";
}

static struct verity_failure failure_of(enum fv_failure_kind kind,
					uint64_t block, uint64_t offset,
					unsigned level)
{
	return (struct verity_failure){(enum ht_failure_kind)kind, offset,
				       block, level};
}

/* "parity of 8 roots, told from the size of f.fec" */
static void roots_text(const struct fv_layout *l, const char *dev, char *buf,
		       size_t len)
{
	switch (l->fec_roots_from) {
	case FV_ROOTS_GIVEN:
		snprintf(buf, len, "parity of %u roots (--fec-roots)",
			 l->fec_roots);
		break;
	case FV_ROOTS_INFERRED:
		snprintf(buf, len,
			 "parity of %u roots, told from the size of %s",
			 l->fec_roots, dev);
		break;
	case FV_ROOTS_DESCRIBED:
		snprintf(buf, len, "parity of %u roots, as %s describes it",
			 l->fec_roots, dev);
		break;
	default:
		snprintf(buf, len,
			 "parity of %u roots, the default (the size of %s does "
			 "not tell; give --fec-roots)",
			 l->fec_roots, dev);
	}
}

void verity_show_check_begin(struct show_check *c, struct show *sh,
			     const struct fv_show_request *q,
			     const struct show_check_pair *p)
{
	memset(c, 0, sizeof(*c));
	c->sh = sh;
	c->q = q;
	c->p = *p;
	c->repair = q->what == FV_SHOW_REPAIR;
	c->max = q->max;
	c->keep_fixed = (struct show){verity_show_keep, &c->fixed, 1, 0};
	c->keep_unfixed = (struct show){verity_show_keep, &c->unfixed, 1, 0};
}

/* The signature's --json value (rep: what the check, or the describe,
 * found). */
static void signature_json(struct show_check *c, const struct fv_report *rep)
{
	struct show *sh = c->sh;
	const struct fv_avb_info *a = c->p.avb;
	int checked = !a && rep->trust == FV_TRUST_CHECK;

	if (a ? c->p.trust == FV_TRUST_UNSIGNED
	      : !checked && c->p.trust != FV_TRUST_UNCHECKED) {
		verity_show_null(sh, "signature");
		return;
	}
	verity_show_object(sh, "signature");
	if (a) {
		verity_show_str(sh, "algorithm", a->header.algorithm);
		verity_show_str(sh, "public_key_sha1",
				a->header.public_key_sha1);
		verity_show_u64(sh, "rollback_index", a->header.rollback_index);
		verity_show_bool(sh, "checked", c->p.trust == FV_TRUST_CHECK);
		verity_show_str(sh, "trust", trust_word(c->p.trust));
		verity_show_str(sh, "signer",
				c->p.trust == FV_TRUST_CHECK ? c->q->key
							     : NULL);
	} else {
		verity_show_str(sh, "file", c->p.pi->signature);
		verity_show_bool(sh, "checked", checked);
		verity_show_str(sh, "trust", trust_word(c->p.trust));
		verity_show_str(sh, "signer", checked ? rep->signer : NULL);
		verity_show_str(sh, "warning",
				checked && *rep->signature_warning
					? rep->signature_warning
					: NULL);
	}
	verity_show_end(sh);
}

/* verify --json: the header as the check sees the pair, and its
 * signature's verdict (rep: the check's report, NULL before it ends),
 * then the list of failures opened. */
static void json_open(struct show_check *c, const struct fv_report *rep)
{
	const struct fv_image_pair_info *pi = c->p.pi;
	const struct fv_report *d = c->p.described;

	if (c->opened)
		return;
	c->opened = 1;
	verity_show_object(c->sh, NULL);
	/* one "fec" key: the layout's joins the check's at the end */
	verity_show_pair_members(c->sh, pi->hash, pi->params, &d->layout,
				 pi->root_hex, 0);
	verity_show_str(c->sh, "data_device", pi->data);
	signature_json(c, rep ? rep : d);
	verity_show_array(c->sh, "failures");
}

void verity_show_check_failure(void *ctx, enum fv_failure_kind kind,
			       uint64_t block, uint64_t offset, unsigned level)
{
	struct show_check *c = ctx;
	struct verity_failure f = failure_of(kind, block, offset, level);

	if (c->repair)
		return;
	if (c->shown >= c->max) {
		c->not_shown++;
		return;
	}
	c->shown++;
	if (!c->sh->json) {
		verity_show_errorf(c->sh, "%s at position %" PRIu64 ".\n",
				   verity_show_failure_words(f.kind),
				   f.position);
		return;
	}
	json_open(c, NULL);
	verity_show_object(c->sh, NULL);
	verity_show_failure_json(c->sh, &f);
	verity_show_end(c->sh);
}

void verity_show_check_block(void *ctx, int repaired, enum fv_failure_kind kind,
			     uint64_t block, uint64_t offset, unsigned level)
{
	struct show_check *c = ctx;
	struct verity_failure f = failure_of(kind, block, offset, level);
	int dry = c->q->o && (c->q->o->repair & FV_REPAIR_DRY_RUN);
	char what[96];

	if (c->sh->json) {
		struct show *to = repaired ? &c->keep_fixed : &c->keep_unfixed;

		if (!c->repair && repaired)
			return;
		verity_show_object(to, NULL);
		verity_show_failure_json(to, &f);
		verity_show_end(to);
		return;
	}
	if (!c->repair) {
		if (!repaired)
			verity_show_errorf(c->sh,
					   "FEC cannot repair position %" PRIu64
					   ".\n",
					   f.position);
		return;
	}
	if (f.kind == HT_BAD_DATA_BLOCK || f.kind == HT_UNREADABLE_DATA)
		snprintf(what, sizeof(what), "data block %" PRIu64, f.block);
	else
		snprintf(what, sizeof(what), "hash block %" PRIu64 ", level %u",
			 f.block, f.level);
	if (repaired)
		verity_show_textf(c->sh, "%s position %" PRIu64 " (%s).\n",
				  dry ? "Can repair" : "Repaired", f.position,
				  what);
	else
		verity_show_errorf(c->sh,
				   "Cannot repair position %" PRIu64 " (%s).\n",
				   f.position, what);
}

/* The parity's place as the layout says it (the members the check's
 * figures lack; all: every one). */
static void fec_layout(struct show *sh, const struct fv_layout *l, int all)
{
	if (all) {
		verity_show_u64(sh, "roots", l->fec_roots);
		verity_show_u64(sh, "offset", l->fec_offset);
	}
	verity_show_u64(sh, "parity_blocks", l->fec_rounds * l->fec_roots);
	verity_show_u64(sh, "parity_bytes", l->fec_parity_bytes);
	if (all) {
		verity_show_u64(sh, "covered_blocks", l->fec_blocks);
		verity_show_u64(sh, "rounds", l->fec_rounds);
	}
	verity_show_bool(sh, "on_hash_device", l->fec_on_hash_device);
}

/* What the parity found, as --json's "fec" members. */
static void fec_json(struct show *sh, const struct fv_layout *l,
		     const struct fv_fec_report *f)
{
	static const char *const from[] = {
		[FV_ROOTS_GIVEN] = "given",
		[FV_ROOTS_INFERRED] = "size",
		[FV_ROOTS_DESCRIBED] = "image",
	};
	unsigned k = (unsigned)l->fec_roots_from;

	verity_show_u64(sh, "roots", l->fec_roots);
	verity_show_str(sh, "roots_from",
			k < sizeof(from) / sizeof(from[0]) && from[k]
				? from[k]
				: "default");
	verity_show_u64(sh, "offset", l->fec_offset);
	verity_show_u64(sh, "covered_blocks", l->fec_blocks);
	verity_show_u64(sh, "rounds", l->fec_rounds);
	verity_show_u64(sh, "bad_blocks", f->bad_blocks);
	verity_show_u64(sh, "repairable_blocks", f->repaired);
	verity_show_u64(sh, "unrepairable_blocks", f->bad_blocks - f->repaired);
	verity_show_u64(sh, "stale_parity_codewords", f->stale_codewords);
	verity_show_u64(sh, "stale_parity_rounds", f->stale_rounds);
	verity_show_u64(sh, "unchecked_parity_rounds", f->unchecked_rounds);
	verity_show_u64(sh, "parity_rewrite_limit", f->rewrite_limit);
	verity_show_u64(sh, "passes", f->passes);
}

/* verify --json's end: the verdict (rep NULL: the error), the parity. */
static void json_close(struct show_check *c, const struct fv_report *rep,
		       const char *error)
{
	struct show *sh = c->sh;
	const struct fv_layout *dl = &c->p.described->layout;
	int has_fec = rep && (rep->has & FV_REPORT_FEC);
	struct ht_verify_result n;

	json_open(c, rep);
	verity_show_end(sh);
	if (error) {
		verity_show_str(sh, "result", "error");
		verity_show_str(sh, "error", error);
	} else {
		n = verity_show_counts_of(rep);
		verity_show_str(
			sh, "result",
			verity_show_verdict_word(verity_show_verdict(&n)));
		verity_show_counts_json(sh, &n);
		verity_show_u64(sh, "failures_not_listed", c->not_shown);
		verity_show_bool(sh, "root_first", n.root_first);
		verity_show_str(sh, "hint",
				n.root_first ? root_first_hint : NULL);
		verity_show_str(sh, "hashing_path",
				*rep->hashing_path ? rep->hashing_path : NULL);
	}
	if (has_fec) {
		verity_show_object(sh, "fec");
		fec_json(sh, &rep->layout, &rep->fec);
		if (c->p.pi->fec) {
			verity_show_array(sh, "unrepairable");
			verity_show_replay(sh, &c->unfixed);
			verity_show_end(sh);
		}
		if (dl->fec_roots)
			fec_layout(sh, dl, 0);
		verity_show_end(sh);
	} else if (dl->fec_roots) {
		verity_show_object(sh, "fec");
		fec_layout(sh, dl, 1);
		verity_show_end(sh);
	}
	verity_show_end(sh);
}

static void forget(struct show_check *c)
{
	verity_show_forget(&c->fixed);
	verity_show_forget(&c->unfixed);
	free(c->fixed.v);
	free(c->unfixed.v);
}

void verity_show_check_failed(struct show_check *c, const char *error)
{
	if (c->opened)
		json_close(c, NULL, error);
	forget(c);
}

/* After the check: its warning; a signer not checked said so. */
static void signature_said(struct show_check *c, const struct fv_report *rep)
{
	const char *sig = c->p.pi->signature;

	/* (what the blocks showed is said apart: a damaged image does not
	 * match its root) */
	if (!c->p.avb && c->p.trust == FV_TRUST_UNCHECKED)
		verity_show_errorf(
			c->sh,
			"fastverity: %s: warning: the root hash is signed, and "
			"its signer was not checked (give "
			"--trusted-cert=<cert.pem> to check it)%s\n",
			sig ? sig : c->p.pi->data,
			rep->intact ? ": the image matches its root hash, but "
				      "nothing proves who made it"
				    : "");
	else if (!c->p.avb && rep->trust == FV_TRUST_CHECK &&
		 *rep->signature_warning)
		verity_show_errorf(c->sh, "fastverity: %s: warning: %s\n", sig,
				   rep->signature_warning);
}

/* verify's words after the check (text). */
static void verify_text(struct show_check *c, const struct fv_report *rep,
			const struct ht_verify_result *n, int code)
{
	const struct fv_fec_report *fr = &rep->fec;
	const char *args = c->q->args ? c->q->args : "";
	char roots[160];

	/* -v: what was checked and against which key, in the set walk's
	 * words (an image with a hash footer has its line there) */
	if (c->p.avb && c->q->all && !code && c->q->key &&
	    c->p.trust == FV_TRUST_CHECK)
		verity_show_textf(c->sh,
				  "%s: hashtree of %s, vbmeta %s signed by %s: "
				  "verified.\n",
				  c->p.pi->name, c->p.pi->data, c->p.pi->data,
				  c->q->key);
	if (c->not_shown)
		verity_show_errorf(c->sh,
				   "... and %" PRIu64 " more failures, not "
				   "listed (--max-failures=%" PRIu64 ").\n",
				   c->not_shown, c->max);
	if (code == 2)
		verity_show_counts_said(c->sh, n);
	if (!n->root_matches)
		verity_show_error(c->sh, "Verification of root hash failed.\n");
	if (n->root_first)
		verity_show_errorf(c->sh, "fastverity: %s\n", root_first_hint);
	if (!(rep->has & FV_REPORT_FEC))
		return;
	if (fr->bad_blocks || fr->stale_codewords || c->q->all) {
		roots_text(&rep->layout, c->p.pi->fec, roots, sizeof(roots));
		verity_show_errorf(c->sh, "FEC: %s.\n", roots);
	}
	if (fr->bad_blocks)
		verity_show_errorf(c->sh,
				   "FEC can repair %" PRIu64 " of %" PRIu64
				   " bad block%s (fastverity repair, %s).\n",
				   fr->repaired, fr->bad_blocks,
				   plural(fr->bad_blocks), args);
	/* (more than the limit is not this image's parity: the library
	 * refused it, naming it) */
	if (fr->stale_codewords)
		verity_show_errorf(
			c->sh,
			"FEC parity: %" PRIu64 " codeword%s in %" PRIu64
			" round%s disagree with the verified data (stale or "
			"damaged); fastverity repair --rewrite-parity, %s, "
			"rewrites them.\n",
			fr->stale_codewords, plural(fr->stale_codewords),
			fr->stale_rounds, plural(fr->stale_rounds), args);
}

/* repair's words after it (text). */
static void repair_text(struct show_check *c, const struct fv_report *rep,
			const struct ht_verify_result *n)
{
	const struct fv_layout *fl = &rep->layout;
	const struct fv_fec_report *res = &rep->fec;
	unsigned flags = c->q->o ? c->q->o->repair : 0;
	int dry = !!(flags & FV_REPAIR_DRY_RUN);
	char roots[160];

	if (fl->fec_roots_from != FV_ROOTS_GIVEN) {
		roots_text(fl, c->p.pi->fec, roots, sizeof(roots));
		verity_show_textf(c->sh, "FEC: %s.\n", roots);
	}
	if (res->bad_blocks)
		verity_show_textf(
			c->sh, "%" PRIu64 " of %" PRIu64 " bad block%s %s.\n",
			res->repaired, res->bad_blocks, plural(res->bad_blocks),
			dry ? "can be repaired" : "repaired");
	/* past the limit (only a repair that does not rewrite gets here):
	 * not this image's parity, which --rewrite-parity refuses */
	if (res->stale_codewords > res->rewrite_limit)
		verity_show_textf(
			c->sh,
			"Parity: %" PRIu64 " codeword%s in %" PRIu64
			" round%s disagree with the verified data, more than "
			"the %" PRIu64 " that damage explains: not this "
			"image's parity, or the roots or offset are wrong; "
			"left as it is.\n",
			res->stale_codewords, plural(res->stale_codewords),
			res->stale_rounds, plural(res->stale_rounds),
			res->rewrite_limit);
	else if (res->stale_codewords)
		verity_show_textf(
			c->sh,
			"Parity: %" PRIu64 " codeword%s in %" PRIu64
			" round%s disagree with the verified data; %s.\n",
			res->stale_codewords, plural(res->stale_codewords),
			res->stale_rounds, plural(res->stale_rounds),
			!(flags & FV_REPAIR_REWRITE_PARITY)
				? "not rewritten (repair --rewrite-parity "
				  "rewrites them)"
			: dry ? "repair --rewrite-parity would rewrite them"
			      : "rewritten");
	if (!n->root_matches)
		verity_show_error(c->sh, "Verification of root hash failed.\n");
}

/* repair --json: one document. */
static void repair_json(struct show_check *c, const struct fv_report *rep,
			const struct ht_verify_result *n, int code)
{
	struct show *sh = c->sh;
	const struct fv_fec_report *f = &rep->fec;
	unsigned flags = c->q->o ? c->q->o->repair : 0;
	struct ht_verify_result before = {f->before_bad_data_blocks,
					  f->before_bad_hash_blocks,
					  f->before_bad_padding,
					  f->before_unreadable,
					  f->before_unchecked_data_blocks,
					  f->before_unchecked_hash_blocks,
					  f->before_root_matches,
					  0};

	verity_show_object(sh, NULL);
	verity_show_pair_members(sh, c->p.pi->hash, c->p.pi->params,
				 &rep->layout, NULL, 1);
	verity_show_bool(sh, "dry_run", !!(flags & FV_REPAIR_DRY_RUN));
	verity_show_bool(sh, "rewrite_parity",
			 !!(flags & FV_REPAIR_REWRITE_PARITY));
	signature_json(c, rep);
	verity_show_object(sh, "before");
	verity_show_counts_json(sh, &before);
	verity_show_end(sh);
	verity_show_array(sh, "repaired");
	verity_show_replay(sh, &c->fixed);
	verity_show_end(sh);
	verity_show_array(sh, "unrepaired");
	verity_show_replay(sh, &c->unfixed);
	verity_show_end(sh);
	/* (the header's "fec", its place kept, now says what was found) */
	verity_show_object(sh, "fec");
	fec_json(sh, &rep->layout, f);
	verity_show_end(sh);
	verity_show_u64(sh, "parity_rounds_rewritten", f->parity_rewritten);
	verity_show_object(sh, "after");
	verity_show_counts_json(sh, n);
	verity_show_end(sh);
	verity_show_str(sh, "result", verity_show_verdict_word(code));
	verity_show_u64(sh, "exit_code", (uint64_t)code);
	verity_show_end(sh);
}

int verity_show_check_end(struct show_check *c, const struct fv_report *rep)
{
	struct ht_verify_result n = verity_show_counts_of(rep);
	int code = verity_show_verdict(&n);

	signature_said(c, rep);
	if (c->repair && c->sh->json)
		repair_json(c, rep, &n, code);
	else if (c->repair)
		repair_text(c, rep, &n);
	else if (c->sh->json)
		json_close(c, rep, NULL);
	else
		verify_text(c, rep, &n, code);
	forget(c);
	return code;
}

int verity_show_no_parity(int avb, const char *image, const char *container,
			  struct ht_error *err)
{
	struct verity_sidecar side;
	int r;

	if (avb)
		return ht_fail(err, EINVAL,
			       "repair: %s holds no parity it can use "
			       "(fastverity avb add_hashtree_footer makes it, "
			       "4096-byte blocks)",
			       image);
	if (!image)
		return ht_fail(err, EINVAL, "repair: requires --fec-device");
	if (strcmp(container, "sidecar"))
		return ht_fail(err, EINVAL,
			       "repair: %s holds no parity: requires "
			       "--fec-device",
			       image);
	if ((r = verity_sidecar_names(image, &side, err)))
		return r;
	r = ht_fail(err, EINVAL, "repair: requires --fec-device, or %s",
		    side.fec);
	verity_sidecar_free(&side);
	return r;
}
