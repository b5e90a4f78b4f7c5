/* fastverity repair <data_device> <hash_device> [<root_hash>]
 *   --fec-device=<fec> [--dry-run]
 * Rebuilds bad blocks from the FEC parity; writes only blocks the tree
 * proves, then parity that disagrees with verified data. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

struct repair_out {
	const struct cli_opts *o;
	json_object *repaired, *unrepaired;
	uint64_t nrepaired, nunrepaired;
};

static void describe(const struct verity_failure *f, char *buf, size_t len)
{
	if (f->kind == HT_BAD_DATA_BLOCK)
		snprintf(buf, len, "data block %" PRIu64, f->block);
	else
		snprintf(buf, len, "hash block %" PRIu64 ", level %u", f->block,
			 f->level);
}

static void on_event(void *c, enum verity_repair_event ev,
		     const struct verity_failure *f)
{
	struct repair_out *ro = c;
	char what[96];

	if (ev == VERITY_REPAIRED)
		ro->nrepaired++;
	else
		ro->nunrepaired++;
	if (ro->o->json) {
		json_object_array_add(ev == VERITY_REPAIRED ? ro->repaired
							    : ro->unrepaired,
				      cli_json_failure(f));
		return;
	}
	describe(f, what, sizeof(what));
	if (ev == VERITY_REPAIRED)
		printf("%s position %" PRIu64 " (%s).\n",
		       ro->o->dry_run ? "Can repair" : "Repaired", f->position,
		       what);
	else
		fprintf(stderr, "Cannot repair position %" PRIu64 " (%s).\n",
			f->position, what);
}

static json_object *json_counts(const struct ht_verify_result *r)
{
	json_object *j = json_object_new_object();

	cli_json_add_counts(j, r);
	return j;
}

void *cli_json_fec_result(const struct verity_fec_result *res)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "bad_blocks",
			       json_object_new_uint64(res->bad_blocks));
	json_object_object_add(j, "repairable_blocks",
			       json_object_new_uint64(res->repaired));
	json_object_object_add(
		j, "unrepairable_blocks",
		json_object_new_uint64(res->bad_blocks - res->repaired));
	json_object_object_add(j, "stale_parity_codewords",
			       json_object_new_uint64(res->stale_codewords));
	json_object_object_add(j, "stale_parity_rounds",
			       json_object_new_uint64(res->stale_rounds));
	json_object_object_add(j, "unchecked_parity_rounds",
			       json_object_new_uint64(res->unchecked_rounds));
	json_object_object_add(j, "passes",
			       json_object_new_uint64(res->passes));
	return j;
}

static void print_json(const struct repair_out *ro, const char *hash,
		       const struct verity_params *p,
		       const struct verity_layout *l,
		       const struct verity_fec_result *res, int code)
{
	json_object *j = cli_json_header(hash, p, l, NULL);

	json_object_object_add(j, "dry_run",
			       json_object_new_boolean(ro->o->dry_run));
	json_object_object_add(j, "before", json_counts(&res->before));
	json_object_object_add(j, "repaired", ro->repaired);
	json_object_object_add(j, "unrepaired", ro->unrepaired);
	json_object_object_add(j, "fec", cli_json_fec_result(res));
	json_object_object_add(j, "parity_rounds_rewritten",
			       json_object_new_uint64(res->parity_rewritten));
	json_object_object_add(j, "after", json_counts(&res->after));
	json_object_object_add(j, "result",
			       cli_json_str(cli_verdict_word(code)));
	json_object_object_add(j, "exit_code", json_object_new_int(code));
	cli_json_print(j);
}

static void print_text(const struct repair_out *ro,
		       const struct verity_fec_result *res)
{
	const char *verb = ro->o->dry_run ? "can be repaired" : "repaired";

	if (res->bad_blocks)
		printf("%" PRIu64 " of %" PRIu64 " bad blocks %s.\n",
		       res->repaired, res->bad_blocks, verb);
	if (res->stale_codewords)
		printf("Parity: %" PRIu64 " codewords in %" PRIu64
		       " rounds disagreed with the verified data; %s.\n",
		       res->stale_codewords, res->stale_rounds,
		       ro->o->dry_run ? "repair would rewrite them"
				      : "rewritten");
	if (!res->after.root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
}

int cmd_repair(struct cli_opts *o)
{
	struct verity_params p;
	struct verity_fec_params fp;
	struct verity_layout l;
	struct verity_fec_result res;
	struct ht_options opt;
	struct cli_progress pr;
	struct fv_error err;
	struct repair_out ro = {o, NULL, NULL, 0, 0};
	uint8_t root[HT_MAX_DIGEST_SIZE];
	static struct cli_sidecar
		side; /* o->root_hash_file may point into it */
	const char *data, *hash, *root_arg = NULL;
	int r, code, infer_roots;

	if (o->nargs == 1) {
		/* the sidecar files of <image>, as verify takes them */
		if ((r = cli_sidecar_names(o->args[0], &side)))
			return r;
		data = o->args[0];
		hash = side.tree;
		if (!o->root_hash_file)
			o->root_hash_file = side.roothash;
	} else if (o->nargs == 2 || o->nargs == 3) {
		data = o->args[0];
		hash = o->args[1];
		root_arg = o->nargs == 3 ? o->args[2] : NULL;
	} else {
		return cli_error(-EINVAL, "repair: requires <data_device> "
					  "<hash_device> [<root_hash>], or "
					  "<image>, as arguments");
	}
	infer_roots = o->nargs == 1 && cli_sidecar_fec(o, &side);
	if (cli_fec_params(o, &fp))
		return EXIT_PARAMS;
	if (infer_roots)
		fp.roots = 0;
	if (!fp.device && o->nargs == 1)
		return cli_error(-EINVAL,
				 "repair: requires --fec-device, or %s",
				 side.fec);
	if (!fp.device)
		return cli_error(-EINVAL, "repair: requires --fec-device");
	if ((r = cli_tree_params(o, hash, root_arg, &p, root)))
		return r;
	if (cli_run_options(o, &opt, &pr))
		return EXIT_PARAMS;
	if (o->json) {
		ro.repaired = json_object_new_array();
		ro.unrepaired = json_object_new_array();
	}
	r = verity_fec_repair(&p, data, hash, &fp, o->dry_run, &opt, root,
			      ht_digest_size(p.hash_name), NULL, on_event, &ro,
			      &res, &l, &err);
	cli_progress_end(&pr);
	if (r) {
		json_object_put(ro.repaired);
		json_object_put(ro.unrepaired);
		return cli_error(r, "%s", err.msg);
	}
	/* a dry run leaves the image as it was */
	code = cli_verdict(o->dry_run ? &res.before : &res.after);
	if (o->json)
		print_json(&ro, hash, &p, &l, &res, code);
	else
		print_text(&ro, &res);
	return code;
}
