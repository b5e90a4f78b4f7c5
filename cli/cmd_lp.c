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
static void notes(const fv_super *s, const struct fv_super_info *in)
{
	for (size_t i = 0; i < in->notes; i++)
		fprintf(stderr, "fastverity: warning: %s\n",
			entry_of(s, FV_SUPER_NOTE, i).note);
}

/* ---- dump -j: lpdump's JSON, protobuf's JSON printer's text ---- */

/* A string as protobuf's JSON printer writes it. */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\b':
			fputs("\\b", stdout);
			break;
		case '\f':
			fputs("\\f", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (c < 0x20 || c == '<' || c == '>' || c == 0x7f)
				printf("\\u%04x", c);
			else
				putchar(c);
		}
	}
	putchar('"');
}

/* The JSON writer's state: one level per open object or array, each
 * knowing whether it has a member yet. */
struct jw {
	int level;
	int first[8];
};

static void jw_newline(const struct jw *w)
{
	putchar('\n');
	for (int i = 0; i < w->level; i++)
		putchar(' ');
}

/* Before a member (name NULL: an array's item). */
static void jw_prefix(struct jw *w, const char *name)
{
	if (!w->first[w->level])
		putchar(',');
	w->first[w->level] = 0;
	jw_newline(w);
	if (name)
		printf("\"%s\": ", name);
}

static void jw_open(struct jw *w, const char *name, char c)
{
	jw_prefix(w, name);
	putchar(c);
	w->first[++w->level] = 1;
}

static void jw_close(struct jw *w, char c)
{
	int had = !w->first[w->level];

	w->level--;
	if (had)
		jw_newline(w);
	putchar(c);
}

/* proto3's defaults (0, "", false) are left out; a uint64 is a string. */
static void jw_string(struct jw *w, const char *name, const char *v)
{
	if (!*v)
		return;
	jw_prefix(w, name);
	json_str(v);
}

static void jw_u64(struct jw *w, const char *name, uint64_t v)
{
	if (!v)
		return;
	jw_prefix(w, name);
	printf("\"%" PRIu64 "\"", v);
}

struct named {
	const char *name;
	size_t i;
};

static int by_name(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

static int by_pointer(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const struct named *)x)->name,
		  b = (uintptr_t)((const struct named *)y)->name;

	return (a > b) - (a < b);
}

/* A partition and its group's index. */
struct keyed {
	size_t group, i;
};

