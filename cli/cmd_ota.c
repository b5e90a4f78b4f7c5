/* fastverity ota SUBCOMMAND: Android A/B OTA packages, an OTA zip or a
 * bare payload.bin (docs/ota.md). info: what the package says. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/options.h"
#include "include/fastverity.h"

enum {
	O_INFO = 1u << 0,
	O_VERIFY = 1u << 1,
	O_EXTRACT = 1u << 2,
};

struct ota_args {
	int json;
	char *cert, *output_dir, *partition, *source, *avb_key;
	const char **args;
	int nargs;
};

static const struct cli_sub subs[] = {
	{"info", O_INFO, "PKG [--json]",
	 "what an OTA package (a zip, or payload.bin) holds: the payload's "
	 "versions, partitions, operations and signatures, its properties "
	 "and metadata"},
	{"verify", O_VERIFY,
	 "PKG [--cert=PEM] [--source=DIR] [--avb-key=KEY] [--json]",
	 "checks the payload's metadata and payload signatures (RSA-2048 or "
	 "RSA-4096, SHA-256) against --cert, else against the package's own "
	 "otacert (the signer then not checked against a trusted one); a "
	 "zip's whole-file signature, otacert, properties and property "
	 "files; each operation's data hash, each partition applied and "
	 "hashed against new_partition_info; with --avb-key, the images "
	 "as one AVB set"},
	{"extract", O_EXTRACT,
	 "PKG --output-dir=DIR [--source=DIR] [--partition=NAME[,NAME...]] "
	 "[--json]",
	 "writes each partition to DIR/NAME.img (a delta's from the source "
	 "images in --source), each checked against its hash before it "
	 "appears under its name"},
};

#define ARG(f) offsetof(struct ota_args, f)
static const struct cli_option rows[] = {
	CLI_ROW("json", CLI_FLAG, ARG(json), 0, O_INFO | O_VERIFY | O_EXTRACT,
		NULL, "one JSON document on stdout"),
	CLI_ROW("output-dir", CLI_VALUE, ARG(output_dir), 0, O_EXTRACT, "DIR",
		"where the images go (DIR/NAME.img)"),
	CLI_ROW("avb-key", CLI_VALUE, ARG(avb_key), 0, O_VERIFY, "KEY",
		"also check the images as one AVB set: vbmeta signed by KEY"),
	CLI_ROW("source", CLI_VALUE, ARG(source), 0, O_VERIFY | O_EXTRACT,
		"DIR", "a delta's source images (DIR/NAME.img)"),
	CLI_ROW("partition", CLI_VALUE, ARG(partition), 0, O_EXTRACT,
		"NAME[,NAME...]", "only these partitions (default: all)"),
	CLI_ROW("cert", CLI_VALUE, ARG(cert), 0, O_VERIFY, "PEM",
		"the trusted signer: a PEM certificate or public key"),
};

static const struct cli_table table = {
	.command = "fastverity ota",
	.word = "ota",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.usage_exit = EXIT_PARAMS,
	.once = 1,
	.sep = '=',
	.width = 24,
};

static const struct cli_group group = {
	.table = &table,
	.subs = subs,
	.n = sizeof(subs) / sizeof(subs[0]),
	.usage = "PKG [<options>]",
	.what = "Android A/B OTA packages (an OTA zip, or a bare payload.bin)",
	.trailer = "\nExit status: 0 done (verify: every check good; "
		   "extract: every image written); 1 a package that cannot "
		   "be read, or a usage error; 2 a signature, a check or an "
		   "image bad or missing.\n\nSee fastverity(8) and "
		   "docs/ota.md.\n",
	.usage_exit = EXIT_PARAMS,
};

/* The action s on the package: the library's items printed; 0, or the
 * exit code. */
static int act(const struct cli_sub *s, struct ota_args *a)
{
	static const char *const usage[] = {"info PKG", "verify PKG",
					    "extract PKG --output-dir=DIR"};
	/* (subs in the order of fv_show's OTA kinds) */
	int what = FV_SHOW_OTA_INFO + (int)(s - subs);
	const char *certs[1] = {a->cert}, *tmp = getenv("TMPDIR");
	fv_options opts = {.size = sizeof(opts),
			   .trusted_certs = a->cert ? certs : NULL,
			   .ntrusted_certs = a->cert ? 1 : 0};
	int r;

	if (a->nargs != 1)
		return cli_error(-EINVAL,
				 "ota %s: give one package (fastverity ota %s)",
				 s->name, usage[s - subs]);
	if (what == FV_SHOW_OTA_EXTRACT && !a->output_dir)
		return cli_error(-EINVAL,
				 "ota extract: --output-dir=DIR is needed");
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = what,
		.image = a->args[0],
		.json = a->json,
		.o = what == FV_SHOW_OTA_VERIFY ? &opts : NULL,
		.partition = a->partition,
		/* --avb-key: the images' private directory made in the
		 * temporary files' (TMPDIR's, else /tmp) */
		.dir = !a->avb_key   ? a->output_dir
		       : tmp && *tmp ? tmp
				     : "/tmp",
		.source = a->source,
		.key = a->avb_key});
	return r > 0 ? EXIT_VERIFY : r ? cli_lib_error(r) : EXIT_OK;
}

/* act, and --json's document of a failure it said */
static int run(const struct cli_sub *s, void *base)
{
	struct ota_args *a = base;
	int r = act(s, a);

	if (r && r != EXIT_VERIFY && a->json)
		cli_json_final(r, NULL);
	return r;
}

int cli_ota_main(int argc, const char **argv)
{
	struct ota_args a = {0};

	return cli_group_run(&group, argc, argv, &a, &a.args, &a.nargs, run);
}
