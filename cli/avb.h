/* fastverity avb SUBCOMMAND: avbtool's image commands, its option
 * spelling and its output (cli/cmd_avb.c parses, writes and checks,
 * cli/avb_show.c shows). */
#ifndef FV_CLI_AVB_H
#define FV_CLI_AVB_H

#include <stddef.h>
#include <stdint.h>

#include "include/fastverity.h"

/* The options of every subcommand, as given (NULL or 0 when absent). */
struct cli_avb_args {
	const char *sub;
	const char *image, *output, *key, *algorithm, *partition_name;
	const char *hash_algorithm, *salt, *block_size, *partition_size;
	const char *fec_num_roots, *rollback_index, *rollback_index_location;
	const char *flags, *padding_size, *release, *append_release;
	const char *output_vbmeta_image, *threads, *vbmeta_image;
	const char *signing_helper, *signing_helper_with_files;
	const char *public_key_metadata;
	const char *output_pubkey; /* info_image: the key blob written */
	const char *changed; /* fastverity's: the data ranges that changed */
	int generate_fec, do_not_generate_fec, calc_max_image_size;
	int do_not_append_vbmeta_image, check_at_most_once, do_not_use_ab;
	int follow, keep_hashtree, json, set_hashtree_disabled_flag;
	int set_verification_disabled_flag;
	int dynamic_partition_size, print_required_libavb_version;
	int use_persistent_digest, accept_zeroed_hashtree, hashtree_disabled;
	int progress;
	int deterministic; /* fastverity's: ML-DSA signed deterministically */
	const char **props, **props_from_file, **chains, **includes;
	const char **cmdlines, **expected, **chains_no_ab;
	size_t nprops, nprops_from_file, nchains, nincludes, ncmdlines,
		nexpected, nchains_no_ab;
	/* the options the library reads: names and values, in pairs
	 * (npairs; all given: nall) */
	const char **pairs;
	size_t npairs, nall;
};

/* A usage error, avbtool's (argparse's) exit 2 in the end; every other
 * failure is avbtool's AvbError, exit 1 (cli_avb_main). */
#define AVB_USAGE 64
/* The library's error said; AVB_USAGE for an option's value that is not
 * a number (EDOM), as avbtool's parser refuses it. */
int cli_avb_error(int r);

struct cli_opts;

/* argv[0] is "avb". Returns the exit code. */
int cli_avb_main(int argc, const char **argv);
/* What the library shows of a->image (q: its kind; a's options, --json,
 * --hashtree_disabled), written whole to output (words: what it is),
 * else printed as it comes; nothing when it fails. info_image's then
 * writes --output_pubkey. The exit code (a verify's failed step:
 * EXIT_PARAMS). */
int cli_avb_show(const struct cli_avb_args *a, struct fv_show_request *q,
		 const char *output, const char *words);
/* An Android sparse image given where raw data is expected: refused,
 * with the command that makes a raw one (0 when path is not one). */
int cli_refuse_sparse(const char *path);
/* avbtool's --output: written whole and safely (verity_write_file: a
 * temporary file renamed over it, no symlink of another user followed),
 * and never the input read: refused by name. Returns the exit code, the
 * message printed. */
int cli_avb_write(const char *output, const char *what, const void *buf,
		  size_t len, const char *input);

#endif
