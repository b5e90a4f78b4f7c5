/* fastverity format <data_device> <hash_device> */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/files.h"
#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/hints.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/root.h"
#include "cli/cli.h"

/* The sidecars format --sidecar writes and keeps (FV_FILE_SIDECAR_NAMES's
 * names). */
static void sidecars_free(struct fv_file_answer *s)
{
	fv_free(s->tree);
	fv_free(s->roothash);
	fv_free(s->signature);
	fv_free(s->fec);
}

/* A sidecar left by an earlier format no longer matches the new tree (a
 * later verify would pick it up): removed, and said. */
static int prune_sidecars(const char *image, const struct fv_file_answer *side,
			  int with_fec, int signed_now)
{
	struct fv_file_request q = {
		.size = sizeof(q),
		.op = FV_FILE_SIDECAR_PRUNE,
		.path = image,
		.keep = (signed_now ? FV_SIDECAR_SIGNATURE : 0) |
			(with_fec ? FV_SIDECAR_FEC : 0)};
	struct fv_file_answer a = {.size = sizeof(a)};

	if (fv_file(&q, &a))
		return cli_lib_error(-EIO);
	for (int k = 0; k < 2; k++)
		if (a.removed & (k ? FV_SIDECAR_FEC : FV_SIDECAR_SIGNATURE))
			fprintf(stderr,
				"fastverity: removed %s: the %s of an earlier "
				"format, which no longer matches\n",
				k ? side->fec : side->signature,
				k ? "parity" : "root hash signature");
	return 0;
}

/* The request format makes: <data> <hash>, or <image> and its sidecars;
 * *p, the parameters it points at (free). */
static int format_request(struct cli_opts *o, struct fv_file_answer *side,
			  struct fv_format_request *req, fv_params **p)
{
	struct cli_fec fec;

	if (o->sidecar) {
		if (o->nargs != 1)
			return cli_error(-EINVAL, "format --sidecar: requires "
						  "<image> as argument");
		if (cli_file(FV_FILE_SIDECAR_NAMES, o->args[0], side))
			return cli_lib_error(-ENOMEM);
		if (o->root_hash_file)
			return cli_error(-EINVAL,
					 "format --sidecar: writes the root "
					 "hash to %s; --root-hash-file would "
					 "be ignored",
					 side->roothash);
		if (o->fec_device || o->fec_offset)
			return cli_error(-EINVAL,
					 "format --sidecar: writes the parity "
					 "to %s; give --fec-roots, not "
					 "--fec-device or --fec-offset",
					 side->fec);
		req->data = o->args[0];
		req->hash = side->tree;
		o->root_hash_file = side->roothash;
		if (o->fec_roots)
			o->fec_device = side->fec;
	} else if (o->nargs != 2) {
		return cli_error(-EINVAL, "format: requires <data_device> "
					  "<hash_device> as arguments");
	} else {
		req->data = o->args[0];
		req->hash = o->args[1];
	}
	if ((o->key || o->cert) && !o->sidecar)
		return cli_error(-EINVAL, "--key and --cert go with format "
					  "--sidecar, or with sign");
	if (cli_params_from_opts(o, p, 1))
		return EXIT_PARAMS;
	if (cli_fec_params(o, &fec))
		return EXIT_PARAMS;
	req->params = *p;
	req->fec_path = fec.path;
	req->fec_offset = fec.offset;
	req->fec_roots = fec.roots;
	/* sidecar files take the image as it is (its own bytes, as the
	 * kernel maps them, an Android sparse image's too) */
	req->sidecar = o->sidecar != 0;
	return 0;
}

int cmd_format(struct cli_opts *o)
{
	struct fv_format_request req = {.size = sizeof(req)};
	struct fv_file_answer side = {0};
	struct fv_report rep;
	fv_options opts;
	fv_result *out = NULL;
	fv_params *asked = NULL;
	struct cli_progress pr;
	int r;

	cli_warn_weak_digest(o->hash);
	if ((r = format_request(o, &side, &req, &asked)) ||
	    (r = o->sidecar ? 0 : cli_refuse_sparse(req.data)) ||
	    (r = cli_run_options(o, &opts, &pr) ? EXIT_PARAMS : 0))
		goto out;
	/* no output over an input */
	{
		const char *in[] = {req.data, req.hash, req.fec_path, o->key,
				    o->cert};

		if ((r = cli_check_output(o->root_hash_file, "root hash", in,
					  5)) ||
		    (r = cli_check_output(req.hash, "hash tree", in + 3, 2)) ||
		    (r = cli_check_output(req.fec_path, "FEC parity", in + 3,
					  2)))
			goto out;
	}
	if (o->sidecar && cli_is_sparse(req.data))
		fprintf(stderr,
			"fastverity: %s: warning: an Android sparse image: "
			"its own bytes are hashed, as the kernel maps them "
			"(simg2img %s IMAGE.raw makes its unsparsed ones)\n",
			o->args[0], o->args[0]);
	r = fv_format(&req, &opts, &out);
	cli_progress_end(&pr);
	cli_threads_said(o);
	if (r) {
		r = cli_write_error(r);
		goto out;
	}
	/* the parameters as written (data blocks filled in, the UUID) */
	cli_report(out, &rep);
	cli_hashing_said(o, out);
	cli_debug(o, "Tree: %u levels, %llu hash blocks from hash block %llu.",
		  rep.layout.levels, (unsigned long long)rep.layout.tree_blocks,
		  (unsigned long long)(rep.layout.tree_offset /
				       rep.params.hash_block_size));
	if ((r = cli_root_write(o->root_hash_file, rep.root_hex)))
		goto out;
	if (o->sidecar && (o->key || o->cert) &&
	    (r = cli_sign_root(o, rep.root_hex, side.signature)))
		goto out;
	if (o->sidecar &&
	    (r = prune_sidecars(o->args[0], &side, req.fec_path != NULL,
				o->key || o->cert)))
		goto out;
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_PAIR,
		.json = o->json,
		.image = req.hash,
		.res = &out,
		.args = o->uuid});
	if (r) {
		r = cli_lib_error(r);
		goto out;
	}
	r = EXIT_OK;
out:
	fv_result_free(out);
	free(asked);
	sidecars_free(&side);
	return r;
}
