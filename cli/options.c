/* The option engine and fastverity's actions' table (cli/options.h). */
#include "cli/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"
#include "include/fastverity.h"

#define AT(f)       offsetof(struct cli_opts, f)
#define TEXT(x)     #x
#define NUMBER(x)   TEXT(x)
#define ROOTS_RANGE NUMBER(FV_FEC_MIN_ROOTS) " to " NUMBER(FV_FEC_MAX_ROOTS)
/* open's flags: a bit each of the activation flags */
#define OPEN_FLAG(name, bit, help)                                            \
	{                                                                     \
		name, '\0', CLI_BIT, AT(activation), bit, A_OPEN, NULL, help, \
			0, NULL                                               \
	}

static const struct cli_option rows[] = {
	{"version", 'V', CLI_FLAG, AT(version), 0, A_ALL, NULL,
	 "Print the version and exit", 0, NULL},
	{"verbose", 'v', CLI_FLAG, AT(verbose), 0, A_ALL, NULL,
	 "Say whether the command succeeded", 0, NULL},
	CLI_ROW("debug", CLI_FLAG, AT(debug), 0, A_ALL, NULL,
		"Show debug messages (on stderr), among them the hashing path"),
	CLI_ROW("json", CLI_FLAG, AT(json), 0, A_ALL, NULL,
		"Print one JSON document instead of text"),
	{"hash", 'h', CLI_VALUE, AT(hash), 0, A_TREE | A_BENCH,
	 "{sha256,sha512,sha384,sha224,sha1}",
	 "Hash algorithm (default sha256; any OpenSSL digest)", A_BENCH,
	 "Hash algorithms to measure (default sha256)"},
	{"data-block-size", '\0', CLI_VALUE, AT(data_block_size), 0,
	 A_TREE | A_BENCH, "bytes",
	 "Block size on the data device (default 4096)", A_BENCH,
	 "Data block sizes to measure (default 4096)"},
	{"hash-block-size", '\0', CLI_VALUE, AT(hash_block_size), 0,
	 A_TREE | A_BENCH, "bytes",
	 "Block size on the hash device (default 4096)", A_BENCH,
	 "Hash block sizes to measure (default 4096)"},
	{"data-blocks", '\0', CLI_VALUE, AT(data_blocks), 0, A_TREE, "blocks",
	 "Number of data blocks to protect (default: the whole device)",
	 A_VERIFY | A_REPAIR | A_OPEN | A_UPDATE,
	 "Number of data blocks (with --no-superblock; else the "
	 "superblock's: update takes it said again as leave to ignore the "
	 "rest of a larger data device)"},
	CLI_ROW("hash-offset", CLI_VALUE, AT(hash_offset), 0, A_TREE | A_DUMP,
		"bytes",
		"Byte offset of the hash area on the hash device (multiple of "
		"512)"),
	{"salt", 's', CLI_VALUE, AT(salt), 0, A_TREE, "hex string",
	 "Salt as hex, '-' for none (default: 32 random bytes)",
	 A_VERIFY | A_REPAIR | A_OPEN | A_UPDATE,
	 "Salt as hex, '-' for none (with --no-superblock; else the "
	 "superblock's)"},
	CLI_ROW("uuid", CLI_VALUE, AT(uuid), 0, A_FORMAT, "UUID",
		"UUID for the superblock (default: random)"),
	{"format", '\0', CLI_VALUE, AT(format), 0, A_TREE | A_BENCH, "{1,0}",
	 "Hash type: 1 normal (default), 0 original Chrome OS", A_BENCH,
	 "Hash types to measure (default 1)"},
	{"no-superblock", '\0', CLI_FLAG, AT(no_superblock), 0, A_TREE, NULL,
	 "Do not write a superblock", A_VERIFY | A_REPAIR | A_OPEN | A_UPDATE,
	 "The hash device has no superblock: the tree's parameters are "
	 "given"},
	{"root-hash-file", '\0', CLI_VALUE, AT(root_hash_file), 0,
	 A_TREE | A_SIGN, "path", "File to write the root hash to, as hex",
	 A_VERIFY | A_REPAIR | A_OPEN | A_SIGN,
	 "File holding the root hash as hex"},
	OPEN_FLAG("ignore-corruption", FV_IGNORE_CORRUPTION,
		  "Log corruption, return the data anyway"),
	OPEN_FLAG("restart-on-corruption", FV_RESTART_ON_CORRUPTION,
		  "Restart the machine on corruption"),
	OPEN_FLAG("panic-on-corruption", FV_PANIC_ON_CORRUPTION,
		  "Panic the kernel on corruption"),
	OPEN_FLAG("restart-on-error", FV_RESTART_ON_ERROR,
		  "Restart the machine on an I/O error"),
	OPEN_FLAG("panic-on-error", FV_PANIC_ON_ERROR,
		  "Panic the kernel on an I/O error"),
	CLI_ROW("error-as-corruption", CLI_FLAG, AT(error_as_corruption), 0,
		A_OPEN, NULL,
		"Handle an I/O error as corruption (restart or panic as on "
		"corruption; Linux 6.12)"),
	OPEN_FLAG("shared", FV_SHARED,
		  "Map a data device other verity devices use too"),
	OPEN_FLAG("ignore-zero-blocks", FV_IGNORE_ZERO_BLOCKS,
		  "Do not verify blocks whose digest is that of zeros"),
	OPEN_FLAG("check-at-most-once", FV_CHECK_AT_MOST_ONCE,
		  "Verify each data block only the first time it is read"),
	OPEN_FLAG("use-tasklets", FV_USE_TASKLETS,
		  "Verify in tasklets where the kernel can"),
	{"root-hash-signature", '\0', CLI_VALUE, AT(root_hash_signature), 0,
	 A_VERIFY | A_REPAIR | A_OPEN, "path",
	 "PKCS#7 signature of the root hash, checked before any block is "
	 "read",
	 A_OPEN, "PKCS#7 signature of the root hash, for the kernel to check"},
	{"key", '\0', CLI_VALUE, AT(key), 0,
	 A_SIGN | A_FORMAT | A_VERIFY | A_REPAIR | A_OPEN | A_DUMP, "path",
	 "PEM private key (or pkcs11: URI) to sign the root hash (format: "
	 "with --sidecar)",
	 A_VERIFY | A_REPAIR | A_OPEN | A_DUMP,
	 "Android images: the key the vbmeta must be signed with (RSA PEM, "
	 "ML-DSA PKCS#8/SPKI, or an AVB public-key blob)"},
	CLI_ROW("key-passphrase-file", CLI_VALUE, AT(key_passphrase_file), 0,
		A_SIGN | A_FORMAT, "path",
		"File whose first line is the passphrase of an encrypted key "
		"or a "
		"token's PIN (else asked on the terminal)"),
	CLI_ROW("cert", CLI_VALUE, AT(cert), 0, A_SIGN | A_FORMAT, "path",
		"PEM certificate of that key"),
	CLI_ROW("embed-cert", CLI_FLAG, AT(embed_cert), 0, A_SIGN | A_FORMAT,
		NULL, "Include the signer certificate in the signature"),
	CLI_ROW("trusted-cert", CLI_LIST, AT(trusted_certs), AT(ntrusted),
		A_VERIFY | A_REPAIR | A_OPEN, "path",
		"PEM certificate (or bundle) trusted to sign root hashes; "
		"repeatable"),
	CLI_ROW("partition", CLI_VALUE, AT(partition), 0,
		A_VERIFY | A_REPAIR | A_DUMP | A_OPEN, "name",
		"Disk images: the protected partition to take, root or usr "
		"(default: all; open: root). Super images: the logical "
		"partition "
		"(system, or system_a; default: all; open, repair: required)"),
	CLI_ROW("slot", CLI_VALUE, AT(slot), 0,
		A_VERIFY | A_REPAIR | A_DUMP | A_OPEN, "{a,b}",
		"Super images: the partitions of slot a or b (default: for "
		"each, "
		"the first slot that has it)"),
	CLI_ROW("block-device", CLI_LIST, AT(block_devices), AT(nblock_devices),
		A_VERIFY | A_DUMP | A_OPEN, "name=path",
		"Split super images: the image of block device NAME (default: "
		"NAME.img beside the super image); repeatable"),
	CLI_ROW("container", CLI_VALUE, AT(container), 0,
		A_VERIFY | A_REPAIR | A_DUMP | A_OPEN,
		"{avb,super,ddi,sidecar,plain}",
		"An image given alone: the container to read it as (default: "
		"told "
		"from the image; one that reads two ways is refused)"),
	CLI_ROW("check-crc", CLI_FLAG, AT(check_crc), 0,
		A_VERIFY | A_REPAIR | A_DUMP, NULL,
		"Android sparse images given: check the CRC32 sums they hold "
		"first, as libsparse does"),
	CLI_ROW("ddi-json", CLI_FLAG, AT(ddi_json), 0, A_SIGN, NULL,
		"Write the JSON of a disk image's signature partition (as "
		"systemd-repart writes it) instead of the DER"),
	CLI_ROW("sidecar", CLI_FLAG, AT(sidecar), 0, A_FORMAT, NULL,
		"Format IMAGE: write IMAGE.verity, IMAGE.roothash (and "
		".roothash.p7s with --key, .fec with --fec-roots)"),
	CLI_ROW("deferred", CLI_BIT, AT(close), CLI_CLOSE_DEFERRED, A_CLOSE,
		NULL, "Remove the device when its last user closes it"),
	CLI_ROW("cancel-deferred", CLI_BIT, AT(close), CLI_CLOSE_CANCEL,
		A_CLOSE, NULL, "Cancel a deferred removal"),
	{"fec-device", '\0', CLI_VALUE, AT(fec_device), 0, A_FEC, "path",
	 "Device or file to write the Reed-Solomon parity (FEC) to", A_FEC_READ,
	 "Device or file holding the Reed-Solomon parity (FEC)"},
	CLI_ROW("fec-offset", CLI_VALUE, AT(fec_offset), 0, A_FEC, "bytes",
		"Byte offset of the parity on the FEC device (default 0)"),
	{"fec-roots", '\0', CLI_VALUE, AT(fec_roots), 0, A_FEC, "number",
	 "Parity bytes per 255-byte codeword, " ROOTS_RANGE " (default 2)",
	 A_FEC_READ,
	 "Parity bytes per 255-byte codeword, " ROOTS_RANGE " (default: told "
	 "from "
	 "the parity's size)"},
	CLI_ROW("max-failures", CLI_VALUE, AT(max_failures), 0, A_VERIFY,
		"number", "List at most this many failures (all are counted)"),
	CLI_ROW("dry-run", CLI_BIT, AT(repair), FV_REPAIR_DRY_RUN, A_REPAIR,
		NULL, "Find what can be repaired, write nothing"),
	CLI_ROW("rewrite-parity", CLI_BIT, AT(repair), FV_REPAIR_REWRITE_PARITY,
		A_REPAIR, NULL,
		"Also rewrite parity that disagrees with the verified image "
		"(refused when more than 5% of its codewords do)"),
	CLI_ROW("changed", CLI_VALUE, AT(changed), 0, A_UPDATE,
		"offset:length[,...]|@file",
		"The data byte ranges that changed (widened to whole blocks; "
		"@file: "
		"read from file): only those blocks are read, with the parity "
		"rounds they are in (default: every block hashed against its "
		"stored "
		"leaf). A block changed outside them is not seen nor warned "
		"of: it "
		"keeps its old leaf, and a later repair may revert it"),
	CLI_ROW("threads", CLI_VALUE, AT(threads), 0, A_RUN, "number",
		"Worker threads (default: online CPUs)"),
	CLI_ROW("salt-size", CLI_VALUE, AT(salt_size), 0, A_BENCH, "list",
		"Salt sizes to measure (default 0,32,64,256)"),
	CLI_ROW("time", CLI_VALUE, AT(bench_time), 0, A_BENCH, "seconds",
		"About how long to measure (default 10, or less for a small "
		"--size; "
		"FASTVERITY_BENCH_SECONDS sets the default)"),
	CLI_ROW("size", CLI_VALUE, AT(size), 0, A_BENCH, "bytes",
		"Bytes of data per tree (default 64M, repeated for ~10 s)"),
	CLI_ROW("device", CLI_VALUE, AT(device), 0, A_BENCH, "path",
		"Measure this image or device (read-only) instead of memory"),
	CLI_ROW("csv", CLI_FLAG, AT(csv), 0, A_BENCH, NULL,
		"Print CSV instead of a table"),
	CLI_ROW("progress", CLI_FLAG, AT(progress), 0, A_RUN, NULL,
		"Show progress on stderr even when it is not a terminal"),
	CLI_ROW("no-progress", CLI_FLAG, AT(no_progress), 0, A_RUN, NULL,
		"Never show progress"),
};

