/* fastverity avb SUBCOMMAND [--option value ...]: avbtool's image
 * commands with avbtool's spelling, so that a build script swaps
 * `avbtool` for `fastverity avb` (docs/android.md). Options avbtool has
 * and fastverity does not are refused by name, never ignored. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/jsonc.h"
#include "cli/options.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/pair.h"
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

/* A usage error, avbtool's (argparse's) exit 2 in the end; every other
 * failure is avbtool's AvbError, exit 1 (cli_avb_main). */
#define AVB_USAGE 64

/* avbtool's options in the order its parsers add them (each
 * subcommand's in this order): an ambiguous prefix's matches are listed
 * so, as argparse lists them. */
static const char *const avbtool_order[] = {
	"image",
	"output",
	"cert",
	"atx",
	"output_pubkey",
	"padding_size",
	"partition_size",
	"vbmeta_image",
	"dynamic_partition_size",
	"partition_name",
	"hash_algorithm",
	"hashtree_disabled",
	"salt",
	"block_size",
	"generate_fec",
	"do_not_generate_fec",
	"fec_num_roots",
	"calc_max_image_size",
	"output_vbmeta_image",
	"do_not_append_vbmeta_image",
	"setup_as_rootfs_from_kernel",
	"no_hashtree",
	"check_at_most_once",
	"keep_hashtree",
	"key",
	"expected_chain_partition",
	"follow_chain_partitions",
	"accept_zeroed_hashtree",
	"json",
	"algorithm",
	"signing_helper",
	"signing_helper_with_files",
	"public_key_metadata",
	"rollback_index",
	"rollback_index_location",
	"internal_release_string",
	"append_to_release_string",
	"prop",
	"prop_from_file",
	"kernel_cmdline",
	"setup_rootfs_from_kernel",
	"generate_dm_verity_cmdline_from_hashtree",
	"include_descriptors_from_image",
	"print_required_libavb_version",
	"chain_partition",
	"chain_partition_do_not_use_ab",
	"flags",
	"set_hashtree_disabled_flag",
	"set_verification_disabled_flag",
	"use_persistent_digest",
	"do_not_use_ab",
	NULL};

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

/* avbtool's numbers: decimal, 0x hex, 0o octal, 0b binary. 0, or
 * AVB_USAGE for no number (argparse's type=parse_number refuses it),
 * EXIT_PARAMS for one too large; the message printed. */
static int parse_number(const char *opt, const char *s, uint64_t max,
			uint64_t *out)
{
	const char *digits = s;
	int base = 10;
	char *end;
	unsigned long long v;

	if (!s)
		return 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, digits = s + 2;
	else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
		base = 8, digits = s + 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, digits = s + 2;
	errno = 0;
	if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ') {
		cli_error(-EINVAL, "--%s: '%s' is not a number", opt, s);
		return AVB_USAGE;
	}
	v = strtoull(digits, &end, base);
	if (*end || errno == EINVAL) {
		cli_error(-EINVAL, "--%s: '%s' is not a number", opt, s);
		return AVB_USAGE;
	}
	if (errno)
		return cli_error(-EINVAL, "--%s: %s is larger than %" PRIu64,
				 opt, s, max);
	if (v > max)
		return cli_error(-EINVAL, "--%s: %s is larger than %" PRIu64,
				 opt, s, max);
	*out = v;
	return 0;
}

/* A vbmeta request and what it points to, owned here. */
struct vb {
	struct fv_vbmeta_request q;
	struct fv_vbmeta_chain *chains;
	struct fv_vbmeta_property *props;
	uint8_t **values; /* the property files' bytes */
};

static void vb_free(struct vb *v)
{
	for (size_t i = 0; i < v->q.nchains; i++)
		free((char *)v->chains[i].partition);
	for (size_t i = 0; i < v->q.nproperties; i++) {
		free((char *)v->props[i].key);
		fv_free(v->values[i]);
	}
	free(v->chains);
	free(v->props);
	free(v->values);
}

