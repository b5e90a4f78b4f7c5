/* fastverity repair <data_device> <hash_device> [<root_hash>]
 *   --fec-device=<fec> [--dry-run]
 * Rebuilds bad blocks from the FEC parity; writes only blocks the tree
 * proves, then parity that disagrees with verified data. */
#include <errno.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"

int cmd_repair(struct cli_opts *o)
{
	struct cli_pair cp = {0};
	fv_options opts;
	fv_result *out = NULL;
	struct cli_progress pr;
	int r;

	if ((r = cli_check_crc(o)))
		return r;
	/* an image given alone: the library's walk */
	if (o->nargs == 1)
		return cli_alone(o, NULL);
	if (o->slot || o->partition) {
		return cli_error(-EINVAL,
				 "%s: --%s names a partition of a super image "
				 "or a disk image",
				 o->args[0], o->slot ? "slot" : "partition");
	}
	if ((r = cli_pair_from_args(o, &cp)))
		goto out;
	/* the root hash is trusted only once its signature checks out,
	 * before anything is read, let alone written: the trust policy
	 * refused an unchecked signer already (cli_pair_from_args) */
	if (cli_run_options(o, &opts, &pr)) {
		r = EXIT_PARAMS;
		goto out;
	}
	opts.repair = o->repair;
	/* the library repairs and says what it did: each block as it is
	 * rebuilt, then the parity's figures (--json: one document) */
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_REPAIR,
		.json = o->json,
		.o = &opts,
		.img = cp.img,
		.at = cp.at,
		.res = &out});
	cli_progress_end(&pr);
	if (r < 0) {
		r = cli_write_error(r);
		goto out;
	}
	cli_signer_said(o, cp.trust, out);
	/* a dry run leaves the image as it was */
	r = cli_exit_code(-r);
out:
	fv_result_free(out);
	cli_pair_free(&cp);
	return r;
}
