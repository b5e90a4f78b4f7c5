/* fastverity: a drop-in for veritysetup's format, verify and dump. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <popt.h>

#include "hashtree/sha256.h"
#include "cli.h"

static struct cli_opts opts;

static void print_actions(FILE *f);
struct action;
static void print_help(const struct action *act);

/* --help also lists the actions, as veritysetup's does. */
static void help_callback(poptContext pc, enum poptCallbackReason reason,
			  const struct poptOption *key, const char *arg,
			  void *data)
{
	(void)reason;
	(void)arg;
	(void)data;
	if (key->shortName == '?') {
		print_help(NULL);
	} else {
		poptPrintUsage(pc, stdout, 0);
	}
	poptFreeContext(pc);
	exit(EXIT_OK);
}

static struct poptOption help_options[] = {
	{NULL, '\0', POPT_ARG_CALLBACK, (void *)help_callback, 0, NULL, NULL},
	{"help", '?', POPT_ARG_NONE, NULL, 0, "Show this help message", NULL},
	{"usage", '\0', POPT_ARG_NONE, NULL, 0, "Display brief usage", NULL},
	POPT_TABLEEND};

/* Which actions take which options: the one table the refusal of
 * others, the per-action help and the completion come from. */
enum {
	A_FORMAT = 1u << 0,
	A_VERIFY = 1u << 1,
	A_REPAIR = 1u << 2,
	A_SIGN = 1u << 3,
	A_DUMP = 1u << 4,
	A_OPEN = 1u << 5,
	A_CLOSE = 1u << 6,
	A_STATUS = 1u << 7,
	A_BENCH = 1u << 8,
	A_ALL = (1u << 9) - 1,
	/* the tree's parameters, given to every action that reads a tree */
	A_TREE = A_FORMAT | A_VERIFY | A_REPAIR | A_OPEN,
	A_RUN = A_FORMAT | A_VERIFY | A_REPAIR | A_BENCH,
	A_FEC = A_FORMAT | A_VERIFY | A_REPAIR | A_DUMP | A_OPEN,
};

static const struct {
	const char *name;
	unsigned actions;
} option_scope[] = {
	{"version", A_ALL},
	{"verbose", A_ALL},
	{"debug", A_ALL},
	{"json", A_ALL},
	{"hash", A_TREE | A_BENCH},
	{"data-block-size", A_TREE | A_BENCH},
	{"hash-block-size", A_TREE | A_BENCH},
	{"data-blocks", A_TREE},
	{"hash-offset", A_TREE | A_DUMP},
	{"salt", A_TREE},
	{"uuid", A_FORMAT},
	{"format", A_TREE | A_BENCH},
	{"no-superblock", A_TREE},
	{"root-hash-file", A_TREE | A_SIGN},
	{"ignore-corruption", A_OPEN},
	{"restart-on-corruption", A_OPEN},
	{"panic-on-corruption", A_OPEN},
	{"restart-on-error", A_OPEN},
	{"panic-on-error", A_OPEN},
	{"ignore-zero-blocks", A_OPEN},
	{"check-at-most-once", A_OPEN},
	{"use-tasklets", A_OPEN},
	{"root-hash-signature", A_VERIFY | A_REPAIR | A_OPEN},
	{"key", A_SIGN | A_FORMAT},
	{"cert", A_SIGN | A_FORMAT},
	{"key-passphrase-file", A_SIGN | A_FORMAT},
	{"embed-cert", A_SIGN | A_FORMAT},
	{"trusted-cert", A_VERIFY | A_REPAIR},
	{"sidecar", A_FORMAT},
	{"deferred", A_CLOSE},
	{"cancel-deferred", A_CLOSE},
	{"fec-device", A_FEC},
	{"fec-offset", A_FEC},
	{"fec-roots", A_FEC},
	{"max-failures", A_VERIFY},
	{"dry-run", A_REPAIR},
	{"rewrite-parity", A_REPAIR},
	{"threads", A_RUN},
	{"salt-size", A_BENCH},
	{"size", A_BENCH},
	{"device", A_BENCH},
	{"csv", A_BENCH},
	{"progress", A_RUN},
	{"no-progress", A_RUN},
};

static unsigned scope_of(const char *name)
{
	for (size_t i = 0; i < sizeof(option_scope) / sizeof(option_scope[0]);
	     i++)
		if (!strcmp(option_scope[i].name, name))
			return option_scope[i].actions;
	return 0;
}

