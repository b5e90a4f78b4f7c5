/* fastverity lp SUBCOMMAND: AOSP's partition tools for Android super
 * images (docs/android.md, "lpdump and lpunpack"). dump prints what
 * lpdump prints (its text, its -j JSON), unpack writes what lpunpack
 * writes (each logical partition as OUTDIR/NAME.img), with their options
 * and exit codes (sysexits.h: 64 a usage error, 66 no metadata, 70 an
 * extraction that failed, 71 a missing image). The metadata is the
 * library's (fv_super); a partition is written by it (fv_file's
 * FV_FILE_SUPER_EXTRACT: whole, under its name only when complete). */
#include <errno.h>
#include <inttypes.h>
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
#include "cli/super.h"
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

/* The library's last message on one line; returns code. */
static int lib_fail(int code)
{
	char msg[1024];

	cli_lib_say(msg, sizeof(msg));
	fprintf(stderr, "fastverity: %s\n", msg);
	return code;
}

/* A number as android::base::ParseUint reads one (decimal, 0x hex, 0
 * octal; no sign), at most max: 0, or -1. */
static int parse_uint(const char *s, unsigned long long max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* lpdump's --slot: a number, else a slot suffix. lpdump reads slot 0
 * for a word that is neither (after a log line); refused here. */
static int dump_slot(const char *given, uint32_t *slot)
{
	*slot = 0;
	if (!given)
		return 0;
	if (!parse_uint(given, UINT32_MAX, slot))
		return 0;
	if (!strcmp(given, "a") || !strcmp(given, "_a"))
		return 0;
	if (!strcmp(given, "b") || !strcmp(given, "_b")) {
		*slot = 1;
		return 0;
	}
	cli_error(-EINVAL,
		  "lp dump: --slot: '%s' is neither a number nor a slot "
		  "suffix (a, _a, b, _b)",
		  given);
	return EX_USAGE;
}

static struct fv_super_entry entry_of(const fv_super *s,
				      enum fv_super_kind kind, size_t i)
{
	struct fv_super_entry e = {.size = sizeof(e)};

	fv_super_entry(s, kind, i, &e);
	return e;
}

/* The notes of a copy read from its backup, on stderr (lpdump says
 * nothing of them; its stdout stays its own). */
static void notes(const fv_super *s)
{
	struct fv_super_info in = {.size = sizeof(in)};

	fv_super_info(s, &in);
	for (size_t i = 0; i < in.notes; i++)
		fprintf(stderr, "fastverity: warning: %s\n",
			entry_of(s, FV_SUPER_NOTE, i).note);
}

static int dump(struct lp_args *a)
{
	fv_super *s = NULL;
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
	if (a->size_only) {
		if (fv_super_open(a->args[0], NULL, NULL, 0, slot, &s))
			return lib_fail(EX_NOINPUT);
		notes(s);
		printf("%" PRIu64 "\n",
		       entry_of(s, FV_SUPER_BLOCK_DEVICE, 0)
				       .block_device.first_sector *
			       512);
		fv_super_free(s);
		return 0;
	}
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_LPDUMP,
		.image = a->args[0],
		.json = a->json,
		.slot = slot,
		.all = a->all});
	if (!r)
		return 0;
	/* -j needs no metadata (lpdump's rule): a warning and {} */
	if (a->json) {
		char msg[1024];

		cli_lib_say(msg, sizeof(msg));
		fprintf(stderr,
			"fastverity: warning: failed to read metadata: %s\n",
			msg);
		fputs("{}\n", stdout);
		return 0;
	}
	return lib_fail(EX_NOINPUT);
}

/* ---- unpack: lpunpack ---- */

/* A partition name that names a file in OUTPUT_DIR. */
static int file_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/* mkdir -p dir (lpunpack's create_directories): 0, or -errno. */
static int make_dirs(const char *dir)
{
	size_t n = strlen(dir);
	char *p = strdup(dir);
	int r = 0;

	if (!p)
		return -ENOMEM;
	for (size_t i = 1; i <= n && !r; i++) {
		struct stat st;

		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			r = -errno;
		else if (stat(p, &st) < 0)
			r = -errno;
		else if (!S_ISDIR(st.st_mode))
			r = -ENOTDIR;
		if (i < n)
			p[i] = '/';
	}
	free(p);
	return r;
}

