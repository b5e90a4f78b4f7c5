/* fastverity verify <data_device> <hash_device> [<root_hash>]
 * Checks everything and reports every failure, not just the first. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "../verity/signature.h"
#include "cli.h"

/* --json streams: the header once the parameters are resolved, then each
 * failure as it is found, then the verdict; memory stays bounded however
 * many blocks are bad. */
struct verify_report {
	const struct cli_opts *o;
	const char *data, *hash, *sig_path;
	struct verity_params *p;
	const uint8_t *root;
	const struct verity_sig_check *sig;
	int opened;                /* the header and "failures":[ are out */
	uint64_t shown;            /* failures printed */
	uint64_t max_shown;        /* --max-failures (UINT64_MAX: all) */
	uint64_t not_shown;        /* failures past it */
	json_object *unrepairable; /* --fec-device, --json */
};

/* --fec-device: blocks the parity cannot bring back. */
static void fec_event(void *c, enum verity_repair_event ev,
		      const struct verity_failure *f)
{
	struct verify_report *vr = c;

	if (ev != VERITY_UNREPAIRED)
		return;
	if (vr->o->json)
		json_object_array_add(vr->unrepairable, cli_json_failure(f));
	else
		fprintf(stderr, "FEC cannot repair position %" PRIu64 ".\n",
			f->position);
}

static void print_fec(const struct verity_fec_result *fr)
{
	if (fr->bad_blocks)
		fprintf(stderr,
			"FEC can repair %" PRIu64 " of %" PRIu64
			" bad blocks (fastverity repair, with the same "
			"arguments).\n",
			fr->repaired, fr->bad_blocks);
	if (fr->stale_codewords)
		fprintf(stderr,
			"FEC parity: %" PRIu64 " codewords in %" PRIu64
			" rounds disagree with the verified data (stale or "
			"damaged); fastverity repair rewrites them.\n",
			fr->stale_codewords, fr->stale_rounds);
}

static json_object *json_fec(const struct verity_fec_layout *fl,
			     const struct verity_fec_result *fr,
			     json_object *unrepairable)
{
	json_object *j = cli_json_fec_result(fr);

	json_object_object_add(j, "roots", json_object_new_int((int)fl->roots));
	json_object_object_add(j, "offset", json_object_new_uint64(fl->offset));
	json_object_object_add(j, "covered_blocks",
			       json_object_new_uint64(fl->blocks));
	json_object_object_add(j, "unrepairable", unrepairable);
	return j;
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

static void json_open(struct verify_report *vr)
{
	struct verity_layout l;
	struct fv_error err;
	json_object *j;

	if (vr->opened)
		return;
	vr->opened = 1;
	cli_json_emitted = 1; /* json_close() ends it, whatever happens */
	verity_layout_compute(vr->p, &l, &err);
	j = cli_json_header(vr->hash, vr->p, &l, vr->root);
	json_object_object_add(j, "data_device", cli_json_str(vr->data));
	if (vr->sig_path) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "file", cli_json_str(vr->sig_path));
		json_object_object_add(s, "signer",
				       cli_json_str(vr->sig->signer));
		json_object_object_add(s, "warning",
				       vr->sig->warning[0]
					       ? cli_json_str(vr->sig->warning)
					       : NULL);
		json_object_object_add(j, "signature", s);
	} else {
		json_object_object_add(j, "signature", NULL);
	}
	fputs("{\n", stdout);
	json_members(j);
	fputs(",\n  \"failures\":[", stdout);
}

