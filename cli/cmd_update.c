/* fastverity update <data_device> <hash_device> <old_root_hash>
 * [--changed=OFFSET:LENGTH,...]: the tree blocks and parity a change
 * reaches rewritten in place (docs/format.md, "update"); the new root
 * printed as format prints it. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/root.h"
#include "cli/text.h"
#include "cli/cli.h"

/* The pair: parameters from the superblock (an interrupted update's
 * read too) or the options, the old root, the parity. */
static int update_pair(const struct cli_opts *o, fv_pair **fp)
{
	struct cli_opts in = *o;
	struct cli_fec fec;
	uint8_t root[64];
	int r;

	if ((r = fv_pair_new(o->args[0], o->args[1], fp)))
		return cli_lib_error(r);
	if ((r = cli_pair_tree_params(o, *fp, 1)))
		return r;
	/* --root-hash-file is where the new root goes: the old one is the
	 * argument */
	in.root_hash_file = NULL;
	if (cli_root_hash(&in, o->args[2],
			  (unsigned)fv_params_root_size(fv_pair_params(*fp)),
			  root))
		return EXIT_PARAMS;
	if ((r = fv_pair_set_root(*fp, root,
				  fv_params_root_size(fv_pair_params(*fp)))))
		return cli_lib_error(r);
	if (cli_fec_params(o, &fec))
		return EXIT_PARAMS;
	if ((r = fv_pair_set_fec(*fp, fec.path, fec.offset, fec.roots)))
		return cli_lib_error(r);
	return 0;
}

int cmd_update(struct cli_opts *o)
{
	struct fv_update_report u;
	struct fv_layout l;
	struct fv_report rep;
	uint64_t *ranges = NULL;
	fv_options opts;
	fv_result *out = NULL;
	fv_pair *fp = NULL;
	struct cli_progress pr;
	size_t n = 0;
	char uuid[37] = "";
	int r;

	if (o->nargs != 3)
		return cli_error(-EINVAL,
				 "update: requires <data_device> "
				 "<hash_device> <old_root_hash> as arguments");
	if ((o->changed && (r = cli_parse_changed(o->changed, &ranges, &n))) ||
	    (r = update_pair(o, &fp)) ||
	    (r = cli_run_options(o, &opts, &pr) ? EXIT_PARAMS : 0))
		goto out;
	{
		const char *in[] = {fv_pair_data_path(fp),
				    fv_pair_hash_path(fp),
				    fv_pair_fec_path(fp)};

		if ((r = cli_check_output(o->root_hash_file, "root hash", in,
					  3)))
			goto out;
	}
	r = fv_pair_update(fp, ranges, n, &opts, &out);
	cli_progress_end(&pr);
	if (r) {
		r = cli_write_error(r);
		goto out;
	}
	cli_report(out, &rep);
	l = rep.layout;
	u = rep.update;
	cli_debug(o,
		  "Update: %" PRIu64 " data block%s hashed again, %" PRIu64
		  " hash block%s and %" PRIu64 " parity round%s written%s.",
		  u.changed_blocks, cli_plural(u.changed_blocks), u.tree_blocks,
		  cli_plural(u.tree_blocks), u.parity_rounds,
		  cli_plural(u.parity_rounds),
		  u.resumed ? " (an interrupted update completed)" : "");
	if (o->root_hash_file &&
	    (r = fv_output_write(o->root_hash_file, "the root hash file",
				 rep.root_hex, strlen(rep.root_hex)))) {
		r = cli_lib_error(-EIO);
		goto out;
	}
	if (o->json) {
		json_object *j =
			cli_json_header(fv_pair_hash_path(fp),
					fv_pair_params(fp), &l, rep.root_hex);
		json_object *uj = json_object_new_object();

		json_object_object_add(
			uj, "changed_blocks",
			json_object_new_uint64(u.changed_blocks));
		json_object_object_add(uj, "hash_blocks_written",
				       json_object_new_uint64(u.tree_blocks));
		json_object_object_add(uj, "parity_rounds_written",
				       json_object_new_uint64(u.parity_rounds));
		json_object_object_add(uj, "resumed",
				       json_object_new_boolean(u.resumed));
		json_object_object_add(j, "update", uj);
		cli_json_print(j);
		r = EXIT_OK;
		goto out;
	}
	if (fv_pair_params(fp)->superblock)
		snprintf(uuid, 37, "%s", fv_pair_params(fp)->uuid);
	cli_print_header(fv_pair_hash_path(fp), fv_pair_params(fp), uuid, &l,
			 rep.root_hex);
	r = EXIT_OK;
out:
	free(ranges);
	fv_result_free(out);
	fv_pair_free(fp);
	return r;
}
