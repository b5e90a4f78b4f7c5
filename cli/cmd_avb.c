/* fastverity avb SUBCOMMAND [--option value ...]: avbtool's image
 * commands with avbtool's spelling, so that a build script swaps
 * `avbtool` for `fastverity avb` (docs/android.md). Options avbtool has
 * and fastverity does not are refused by name, never ignored. The
 * options are avbtool's table, the library's; info_image, the print
 * commands and extract_vbmeta_image write what fv_show makes, line for
 * line as avbtool, or --json, to stdout or a file. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/jsonc.h"
#include "cli/options.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/cli.h"

/* The rows of avbtool's table (the library's, FV_SHOW_AVB_OPTIONS) at
 * most. */
#define CLI_AVB_ROWS 96

/* The options given, by their row in the table (NULL or 0 when absent). */
struct cli_avb_args {
	const char *sub;
	const char *value[CLI_AVB_ROWS];
	const char **list[CLI_AVB_ROWS];
	size_t count[CLI_AVB_ROWS];
	int flag[CLI_AVB_ROWS];
	/* the options the library reads: names and values, in pairs
	 * (npairs; all given: nall) */
	const char **pairs;
	size_t npairs, nall;
};

/* A usage error, avbtool's (argparse's) exit 2 in the end; every other
 * failure is avbtool's AvbError, exit 1 (cli_avb_main). */
#define AVB_USAGE 64

/* avbtool's table, the library's (FV_SHOW_AVB_OPTIONS): the rows of
 * the option engine, each into its own member of struct cli_avb_args. */
static struct cli_option rows[CLI_AVB_ROWS];
static struct cli_sub subs[32];
static const char *missing_subs[32];
/* the rows no request of the library reads: the command's own */
static unsigned char own[CLI_AVB_ROWS];

static struct cli_table table = {
	.command = "fastverity avb",
	.word = "avb",
	.anchor = "avbtool",
	.rows = rows,
	.usage_exit = AVB_USAGE,
	.absent_exit = EXIT_PARAMS,
	.prefixes = 1,
	.sep = ' ',
	.width = 44,
};

static struct cli_group group = {
	.table = &table,
	.subs = subs,
	.usage = "[--option value ...]",
	.what = "avbtool's image commands, with avbtool's options "
		"(docs/android.md)",
	.absent = missing_subs,
	.usage_exit = AVB_USAGE,
	.list_unknown = 1,
};

#define AT(member, i)                            \
	(offsetof(struct cli_avb_args, member) + \
	 (i) * sizeof(((struct cli_avb_args *)0)->member[0]))

/* One item of the table into its row, subcommand or order. */
static int table_item(void *ctx, const struct fv_item *it)
{
	static const enum cli_kind kinds[] = {CLI_FLAG, CLI_VALUE, CLI_LIST,
					      CLI_ABSENT};
	static size_t nmissing;
	struct cli_group *g = ctx;
	size_t n = table.n;

	if (it->kind == FV_ITEM_STRING && g->n < sizeof(subs) / sizeof(*subs))
		subs[g->n++] = (struct cli_sub){it->key, (unsigned)it->u, NULL,
						it->text};
	else if (it->kind == FV_ITEM_NULL &&
		 nmissing + 1 < sizeof(missing_subs) / sizeof(*missing_subs))
		missing_subs[nmissing++] = it->key;
	else if (it->kind == FV_ITEM_UINT && n < CLI_AVB_ROWS && it->d >= 0 &&
		 it->d < 8) {
		enum cli_kind kind = kinds[(int)it->d & 3];

		own[n] = it->d >= 4;
		rows[table.n++] = (struct cli_option){
			.name = it->key,
			.kind = kind,
			.field = kind == CLI_FLAG    ? AT(flag, n)
				 : kind == CLI_LIST  ? AT(list, n)
				 : kind == CLI_VALUE ? AT(value, n)
						     : 0,
			.extra = kind == CLI_LIST ? AT(count, n) : 0,
			.actions = (unsigned)it->u,
			.arg = it->text};
	} else if (it->kind == FV_ITEM_TEXT && n)
		rows[n - 1].help = it->text;
	else if (it->kind == FV_ITEM_ARRAY)
		table.prefix_order = it->text;
	return 0;
}

