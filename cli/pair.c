/* The command's verity pair (cli/pair.h). */
#include "cli/pair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/hints.h"
#include "cli/params.h"
#include "cli/root.h"
#include "cli/progress.h"
#include "cli/cli.h"
#include "verity/container/registry.h"
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
	struct ht_error err;
	int r;

	if (cli_params_from_opts(o, &pair->params, 0))
		return EXIT_PARAMS;
	if (pair->params.no_superblock) {
		r = verity_params_validate(&pair->params, &err);
		return r ? cli_inside_error(r, &err) : EXIT_OK;
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
	struct ht_error err;
	int r;

	if (!cp->signature_path)
		return 0;
	r = verity_read_signature(cp->signature_path, &cp->signature,
				  &cp->pair.signature_size, &err);
	if (r)
		return cli_inside_error(r, &err);
	cp->pair.signature = cp->signature;
	cp->pair.signature_name = cp->signature_path;
	return 0;
}

int cli_pair_make(const struct cli_opts *o, const char *data, const char *hash,
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
	if (!cp->fec_name)
		cp->fec_name = o->fec_device;
	if (!cp->signature_path)
		cp->signature_path = o->root_hash_signature;
	return read_signature(cp);
}

int cli_image_kind(const struct cli_opts *o, const char *image,
		   enum verity_container *kind)
{
	struct ht_error err;
	int asked = VERITY_CONTAINER_AUTO, r;

	if (o->container &&
	    ((asked = verity_container_by_name(o->container)) < 0 ||
	     asked == VERITY_CONTAINER_SPARSE))
		return cli_error(-EINVAL,
				 "--container: '%s' is not avb, ddi, sidecar "
				 "or plain",
				 o->container);
	if ((r = verity_container_identify(image, asked, kind, &err)))
		return cli_inside_error(r, &err);
	return 0;
}

int cli_anchor(const struct cli_opts *o, enum verity_anchor *anchor)
{
	if (o->key && o->ntrusted)
		return cli_error(-EINVAL,
				 "--key and --trusted-cert: give the one "
				 "trust anchor the image takes (--key for "
				 "Android images, --trusted-cert for the "
				 "others)");
	*anchor = o->key       ? VERITY_ANCHOR_KEY
		  : o->ntrusted ? VERITY_ANCHOR_CERT
				: VERITY_ANCHOR_NONE;
	return 0;
}

int cli_writes(const struct cli_opts *o)
{
	return !strcmp(o->action, "repair") &&
	       !(o->repair & VERITY_RUN_DRY_RUN);
}

int cli_trust(const struct cli_opts *o, enum verity_container container,
	      const char *image, enum verity_signature_from signature,
	      int writes, size_t implicit_certs, enum verity_trust *trust)
{
	struct verity_trust_ask ask = {container, image, signature,
				       VERITY_ANCHOR_NONE, writes};
	struct ht_error err;
	int r;

	if ((r = cli_anchor(o, &ask.anchor)))
		return r;
	if (ask.anchor == VERITY_ANCHOR_NONE && implicit_certs)
		ask.anchor = VERITY_ANCHOR_CERT;
	if ((r = verity_trust_decide(&ask, trust, &err)))
		return cli_inside_error(r, &err);
	return 0;
}

/* The trust policy on a sidecar or plain pair, before a block is read. */
static int pair_trust(struct cli_opts *o, struct cli_pair *cp,
		      enum verity_container container)
{
	enum verity_signature_from from =
		!cp->pair.signature	      ? VERITY_SIGNATURE_NONE
		: o->root_hash_signature ? VERITY_SIGNATURE_GIVEN
					 : VERITY_SIGNATURE_FOUND;

	cp->pair.container = container;
	cp->pair.signature_found = from == VERITY_SIGNATURE_FOUND;
	return cli_trust(o, container,
			 cp->signature_path ? cp->signature_path
					    : cp->pair.data.path,
			 from, cli_writes(o), 0, &cp->trust);
}

int cli_pair_from_args(struct cli_opts *o, enum verity_container kind,
		       struct cli_pair *cp)
{
	struct verity_pair *pair = &cp->pair;
	struct ht_error err;
	int r;

	memset(cp, 0, sizeof(*cp));
	cp->signature_path = o->root_hash_signature;
	if (o->nargs == 1) {
		if (kind == VERITY_CONTAINER_AVB)
			return cli_pair_avb(o, o->args[0], cp);
		if (kind != VERITY_CONTAINER_SIDECAR)
			return cli_error(-EINVAL, "%s: %s: %s takes it with "
						  "its own checks",
					 o->args[0],
					 verity_container_words(kind),
					 o->action);
		struct cli_opts side = *o; /* the options, with the sidecars
					     * where none were given */

		if (verity_sidecar_names(o->args[0], &cp->side, &err))
			return cli_inside_error(-ENOMEM, &err);
		/* explicit options win over the sidecars */
		if (!side.root_hash_file)
			side.root_hash_file = cp->side.roothash;
		verity_sidecar_pair(&cp->side, o->args[0], pair,
				    &cp->signature_path);
		/* the sidecar parity takes --fec-roots as --fec-device does */
		if (!side.fec_device && pair->fec.region.path)
			side.fec_device = cp->side.fec;
		pair->fec.region.path = NULL;
		if ((r = cli_pair_make(&side, o->args[0], pair->hash.path, NULL,
				       cp)))
			return r;
		return pair_trust(o, cp, VERITY_CONTAINER_SIDECAR);
	}
	if (o->container && strcmp(o->container, "plain"))
		return cli_error(-EINVAL,
				 "--container=%s: takes an image alone; a "
				 "data and a hash device are a plain pair",
				 o->container);
	if (o->nargs < 2 || (o->nargs > 3 && strcmp(o->action, "verify") != 0))
		return cli_error(-EINVAL,
				 "%s: requires <data_device> <hash_device> "
				 "[<root_hash>], or <image>, as arguments",
				 o->action);
	if (cli_refuse_sparse(o->args[0]))
		return EXIT_PARAMS;
	/* veritysetup verify ignores what follows the root hash */
	for (int i = 3; i < o->nargs; i++)
		fprintf(stderr,
			"fastverity: warning: ignoring the extra argument "
			"'%s' (as veritysetup does)\n",
			o->args[i]);
	if ((r = cli_pair_make(o, o->args[0], o->args[1],
			       o->nargs >= 3 ? o->args[2] : NULL, cp)))
		return r;
	return pair_trust(o, cp, VERITY_CONTAINER_PLAIN);
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

void cli_signature_said(const struct cli_opts *o, const struct cli_pair *cp,
			const struct verity_outcome *out)
{
	if (!cp->avb && cp->trust == VERITY_TRUST_UNCHECKED) {
		fprintf(stderr,
			"fastverity: %s: warning: the root hash is signed, and "
			"its signer was not checked (give "
			"--trusted-cert=<cert.pem> to check it): the image "
			"matches its root hash, but nothing proves who made "
			"it\n",
			cp->signature_path ? cp->signature_path
					   : cp->pair.data.path);
		return;
	}
	if (!out->signature_checked)
		return;
	if (out->sig.warning[0])
		fprintf(stderr, "fastverity: %s: warning: %s\n",
			cp->signature_path, out->sig.warning);
	cli_debug(o, "Root hash signature by %s checks out.", out->sig.signer);
}