/* The vbmeta request every writer shares, into v (vb_free). */
static int vb_options(const struct cli_avb_args *a, struct vb *v)
{
	size_t nchains = a->nchains + a->nchains_no_ab,
	       nprops = a->nprops + a->nprops_from_file;
	uint64_t index = 0, location = 0, flags = 0;
	const char *tmp = getenv("TMPDIR");
	int r;

	memset(v, 0, sizeof(*v));
	if ((nchains && !(v->chains = calloc(nchains, sizeof(*v->chains)))) ||
	    (nprops && (!(v->props = calloc(nprops, sizeof(*v->props))) ||
			!(v->values = calloc(nprops, sizeof(*v->values))))))
		return cli_error(-ENOMEM, "out of memory");
	if ((r = parse_number("rollback_index", a->rollback_index, UINT64_MAX,
			      &index)) ||
	    (r = parse_number("rollback_index_location",
			      a->rollback_index_location, UINT32_MAX,
			      &location)) ||
	    (r = parse_number("flags", a->flags, UINT32_MAX, &flags)))
		return r;
	v->q = (struct fv_vbmeta_request){
		.size = sizeof(v->q),
		.algorithm = a->algorithm,
		.key = a->key,
		.sign_flags = a->deterministic ? FV_VBMETA_DETERMINISTIC : 0,
		.rollback_index = index,
		.rollback_location = (uint32_t)location,
		.flags = (uint32_t)flags |
			 (a->set_hashtree_disabled_flag ? 1u : 0) |
			 (a->set_verification_disabled_flag ? 2u : 0),
		.release = a->release,
		.release_append = a->append_release,
		.chains = v->chains,
		.properties = v->props,
		.cmdlines = (const char *const *)a->cmdlines,
		.ncmdlines = a->ncmdlines,
		.includes = (const char *const *)a->includes,
		.nincludes = a->nincludes,
		.signing_helper = a->signing_helper_with_files
					  ? a->signing_helper_with_files
					  : a->signing_helper,
		.signing_helper_with_files =
			a->signing_helper_with_files != NULL,
		.public_key_metadata = a->public_key_metadata,
		/* avbtool's temporary files: TMPDIR's, else /tmp */
		.temp_dir = tmp && *tmp ? tmp : "/tmp",
	};
	/* avbtool's order: chains (those with A/B first), properties,
	 * command lines, includes */
	for (size_t i = 0; i < nchains; i++) {
		int no_ab = i >= a->nchains;
		const char *s = no_ab ? a->chains_no_ab[i - a->nchains]
				      : a->chains[i],
			   *c1 = strchr(s, ':'), *c2;
		uint64_t loc;
		char *name, *num;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
			return cli_error(-EINVAL,
					 "Malformed chained partition \"%s\".",
					 s);
		if (!(num = strndup(c1 + 1, (size_t)(c2 - c1 - 1))))
			return cli_error(-ENOMEM, "out of memory");
		/* (avbtool's int() of it fails in the run: exit 1) */
		r = parse_number("chain_partition", num, UINT32_MAX, &loc);
		free(num);
		if (r)
			return EXIT_PARAMS;
		if (!(name = strndup(s, (size_t)(c1 - s))))
			return cli_error(-ENOMEM, "out of memory");
		v->chains[v->q.nchains++] = (struct fv_vbmeta_chain){
			name, (uint32_t)loc, c2 + 1,
			no_ab ? FV_CHAIN_DO_NOT_USE_AB : 0};
	}
	for (size_t i = 0; i < nprops; i++) {
		int file = i >= a->nprops;
		const char *s =
			file ? a->props_from_file[i - a->nprops] : a->props[i];
		const char *colon = strchr(s, ':');
		struct fv_vbmeta_property *p = &v->props[i];

		if (!colon)
			return cli_error(-EINVAL, "Malformed property \"%s\".",
					 s);
		if (!(p->key = strndup(s, (size_t)(colon - s))))
			return cli_error(-ENOMEM, "out of memory");
		v->q.nproperties++;
		if (!file) {
			p->value = (const uint8_t *)colon + 1;
			p->len = strlen(colon + 1);
		} else if ((r = cli_input_read(colon + 1, "property file",
					       1u << 20, &v->values[i],
					       &p->len))) {
			return cli_lib_error(r);
		} else {
			p->value = v->values[i];
		}
	}
	return 0;
}

