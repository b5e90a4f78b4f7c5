/* avbtool's command line as `fastverity avb` takes it: its
 * subcommands, those of avbtool's fastverity lacks, every option (which
 * subcommands take it, how it is given, its help) and the order
 * argparse lists an ambiguous prefix's matches in, handed to the command
 * as fv_show's FV_SHOW_AVB_OPTIONS items (verity/android/table.h). */
#include "verity/android/table.h"

#include <stddef.h>
#include <string.h>

/* The subcommands, as bits of an option's subcommands. */
enum {
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

/* How an option is given (an item's d): a flag, a value, a repeatable
 * value, or avbtool's option fastverity lacks (arg: it takes a value). */
enum kind { K_FLAG, K_VALUE, K_LIST, K_ABSENT };

struct sub {
	const char *name;
	unsigned bit;
	const char *what;
};

struct row {
	const char *name;
	enum kind kind;
	unsigned subs;
	const char *arg, *help;
};

static const struct sub subs[] = {
	{"add_hashtree_footer", S_HASHTREE,
	 "add a hash tree, parity and footer to an image"},
	{"add_hash_footer", S_HASH, "add a hash and footer to an image"},
	{"info_image", S_INFO, "show an image's footer and vbmeta"},
	{"verify_image", S_VERIFY, "check an image: signature, digests, tree"},
	{"make_vbmeta_image", S_MAKE, "make a vbmeta image"},
	{"extract_public_key", S_EXTRACT_KEY,
	 "write a key's AVB public key blob"},
	{"extract_public_key_digest", S_KEY_DIGEST,
	 "write the SHA-256 (hex) of a key's AVB public key blob"},
	{"generate_key", S_GENKEY,
	 "fastverity's: make an ML-DSA private key (MLDSA65, MLDSA87)"},
	{"erase_footer", S_ERASE, "remove the footer from an image"},
	{"calculate_vbmeta_digest", S_DIGEST,
	 "digest of the vbmeta and its chained partitions' vbmeta"},
	{"extract_vbmeta_image", S_EXTRACT_VBMETA,
	 "write the vbmeta blob of an image"},
	{"append_vbmeta_image", S_APPEND,
	 "append a vbmeta image's blob and a footer to an image"},
	{"resize_image", S_RESIZE, "move an image's footer to a new size"},
	{"zero_hashtree", S_ZERO, "make an image's hash tree and parity zeros"},
	{"print_partition_digests", S_DIGESTS,
	 "the digest or root of every partition, chains followed"},
	{"calculate_kernel_cmdline", S_CMDLINE,
	 "the kernel command line an image's descriptors make"},
	{"version", S_VERSION, "print the avbtool version this matches"},
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

static const struct row rows[] = {
	{"image", K_VALUE,
	 S_FOOTER | S_INFO | S_VERIFY | S_ERASE | S_DIGEST | S_EXTRACT_VBMETA |
		 S_APPEND | S_RESIZE | S_ZERO | S_DIGESTS | S_CMDLINE,
	 "IMAGE", "the image"},
	{"output", K_VALUE,
	 S_INFO | S_MAKE | S_EXTRACT_KEY | S_DIGEST | S_EXTRACT_VBMETA |
		 S_DIGESTS | S_CMDLINE | S_KEY_DIGEST | S_GENKEY,
	 "FILE", "the output file"},
	{"output_pubkey", K_VALUE, S_INFO, "FILE",
	 "write the vbmeta's public key blob here"},
	{"partition_size", K_VALUE, S_FOOTER | S_APPEND | S_RESIZE, "SIZE",
	 "partition size"},
	{"vbmeta_image", K_VALUE, S_APPEND, "IMAGE",
	 "the image whose vbmeta blob is appended"},
	{"hashtree_disabled", K_FLAG, S_CMDLINE, NULL,
	 "the command line for a disabled hash tree"},
	{"accept_zeroed_hashtree", K_FLAG, S_VERIFY, NULL,
	 "accept a tree and parity zero_hashtree zeroed"},
	{"use_persistent_digest", K_FLAG, S_FOOTER, NULL,
	 "no digest in the descriptor: the device keeps it"},
	{"signing_helper", K_VALUE, S_COMMON, "PROGRAM",
	 "a program that signs in the key's place (stdin, stdout)"},
	{"signing_helper_with_files", K_VALUE, S_COMMON, "PROGRAM",
	 "the same, the block in a file it overwrites"},
	{"public_key_metadata", K_VALUE, S_COMMON, "FILE",
	 "bytes put after the public key"},
	{"chain_partition_do_not_use_ab", K_LIST, S_COMMON,
	 "PART_NAME:ROLLBACK_SLOT:KEY_PATH",
	 "chain a partition that has no A/B slots"},
	{"partition_name", K_VALUE, S_FOOTER, "NAME", "partition name"},
	{"hash_algorithm", K_VALUE, S_FOOTER, "{sha1,sha256,sha512}",
	 "the hash (default: sha256; add_hashtree_footer's: sha1)"},
	{"hash_algorithm", K_VALUE, S_DIGEST, "ALG",
	 "the hash (default: sha256)"},
	{"salt", K_VALUE, S_FOOTER, "HEX", "salt in hex (default: random)"},
	{"block_size", K_VALUE, S_HASHTREE, "SIZE",
	 "block size (default: 4096)"},
	{"generate_fec", K_FLAG, S_HASHTREE, NULL,
	 "deprecated: parity is made by default"},
	{"do_not_generate_fec", K_FLAG, S_HASHTREE, NULL, "no parity"},
	{"fec_num_roots", K_VALUE, S_HASHTREE, "N",
	 "parity roots (default: 2)"},
	{"changed", K_VALUE, S_HASHTREE, "OFFSET:LENGTH,...|@FILE",
	 "fastverity's: over a footer of the same tree, the data bytes "
	 "that "
	 "changed (default: found by a verify of the old tree)"},
	{"calc_max_image_size", K_FLAG, S_FOOTER, NULL,
	 "print the largest image that fits the partition size"},
	{"output_vbmeta_image", K_VALUE, S_FOOTER, "FILE",
	 "also write the vbmeta blob here"},
	{"do_not_append_vbmeta_image", K_FLAG, S_FOOTER, NULL,
	 "no vbmeta or footer in the image"},
	{"check_at_most_once", K_FLAG, S_HASHTREE, NULL,
	 "verify data blocks only the first time they are read"},
	{"dynamic_partition_size", K_FLAG, S_HASH, NULL,
	 "size the partition to the image"},
	{"do_not_use_ab", K_FLAG, S_FOOTER, NULL,
	 "the partition does not use A/B"},
	{"algorithm", K_VALUE, S_COMMON,
	 "{NONE,SHA256_RSA2048,SHA256_RSA4096,SHA256_RSA8192,SHA512_"
	 "RSA2048,"
	 "SHA512_RSA4096,SHA512_RSA8192,MLDSA65,MLDSA87}",
	 "the vbmeta's signature (default: NONE, unsigned)"},
	{"algorithm", K_VALUE, S_GENKEY, "{MLDSA65,MLDSA87}",
	 "the new key's (ML-DSA-65 or -87)"},
	{"key", K_VALUE, S_COMMON | S_EXTRACT_KEY | S_VERIFY | S_KEY_DIGEST,
	 "KEY",
	 "RSA key (PEM, or pkcs11: URI), ML-DSA key (PKCS#8/SPKI, PEM "
	 "or "
	 "DER), or AVB public key blob"},
	{"deterministic", K_FLAG, S_COMMON, NULL,
	 "fastverity's: ML-DSA signatures the same bytes each run "
	 "(reproducible builds; default: hedged, fresh randomness)"},
	{"rollback_index", K_VALUE, S_COMMON, "N", "rollback index"},
	{"rollback_index_location", K_VALUE, S_COMMON, "N",
	 "location of the rollback index"},
	{"internal_release_string", K_VALUE, S_COMMON, "STR",
	 "release string (default: avbtool 1.3.0)"},
	{"append_to_release_string", K_VALUE, S_COMMON, "STR",
	 "text to append to the release string"},
	{"prop", K_LIST, S_COMMON, "KEY:VALUE", "add a property"},
	{"prop_from_file", K_LIST, S_COMMON, "KEY:PATH",
	 "add a property from a file"},
	{"kernel_cmdline", K_LIST, S_COMMON, "CMDLINE",
	 "add a kernel command line"},
	{"include_descriptors_from_image", K_LIST, S_COMMON, "IMAGE",
	 "add the descriptors of an image"},
	{"chain_partition", K_LIST, S_COMMON,
	 "PART_NAME:ROLLBACK_SLOT:KEY_PATH", "chain a partition"},
	{"flags", K_VALUE, S_COMMON, "N", "vbmeta flags"},
	{"set_hashtree_disabled_flag", K_FLAG, S_COMMON, NULL,
	 "set the HASHTREE_DISABLED flag"},
	{"set_verification_disabled_flag", K_FLAG, S_COMMON, NULL,
	 "set the VERIFICATION_DISABLED flag"},
	{"print_required_libavb_version", K_FLAG, S_COMMON, NULL,
	 "print the libavb version the options need"},
	{"padding_size", K_VALUE, S_MAKE | S_EXTRACT_VBMETA, "N",
	 "pad the output to a multiple of N"},
	{"expected_chain_partition", K_LIST, S_VERIFY,
	 "PART_NAME:ROLLBACK_SLOT:KEY_PATH", "expected chained partition"},
	{"follow_chain_partitions", K_FLAG, S_VERIFY, NULL,
	 "check chained partitions too"},
	{"keep_hashtree", K_FLAG, S_ERASE, NULL,
	 "keep the hash tree and parity"},
	{"json", K_FLAG, S_INFO | S_DIGESTS | S_VERIFY, NULL,
	 "JSON output (info_image, verify_image: fastverity's)"},
	{"threads", K_VALUE, S_HASHTREE | S_VERIFY, "N",
	 "worker threads (fastverity; default: one per CPU)"},
	{"progress", K_FLAG, S_HASHTREE | S_VERIFY, NULL,
	 "progress on stderr also when it is not a terminal "
	 "(fastverity)"},
	/* avbtool's, not here */
	{"setup_rootfs_from_kernel", K_ABSENT, S_COMMON, "VALUE", NULL},
	{"generate_dm_verity_cmdline_from_hashtree", K_ABSENT, S_COMMON,
	 "VALUE", NULL},
	{"setup_as_rootfs_from_kernel", K_ABSENT, S_HASHTREE, NULL, NULL},
	{"no_hashtree", K_ABSENT, S_HASHTREE, NULL, NULL},
	{"atx", K_ABSENT, S_INFO, NULL, NULL},
	{"cert", K_ABSENT, S_INFO, NULL, NULL},
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

/* The options no request reads: the command's, and FV_SHOW_AVB_RUN's. */
static const char command_options[] =
	" image output output_pubkey threads progress json generate_fec "
	"calc_max_image_size hashtree_disabled print_required_libavb_version "
	"keep_hashtree vbmeta_image accept_zeroed_hashtree "
	"follow_chain_partitions ";

int verity_android_command_option(const char *name)
{
	size_t n = strlen(name);

	for (const char *at = command_options; n && (at = strstr(at, name));
	     at++)
		if (at > command_options && at[-1] == ' ' && at[n] == ' ')
			return 1;
	return 0;
}

int verity_android_table(fv_item_fn fn, void *ctx)
{
	int r = 0;

	for (size_t i = 0; !r && i < sizeof(subs) / sizeof(subs[0]); i++)
		r = fn(ctx, &(struct fv_item){.kind = FV_ITEM_STRING,
					      .key = subs[i].name,
					      .text = subs[i].what,
					      .u = subs[i].bit});
	for (size_t i = 0; !r && missing_subs[i]; i++)
		r = fn(ctx, &(struct fv_item){.kind = FV_ITEM_NULL,
					      .key = missing_subs[i]});
	for (size_t i = 0; !r && i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!(r = fn(ctx,
			     &(struct fv_item){
				     .kind = FV_ITEM_UINT,
				     .key = rows[i].name,
				     .text = rows[i].arg,
				     .u = rows[i].subs,
				     .d = rows[i].kind +
					  4 * verity_android_command_option(
						      rows[i].name)})))
			r = fn(ctx, &(struct fv_item){.kind = FV_ITEM_TEXT,
						      .text = rows[i].help});
	return r ? r
		 : fn(ctx, &(struct fv_item){.kind = FV_ITEM_ARRAY,
					     .text = avbtool_order});
}
