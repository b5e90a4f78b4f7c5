/* fastverity avb SUBCOMMAND [--option value ...]: avbtool's image
 * commands with avbtool's spelling, so that a build script swaps
 * `avbtool` for `fastverity avb` (docs/android.md). Options avbtool has
 * and fastverity does not are refused by name, never ignored. */
#include "cli/avb.h"
#include "verity/container/avb/image.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <popt.h>

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/inside.h"
#include "verity/container/registry.h"
#include "verity/storage/backing.h"
#include "cli/text.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"
#include "hashtree/hasher.h"
#include "verity/container/avb/rsa.h"
#include "verity/ops.h"
#include "verity/storage/file.h"
#include "verity/storage/output.h"
#include "verity/tree/params.h"

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
	S_COMMON = S_HASHTREE | S_HASH | S_MAKE, /* avbtool's common args */
	S_FOOTER = S_HASHTREE | S_HASH,
};

static const struct subcommand {
	const char *name;
	unsigned bit;
	const char *what;
} subs[] = {
	{"add_hashtree_footer", S_HASHTREE,
	 "add a hash tree, parity and footer to an image"},
	{"add_hash_footer", S_HASH, "add a hash and footer to an image"},
	{"info_image", S_INFO, "show an image's footer and vbmeta"},
	{"verify_image", S_VERIFY, "check an image: signature, digests, tree"},
	{"make_vbmeta_image", S_MAKE, "make a vbmeta image"},
	{"extract_public_key", S_EXTRACT_KEY,
	 "write a key's AVB public key blob"},
	{"erase_footer", S_ERASE, "remove the footer from an image"},
	{"calculate_vbmeta_digest", S_DIGEST,
	 "digest of the vbmeta and its chained partitions' vbmeta"},
	{"extract_vbmeta_image", S_EXTRACT_VBMETA,
	 "write the vbmeta blob of an image"},
	{"version", S_VERSION, "print the avbtool version this matches"},
};

/* avbtool's subcommands fastverity does not have. */
static const char *const missing_subs[] = {
	"append_vbmeta_image",
	"zero_hashtree",
	"resize_image",
	"print_partition_digests",
	"calculate_kernel_cmdline",
	"set_ab_metadata",
	"make_atx_certificate",
	"make_atx_permanent_attributes",
	"make_atx_metadata",
	"make_atx_unlock_credential",
	"generate_test_image",
};

enum kind { STR, FLAG, LIST, MISSING_STR, MISSING_FLAG };

struct row {
	const char *name;
	enum kind kind;
	size_t off;   /* STR, FLAG, LIST: the field in cli_avb_args */
	size_t count; /* LIST: its count */
	unsigned subs;
	const char *arg;
	const char *help;
};