/* The footer's request, into f (pointing into a, v and ranges, which
 * the caller frees). */
static int footer_options(const struct cli_avb_args *a,
			  enum fv_footer_kind kind, const struct vb *v,
			  struct fv_footer_request *f, uint8_t *salt,
			  uint64_t **ranges)
{
	uint64_t block = 4096, size = 0, roots = 2;
	size_t n = 0;
	int r;

	if ((r = parse_number("block_size", a->block_size, UINT32_MAX,
			      &block)) ||
	    (r = parse_number("partition_size", a->partition_size, INT64_MAX,
			      &size)) ||
	    (r = parse_number("fec_num_roots", a->fec_num_roots, 255, &roots)))
		return r;
	*f = (struct fv_footer_request){
		.size = sizeof(*f),
		.kind = kind,
		.partition_name = a->partition_name,
		.partition_size = size,
		.hash = a->hash_algorithm,
		.block_size = (uint32_t)block,
		.fec_roots = (unsigned)roots,
		.flags =
			(a->do_not_use_ab ? FV_FOOTER_DO_NOT_USE_AB : 0) |
			(a->check_at_most_once ? FV_FOOTER_CHECK_AT_MOST_ONCE
					       : 0) |
			(a->dynamic_partition_size ? FV_FOOTER_DYNAMIC_SIZE
						   : 0) |
			(a->do_not_append_vbmeta_image ? FV_FOOTER_DO_NOT_APPEND
						       : 0) |
			(a->use_persistent_digest ? FV_FOOTER_PERSISTENT_DIGEST
						  : 0) |
			(a->do_not_generate_fec || !roots ? FV_FOOTER_NO_FEC
							  : 0),
		.output_vbmeta = a->output_vbmeta_image,
		.vbmeta = &v->q,
	};
	/* --changed, fastverity's: the ranges given to the library */
	if (a->changed) {
		if ((r = cli_parse_changed(a->changed, ranges, &n)))
			return r;
		f->changed = *ranges;
		f->nchanged = n;
		f->flags |= FV_FOOTER_CHANGED_GIVEN;
	}
	/* --salt: hex, '' for none; absent: random */
	if (a->salt) {
		if (cli_unhex(a->salt, salt, FV_MAX_SALT_SIZE, &n))
			return cli_error(
				-EINVAL,
				"--salt: '%s' is not hex of at most %d bytes",
				a->salt, FV_MAX_SALT_SIZE);
		f->salt = salt;
		f->salt_len = n;
		f->flags |= FV_FOOTER_SALT_GIVEN;
	}
	return 0;
}