const struct cli_table cli_main_options = {
	.command = "fastverity",
	.word = "fastverity",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.usage_exit = EXIT_PARAMS,
	.shorts = 1,
	.sep = '=',
	.width = 34,
};

/* The rows given in this parse; no table has more rows. */
#define MAX_ROWS 128
static unsigned char seen[MAX_ROWS];

static void *at(void *base, size_t field)
{
	return (char *)base + field;
}

/* popt's row for r, its value CLI_SEEN + i. Values of one action's parse
 * are taken one at a time (options_parse), the others straight into
 * their field. */
static void popt_row(const struct cli_option *r, size_t i, void *base,
		     int one_at_a_time, struct poptOption *p)
{
	memset(p, 0, sizeof(*p));
	p->longName = r->name;
	p->shortName = r->short_name;
	p->val = CLI_SEEN + (int)i;
	p->descrip = r->help;
	p->argDescrip = r->arg;
	switch (r->kind) {
	case CLI_FLAG:
		p->argInfo = POPT_ARG_NONE;
		p->arg = at(base, r->field);
		break;
	case CLI_VALUE:
		p->argInfo = POPT_ARG_STRING;
		if (!one_at_a_time)
			p->arg = at(base, r->field);
		break;
	case CLI_LIST:
		p->argInfo = POPT_ARG_ARGV;
		p->arg = at(base, r->field);
		break;
	case CLI_BIT: /* set from what was seen (cli_options_apply) */
		p->argInfo = POPT_ARG_NONE;
		break;
	case CLI_ABSENT:
		p->argInfo = r->arg ? POPT_ARG_STRING : POPT_ARG_NONE;
		break;
	}
}

