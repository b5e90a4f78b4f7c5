/* The fastverity command: its options, the entry point, and the actions
 * (each defined in cli/cmd_<action>.c; cli_main in cli/main.c). */
#ifndef FV_CLI_H
#define FV_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

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
	char *pkcs11_module; /* fsverity sign's --pkcs11-module (NULL:
			      * FASTVERITY_PKCS11_MODULE) */
	int embed_cert;
	const char **trusted_certs; /* --trusted-cert, repeatable */
	size_t ntrusted;
	int sidecar;
	unsigned activation; /* open's flags: verity_act_flags */
	int error_as_corruption; /* open: the error policy the corruption's */
	unsigned close;      /* --deferred, --cancel-deferred: CLI_CLOSE_* */
	char *salt_size;     /* bench lists */
	char *size;
	char *device;
	char *changed;    /* update: OFFSET:LENGTH[,...] */
	char *partition;  /* a disk image's protected partition (root, usr),
			   * a super image's logical partition */
	char *slot;       /* a super image's partitions: the suffix a, b */
	const char **block_devices; /* a split super's NAME=FILE */
	size_t nblock_devices;
	char *container;  /* an image alone read as: avb, ddi, sidecar */
	char *bench_time; /* bench --time: seconds */
	int ddi_json;     /* sign: systemd's signature partition JSON */
	int check_crc;    /* sparse images: their CRC32 sums checked */
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

/* The whole command for argv, returning its exit code; main() adds the
 * check of stdout at exit. */
int cli_main(int argc, const char **argv);

/* The actions: 0 or an exit code (cli/errors.h). */
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
int cmd_update(struct cli_opts *o);

/* Signs a root hash (hex) into out_path ("-": stdout) with --key and
 * --cert: sign, and format --sidecar (cli/cmd_sign.c). */
int cli_sign_root(const struct cli_opts *o, const char *root_hex,
		  const char *out_path);

/* Signs with --key and --cert (the passphrase from
 * --key-passphrase-file, or asked on the terminal): fn(req, ctx, der,
 * len) makes the signature. 0 and *der (fv_free), or the exit code, the
 * message printed. */
struct fv_sign_request;
typedef int (*cli_sign_fn)(const struct fv_sign_request *req,
			   const void *ctx, uint8_t **der, size_t *len);
int cli_sign_with(const struct cli_opts *o, cli_sign_fn fn, const void *ctx,
		  uint8_t **der, size_t *len);

/* fastverity fsverity SUBCOMMAND: fsverity-utils' commands
 * (cli/cmd_fsverity.c). */
int cli_fsverity_main(int argc, const char **argv);
/* fastverity ota SUBCOMMAND: Android A/B OTA packages (cli/cmd_ota.c). */
int cli_ota_main(int argc, const char **argv);
/* fastverity lp SUBCOMMAND: lpdump and lpunpack (cli/cmd_lp.c). */
int cli_lp_main(int argc, const char **argv);

/* "s" for a count other than one, for messages. */
static inline const char *cli_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* Seconds on the monotonic clock: progress and bench timing. */
static inline double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