static int unpack(struct lp_args *a)
{
	struct fv_super_info in = {.size = sizeof(in)};
	const char *image, *dir = ".";
	char *path = NULL;
	uint32_t slot = 0;
	unsigned char *want = NULL;
	struct stat st;
	fv_super *s;
	int r = 0;

	if (a->nargs < 1 || a->nargs > 2)
		return cli_error(-EINVAL, a->nargs ? "lp unpack: give a super "
						     "image and an output "
						     "directory"
						   : "lp unpack: missing super "
						     "image argument"),
		       EX_USAGE;
	image = a->args[0];
	if (a->nargs == 2)
		dir = a->args[1];
	/* ("" would make each file /NAME.img) */
	if (!*dir)
		return cli_error(-EINVAL,
				 "lp unpack: an empty output directory"),
		       EX_USAGE;
	if (a->unpack_slot && parse_uint(a->unpack_slot, UINT32_MAX, &slot))
		return cli_error(-EINVAL,
				 "lp unpack: --slot: '%s' is not a valid "
				 "unsigned number",
				 a->unpack_slot),
		       EX_USAGE;
	if (stat(image, &st) < 0)
		return cli_error(-errno, "lp unpack: %s: %s", image,
				 strerror(errno)),
		       EX_OSERR;
	if (fv_super_open(image, NULL, NULL, 0, slot, &s))
		return lib_fail(EX_USAGE);
	fv_super_info(s, &in);
	notes(s);
	if (!(want = calloc(in.partitions + 1, 1))) {
		r = cli_error(-ENOMEM, "out of memory");
		goto out;
	}
	/* every -p found before anything is written */
	for (size_t k = 0; k < a->npartitions; k++) {
		size_t i = 0;

		for (; i < in.partitions; i++)
			if (!strcmp(entry_of(s, FV_SUPER_PARTITION, i)
					    .partition.name,
				    a->partitions[k]))
				break;
		if (i == in.partitions) {
			cli_error(-ENOENT,
				  "lp unpack: %s: could not find partition "
				  "%s",
				  image, a->partitions[k]);
			r = EX_SOFTWARE;
			goto out;
		}
		want[i] = 1;
	}
	for (size_t i = 0; i < in.partitions; i++) {
		struct fv_super_partition p =
			entry_of(s, FV_SUPER_PARTITION, i).partition;

		if (a->npartitions && !want[i])
			continue;
		if (!file_name_ok(p.name)) {
			cli_error(-EINVAL,
				  "lp unpack: %s: partition %s cannot name a "
				  "file",
				  image, CLI_NAME(p.name, strlen(p.name)));
			r = EX_SOFTWARE;
			goto out;
		}
	}
	if ((r = make_dirs(dir))) {
		cli_error(r, "lp unpack: %s: %s", dir, strerror(-r));
		r = EX_SOFTWARE;
		goto out;
	}
	for (size_t i = 0; i < in.partitions; i++) {
		struct fv_super_partition p =
			entry_of(s, FV_SUPER_PARTITION, i).partition;
		struct fv_file_request q = {.size = sizeof(q)};
		size_t len = strlen(dir) + strlen(p.name) + 6;

		if (a->npartitions && !want[i])
			continue;
		printf("Attempting to extract partition '%s'...\n", p.name);
		for (uint32_t k = 0; k < p.num_extents; k++)
			printf("  Dealing with extent %u from target source "
			       "%u...\n",
			       k,
			       entry_of(s, FV_SUPER_EXTENT, p.first_extent + k)
				       .extent.source);
		fflush(stdout);
		free(path);
		if (!(path = malloc(len))) {
			r = cli_error(-ENOMEM, "out of memory");
			goto out;
		}
		snprintf(path, len, "%s/%s.img", dir, p.name);
		q.op = FV_FILE_SUPER_EXTRACT;
		q.path = image;
		q.what = p.name;
		q.other = path;
		q.offset = slot;
		if (fv_file(&q, NULL)) {
			r = lib_fail(EX_SOFTWARE);
			goto out;
		}
	}
out:
	free(path);
	free(want);
	fv_super_free(s);
	return r;
}

int cli_lp_main(int argc, const char **argv)
{
	const struct cli_sub *s;
	struct lp_args a;
	int r;

	memset(&a, 0, sizeof(a));
	r = cli_group_parse(&group, argc, argv, &a, &a.args, &a.nargs, &s);
	if (r) {
		cli_group_free(&group, &a, a.args, a.nargs);
		return r < 0 ? EXIT_OK : r;
	}
	r = s->bit == L_DUMP ? dump(&a) : unpack(&a);
	cli_group_free(&group, &a, a.args, a.nargs);
	return r;
}
