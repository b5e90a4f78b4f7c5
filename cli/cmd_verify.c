/* fastverity verify <data_device> <hash_device> [<root_hash>]
 * Checks everything and reports every failure, not just the first. */
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/super.h"
#include "cli/errors.h"
#include "cli/params.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"

/* The arguments repair takes for this verify's: the same, less the
 * options only verify takes (the library adds the anchor a write needs
 * when the signer was not checked, as cp, when given, says: repair
 * writes only on a checked signer's word). The hints name a command that
 * runs. */
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

/* verify of an image given alone: what the library says it is (said
 * first), the options that walk does not take refused in the command's
 * words, the run options made for it. */
struct alone {
	struct cli_opts *o;
	fv_options opts;
	struct cli_progress pr;
	int progress; /* pr started */
	const char *container;
	int set;     /* walked as a firmware set */
	int refused; /* the exit code of a refusal said */
	int own;     /* an image with sidecar files: the command's pair */
	struct fv_slot_request req;
	const char *one[1];
	const char **names, **files;
	uint64_t max; /* --max-failures, read before it is checked */
};

static int run_options(struct alone *a)
{
	if (cli_run_options(a->o, &a->opts, &a->pr))
		return EXIT_PARAMS;
	a->progress = 1;
	a->opts.trusted_certs = (const char *const *)a->o->trusted_certs;
	a->opts.ntrusted_certs = a->o->ntrusted;
	return 0;
}

/* What the walk of a (a->container, a->set) does not take: refused (the
 * exit code, said), else the options it runs with. */
static int alone_takes(struct alone *a)
{
	struct cli_opts *o = a->o;
	const char *image = o->args[0];
	int super = !strcmp(a->container, "super");
	const char *opt;
	int r;

	/* a container that carries its own signatures takes none given */
	if (o->root_hash_signature && (super || !strcmp(a->container, "ddi")))
		return cli_error(-EINVAL,
				 "%s: %s carries its own signatures; "
				 "--root-hash-signature does not apply",
				 image,
				 super ? "an Android super image"
				       : "a systemd disk image");
	if (!strcmp(a->container, "ota")) {
		if ((r = cli_ota_refused(o, "verify")))
			return r;
		a->opts.size = sizeof(a->opts);
		a->opts.key = o->key;
		a->opts.trusted_certs = (const char *const *)o->trusted_certs;
		a->opts.ntrusted_certs = o->ntrusted;
		return 0;
	}
	if (!strcmp(a->container, "ddi")) {
		if ((r = cli_anchor_options(o, &a->opts)) ||
		    (r = run_options(a)))
			return r;
		a->opts.key = o->key;
		return 0;
	}
	if (a->set) {
		if (o->slot && strcmp(o->slot, "a") && strcmp(o->slot, "b"))
			return cli_error(-EINVAL, "--slot: '%s' is not a or b",
					 o->slot);
		if (o->root_hash_signature)
			return cli_error(-EINVAL,
					 "%s: an Android image carries its own "
					 "signatures; --root-hash-signature "
					 "does not apply",
					 image);
		if ((r = cli_block_devices(o, &a->names, &a->files)))
			return r;
		a->one[0] = o->partition;
		a->req = (struct fv_slot_request){
			.size = sizeof(a->req),
			.image = image,
			.container = o->container,
			.key = o->key,
			.slot = o->slot,
			.partitions = o->partition ? a->one : NULL,
			.npartitions = o->partition ? 1 : 0,
			.device_names = a->names,
			.device_files = a->files,
			.ndevices = o->nblock_devices,
			.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW};
		return run_options(a);
	}
	if (!strcmp(a->container, "sidecar")) {
		a->own = 1;
		return 1;
	}
	/* an Android image's pair: it carries its own parameters */
	if ((opt = cli_avb_parameter(o)))
		return cli_error(-EINVAL,
				 "%s: an Android image carries its own "
				 "parameters, tree, parity and root; %s does "
				 "not apply",
				 image, opt);
	return cli_anchor_options(o, &a->opts);
}

/* An Android image's pair judged: the options it runs with. */
static int alone_runs(struct alone *a)
{
	uint64_t max;

	if (run_options(a) ||
	    (a->o->max_failures &&
	     cli_parse_count("--max-failures", a->o->max_failures, &max)))
		return EXIT_PARAMS;
	return 0;
}

/* --max-failures as the request carries it, read before the walk is
 * known (a value cli_parse_count refuses is refused once it is). */
static uint64_t max_failures(const struct cli_opts *o)
{
	uint64_t v = 0;

	if (!o->max_failures || !*o->max_failures)
		return UINT64_MAX;
	for (const char *c = o->max_failures; *c; c++) {
		if (*c < '0' || *c > '9' ||
		    v > (UINT64_MAX - 1 - (uint64_t)(*c - '0')) / 10)
			return UINT64_MAX;
		v = v * 10 + (uint64_t)(*c - '0');
	}
	return v;
}

