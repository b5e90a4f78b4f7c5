/* fastverity: the command. Parses the options (cli/options.c), picks the
 * action and runs it; veritysetup's exit codes. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <popt.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/jsonc.h"
#include "cli/pair.h"
#include "cli/cli.h"
#include "cli/params.h"
#include "cli/options.h"
#include "include/fastverity.h"

static struct cli_opts opts;

struct action {
	const char *name;
	int (*run)(struct cli_opts *o);
	const char *args;
	const char *what;
	unsigned bit; /* for the option table below */
	const char *exits, *examples[2];
};

/* An action: its name, what runs it, its bit in the option table, its
 * arguments and what it does; what help ACTION adds after the options:
 * its exit codes and two examples. */
#define ACTION(name, run, bit, args, what, exits, ...) \
	{                                              \
		name, run, args, what, bit, exits,     \
		{                                      \
			__VA_ARGS__                    \
		}                                      \
	}
static const struct action actions[] = {
	ACTION("format", cmd_format, A_FORMAT, "<data_device> <hash_device>",
	       "build the hash tree and superblock",
	       "0 made; 1 bad parameters, an output over an input, I/O",
	       "fastverity format rootfs.img rootfs.verity "
	       "--root-hash-file=rootfs.roothash",
	       "fastverity format disk.img disk.img --hash-offset=$((256 << "
	       "20)) --data-blocks=65536"),
	ACTION("update", cmd_update, A_UPDATE,
	       "<data_device> <hash_device> <old_root_hash>",
	       "after data blocks changed, rewrite only the tree blocks and "
	       "parity they reach (byte-identical with a new format)",
	       "0 updated; 1 bad parameters, I/O, data grown past the tree; "
	       "2 the old tree does not match the old root hash (a wrong "
	       "root hash, a damaged tree, or one an interrupted update "
	       "rewrote over the change: complete that one without "
	       "--changed), or an interrupted update was from another: "
	       "nothing written",
	       "fastverity update rootfs.img rootfs.verity \"$OLD_ROOT\" "
	       "--changed=1048576:4096 --root-hash-file=rootfs.roothash",
	       "fastverity update rootfs.img rootfs.verity \"$OLD_ROOT\" "
	       "--fec-device=rootfs.fec   # finds the changed blocks"),
	ACTION("verify", cmd_verify, A_VERIFY,
	       "<data_device> <hash_device> [<root_hash>] | <image>",
	       "check every block offline (one argument: an Android image, "
	       "a systemd disk image, or an image with systemd's sidecar "
	       "files)",
	       "0 intact; 1 bad parameters, a wrong root hash, I/O; 2 a bad "
	       "block, or a signature that does not hold",
	       "fastverity verify rootfs.img rootfs.verity "
	       "--root-hash-file=rootfs.roothash",
	       "fastverity verify system.img --key signing.pem   # an "
	       "Android image"),
	ACTION("repair", cmd_repair, A_REPAIR,
	       "<data_device> <hash_device> [<root_hash>] "
	       "--fec-device=<fec> | <image>",
	       "rebuild bad blocks from the FEC parity, writing only blocks "
	       "the tree proves (one argument: an Android image and its own "
	       "parity, or the sidecar files and <image>.fec)",
	       "0 repaired (or nothing to repair); 1 bad parameters, I/O; 2 "
	       "blocks left bad",
	       "fastverity repair rootfs.img rootfs.verity "
	       "--root-hash-file=rootfs.roothash --fec-device=rootfs.fec",
	       "fastverity repair --dry-run os.raw --trusted-cert=signing.crt"),
	ACTION("sign", cmd_sign, A_SIGN, "<root_hash> <out.p7s>|-",
	       "sign a root hash (--key, --cert) for the kernel and for "
	       "verify ('-': to standard output)",
	       "0 signed; 1 a key, certificate or root hash that cannot be "
	       "used",
	       "fastverity sign --key signing.key --cert signing.crt "
	       "--root-hash-file=rootfs.roothash rootfs.roothash.p7s",
	       "fastverity sign --ddi-json --key signing.key --cert "
	       "signing.crt \"$ROOT\" sig.json"),
	ACTION("dump", cmd_dump, A_DUMP, "<hash_device> | <image>",
	       "show the superblock (or an Android or disk image's verity)",
	       "0 shown; 1 no superblock, I/O", "fastverity dump rootfs.verity",
	       "fastverity dump --json os.raw"),
	ACTION("open", cmd_open, A_OPEN,
	       "<data_device> <name> <hash_device> [<root_hash>] | <image> "
	       "<name>",
	       "map a verified read-only device as /dev/mapper/<name>",
	       "0 mapped; 1 bad parameters, no device-mapper, the kernel "
	       "refused; 5 the name is taken",
	       "fastverity open rootfs.img root rootfs.verity "
	       "--root-hash-file=rootfs.roothash",
	       "fastverity open system.img system   # an Android image"),
	ACTION("create", cmd_create, A_OPEN,
	       "<name> <data_device> <hash_device> <root_hash>",
	       "the same, in the old argument order", "as open",
	       "fastverity create root rootfs.img rootfs.verity \"$ROOT\"",
	       "fastverity create --ignore-zero-blocks root rootfs.img "
	       "rootfs.verity \"$ROOT\""),
	ACTION("close", cmd_close, A_CLOSE, "<name>", "remove the mapping",
	       "0 removed; 1 no device-mapper; 4 no such mapping; 5 in use",
	       "fastverity close root", "fastverity close --deferred root"),
	ACTION("remove", cmd_close, A_CLOSE, "<name>", "the same as close",
	       "as close", "fastverity remove root",
	       "fastverity remove --deferred root"),
	ACTION("status", cmd_status, A_STATUS, "<name>",
	       "show an active device",
	       "0 active; 1 no device-mapper; 4 no such mapping",
	       "fastverity status root", "fastverity status --json root"),
	ACTION("bench", cmd_bench, A_BENCH, "",
	       "measure hashing and tree settings on this machine (--hash, "
	       "--salt-size, --data-block-size, --hash-block-size, --format "
	       "take lists)",
	       "0 measured; 1 a setting that cannot be built",
	       "fastverity bench",
	       "fastverity bench --hash=sha256,sha512 --salt-size=0,32 "
	       "--time=3"),
};