const struct poptOption *cli_options_popt(const struct cli_table *t, void *base,
					  struct poptOption *help)
{
	/* popt's help first, then the rows and the end */
	static struct poptOption table[1 + MAX_ROWS + 1];

	memset(seen, 0, sizeof(seen));
	memset(table, 0, sizeof(table));
	table[0].argInfo = POPT_ARG_INCLUDE_TABLE;
	table[0].arg = help;
	table[0].descrip = "Help options:";
	for (size_t i = 0; i < t->n && i < MAX_ROWS; i++)
		popt_row(&t->rows[i], i, base, 0, &table[1 + i]);
	return table;
}

void cli_options_saw(int val)
{
	if (val >= CLI_SEEN && val - CLI_SEEN < MAX_ROWS)
		seen[val - CLI_SEEN] = 1;
}

static void count_lists(const struct cli_table *t, void *base)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cli_option *r = &t->rows[i];
		const char **list;
		size_t *count;

		if (r->kind != CLI_LIST || !r->extra)
			continue;
		list = *(const char ***)at(base, r->field);
		count = at(base, r->extra);
		for (*count = 0; list && list[*count];)
			++*count;
	}
}

int cli_options_apply(const struct cli_table *t, void *base,
		      unsigned action_bit, const char *action)
{
	count_lists(t, base);
	for (size_t i = 0; i < t->n && i < MAX_ROWS; i++) {
		const struct cli_option *r = &t->rows[i];

		if (!seen[i])
			continue;
		if (!(r->actions & action_bit))
			return cli_error(-EINVAL,
					 "Option --%s is not allowed with %s "
					 "action.",
					 r->name, action);
		if (r->kind == CLI_BIT)
			*(unsigned *)at(base, r->field) |= (unsigned)r->extra;
	}
	return 0;
}

