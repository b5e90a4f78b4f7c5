/* fastverity format <data_device> <hash_device> */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "verity/storage/device.h"
#include "cli.h"

static int write_root_file(const char *path, const uint8_t *root, unsigned size)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	struct fv_error err;

	verity_hex_encode(root, size, hex);
	/* whole or not at all: a temporary file renamed over the old one */
	if (verity_write_file(path, "the root hash file", hex, strlen(hex),
			      &err))
		return cli_error(-EIO, "%s", err.msg);
	return 0;
}

/* A sidecar left by an earlier format no longer matches the new tree; a
 * later verify would pick it up. */
static void remove_stale(const char *path, const char *what)
{
	if (unlink(path) == 0)
		fprintf(stderr,
			"fastverity: removed %s: the %s of an earlier "
			"format, which no longer matches\n",
			path, what);
	else if (errno != ENOENT)
		fprintf(stderr,
			"fastverity: %s: warning: cannot remove this stale "
			"%s: %s\n",
			path, what, strerror(errno));
}

int cmd_format(struct cli_opts *o)
{
	struct verity_params p;
	struct verity_fec_params fp;
	struct verity_layout l;
	struct verity_info info;
	struct ht_options opt;
	struct cli_progress pr;
	struct fv_error err;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	static struct cli_sidecar
		side; /* o->root_hash_file may point into it */
	const char *data, *hash;
	char uuid[37] = "";
	int r;

	if (o->sidecar) {
		if (o->nargs != 1)
			return cli_error(-EINVAL, "format --sidecar: requires "
						  "<image> as argument");
		if ((r = cli_sidecar_names(o->args[0], &side)))
			return r;
		if (o->root_hash_file)
			return cli_error(-EINVAL,
					 "format --sidecar: writes the root "
					 "hash to %s; --root-hash-file would "
					 "be ignored",
					 side.roothash);
		if (o->fec_device || o->fec_offset)
			return cli_error(-EINVAL,
					 "format --sidecar: writes the parity "
					 "to %s; give --fec-roots, not "
					 "--fec-device or --fec-offset",
					 side.fec);
		data = o->args[0];
		hash = side.tree;
		o->root_hash_file = side.roothash;
		if (o->fec_roots)
			o->fec_device = side.fec;
	} else if (o->nargs != 2) {
		return cli_error(-EINVAL, "format: requires <data_device> "
					  "<hash_device> as arguments");
	} else {
		data = o->args[0];
		hash = o->args[1];
	}
	if ((o->key || o->cert) && !o->sidecar)
		return cli_error(-EINVAL, "--key and --cert go with format "
					  "--sidecar, or with sign");
	if (cli_params_from_opts(o, &p, 1) || cli_fec_params(o, &fp) ||
	    cli_run_options(o, &opt, &pr))
		return EXIT_PARAMS;
	/* no output over an input */
	{
		const char *in[] = {data, hash, fp.device, o->key, o->cert};

		if ((r = cli_check_output(o->root_hash_file, "root hash", in,
					  5)) ||
		    (r = cli_check_output(hash, "hash tree", in + 3, 2)) ||
		    (r = cli_check_output(fp.device, "FEC parity", in + 3, 2)))
			return r;
	}
	r = verity_format(&p, data, hash, &fp, &opt, root, &l, &info, &err);
	cli_progress_end(&pr);
	cli_debug(o, "Threads: %u.", opt.threads);
	if (r)
		return cli_write_error(r, err.msg);
	cli_debug(o, "Hashing path: %s (%s), kernel %s, provider %s.",
		  info.hash_path, info.path_reason, info.kernel, info.provider);
	cli_debug(o, "Tree: %u levels, %llu hash blocks from hash block %llu.",
		  l.geo.levels, (unsigned long long)l.geo.tree_blocks,
		  (unsigned long long)(l.tree_offset / p.hash_block_size));
	if (o->root_hash_file) {
		r = write_root_file(o->root_hash_file, root, l.geo.digest_size);
		if (r)
			return r;
	}
	if (o->sidecar && (o->key || o->cert)) {
		char hex[2 * HT_MAX_DIGEST_SIZE + 1];

		verity_hex_encode(root, l.geo.digest_size, hex);
		r = cli_sign_root(o, hex, side.signature);
		if (r)
			return r;
	} else if (o->sidecar) {
		remove_stale(side.signature, "root hash signature");
	}
	if (o->sidecar && !fp.device)
		remove_stale(side.fec, "parity");
	if (o->json) {
		cli_json_print(cli_json_header(hash, &p, &l, root));
		return EXIT_OK;
	}
	if (!p.no_superblock) {
		if (o->uuid)
			snprintf(uuid, sizeof(uuid), "%s", o->uuid);
		else
			verity_uuid_format(p.uuid, uuid);
	}
	cli_print_header(hash, &p, uuid, &l, root);
	return EXIT_OK;
}