static void report_failure(void *c, const struct verity_failure *f)
{
	struct verify_report *vr = c;

	if (vr->shown >= vr->max_shown) {
		vr->not_shown++;
		return;
	}
	if (vr->o->json) {
		json_object *j = cli_json_failure(f);

		json_open(vr);
		printf("%s\n    %s", vr->shown++ ? "," : "",
		       json_object_to_json_string_ext(
			       j, JSON_C_TO_STRING_PLAIN |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(j);
		return;
	}
	vr->shown++;
	if (f->kind == HT_BAD_PADDING)
		fprintf(stderr,
			"Spare area is not zeroed at position %" PRIu64 ".\n",
			f->position);
	else
		fprintf(stderr,
			"Verification failed at position %" PRIu64 ".\n",
			f->position);
}

/* The root did not match the top of the tree: no block was judged. */
static const char root_first_hint[] =
	"the top of the tree does not match the root hash, so no block was "
	"checked: the root hash, or a parameter (salt, block sizes, hash "
	"algorithm, data blocks, hash offset), is likely wrong";

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static void print_summary(const struct verify_report *vr,
			  const struct ht_verify_result *res)
{
	if (vr->not_shown)
		fprintf(stderr,
			"... and %" PRIu64 " more failures, not listed "
			"(--max-failures=%" PRIu64 ").\n",
			vr->not_shown, vr->max_shown);
	if (cli_verdict(res) == EXIT_VERIFY)
		fprintf(stderr,
			"Verification of data area failed: %" PRIu64
			" bad data block%s, %" PRIu64
			" bad hash block%s, %" PRIu64 " bad spare area%s.\n",
			res->bad_data_blocks, plural(res->bad_data_blocks),
			res->bad_hash_blocks, plural(res->bad_hash_blocks),
			res->bad_padding, plural(res->bad_padding));
	if (!res->root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
	if (res->root_first)
		fprintf(stderr, "fastverity: %s\n", root_first_hint);
}

static void json_close(struct verify_report *vr,
		       const struct ht_verify_result *res, const char *error,
		       json_object *fec)
{
	json_object *j = json_object_new_object();
	int code = res ? cli_verdict(res) : EXIT_PARAMS;

	json_open(vr);
	fputs(vr->shown ? "\n  ],\n" : "],\n", stdout);
	if (error) {
		json_object_object_add(j, "result", cli_json_str("error"));
		json_object_object_add(j, "error", cli_json_str(error));
	} else {
		json_object_object_add(j, "result",
				       cli_json_str(cli_verdict_word(code)));
		cli_json_add_counts(j, res);
		json_object_object_add(j, "failures_not_listed",
				       json_object_new_uint64(vr->not_shown));
		json_object_object_add(
			j, "hint",
			res->root_first ? cli_json_str(root_first_hint) : NULL);
	}
	if (fec)
		json_object_object_add(j, "fec", fec);
	json_members(j);
	fputs("\n}\n", stdout);
}

/* Arguments: <data> <hash> [<root>], or <image> with systemd's sidecar
 * files (the rule is in cli_sidecar_names()). */
static int verify_args(struct cli_opts *o, const char **data, const char **hash,
		       const char **root_arg, const char **sig_path,
		       struct cli_sidecar *side)
{
	*sig_path = o->root_hash_signature;
	*root_arg = NULL;
	if (o->nargs == 1) {
		int r = cli_sidecar_names(o->args[0], side);

		if (r)
			return r;
		*data = o->args[0];
		*hash = side->tree;
		if (!o->root_hash_file)
			o->root_hash_file = side->roothash;
		if (!*sig_path && access(side->signature, F_OK) == 0)
			*sig_path = side->signature;
		return 0;
	}
	if (o->nargs < 2 || o->nargs > 3)
		return cli_error(-EINVAL,
				 "verify: requires <data_device> <hash_device> "
				 "[<root_hash>], or <image>, as arguments");
	*data = o->args[0];
	*hash = o->args[1];
	*root_arg = o->nargs == 3 ? o->args[2] : NULL;
	return 0;
}

int cmd_verify(struct cli_opts *o)
{
	struct verity_params p;
	struct verity_info info;
	struct ht_options opt;
	struct cli_progress pr;
	struct ht_verify_result res;
	struct verify_report vr;
	struct verity_sig_check sig = {"", ""};
	struct verity_fec_params fp;
	struct verity_fec_result fr;
	struct verity_layout fl;
	static struct cli_sidecar
		side; /* o->root_hash_file may point into it */
	struct fv_error err;
	const char *data = NULL, *hash = NULL, *root_arg = NULL,
		   *sig_path = NULL;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	int r, infer_roots;

	if ((r = verify_args(o, &data, &hash, &root_arg, &sig_path, &side)))
		return r;
	if (o->ntrusted && !sig_path)
		return cli_error(-EINVAL, "--trusted-cert needs a signature "
					  "(--root-hash-signature)");
	if ((r = cli_tree_params(o, hash, root_arg, &p, root)))
		return r;
	infer_roots = o->nargs == 1 && cli_sidecar_fec(o, &side);
	if (cli_fec_params(o, &fp) || cli_run_options(o, &opt, &pr))
		return EXIT_PARAMS;
	if (infer_roots)
		fp.roots = 0;
	/* who signed the root hash, before any block is read */
	if (sig_path &&
	    (r = cli_check_signature(o, sig_path, root,
				     ht_digest_size(p.hash_name), &sig)))
		return r;
	memset(&vr, 0, sizeof(vr));
	vr.max_shown = UINT64_MAX;
	if (o->max_failures &&
	    cli_parse_count("--max-failures", o->max_failures, &vr.max_shown))
		return EXIT_PARAMS;
	vr.o = o;
	vr.data = data;
	vr.hash = hash;
	vr.sig_path = sig_path;
	vr.p = &p;
	vr.root = root;
	vr.sig = &sig;
	if (fp.device) {
		/* a dry-run repair: the same report, then what FEC can do */
		if (o->json)
			vr.unrepairable = json_object_new_array();
		r = verity_fec_repair(&p, data, hash, &fp, 1, &opt, root,
				      ht_digest_size(p.hash_name),
				      report_failure, fec_event, &vr, &fr, &fl,
				      &err);
		res = fr.before;
	} else {
		r = verity_verify(&p, data, hash, &opt, root,
				  ht_digest_size(p.hash_name), report_failure,
				  &vr, &res, &info, &err);
	}
	cli_progress_end(&pr);
	cli_debug(o, "Threads: %u.", opt.threads);
	if (r) {
		json_object_put(vr.unrepairable);
		/* a stream already open is closed, with the error in it */
		if (vr.opened)
			json_close(&vr, NULL, err.msg, NULL);
		return cli_error(r, "%s", err.msg);
	}
	if (!fp.device)
		cli_debug(o, "Hashing path: %s (%s), kernel %s, provider %s.",
			  info.hash_path, info.path_reason, info.kernel,
			  info.provider);
	if (o->json) {
		json_close(&vr, &res, NULL,
			   fp.device ? json_fec(&fl.fec, &fr, vr.unrepairable)
				     : NULL);
	} else {
		print_summary(&vr, &res);
		if (fp.device)
			print_fec(&fr);
	}
	/* parity never makes a damaged image pass (docs/format.md) */
	return cli_verdict(&res);
}