static int footer(const struct cli_avb_args *a, enum fv_footer_kind kind)
{
	uint8_t salt[FV_MAX_SALT_SIZE];
	struct cli_progress bar = {0};
	struct fv_footer_request f;
	fv_options opts = {.size = sizeof(opts)};
	uint64_t *ranges = NULL;
	struct vb v;
	int r;

	if ((r = vb_options(a, &v)) ||
	    (r = footer_options(a, kind, &v, &f, salt, &ranges)))
		goto out;
	if (a->print_required_libavb_version) {
		struct fv_avb_needs n = {.size = sizeof(n)};

		if ((r = fv_avb_needs(NULL, &f, &n)))
			r = cli_lib_error(r);
		else
			printf("1.%u\n", n.libavb_minor);
		goto out;
	}
	if (a->calc_max_image_size) {
		struct fv_avb_needs n = {.size = sizeof(n)};

		if (kind == FV_FOOTER_HASH && a->dynamic_partition_size)
			r = cli_error(-EINVAL,
				      "--calc_max_image_size not supported "
				      "with --dynamic_partition_size");
		else if ((r = fv_avb_needs(NULL, &f, &n)))
			r = cli_lib_error(r);
		else
			printf("%" PRIu64 "\n", n.max_image_size);
		goto out;
	}
	if (!a->image) {
		r = cli_error(-EINVAL, "avb %s: --image is required", a->sub);
		goto out;
	}
	if (a->generate_fec)
		fprintf(stderr,
			"The --generate_fec option is deprecated since FEC is "
			"now generated by default. Use the option "
			"--do_not_generate_fec to not generate FEC.\n");
	if (kind == FV_FOOTER_HASHTREE) {
		struct cli_opts o;

		memset(&o, 0, sizeof(o));
		o.threads = (char *)a->threads;
		o.progress = a->progress;
		o.action = a->sub;
		if (cli_run_options(&o, &opts, &bar)) {
			r = EXIT_PARAMS;
			goto out;
		}
	}
	r = fv_avb_add_footer(a->image, &f, &opts);
	cli_progress_end(&bar);
	if (r)
		r = cli_write_error(r);
	/* avbtool's default for a hash tree, said once it is made (a
	 * refusal stays one line) */
	else if (kind == FV_FOOTER_HASHTREE && !a->hash_algorithm)
		fprintf(stderr, "Defaulting to sha1: no --hash_algorithm was "
				"given (Android's trees use sha256)\n");
out:
	free(ranges);
	vb_free(&v);
	return r;
}

static int make_vbmeta(const struct cli_avb_args *a)
{
	uint64_t padding = 0;
	struct fv_avb_needs n = {.size = sizeof(n)};
	struct vb v;
	int r;

	if ((r = vb_options(a, &v)) ||
	    (r = parse_number("padding_size", a->padding_size, 1u << 30,
			      &padding)))
		goto out;
	if (a->print_required_libavb_version) {
		/* the included images' needs count too */
		if ((r = fv_avb_needs(&v.q, NULL, &n)))
			r = cli_lib_error(r);
		else
			printf("1.%u\n", n.libavb_minor);
		goto out;
	}
	if (!a->output) {
		r = cli_error(-EINVAL, "No output file given");
		goto out;
	}
	/* (its included images, its key, its public key metadata, its
	 * signing helper: the library refuses a chained key too) */
	for (size_t i = 0; i < a->nincludes + 4; i++) {
		const char *fixed[] = {a->key, a->public_key_metadata,
				       a->signing_helper,
				       a->signing_helper_with_files};
		const char *in = i < a->nincludes ? a->includes[i]
						  : fixed[i - a->nincludes];

		if (in && cli_same_storage(a->output, in)) {
			r = cli_error(-EINVAL,
				      "--output %s: is the input %s: an "
				      "output is never written over what is "
				      "read",
				      a->output, in);
			goto out;
		}
	}
	if ((r = fv_avb_make_vbmeta_image(a->output, &v.q, padding)))
		r = cli_write_error(r);
out:
	vb_free(&v);
	return r;
}

static int extract_key(const struct cli_avb_args *a)
{
	struct fv_avb_key_request q = {
		.size = sizeof(q), .op = FV_AVB_KEY_BLOB, .key = a->key};
	uint8_t *blob;
	size_t len;
	int r;

	if (!a->key || !a->output)
		return cli_error(-EINVAL, "avb extract_public_key: --key and "
					  "--output are required");
	if ((r = fv_avb_key(&q, &blob, &len)))
		return cli_lib_error(r);
	r = cli_avb_write(a->output, "public key file", blob, len, &a->key, 1);
	fv_free(blob);
	return r;
}