/* The value of row i as given, else NULL (a flag's "1"); a list's j-th. */
static const char *given(const struct cli_avb_args *a, size_t i, size_t j)
{
	switch (rows[i].kind) {
	case CLI_FLAG:
		return a->flag[i] ? "1" : NULL;
	case CLI_VALUE:
		return a->value[i];
	case CLI_LIST:
		return j < a->count[i] ? a->list[i][j] : NULL;
	default:
		return NULL;
	}
}

/* Option name's value as given (the last; a flag's "1"), or NULL. */
static const char *opt(const struct cli_avb_args *a, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < table.n && !v; i++)
		if (!strcmp(rows[i].name, name))
			v = given(a, i, 0);
	return v;
}

/* The library's error said; AVB_USAGE for an option's value that is not
 * a number (EDOM), as avbtool's parser refuses it. */
static int avb_error(int r)
{
	int e = cli_lib_error(r);

	return r == -EDOM ? AVB_USAGE : e;
}

/* What the library shows of --image (q: its kind; a's options, --json,
 * --hashtree_disabled), written whole to output (words: what it is;
 * safely, never over the image read), else printed as it comes; nothing
 * when it fails. info_image's then writes --output_pubkey. The exit code
 * (a verify's failed step: EXIT_PARAMS). */
static int avb_show(const struct cli_avb_args *a, struct fv_show_request *q,
		    const char *output, const char *words)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = stdout;
	int r;

	q->size = sizeof(*q);
	q->image = opt(a, "image");
	q->json = !!opt(a, "json");
	q->hashtree_disabled = !!opt(a, "hashtree_disabled");
	if (output && !(f = open_memstream(&text, &len)))
		return cli_error(-ENOMEM, "out of memory");
	q->options = a->pairs;
	q->noptions = a->npairs;
	/* > 0: a verify's step failed, said (avbtool's exit code 1) */
	if ((r = cli_show_to(q, f)))
		r = r > 0 ? EXIT_PARAMS : avb_error(r);
	else if (q->what == FV_SHOW_AVB_INFO && opt(a, "output_pubkey"))
		r = avb_show(
			a,
			&(struct fv_show_request){.what = FV_SHOW_AVB_PUBKEY},
			opt(a, "output_pubkey"), "public key file");
	if (f != stdout) {
		if (r)
			fclose(f);
		else if (fclose(f))
			r = cli_error(-ENOMEM, "out of memory");
		else if (cli_same_storage(output, q->image))
			r = cli_error(-EINVAL,
				      "--output %s: is the input %s: an output "
				      "is never written over what is read",
				      output, q->image);
		else if ((r = cli_output_write(output, words, text, len)))
			r = cli_write_error(r);
		free(text);
	}
	return r;
}

/* The options given to sub as pairs of avbtool's names and values, into
 * a->pairs (to free): first (a->npairs) those the library's requests
 * read, all but those read here (verify_image's key included); then
 * those (to a->nall) for its check of the usage. */
static int pairs(struct cli_avb_args *a, unsigned sub)
{
	size_t max = table.n;

	for (size_t i = 0; i < table.n; i++)
		max += a->count[i];
	if (!(a->pairs = calloc(2 * max, sizeof(*a->pairs))))
		return cli_error(-ENOMEM, "out of memory");
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < table.n; i++) {
			const char *value;

			if (!(rows[i].actions & sub) ||
			    (own[i] || (!strcmp(a->sub, "verify_image") &&
					!strcmp(rows[i].name, "key"))) != pass)
				continue;
			for (size_t j = 0; (value = given(a, i, j)); j++) {
				a->pairs[2 * a->nall] = rows[i].name;
				a->pairs[2 * a->nall++ + 1] = value;
				if (rows[i].kind != CLI_LIST)
					break;
			}
		}
		if (!pass)
			a->npairs = a->nall;
	}
	return 0;
}

/* The library's options of a run: threads, --progress. */
static int run_options(const struct cli_avb_args *a, const char *threads,
		       fv_options *opts, struct cli_progress *bar)
{
	return cli_run_options(
		&(struct cli_opts){.threads = (char *)threads,
				   .progress = !!opt(a, "progress"),
				   .action = a->sub},
		opts, bar);
}

/* verify_image: the vbmeta's signature and signer, then every hash and
 * hashtree descriptor over its image (every block of a tree, and its
 * parity), chain descriptors against --expected_chain_partition or
 * followed. The library reads the expected chains, walks the set and
 * says each step in avbtool's words (FV_SHOW_AVB_VERIFY: one level of
 * chains, stopping at the first failure), or one --json document. */