/* The rank of an option's name in t's prefix_order (after it: its
 * row's). */
static size_t prefix_rank(const struct cli_table *t, const char *name,
			  size_t row)
{
	const char *order = t->prefix_order ? t->prefix_order : "";
	char word[80];
	const char *at;

	snprintf(word, sizeof(word), " %s ", name);
	at = strstr(order, word);
	return at ? (size_t)(at - order) : strlen(order) + 1 + row;
}

/* 1 when row i of t is the first of action_bit's rows named name (a
 * name may have a row per action). */
static int first_of_name(const struct cli_table *t, unsigned action_bit,
			 size_t i)
{
	for (size_t k = 0; k < i; k++)
		if ((t->rows[k].actions & action_bit) &&
		    !strcmp(t->rows[k].name, t->rows[i].name))
			return 0;
	return 1;
}

/* One argument's option as argparse takes it: *full its whole name
 * ("help" included), n its length given; 0, -1 (none: left to popt), or
 * the exit code of an ambiguous one (the message printed). */
static int prefix_of(const struct cli_table *t, unsigned action_bit,
		     const char *sub, const char *arg, size_t n,
		     const struct cli_option **row, const char **full)
{
	struct match {
		const char *name;
		size_t rank, row;
	} m[MAX_ROWS + 1];
	size_t nm = 0, used = 0;
	char list[4096];

	for (size_t i = 0; i <= t->n && i <= MAX_ROWS; i++) {
		const char *name = i < t->n ? t->rows[i].name : "help";
		size_t k;

		if (i < t->n && (!(t->rows[i].actions & action_bit) ||
				 !first_of_name(t, action_bit, i)))
			continue;
		if (strncmp(name, arg + 2, n))
			continue;
		if (strlen(name) == n) { /* exact */
			m[0] = (struct match){name, 0, i};
			nm = 1;
			break;
		}
		/* insertion by rank ("help": argparse adds it first) */
		struct match x = {
			name, i < t->n ? 1 + prefix_rank(t, name, i) : 0, i};

		for (k = nm++; k > 0 && m[k - 1].rank > x.rank; k--)
			m[k] = m[k - 1];
		m[k] = x;
	}
	if (!nm)
		return -1;
	if (nm == 1) {
		*full = m[0].name;
		*row = m[0].row < t->n ? &t->rows[m[0].row] : NULL;
		return 0;
	}
	list[0] = 0;
	for (size_t k = 0; k < nm && used < sizeof(list); k++) {
		int w = snprintf(list + used, sizeof(list) - used, "%s--%s",
				 k ? ", " : "", m[k].name);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	cli_error(-EINVAL, "%s %s: ambiguous option: %s could match %s",
		  t->word, sub, arg, list);
	return t->usage_exit;
}

static void free_argv(char **v, int argc)
{
	for (int i = 0; v && i < argc; i++)
		free(v[i]);
	free(v);
}

/* argv with argparse's abbreviations written out (t->prefixes), into
 * *out (argc strings, each its own: free_argv). 0 or the exit code. */
static int expand_prefixes(const struct cli_table *t, unsigned action_bit,
			   const char *sub, int argc, const char **argv,
			   char ***out)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	int done = 0;

	if (!v)
		return cli_error(-ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *full = NULL;
		const struct cli_option *r = NULL;
		size_t n = strcspn(arg, "="), len;
		int rc;

		if (i == 0 || done || strncmp(arg, "--", 2) || n == 2) {
			done |= i > 0 && !strcmp(arg, "--");
			if (!(v[i] = strdup(arg)))
				goto nomem;
			continue;
		}
		rc = prefix_of(t, action_bit, sub, arg, n - 2, &r, &full);
		if (rc > 0) {
			free_argv(v, argc);
			return rc;
		}
		if (rc < 0) { /* no option of that name: popt's to refuse */
			if (!(v[i] = strdup(arg)))
				goto nomem;
			continue;
		}
		len = 2 + strlen(full) + strlen(arg + n) + 1;
		if (!(v[i] = malloc(len)))
			goto nomem;
		snprintf(v[i], len, "--%s%s", full, arg + n);
		/* its value, the next argument, taken as it is */
		if (r && !arg[n] && i + 1 < argc &&
		    (r->kind == CLI_VALUE || r->kind == CLI_LIST ||
		     (r->kind == CLI_ABSENT && r->arg))) {
			i++;
			if (!(v[i] = strdup(argv[i])))
				goto nomem;
		}
	}
	*out = v;
	return 0;
nomem:
	free_argv(v, argc);
	return cli_error(-ENOMEM, "out of memory");
}