/* extract_public_key_digest: the hex SHA-256 of the blob, no newline,
 * as avbtool 1.3.0 writes it. */
static int key_digest(const struct cli_avb_args *a)
{
	struct fv_avb_key_request q = {
		.size = sizeof(q), .op = FV_AVB_KEY_DIGEST, .key = a->key};
	uint8_t *hex;
	size_t len;
	int r;

	if (!a->key || !a->output)
		return cli_error(-EINVAL,
				 "avb extract_public_key_digest: --key "
				 "and --output are required");
	if ((r = fv_avb_key(&q, &hex, &len)))
		return cli_lib_error(r);
	r = cli_avb_write(a->output, "public key digest file", hex, len,
			  &a->key, 1);
	fv_free(hex);
	return r;
}

/* generate_key: fastverity's, as avbtool has no key maker (an RSA key
 * is openssl's). */
static int generate_key(const struct cli_avb_args *a)
{
	struct fv_avb_key_request q = {.size = sizeof(q),
				       .op = FV_AVB_KEY_GENERATE,
				       .algorithm = a->algorithm,
				       .output = a->output};
	int r;

	if (!a->algorithm || !a->output)
		return cli_error(-EINVAL, "avb generate_key: --algorithm "
					  "(MLDSA65, MLDSA87) and --output "
					  "are required");
	r = fv_avb_key(&q, NULL, NULL);
	/* an output that exists is a parameter to change, not a busy one */
	return !r             ? EXIT_OK
	       : r == -EEXIST ? cli_lib_error(-EINVAL)
			      : cli_write_error(r);
}

static int erase(const struct cli_avb_args *a)
{
	int r;

	if (!a->image)
		return cli_error(-EINVAL,
				 "avb erase_footer: --image is required");
	r = fv_avb_edit(&(struct fv_avb_edit_request){
		.size = sizeof(struct fv_avb_edit_request),
		.op = FV_AVB_EDIT_ERASE_FOOTER,
		.image = a->image,
		.flags = a->keep_hashtree ? FV_ERASE_KEEP_HASHTREE : 0});
	return r ? cli_write_error(r) : EXIT_OK;
}

/* append_vbmeta_image, resize_image, zero_hashtree. */
static int rewrite(const struct cli_avb_args *a, unsigned sub)
{
	struct fv_avb_edit_request e = {.size = sizeof(e)};
	uint64_t size = 0;
	int r;

	if (!a->image)
		return cli_error(-EINVAL, "avb %s: --image is required",
				 a->sub);
	if (sub != S_ZERO) {
		if (!a->partition_size)
			return cli_error(-EINVAL,
					 "avb %s: --partition_size is required",
					 a->sub);
		if ((r = parse_number("partition_size", a->partition_size,
				      INT64_MAX, &size)))
			return r;
	}
	if (sub == S_APPEND && !a->vbmeta_image)
		return cli_error(-EINVAL,
				 "avb append_vbmeta_image: --vbmeta_image is "
				 "required");
	e.op = sub == S_APPEND   ? FV_AVB_EDIT_APPEND_VBMETA_IMAGE
	       : sub == S_RESIZE ? FV_AVB_EDIT_RESIZE_IMAGE
				 : FV_AVB_EDIT_ZERO_HASHTREE;
	e.image = a->image;
	e.vbmeta_image = sub == S_APPEND ? a->vbmeta_image : NULL;
	e.partition_size = size;
	r = fv_avb_edit(&e);
	return r ? cli_write_error(r) : EXIT_OK;
}

/* argparse's FileType: a file avbtool opens while it parses its
 * arguments, a failure a usage error (exit 2): an input opened (rw: for
 * writing too), an output's directory (or the file) writable. 0 or
 * AVB_USAGE, the message printed. */
