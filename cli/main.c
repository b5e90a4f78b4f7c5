/* fastverity: a drop-in for veritysetup's format, verify and dump. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <popt.h>

#include "cli.h"

static struct cli_opts opts;

static void print_actions(FILE *f);

/* --help also lists the actions, as veritysetup's does. */
static void help_callback(poptContext pc, enum poptCallbackReason reason,
			  const struct poptOption *key, const char *arg,
			  void *data)
{
	(void)reason;
	(void)arg;
	(void)data;
	if (key->shortName == '?') {
		printf("fastverity %s\n", FASTVERITY_VERSION);
		poptPrintHelp(pc, stdout, 0);
		print_actions(stdout);
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
	 "Print one JSON object instead of text (format, verify, dump)", NULL},
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
	 "open: PKCS#7 signature of the root hash, checked by the kernel",
	 "path"},
	{"key", '\0', POPT_ARG_STRING, &opts.key, 0,
	 "sign, format --sidecar: PEM private key to sign the root hash",
	 "path"},
	{"cert", '\0', POPT_ARG_STRING, &opts.cert, 0,
	 "sign, format --sidecar: PEM certificate of that key", "path"},
	{"embed-cert", '\0', POPT_ARG_NONE, &opts.embed_cert, 0,
	 "sign: include the signer certificate in the signature", NULL},
	{"trusted-cert", '\0', POPT_ARG_ARGV, &opts.trusted_certs, 0,
	 "verify: PEM certificate (or bundle) trusted to sign root hashes; "
	 "repeatable",
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
	 "Parity bytes per 255-byte codeword, 2 to 24 (default 2)", "number"},
	{"max-failures", '\0', POPT_ARG_STRING, &opts.max_failures, 0,
	 "verify: list at most this many failures (all are counted)", "number"},
	{"dry-run", '\0', POPT_ARG_NONE, &opts.dry_run, 0,
	 "repair: find what can be repaired, write nothing", NULL},
	{"threads", '\0', POPT_ARG_STRING, &opts.threads, 0,
	 "Worker threads for format and verify (default: online CPUs)",
	 "number"},
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
};

static const struct action actions[] = {
	{"format", cmd_format, "<data_device> <hash_device>",
	 "build the hash tree and superblock"},
	{"verify", cmd_verify,
	 "<data_device> <hash_device> [<root_hash>] | <image>",
	 "check every block offline (one argument: systemd's sidecar files)"},
	{"repair", cmd_repair,
	 "<data_device> <hash_device> [<root_hash>] --fec-device=<fec> | "
	 "<image>",
	 "rebuild bad blocks from the FEC parity, writing only blocks the "
	 "tree proves (one argument: the sidecar files and <image>.fec)"},
	{"sign", cmd_sign, "<root_hash> <out.p7s>",
	 "sign a root hash (--key, --cert) for the kernel and for verify"},
	{"dump", cmd_dump, "<hash_device>", "show the superblock"},
	{"open", cmd_open, "<data_device> <name> <hash_device> [<root_hash>]",
	 "map a verified read-only device as /dev/mapper/<name>"},
	{"create", cmd_create, "<name> <data_device> <hash_device> <root_hash>",
	 "the same, in the old argument order"},
	{"close", cmd_close, "<name>", "remove the mapping"},
	{"remove", cmd_close, "<name>", "the same as close"},
	{"status", cmd_status, "<name>", "show an active device"},
	{"bench", cmd_bench, "",
	 "measure hashing and tree settings on this machine (--hash, "
	 "--salt-size, "
	 "--data-block-size, --hash-block-size, --format take lists)"},
};

static void print_actions(FILE *f)
{
	fputs("\n<action> is one of:\n", f);
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		fprintf(f, "\t%s %s - %s\n", actions[i].name, actions[i].args,
			actions[i].what);
	fputs("\n<data_device> is the image or device to protect\n"
	      "<hash_device> is the image or device holding the hash tree\n"
	      "<root_hash> is the hex digest of the top of the tree\n"
	      "\nDefaults: hash sha256, data and hash blocks 4096 bytes, "
	      "salt 32 random bytes, format 1.\n",
	      f);
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

/* The data is read through a mapping; if the file shrinks meanwhile, the
 * access faults. Say so in one line instead of dying on the signal: the
 * line is made before the action runs, and only the first faulting
 * thread writes it, in one write. */
static char sigbus_line[PATH_MAX + 96];
static size_t sigbus_len;
static atomic_flag sigbus_once = ATOMIC_FLAG_INIT;

static void sigbus_handler(int sig)
{
	(void)sig;
	if (atomic_flag_test_and_set(&sigbus_once))
		for (;;)
			pause(); /* the first thread exits for all */
	if (cli_progress_visible && write(STDERR_FILENO, "\r\033[K", 4) < 0)
		_exit(EXIT_PARAMS);
	if (write(STDERR_FILENO, sigbus_line, sigbus_len) < 0)
		_exit(EXIT_PARAMS);
	_exit(EXIT_PARAMS);
}

static void sigbus_prepare(void)
{
	const char *name = opts.nargs > 0 ? opts.args[0] : "data device";
	int n = snprintf(sigbus_line, sizeof(sigbus_line),
			 "fastverity: %s: the file shrank while it was being "
			 "read\n",
			 name);

	sigbus_len = n < 0 ? 0
		     : (size_t)n < sizeof(sigbus_line)
			     ? (size_t)n
			     : sizeof(sigbus_line) - 1;
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

static int run(int argc, const char **argv)
{
	struct sigaction sa;
	poptContext pc;
	const char *name;
	const struct action *act = NULL;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigbus_handler;
	sigaction(SIGBUS, &sa, NULL);
	pc = poptGetContext("fastverity", argc, argv, option_table, 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] <action> <action-specific>");
	while ((rc = poptGetNextOpt(pc)) > 0)
		;
	if (rc < -1) {
		cli_error(-EINVAL, "%s: %s",
			  poptBadOption(pc, POPT_BADOPTION_NOALIAS),
			  poptStrerror(rc));
		poptPrintUsage(pc, stderr, 0);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	if (opts.version) {
		printf("fastverity %s\n", FASTVERITY_VERSION);
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
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(name, actions[i].name))
			act = &actions[i];
	if (!act) {
		cli_error(-EINVAL, "unknown action '%s'", name);
		print_actions(stderr);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	opts.args = poptGetArgs(pc);
	while (opts.args && opts.args[opts.nargs])
		opts.nargs++;
	while (opts.trusted_certs && opts.trusted_certs[opts.ntrusted])
		opts.ntrusted++;
	sigbus_prepare();
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