/* The open's items: what the image is, first; its notes. */
static int alone_said(void *ctx, const struct fv_item *it)
{
	struct alone *a = ctx;

	if (it->kind == FV_ITEM_WARNING)
		fprintf(stderr, "fastverity: warning: %s\n", it->text);
	else if (it->kind == FV_ITEM_ERROR)
		fprintf(stderr, "fastverity: %s\n", it->text);
	else if (it->kind == FV_ITEM_STRING && it->key &&
		 !strcmp(it->key, "container")) {
		a->container = it->text;
		a->set = it->u == 1;
		if ((a->refused = alone_takes(a)))
			return a->refused;
		/* a walk that is not a pair's: its --json built whole */
		cli_json_whole = strcmp(a->container, "avb") || a->set;
	} else if (it->kind == FV_ITEM_UINT && it->key &&
		   !strcmp(it->key, "trust")) {
		if ((a->refused = alone_runs(a)))
			return a->refused;
	}
	return 0;
}

/* The exit code of the one call r, said as its walk says it. */
static int alone_said_all(struct alone *a, int r, const fv_result *res)
{
	struct cli_opts *o = a->o;
	const char *c = a->container ? a->container : "";

	if (!strcmp(c, "ota")) {
		int code = r > 0 ? EXIT_VERIFY : r ? cli_lib_error(r) : EXIT_OK;

		if (code && code != EXIT_VERIFY && o->json)
			cli_json_final(code, NULL);
		return code;
	}
	if (!strcmp(c, "ddi"))
		return r > 0 ? cli_exit_code(-r)
		       : r   ? cli_partition_refused(o, r)
			     : 0;
	if (a->set) {
		int split = r == -ENODEV && !strcmp(c, "super") &&
			    o->nblock_devices == 0 &&
			    strstr(fv_last_error(), "split super");

		if (r >= 0)
			return cli_exit_code(-r);
		r = cli_lib_error(r);
		if (split)
			fprintf(stderr, "fastverity: give it: --block-device "
					"NAME=FILE\n");
		return r;
	}
	if (*c)
		cli_threads_said(o);
	if (r < 0)
		return cli_lib_error(r);
	cli_hashing_said(o, res);
	/* parity never makes a damaged image pass (docs/format.md) */
	return cli_exit_code(-r);
}

/* verify of an image given alone: one call, the library's walk. */
static int verify_alone(struct cli_opts *o, int *own)
{
	struct alone a = {.o = o, .max = max_failures(o)};
	struct fv_open_request rq = {.size = sizeof(rq),
				     .container = o->container,
				     .action = o->action,
				     .said = alone_said,
				     .ctx = &a};
	const char *tmp = getenv("TMPDIR");
	const char **certs;
	size_t ncerts;
	fv_result *res = NULL;
	char args[200];
	glob_t g;
	int r;

	if ((r = cli_container_asked(o)))
		return r;
	repair_args(o, NULL, args, sizeof(args));
	/* a disk image's anchor without an option: /etc/verity.d's */
	cli_trusted_of(o, &certs, &ncerts, &g);
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_VERIFY,
		.image = o->args[0],
		.json = o->json,
		.all = o->verbose,
		.o = &a.opts,
		.set = &a.req,
		.partition = o->partition,
		/* an OTA package's images, for its AVB key: in the
		 * temporary files' directory */
		.dir = tmp && *tmp ? tmp : "/tmp",
		.res = &res,
		.max = a.max,
		.args = args,
		.open = &rq,
		.certs = o->ntrusted ? NULL : certs,
		.ncerts = o->ntrusted ? 0 : ncerts});
	if (a.progress)
		cli_progress_end(&a.pr);
	globfree(&g);
	*own = a.own;
	r = a.refused ? (a.own ? 0 : a.refused) : alone_said_all(&a, r, res);
	cli_block_devices_free(o, a.names, a.files);
	fv_result_free(res);
	return r;
}

int cmd_verify(struct cli_opts *o)
{
	struct cli_pair cp = {0};
	fv_options opts;
	fv_result *res = NULL;
	struct cli_progress pr;
	enum cli_container kind = CLI_PLAIN;
	uint64_t max = UINT64_MAX;
	char args[200];
	int r;

	if ((r = cli_check_crc(o)))
		return r;
	if (o->nargs == 1) {
		int own = 0;

		if ((r = verify_alone(o, &own)) || !own)
			return r;
		kind = CLI_SIDECAR;
	}
	if ((r = cli_pair_from_args(o, kind, &cp)))
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
	cli_signer_said(o, &cp, res);
	cli_hashing_said(o, res);
	/* parity never makes a damaged image pass (docs/format.md) */
	r = cli_exit_code(-r);
out:
	fv_result_free(res);
	cli_pair_free(&cp);
	return r;
}
