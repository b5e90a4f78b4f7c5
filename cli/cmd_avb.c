/* fastverity avb SUBCOMMAND [--option value ...]: avbtool's image
 * commands with avbtool's spelling, so that a build script swaps
 * `avbtool` for `fastverity avb` (docs/android.md). Options avbtool has
 * and fastverity does not are refused by name, never ignored. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/jsonc.h"
#include "cli/options.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/cli.h"

enum sub {
	S_HASHTREE = 1u << 0, /* add_hashtree_footer */
	S_HASH = 1u << 1,     /* add_hash_footer */
	S_INFO = 1u << 2,
	S_VERIFY = 1u << 3,
	S_MAKE = 1u << 4, /* make_vbmeta_image */
	S_EXTRACT_KEY = 1u << 5,
	S_ERASE = 1u << 6,
	S_DIGEST = 1u << 7, /* calculate_vbmeta_digest */
	S_EXTRACT_VBMETA = 1u << 8,
	S_VERSION = 1u << 9,
	S_APPEND = 1u << 10, /* append_vbmeta_image */
	S_RESIZE = 1u << 11,
	S_ZERO = 1u << 12,       /* zero_hashtree */
	S_DIGESTS = 1u << 13,    /* print_partition_digests */
	S_CMDLINE = 1u << 14,    /* calculate_kernel_cmdline */
	S_KEY_DIGEST = 1u << 15, /* extract_public_key_digest */
	S_GENKEY = 1u << 16,     /* generate_key (fastverity's) */
	S_COMMON = S_HASHTREE | S_HASH | S_MAKE, /* avbtool's common args */
	S_FOOTER = S_HASHTREE | S_HASH,
};

static const struct cli_sub subs[] = {
	{"add_hashtree_footer", S_HASHTREE, NULL,
	 "add a hash tree, parity and footer to an image"},
	{"add_hash_footer", S_HASH, NULL, "add a hash and footer to an image"},
	{"info_image", S_INFO, NULL, "show an image's footer and vbmeta"},
	{"verify_image", S_VERIFY, NULL,
	 "check an image: signature, digests, tree"},
	{"make_vbmeta_image", S_MAKE, NULL, "make a vbmeta image"},
	{"extract_public_key", S_EXTRACT_KEY, NULL,
	 "write a key's AVB public key blob"},
	{"extract_public_key_digest", S_KEY_DIGEST, NULL,
	 "write the SHA-256 (hex) of a key's AVB public key blob"},
	{"generate_key", S_GENKEY, NULL,
	 "fastverity's: make an ML-DSA private key (MLDSA65, MLDSA87)"},
	{"erase_footer", S_ERASE, NULL, "remove the footer from an image"},
	{"calculate_vbmeta_digest", S_DIGEST, NULL,
	 "digest of the vbmeta and its chained partitions' vbmeta"},
	{"extract_vbmeta_image", S_EXTRACT_VBMETA, NULL,
	 "write the vbmeta blob of an image"},
	{"append_vbmeta_image", S_APPEND, NULL,
	 "append a vbmeta image's blob and a footer to an image"},
	{"resize_image", S_RESIZE, NULL,
	 "move an image's footer to a new size"},
	{"zero_hashtree", S_ZERO, NULL,
	 "make an image's hash tree and parity zeros"},
	{"print_partition_digests", S_DIGESTS, NULL,
	 "the digest or root of every partition, chains followed"},
	{"calculate_kernel_cmdline", S_CMDLINE, NULL,
	 "the kernel command line an image's descriptors make"},
	{"version", S_VERSION, NULL, "print the avbtool version this matches"},
};

/* avbtool's subcommands fastverity does not have. */
static const char *const missing_subs[] = {
	"set_ab_metadata",
	"make_certificate",
	"make_cert_permanent_attributes",
	"make_cert_metadata",
	"make_cert_unlock_credential",
	"make_atx_certificate",
	"make_atx_permanent_attributes",
	"make_atx_metadata",
	"make_atx_unlock_credential",
	"generate_test_image",
	NULL,
};

