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
	enum verity_trust trust;    /* the policy's verdict (verity/trust.h) */
	const char *fec_name;       /* the parity's file, as messages name it
				     * (--fec-device, IMAGE.fec, the image) */
	struct verity_sidecar side; /* <image>'s sidecar names */
	const char *signature_path; /* the signature file, or NULL */
	uint8_t *signature;         /* its bytes */
	int avb;                    /* an Android image (cli/avb_pair.c) */
	const char *avb_algorithm;  /* its algorithm ("SHA256_RSA4096") */
	char avb_key_sha1[41];      /* its public key's SHA-1, "" for none */
};

/* What the one image argument is: the library's registry decides
 * (verity/container/registry.h), --container names it. 0 and *kind,
 * or the exit code (printed). */
int cli_image_kind(const struct cli_opts *o, const char *image,
		   enum verity_container *kind);
/* The trust anchor the options give: --key (a public key, Android
 * images) or --trusted-cert; both at once is refused (exit code). */
int cli_anchor(const struct cli_opts *o, enum verity_anchor *anchor);
/* The policy asked before anything is read (verity/trust.h): 0 and
 * *trust, or the exit code of its refusal (printed). implicit_certs:
 * certificates trusted without an option (a disk image's
 * /etc/verity.d). */
int cli_trust(const struct cli_opts *o, enum verity_container container,
	      const char *image, enum verity_signature_from signature,
	      int writes, size_t implicit_certs, enum verity_trust *trust);
/* Whether the action writes on the image's word: repair, not a dry
 * run. */
int cli_writes(const struct cli_opts *o);

/* verify's and repair's arguments (kind: what cli_image_kind said of an
 * image given alone; ignored for two or more arguments): <data> <hash> [<root>], or <image>
 * with systemd's sidecar files (IMAGE.verity, IMAGE.roothash, and
 * IMAGE.roothash.p7s and IMAGE.fec when they exist). */
int cli_pair_from_args(struct cli_opts *o, enum verity_container kind,
		       struct cli_pair *cp);
/* The pair of data, hash and the root hash (argument, or
 * --root-hash-file): parameters from the superblock or the options, the
 * parity and signature options. */
int cli_pair_make(const struct cli_opts *o, const char *data, const char *hash,
		  const char *root_arg, struct cli_pair *cp);
void cli_pair_free(struct cli_pair *cp);
/* FASTVERITY_SHA256 (portable, two-way, three-way): the SHA-256 kernel
 * the library is asked to run (the fastest when unset). */
enum sha256_choice cli_sha256_choice(void);
/* How an operation runs: threads, progress, trusted certificates, the
 * SHA-256 kernel. */
int cli_run_of(const struct cli_opts *o, struct verity_run *run,
	       struct cli_progress *pr);
/* After the check: its warning, and who signed (--debug); a signer not
 * checked said so. */
void cli_signature_said(const struct cli_opts *o, const struct cli_pair *cp,
			const struct verity_outcome *out);

#endif