static int verify(const struct cli_avb_args *a)
{
	struct fv_slot_request set = {
		.size = sizeof(set),
		.image = opt(a, "image"),
		.container = "avb",
		.key = opt(a, "key"),
		.flags = FV_SLOT_CHECK | FV_SLOT_STOP | FV_SLOT_EXPECTED |
			 (opt(a, "follow_chain_partitions") ? FV_SLOT_FOLLOW
							    : 0) |
			 (opt(a, "accept_zeroed_hashtree")
				  ? FV_SLOT_ACCEPT_ZEROED
				  : 0)};
	struct fv_show_request q = {.what = FV_SHOW_AVB_VERIFY, .set = &set};
	struct cli_progress bar = {0};
	fv_options opts;
	int r;

	if (run_options(a, opt(a, "threads"), &opts, &bar))
		return EXIT_PARAMS;
	q.o = &opts;
	r = avb_show(a, &q, NULL, NULL);
	cli_progress_end(&bar);
	/* --json: the error's document when none was printed */
	if (opt(a, "json") && r)
		cli_json_final(r, "verification failed");
	return r;
}

/* avbtool's exit codes: 2 a usage error, 1 every other failure. */
static int avbtool_exit(int r)
{
	return !r ? EXIT_OK : r == AVB_USAGE ? 2 : EXIT_PARAMS;
}

/* Subcommand s on the options in base: 0, or the exit code before
 * avbtool_exit. */
static int run(const struct cli_sub *s, void *base)
{
	/* what the library shows, written to stdout or --output */
	static const struct {
		const char *name;
		enum fv_show_what what;
		const char *words;
	} shows[] = {
		{"info_image", FV_SHOW_AVB_INFO, "image information"},
		{"print_partition_digests", FV_SHOW_AVB_DIGESTS,
		 "partition digests"},
		{"calculate_kernel_cmdline", FV_SHOW_AVB_CMDLINE,
		 "kernel command line"},
		{"calculate_vbmeta_digest", FV_SHOW_AVB_VBMETA_DIGEST,
		 "vbmeta digest"},
		{"extract_vbmeta_image", FV_SHOW_AVB_VBMETA, "vbmeta image"},
	};
	struct cli_avb_args *a = base;
	struct cli_progress bar = {0};
	fv_options opts;
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_USAGE,
				    .args = s->name,
				    .dir = getenv("TMPDIR")};
	int r;

	a->sub = s->name;
	if (!q.dir || !*q.dir) /* avbtool's temporary files' */
		q.dir = "/tmp";
	/* what avbtool's parser refuses before it runs a subcommand: the
	 * library's check */
	if ((r = pairs(a, s->bit)))
		goto out;
	q.options = a->pairs;
	q.noptions = a->nall;
	if ((r = cli_show(&q))) {
		r = avb_error(r);
		goto out;
	}
	for (size_t i = 0; i < sizeof(shows) / sizeof(shows[0]); i++)
		if (!strcmp(shows[i].name, s->name)) {
			r = avb_show(a,
				     &(struct fv_show_request){
					     .what = shows[i].what},
				     opt(a, "output"), shows[i].words);
			goto out;
		}
	if (!strcmp(s->name, "verify_image")) {
		r = verify(a);
		goto out;
	}
	/* the rest run whole; a hash tree's progress shown (--threads: the
	 * library reads it when it gets there) */
	q.what = FV_SHOW_AVB_RUN;
	q.o = &opts;
	run_options(a, NULL, &opts, &bar); /* (without threads: never fails) */
	r = cli_show(&q);
	cli_progress_end(&bar);
	if (r)
		r = avb_error(r);
out:
	/* --json: one document also when the command failed before it
	 * wrote one (docs/json.md): the error's */
	if (r && opt(a, "json") && !cli_json_emitted && !cli_jsonc_load())
		cli_json_final(avbtool_exit(r), "failed");
	free(a->pairs);
	return r;
}

int cli_avb_main(int argc, const char **argv)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_OPTIONS};
	struct cli_avb_args a = {0};
	int r = table.n ? 0 : fv_show(&q, table_item, &group);

	return avbtool_exit(
		r ? cli_lib_error(r)
		  : cli_group_run(&group, argc, argv, &a, NULL, NULL, run));
}