static struct poptOption option_table[] = {
	{NULL, '\0', POPT_ARG_INCLUDE_TABLE, help_options, 0,
	 "Help options:", NULL},
	{"version", 'V', POPT_ARG_NONE, &opts.version, 0,
	 "Print the version and exit", NULL},
	{"verbose", 'v', POPT_ARG_NONE, &opts.verbose, 0,
	 "Say whether the command succeeded", NULL},
	{"debug", '\0', POPT_ARG_NONE, &opts.debug, 0,
	 "Show debug messages (on stderr), among them the hashing path", NULL},
	{"json", '\0', POPT_ARG_NONE, &opts.json, 0,
	 "Print one JSON document instead of text", NULL},
	{"hash", 'h', POPT_ARG_STRING, &opts.hash, 0,
	 "Hash algorithm (default sha256)", "string"},
	{"data-block-size", '\0', POPT_ARG_STRING, &opts.data_block_size, 0,
	 "Block size on the data device (default 4096)", "bytes"},
	{"hash-block-size", '\0', POPT_ARG_STRING, &opts.hash_block_size, 0,
	 "Block size on the hash device (default 4096)", "bytes"},
	{"data-blocks", '\0', POPT_ARG_STRING, &opts.data_blocks, 0,
	 "Number of data blocks to protect (default: the whole device)",
	 "blocks"},
	{"hash-offset", '\0', POPT_ARG_STRING, &opts.hash_offset, 0,
	 "Byte offset of the hash area on the hash device (multiple of 512)",
	 "bytes"},
	{"salt", 's', POPT_ARG_STRING, &opts.salt, 0,
	 "Salt as hex, '-' for none (default: 32 random bytes)", "hex string"},
	{"uuid", '\0', POPT_ARG_STRING, &opts.uuid, 0,
	 "UUID for the superblock (default: random)", "UUID"},
	{"format", '\0', POPT_ARG_STRING, &opts.format, 0,
	 "Hash type: 1 normal (default), 0 original Chrome OS", "number"},
	{"no-superblock", '\0', POPT_ARG_NONE, &opts.no_superblock, 0,
	 "Do not write or read a superblock", NULL},
	{"root-hash-file", '\0', POPT_ARG_STRING, &opts.root_hash_file, 0,
	 "File holding the root hash as hex", "path"},
	{"ignore-corruption", '\0', POPT_ARG_NONE, &opts.ignore_corruption, 0,
	 "open: log corruption, return the data anyway", NULL},
	{"restart-on-corruption", '\0', POPT_ARG_NONE,
	 &opts.restart_on_corruption, 0,
	 "open: restart the machine on corruption", NULL},
	{"panic-on-corruption", '\0', POPT_ARG_NONE, &opts.panic_on_corruption,
	 0, "open: panic the kernel on corruption", NULL},
	{"restart-on-error", '\0', POPT_ARG_NONE, &opts.restart_on_error, 0,
	 "open: restart the machine on an I/O error", NULL},
	{"panic-on-error", '\0', POPT_ARG_NONE, &opts.panic_on_error, 0,
	 "open: panic the kernel on an I/O error", NULL},
	{"ignore-zero-blocks", '\0', POPT_ARG_NONE, &opts.ignore_zero_blocks, 0,
	 "open: do not verify blocks whose digest is that of zeros", NULL},
	{"check-at-most-once", '\0', POPT_ARG_NONE, &opts.check_at_most_once, 0,
	 "open: verify each data block only the first time it is read", NULL},
	{"use-tasklets", '\0', POPT_ARG_NONE, &opts.use_tasklets, 0,
	 "open: verify in tasklets where the kernel can", NULL},
	{"root-hash-signature", '\0', POPT_ARG_STRING,
	 &opts.root_hash_signature, 0,
	 "PKCS#7 signature of the root hash (verify and repair check it, open "
	 "gives it to the kernel)",
	 "path"},
	{"key", '\0', POPT_ARG_STRING, &opts.key, 0,
	 "sign, format --sidecar: PEM private key to sign the root hash",
	 "path"},
	{"key-passphrase-file", '\0', POPT_ARG_STRING,
	 &opts.key_passphrase_file, 0,
	 "sign, format --sidecar: file whose first line is the passphrase of "
	 "an encrypted key (else asked on the terminal)",
	 "path"},
	{"cert", '\0', POPT_ARG_STRING, &opts.cert, 0,
	 "sign, format --sidecar: PEM certificate of that key", "path"},
	{"embed-cert", '\0', POPT_ARG_NONE, &opts.embed_cert, 0,
	 "sign: include the signer certificate in the signature", NULL},
	{"trusted-cert", '\0', POPT_ARG_ARGV, &opts.trusted_certs, 0,
	 "verify, repair: PEM certificate (or bundle) trusted to sign root "
	 "hashes; repeatable",
	 "path"},
	{"sidecar", '\0', POPT_ARG_NONE, &opts.sidecar, 0,
	 "format IMAGE: write IMAGE.verity, IMAGE.roothash (and .roothash.p7s "
	 "with --key, .fec with --fec-roots)",
	 NULL},
	{"deferred", '\0', POPT_ARG_NONE, &opts.deferred, 0,
	 "close: remove the device when its last user closes it", NULL},
	{"cancel-deferred", '\0', POPT_ARG_NONE, &opts.cancel_deferred, 0,
	 "close: cancel a deferred removal", NULL},
	{"fec-device", '\0', POPT_ARG_STRING, &opts.fec_device, 0,
	 "Device or file holding the Reed-Solomon parity (FEC)", "path"},
	{"fec-offset", '\0', POPT_ARG_STRING, &opts.fec_offset, 0,
	 "Byte offset of the parity on the FEC device (default 0)", "bytes"},
	{"fec-roots", '\0', POPT_ARG_STRING, &opts.fec_roots, 0,
	 "Parity bytes per 255-byte codeword, 2 to 24 (format: default 2; "
	 "otherwise told from the FEC device's size)",
	 "number"},
	{"max-failures", '\0', POPT_ARG_STRING, &opts.max_failures, 0,
	 "verify: list at most this many failures (all are counted)", "number"},
	{"dry-run", '\0', POPT_ARG_NONE, &opts.dry_run, 0,
	 "repair: find what can be repaired, write nothing", NULL},
	{"rewrite-parity", '\0', POPT_ARG_NONE, &opts.rewrite_parity, 0,
	 "repair: also rewrite parity that disagrees with the verified image "
	 "(refused when more than 5% of its codewords do)",
	 NULL},
	{"threads", '\0', POPT_ARG_STRING, &opts.threads, 0,
	 "Worker threads (default: online CPUs)", "number"},
	{"salt-size", '\0', POPT_ARG_STRING, &opts.salt_size, 0,
	 "bench: salt sizes to measure (default 0,32,64,256)", "list"},
	{"size", '\0', POPT_ARG_STRING, &opts.size, 0,
	 "bench: bytes of data per tree (default 64M, repeated for ~10 s)",
	 "bytes"},
	{"device", '\0', POPT_ARG_STRING, &opts.device, 0,
	 "bench: measure this image or device (read-only) instead of memory",
	 "path"},
	{"csv", '\0', POPT_ARG_NONE, &opts.csv, 0,
	 "bench: print CSV instead of a table", NULL},
	{"progress", '\0', POPT_ARG_NONE, &opts.progress, 0,
	 "Show progress on stderr even when it is not a terminal", NULL},
	{"no-progress", '\0', POPT_ARG_NONE, &opts.no_progress, 0,
	 "Never show progress", NULL},
	POPT_TABLEEND};

