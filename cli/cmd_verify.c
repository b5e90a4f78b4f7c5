/* fastverity verify <data_device> <hash_device> [<root_hash>]
 * Checks everything and reports every failure, not just the first. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli/jsonc.h"

#include "cli/avb.h"
#include "cli/ddi.h"
#include "cli/super.h"
#include "cli/errors.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"

/* --json streams: the header once the parameters are resolved, then each
 * failure as it is found, then the verdict; memory stays bounded however
 * many blocks are bad. */
struct verify_report {
	const struct cli_opts *o;
	const struct cli_pair *cp; /* laid out before any failure */
	fv_result *dump;           /* its layout, for the header */
	int opened;                /* the header and "failures":[ are out */
	uint64_t shown;            /* failures printed */
	uint64_t max_shown;        /* --max-failures (UINT64_MAX: all) */
	uint64_t not_shown;        /* failures past it */
	json_object *unrepairable; /* --fec-device, --json */
	json_object *fec_layout;   /* the parity's place, for the one "fec"
				    * object at the end (with what the check
				    * found) */
};

/* --fec-device: blocks the parity cannot bring back. */
static void fec_event(void *c, int repaired, enum fv_failure_kind kind,
		      uint64_t block, uint64_t offset, unsigned level)
{
	struct verify_report *vr = c;
	struct cli_failure f = {kind, offset, block, level};

	cli_progress_clear();
	if (repaired)
		return;
	if (vr->o->json)
		json_object_array_add(vr->unrepairable, cli_json_failure(&f));
	else
		fprintf(stderr, "FEC cannot repair position %" PRIu64 ".\n",
			f.position);
}

/* The arguments repair takes for this verify's: the same, less the
 * options only verify takes, and with the anchor a write needs when the
 * signer was not checked (repair writes only on a checked signer's
 * word). The hints name a command that runs. */
static void repair_args(const struct cli_opts *o, const struct cli_pair *cp,
			char *out, size_t len)
{
	static const char *const only_verify[] = {
		"--max-failures", "--partition", "--slot", "--block-device"};
	const int given[] = {!!o->max_failures, !!o->partition, !!o->slot,
			     o->nblock_devices > 0};
	size_t n = 0, dropped = 0;

	n += (size_t)snprintf(out, len, "with the same arguments");
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		if (given[i] && n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s",
					      dropped++ ? ", " : " less ",
					      only_verify[i]);
	if (cp->trust == FV_TRUST_UNCHECKED && n < len)
		snprintf(out + n, len - n, "%s",
			 cp->avb ? " and with --key=<key.pem>"
				 : " and with --trusted-cert=<cert.pem>");
}

static void print_fec(const struct cli_opts *o, const struct cli_pair *cp,
		      const struct fv_layout *fl,
		      const struct fv_fec_report *fr)
{
	char roots[160], args[200];

	if (fr->bad_blocks || fr->stale_codewords || o->verbose) {
		cli_fec_roots_text(fl, cp->fec_name, roots, sizeof(roots));
		fprintf(stderr, "FEC: %s.\n", roots);
	}
	repair_args(o, cp, args, sizeof(args));
	if (fr->bad_blocks)
		fprintf(stderr,
			"FEC can repair %" PRIu64 " of %" PRIu64
			" bad block%s (fastverity repair, %s).\n",
			fr->repaired, fr->bad_blocks,
			cli_plural(fr->bad_blocks), args);
	/* (more than the limit is not this image's parity: the library
	 * refused it, naming it) */
	if (fr->stale_codewords)
		fprintf(stderr,
			"FEC parity: %" PRIu64 " codeword%s in %" PRIu64
			" round%s disagree with the verified data (stale or "
			"damaged); fastverity repair --rewrite-parity, %s, "
			"rewrites them.\n",
			fr->stale_codewords, cli_plural(fr->stale_codewords),
			fr->stale_rounds, cli_plural(fr->stale_rounds), args);
}