#define F(field) offsetof(struct cli_avb_args, field)
#define L(field)                              \
	offsetof(struct cli_avb_args, field), \
		offsetof(struct cli_avb_args, n##field)

static const struct row rows[] = {
	{"image", STR, F(image), 0,
	 S_FOOTER | S_INFO | S_VERIFY | S_ERASE | S_DIGEST | S_EXTRACT_VBMETA,
	 "IMAGE", "the image"},
	{"output", STR, F(output), 0,
	 S_INFO | S_MAKE | S_EXTRACT_KEY | S_DIGEST | S_EXTRACT_VBMETA, "FILE",
	 "the output file"},
	{"partition_size", STR, F(partition_size), 0, S_FOOTER, "SIZE",
	 "partition size"},
	{"partition_name", STR, F(partition_name), 0, S_FOOTER, "NAME",
	 "partition name"},
	{"hash_algorithm", STR, F(hash_algorithm), 0, S_FOOTER | S_DIGEST,
	 "ALG", "sha1, sha256 or sha512 (hashtree: sha1, hash: sha256)"},
	{"salt", STR, F(salt), 0, S_FOOTER, "HEX",
	 "salt in hex (default: random)"},
	{"block_size", STR, F(block_size), 0, S_HASHTREE, "SIZE",
	 "block size (default: 4096)"},
	{"generate_fec", FLAG, F(generate_fec), 0, S_HASHTREE, NULL,
	 "deprecated: parity is made by default"},
	{"do_not_generate_fec", FLAG, F(do_not_generate_fec), 0, S_HASHTREE,
	 NULL, "no parity"},
	{"fec_num_roots", STR, F(fec_num_roots), 0, S_HASHTREE, "N",
	 "parity roots (default: 2)"},
	{"calc_max_image_size", FLAG, F(calc_max_image_size), 0, S_FOOTER, NULL,
	 "print the largest image that fits the partition size"},
	{"output_vbmeta_image", STR, F(output_vbmeta_image), 0, S_FOOTER,
	 "FILE", "also write the vbmeta blob here"},
	{"do_not_append_vbmeta_image", FLAG, F(do_not_append_vbmeta_image), 0,
	 S_FOOTER, NULL, "no vbmeta or footer in the image"},
	{"check_at_most_once", FLAG, F(check_at_most_once), 0, S_HASHTREE, NULL,
	 "verify data blocks only the first time they are read"},
	{"dynamic_partition_size", FLAG, F(dynamic_partition_size), 0, S_HASH,
	 NULL, "size the partition to the image"},
	{"do_not_use_ab", FLAG, F(do_not_use_ab), 0, S_FOOTER, NULL,
	 "the partition does not use A/B"},
	{"algorithm", STR, F(algorithm), 0, S_COMMON, "ALG",
	 "NONE (default), SHA256_RSA2048/4096/8192, SHA512_RSA2048/4096/8192"},
	{"key", STR, F(key), 0, S_COMMON | S_EXTRACT_KEY | S_VERIFY, "KEY",
	 "RSA key (PEM)"},
	{"rollback_index", STR, F(rollback_index), 0, S_COMMON, "N",
	 "rollback index"},
	{"rollback_index_location", STR, F(rollback_index_location), 0,
	 S_COMMON, "N", "location of the rollback index"},
	{"internal_release_string", STR, F(release), 0, S_COMMON, "STR",
	 "release string (default: avbtool 1.3.0)"},
	{"append_to_release_string", STR, F(append_release), 0, S_COMMON, "STR",
	 "text to append to the release string"},
	{"prop", LIST, L(props), S_COMMON, "KEY:VALUE", "add a property"},
	{"prop_from_file", LIST, L(props_from_file), S_COMMON, "KEY:PATH",
	 "add a property from a file"},
	{"kernel_cmdline", LIST, L(cmdlines), S_COMMON, "CMDLINE",
	 "add a kernel command line"},
	{"include_descriptors_from_image", LIST, L(includes), S_COMMON, "IMAGE",
	 "add the descriptors of an image"},
	{"chain_partition", LIST, L(chains), S_COMMON,
	 "PART_NAME:ROLLBACK_SLOT:KEY_PATH", "chain a partition"},
	{"flags", STR, F(flags), 0, S_COMMON, "N", "vbmeta flags"},
	{"set_hashtree_disabled_flag", FLAG, F(set_hashtree_disabled_flag), 0,
	 S_COMMON, NULL, "set the HASHTREE_DISABLED flag"},
	{"print_required_libavb_version", FLAG,
	 F(print_required_libavb_version), 0, S_COMMON, NULL,
	 "print the libavb version the options need"},
	{"padding_size", STR, F(padding_size), 0, S_MAKE | S_EXTRACT_VBMETA,
	 "N", "pad the output to a multiple of N"},
	{"expected_chain_partition", LIST, L(expected), S_VERIFY,
	 "PART_NAME:ROLLBACK_SLOT:KEY_PATH", "expected chained partition"},
	{"follow_chain_partitions", FLAG, F(follow), 0, S_VERIFY, NULL,
	 "check chained partitions too"},
	{"keep_hashtree", FLAG, F(keep_hashtree), 0, S_ERASE, NULL,
	 "keep the hash tree and parity"},
	{"json", FLAG, F(json), 0, S_INFO, NULL, "JSON output (fastverity)"},
	{"threads", STR, F(threads), 0, S_HASHTREE | S_VERIFY, "N",
	 "worker threads (fastverity; default: one per CPU)"},
	/* avbtool's, not here */
	{"signing_helper", MISSING_STR, 0, 0, S_COMMON, NULL, NULL},
	{"signing_helper_with_files", MISSING_STR, 0, 0, S_COMMON, NULL, NULL},
	{"public_key_metadata", MISSING_STR, 0, 0, S_COMMON, NULL, NULL},
	{"setup_rootfs_from_kernel", MISSING_STR, 0, 0, S_COMMON, NULL, NULL},
	{"generate_dm_verity_cmdline_from_hashtree", MISSING_STR, 0, 0,
	 S_COMMON, NULL, NULL},
	{"chain_partition_do_not_use_ab", MISSING_STR, 0, 0, S_COMMON, NULL,
	 NULL},
	{"use_persistent_digest", MISSING_FLAG, 0, 0, S_FOOTER, NULL, NULL},
	{"setup_as_rootfs_from_kernel", MISSING_FLAG, 0, 0, S_HASHTREE, NULL,
	 NULL},
	{"no_hashtree", MISSING_FLAG, 0, 0, S_HASHTREE, NULL, NULL},
	{"atx", MISSING_FLAG, 0, 0, S_INFO, NULL, NULL},
	{"accept_zeroed_hashtree", MISSING_FLAG, 0, 0, S_VERIFY, NULL, NULL},
};

#define NROWS       (sizeof(rows) / sizeof(rows[0]))
#define MISSING_VAL 1000

static void print_subs(FILE *f)
{
	fputs("Usage: fastverity avb <subcommand> [--option value ...]\n"
	      "avbtool's image commands, with avbtool's options "
	      "(docs/android.md):\n",
	      f);
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		fprintf(f, "\t%-24s %s\n", subs[i].name, subs[i].what);
	fputs("fastverity avb <subcommand> --help lists its options.\n", f);
}

static void print_sub_help(const struct subcommand *s)
{
	printf("Usage: fastverity avb %s [--option value ...]\n%s\n\n"
	       "Options:\n",
	       s->name, s->what);
	for (size_t i = 0; i < NROWS; i++) {
		char left[80];

		if (!(rows[i].subs & s->bit) || rows[i].kind >= MISSING_STR)
			continue;
		snprintf(left, sizeof(left), "--%s%s%s", rows[i].name,
			 rows[i].arg ? " " : "",
			 rows[i].arg ? rows[i].arg : "");
		printf("  %-44s %s\n", left, rows[i].help);
	}
}

/* avbtool's numbers: decimal, 0x hex, 0o octal, 0b binary. */
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
	if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ')
		return cli_error(-EINVAL, "--%s: '%s' is not a number", opt, s);
	v = strtoull(digits, &end, base);
	if (*end || errno)
		return cli_error(-EINVAL, "--%s: '%s' is not a number", opt, s);
	if (v > max)
		return cli_error(-EINVAL, "--%s: %s is larger than %" PRIu64,
				 opt, s, max);
	*out = v;
	return 0;
}

