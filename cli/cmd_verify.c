/* fastverity verify <data_device> <hash_device> [<root_hash>]
 * Checks everything and reports every failure, not just the first. */
#include <string.h>

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"

/* The arguments repair takes for this verify's: the same, less the
 * options only verify takes, and with the anchor a write needs when cp's
 * signer was not checked (repair writes only on a checked signer's
 * word; of an image alone, the library adds it). The hints name a
 * command that runs. */
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
	if (cp && cp->trust == FV_TRUST_UNCHECKED && n < len)
		snprintf(out + n, len - n, "%s",
			 " and with --trusted-cert=<cert.pem>");
}

int cmd_verify(struct cli_opts *o)
{
	struct cli_pair cp = {0};
	fv_options opts;
	fv_result *res = NULL;
	struct cli_progress pr;
	uint64_t max = UINT64_MAX;
	char args[200];
	int r;

	if ((r = cli_check_crc(o)))
		return r;
	/* an image given alone: the library's walk, one call */
	if (o->nargs == 1) {
		repair_args(o, NULL, args, sizeof(args));
		return cli_alone(o, args);
	}
	if ((r = cli_pair_from_args(o, &cp)))
		goto out;
	if (cli_run_options(o, &opts, &pr) ||
	    (o->max_failures &&
	     cli_parse_count("--max-failures", o->max_failures, &max))) {
		r = EXIT_PARAMS;
		goto out;
	}
	repair_args(o, &cp, args, sizeof(args));
	/* the library checks and says what it found: each failure as it
	 * is found, then the verdict (--json: streamed) */
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_VERIFY,
		.json = o->json,
		.all = o->verbose,
		.o = &opts,
		.img = cp.img,
		.at = cp.at,
		.res = &res,
		.max = max,
		.args = args});
	cli_progress_end(&pr);
	cli_threads_said(o);
	if (r < 0) {
		r = cli_lib_error(r);
		goto out;
	}
	cli_signer_said(o, cp.trust, res);
	cli_hashing_said(o, res);
	/* parity never makes a damaged image pass (docs/format.md) */
	r = cli_exit_code(-r);
out:
	fv_result_free(res);
	cli_pair_free(&cp);
	return r;
}