/* Prints obj's members without its braces, each line indented as a member
 * of the enclosing object. */
static void json_members(json_object *obj)
{
	const char *text = json_object_to_json_string_ext(
		obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n = strlen(text);

	/* "{\n" ... "\n}" */
	if (n > 4)
		fwrite(text + 2, 1, n - 4, stdout);
	json_object_put(obj);
}

/* The header as the check sees the pair, and its signature's verdict
 * (res: the check's result, NULL before it ends). */
static void json_open(struct verify_report *vr, const fv_result *res)
{
	const struct fv_image_pair_info *pi = &vr->cp->pi;
	struct fv_report dump;
	json_object *j;

	if (vr->opened)
		return;
	vr->opened = 1;
	cli_json_emitted = 1; /* json_close() ends it, whatever happens */
	cli_report(vr->dump, &dump);
	j = cli_json_header(pi->hash, pi->params, &dump.layout, pi->root_hex);
	/* one "fec" key: the layout's joins the check's at the end */
	if (json_object_object_get_ex(j, "fec", &vr->fec_layout)) {
		json_object_get(vr->fec_layout);
		json_object_object_del(j, "fec");
	}
	cli_jstr(j, "data_device", pi->data);
	cli_jset(j, "signature",
		 cli_json_signature(vr->cp, res ? res : vr->dump));
	fputs("{\n", stdout);
	json_members(j);
	fputs(",\n  \"failures\":[", stdout);
}

static void report_failure(void *c, enum fv_failure_kind kind, uint64_t block,
			   uint64_t offset, unsigned level)
{
	struct verify_report *vr = c;
	struct cli_failure f = {kind, offset, block, level};

	cli_progress_clear();
	if (vr->shown >= vr->max_shown) {
		vr->not_shown++;
		return;
	}
	if (vr->o->json) {
		json_object *j = cli_json_failure(&f);

		json_open(vr, NULL);
		printf("%s\n    %s", vr->shown++ ? "," : "",
		       json_object_to_json_string_ext(
			       j, JSON_C_TO_STRING_PLAIN |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
		return;
	}
	vr->shown++;
	fprintf(stderr, "%s at position %" PRIu64 ".\n",
		cli_failure_words(f.kind), f.position);
}

/* The root did not match the top of the tree: no block was judged. */
static const char root_first_hint[] =
	"the top of the tree does not match the root hash, so no block was "
	"checked: the root hash, or a parameter (salt, block sizes, hash "
	"algorithm, data blocks, hash offset), is likely wrong";

static void print_summary(const struct verify_report *vr,
			  const struct cli_counts *res)
{
	if (vr->not_shown)
		fprintf(stderr,
			"... and %" PRIu64 " more failures, not listed "
			"(--max-failures=%" PRIu64 ").\n",
			vr->not_shown, vr->max_shown);
	if (cli_verdict(res) == EXIT_VERIFY)
		cli_print_counts(res);
	if (!res->root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
	if (res->root_first)
		fprintf(stderr, "fastverity: %s\n", root_first_hint);
}

static void json_close(struct verify_report *vr, const fv_result *result,
		       const char *error, json_object *fec)
{
	json_object *j = json_object_new_object();
	struct cli_counts counts, *res = NULL;
	struct fv_report rep;
	int code = EXIT_PARAMS;

	cli_report(result, &rep);
	if (result) {
		cli_counts_of(result, &counts);
		res = &counts;
		code = cli_verdict(res);
	}
	json_open(vr, result);
	fputs(vr->shown ? "\n  ],\n" : "],\n", stdout);
	if (error) {
		cli_jstr(j, "result", "error");
		cli_jstr(j, "error", error);
	} else {
		cli_jstr(j, "result", cli_verdict_word(code));
		cli_json_add_counts(j, res);
		cli_ju64(j, "failures_not_listed", vr->not_shown);
		cli_jbool(j, "root_first", res->root_first);
		cli_jset(j, "hint",
			 res->root_first ? cli_json_str(root_first_hint)
					 : NULL);
		cli_jset(j, "hashing_path",
			 *rep.hashing_path ? cli_json_str(rep.hashing_path)
					   : NULL);
	}
	if (fec && vr->fec_layout) {
		json_object_object_foreach(vr->fec_layout, key, val)
		{
			if (!json_object_object_get_ex(fec, key, NULL))
				cli_jset(fec, key, json_object_get(val));
		}
	}
	if (fec || vr->fec_layout)
		cli_jset(j, "fec", fec ? fec : json_object_get(vr->fec_layout));
	json_object_put(vr->fec_layout);
	vr->fec_layout = NULL;
	json_members(j);
	fputs("\n}\n", stdout);
}

int cmd_verify(struct cli_opts *o)
{
	struct cli_pair cp;
	fv_options opts;
	fv_result *res = NULL;
	struct cli_progress pr;
	struct verify_report vr;
	struct fv_report rep;
	struct cli_counts counts;
	enum cli_container kind = CLI_PLAIN;
	int r, has_fec;

	memset(&vr, 0, sizeof(vr));
	memset(&cp, 0, sizeof(cp));
	if ((r = cli_check_crc(o)))
		return r;
	if (o->nargs == 1) {
		if ((r = cli_image_kind(o, o->args[0], &kind)))
			return r;
		if (kind == CLI_OTA)
			return cli_ota_action(o, "verify");
		if (kind == CLI_DDI)
			return cli_ddi_verify(o, o->args[0]);
		if (kind == CLI_SUPER)
			return cli_set_verify(o, o->args[0], 1);
		if (kind == CLI_AVB && cli_avb_is_set(o->args[0]))
			return cli_set_verify(o, o->args[0], 0);
	}
	if ((r = cli_pair_from_args(o, kind, &cp)))
		goto out;
	vr.max_shown = UINT64_MAX;
	if (cli_run_options(o, &opts, &pr) ||
	    (o->max_failures &&
	     cli_parse_count("--max-failures", o->max_failures,
			     &vr.max_shown))) {
		r = EXIT_PARAMS;
		goto out;
	}
	vr.o = o;
	vr.cp = &cp;
	/* the layout the header shows before the first failure */
	if (o->json && (r = fv_describe(cp.img, cp.at, &opts, &vr.dump))) {
		r = cli_lib_error(r);
		goto out;
	}
	if (o->json && cp.pi.fec)
		vr.unrepairable = json_object_new_array();
	opts.failure = report_failure;
	opts.failure_ctx = &vr;
	opts.block = fec_event;
	opts.block_ctx = &vr;
	r = fv_verify(cp.img, cp.at, &opts, &res);
	cli_progress_end(&pr);
	cli_threads_said(o);
	if (r) {
		json_object_put(vr.unrepairable);
		/* a stream already open is closed, with the error in it */
		if (vr.opened)
			json_close(&vr, NULL, fv_last_error(), NULL);
		r = cli_lib_error(r);
		goto out;
	}
	cli_signature_said(o, &cp, res);
	cli_hashing_said(o, res);
	cli_report(res, &rep);
	has_fec = !!(rep.has & FV_REPORT_FEC);
	cli_counts_of(res, &counts);
	if (o->json) {
		json_close(&vr, res, NULL,
			   has_fec ? cli_json_fec(&rep.layout, &rep.fec,
						  vr.unrepairable)
				   : NULL);
	} else {
		print_summary(&vr, &counts);
		if (has_fec)
			print_fec(o, &cp, &rep.layout, &rep.fec);
	}
	/* parity never makes a damaged image pass (docs/format.md) */
	r = cli_verdict(&counts);
out:
	fv_result_free(res);
	fv_result_free(vr.dump);
	cli_pair_free(&cp);
	return r;
}