static size_t count_list(const char **list)
{
	size_t n = 0;

	while (list && list[n])
		n++;
	return n;
}

static void free_lists(struct cli_avb_args *a)
{
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].kind == LIST) {
			char ***p = (char ***)((char *)a + rows[i].off);

			if (*p)
				for (size_t k = 0; (*p)[k]; k++)
					free((*p)[k]);
			free(*p);
			*p = NULL;
		}
}

/* Parses argv (after "avb SUB") into a with popt; the rows of other
 * subcommands are unknown options there. */
static int parse(const struct subcommand *s, int argc, const char **argv,
		 struct cli_avb_args *a)
{
	struct poptOption table[NROWS + 2];
	size_t n = 0;
	poptContext pc;
	int rc;

	for (size_t i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];
		struct poptOption *p = &table[n];

		if (!(r->subs & s->bit))
			continue;
		memset(p, 0, sizeof(*p));
		p->longName = r->name;
		p->arg = r->kind <= LIST ? (char *)a + r->off : NULL;
		p->argInfo = r->kind == STR           ? POPT_ARG_STRING
			     : r->kind == FLAG        ? POPT_ARG_NONE
			     : r->kind == LIST        ? POPT_ARG_ARGV
			     : r->kind == MISSING_STR ? POPT_ARG_STRING
						      : POPT_ARG_NONE;
		p->val = r->kind >= MISSING_STR ? MISSING_VAL + (int)i : 0;
		n++;
	}
	memset(&table[n], 0, sizeof(table[n]));
	table[n].longName = "help";
	table[n].shortName = '?';
	table[n].val = 'h';
	memset(&table[n + 1], 0, sizeof(table[n + 1]));
	pc = poptGetContext("fastverity avb", argc, argv, table, 0);
	while ((rc = poptGetNextOpt(pc)) > 0) {
		if (rc == 'h') {
			print_sub_help(s);
			poptFreeContext(pc);
			return -1;
		}
		if (rc >= MISSING_VAL) {
			cli_error(-EINVAL,
				  "avb %s: avbtool's --%s is not implemented "
				  "in fastverity",
				  s->name, rows[rc - MISSING_VAL].name);
			poptFreeContext(pc);
			return EXIT_PARAMS;
		}
	}
	if (rc < -1) {
		cli_error(-EINVAL, "avb %s: %s: %s (fastverity avb %s --help)",
			  s->name, poptBadOption(pc, POPT_BADOPTION_NOALIAS),
			  poptStrerror(rc), s->name);
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	if (poptPeekArg(pc)) {
		cli_error(-EINVAL, "avb %s: unexpected argument '%s'", s->name,
			  poptPeekArg(pc));
		poptFreeContext(pc);
		return EXIT_PARAMS;
	}
	poptFreeContext(pc);
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].kind == LIST)
			*(size_t *)((char *)a + rows[i].count) = count_list(
				*(const char ***)((char *)a + rows[i].off));
	return 0;
}

