/* fastverity verify <data_device> <hash_device> [<root_hash>]
 * Checks everything and reports every failure, not just the first. */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>

#include <json-c/json.h>

#include "../verity/signature.h"
#include "cli.h"

struct verify_report {
	const struct cli_opts *o;
	json_object *failures; /* --json */
};

static const char *kind_name(enum ht_failure_kind k)
{
	switch (k) {
	case HT_BAD_DATA_BLOCK:
		return "data";
	case HT_BAD_HASH_BLOCK:
		return "hash";
	default:
		return "padding";
	}
}

static void report_failure(void *c, const struct verity_failure *f)
{
	struct verify_report *vr = c;

	if (vr->failures) {
		json_object *j = json_object_new_object();

		json_object_object_add(
			j, "type", json_object_new_string(kind_name(f->kind)));
		json_object_object_add(j, "position",
				       json_object_new_uint64(f->position));
		json_object_object_add(j, "block",
				       json_object_new_uint64(f->block));
		if (f->kind != HT_BAD_DATA_BLOCK)
			json_object_object_add(
				j, "level", json_object_new_int((int)f->level));
		json_object_array_add(vr->failures, j);
		return;
	}
	if (f->kind == HT_BAD_PADDING)
		fprintf(stderr,
			"Spare area is not zeroed at position %" PRIu64 ".\n",
			f->position);
	else
		fprintf(stderr,
			"Verification failed at position %" PRIu64 ".\n",
			f->position);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static int verdict(const struct ht_verify_result *res)
{
	if (res->bad_data_blocks || res->bad_hash_blocks || res->bad_padding)
		return EXIT_VERIFY;
	return res->root_matches ? EXIT_OK : EXIT_PARAMS;
}

static void print_summary(const struct ht_verify_result *res)
{
	if (verdict(res) == EXIT_VERIFY)
		fprintf(stderr,
			"Verification of data area failed: %" PRIu64
			" bad data block%s, %" PRIu64
			" bad hash block%s, %" PRIu64 " bad spare area%s.\n",
			res->bad_data_blocks, plural(res->bad_data_blocks),
			res->bad_hash_blocks, plural(res->bad_hash_blocks),
			res->bad_padding, plural(res->bad_padding));
	if (!res->root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
}

static void print_json(const char *data, const char *hash,
		       struct verity_params *p, const uint8_t *root,
		       json_object *failures,
		       const struct ht_verify_result *res,
		       const struct verity_sig_check *sig, const char *sig_path)
{
	struct verity_layout l;
	struct fv_error err;
	json_object *j;
	int code = verdict(res);

	verity_layout_compute(p, &l, &err);
	j = cli_json_header(hash, p, &l, root);
	json_object_object_add(j, "data_device", json_object_new_string(data));
	if (sig_path) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "file",
				       json_object_new_string(sig_path));
		json_object_object_add(s, "signer",
				       json_object_new_string(sig->signer));
		json_object_object_add(
			s, "warning",
			sig->warning[0] ? json_object_new_string(sig->warning)
					: NULL);
		json_object_object_add(j, "signature", s);
	} else {
		json_object_object_add(j, "signature", NULL);
	}
	json_object_object_add(
		j, "result",
		json_object_new_string(code == EXIT_OK ? "ok"
				       : code == EXIT_VERIFY
					       ? "corrupted"
					       : "root hash mismatch"));
	json_object_object_add(j, "root_hash_matches",
			       json_object_new_boolean(res->root_matches));
	json_object_object_add(j, "bad_data_blocks",
			       json_object_new_uint64(res->bad_data_blocks));
	json_object_object_add(j, "bad_hash_blocks",
			       json_object_new_uint64(res->bad_hash_blocks));
	json_object_object_add(j, "bad_spare_areas",
			       json_object_new_uint64(res->bad_padding));
	json_object_object_add(j, "failures", failures);
	cli_json_print(j);
}

/* Arguments: <data> <hash> [<root>], or <image> with systemd's sidecar
 * files (the rule is in cli_sidecar_names()). */
static int verify_args(struct cli_opts *o, const char **data, const char **hash,
		       const char **root_arg, const char **sig_path,
		       struct cli_sidecar *side)
{
	*sig_path = o->root_hash_signature;
	*root_arg = NULL;
	if (o->nargs == 1) {
		cli_sidecar_names(o->args[0], side);
		*data = o->args[0];
		*hash = side->tree;
		if (!o->root_hash_file)
			o->root_hash_file = side->roothash;
		if (!*sig_path && access(side->signature, F_OK) == 0)
			*sig_path = side->signature;
		return 0;
	}
	if (o->nargs < 2 || o->nargs > 3)
		return cli_error(-EINVAL,
				 "verify: requires <data_device> <hash_device> "
				 "[<root_hash>], or <image>, as arguments");
	*data = o->args[0];
	*hash = o->args[1];
	*root_arg = o->nargs == 3 ? o->args[2] : NULL;
	return 0;
}

int cmd_verify(struct cli_opts *o)
{
	struct verity_params p;
	struct verity_info info;
	struct ht_options opt;
	struct cli_progress pr;
	struct ht_verify_result res;
	struct verify_report vr = {o, NULL};
	struct verity_sig_check sig = {"", ""};
	static struct cli_sidecar
		side; /* o->root_hash_file may point into it */
	struct fv_error err;
	const char *data = NULL, *hash = NULL, *root_arg = NULL,
		   *sig_path = NULL;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	int r;

	if ((r = verify_args(o, &data, &hash, &root_arg, &sig_path, &side)))
		return r;
	if (o->ntrusted && !sig_path)
		return cli_error(-EINVAL, "--trusted-cert needs a signature "
					  "(--root-hash-signature)");
	if (cli_params_from_opts(o, &p, 0) || cli_run_options(o, &opt, &pr))
		return EXIT_PARAMS;
	if (!p.no_superblock) {
		r = verity_read_superblock(hash, &p, &err);
		if (r)
			return cli_error(r, "%s", err.msg);
	} else {
		r = verity_params_validate(&p, &err);
		if (r)
			return cli_error(r, "%s", err.msg);
	}
	if (cli_root_hash(o, root_arg, ht_digest_size(p.hash_name), root))
		return EXIT_PARAMS;
	/* who signed the root hash, before any block is read */
	if (sig_path &&
	    (r = cli_check_signature(o, sig_path, root,
				     ht_digest_size(p.hash_name), &sig)))
		return r;
	if (o->json)
		vr.failures = json_object_new_array();
	r = verity_verify(&p, data, hash, &opt, root,
			  ht_digest_size(p.hash_name), report_failure, &vr,
			  &res, &info, &err);
	cli_progress_end(&pr);
	cli_debug(o, "Threads: %u.", opt.threads);
	if (r) {
		json_object_put(vr.failures);
		return cli_error(r, "%s", err.msg);
	}
	cli_debug(o, "Hashing path: %s (%s), kernel %s, provider %s.",
		  info.hash_path, info.path_reason, info.kernel, info.provider);
	if (o->json)
		print_json(data, hash, &p, root, vr.failures, &res, &sig,
			   sig_path);
	else
		print_summary(&res);
	return verdict(&res);
}