#define F(field) offsetof(struct cli_avb_args, field)
#define L(field)                              \
	offsetof(struct cli_avb_args, field), \
		offsetof(struct cli_avb_args, n##field)

static const struct cli_option rows[] = {
	CLI_ROW("image", CLI_VALUE, F(image), 0,
		S_FOOTER | S_INFO | S_VERIFY | S_ERASE | S_DIGEST |
			S_EXTRACT_VBMETA | S_APPEND | S_RESIZE | S_ZERO |
			S_DIGESTS | S_CMDLINE,
		"IMAGE", "the image"),
	CLI_ROW("output", CLI_VALUE, F(output), 0,
		S_INFO | S_MAKE | S_EXTRACT_KEY | S_DIGEST | S_EXTRACT_VBMETA |
			S_DIGESTS | S_CMDLINE | S_KEY_DIGEST | S_GENKEY,
		"FILE", "the output file"),
	CLI_ROW("output_pubkey", CLI_VALUE, F(output_pubkey), 0, S_INFO, "FILE",
		"write the vbmeta's public key blob here"),
	CLI_ROW("partition_size", CLI_VALUE, F(partition_size), 0,
		S_FOOTER | S_APPEND | S_RESIZE, "SIZE", "partition size"),
	CLI_ROW("vbmeta_image", CLI_VALUE, F(vbmeta_image), 0, S_APPEND,
		"IMAGE", "the image whose vbmeta blob is appended"),
	CLI_ROW("hashtree_disabled", CLI_FLAG, F(hashtree_disabled), 0,
		S_CMDLINE, NULL, "the command line for a disabled hash tree"),
	CLI_ROW("accept_zeroed_hashtree", CLI_FLAG, F(accept_zeroed_hashtree),
		0, S_VERIFY, NULL,
		"accept a tree and parity zero_hashtree zeroed"),
	CLI_ROW("use_persistent_digest", CLI_FLAG, F(use_persistent_digest), 0,
		S_FOOTER, NULL,
		"no digest in the descriptor: the device keeps it"),
	CLI_ROW("signing_helper", CLI_VALUE, F(signing_helper), 0, S_COMMON,
		"PROGRAM",
		"a program that signs in the key's place (stdin, stdout)"),
	CLI_ROW("signing_helper_with_files", CLI_VALUE,
		F(signing_helper_with_files), 0, S_COMMON, "PROGRAM",
		"the same, the block in a file it overwrites"),
	CLI_ROW("public_key_metadata", CLI_VALUE, F(public_key_metadata), 0,
		S_COMMON, "FILE", "bytes put after the public key"),
	CLI_ROW("chain_partition_do_not_use_ab", CLI_LIST, L(chains_no_ab),
		S_COMMON, "PART_NAME:ROLLBACK_SLOT:KEY_PATH",
		"chain a partition that has no A/B slots"),
	CLI_ROW("partition_name", CLI_VALUE, F(partition_name), 0, S_FOOTER,
		"NAME", "partition name"),
	CLI_ROW("hash_algorithm", CLI_VALUE, F(hash_algorithm), 0, S_FOOTER,
		"{sha1,sha256,sha512}",
		"the hash (default: sha256; add_hashtree_footer's: sha1)"),
	CLI_ROW("hash_algorithm", CLI_VALUE, F(hash_algorithm), 0, S_DIGEST,
		"ALG", "the hash (default: sha256)"),
	CLI_ROW("salt", CLI_VALUE, F(salt), 0, S_FOOTER, "HEX",
		"salt in hex (default: random)"),
	CLI_ROW("block_size", CLI_VALUE, F(block_size), 0, S_HASHTREE, "SIZE",
		"block size (default: 4096)"),
	CLI_ROW("generate_fec", CLI_FLAG, F(generate_fec), 0, S_HASHTREE, NULL,
		"deprecated: parity is made by default"),
	CLI_ROW("do_not_generate_fec", CLI_FLAG, F(do_not_generate_fec), 0,
		S_HASHTREE, NULL, "no parity"),
	CLI_ROW("fec_num_roots", CLI_VALUE, F(fec_num_roots), 0, S_HASHTREE,
		"N", "parity roots (default: 2)"),
	CLI_ROW("changed", CLI_VALUE, F(changed), 0, S_HASHTREE,
		"OFFSET:LENGTH,...|@FILE",
		"fastverity's: over a footer of the same tree, the data bytes "
		"that "
		"changed (default: found by a verify of the old tree)"),
	CLI_ROW("calc_max_image_size", CLI_FLAG, F(calc_max_image_size), 0,
		S_FOOTER, NULL,
		"print the largest image that fits the partition size"),
	CLI_ROW("output_vbmeta_image", CLI_VALUE, F(output_vbmeta_image), 0,
		S_FOOTER, "FILE", "also write the vbmeta blob here"),
	CLI_ROW("do_not_append_vbmeta_image", CLI_FLAG,
		F(do_not_append_vbmeta_image), 0, S_FOOTER, NULL,
		"no vbmeta or footer in the image"),
	CLI_ROW("check_at_most_once", CLI_FLAG, F(check_at_most_once), 0,
		S_HASHTREE, NULL,
		"verify data blocks only the first time they are read"),
	CLI_ROW("dynamic_partition_size", CLI_FLAG, F(dynamic_partition_size),
		0, S_HASH, NULL, "size the partition to the image"),
	CLI_ROW("do_not_use_ab", CLI_FLAG, F(do_not_use_ab), 0, S_FOOTER, NULL,
		"the partition does not use A/B"),
	CLI_ROW("algorithm", CLI_VALUE, F(algorithm), 0, S_COMMON,
		"{NONE,SHA256_RSA2048,SHA256_RSA4096,SHA256_RSA8192,SHA512_"
		"RSA2048,"
		"SHA512_RSA4096,SHA512_RSA8192,MLDSA65,MLDSA87}",
		"the vbmeta's signature (default: NONE, unsigned)"),
	CLI_ROW("algorithm", CLI_VALUE, F(algorithm), 0, S_GENKEY,
		"{MLDSA65,MLDSA87}", "the new key's (ML-DSA-65 or -87)"),
	CLI_ROW("key", CLI_VALUE, F(key), 0,
		S_COMMON | S_EXTRACT_KEY | S_VERIFY | S_KEY_DIGEST, "KEY",
		"RSA key (PEM, or pkcs11: URI), ML-DSA key (PKCS#8/SPKI, PEM "
		"or "
		"DER), or AVB public key blob"),
	CLI_ROW("deterministic", CLI_FLAG, F(deterministic), 0, S_COMMON, NULL,
		"fastverity's: ML-DSA signatures the same bytes each run "
		"(reproducible builds; default: hedged, fresh randomness)"),
	CLI_ROW("rollback_index", CLI_VALUE, F(rollback_index), 0, S_COMMON,
		"N", "rollback index"),
	CLI_ROW("rollback_index_location", CLI_VALUE,
		F(rollback_index_location), 0, S_COMMON, "N",
		"location of the rollback index"),
	CLI_ROW("internal_release_string", CLI_VALUE, F(release), 0, S_COMMON,
		"STR", "release string (default: avbtool 1.3.0)"),
	CLI_ROW("append_to_release_string", CLI_VALUE, F(append_release), 0,
		S_COMMON, "STR", "text to append to the release string"),
	CLI_ROW("prop", CLI_LIST, L(props), S_COMMON, "KEY:VALUE",
		"add a property"),
	CLI_ROW("prop_from_file", CLI_LIST, L(props_from_file), S_COMMON,
		"KEY:PATH", "add a property from a file"),
	CLI_ROW("kernel_cmdline", CLI_LIST, L(cmdlines), S_COMMON, "CMDLINE",
		"add a kernel command line"),
	CLI_ROW("include_descriptors_from_image", CLI_LIST, L(includes),
		S_COMMON, "IMAGE", "add the descriptors of an image"),
	CLI_ROW("chain_partition", CLI_LIST, L(chains), S_COMMON,
		"PART_NAME:ROLLBACK_SLOT:KEY_PATH", "chain a partition"),
	CLI_ROW("flags", CLI_VALUE, F(flags), 0, S_COMMON, "N", "vbmeta flags"),
	CLI_ROW("set_hashtree_disabled_flag", CLI_FLAG,
		F(set_hashtree_disabled_flag), 0, S_COMMON, NULL,
		"set the HASHTREE_DISABLED flag"),
	CLI_ROW("set_verification_disabled_flag", CLI_FLAG,
		F(set_verification_disabled_flag), 0, S_COMMON, NULL,
		"set the VERIFICATION_DISABLED flag"),
	CLI_ROW("print_required_libavb_version", CLI_FLAG,
		F(print_required_libavb_version), 0, S_COMMON, NULL,
		"print the libavb version the options need"),
	CLI_ROW("padding_size", CLI_VALUE, F(padding_size), 0,
		S_MAKE | S_EXTRACT_VBMETA, "N",
		"pad the output to a multiple of N"),
	CLI_ROW("expected_chain_partition", CLI_LIST, L(expected), S_VERIFY,
		"PART_NAME:ROLLBACK_SLOT:KEY_PATH",
		"expected chained partition"),
	CLI_ROW("follow_chain_partitions", CLI_FLAG, F(follow), 0, S_VERIFY,
		NULL, "check chained partitions too"),
	CLI_ROW("keep_hashtree", CLI_FLAG, F(keep_hashtree), 0, S_ERASE, NULL,
		"keep the hash tree and parity"),
	CLI_ROW("json", CLI_FLAG, F(json), 0, S_INFO | S_DIGESTS | S_VERIFY,
		NULL, "JSON output (info_image, verify_image: fastverity's)"),
	CLI_ROW("threads", CLI_VALUE, F(threads), 0, S_HASHTREE | S_VERIFY, "N",
		"worker threads (fastverity; default: one per CPU)"),
	CLI_ROW("progress", CLI_FLAG, F(progress), 0, S_HASHTREE | S_VERIFY,
		NULL,
		"progress on stderr also when it is not a terminal "
		"(fastverity)"),
	/* avbtool's, not here */
	CLI_ROW("setup_rootfs_from_kernel", CLI_ABSENT, 0, 0, S_COMMON, "VALUE",
		NULL),
	CLI_ROW("generate_dm_verity_cmdline_from_hashtree", CLI_ABSENT, 0, 0,
		S_COMMON, "VALUE", NULL),
	CLI_ROW("setup_as_rootfs_from_kernel", CLI_ABSENT, 0, 0, S_HASHTREE,
		NULL, NULL),
	CLI_ROW("no_hashtree", CLI_ABSENT, 0, 0, S_HASHTREE, NULL, NULL),
	CLI_ROW("atx", CLI_ABSENT, 0, 0, S_INFO, NULL, NULL),
	CLI_ROW("cert", CLI_ABSENT, 0, 0, S_INFO, NULL, NULL),
};

/* avbtool's options in the order its parsers add them (each
 * subcommand's in this order): an ambiguous prefix's matches are listed
 * so, as argparse lists them. */
static const char avbtool_order[] =
	" image output cert atx output_pubkey padding_size "
	"partition_size vbmeta_image dynamic_partition_size "
	"partition_name hash_algorithm hashtree_disabled salt "
	"block_size generate_fec do_not_generate_fec fec_num_roots "
	"calc_max_image_size output_vbmeta_image "
	"do_not_append_vbmeta_image setup_as_rootfs_from_kernel "
	"no_hashtree check_at_most_once keep_hashtree key "
	"expected_chain_partition follow_chain_partitions "
	"accept_zeroed_hashtree json algorithm signing_helper "
	"signing_helper_with_files public_key_metadata rollback_index "
	"rollback_index_location internal_release_string "
	"append_to_release_string prop prop_from_file kernel_cmdline "
	"setup_rootfs_from_kernel "
	"generate_dm_verity_cmdline_from_hashtree "
	"include_descriptors_from_image print_required_libavb_version "
	"chain_partition chain_partition_do_not_use_ab flags "
	"set_hashtree_disabled_flag set_verification_disabled_flag "
	"use_persistent_digest do_not_use_ab ";

static const struct cli_table table = {
	.command = "fastverity avb",
	.word = "avb",
	.anchor = "avbtool",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.usage_exit = AVB_USAGE,
	.absent_exit = EXIT_PARAMS,
	.prefixes = 1,
	.prefix_order = avbtool_order,
	.sep = ' ',
	.width = 44,
};

static const struct cli_group group = {
	.table = &table,
	.subs = subs,
	.n = sizeof(subs) / sizeof(subs[0]),
	.usage = "[--option value ...]",
	.what = "avbtool's image commands, with avbtool's options "
		"(docs/android.md)",
	.absent = missing_subs,
	.usage_exit = AVB_USAGE,
	.list_unknown = 1,
};

/* The options given to sub as pairs of avbtool's names and values, into
 * a->pairs (to free): first (a->npairs) those the library's requests
 * read, all but those read here (verify_image's key included); then
 * those (to a->nall) for its check of the usage. */
static int pairs(struct cli_avb_args *a, unsigned sub)
{
	static const char here[] =
		" image output output_pubkey threads progress json "
		"generate_fec calc_max_image_size hashtree_disabled "
		"print_required_libavb_version keep_hashtree vbmeta_image "
		"accept_zeroed_hashtree follow_chain_partitions ";
	size_t max = table.n + a->nprops + a->nprops_from_file + a->nchains +
		     a->nchains_no_ab + a->nincludes + a->ncmdlines +
		     a->nexpected;
	char word[64];

	if (!(a->pairs = calloc(2 * max, sizeof(*a->pairs))))
		return cli_error(-ENOMEM, "out of memory");
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < table.n; i++) {
			const struct cli_option *w = &rows[i];
			const char *at = (const char *)a + w->field;
			size_t count =
				w->kind != CLI_LIST
					? 1
					: *(const size_t *)((const char *)a +
							    w->extra);

			snprintf(word, sizeof(word), " %s ", w->name);
			if (!(w->actions & sub) || w->kind == CLI_ABSENT ||
			    (strstr(here, word) ||
			     (sub == S_VERIFY && !strcmp(w->name, "key"))) !=
				    pass)
				continue;
			for (size_t j = 0; j < count; j++) {
				const char *value =
					w->kind == CLI_FLAG
						? (*(const int *)at ? "1"
								    : NULL)
					: w->kind == CLI_VALUE
						? *(const char *const *)at
						: (*(const char *const *const *)
							   at)[j];

				if (value) {
					a->pairs[2 * a->nall] = w->name;
					a->pairs[2 * a->nall++ + 1] = value;
				}
			}
		}
		if (!pass)
			a->npairs = a->nall;
	}
	return 0;
}