/* The whole command line of one action of t (its bit, its name sub):
 * only its rows are options. 0; -1 after
 * --help (the caller prints it); or the exit code, the message printed.
 * rest: the arguments left (NULL: an argument is refused), an array the
 * caller frees with the values (cli_options_free). */
static int options_parse(const struct cli_table *t, unsigned action_bit,
			 const char *sub, void *base, int argc,
			 const char **argv, const char ***rest)
{
	struct poptOption table[MAX_ROWS + 3];
	unsigned char given[MAX_ROWS] = {0};
	char **expanded = NULL;
	const char **left;
	poptContext pc;
	size_t n = 0, nleft = 0;
	int rc, failed = 0;

	for (size_t i = 0; i < t->n && i < MAX_ROWS; i++)
		if (t->rows[i].actions & action_bit)
			popt_row(&t->rows[i], i, base, 1, &table[n++]);
	memset(&table[n], 0, 3 * sizeof(table[n]));
	table[n].longName = "help";
	table[n].shortName = '?';
	table[n].val = 'h';
	/* argparse's -h too, where its prefixes are taken */
	if (t->prefixes) {
		table[++n].shortName = 'h';
		table[n].val = 'h';
	}
	if (t->prefixes &&
	    (rc = expand_prefixes(t, action_bit, sub, argc, argv, &expanded)))
		return rc;
	pc = poptGetContext(t->command, argc,
			    expanded ? (const char **)expanded : argv, table,
			    0);
	while ((rc = poptGetNextOpt(pc)) > 0) {
		const struct cli_option *r;
		char *v;

		if (rc == 'h') {
			rc = -1;
			goto out;
		}
		r = &t->rows[rc - CLI_SEEN];
		if (t->once && given[rc - CLI_SEEN]++) {
			cli_error(-EINVAL, "%s %s: --%s can only be given once",
				  t->word, sub, r->name);
			rc = t->usage_exit;
		} else if (r->kind == CLI_ABSENT) {
			cli_error(-EINVAL,
				  "%s %s: %s's --%s is not implemented in "
				  "fastverity",
				  t->word, sub, t->anchor, r->name);
			rc = t->absent_exit ? t->absent_exit : t->usage_exit;
		} else if (r->kind == CLI_VALUE) {
			/* the last one given kept */
			if (!(v = poptGetOptArg(pc))) {
				rc = cli_error(-ENOMEM, "out of memory");
				goto out;
			}
			free(*(char **)at(base, r->field));
			*(char **)at(base, r->field) = v;
			continue;
		} else {
			continue;
		}
		goto out;
	}
	if (rc < -1) {
		cli_error(-EINVAL, "%s %s: %s: %s (%s %s --help)", t->word, sub,
			  poptBadOption(pc, POPT_BADOPTION_NOALIAS),
			  poptStrerror(rc), t->command, sub);
		rc = t->usage_exit;
		goto out;
	}
	left = poptGetArgs(pc);
	while (left && left[nleft])
		nleft++;
	if (nleft && !rest) {
		cli_error(-EINVAL, "%s %s: unexpected argument '%s'", t->word,
			  sub, left[0]);
		rc = t->usage_exit;
		goto out;
	}
	if (rest && !(*rest = calloc(nleft + 1, sizeof(**rest))))
		failed = 1;
	for (size_t i = 0; rest && *rest && i < nleft; i++)
		if (!((*rest)[i] = strdup(left[i])))
			failed = 1;
	rc = failed ? cli_error(-ENOMEM, "out of memory") : 0;
	count_lists(t, base);
out:
	poptFreeContext(pc);
	free_argv(expanded, argc);
	return rc;
}