static int can_open(const char *sub, const char *opt, const char *path,
		    int output, int rw)
{
	struct stat st;
	int fd, e = 0;

	if (!path)
		return 0;
	if (!output) {
		/* ENOTDIR: fastverity's IMAGE/NAME of a super image's
		 * partition, the library's to read */
		if ((fd = open(path, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC)) < 0)
			e = errno == ENOTDIR ? 0 : errno;
		else
			close(fd);
	} else if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			e = EISDIR;
		else if (access(path, W_OK))
			e = errno;
	} else if (errno != ENOENT) {
		e = errno;
	} else {
		const char *slash = strrchr(path, '/');
		char *dir = slash ? strndup(path, (size_t)(slash - path) +
							  (slash == path))
				  : strdup(".");

		if (!dir)
			return cli_error(-ENOMEM, "out of memory");
		if (stat(dir, &st))
			e = errno;
		else if (!S_ISDIR(st.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK))
			e = errno;
		free(dir);
	}
	if (!e)
		return 0;
	cli_error(-EINVAL, "avb %s: argument --%s: can't open '%s': %s", sub,
		  opt, path, strerror(e));
	return AVB_USAGE;
}

/* What avbtool's parser refuses before it runs a subcommand: an option
 * required=True missing (or one whose absence makes run() print its
 * usage), a FileType file that cannot be opened. 0, AVB_USAGE, or the
 * exit code of another failure; the message printed. */
static int avbtool_usage(const struct cli_sub *s, const struct cli_avb_args *a)
{
	const unsigned image_required = S_INFO | S_VERIFY | S_ERASE | S_DIGEST |
					S_EXTRACT_VBMETA | S_APPEND | S_RESIZE |
					S_ZERO | S_DIGESTS | S_CMDLINE;
	const unsigned image_rw =
		S_HASHTREE | S_APPEND | S_ERASE | S_RESIZE | S_ZERO;
	const unsigned image_file = image_required | S_HASHTREE;
	const char *missing = NULL;
	int r;

	if (s->bit == S_EXTRACT_VBMETA && (!a->image || !a->output))
		missing = "--image and --output";
	else if ((s->bit & image_required) && !a->image)
		missing = "--image";
	else if ((s->bit & (S_EXTRACT_KEY | S_KEY_DIGEST)) &&
		 (!a->key || !a->output))
		missing = "--key and --output";
	else if ((s->bit & S_GENKEY) && (!a->algorithm || !a->output))
		missing = "--algorithm (MLDSA65, MLDSA87) and --output";
	else if (s->bit == S_APPEND && !a->partition_size)
		missing = "--partition_size";
	else if (s->bit == S_APPEND && !a->vbmeta_image)
		missing = "--vbmeta_image";
	if (missing) {
		cli_error(-EINVAL, "avb %s: %s %s required", s->name, missing,
			  strchr(missing, ' ') ? "are" : "is");
		return AVB_USAGE;
	}
	if ((s->bit & image_file) &&
	    (r = can_open(s->name, "image", a->image, 0, s->bit & image_rw)))
		return r;
	if ((r = can_open(s->name, "vbmeta_image", a->vbmeta_image, 0, 0)))
		return r;
	for (size_t i = 0; i < a->nincludes; i++)
		if ((r = can_open(s->name, "include_descriptors_from_image",
				  a->includes[i], 0, 0)))
			return r;
	if (s->bit & S_GENKEY) /* fastverity's: it never writes over a file */
		return 0;
	if ((r = can_open(s->name, "output", a->output, 1, 0)) ||
	    (r = can_open(s->name, "output_pubkey", a->output_pubkey, 1, 0)))
		return r;
	return can_open(s->name, "output_vbmeta_image", a->output_vbmeta_image,
			1, 0);
}

/* avbtool's exit codes: 2 a usage error, 1 every other failure. */
static int avbtool_exit(int r)
{
	return !r ? EXIT_OK : r == AVB_USAGE ? 2 : EXIT_PARAMS;
}