struct action {
	const char *name;
	int (*run)(struct cli_opts *o);
	const char *args;
	const char *what;
	unsigned bit; /* for the option table below */
};

static const struct action actions[] = {
	{"format", cmd_format, "<data_device> <hash_device>",
	 "build the hash tree and superblock", A_FORMAT},
	{"verify", cmd_verify,
	 "<data_device> <hash_device> [<root_hash>] | <image>",
	 "check every block offline (one argument: systemd's sidecar files)",
	 A_VERIFY},
	{"repair", cmd_repair,
	 "<data_device> <hash_device> [<root_hash>] --fec-device=<fec> | "
	 "<image>",
	 "rebuild bad blocks from the FEC parity, writing only blocks the "
	 "tree proves (one argument: the sidecar files and <image>.fec)",
	 A_REPAIR},
	{"sign", cmd_sign, "<root_hash> <out.p7s>|-",
	 "sign a root hash (--key, --cert) for the kernel and for verify "
	 "('-': to standard output)",
	 A_SIGN},
	{"dump", cmd_dump, "<hash_device>", "show the superblock", A_DUMP},
	{"open", cmd_open, "<data_device> <name> <hash_device> [<root_hash>]",
	 "map a verified read-only device as /dev/mapper/<name>", A_OPEN},
	{"create", cmd_create, "<name> <data_device> <hash_device> <root_hash>",
	 "the same, in the old argument order", A_OPEN},
	{"close", cmd_close, "<name>", "remove the mapping", A_CLOSE},
	{"remove", cmd_close, "<name>", "the same as close", A_CLOSE},
	{"status", cmd_status, "<name>", "show an active device", A_STATUS},
	{"bench", cmd_bench, "",
	 "measure hashing and tree settings on this machine (--hash, "
	 "--salt-size, "
	 "--data-block-size, --hash-block-size, --format take lists)",
	 A_BENCH},
};