void cli_options_free(const struct cli_table *t, void *base)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cli_option *r = &t->rows[i];

		if (r->kind == CLI_VALUE) {
			free(*(char **)at(base, r->field));
			*(char **)at(base, r->field) = NULL;
		} else if (r->kind == CLI_LIST) {
			char ***list = at(base, r->field);

			for (size_t k = 0; *list && (*list)[k]; k++)
				free((*list)[k]);
			free(*list);
			*list = NULL;
		}
	}
}

static void group_list(const struct cli_group *g, FILE *f)
{
	int w = 0;

	for (size_t i = 0; i < g->n; i++)
		if ((int)strlen(g->subs[i].name) > w)
			w = (int)strlen(g->subs[i].name);
	fprintf(f, "Usage: %s <subcommand> %s\n%s:\n", g->table->command,
		g->usage, g->what);
	for (size_t i = 0; i < g->n; i++)
		fprintf(f, "\t%-*s %s\n", w, g->subs[i].name, g->subs[i].what);
	fprintf(f, "%s <subcommand> --help lists its options.%s\n",
		g->table->command, g->more ? g->more : "");
}

static void group_help(const struct cli_group *g, const struct cli_sub *s)
{
	printf("Usage: %s %s %s\n%s\n\nOptions:\n", g->table->command, s->name,
	       s->usage ? s->usage : g->usage, s->what);
	cli_options_print(g->table, s->bit);
	if (g->trailer)
		fputs(g->trailer, stdout);
}

