/* fastverity fsverity SUBCOMMAND: fsverity-utils' commands (digest, sign,
 * enable, measure, dump_metadata) with its options, output and exit
 * codes (0; 1 a failure; 2 a usage error), so that a script swaps
 * `fsverity` for `fastverity fsverity` (docs/fsverity.md). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/files.h"
#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/options.h"
#include "cli/params.h"
#include "include/fastverity.h"

enum {
	F_DIGEST = 1u << 0,
	F_SIGN = 1u << 1,
	F_ENABLE = 1u << 2,
	F_MEASURE = 1u << 3,
	F_DUMP = 1u << 4,
	F_TREE = F_DIGEST | F_SIGN | F_ENABLE, /* the tree's parameters */
};

/* fsverity-utils' exit code for usage errors. */
#define EXIT_USAGE 2

struct fsv_args {
	char *hash_alg, *block_size, *salt, *out_tree, *out_desc;
	char *key, *cert, *pkcs11_engine, *pkcs11_module, *pkcs11_keyid;
	char *passphrase_file, *signature, *offset, *length, *threads;
	int compact, for_builtin_sig;
	const char **args;
	int nargs;
};

static const struct cli_sub subs[] = {
	{"digest", F_DIGEST,
	 "FILE... [--hash-alg=HASH_ALG] [--block-size=BLOCK_SIZE] "
	 "[--salt=SALT] [--out-merkle-tree=FILE] [--out-descriptor=FILE] "
	 "[--compact] [--for-builtin-sig]",
	 "compute the fs-verity digest of the given file(s), for offline "
	 "signing"},
	{"sign", F_SIGN,
	 "FILE OUT_SIGFILE --key=KEYFILE --cert=CERTFILE "
	 "[--hash-alg=HASH_ALG] [--block-size=BLOCK_SIZE] [--salt=SALT] "
	 "[--out-merkle-tree=FILE] [--out-descriptor=FILE]",
	 "sign a file for fs-verity built-in signature verification"},
	{"enable", F_ENABLE,
	 "FILE [--hash-alg=HASH_ALG] [--block-size=BLOCK_SIZE] [--salt=SALT] "
	 "[--signature=SIGFILE]",
	 "enable fs-verity on a file"},
	{"measure", F_MEASURE, "FILE...",
	 "display the fs-verity digest of the given verity file(s)"},
	{"dump_metadata", F_DUMP,
	 "TYPE FILE [--offset=OFFSET] [--length=LENGTH]",
	 "dump the fs-verity metadata of the given file (TYPE: merkle_tree, "
	 "descriptor or signature)"},
};

#define ARG(f) offsetof(struct fsv_args, f)
static const struct cli_option rows[] = {
	CLI_ROW("hash-alg", CLI_VALUE, ARG(hash_alg), 0, F_TREE, NULL,
		"sha256 (the default) or sha512"),
	CLI_ROW("block-size", CLI_VALUE, ARG(block_size), 0, F_TREE, NULL,
		"the tree's block size: a power of two from 1024 to 65536 "
		"(4096)"),
	CLI_ROW("salt", CLI_VALUE, ARG(salt), 0, F_TREE, NULL,
		"a salt of up to 32 bytes, in hex"),
	CLI_ROW("out-merkle-tree", CLI_VALUE, ARG(out_tree), 0,
		F_DIGEST | F_SIGN, NULL,
		"write the Merkle tree there (as the kernel stores it)"),
	CLI_ROW("out-descriptor", CLI_VALUE, ARG(out_desc), 0,
		F_DIGEST | F_SIGN, NULL, "write the 256-byte descriptor there"),
	CLI_ROW("compact", CLI_FLAG, ARG(compact), 0, F_DIGEST, NULL,
		"only the digest, in hex"),
	CLI_ROW("for-builtin-sig", CLI_FLAG, ARG(for_builtin_sig), 0, F_DIGEST,
		NULL, "the digest formatted as a built-in signature signs it"),
	CLI_ROW("key", CLI_VALUE, ARG(key), 0, F_SIGN, NULL,
		"the PEM private key, or a pkcs11: URI of a key in a token"),
	CLI_ROW("cert", CLI_VALUE, ARG(cert), 0, F_SIGN, NULL,
		"its PEM certificate"),
	CLI_ROW("key-passphrase-file", CLI_VALUE, ARG(passphrase_file), 0,
		F_SIGN, NULL,
		"the key's passphrase, or the token's PIN (fastverity's)"),
	CLI_ROW("pkcs11-engine", CLI_VALUE, ARG(pkcs11_engine), 0, F_SIGN, NULL,
		"not taken: give --key=pkcs11:URI"),
	CLI_ROW("pkcs11-module", CLI_VALUE, ARG(pkcs11_module), 0, F_SIGN, NULL,
		"the PKCS#11 module of a pkcs11: key (p11-kit's proxy)"),
	CLI_ROW("pkcs11-keyid", CLI_VALUE, ARG(pkcs11_keyid), 0, F_SIGN, NULL,
		"not taken: give --key=pkcs11:URI"),
	CLI_ROW("signature", CLI_VALUE, ARG(signature), 0, F_ENABLE, NULL,
		"a built-in signature file (fastverity fsverity sign)"),
	CLI_ROW("offset", CLI_VALUE, ARG(offset), 0, F_DUMP, NULL,
		"the first byte to dump"),
	CLI_ROW("length", CLI_VALUE, ARG(length), 0, F_DUMP, NULL,
		"how many bytes to dump"),
	CLI_ROW("threads", CLI_VALUE, ARG(threads), 0, F_DIGEST | F_SIGN, NULL,
		"worker threads (fastverity's; every CPU by default)"),
};

