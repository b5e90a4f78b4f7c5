/* The command's verity pair: its arguments and options made into the
 * one pair (the library's fv_pair) that verify, repair and open act on;
 * an image given alone, the library's walk (cli_alone). Functions return 0 or
 * an exit code, the message printed (cli/errors.h). */
#ifndef FV_CLI_PAIR_H
#define FV_CLI_PAIR_H

#include <glob.h>
#include <stdint.h>

#include "cli/cli.h"
#include "include/fastverity.h"

struct cli_progress;

struct cli_pair {
	fv_image *img; /* the door's (fv_open), freed by cli_pair_free */
	size_t at;     /* its pair acted on */
	struct fv_image_pair_info pi; /* that pair's facts: paths,
				       * parameters, root (into img) */
	enum fv_trust trust;          /* the policy's verdict, the door's
				       * (fv_open), before anything is read */
};

/* verify, repair, dump or open (o->action) of the image given alone,
 * o->args[0]: one fv_show call, the walk the library's (args: verify's
 * repair hints; open's mapping name), an image with sidecar files and a
 * super image's logical partition too. The exit code, said. */
int cli_alone(struct cli_opts *o, const char *args);
/* One corruption policy and one error policy at most in open's flags,
 * said with the options (the library refuses the same flags): 0, or the
 * exit code (cli/cmd_open.c). */
int cli_policies(struct cli_opts *o);
/* The door (fv_open) for rq, with the trust anchor the options give
 * (--key, or certs: --trusted-cert's or the ones trusted without an
 * option, a disk image's /etc/verity.d; --key and --trusted-cert both
 * refused) and whether the action writes: 0 and *img, the exit code of
 * a refusal of the command's (printed), or the library's negative
 * errno (not printed: fv_last_error). */
int cli_open(const struct cli_opts *o, struct fv_open_request *rq,
	     const char *const *certs, size_t ncerts, fv_image **img);

/* --check-crc: the CRC32 sums of the sparse images among the first two
 * arguments checked (cli_lib_error's exit code when one does not hold);
 * 0 otherwise. */
int cli_check_crc(const struct cli_opts *o);
/* verify's and repair's arguments: <data> <hash> [<root>]. */
int cli_pair_from_args(struct cli_opts *o, struct cli_pair *cp);
/* The pair of data, hash and the root hash (argument, or
 * --root-hash-file) opened to be mapped: parameters from the superblock
 * or the options, the parity and signature options. */
int cli_pair_make(struct cli_opts *o, const char *data, const char *hash,
		  const char *root_arg, struct cli_pair *cp);
/* The certificates a signature is checked against: --trusted-cert's,
 * or the ones trusted without an option (systemd's /etc/verity.d;
 * FASTVERITY_VERITY_D names another directory, for tests), in g
 * (globfree'd by the caller). */
void cli_trusted_of(const struct cli_opts *o, const char ***list, size_t *n,
		    glob_t *g);
/* A --partition that is no role: said as the option it is; else the
 * library's message (r: its error). */
int cli_partition_refused(const struct cli_opts *o, int r);
/* img's pair at made cp's (cp owns img from here). */
void cli_pair_take(struct cli_pair *cp, fv_image *img, size_t at);
void cli_pair_free(struct cli_pair *cp);
/* The pair made (made: 0, or the exit code of making it) mapped as name
 * with open's options; its signature handed to the kernel, and checked
 * here first where the door judged it checkable (the anchor the open
 * was given). Frees cp (cli/cmd_open.c). */
int cli_open_pair(struct cli_opts *o, const char *name, struct cli_pair *cp,
		  int made);
/* What open says once the library mapped (r: its return, 0 or < 0, or
 * a refusal's exit code already said) name from data and hash: who
 * signed and the mapping (--debug), or the library's error. The exit
 * code (cli/cmd_open.c). */
int cli_opened(const struct cli_opts *o, int r, const fv_result *res,
	       const char *name, const char *data, const char *hash);
/* After the check of a pair the door judged trust: who signed
 * (--debug). */
void cli_signer_said(const struct cli_opts *o, enum fv_trust trust,
		     const fv_result *res);
/* The debug lines of an action's result: the hashing path. */
void cli_hashing_said(const struct cli_opts *o, const fv_result *res);

/* img's fv_image_info and its pair i's fv_image_pair_info, whole
 * (zeros, trust UNSIGNED, when there is none). */
struct fv_image_info cli_image_info(const fv_image *img);
struct fv_image_pair_info cli_image_pair(const fv_image *img, size_t i);

#endif
