/* fastverity open <data_device> <name> <hash_device> [<root_hash>]
 * fastverity create <name> <data_device> <hash_device> <root_hash>
 * fastverity close <name>, remove <name>, status <name> */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/cli.h"

/* At most one bit of these. */
static int several(unsigned flags, unsigned of)
{
	flags &= of;
	return flags & (flags - 1);
}

int cli_policies(struct cli_opts *o)
{
	if (several(o->activation, FV_IGNORE_CORRUPTION |
					   FV_RESTART_ON_CORRUPTION |
					   FV_PANIC_ON_CORRUPTION))
		return cli_error(-EINVAL, "choose one of --ignore-corruption, "
					  "--restart-on-corruption and "
					  "--panic-on-corruption");
	/* veritysetup 2.8: an I/O error handled as the corruption policy
	 * says, restart or panic */
	if (o->error_as_corruption) {
		if (!(o->activation &
		      (FV_RESTART_ON_CORRUPTION | FV_PANIC_ON_CORRUPTION)))
			return cli_error(-EINVAL,
					 "Option --error-as-corruption must be "
					 "used with --panic-on-corruption or "
					 "--restart-on-corruption.");
		int panic = !!(o->activation & FV_PANIC_ON_CORRUPTION);

		/* (said as given: the other error policy, not two) */
		if (o->activation &
		    (panic ? FV_RESTART_ON_ERROR : FV_PANIC_ON_ERROR))
			return cli_error(-EINVAL,
					 "--error-as-corruption with %s "
					 "%s on an I/O error: not with %s",
					 panic ? "--panic-on-corruption"
					       : "--restart-on-corruption",
					 panic ? "panics" : "restarts",
					 panic ? "--restart-on-error"
					       : "--panic-on-error");
		o->activation |=
			panic ? FV_PANIC_ON_ERROR : FV_RESTART_ON_ERROR;
	}
	if (several(o->activation, FV_RESTART_ON_ERROR | FV_PANIC_ON_ERROR))
		return cli_error(-EINVAL, "choose one of --restart-on-error "
					  "and --panic-on-error");
	return 0;
}

int cli_opened(const struct cli_opts *o, int r, const fv_result *res,
	       const char *name, const char *data, const char *hash)
{
	struct fv_report rep;

	/* (the signature is checked before the mapping: said first) */
	if (res) {
		cli_report(res, &rep);
		if (rep.trust == FV_TRUST_CHECK && *rep.signer)
			cli_debug(o,
				  "The root hash signature checks out: "
				  "signed by %s.",
				  rep.signer);
	}
	if (r < 0)
		return cli_lib_error(r);
	if (!r)
		cli_debug(o, "Activated %s from %s and %s.", name, data, hash);
	return r;
}

int cli_open_pair(struct cli_opts *o, const char *name, struct cli_pair *cp,
		  int made)
{
	fv_options opts = {.size = sizeof(opts), .flags = o->activation};
	fv_result *res = NULL;
	int r = made;

	/* a signature the door judged checkable is checked first, offline,
	 * and still handed to the kernel */
	if (!r)
		r = fv_activate(name, cp->img, cp->at, &opts, &res);
	r = cli_opened(o, r, res, name, cp->pi.data, cp->pi.hash);
	fv_result_free(res);
	cli_pair_free(cp);
	return r;
}

static int do_open(struct cli_opts *o, const char *data, const char *name,
		   const char *hash, const char *root_arg)
{
	struct cli_pair cp;
	int r;

	memset(&cp, 0, sizeof(cp));
	if ((r = cli_policies(o)))
		return r;
	r = cli_pair_make(o, data, hash, root_arg, &cp);
	return cli_open_pair(o, name, &cp, r);
}

/* open IMAGE NAME: an Android image (its data mapped with its
 * descriptor's tree, root and parity), a disk image or a super image's
 * partition; else open DATA NAME HASH [ROOT]. */
int cmd_open(struct cli_opts *o)
{
	/* an image given alone: its pair the library's, mapped, one call
	 * (an image with sidecar files takes a hash device: said there) */
	if (o->nargs == 2)
		return cli_alone(o, o->args[1]);
	if (o->nargs < 3 || o->nargs > 4)
		return cli_error(
			-EINVAL,
			"open: requires <data_device> <name> "
			"<hash_device> [<root_hash>], or <android_image> "
			"<name>, as arguments");
	if (cli_refuse_sparse(o->args[0]))
		return EXIT_PARAMS;
	return do_open(o, o->args[0], o->args[1], o->args[2],
		       o->nargs == 4 ? o->args[3] : NULL);
}

int cmd_create(struct cli_opts *o)
{
	if (o->nargs != 4)
		return cli_error(-EINVAL,
				 "create: requires <name> <data_device> "
				 "<hash_device> <root_hash> as arguments");
	return do_open(o, o->args[1], o->args[0], o->args[2], o->args[3]);
}

int cmd_close(struct cli_opts *o)
{
	fv_status *st;
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL, "close: requires <name> as argument");
	if (o->close == (CLI_CLOSE_DEFERRED | CLI_CLOSE_CANCEL))
		return cli_error(
			-EINVAL,
			"choose --deferred or --cancel-deferred, not both");
	r = fv_close(o->args[0],
		     o->close & CLI_CLOSE_DEFERRED ? FV_CLOSE_DEFERRED
		     : o->close & CLI_CLOSE_CANCEL ? FV_CLOSE_CANCEL_DEFERRED
						   : FV_CLOSE_NOW);
	if (r)
		return cli_lib_error(r);
	/* (with --json, stdout holds the one document: the line goes to
	 * stderr) */
	if ((o->close & CLI_CLOSE_DEFERRED) &&
	    fv_status_get(o->args[0], &st, NULL) == 0) {
		fprintf(o->json ? stderr : stdout,
			"Device %s is still active and scheduled for deferred "
			"removal.\n",
			o->args[0]);
		fv_status_free(st);
	}
	return EXIT_OK;
}

int cmd_status(struct cli_opts *o)
{
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "status: requires <name> as argument");
	/* veritysetup's lines or the --json document, said by the library
	 * (an inactive name too: exit 4) */
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_STATUS,
		.image = o->args[0],
		.json = o->json});
	return r < 0 ? cli_lib_error(r) : r ? cli_exit_code(-r) : EXIT_OK;
}