static const struct cli_table table = {
	.command = "fastverity fsverity",
	.word = "fsverity",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.usage_exit = EXIT_USAGE,
	.once = 1,
	.width = 24,
};

static const struct cli_group group = {
	.table = &table,
	.subs = subs,
	.n = sizeof(subs) / sizeof(subs[0]),
	.usage = "[<args>]",
	.what = "fsverity-utils' commands, with its options and output",
	.more = " Available hash algorithms: sha256 sha512",
	.trailer = "\nExit status: 0 done; 1 failed; 2 a usage error.\n"
		   "\nSee fastverity(8).\n",
	.usage_exit = EXIT_USAGE,
};

/* An even number of hex digits (none is a salt of 0 bytes). */
static int hex_string(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return n % 2 == 0;
}

/* A tree's parameters, the salt's bytes with them. */
struct tree {
	struct fv_fsverity_params p;
	uint8_t salt[32];
};

/* p as the library judges it (fv_fsverity_compute_files of no file
 * checks the parameters alone). */
static int params_ok(const struct fv_fsverity_params *p)
{
	fv_fsverity_digest *none[1];
	size_t failed;

	return fv_fsverity_compute_files(p, NULL, 0, NULL, 0, none, &failed) ==
	       0;
}

/* The tree's parameters from the options, each judged as it is given:
 * 0 or the exit code. */
static int tree_params(const char *sub, const struct fsv_args *a,
		       struct tree *t)
{
	size_t len = 0;
	unsigned long v = 0;
	char *end;
	int rc = EXIT_USAGE, bad_bs = 0;

	memset(t, 0, sizeof(*t));
	t->p.size = sizeof(t->p);
	if (a->block_size) {
		errno = 0;
		v = strtoul(a->block_size, &end, 10);
		/* (0 is no size: the library's default) */
		bad_bs = errno || end == a->block_size || *end ||
			 a->block_size[0] == '-' || v > UINT32_MAX || !v;
	}
	t->p.hash = a->hash_alg;
	if (a->hash_alg && !params_ok(&t->p))
		cli_error(-EINVAL,
			  "fsverity %s: --hash-alg=%s: unknown hash algorithm "
			  "(available: sha256 sha512)",
			  sub, a->hash_alg);
	else if (a->block_size &&
		 (bad_bs || (t->p.block_size = (uint32_t)v, !params_ok(&t->p))))
		cli_error(-EINVAL,
			  "fsverity %s: --block-size=%s: a power of two from "
			  "1024 to 65536",
			  sub, a->block_size);
	else if (a->salt && !hex_string(a->salt))
		cli_error(-EINVAL,
			  "fsverity %s: --salt=%s: not a valid hex string", sub,
			  a->salt);
	else if (a->salt && strlen(a->salt) / 2 > 32)
		/* a hex string, too long: fsverity-utils refuses it when it
		 * computes the digest, in its words, and exits 1 */
		rc = cli_error(-EINVAL,
			       "fsverity %s: unsupported salt size (%zu): "
			       "fs-verity takes at most 32 bytes",
			       sub, strlen(a->salt) / 2);
	else if (a->salt &&
		 (cli_unhex(a->salt, t->salt, sizeof(t->salt), &len) ||
		  (t->p.salt = t->salt, t->p.salt_len = len,
		   !params_ok(&t->p))))
		rc = cli_lib_error(-EINVAL);
	else
		rc = 0;
	return rc;
}