/* A writer's vbmeta request: the options, avbtool's temporary files'
 * directory (TMPDIR's, else /tmp). */
static struct fv_vbmeta_request vb_request(const struct cli_avb_args *a)
{
	const char *tmp = getenv("TMPDIR");

	return (struct fv_vbmeta_request){
		.size = sizeof(struct fv_vbmeta_request),
		.temp_dir = tmp && *tmp ? tmp : "/tmp",
		.options = a->pairs,
		.noptions = a->npairs};
}

/* The library's options of a run: --threads, --progress. */
static int run_options(const struct cli_avb_args *a, fv_options *opts,
		       struct cli_progress *bar)
{
	return cli_run_options(&(struct cli_opts){.threads = (char *)a->threads,
						  .progress = a->progress,
						  .action = a->sub},
			       opts, bar);
}

/* --print_required_libavb_version (max 0), --calc_max_image_size. */
static int needs(const struct fv_vbmeta_request *v,
		 const struct fv_footer_request *f, int max)
{
	struct fv_avb_needs n = {.size = sizeof(n)};
	int r = fv_avb_needs(v, f, &n);

	if (r)
		return cli_lib_error(r);
	if (max)
		printf("%" PRIu64 "\n", n.max_image_size);
	else
		printf("1.%u\n", n.libavb_minor);
	return 0;
}