/* Strings popt returned are the caller's: the STR fields are freed with
 * the lists. */
static void free_strings(struct cli_avb_args *a)
{
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].kind == STR) {
			char **p = (char **)((char *)a + rows[i].off);

			free(*p);
			*p = NULL;
		}
	free_lists(a);
}

/* The vbmeta options every writer shares. Properties from files are read
 * into *bufs (freed by the caller). */
struct vb_parts {
	struct avb_prop *props;
	struct avb_chain *chains;
	uint8_t **bufs;
	size_t nbufs;
	char **names;
};

static void vb_parts_free(struct vb_parts *p, size_t nprops, size_t nchains)
{
	for (size_t i = 0; i < p->nbufs; i++)
		free(p->bufs[i]);
	for (size_t i = 0; p->names && i < nprops + nchains; i++)
		free(p->names[i]);
	free(p->names);
	free(p->bufs);
	free(p->props);
	free(p->chains);
	memset(p, 0, sizeof(*p));
}

static int vb_options(const struct cli_avb_args *a, struct avb_vbmeta_opts *o,
		      struct vb_parts *parts)
{
	size_t nprops = a->nprops + a->nprops_from_file, k = 0;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	memset(parts, 0, sizeof(*parts));
	o->algorithm = a->algorithm ? avb_algorithm_by_name(a->algorithm)
				    : AVB_ALG_NONE;
	if (o->algorithm < 0)
		return cli_error(-EINVAL,
				 "Algorithm with name %s is not supported "
				 "(NONE, SHA256_RSA2048, SHA256_RSA4096, "
				 "SHA256_RSA8192, SHA512_RSA2048, "
				 "SHA512_RSA4096, SHA512_RSA8192)",
				 a->algorithm);
	o->key_path = a->key;
	if (parse_number("rollback_index", a->rollback_index, UINT64_MAX,
			 &o->rollback_index))
		return EXIT_PARAMS;
	v = 0;
	if (parse_number("rollback_index_location", a->rollback_index_location,
			 UINT32_MAX, &v))
		return EXIT_PARAMS;
	o->rollback_index_location = (uint32_t)v;
	v = 0;
	if (parse_number("flags", a->flags, UINT32_MAX, &v))
		return EXIT_PARAMS;
	o->flags = (uint32_t)v | (a->set_hashtree_disabled_flag ? 1u : 0);
	o->release = a->release;
	o->append_release = a->append_release;
	o->cmdlines = a->cmdlines;
	o->ncmdlines = a->ncmdlines;
	o->includes = a->includes;
	o->nincludes = a->nincludes;
	parts->props = calloc(nprops + 1, sizeof(*parts->props));
	parts->chains = calloc(a->nchains + 1, sizeof(*parts->chains));
	parts->bufs = calloc(nprops + 1, sizeof(*parts->bufs));
	parts->names = calloc(nprops + a->nchains + 1, sizeof(char *));
	if (!parts->props || !parts->chains || !parts->bufs || !parts->names)
		return cli_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nprops; i++, k++) {
		int file = i >= a->nprops;
		const char *s =
			file ? a->props_from_file[i - a->nprops] : a->props[i];
		const char *colon = strchr(s, ':');

		if (!colon)
			return cli_error(-EINVAL, "Malformed property \"%s\".",
					 s);
		parts->names[k] = strndup(s, (size_t)(colon - s));
		if (!parts->names[k])
			return cli_error(-ENOMEM, "out of memory");
		parts->props[i].key = parts->names[k];
		if (file) {
			struct ht_error err;
			size_t len;
			int r = verity_read_file(
				colon + 1, "property file", AVB_MAX_VBMETA,
				&parts->bufs[parts->nbufs], &len, &err);

			if (r)
				return cli_inside_error(r == -ENOENT ? -EINVAL : r,
						     &err);
			parts->props[i].value = parts->bufs[parts->nbufs++];
			parts->props[i].value_len = len;
		} else {
			parts->props[i].value = (const uint8_t *)colon + 1;
			parts->props[i].value_len = strlen(colon + 1);
		}
	}
	o->props = parts->props;
	o->nprops = nprops;
	for (size_t i = 0; i < a->nchains; i++, k++) {
		const char *s = a->chains[i], *c1 = strchr(s, ':'), *c2;
		uint64_t loc;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
			return cli_error(-EINVAL,
					 "Malformed chained partition \"%s\".",
					 s);
		parts->names[k] = strndup(c1 + 1, (size_t)(c2 - c1 - 1));
		if (!parts->names[k] ||
		    parse_number("chain_partition", parts->names[k], UINT32_MAX,
				 &loc))
			return EXIT_PARAMS;
		free(parts->names[k]);
		parts->names[k] = strndup(s, (size_t)(c1 - s));
		if (!parts->names[k])
			return cli_error(-ENOMEM, "out of memory");
		parts->chains[i].name = parts->names[k];
		parts->chains[i].rollback_index_location = (uint32_t)loc;
		parts->chains[i].key_path = c2 + 1;
	}
	o->chains = parts->chains;
	o->nchains = a->nchains;
	return 0;
}