static int by_group(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* The partitions by their group (each group's in the table's order),
 * as liblp's builder lists them: into order (in->partitions). 0; 1 when
 * two groups share a name (the builder refuses the metadata); -1. */
static int group_order(const fv_super *s, const struct fv_super_info *in,
		       size_t *order)
{
	struct named *g = calloc(in->groups + 1, sizeof(*g));
	struct keyed *p = calloc(in->partitions + 1, sizeof(*p));
	int r = 0;

	if (!g || !p) {
		free(g);
		free(p);
		return -1;
	}
	for (size_t i = 0; i < in->groups; i++)
		g[i] = (struct named){entry_of(s, FV_SUPER_GROUP, i).group.name,
				      i};
	qsort(g, in->groups, sizeof(*g), by_name);
	for (size_t i = 1; i < in->groups; i++)
		if (!strcmp(g[i].name, g[i - 1].name))
			r = 1;
	/* a partition's group is the group entry's own name (the same
	 * pointer): found by it */
	qsort(g, in->groups, sizeof(*g), by_pointer);
	for (size_t i = 0; !r && i < in->partitions; i++) {
		struct named key = {
			entry_of(s, FV_SUPER_PARTITION, i).partition.group, 0};
		struct named *hit =
			bsearch(&key, g, in->groups, sizeof(*g), by_pointer);

		p[i] = (struct keyed){hit ? hit->i : 0, i};
	}
	if (!r) {
		qsort(p, in->partitions, sizeof(*p), by_group);
		for (size_t i = 0; i < in->partitions; i++)
			order[i] = p[i].i;
	}
	free(g);
	free(p);
	return r;
}

/* lpdump -j: the partitions (by group), the groups, the block devices,
 * as protobuf prints DynamicPartitionsDeviceInfoProto with whitespace
 * (one space a level, proto3's defaults left out, uint64s as strings;
 * on a host no property sets "enabled" or "retrofit"). */
static int dump_json(const fv_super *s)
{
	struct fv_super_info in = {.size = sizeof(in)};
	struct jw w = {0, {1}};
	size_t *order;
	int r;

	if (!s) {
		fputs("{}\n", stdout);
		return 0;
	}
	fv_super_info(s, &in);
	if (!(order = calloc(in.partitions + 1, sizeof(*order))))
		return cli_error(-ENOMEM, "out of memory");
	if ((r = group_order(s, &in, order))) {
		free(order);
		if (r < 0)
			return cli_error(-ENOMEM, "out of memory");
		fputs("fastverity: warning: two groups share a name (liblp's "
		      "builder refuses the metadata): lpdump prints {}\n",
		      stderr);
		fputs("{}\n", stdout);
		return 0;
	}
	putchar('{');
	w.first[++w.level] = 1;
	if (in.partitions) {
		jw_open(&w, "partitions", '[');
		for (size_t k = 0; k < in.partitions; k++) {
			struct fv_super_partition p =
				entry_of(s, FV_SUPER_PARTITION, order[k])
					.partition;

			jw_open(&w, NULL, '{');
			jw_string(&w, "name", p.name);
			jw_string(&w, "group_name", p.group);
			jw_prefix(&w, "is_dynamic");
			fputs("true", stdout);
			jw_u64(&w, "size", p.bytes);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
	}
	if (in.groups) {
		jw_open(&w, "groups", '[');
		for (size_t i = 0; i < in.groups; i++) {
			struct fv_super_group g =
				entry_of(s, FV_SUPER_GROUP, i).group;

			jw_open(&w, NULL, '{');
			jw_string(&w, "name", g.name);
			jw_u64(&w, "maximum_size", g.max_size);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
	}
	jw_open(&w, "block_devices", '[');
	for (size_t i = 0; i < in.block_devices; i++) {
		struct fv_super_block_device b =
			entry_of(s, FV_SUPER_BLOCK_DEVICE, i).block_device;

		jw_open(&w, NULL, '{');
		jw_string(&w, "name", b.name);
		jw_u64(&w, "size", b.bytes);
		jw_u64(&w, "block_size", in.logical_block_size);
		jw_u64(&w, "alignment", b.alignment);
		jw_u64(&w, "alignment_offset", b.alignment_offset);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_close(&w, '}');
	putchar('\n');
	free(order);
	return 0;
}

static int dump(struct lp_args *a)
{
	struct fv_super_info in = {.size = sizeof(in)};
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
	r = fv_super_open(a->args[0], NULL, NULL, 0, slot, &s);
	/* -j needs no metadata (lpdump's rule): a warning and {} */
	if (a->json) {
		if (r) {
			char msg[1024];

			cli_lib_say(msg, sizeof(msg));
			fprintf(stderr,
				"fastverity: warning: failed to read "
				"metadata: %s\n",
				msg);
			s = NULL;
		} else {
			fv_super_info(s, &in);
			notes(s, &in);
		}
		r = dump_json(s);
		fv_super_free(s);
		return r;
	}
	if (r)
		return lib_fail(EX_NOINPUT);
	fv_super_info(s, &in);
	notes(s, &in);
	if (a->size_only) {
		struct fv_super_block_device b =
			entry_of(s, FV_SUPER_BLOCK_DEVICE, 0).block_device;

		printf("%" PRIu64 "\n", b.first_sector * 512);
		fv_super_free(s);
		return 0;
	}
	cli_super_text(stdout, s, &in);
	for (uint32_t k = 1; a->all && k < in.metadata_slot_count; k++) {
		struct fv_super_info ik = {.size = sizeof(ik)};
		fv_super *sk;

		/* (lpdump passes over a slot it cannot read) */
		if (fv_super_open(a->args[0], NULL, NULL, 0, k, &sk))
			continue;
		fv_super_info(sk, &ik);
		notes(sk, &ik);
		putchar('\n');
		cli_super_text(stdout, sk, &ik);
		fv_super_free(sk);
	}
	fv_super_free(s);
	return 0;
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
	notes(s, &in);
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