static int footer(const struct cli_avb_args *a, enum fv_footer_kind kind)
{
	struct cli_progress bar = {0};
	struct fv_vbmeta_request v = vb_request(a);
	struct fv_footer_request f = {
		.size = sizeof(f), .kind = kind, .vbmeta = &v};
	fv_options opts = {.size = sizeof(opts)};
	int r;

	/* the options read first, as avbtool's parser reads them (then
	 * fastverity's --changed) */
	if ((r = fv_avb_needs(NULL, &f, NULL)))
		return cli_avb_error(r);
	if (a->print_required_libavb_version || a->calc_max_image_size)
		return !a->print_required_libavb_version &&
				       kind == FV_FOOTER_HASH &&
				       a->dynamic_partition_size
			       ? cli_error(
					 -EINVAL,
					 "--calc_max_image_size not supported "
					 "with --dynamic_partition_size")
			       : needs(NULL, &f,
				       !a->print_required_libavb_version);
	if (!a->image)
		return cli_error(-EINVAL, "avb %s: --image is required",
				 a->sub);
	if (a->generate_fec)
		fprintf(stderr,
			"The --generate_fec option is deprecated since FEC is "
			"now generated by default. Use the option "
			"--do_not_generate_fec to not generate FEC.\n");
	if (kind == FV_FOOTER_HASHTREE && run_options(a, &opts, &bar))
		return EXIT_PARAMS;
	r = fv_avb_add_footer(a->image, &f, &opts);
	cli_progress_end(&bar);
	if (r)
		return cli_write_error(r);
	/* avbtool's default for a hash tree, said once it is made (a
	 * refusal stays one line) */
	if (kind == FV_FOOTER_HASHTREE && !a->hash_algorithm)
		fprintf(stderr, "Defaulting to sha1: no --hash_algorithm was "
				"given (Android's trees use sha256)\n");
	return 0;
}