static int run_options(const struct fsv_args *a, fv_options *opts)
{
	struct cli_opts o;

	memset(&o, 0, sizeof(o));
	o.threads = a->threads;
	o.action = "fsverity";
	return cli_run_options(&o, opts, NULL) ? EXIT_USAGE : 0;
}

/* --out-descriptor of d: 0 or the exit code (--out-merkle-tree is
 * written as the tree is made: fv_fsverity_compute's tree_path). */
static int write_descriptor(const struct fsv_args *a,
			    const fv_fsverity_digest *d)
{
	struct fv_fsverity_info i = {.size = sizeof(i)};

	if (!a->out_desc)
		return 0;
	if (fv_fsverity_digest_info(d, &i))
		return cli_lib_error(-EINVAL);
	if (cli_output_write(a->out_desc, "the descriptor file", i.descriptor,
			     256))
		return cli_lib_error(-EIO);
	return 0;
}

/* The digest of one file, its tree written to --out-merkle-tree when
 * given, never held in memory. */
static int compute_one(const struct fv_fsverity_params *p, const char *path,
		       const fv_options *opts, const char *out_tree,
		       fv_fsverity_digest **d)
{
	struct fv_fsverity_request q = {.size = sizeof(q),
					.params = p,
					.path = path,
					.tree_path = out_tree};

	return fv_fsverity_compute(&q, opts, d);
}

/* The outputs are none of the inputs. */
static int outputs_apart(const struct fsv_args *a, const char *const *in,
			 size_t n)
{
	int r;

	if (a->out_tree &&
	    (r = cli_check_output(a->out_tree, "Merkle tree", in, n)))
		return r;
	if (a->out_desc &&
	    (r = cli_check_output(a->out_desc, "descriptor", in, n)))
		return r;
	if (a->out_tree && a->out_desc &&
	    (r = cli_check_output(a->out_desc, "descriptor",
				  (const char *[]){a->out_tree}, 1)))
		return r;
	return 0;
}

/* The library's message; fsverity-utils' exit code for any failure. */
static int lib_failed(int r)
{
	cli_lib_error(r);
	return EXIT_PARAMS;
}