/* The command groups: other tools' commands, with their spelling, each
 * parsing its own options after its name. */
static const struct group {
	const char *name;
	int (*main)(int argc, const char **argv);
	const char *what;
} groups[] = {
	{"avb", cli_avb_main,
	 "avb <subcommand> [--option value ...] - avbtool's commands for "
	 "Android images (fastverity avb --help)"},
	{"fsverity", cli_fsverity_main,
	 "fsverity <command> [<args>] - fsverity-utils' commands for "
	 "fs-verity files: digest, sign, enable, measure, dump_metadata "
	 "(fastverity fsverity --help)"},
	{"ota", cli_ota_main,
	 "ota <command> PKG [<options>] - Android A/B OTA packages: info, "
	 "verify, extract (fastverity ota --help)"},
	{"lp", cli_lp_main,
	 "lp <command> SUPER_IMAGE [<options>] - AOSP's lpdump and lpunpack "
	 "for Android super images: dump, unpack (fastverity lp --help)"},
};

static const struct group *find_group(const char *name)
{
	for (size_t k = 0; name && k < sizeof(groups) / sizeof(groups[0]); k++)
		if (!strcmp(name, groups[k].name))
			return &groups[k];
	return NULL;
}

static void print_actions(FILE *f)
{
	fputs("\n<action> is one of:\n", f);
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		fprintf(f, "\t%s %s - %s\n", actions[i].name, actions[i].args,
			actions[i].what);
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		fprintf(f, "\t%s\n", groups[i].what);
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

static void print_help(const struct action *act)
{
	if (!act) {
		printf("fastverity %s\n"
		       "Usage: fastverity [OPTION...] <action> "
		       "<action-specific>\n\nOptions (each action takes "
		       "only its own: fastverity <action> --help):\n",
		       FASTVERITY_VERSION);
		cli_options_print(&cli_main_options, 0);
		printf("  %-34s %s\n  %-34s %s\n", "-?, --help",
		       "Show this help message", "    --usage",
		       "Display brief usage");
		print_actions(stdout);
		return;
	}
	printf("Usage: fastverity [OPTION...] %s %s\n%s\n\nOptions:\n",
	       act->name, act->args, act->what);
	cli_options_print(&cli_main_options, act->bit);
	printf("  %-34s %s\n", "-?, --help", "Show this help message");
	printf("\nExit status: %s.\n\nExamples:\n  %s\n  %s\n\nSee "
	       "fastverity(8).\n",
	       act->exits, act->examples[0], act->examples[1]);
}

/* --help also lists the actions, as veritysetup's does. */
static void help_callback(poptContext pc, enum poptCallbackReason reason,
			  const struct poptOption *key, const char *arg,
			  void *data)
{
	(void)reason;
	(void)arg;
	(void)data;
	if (key->shortName == '?')
		print_help(NULL);
	else
		poptPrintUsage(pc, stdout, 0);
	poptFreeContext(pc);
	exit(EXIT_OK);
}

static struct poptOption help_options[] = {
	{NULL, '\0', POPT_ARG_CALLBACK, (void *)help_callback, 0, NULL, NULL},
	{"help", '?', POPT_ARG_NONE, NULL, 0, "Show this help message", NULL},
	{"usage", '\0', POPT_ARG_NONE, NULL, 0, "Display brief usage", NULL},
	POPT_TABLEEND};

static const char *failure_text(int code)
{
	static const char *const texts[] = {
		[EXIT_VERIFY] = "verification failed",
		[EXIT_NOMEM] = "out of memory",
		[EXIT_NODEV] = "wrong device or file specified",
		[EXIT_BUSY] = "device already exists or device is busy"};

	return code > 0 && code < (int)(sizeof(texts) / sizeof(texts[0])) &&
			       texts[code]
		       ? texts[code]
		       : "wrong or missing parameters";
}

/* stdout, checked once at the end as coreutils do: a root hash written to
 * a full disk or a closed pipe is an error, not a success. */
static int stdout_checked;

static int close_stdout(int rc)
{
	int bad, e;

	if (stdout_checked)
		return rc;
	stdout_checked = 1;
	/* (an earlier write's failure left the error flag, not its errno:
	 * whatever errno holds now is another call's, not said) */
	errno = 0;
	bad = fflush(stdout) != 0;
	e = errno;
	if (ferror(stdout))
		bad = 1;
	if (fclose(stdout) != 0) {
		bad = 1;
		if (!e)
			e = errno;
	}
	if (!bad)
		return rc;
	fprintf(stderr, "fastverity: write error on standard output%s%s\n",
		e ? ": " : "", e ? strerror(e) : "");
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
	if (opts.json && !cli_jsonc_load())
		cli_json_final(rc, failure_text(rc));
	return rc;
}

#ifndef FASTVERITY_NO_MAIN
/* Ctrl-C, a kill, a closed terminal: the temporary files of the outputs
 * being written removed (named ones: where the file system has no
 * O_TMPFILE; ota verify's images), then the signal's default action, so that
 * the shell sees 128 + the signal. SA_RESETHAND: a second signal meanwhile ends
 * the process at once. */
static void on_signal(int sig)
{
	int e = errno;

	/* (the file size limit it may lower makes other threads' writes
	 * fail: no SIGXFSZ for them) */
	signal(SIGXFSZ, SIG_IGN);
	fv_remove_temporaries();
	raise(sig);
	errno = e;
}

/* The handlers, but for a signal ignored when the command started (a
 * background job's SIGINT, nohup's SIGHUP), which stays ignored. */
static void catch_signals(void)
{
	/* (and every other signal a user, a shell or a limit sends whose
	 * default action ends the process: the quit key, a reader of the output
	 * gone, alarm, a CPU limit; SIGXFSZ is the handler's own) */
	static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGPIPE,
				   SIGALRM, SIGXCPU, SIGUSR1, SIGUSR2};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) < 0 ||
		    old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_RESETHAND | SA_NODEFER;
		/* another of them waits while one is handled (it would
		 * otherwise end the process between the two handlers'
		 * removals); the same one ends it at once */
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
			if (k != i)
				sigaddset(&sa.sa_mask, sigs[k]);
		(void)sigaction(sigs[i], &sa, NULL);
	}
}

