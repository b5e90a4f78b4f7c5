/* fastverity update <data_device> <hash_device> <old_root_hash>
 * [--changed=OFFSET:LENGTH,...]: the tree blocks and parity a change
 * reaches rewritten in place (docs/format.md, "update"); the new root
 * printed as format prints it. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/files.h"

#include "cli/errors.h"
#include "cli/hints.h"
#include "cli/json.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/root.h"
#include "cli/text.h"
#include "cli/cli.h"

/* The request: the tree's parameters from the options with
 * --no-superblock, else read by the library from the superblock (an
 * interrupted update's too) at the options' hash offset, with
 * --data-blocks said again; the old root (the argument: --root-hash-file
 * is where the new one goes); the parity. *p: the parameters from the
 * options (free). */
static int update_request(const struct cli_opts *o,
			  struct fv_format_request *req, fv_params **p)
{
	struct cli_opts in = *o;
	struct cli_fec fec;
	int r;

	req->data = o->args[0];
	req->hash = o->args[1];
	if (cli_params_from_opts(o, p, 0))
		return EXIT_PARAMS;
	if (!(*p)->superblock) {
		if ((r = fv_params_check(*p)))
			return cli_lib_error(r);
		req->params = *p;
	} else {
		req->hash_offset = (*p)->hash_offset;
		if (o->data_blocks)
			req->data_blocks = (*p)->data_blocks;
	}
	in.root_hash_file = NULL;
	if ((r = cli_root_given(&in, o->args[2], &req->root_hex,
				&req->root_hash_file)))
		return r;
	if (cli_fec_params(o, &fec))
		return EXIT_PARAMS;
	req->fec_path = fec.path;
	req->fec_offset = fec.offset;
	req->fec_roots = fec.roots;
	return 0;
}

/* The exit code of fv_update's refusal r (printed): the root hash given,
 * in veritysetup's words; no superblock (nor an interrupted format's or
 * update's marker) where one was looked for, with its hints (as verify
 * says it: the library reads it before anything else); anything else,
 * the library's message. */
static int update_refused(const struct fv_format_request *req, int r)
{
	if (cli_lib_param() == FV_PARAM_ROOT_HASH)
		return cli_root_refused(r, req->root_hex);
	/* no superblock (nor a marker) where it was looked for: said with
	 * veritysetup's words and the hints */
	if (!req->params && !cli_superblock_at(req->hash, req->hash_offset))
		return cli_no_superblock(r, req->data, req->hash,
					 req->hash_offset);
	return cli_write_error(r);
}

int cmd_update(struct cli_opts *o)
{
	struct fv_report rep;
	uint64_t *ranges = NULL;
	fv_options opts;
	fv_result *out = NULL;
	struct fv_format_request req = {.size = sizeof(req)};
	fv_params *asked = NULL;
	struct cli_progress pr;
	size_t n = 0;
	int r;

	if (o->nargs != 3)
		return cli_error(-EINVAL,
				 "update: requires <data_device> "
				 "<hash_device> <old_root_hash> as arguments");
	/* --changed: OFFSET:LENGTH,... or @FILE, as the library reads it */
	if ((o->changed && (r = fv_ranges_parse(o->changed, &ranges, &n)) &&
	     (r = cli_lib_error(r))) ||
	    (r = update_request(o, &req, &asked)) ||
	    (r = cli_run_options(o, &opts, &pr) ? EXIT_PARAMS : 0))
		goto out;
	{
		const char *in[] = {req.data, req.hash, req.fec_path};

		if ((r = cli_check_output(o->root_hash_file, "root hash", in,
					  3)))
			goto out;
	}
	r = fv_update(&req, ranges, n, &opts, &out);
	cli_progress_end(&pr);
	if (r) {
		r = update_refused(&req, r);
		goto out;
	}
	cli_report(out, &rep);
	cli_debug(o,
		  "Update: %" PRIu64 " data block%s hashed again, %" PRIu64
		  " hash block%s and %" PRIu64 " parity round%s written%s.",
		  rep.update.changed_blocks,
		  cli_plural(rep.update.changed_blocks), rep.update.tree_blocks,
		  cli_plural(rep.update.tree_blocks), rep.update.parity_rounds,
		  cli_plural(rep.update.parity_rounds),
		  rep.update.resumed ? " (an interrupted update completed)"
				     : "");
	if ((r = cli_root_write(o->root_hash_file, rep.root_hex)))
		goto out;
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_PAIR,
		.json = o->json,
		.image = req.hash,
		.res = &out});
	if (r) {
		r = cli_lib_error(r);
		goto out;
	}
	r = EXIT_OK;
out:
	fv_free(ranges);
	fv_result_free(out);
	free(asked);
	return r;
}
