/* fastverity format <data_device> <hash_device> */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/hints.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"
#include "verity/storage/output.h"

static int write_root_file(const char *path, const uint8_t *root, unsigned size)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	struct ht_error err;

	verity_hex_encode(root, size, hex);
	/* whole or not at all: a temporary file renamed over the old one */
	if (verity_write_file(path, "the root hash file", hex, strlen(hex),
			      &err))
		return cli_inside_error(-EIO, &err);
	return 0;
}

/* A sidecar left by an earlier format no longer matches the new tree (a
 * later verify would pick it up): removed, and said. */
static int prune_sidecars(const struct verity_sidecar *side,
			  const struct verity_pair *pair, int signed_now)
{
	struct ht_error err;
	unsigned removed;

	if (verity_sidecar_prune(side, pair, signed_now, &removed, &err))
		return cli_inside_error(-EIO, &err);
	if (removed & VERITY_SIDECAR_SIGNATURE)
		fprintf(stderr,
			"fastverity: removed %s: the root hash signature of an "
			"earlier format, which no longer matches\n",
			side->signature);
	if (removed & VERITY_SIDECAR_FEC)
		fprintf(stderr,
			"fastverity: removed %s: the parity of an earlier "
			"format, which no longer matches\n",
			side->fec);
	return 0;
}

/* The pair format makes: <data> <hash>, or <image> and its sidecars. */
static int format_pair(struct cli_opts *o, struct verity_sidecar *side,
		       struct verity_pair *pair)
{
	struct ht_error err;

	memset(pair, 0, sizeof(*pair));
	if (o->sidecar) {
		if (o->nargs != 1)
			return cli_error(-EINVAL, "format --sidecar: requires "
						  "<image> as argument");
		if (verity_sidecar_names(o->args[0], side, &err))
			return cli_inside_error(-ENOMEM, &err);
		if (o->root_hash_file)
			return cli_error(-EINVAL,
					 "format --sidecar: writes the root "
					 "hash to %s; --root-hash-file would "
					 "be ignored",
					 side->roothash);
		if (o->fec_device || o->fec_offset)
			return cli_error(-EINVAL,
					 "format --sidecar: writes the parity "
					 "to %s; give --fec-roots, not "
					 "--fec-device or --fec-offset",
					 side->fec);
		pair->data.path = o->args[0];
		pair->hash.path = side->tree;
		o->root_hash_file = side->roothash;
		if (o->fec_roots)
			o->fec_device = side->fec;
	} else if (o->nargs != 2) {
		return cli_error(-EINVAL, "format: requires <data_device> "
					  "<hash_device> as arguments");
	} else {
		pair->data.path = o->args[0];
		pair->hash.path = o->args[1];
	}
	if ((o->key || o->cert) && !o->sidecar)
		return cli_error(-EINVAL, "--key and --cert go with format "
					  "--sidecar, or with sign");
	if (cli_params_from_opts(o, &pair->params, 1) ||
	    cli_fec_params(o, &pair->fec))
		return EXIT_PARAMS;
	return 0;
}

int cmd_format(struct cli_opts *o)
{
	struct verity_pair pair;
	struct verity_sidecar side = {0};
	struct verity_run run;
	struct verity_outcome out;
	struct cli_progress pr;
	struct ht_error err;
	const struct verity_params *p = &pair.params;
	const struct verity_layout *l = &out.layout;
	char uuid[37] = "";
	int r;

	cli_warn_weak_digest(o->hash);
	if ((r = format_pair(o, &side, &pair)) ||
	    (r = cli_refuse_sparse(pair.data.path)) ||
	    (r = cli_run_of(o, &run, &pr) ? EXIT_PARAMS : 0))
		goto out;
	/* no output over an input */
	{
		const char *in[] = {pair.data.path, pair.hash.path,
				    pair.fec.region.path, o->key, o->cert};

		if ((r = cli_check_output(o->root_hash_file, "root hash", in,
					  5)) ||
		    (r = cli_check_output(pair.hash.path, "hash tree", in + 3,
					  2)) ||
		    (r = cli_check_output(pair.fec.region.path, "FEC parity",
					  in + 3, 2)))
			goto out;
	}
	r = verity_op_format(&pair, &run, &out, &err);
	cli_progress_end(&pr);
	cli_debug(o, "Threads: %u.", run.ht.threads);
	if (r) {
		r = cli_inside_write_error(r, &err);
		goto out;
	}
	cli_debug(o, "Hashing path: %s (%s), kernel %s, provider %s.",
		  out.info.hash_path, out.info.path_reason, out.info.kernel,
		  out.info.provider);
	cli_debug(o, "Tree: %u levels, %llu hash blocks from hash block %llu.",
		  l->geo.levels, (unsigned long long)l->geo.tree_blocks,
		  (unsigned long long)(l->tree_offset / p->hash_block_size));
	if (o->root_hash_file &&
	    (r = write_root_file(o->root_hash_file, out.root,
				 l->geo.digest_size)))
		goto out;
	if (o->sidecar && (o->key || o->cert)) {
		char hex[2 * HT_MAX_DIGEST_SIZE + 1];

		verity_hex_encode(out.root, l->geo.digest_size, hex);
		if ((r = cli_sign_root(o, hex, side.signature)))
			goto out;
	}
	if (o->sidecar && (r = prune_sidecars(&side, &pair, o->key || o->cert)))
		goto out;
	if (o->json) {
		cli_json_print(cli_json_header(pair.hash.path, p, l, out.root));
		r = EXIT_OK;
		goto out;
	}
	if (!p->no_superblock) {
		if (o->uuid)
			snprintf(uuid, sizeof(uuid), "%s", o->uuid);
		else
			verity_uuid_format(p->uuid, uuid);
	}
	cli_print_header(pair.hash.path, p, uuid, l, out.root);
	r = EXIT_OK;
out:
	verity_sidecar_free(&side);
	return r;
}