static int digest_size_known(const char *alg)
{
	if (avb_digest_size(alg))
		return 0;
	return cli_error(-EINVAL,
			 "--hash_algorithm: '%s' is not supported (sha1, "
			 "sha256, sha512)",
			 alg);
}

/* --salt: hex, '' for none; absent: random. */
static int salt_option(const struct cli_avb_args *a, uint8_t *salt,
		       struct avb_footer_opts *f)
{
	size_t len = 0;

	if (!a->salt)
		return 0;
	if (verity_hex_decode(a->salt, salt, VERITY_MAX_SALT_SIZE, &len))
		return cli_error(-EINVAL,
				 "--salt: '%s' is not hex of at most %d bytes",
				 a->salt, VERITY_MAX_SALT_SIZE);
	f->salt = salt;
	f->salt_len = len;
	f->salt_given = 1;
	return 0;
}

static int footer_options(const struct cli_avb_args *a,
			  enum avb_footer_kind kind,
			  struct avb_footer_opts *f, uint8_t *salt)
{
	uint64_t v;

	memset(f, 0, sizeof(*f));
	f->image = a->image;
	f->partition_name = a->partition_name ? a->partition_name : "";
	f->hash_algorithm = a->hash_algorithm ? a->hash_algorithm
			    : kind == AVB_FOOTER_HASHTREE ? "sha1"
					      : "sha256";
	v = 4096;
	if (parse_number("block_size", a->block_size, UINT32_MAX, &v))
		return EXIT_PARAMS;
	f->block_size = (uint32_t)v;
	if (parse_number("partition_size", a->partition_size, INT64_MAX,
			 &f->partition_size))
		return EXIT_PARAMS;
	v = 2;
	if (parse_number("fec_num_roots", a->fec_num_roots, 255, &v))
		return EXIT_PARAMS;
	f->roots = (unsigned)v;
	f->fec = kind == AVB_FOOTER_HASHTREE && !a->do_not_generate_fec;
	f->dynamic_size = a->dynamic_partition_size;
	f->descriptor_flags =
		(a->do_not_use_ab ? AVB_HASHTREE_DO_NOT_USE_AB : 0) |
		(a->check_at_most_once ? AVB_HASHTREE_CHECK_AT_MOST_ONCE : 0);
	f->do_not_append = a->do_not_append_vbmeta_image;
	f->output_vbmeta = a->output_vbmeta_image;
	if (digest_size_known(f->hash_algorithm))
		return EXIT_PARAMS;
	return salt_option(a, salt, f);
}