static int make_vbmeta(const struct cli_avb_args *a)
{
	struct fv_vbmeta_request v = vb_request(a);
	int r;

	/* the options read first (padding_size last), as avbtool's parser */
	if ((r = fv_avb_needs(&v, NULL, NULL)))
		return cli_avb_error(r);
	if (a->print_required_libavb_version) /* includes' needs count */
		return needs(&v, NULL, 0);
	if (!a->output)
		return cli_error(-EINVAL, "No output file given");
	if ((r = fv_avb_make_vbmeta_image(a->output, &v, 0)))
		r = cli_write_error(r);
	return r;
}

/* verify_image: the vbmeta's signature and signer, then every hash and
 * hashtree descriptor over its image (every block of a tree, and its
 * parity), chain descriptors against --expected_chain_partition or
 * followed. The library reads the expected chains, walks the set and
 * says each step in avbtool's words (FV_SHOW_AVB_VERIFY: one level of
 * chains, stopping at the first failure), or one --json document. */
static int verify(const struct cli_avb_args *a)
{
	struct fv_slot_request set = {
		.size = sizeof(set),
		.image = a->image,
		.container = "avb",
		.key = a->key,
		.flags = FV_SLOT_CHECK | FV_SLOT_STOP | FV_SLOT_EXPECTED |
			 (a->follow ? FV_SLOT_FOLLOW : 0) |
			 (a->accept_zeroed_hashtree ? FV_SLOT_ACCEPT_ZEROED
						    : 0)};
	struct fv_show_request q = {.what = FV_SHOW_AVB_VERIFY, .set = &set};
	struct cli_progress bar = {0};
	fv_options opts;
	int r;

	if (run_options(a, &opts, &bar))
		return EXIT_PARAMS;
	q.o = &opts;
	r = cli_avb_show(a, &q, NULL, NULL);
	cli_progress_end(&bar);
	/* --json: the error's document when none was printed */
	if (a->json && r)
		cli_json_final(r, "verification failed");
	return r;
}