/* A decimal number of bytes: 0, or -1. */
static int bytes_of(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

static int digest(const struct cli_sub *s, struct fsv_args *a)
{
	struct tree t;
	fv_fsverity_digest **d = NULL;
	fv_options opts;
	size_t n = (size_t)a->nargs, failed = n, last;
	int r;

	if (!a->nargs) {
		cli_error(-EINVAL, "fsverity digest: no file given (fastverity "
				   "fsverity digest --help)");
		return EXIT_USAGE;
	}
	if ((r = tree_params(s->name, a, &t)) || (r = run_options(a, &opts)))
		goto out;
	if ((r = outputs_apart(a, a->args, n)))
		goto out;
	d = calloc(n, sizeof(*d));
	if (!d) {
		r = cli_error(-ENOMEM, "out of memory");
		goto out;
	}
	/* no tree kept: --out-merkle-tree is the last file's (as
	 * fsverity-utils leaves it), written as it is made */
	last = a->out_tree ? n - 1 : n;
	r = fv_fsverity_compute_files(&t.p, a->args, last, &opts, 0, d,
				      &failed);
	if (!r && last < n) {
		r = compute_one(&t.p, a->args[last], &opts, a->out_tree,
				&d[last]);
		failed = r ? last : n;
	}
	/* each file's line, in the order given, up to the first that
	 * failed */
	for (size_t i = 0; i < failed; i++) {
		struct fv_fsverity_info f = {.size = sizeof(f)};
		char hex[2 * (12 + 64) + 1];

		fv_fsverity_digest_info(d[i], &f);
		if (a->for_builtin_sig)
			cli_hex(f.signed_digest, f.signed_digest_len, hex);
		else
			snprintf(hex, sizeof(hex), "%s", f.digest_hex);
		if (a->compact)
			printf("%s\n", hex);
		else if (a->for_builtin_sig)
			printf("%s %s\n", hex, a->args[i]);
		else
			printf("%s:%s %s\n", f.hash, hex, a->args[i]);
	}
	if (r) {
		r = lib_failed(r);
		goto out;
	}
	/* as fsverity-utils leaves it: the last file's */
	r = write_descriptor(a, d[n - 1]);
out:
	for (size_t i = 0; d && i < n; i++)
		fv_fsverity_digest_free(d[i]);
	free(d);
	return r;
}

static int sign_digest(const struct fv_sign_request *req, const void *ctx,
		       uint8_t **der, size_t *len)
{
	return fv_fsverity_sign(ctx, req, der, len);
}

static int sign(const struct cli_sub *s, struct fsv_args *a)
{
	struct fv_fsverity_info info = {.size = sizeof(info)},
				again_info = {.size = sizeof(again_info)};
	fv_fsverity_digest *d = NULL;
	fv_options opts;
	struct cli_opts o;
	struct tree t;
	uint8_t *der = NULL;
	size_t len = 0;
	int r;

	if (a->nargs != 2) {
		cli_error(-EINVAL, "fsverity sign: FILE and OUT_SIGFILE are "
				   "needed (fastverity fsverity sign --help)");
		return EXIT_USAGE;
	}
	if (a->pkcs11_engine || a->pkcs11_keyid)
		return cli_error(-EINVAL,
				 "fsverity sign: --pkcs11-engine and "
				 "--pkcs11-keyid are not taken: give the key "
				 "as --key=pkcs11:URI (and --pkcs11-module)");
	if (!a->key || !a->cert) {
		cli_error(-EINVAL,
			  "fsverity sign: --key and --cert are needed");
		return EXIT_USAGE;
	}
	if ((r = tree_params(s->name, a, &t)) || (r = run_options(a, &opts)))
		goto out;
	{
		const char *in[] = {a->args[0], a->key, a->cert,
				    a->passphrase_file};

		if ((r = cli_check_output(a->args[1], "signature", in, 4)) ||
		    (r = outputs_apart(a, in, 4)) ||
		    (r = cli_check_output(
			     a->args[1], "signature",
			     (const char *[]){a->out_tree, a->out_desc}, 2)))
			goto out;
	}
	if ((r = compute_one(&t.p, a->args[0], &opts, NULL, &d)) ||
	    (r = fv_fsverity_digest_info(d, &info))) {
		r = lib_failed(r);
		goto out;
	}
	memset(&o, 0, sizeof(o));
	o.key = a->key;
	o.cert = a->cert;
	o.key_passphrase_file = a->passphrase_file;
	o.pkcs11_module = a->pkcs11_module;
	if ((r = cli_sign_with(&o, sign_digest, d, &der, &len)))
		goto out;
	/* the tree once the signature is made (a sign that fails writes
	 * nothing): the file read again, its tree written as it is made,
	 * never held in memory */
	if (a->out_tree) {
		fv_fsverity_digest *again = NULL;
		int same;

		if ((r = compute_one(&t.p, a->args[0], &opts, a->out_tree,
				     &again)) ||
		    (r = fv_fsverity_digest_info(again, &again_info))) {
			fv_fsverity_digest_free(again);
			r = lib_failed(r);
			goto out;
		}
		same = !strcmp(again_info.digest_hex, info.digest_hex);
		fv_fsverity_digest_free(again);
		if (!same) {
			r = cli_error(-EIO,
				      "fsverity sign: %s: changed while it was "
				      "read: the Merkle tree file is not the "
				      "signed file's",
				      a->args[0]);
			goto out;
		}
	}
	if (cli_output_write(a->args[1], "the signature file", der, len)) {
		r = cli_lib_error(-EIO);
		goto out;
	}
	if ((r = write_descriptor(a, d)))
		goto out;
	printf("Signed file '%s' (%s:%s)\n", a->args[0], info.hash,
	       info.digest_hex);
out:
	fv_free(der);
	fv_fsverity_digest_free(d);
	return r;
}

static int enable(const struct cli_sub *s, struct fsv_args *a)
{
	struct tree t;
	struct fv_file_answer f;
	uint8_t *sig = NULL;
	size_t len = 0;
	int r;

	if (a->nargs != 1) {
		cli_error(-EINVAL, "fsverity enable: one FILE is needed "
				   "(fastverity fsverity enable --help)");
		return EXIT_USAGE;
	}
	if ((r = tree_params(s->name, a, &t)))
		return r;
	if (a->signature && (r = cli_file(FV_FILE_SIGNATURE, a->signature, &f)))
		return lib_failed(r);
	if (a->signature) {
		sig = f.data;
		len = f.len;
	}
	if ((r = fv_fsverity_enable(a->args[0], &t.p, sig, len)))
		r = lib_failed(r);
	fv_free(sig);
	return r;
}

static int measure(const struct cli_sub *s, struct fsv_args *a)
{
	(void)s;
	if (!a->nargs) {
		cli_error(-EINVAL,
			  "fsverity measure: no file given (fastverity "
			  "fsverity measure --help)");
		return EXIT_USAGE;
	}
	for (int i = 0; i < a->nargs; i++) {
		struct fv_fsverity_measurement m = {.size = sizeof(m)};
		char hex[2 * sizeof(m.digest) + 1], alg[32];
		const char *name;
		int r = fv_fsverity_measure(a->args[i], &m);

		if (r)
			return lib_failed(r);
		cli_hex(m.digest, m.digest_len, hex);
		if (!(name = m.hash_name)) {
			snprintf(alg, sizeof(alg), "ALG_%u", m.hash);
			name = alg;
		}
		printf("%s:%s %s\n", name, hex, a->args[i]);
	}
	return 0;
}

static int to_stdout(void *ctx, const void *buf, size_t n)
{
	(void)ctx;
	return fwrite(buf, 1, n, stdout) == n ? 0 : -EIO;
}

static int dump_metadata(const struct cli_sub *s, struct fsv_args *a)
{
	static const char *const types[] = {"merkle_tree", "descriptor",
					    "signature"};
	uint64_t offset = 0, length = 0;
	unsigned type = 0;
	int r;

	(void)s;
	if (a->nargs != 2) {
		cli_error(-EINVAL, "fsverity dump_metadata: TYPE and FILE are "
				   "needed (fastverity fsverity dump_metadata "
				   "--help)");
		return EXIT_USAGE;
	}
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(a->args[0], types[i]))
			type = i + 1;
	if (!type) {
		cli_error(-EINVAL,
			  "fsverity dump_metadata: unknown metadata type '%s' "
			  "(merkle_tree, descriptor or signature)",
			  a->args[0]);
		return EXIT_USAGE;
	}
	if (a->offset && bytes_of(a->offset, &offset)) {
		cli_error(-EINVAL,
			  "fsverity dump_metadata: --offset=%s: not a number "
			  "of bytes",
			  a->offset);
		return EXIT_USAGE;
	}
	if (a->length && bytes_of(a->length, &length)) {
		cli_error(-EINVAL,
			  "fsverity dump_metadata: --length=%s: not a number "
			  "of bytes",
			  a->length);
		return EXIT_USAGE;
	}
	if (a->length && !length)
		return 0; /* nothing asked for */
	r = fv_fsverity_read_metadata(a->args[1], type, offset, length,
				      to_stdout, NULL);
	return r ? lib_failed(r) : 0;
}

int cli_fsverity_main(int argc, const char **argv)
{
	const struct cli_sub *s;
	struct fsv_args a;
	int r;

	memset(&a, 0, sizeof(a));
	r = cli_group_parse(&group, argc, argv, &a, &a.args, &a.nargs, &s);
	if (r) {
		cli_group_free(&group, &a, a.args, a.nargs);
		return r < 0 ? EXIT_OK : r;
	}
	switch (s->bit) {
	case F_DIGEST:
		r = digest(s, &a);
		break;
	case F_SIGN:
		r = sign(s, &a);
		break;
	case F_ENABLE:
		r = enable(s, &a);
		break;
	case F_MEASURE:
		r = measure(s, &a);
		break;
	default:
		r = dump_metadata(s, &a);
		break;
	}
	cli_group_free(&group, &a, a.args, a.nargs);
	return r;
}