static int footer(const struct cli_avb_args *a, enum avb_footer_kind kind)
{
	struct avb_footer_opts f;
	struct vb_parts parts;
	uint8_t salt[VERITY_MAX_SALT_SIZE];
	struct ht_error err;
	int r;

	if ((r = footer_options(a, kind, &f, salt)) ||
	    (r = vb_options(a, &f.vb, &parts)))
		goto out;
	if (a->print_required_libavb_version) {
		unsigned minor = f.descriptor_flags ? 1 : 0;

		if (f.vb.rollback_index_location)
			minor = 2;
		printf("1.%u\n", minor);
		goto out;
	}
	if (a->calc_max_image_size) {
		if (kind == AVB_FOOTER_HASH && a->dynamic_partition_size) {
			r = cli_error(-EINVAL,
				      "--calc_max_image_size not supported "
				      "with --dynamic_partition_size");
			goto out;
		}
		printf("%" PRIu64 "\n", avb_max_image_size(&f, kind));
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
	if (kind == AVB_FOOTER_HASHTREE) {
		struct verity_run run;
		struct verity_outcome out;
		struct cli_progress pr;
		struct cli_opts o;

		memset(&o, 0, sizeof(o));
		o.threads = (char *)a->threads;
		o.no_progress = 1;
		if (cli_inside_run_of(&o, &run, &pr)) {
			r = EXIT_PARAMS;
			goto out;
		}
		r = verity_op_avb_hashtree_footer(&f, &run, &out, &err);
	} else {
		r = avb_add_hash_footer(&f, &err);
	}
	if (r)
		r = cli_inside_write_error(r, &err);
out:
	vb_parts_free(&parts, a->nprops + a->nprops_from_file, a->nchains);
	return r;
}

static int make_vbmeta(const struct cli_avb_args *a)
{
	struct avb_vbmeta_opts o;
	struct vb_parts parts;
	struct ht_error err;
	uint64_t padding = 0;
	int r;

	if ((r = vb_options(a, &o, &parts)) ||
	    (r = parse_number("padding_size", a->padding_size, 1u << 30,
			      &padding)))
		goto out;
	if (a->print_required_libavb_version) {
		/* the included images' needs count too */
		uint32_t minor = o.rollback_index_location ? 2 : 0;

		for (size_t i = 0; i < a->nincludes; i++) {
			struct avb_image img;

			if ((r = avb_image_read(a->includes[i], &img, &err))) {
				r = cli_inside_error(r, &err);
				goto out;
			}
			if (img.vbmeta.h.required_minor > minor)
				minor = img.vbmeta.h.required_minor;
			avb_image_free(&img);
		}
		printf("1.%u\n", minor);
		goto out;
	}
	if (!a->output) {
		r = cli_error(-EINVAL, "No output file given");
		goto out;
	}
	for (size_t i = 0; i < a->nincludes; i++)
		if (verity_path_same(a->output, a->includes[i])) {
			r = cli_error(-EINVAL,
				      "--output %s: is the input %s: an "
				      "output is never written over what is "
				      "read",
				      a->output, a->includes[i]);
			goto out;
		}
	if ((r = avb_make_vbmeta_image(a->output, &o, padding, &err)))
		r = cli_inside_write_error(r, &err);
out:
	vb_parts_free(&parts, a->nprops + a->nprops_from_file, a->nchains);
	return r;
}

static int extract_key(const struct cli_avb_args *a)
{
	struct ht_error err;
	uint8_t *blob;
	size_t len;
	int r;

	if (!a->key || !a->output)
		return cli_error(-EINVAL, "avb extract_public_key: --key and "
					  "--output are required");
	if ((r = avb_key_file_blob(a->key, &blob, &len, &err)))
		return cli_inside_error(r, &err);
	r = cli_avb_write(a->output, "public key file", blob, len, &a->key, 1);
	free(blob);
	return r;
}

static int erase(const struct cli_avb_args *a)
{
	struct ht_error err;
	int r;

	if (!a->image)
		return cli_error(-EINVAL,
				 "avb erase_footer: --image is required");
	r = avb_erase_footer(a->image, a->keep_hashtree, &err);
	return r ? cli_inside_write_error(r, &err) : EXIT_OK;
}

/* The blob of an image, and of the images its chain descriptors name. */
static int vbmeta_digest(const struct cli_avb_args *a)
{
	const char *alg = a->hash_algorithm ? a->hash_algorithm : "sha256";
	EVP_MD *md = EVP_MD_fetch(ht_crypto_libctx(), alg, NULL);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	struct avb_image img;
	struct ht_error err;
	uint8_t d[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	int r = 0;

	if (!a->image) {
		r = cli_error(-EINVAL,
			      "avb calculate_vbmeta_digest: --image is "
			      "required");
		goto out;
	}
	if (!md || !c || !EVP_DigestInit_ex(c, md, NULL)) {
		r = cli_error(-EINVAL, "hash algorithm '%s' is not supported",
			      alg);
		goto out;
	}
	if ((r = avb_image_read(a->image, &img, &err))) {
		r = cli_inside_error(r, &err);
		goto out;
	}
	EVP_DigestUpdate(c, img.vbmeta.blob, img.vbmeta.size);
	for (size_t i = 0; !r && i < img.vbmeta.ndesc; i++) {
		const struct avb_descriptor *x = &img.vbmeta.desc[i];
		const char *slash = strrchr(a->image, '/');
		const char *base = slash ? slash + 1 : a->image;
		const char *ext = strrchr(base, '.');
		struct avb_image ch;
		char path[4096];

		if (x->tag != AVB_TAG_CHAIN_PARTITION)
			continue;
		if (!avb_partition_name_ok(x->name, x->name_len)) {
			r = cli_error(-EINVAL,
				      "%s: the chained partition name '%s' is "
				      "not a name (letters, digits, '_', '-', "
				      "'.'): no file is looked up by it",
				      a->image, CLI_NAME(x->name, x->name_len));
			break;
		}
		snprintf(path, sizeof(path), "%.*s%.*s%s",
			 (int)(base - a->image), a->image, (int)x->name_len,
			 (const char *)x->name, ext && ext != base ? ext : "");
		if ((r = avb_image_read(path, &ch, &err))) {
			r = cli_inside_error(r, &err);
			break;
		}
		EVP_DigestUpdate(c, ch.vbmeta.blob, ch.vbmeta.size);
		avb_image_free(&ch);
	}
	avb_image_free(&img);
	if (!r && EVP_DigestFinal_ex(c, d, &len)) {
		char hex[2 * EVP_MAX_MD_SIZE + 2];

		for (unsigned i = 0; i < len; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
		hex[2 * len] = '\n';
		if (a->output)
			r = cli_avb_write(a->output, "vbmeta digest", hex,
					  2 * len + 1, &a->image, 1);
		else
			fwrite(hex, 1, 2 * len + 1, stdout);
	}
out:
	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return r;
}

static int extract_vbmeta(const struct cli_avb_args *a)
{
	struct avb_image img;
	struct avb_buf b = {0};
	struct ht_error err;
	uint64_t padding = 0;
	int r;

	if (!a->image || !a->output)
		return cli_error(-EINVAL,
				 "avb extract_vbmeta_image: --image and "
				 "--output are required");
	if (parse_number("padding_size", a->padding_size, 1u << 30, &padding))
		return EXIT_PARAMS;
	if ((r = avb_image_read(a->image, &img, &err)))
		return cli_inside_error(r, &err);
	if (!img.has_footer) {
		avb_image_free(&img);
		return cli_error(-EINVAL, "%s: the image has no footer",
				 a->image);
	}
	if (avb_buf_put(&b, img.blob, (size_t)img.footer.vbmeta_size) ||
	    (padding && b.len % padding &&
	     avb_buf_zeros(&b, (size_t)(padding - b.len % padding))))
		r = cli_error(-ENOMEM, "out of memory");
	else
		r = cli_avb_write(a->output, "vbmeta image", b.p, b.len,
				  &a->image, 1);
	avb_buf_free(&b);
	avb_image_free(&img);
	return r;
}

int cli_avb_main(int argc, const char **argv)
{
	const struct subcommand *s = NULL;
	struct cli_avb_args a;
	int r;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-?") ||
	    !strcmp(argv[1], "help")) {
		print_subs(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_PARAMS : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[1], subs[i].name))
			s = &subs[i];
	if (!s) {
		for (size_t i = 0;
		     i < sizeof(missing_subs) / sizeof(missing_subs[0]); i++)
			if (!strcmp(argv[1], missing_subs[i]))
				return cli_error(-EINVAL,
						 "avb: avbtool's %s is not "
						 "implemented in fastverity",
						 argv[1]);
		cli_error(-EINVAL, "avb: unknown subcommand '%s'", argv[1]);
		print_subs(stderr);
		return EXIT_PARAMS;
	}
	memset(&a, 0, sizeof(a));
	a.sub = s->name;
	if ((r = parse(s, argc - 1, argv + 1, &a))) {
		free_strings(&a);
		return r < 0 ? EXIT_OK : r;
	}
	/* the subcommands that read an Android image ask the registry that
	 * it is one (a sparse image is refused with what makes a raw one) */
	if ((s->bit & (S_INFO | S_VERIFY | S_ERASE | S_DIGEST |
		       S_EXTRACT_VBMETA)) &&
	    a.image) {
		enum verity_container kind;
		struct ht_error err;

		if ((r = verity_container_identify(a.image, VERITY_CONTAINER_AVB,
						   &kind, &err))) {
			r = cli_inside_error(r, &err);
			free_strings(&a);
			return r;
		}
	}
	switch (s->bit) {
	case S_HASHTREE:
		r = footer(&a, AVB_FOOTER_HASHTREE);
		break;
	case S_HASH:
		r = footer(&a, AVB_FOOTER_HASH);
		break;
	case S_INFO:
		r = cli_avb_info(&a);
		break;
	case S_VERIFY: {
		fv_options *opts;
		struct cli_opts o;

		memset(&o, 0, sizeof(o));
		o.threads = (char *)a.threads;
		o.no_progress = 1;
		r = cli_run_options(&o, &opts, NULL)
			    ? EXIT_PARAMS
			    : cli_avb_verify(&a, opts);
		fv_options_free(opts);
		break;
	}
	case S_MAKE:
		r = make_vbmeta(&a);
		break;
	case S_EXTRACT_KEY:
		r = extract_key(&a);
		break;
	case S_ERASE:
		r = erase(&a);
		break;
	case S_DIGEST:
		r = vbmeta_digest(&a);
		break;
	case S_EXTRACT_VBMETA:
		r = extract_vbmeta(&a);
		break;
	default:
		printf("%s\n", AVB_RELEASE_DEFAULT);
		r = EXIT_OK;
		break;
	}
	free_strings(&a);
	return r;
}