static void print_actions(FILE *f)
{
	fputs("\n<action> is one of:\n", f);
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		fprintf(f, "\t%s %s - %s\n", actions[i].name, actions[i].args,
			actions[i].what);
	fputs("\thelp [<action>] - this help, or one action's synopsis and "
	      "options\n",
	      f);
	fputs("\n<data_device> is the image or device to protect\n"
	      "<hash_device> is the image or device holding the hash tree\n"
	      "<root_hash> is the hex digest of the top of the tree\n"
	      "\nDefaults: hash sha256, data and hash blocks 4096 bytes, "
	      "salt 32 random bytes, format 1.\n",
	      f);
}

/* The options of one action (act NULL: all), one line each, from the
 * option table and its scope. */
static void print_options(const struct action *act)
{
	for (size_t i = 1; option_table[i].longName; i++) {
		const struct poptOption *o = &option_table[i];
		char left[64];

		if (act && !(scope_of(o->longName) & act->bit))
			continue;
		snprintf(left, sizeof(left), "%c%c%s--%s%s%s",
			 o->shortName ? '-' : ' ',
			 o->shortName ? o->shortName : ' ',
			 o->shortName ? ", " : "  ", o->longName,
			 o->argDescrip ? "=" : "",
			 o->argDescrip ? o->argDescrip : "");
		printf("  %-34s %s\n", left, o->descrip);
	}
	printf("  %-34s %s\n", "-?, --help", "Show this help message");
	if (!act)
		printf("  %-34s %s\n", "    --usage", "Display brief usage");
}

static void print_help(const struct action *act)
{
	if (!act) {
		printf("fastverity %s\n"
		       "Usage: fastverity [OPTION...] <action> "
		       "<action-specific>\n\nOptions (each action takes "
		       "only its own: fastverity <action> --help):\n",
		       FASTVERITY_VERSION);
		print_options(NULL);
		print_actions(stdout);
		return;
	}
	printf("Usage: fastverity [OPTION...] %s %s\n%s\n\nOptions:\n",
	       act->name, act->args, act->what);
	print_options(act);
}

static const char *failure_text(int code)
{
	switch (code) {
	case EXIT_VERIFY:
		return "verification failed";
	case EXIT_NOMEM:
		return "out of memory";
	case EXIT_NODEV:
		return "wrong device or file specified";
	case EXIT_BUSY:
		return "device already exists or device is busy";
	default:
		return "wrong or missing parameters";
	}
}

/* stdout, checked once at the end as coreutils do: a root hash written to
 * a full disk or a closed pipe is an error, not a success. */
static int stdout_checked;

static int close_stdout(int rc)
{
	int bad;

	if (stdout_checked)
		return rc;
	stdout_checked = 1;
	bad = fflush(stdout) != 0 || ferror(stdout);
	if (fclose(stdout) != 0)
		bad = 1;
	if (!bad)
		return rc;
	fprintf(stderr, "fastverity: write error on standard output: %s\n",
		errno ? strerror(errno) : "unknown error");
	return rc == EXIT_OK ? EXIT_PARAMS : rc;
}

/* popt's --help and --usage exit by themselves */
static void close_stdout_at_exit(void)
{
	if (!stdout_checked && close_stdout(EXIT_OK) != EXIT_OK)
		_exit(EXIT_PARAMS);
}

static int run(int argc, const char **argv);

