/* fastverity lp SUBCOMMAND: AOSP's partition tools for Android super
 * images (docs/android.md, "lpdump and lpunpack"). dump prints what
 * lpdump prints (its text, its -j JSON), unpack writes what lpunpack
 * writes (each logical partition as OUTDIR/NAME.img), with their options
 * and exit codes (sysexits.h: 64 a usage error, 66 no metadata, 70 an
 * extraction that failed, 71 a missing image). The metadata is the
 * library's (fv_super); a partition is written by it (fv_file's
 * FV_FILE_SUPER_EXTRACT: whole, under its name only when complete). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/text.h"
#include "include/fastverity.h"

/* sysexits.h's, as lpdump and lpunpack return them */
enum {
	EX_USAGE = 64,
	EX_NOINPUT = 66,
	EX_SOFTWARE = 70,
	EX_OSERR = 71,
};

enum {
	L_DUMP = 1u << 0,
	L_UNPACK = 1u << 1,
};

struct lp_args {
	int json, all, size_only, empty;
	char *slot, *unpack_slot, *image;
	const char **partitions;
	size_t npartitions;
	const char **args;
	int nargs;
};

static const struct cli_sub subs[] = {
	{"dump", L_DUMP, "[-j] [-s N] [-a] [-d] SUPER_IMAGE",
	 "what lpdump prints of a super image's metadata: its text (every "
	 "table, the partitions' layout), or with -j its JSON"},
	{"unpack", L_UNPACK, "[-S N] [-p NAME]... SUPER_IMAGE [OUTPUT_DIR]",
	 "what lpunpack writes: each logical partition (or each -p) as "
	 "OUTPUT_DIR/NAME.img (default: .), its extents' bytes, written "
	 "whole before it appears under its name; raw or sparse images"},
};

#define ARG(f) offsetof(struct lp_args, f)
static const struct cli_option rows[] = {
	{"slot", 's', CLI_VALUE, ARG(slot), 0, L_DUMP, "N",
	 "metadata slot: a number, or a slot suffix (a, _a, b, _b); "
	 "default 0",
	 0, NULL},
	{"json", 'j', CLI_FLAG, ARG(json), 0, L_DUMP, NULL,
	 "print lpdump's JSON (its partitions, groups, block devices)", 0,
	 NULL},
	{"all", 'a', CLI_FLAG, ARG(all), 0, L_DUMP, NULL,
	 "every metadata slot (not with --slot or --json)", 0, NULL},
	{"dump-metadata-size", 'd', CLI_FLAG, ARG(size_only), 0, L_DUMP, NULL,
	 "print the bytes reserved for the metadata", 0, NULL},
	{"is-super-empty", 'e', CLI_FLAG, ARG(empty), 0, L_DUMP, NULL,
	 "(ignored, as lpdump ignores it)", 0, NULL},
	{"partition", 'p', CLI_LIST, ARG(partitions), ARG(npartitions),
	 L_UNPACK, "NAME", "only this partition; repeatable (default: all)", 0,
	 NULL},
	{"slot", 'S', CLI_VALUE, ARG(unpack_slot), 0, L_UNPACK, "NUM",
	 "metadata slot (default 0)", 0, NULL},
	{"image", 'i', CLI_ABSENT, ARG(image), 0, L_UNPACK, "IMAGE",
	 "(a split super's other images: fastverity reads NAME.img beside "
	 "it)",
	 0, NULL},
};

static const struct cli_table table = {
	.command = "fastverity lp",
	.word = "lp",
	.anchor = "lpunpack",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.usage_exit = EX_USAGE,
	.shorts = 1,
	.sep = '=',
	.width = 26,
	.prefixes = 1, /* getopt_long's: a unique prefix is the option */
};

