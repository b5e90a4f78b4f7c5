/* The command's verity pair: its arguments and options, or an image and
 * its sidecar files (verity/container/sidecar.h), made into the one pair
 * that verify, repair and open hand to the library's operations
 * (verity/ops.h). Functions return 0 or an exit code, the message
 * printed (cli/errors.h). */
#ifndef FV_CLI_PAIR_H
#define FV_CLI_PAIR_H

#include <stdint.h>

#include "cli/cli.h"
#include "hashtree/sha256.h"
#include "verity/container/sidecar.h"
#include "verity/ops.h"

struct cli_progress;

struct cli_pair {
	struct verity_pair pair;
	struct verity_sidecar side; /* <image>'s sidecar names */
	const char *signature_path; /* the signature file, or NULL */
	uint8_t *signature;         /* its bytes */
	int avb;                    /* an Android image (cli/avb_pair.c) */
	int avb_signed;             /* its vbmeta is signed */
	int avb_trusted;            /* ... by the key given with --key */
};

/* verify's and repair's arguments: <data> <hash> [<root>], or <image>
 * with systemd's sidecar files (IMAGE.verity, IMAGE.roothash, and
 * IMAGE.roothash.p7s and IMAGE.fec when they exist). */
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

#endif