int main(int argc, const char **argv)
{
	catch_signals();
	atexit(close_stdout_at_exit);
	return close_stdout(cli_main(argc, argv));
}
#endif

static int help_asked;
/* "help WORD" where WORD is no action: named, exit 1. */
static const char *help_unknown;

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
			if (!(act = find_action(argv[i])) && !help_unknown)
				help_unknown = argv[i];
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
	const struct group *grp;
	int rc;

	/* avbtool's, fsverity-utils', OTA packages', lpdump's commands */
	if (argc >= 2 && (grp = find_group(argv[1])))
		return grp->main(argc - 1, argv + 1);
	help_unknown = NULL;
	act = help_request(argc, argv);
	/* help avb: avbtool's commands, each with its own --help */
	if (!act && (grp = find_group(help_unknown)))
		return grp->main(2,
				 (const char *[]){grp->name, "--help", NULL});
	if (!act && help_unknown) {
		cli_error(-EINVAL,
			  "help: no action '%s' (fastverity help lists the "
			  "actions)",
			  help_unknown);
		return EXIT_PARAMS;
	}
	if (act || help_asked) {
		print_help(act);
		return EXIT_OK;
	}
	/* each option reports itself, so that the action's rows can judge
	 * it */
	pc = poptGetContext(
		"fastverity", argc, argv,
		cli_options_popt(&cli_main_options, &opts, help_options), 0);
	poptSetOtherOptionHelp(pc, "[OPTION...] <action> <action-specific>");
	while ((rc = poptGetNextOpt(pc)) > 0)
		cli_options_saw(rc);
	if (rc < -1) {
		/* the error, a suggestion, where the options are listed: not
		 * a screen of usage that scrolls the error away */
		const char *bad = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
		const char *near =
			rc == POPT_ERROR_BADOPT
				? cli_options_nearest(&cli_main_options, bad)
				: NULL;

		cli_error(-EINVAL, "%s: %s", bad, poptStrerror(rc));
		if (near)
			fprintf(stderr, "fastverity: did you mean --%s?\n",
				near);
		fprintf(stderr,
			"fastverity: 'fastverity ACTION --help' lists an "
			"action's options.\n");
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	if (opts.version) {
		/* the first line as veritysetup's; then what hashes here */
		struct fv_runtime_info rt = {.size = sizeof(rt)};

		fv_runtime_info(cli_sha256_choice(), &rt);
		printf("fastverity %s\n%s\nSHA-256 on this CPU: %s\n",
		       FASTVERITY_VERSION,
		       rt.openssl ? rt.openssl : rt.openssl_error,
		       rt.sha256_kernel);
		poptFreeContext(pc);
		/* text, as --help's: no --json document after it */
		opts.json = 0;
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
	/* a command group after an option: known, its options after it
	 * (the list below would name it as an action) */
	if (!act && find_group(name)) {
		cli_error(-EINVAL,
			  "%s: its options go after its command, none before "
			  "it (fastverity %s --help)",
			  name, name);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	if (!act) {
		cli_error(-EINVAL, "unknown action '%s'", name);
		print_actions(stderr);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	if ((rc = cli_options_apply(&cli_main_options, &opts, act->bit,
				    act->name))) {
		poptFreeContext(pc);
		return rc;
	}
	opts.action = act->name;
	opts.args = poptGetArgs(pc);
	while (opts.args && opts.args[opts.nargs])
		opts.nargs++;
	cli_debug(&opts, "fastverity %s: running command %s.",
		  FASTVERITY_VERSION, act->name);
	/* --json: json-c opened before anything is done (it is opened when
	 * first needed: cli/jsonc.h) */
	if (opts.json && cli_jsonc_load()) {
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
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
