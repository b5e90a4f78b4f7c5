/* The fastverity command: options shared by every action, and helpers. */
#ifndef FV_CLI_H
#define FV_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "include/fastverity.h"
#include "verity/container/sidecar.h"
#include "verity/ops.h"

struct cli_opts {
	/* as given on the command line, NULL when absent */
	char *hash;
	char *data_block_size;
	char *hash_block_size;
	char *data_blocks;
	char *hash_offset;
	char *salt;
	char *uuid;
	char *format;
	char *root_hash_file;
	char *threads;
	char *fec_device;
	char *fec_offset;
	char *fec_roots;
	unsigned repair;    /* --dry-run, --rewrite-parity: verity_run_flags */
	const char *action; /* the action running, for messages */
	char *max_failures;
	char *key_passphrase_file;
	char *root_hash_signature;
	char *key;
	char *cert;
	int embed_cert;
	const char **trusted_certs; /* --trusted-cert, repeatable */
	size_t ntrusted;
	int sidecar;
	unsigned activation; /* open's flags: verity_act_flags */
	unsigned close;      /* --deferred, --cancel-deferred: CLI_CLOSE_* */
	char *salt_size;     /* bench lists */
	char *size;
	char *device;
	int csv;
	int no_superblock;
	int progress;
	int no_progress;
	int json;
	int verbose;
	int debug;
	int version;
	const char **args; /* positional arguments after the action */
	int nargs;
};

enum {
	CLI_CLOSE_DEFERRED = 1u << 0,
	CLI_CLOSE_CANCEL = 1u << 1,
};

struct cli_progress;

/* The whole command for argv, returning its exit code; main() adds the
 * check of stdout at exit. */
int cli_main(int argc, const char **argv);

/* Exit codes of veritysetup. */
enum {
	EXIT_OK = 0,
	EXIT_PARAMS = 1,
	EXIT_VERIFY = 2,
	EXIT_NOMEM = 3,
	EXIT_NODEV = 4,
	EXIT_BUSY = 5,
};

/* The one convention of cli/: a function that can fail returns 0 or the
 * exit code to end with (EXIT_*), having printed its message; cli_error()
 * prints it and turns the library's negative errno into that exit code
 * (cli_exit_code(), the only place that mapping is made). */

