/* fastverity fsverity SUBCOMMAND: fsverity-utils' commands (digest, sign,
 * enable, measure, dump_metadata) with its options, output and exit
 * codes (0; 1 a failure; 2 a usage error), so that a script swaps
 * `fsverity` for `fastverity fsverity` (docs/fsverity.md). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cli/files.h"
#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/json.h"
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

/* fsverity-utils' command what on a's values, its lines printed: the
 * library judges the values as it does, then --threads and the outputs
 * apart from the inputs, then runs it (flags 4: checks only). 0 or the
 * exit code (sign: a negative errno, not said, when the signing failed).
 */
static int show(enum fv_show_what what, const struct fsv_args *a,
		unsigned flags, const struct fv_sign_request *sign)
{
	const char *opts[][2] = {{"threads", a->threads},
				 {"key", a->key},
				 {"cert", a->cert},
				 {"key-passphrase-file", a->passphrase_file},
				 {"offset", a->offset},
				 {"length", a->length}};
	fv_options o = {.size = sizeof(o), .sha256 = cli_sha256_choice()};
	int r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = what,
		.image = a->args[what == FV_SHOW_FSVERITY_DUMP],
		.args = a->args[0], /* dump_metadata's TYPE */
		.names = a->args,
		.n = (size_t)a->nargs,
		.o = &o,
		.hash = a->hash_alg,
		.block_size = a->block_size,
		.salt = a->salt,
		.tree = a->out_tree,
		.descriptor = a->out_desc,
		.signature = what == FV_SHOW_FSVERITY_SIGN ? a->args[1]
							   : a->signature,
		.flags = (a->compact ? 1u : 0) | (a->for_builtin_sig ? 2u : 0) |
			 flags,
		.sign = sign,
		.options = opts[0],
		.noptions = sizeof(opts) / sizeof(opts[0])});

	/* the library's message: fsverity-utils' exit code 1 */
	return r > 0 || (r < 0 && sign) ? r : r ? (cli_lib_error(r), 1) : 0;
}

struct signing {
	const struct fsv_args *a;
	int rc; /* the exit code of a failure said */
};

/* The whole sign with the key as req gives it (cli_sign_with). */
static int sign_file(const struct fv_sign_request *req, const void *ctx,
		     uint8_t **der, size_t *len)
{
	struct signing *g = (struct signing *)ctx;
	int r = show(FV_SHOW_FSVERITY_SIGN, g->a, 0, req);

	*der = NULL;
	*len = 0;
	g->rc = r > 0 ? r : 0;
	return r < 0 ? r : 0;
}

static int sign(struct fsv_args *a)
{
	struct signing g = {.a = a};
	struct cli_opts o;
	uint8_t *der = NULL;
	size_t len = 0;
	int r;

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
	if ((r = show(FV_SHOW_FSVERITY_SIGN, a, 4, NULL)))
		return r;
	memset(&o, 0, sizeof(o));
	o.key = a->key;
	o.cert = a->cert;
	o.key_passphrase_file = a->passphrase_file;
	o.pkcs11_module = a->pkcs11_module;
	r = cli_sign_with(&o, sign_file, &g, &der, &len);
	fv_free(der);
	return r ? r : g.rc;
}

/* Subcommand s on the values in base: its arguments counted, then run. */
static int run(const struct cli_sub *s, void *base)
{
	/* each subcommand's, in subs' order: the arguments it needs, and what
	 * the library shows (sign: its own) */
	static const struct {
		int min, max;
		const char *words;
		enum fv_show_what what;
	} needs[] = {{1, INT_MAX, "no file given", FV_SHOW_FSVERITY_DIGEST},
		     {2, 2, "FILE and OUT_SIGFILE are needed", 0},
		     {1, 1, "one FILE is needed", FV_SHOW_FSVERITY_ENABLE},
		     {1, INT_MAX, "no file given", FV_SHOW_FSVERITY_MEASURE},
		     {2, 2, "TYPE and FILE are needed", FV_SHOW_FSVERITY_DUMP}};
	struct fsv_args *a = base;
	size_t i = (size_t)(s - subs);

	if (a->nargs < needs[i].min || a->nargs > needs[i].max) {
		cli_error(-EINVAL,
			  "fsverity %s: %s (fastverity fsverity %s --help)",
			  s->name, needs[i].words, s->name);
		return EXIT_USAGE;
	}
	return s->bit == F_SIGN ? sign(a) : show(needs[i].what, a, 0, NULL);
}

int cli_fsverity_main(int argc, const char **argv)
{
	struct fsv_args a = {0};

	return cli_group_run(&group, argc, argv, &a, &a.args, &a.nargs, run);
}