static const struct cli_group group = {
	.table = &table,
	.subs = subs,
	.n = sizeof(subs) / sizeof(subs[0]),
	.usage = "[<options>] SUPER_IMAGE",
	.what = "AOSP's lpdump and lpunpack for Android super images "
		"(dynamic partitions)",
	.trailer = "\nExit status (lpdump's and lpunpack's): 0 done; 64 a "
		   "usage error (unpack: also metadata that cannot be read); "
		   "66 dump: metadata that cannot be read; 70 unpack: a "
		   "partition not found or not written; 71 unpack: no such "
		   "image.\n\nSee fastverity(8) and docs/android.md.\n",
	.usage_exit = EX_USAGE,
};

/* A number as android::base::ParseUint reads one (decimal, 0x hex, 0
 * octal; no sign), at most UINT32_MAX: 0, or -1. */
static int parse_uint(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* lpdump's --slot: a number, else a slot suffix. lpdump reads slot 0
 * for a word that is neither (after a log line); refused here. */
static int dump_slot(const char *given, uint32_t *slot)
{
	*slot = given && (!strcmp(given, "b") || !strcmp(given, "_b"));
	if (!given || *slot || !strcmp(given, "a") || !strcmp(given, "_a") ||
	    !parse_uint(given, slot))
		return 0;
	cli_error(-EINVAL,
		  "lp dump: --slot: '%s' is neither a number nor a slot "
		  "suffix (a, _a, b, _b)",
		  given);
	return EX_USAGE;
}

static int dump(struct lp_args *a)
{
	uint32_t slot;
	int r;

	if (a->nargs != 1)
		return cli_error(-EINVAL,
				 a->nargs ? "lp dump: give one super image"
					  : "lp dump: must specify a super "
					    "partition image"),
		       EX_USAGE;
	if (a->all && (a->slot || a->json))
		return cli_error(-EINVAL,
				 "lp dump: cannot specify both --all "
				 "and %s",
				 a->slot ? "--slot" : "--json"),
		       EX_USAGE;
	if ((r = dump_slot(a->slot, &slot)))
		return r;
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = a->size_only ? FV_SHOW_LPDUMP_SIZE : FV_SHOW_LPDUMP,
		.image = a->args[0],
		.json = a->json,
		.slot = slot,
		.all = a->all});
	/* (-j needs no metadata: the library's warning and {}) */
	return r ? (cli_lib_error(r), EX_NOINPUT) : 0;
}

/* ---- unpack: lpunpack ---- */

static int unpack(struct lp_args *a)
{
	const char *dir = a->nargs == 2 ? a->args[1] : ".";
	uint32_t slot = 0;
	struct stat st;
	int r;

	if (a->nargs < 1 || a->nargs > 2)
		return cli_error(-EINVAL, a->nargs ? "lp unpack: give a super "
						     "image and an output "
						     "directory"
						   : "lp unpack: missing super "
						     "image argument"),
		       EX_USAGE;
	/* ("" would make each file /NAME.img) */
	if (!*dir)
		return cli_error(-EINVAL,
				 "lp unpack: an empty output directory"),
		       EX_USAGE;
	if (a->unpack_slot && parse_uint(a->unpack_slot, &slot))
		return cli_error(-EINVAL,
				 "lp unpack: --slot: '%s' is not a valid "
				 "unsigned number",
				 a->unpack_slot),
		       EX_USAGE;
	if (stat(a->args[0], &st) < 0)
		return cli_error(-errno, "lp unpack: %s: %s", a->args[0],
				 strerror(errno)),
		       EX_OSERR;
	/* the library writes each partition whole, its temporary removed
	 * on a signal; a failure after the metadata is read is said. Each
	 * line is out before the partition it names is written. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_LPUNPACK,
		.image = a->args[0],
		.slot = slot,
		.names = a->partitions,
		.n = a->npartitions,
		.dir = dir});
	return r < 0 ? (cli_lib_error(r), EX_USAGE) : r ? EX_SOFTWARE : 0;
}

static int run(const struct cli_sub *s, void *base)
{
	return s->bit == L_DUMP ? dump(base) : unpack(base);
}

int cli_lp_main(int argc, const char **argv)
{
	struct lp_args a = {0};

	return cli_group_run(&group, argc, argv, &a, &a.args, &a.nargs, run);
}