int cli_main(int argc, const char **argv)
{
	int rc;

	/* fresh state for each call (the command-line fuzzer calls it
	 * many times in one process) */
	memset(&opts, 0, sizeof(opts));
	cli_json_emitted = 0;
	free(cli_last_error);
	cli_last_error = NULL;
	rc = run(argc, argv);
	/* --json: exactly one document, whatever happened */
	if (opts.json)
		cli_json_final(rc, failure_text(rc));
	return rc;
}

#ifndef FASTVERITY_NO_MAIN
int main(int argc, const char **argv)
{
	atexit(close_stdout_at_exit);
	return close_stdout(cli_main(argc, argv));
}
#endif

#define OPT_SEEN    1000
#define MAX_OPTIONS 128
static unsigned char seen[MAX_OPTIONS];
static int help_asked;

/* "help [ACTION]", or --help / -? with an action among the arguments:
 * the action to describe (NULL, with help_asked set, for all). */
static const struct action *find_action(const char *name)
{
	for (size_t k = 0; k < sizeof(actions) / sizeof(actions[0]); k++)
		if (!strcmp(name, actions[k].name))
			return &actions[k];
	return NULL;
}

static const struct action *help_request(int argc, const char **argv)
{
	const struct action *act = NULL;
	int help = 0, words = 0, after_help = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-?")) {
			help = 1;
			continue;
		}
		if (argv[i][0] == '-')
			continue;
		if (words++ == 0) {
			if (!strcmp(argv[i], "help"))
				help = after_help = 1;
			else
				act = find_action(argv[i]);
		} else if (after_help && !act) {
			act = find_action(argv[i]);
		}
	}
	help_asked = help && !act;
	return help ? act : NULL;
}

static int run(int argc, const char **argv)
{
	poptContext pc;
	const char *name;
	const struct action *act = NULL;
	int rc;

	if ((act = help_request(argc, argv)) != NULL || help_asked) {
		print_help(act);
		return EXIT_OK;
	}
	/* each option reports itself, so that the action's table can judge
	 * it */
	for (size_t i = 1; option_table[i].longName; i++)
		option_table[i].val = OPT_SEEN + (int)i;
	memset(seen, 0, sizeof(seen));
	pc = poptGetContext("fastverity", argc, argv, option_table, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] <action> <action-specific>");
	while ((rc = poptGetNextOpt(pc)) > 0)
		if (rc > OPT_SEEN && rc - OPT_SEEN < MAX_OPTIONS)
			seen[rc - OPT_SEEN] = 1;
	if (rc < -1) {
		cli_error(-EINVAL, "%s: %s",
			  poptBadOption(pc, POPT_BADOPTION_NOALIAS),
			  poptStrerror(rc));
		poptPrintUsage(pc, stderr, 0);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	if (opts.version) {
		/* the first line as veritysetup's; then what hashes here */
		printf("fastverity %s\n%s\nSHA-256 on this CPU: %s\n",
		       FASTVERITY_VERSION, OpenSSL_version(OPENSSL_VERSION),
		       sha256_kernel_name(
			       sha256_kernel_choose(cli_sha256_choice())));
		poptFreeContext(pc);
		return EXIT_OK;
	}
	name = poptGetArg(pc);
	if (!name) {
		poptPrintUsage(pc, stderr, 0);
		cli_error(-EINVAL, "an action is required");
		print_actions(stderr);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	act = find_action(name);
	if (!act) {
		cli_error(-EINVAL, "unknown action '%s'", name);
		print_actions(stderr);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	for (size_t i = 1; option_table[i].longName; i++) {
		if (!seen[i] || scope_of(option_table[i].longName) & act->bit)
			continue;
		cli_error(-EINVAL, "Option --%s is not allowed with %s action.",
			  option_table[i].longName, act->name);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	opts.action = act->name;
	opts.args = poptGetArgs(pc);
	while (opts.args && opts.args[opts.nargs])
		opts.nargs++;
	while (opts.trusted_certs && opts.trusted_certs[opts.ntrusted])
		opts.ntrusted++;
	cli_debug(&opts, "fastverity %s: running command %s.",
		  FASTVERITY_VERSION, act->name);
	rc = act->run(&opts);
	if (opts.verbose && !opts.json) {
		if (rc == EXIT_OK)
			printf("Command successful.\n");
		else
			printf("Command failed with code -%d (%s).\n", rc,
			       failure_text(rc));
	}
	poptFreeContext(pc);
	return rc;
}