/* Prints "fastverity: <msg>" on stderr and returns the exit code for r. */
int cli_error(int r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_exit_code(int r);
/* cli_error() for the library's failure in an action that writes (format,
 * repair): a device another user holds (-EBUSY: mounted, mapped) is a
 * device that must not be given, exit 1; exit 5 stays for a mapping name
 * in use (open, close). */
int cli_write_error(int r, const struct fv_error *err);
/* cli_error() for the library's message, its fix (when it has one of a
 * parameter) said with the option that sets it. */
int cli_lib_error(int r, const struct fv_error *err);
void cli_debug(const struct cli_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Fills p from the options (defaults where absent). for_format selects
 * format's defaults (random salt and UUID). Prints its own errors. */
int cli_params_from_opts(const struct cli_opts *o, struct verity_params *p,
			 int for_format);
int cli_parse_hash_offset(const struct cli_opts *o, uint64_t *off);
/* --fec-device, --fec-offset, --fec-roots; fp->device NULL without FEC.
 * Prints its own errors. */
int cli_fec_params(const struct cli_opts *o, struct verity_fec_params *fp);

/* Reads the root hash from the argument or --root-hash-file. */
int cli_root_hash(const struct cli_opts *o, const char *arg,
		  unsigned digest_size, uint8_t *root);

/* A root hash of any supported digest size (20 to 64 bytes). */
int cli_root_hash_any(const struct cli_opts *o, const char *arg, uint8_t *root,
		      size_t *len);

int cli_sign_root(const struct cli_opts *o, const char *root_hex,
		  const char *out_path);

/* The command's pair (cli/pair.c): verify, repair and open. */
struct cli_pair {
	struct verity_pair pair;
	struct verity_sidecar side; /* <image>'s sidecar names */
	const char *signature_path; /* the signature file, or NULL */
	uint8_t *signature;         /* its bytes */
};
/* verify's and repair's arguments: <data> <hash> [<root>], or <image>
 * with systemd's sidecar files (IMAGE.verity, IMAGE.roothash, and
 * IMAGE.roothash.p7s and IMAGE.fec when they exist). 0 or an exit code,
 * the message printed. */
int cli_pair_from_args(struct cli_opts *o, struct cli_pair *cp);
/* The pair of data, hash and the root hash (argument, or
 * --root-hash-file): parameters from the superblock or the options, the
 * parity and signature options. */
int cli_pair_make(struct cli_opts *o, const char *data, const char *hash,
		  const char *root_arg, struct cli_pair *cp);
void cli_pair_free(struct cli_pair *cp);
/* FASTVERITY_SHA256 (portable, two-way, three-way): the SHA-256 kernel
 * the library is asked to run (the fastest when unset). */
enum sha256_choice cli_sha256_choice(void);
/* How an operation runs: threads, progress, trusted certificates, the
 * SHA-256 kernel. */
int cli_run_of(const struct cli_opts *o, struct verity_run *run,
	       struct cli_progress *pr);
/* A signature that cannot be checked (no --trusted-cert): refused with
 * the option that fixes it. */
int cli_signed_checks(const struct cli_opts *o, const struct cli_pair *cp);
/* After the check: its warning, and who signed (--debug). */
void cli_signature_said(const struct cli_opts *o, const struct cli_pair *cp,
			const struct verity_outcome *out);
/* A checked signature as a json-c object (file, signer, warning); NULL
 * (JSON null) when none was checked. */
void *cli_json_signature(const struct cli_pair *cp,
			 const struct verity_outcome *out);

/* A decimal count for option opt; 0 or EXIT_PARAMS (message printed). */
int cli_parse_count(const char *opt, const char *s, uint64_t *out);

/* Refuses (0 or an exit code) when out exists and is, after symlinks,
 * one of the n inputs (NULL entries skipped): what names the output. */
int cli_check_output(const char *out, const char *what,
		     const char *const *inputs, size_t n);

/* veritysetup's header lines; root may be NULL (dump). */
void cli_print_header(const char *device, const struct verity_params *p,
		      const char *uuid_text, const struct verity_layout *l,
		      const uint8_t *root);
/* The same as a json-c object (returned as void * to keep json-c out of
 * this header). */
void *cli_json_header(const char *device, const struct verity_params *p,
		      const struct verity_layout *l, const uint8_t *root);
void cli_json_print(void *obj);
/* Set once a --json document is on stdout (cli_json_print does). */
extern int cli_json_emitted;
/* The last message cli_error() printed, or NULL. */
extern char *cli_last_error;
/* A json-c string of s; bytes that are not valid UTF-8 become the text
 * \xHH, so that strict parsers accept the document. NULL for NULL. */
void *cli_json_str(const char *s);
/* --json and nothing printed yet: the one document, with the result, the
 * error (the last message, or fallback) and the exit code. */
void cli_json_final(int rc, const char *fallback);
/* The exit code of a verify result: 2 for any bad block, else 1 for a
 * root hash mismatch, else 0; and its word for --json. */
int cli_verdict(const struct ht_verify_result *res);
/* veritysetup's counts line on stderr, then the unreadable and unchecked
 * blocks, when there are any. */
void cli_print_counts(const struct ht_verify_result *res);
const char *cli_verdict_word(int code);
/* Adds root_hash_matches and the bad block counts to a json-c object. */
void cli_json_add_counts(void *obj, const struct ht_verify_result *res);
/* One bad block as a json-c object: type, position, block, level. */
void *cli_json_failure(const struct verity_failure *f);
/* What an FEC check or repair found, with the parity's roots (and
 * where they came from), offset and coverage, as a json-c object;
 * unrepairable (a json-c array, or NULL) is added as it is. */
void *cli_json_fec(const struct verity_fec_layout *fl,
		   const struct verity_fec_result *res, void *unrepairable);
/* "parity of 8 roots, told from the size of f.fec", for text output. */
void cli_fec_roots_text(const struct verity_fec_layout *fl, const char *dev,
			char *buf, size_t len);

/* "s" for a count other than one, for messages. */
static inline const char *cli_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* Seconds on the monotonic clock: progress and bench timing. */
#include <time.h>
static inline double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct cli_progress {
	int enabled;
	int tty;            /* a line redrawn in place; else plain lines */
	const char *action; /* named in each line */
	int shown;
	double start;
	double last;
};

void cli_progress_init(struct cli_progress *pr, const struct cli_opts *o);
void cli_progress_update(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(struct cli_progress *pr);

/* --threads (default: online CPUs) and progress for format and verify. */
int cli_run_options(const struct cli_opts *o, struct ht_options *opt,
		    struct cli_progress *pr);

/* A byte count: digits with an optional K, M, G or T (powers of 1024). */
int cli_parse_size(const char *text, uint64_t *out);

int cmd_format(struct cli_opts *o);
int cmd_bench(struct cli_opts *o);
int cmd_open(struct cli_opts *o);
int cmd_sign(struct cli_opts *o);
int cmd_create(struct cli_opts *o);
int cmd_close(struct cli_opts *o);
int cmd_status(struct cli_opts *o);
int cmd_verify(struct cli_opts *o);
int cmd_dump(struct cli_opts *o);
int cmd_repair(struct cli_opts *o);

#endif