/* extract_public_key (the key's blob) and _digest (its SHA-256 in hex,
 * no newline, as avbtool 1.3.0 writes it); generate_key, fastverity's (an
 * RSA key is openssl's): an output that exists is a parameter to change,
 * not a busy one. */
static int key_file(const struct cli_avb_args *a, enum fv_avb_key_op op,
		    const char *words)
{
	int gen = op == FV_AVB_KEY_GENERATE;
	struct fv_avb_key_request q = {.size = sizeof(q),
				       .op = op,
				       .key = a->key,
				       .algorithm = a->algorithm,
				       .output = gen ? a->output : NULL};
	uint8_t *out;
	size_t len;
	int r;

	if (gen) {
		r = fv_avb_key(&q, NULL, NULL);
		return !r             ? EXIT_OK
		       : r == -EEXIST ? cli_lib_error(-EINVAL)
				      : cli_write_error(r);
	}
	if ((r = fv_avb_key(&q, &out, &len)))
		return cli_lib_error(r);
	r = cli_avb_write(a->output, words, out, len, a->key);
	fv_free(out);
	return r;
}

/* erase_footer, append_vbmeta_image, resize_image, zero_hashtree. */
static int edit(const struct cli_avb_args *a, unsigned sub)
{
	struct fv_avb_edit_request e = {
		.size = sizeof(e),
		.op = sub == S_ERASE    ? FV_AVB_EDIT_ERASE_FOOTER
		      : sub == S_APPEND ? FV_AVB_EDIT_APPEND_VBMETA_IMAGE
		      : sub == S_RESIZE ? FV_AVB_EDIT_RESIZE_IMAGE
					: FV_AVB_EDIT_ZERO_HASHTREE,
		.image = a->image,
		.flags = a->keep_hashtree ? FV_ERASE_KEEP_HASHTREE : 0,
		.vbmeta_image = a->vbmeta_image,
		.options = a->pairs,
		.noptions = a->npairs};
	int r;

	return (r = fv_avb_edit(&e)) ? cli_avb_error(r) : EXIT_OK;
}