int cli_avb_main(int argc, const char **argv)
{
	const struct cli_sub *s;
	struct cli_avb_args a;
	int r;

	memset(&a, 0, sizeof(a));
	if ((r = cli_group_parse(&group, argc, argv, &a, NULL, NULL, &s))) {
		cli_options_free(&table, &a);
		return r < 0 ? EXIT_OK : avbtool_exit(r);
	}
	a.sub = s->name;
	if ((r = avbtool_usage(s, &a)))
		goto out;
	/* the subcommands that read an Android image ask the registry that
	 * it is one (a sparse image is refused with what makes a raw one) */
	if ((s->bit &
	     (S_INFO | S_VERIFY | S_ERASE | S_DIGEST | S_EXTRACT_VBMETA |
	      S_RESIZE | S_ZERO | S_DIGESTS | S_CMDLINE)) &&
	    a.image) {
		const char *kind;

		if ((r = cli_container_of(a.image, "avb", &kind))) {
			r = cli_lib_error(r);
			goto out;
		}
	}
	switch (s->bit) {
	case S_HASHTREE:
		r = footer(&a, FV_FOOTER_HASHTREE);
		break;
	case S_HASH:
		r = footer(&a, FV_FOOTER_HASH);
		break;
	case S_INFO:
	case S_DIGESTS:
	case S_CMDLINE:
		r = cli_avb_show(
			&a,
			&(struct fv_show_request){
				.what = s->bit == S_INFO ? FV_SHOW_AVB_INFO
					: s->bit == S_DIGESTS
						? FV_SHOW_AVB_DIGESTS
						: FV_SHOW_AVB_CMDLINE,
				.json = a.json,
				.hashtree_disabled = a.hashtree_disabled},
			a.output,
			s->bit == S_INFO      ? "image information"
			: s->bit == S_DIGESTS ? "partition digests"
					      : "kernel command line");
		break;
	case S_VERIFY: {
		struct cli_progress bar = {0};
		fv_options opts;
		struct cli_opts o;

		memset(&o, 0, sizeof(o));
		o.threads = (char *)a.threads;
		o.progress = a.progress;
		o.action = s->name;
		r = cli_run_options(&o, &opts, &bar)
			    ? EXIT_PARAMS
			    : cli_avb_verify(&a, &opts);
		cli_progress_end(&bar);
		break;
	}
	case S_MAKE:
		r = make_vbmeta(&a);
		break;
	case S_EXTRACT_KEY:
		r = extract_key(&a);
		break;
	case S_KEY_DIGEST:
		r = key_digest(&a);
		break;
	case S_GENKEY:
		r = generate_key(&a);
		break;
	case S_ERASE:
		r = erase(&a);
		break;
	case S_DIGEST:
		r = cli_avb_show(&a,
				 &(struct fv_show_request){
					 .what = FV_SHOW_AVB_VBMETA_DIGEST,
					 .hash = a.hash_algorithm},
				 a.output, "vbmeta digest");
		break;
	case S_EXTRACT_VBMETA: {
		struct fv_show_request q = {.what = FV_SHOW_AVB_VBMETA};

		if (!(r = parse_number("padding_size", a.padding_size, 1u << 30,
				       &q.padding)))
			r = cli_avb_show(&a, &q, a.output, "vbmeta image");
		break;
	}
	case S_APPEND:
	case S_RESIZE:
	case S_ZERO:
		r = rewrite(&a, s->bit);
		break;
	default:
		printf("%s\n", FV_AVB_RELEASE);
		r = EXIT_OK;
		break;
	}
out:
	r = avbtool_exit(r);
	/* --json: one document also when the command failed before it
	 * wrote one (docs/json.md): the error's */
	if (r && a.json && !cli_json_emitted && !cli_jsonc_load())
		cli_json_final(r, "failed");
	cli_options_free(&table, &a);
	return r;
}