/* The parse of cli_group_run: 0 and *sub to run; -1 after a help
 * (printed); or the exit code (the message printed). */
static int group_parse(const struct cli_group *g, int argc, const char **argv,
		       void *base, const char ***rest, int *nrest,
		       const struct cli_sub **sub)
{
	const char *word = g->table->word;
	int r;

	*sub = NULL;
	if (nrest)
		*nrest = 0;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-?") ||
	    !strcmp(argv[1], "help")) {
		group_list(g, argc < 2 ? stderr : stdout);
		return argc < 2 ? g->usage_exit : -1;
	}
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(argv[1], g->subs[i].name))
			*sub = &g->subs[i];
	if (!*sub) {
		for (size_t i = 0; g->absent && g->absent[i]; i++)
			if (!strcmp(argv[1], g->absent[i]))
				return cli_error(
					-EINVAL,
					"%s: %s's %s is not implemented "
					"in fastverity",
					word, g->table->anchor, argv[1]);
		if (!g->list_unknown)
			cli_error(-EINVAL,
				  "%s: unknown subcommand '%s' (%s --help "
				  "lists them)",
				  word, argv[1], g->table->command);
		else
			cli_error(-EINVAL, "%s: unknown subcommand '%s'", word,
				  argv[1]);
		if (g->list_unknown)
			group_list(g, stderr); /* (as argparse lists them) */
		return g->usage_exit;
	}
	r = options_parse(g->table, (*sub)->bit, (*sub)->name, base, argc - 1,
			  argv + 1, rest);
	while (nrest && rest && *rest && (*rest)[*nrest])
		(*nrest)++;
	if (r < 0)
		group_help(g, *sub);
	return r;
}

int cli_group_run(const struct cli_group *g, int argc, const char **argv,
		  void *base, const char ***rest, int *nrest,
		  int (*run)(const struct cli_sub *sub, void *base))
{
	const struct cli_sub *s;
	int r = group_parse(g, argc, argv, base, rest, nrest, &s);

	r = r < 0 ? EXIT_OK : r ? r : run(s, base);
	cli_options_free(g->table, base);
	for (int i = 0; rest && *rest && i < *nrest; i++)
		free((char *)(*rest)[i]);
	if (rest)
		free(*rest);
	return r;
}

void cli_options_print(const struct cli_table *t, unsigned action_bit)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cli_option *r = &t->rows[i];
		const char *help = r->help;
		char left[256], sep[2] = {t->sep, 0};
		char shrt[5] = {'-', r->short_name, ',', ' ', 0};
		int n;

		if (r->kind == CLI_ABSENT ||
		    (action_bit && !(r->actions & action_bit)))
			continue;
		if (action_bit && (r->other_actions & action_bit))
			help = r->other_help;
		n = snprintf(left, sizeof(left), "%s--%s%s%s",
			     !t->shorts      ? ""
			     : r->short_name ? shrt
					     : "    ",
			     r->name, r->arg ? sep : "", r->arg ? r->arg : "");
		/* a long left column: the help on a line of its own */
		if (n > t->width)
			printf("  %s\n  %-*s %s\n", left, t->width, "", help);
		else
			printf("  %-*s %s\n", t->width, left, help);
	}
}
/* Levenshtein distance of a and b (at most 64 characters each; longer
 * ones count as far). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[65], cur[65];

	if (la > 64 || lb > 64)
		return 64;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins)
					   : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(prev[0]));
	}
	return prev[lb];
}

const char *cli_options_nearest(const struct cli_table *t, const char *given)
{
	char name[65];
	const char *best = NULL, *prefix = NULL;
	size_t best_d = 3, n, prefixes = 0;

	while (*given == '-')
		given++;
	n = strcspn(given, "=");
	if (!n || n >= sizeof(name))
		return NULL;
	memcpy(name, given, n);
	name[n] = 0;
	for (size_t i = 0; i < t->n; i++) {
		const char *row = t->rows[i].name;
		size_t d = distance(name, row);

		if (d < best_d) {
			best_d = d;
			best = row;
		}
		if (!strncmp(row, name, n)) {
			prefix = row;
			prefixes++;
		}
	}
	return best ? best : prefixes == 1 ? prefix : NULL;
}
