/* The command's verity pair: its arguments and options, or an image and
 * its sidecar files, made into the one pair (the library's fv_pair)
 * that verify, repair and open act on. Functions return 0 or an exit
 * code, the message printed (cli/errors.h). */
#ifndef FV_CLI_PAIR_H
#define FV_CLI_PAIR_H

#include <glob.h>
#include <stdint.h>

#include "cli/cli.h"
#include "include/fastverity.h"

struct cli_progress;

/* What the registry says an image given alone to open is. */
enum cli_container {
	CLI_SIDECAR, /* an image with sidecar files: none to open alone */
	CLI_AVB,     /* an Android image */
	CLI_DDI,     /* a systemd disk image */
	CLI_SUPER,   /* an Android super image */
};

struct cli_pair {
	fv_image *img; /* the door's (fv_open), freed by cli_pair_free */
	size_t at;     /* its pair acted on */
	struct fv_image_pair_info pi; /* that pair's facts: paths,
				       * parameters, root (into img) */
	enum fv_trust trust;          /* the policy's verdict, the door's
				       * (fv_open), before anything is read */
	int avb;                      /* an Android image (cli/avb_pair.c) */
};

/* What the one image argument given to open is: the library's registry
 * decides, --container names it (an OTA package refused). 0 and *kind,
 * or the exit code (printed). */
int cli_image_kind(const struct cli_opts *o, const char *image,
		   enum cli_container *kind);
/* verify or dump (o->action) of the image given alone, o->args[0]: one
 * fv_show call, the walk the library's (args: repair's, for verify's
 * hints). The exit code, said; 0 and *own where the walk is the
 * command's: 1 an image with sidecar files, 2 dump of a super image's
 * logical partition. */
int cli_alone(struct cli_opts *o, const char *args, int *own);
/* The door (fv_open) for rq, with the trust anchor the options give
 * (--key, or certs: --trusted-cert's or the ones trusted without an
 * option, a disk image's /etc/verity.d; --key and --trusted-cert both
 * refused) and whether the action writes: 0 and *img, the exit code of
 * a refusal of the command's (printed), or the library's negative
 * errno (not printed: fv_last_error). */
int cli_open(const struct cli_opts *o, struct fv_open_request *rq,
	     const char *const *certs, size_t ncerts, fv_image **img);
/* The options holding the anchor --key or --trusted-cert give, for the
 * library to judge with: as cli_open returns. */
int cli_anchor_options(const struct cli_opts *o, fv_options *opts);

/* --check-crc: the CRC32 sums of the sparse images among the first two
 * arguments checked (cli_lib_error's exit code when one does not hold);
 * 0 otherwise. */
int cli_check_crc(const struct cli_opts *o);
/* The pair of an image given alone to open (kind: what cli_image_kind
 * said of it), through the door: an Android image's, a disk image's
 * (cli_disk_pair), a super image's logical partition named
 * (cli_super_pair). */
int cli_pair_of_image(struct cli_opts *o, const char *image,
		      enum cli_container kind, struct cli_pair *cp);
/* verify's and repair's arguments: <data> <hash> [<root>], or <image>
 * with systemd's sidecar files (the walk cli_alone hands back). */
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
/* The one pair of a disk image given alone that open maps: --partition's
 * (the door keeps its pairs alone), else root's. */
int cli_disk_pair(struct cli_opts *o, const char *image, struct cli_pair *cp);
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
/* After the check: who signed (--debug). */
void cli_signer_said(const struct cli_opts *o, const struct cli_pair *cp,
		     const fv_result *res);
/* The debug lines of an action's result: the hashing path. */
void cli_hashing_said(const struct cli_opts *o, const fv_result *res);

/* img's fv_image_info and its pair i's fv_image_pair_info, whole
 * (zeros, trust UNSIGNED, when there is none). */
struct fv_image_info cli_image_info(const fv_image *img);
struct fv_image_pair_info cli_image_pair(const fv_image *img, size_t i);

#endif
