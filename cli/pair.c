/* The command's verity pair (cli/pair.h). */
#include "cli/pair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/hints.h"
#include "cli/params.h"
#include "cli/root.h"
#include "cli/progress.h"
#include "cli/cli.h"
#include "verity/sign/signature.h"
#include "verity/tree/superblock.h"

void cli_pair_free(struct cli_pair *cp)
{
	free(cp->signature);
	verity_sidecar_free(&cp->side);
	memset(cp, 0, sizeof(*cp));
}

/* The tree's parameters: from the superblock of the hash region, or from
 * the options with --no-superblock. */
static int tree_params(const struct cli_opts *o, struct verity_pair *pair)
{
	struct fv_error err;
	int r;

	if (cli_params_from_opts(o, &pair->params, 0))
		return EXIT_PARAMS;
	if (pair->params.no_superblock) {
		r = verity_params_validate(&pair->params, &err);
		return r ? cli_lib_error(r, &err) : EXIT_OK;
	}
	if (!(r = verity_read_superblock(&pair->hash, &pair->params, &err)))
		return EXIT_OK;
	return cli_no_superblock(r, &err, pair->data.path, pair->hash.path,
				 pair->params.hash_offset);
}

/* The signature to check (verify, repair) or to hand the kernel (open):
 * --root-hash-signature, or the sidecar one. */
static int read_signature(struct cli_pair *cp)
{
	struct fv_error err;
	int r;

	if (!cp->signature_path)
		return 0;
	r = verity_read_signature(cp->signature_path, &cp->signature,
				  &cp->pair.signature_size, &err);
	if (r)
		return cli_lib_error(r, &err);
	cp->pair.signature = cp->signature;
	cp->pair.signature_name = cp->signature_path;
	return 0;
}

int cli_pair_make(struct cli_opts *o, const char *data, const char *hash,
		  const char *root_arg, struct cli_pair *cp)
{
	struct verity_pair *pair = &cp->pair;
	int r;

	pair->data.path = data;
	pair->hash.path = hash;
	if ((r = tree_params(o, pair)))
		return r;
	if (cli_root_hash(o, root_arg, ht_digest_size(pair->params.hash_name),
			  pair->root))
		return EXIT_PARAMS;
	pair->root_size = ht_digest_size(pair->params.hash_name);
	if (!pair->fec.region.path && cli_fec_params(o, &pair->fec))
		return EXIT_PARAMS;
	if (!cp->signature_path)
		cp->signature_path = o->root_hash_signature;
	return read_signature(cp);
}

int cli_pair_from_args(struct cli_opts *o, struct cli_pair *cp)
{
	struct verity_pair *pair = &cp->pair;
	struct fv_error err;

	memset(cp, 0, sizeof(*cp));
	cp->signature_path = o->root_hash_signature;
	if (o->nargs >= 1 && cli_refuse_sparse(o->args[0]))
		return EXIT_PARAMS;
	if (o->nargs == 1 && avb_image_probe(o->args[0]))
		return cli_pair_avb(o, o->args[0], cp);
	if (o->nargs == 1) {
		if (verity_sidecar_names(o->args[0], &cp->side, &err))
			return cli_lib_error(-ENOMEM, &err);
		/* explicit options win over the sidecars */
		if (!o->root_hash_file)
			o->root_hash_file = cp->side.roothash;
		verity_sidecar_pair(&cp->side, o->args[0], pair,
				    &cp->signature_path);
		/* the sidecar parity takes --fec-roots as --fec-device does */
		if (!o->fec_device && pair->fec.region.path)
			o->fec_device = cp->side.fec;
		pair->fec.region.path = NULL;
		if (o->ntrusted && !cp->signature_path)
			return cli_error(-EINVAL,
					 "--trusted-cert needs a signature "
					 "(--root-hash-signature)");
		return cli_pair_make(o, o->args[0], pair->hash.path, NULL, cp);
	}
	if (o->nargs < 2 || (o->nargs > 3 && strcmp(o->action, "verify") != 0))
		return cli_error(-EINVAL,
				 "%s: requires <data_device> <hash_device> "
				 "[<root_hash>], or <image>, as arguments",
				 o->action);
	/* veritysetup verify ignores what follows the root hash */
	for (int i = 3; i < o->nargs; i++)
		fprintf(stderr,
			"fastverity: warning: ignoring the extra argument "
			"'%s' (as veritysetup does)\n",
			o->args[i]);
	if (o->ntrusted && !cp->signature_path)
		return cli_error(-EINVAL, "--trusted-cert needs a signature "
					  "(--root-hash-signature)");
	return cli_pair_make(o, o->args[0], o->args[1],
			     o->nargs >= 3 ? o->args[2] : NULL, cp);
}

int cli_run_of(const struct cli_opts *o, struct verity_run *run,
	       struct cli_progress *pr)
{
	memset(run, 0, sizeof(*run));
	if (cli_run_options(o, &run->ht, pr))
		return EXIT_PARAMS;
	run->trusted = o->trusted_certs;
	run->ntrusted = o->ntrusted;
	run->sha256 = cli_sha256_choice();
	return 0;
}

enum sha256_choice cli_sha256_choice(void)
{
	const char *force = getenv("FASTVERITY_SHA256");

	if (!force)
		return SHA256_CHOOSE_FASTEST;
	if (!strcmp(force, "portable"))
		return SHA256_CHOOSE_PORTABLE;
	if (!strcmp(force, "two-way"))
		return SHA256_CHOOSE_TWO_WAY;
	if (!strcmp(force, "three-way"))
		return SHA256_CHOOSE_THREE_WAY;
	return SHA256_CHOOSE_FASTEST;
}

int cli_signed_checks(const struct cli_opts *o, const struct cli_pair *cp)
{
	/* said here, with the option that fixes it; the library refuses
	 * the same */
	if (cp->pair.signature && !o->ntrusted)
		return cli_error(-EINVAL,
				 "%s: the root hash is signed: give the "
				 "signer's certificate with "
				 "--trusted-cert=<cert.pem> to check it; %s "
				 "trusts no root hash whose signature it has "
				 "not checked",
				 cp->signature_path, o->action);
	return 0;
}

void cli_signature_said(const struct cli_opts *o, const struct cli_pair *cp,
			const struct verity_outcome *out)
{
	if (!out->signature_checked)
		return;
	if (out->sig.warning[0])
		fprintf(stderr, "fastverity: %s: warning: %s\n",
			cp->signature_path, out->sig.warning);
	cli_debug(o, "Root hash signature by %s checks out.", out->sig.signer);
}