/* avbtool's exit codes: 2 a usage error, 1 every other failure. */
static int avbtool_exit(int r)
{
	return !r ? EXIT_OK : r == AVB_USAGE ? 2 : EXIT_PARAMS;
}

/* Subcommand s on the options in base: 0, or the exit code before
 * avbtool_exit. */
static int run(const struct cli_sub *s, void *base)
{
	/* what the library shows, written to stdout or --output */
	static const struct {
		unsigned bit;
		enum fv_show_what what;
		const char *words;
	} shows[] = {
		{S_INFO, FV_SHOW_AVB_INFO, "image information"},
		{S_DIGESTS, FV_SHOW_AVB_DIGESTS, "partition digests"},
		{S_CMDLINE, FV_SHOW_AVB_CMDLINE, "kernel command line"},
		{S_DIGEST, FV_SHOW_AVB_VBMETA_DIGEST, "vbmeta digest"},
		{S_EXTRACT_VBMETA, FV_SHOW_AVB_VBMETA, "vbmeta image"},
	};
	struct cli_avb_args *a = base;
	int r;

	a->sub = s->name;
	/* what avbtool's parser refuses before it runs a subcommand: the
	 * library's check */
	if ((r = pairs(a, s->bit)))
		goto out;
	if ((r = cli_show(&(struct fv_show_request){
		     .size = sizeof(struct fv_show_request),
		     .what = FV_SHOW_AVB_USAGE,
		     .args = s->name,
		     .options = a->pairs,
		     .noptions = a->nall}))) {
		r = cli_avb_error(r);
		goto out;
	}
	for (size_t i = 0; i < sizeof(shows) / sizeof(shows[0]); i++)
		if (shows[i].bit == s->bit) {
			r = cli_avb_show(a,
					 &(struct fv_show_request){
						 .what = shows[i].what},
					 a->output, shows[i].words);
			goto out;
		}
	switch (s->bit) {
	case S_HASHTREE:
	case S_HASH:
		r = footer(a, s->bit == S_HASH ? FV_FOOTER_HASH
					       : FV_FOOTER_HASHTREE);
		break;
	case S_VERIFY:
		r = verify(a);
		break;
	case S_MAKE:
		r = make_vbmeta(a);
		break;
	case S_EXTRACT_KEY:
		r = key_file(a, FV_AVB_KEY_BLOB, "public key file");
		break;
	case S_KEY_DIGEST:
		r = key_file(a, FV_AVB_KEY_DIGEST, "public key digest file");
		break;
	case S_GENKEY:
		r = key_file(a, FV_AVB_KEY_GENERATE, NULL);
		break;
	case S_ERASE:
	case S_APPEND:
	case S_RESIZE:
	case S_ZERO:
		r = edit(a, s->bit);
		break;
	default:
		printf("%s\n", FV_AVB_RELEASE);
		r = EXIT_OK;
		break;
	}
out:
	/* --json: one document also when the command failed before it
	 * wrote one (docs/json.md): the error's */
	if (r && a->json && !cli_json_emitted && !cli_jsonc_load())
		cli_json_final(avbtool_exit(r), "failed");
	free(a->pairs);
	return r;
}

int cli_avb_main(int argc, const char **argv)
{
	struct cli_avb_args a = {0};

	return avbtool_exit(
		cli_group_run(&group, argc, argv, &a, NULL, NULL, run));
}
