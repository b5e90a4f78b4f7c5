/* fastverity repair <data_device> <hash_device> [<root_hash>]
 *   --fec-device=<fec> [--dry-run]
 * Rebuilds bad blocks from the FEC parity; writes only blocks the tree
 * proves, then parity that disagrees with verified data. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <json-c/json.h>

#include "verity/sign/signature.h"
#include "cli.h"

struct repair_out {
	const struct cli_opts *o;
	json_object *repaired, *unrepaired;
	uint64_t nrepaired, nunrepaired;
};

static void describe(const struct verity_failure *f, char *buf, size_t len)
{
	if (f->kind == HT_BAD_DATA_BLOCK || f->kind == HT_UNREADABLE_DATA)
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

static void print_json(const struct repair_out *ro, const char *hash,
		       const char *sig_path, const struct verity_sig_check *sig,
		       const struct verity_params *p,
		       const struct verity_layout *l,
		       const struct verity_fec_result *res, int code)
{
	json_object *j = cli_json_header(hash, p, l, NULL);

	json_object_object_add(j, "dry_run",
			       json_object_new_boolean(ro->o->dry_run));
	json_object_object_add(j, "rewrite_parity",
			       json_object_new_boolean(ro->o->rewrite_parity));
	json_object_object_add(j, "signature",
			       cli_json_signature(sig_path, sig));
	json_object_object_add(j, "before", json_counts(&res->before));
	json_object_object_add(j, "repaired", ro->repaired);
	json_object_object_add(j, "unrepaired", ro->unrepaired);
	json_object_object_add(j, "fec", cli_json_fec(&l->fec, res, NULL));
	json_object_object_add(j, "parity_rounds_rewritten",
			       json_object_new_uint64(res->parity_rewritten));
	json_object_object_add(j, "after", json_counts(&res->after));
	json_object_object_add(j, "result",
			       cli_json_str(cli_verdict_word(code)));
	json_object_object_add(j, "exit_code", json_object_new_int(code));
	cli_json_print(j);
}

static void print_text(const struct repair_out *ro,
		       const struct verity_fec_layout *fl,
		       const struct verity_fec_result *res)
{
	const char *verb = ro->o->dry_run ? "can be repaired" : "repaired";
	char roots[160];

	if (fl->roots_source != VERITY_ROOTS_GIVEN) {
		cli_fec_roots_text(fl, ro->o->fec_device, roots, sizeof(roots));
		printf("FEC: %s.\n", roots);
	}
	if (res->bad_blocks)
		printf("%" PRIu64 " of %" PRIu64 " bad block%s %s.\n",
		       res->repaired, res->bad_blocks,
		       cli_plural(res->bad_blocks), verb);
	if (res->stale_codewords)
		printf("Parity: %" PRIu64 " codeword%s in %" PRIu64
		       " round%s disagree with the verified data; %s.\n",
		       res->stale_codewords, cli_plural(res->stale_codewords),
		       res->stale_rounds, cli_plural(res->stale_rounds),
		       !ro->o->rewrite_parity
			       ? "not rewritten (repair --rewrite-parity "
				 "rewrites them)"
		       : ro->o->dry_run ? "repair --rewrite-parity would "
					  "rewrite them"
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
	const char *data = NULL, *hash = NULL, *root_arg = NULL,
		   *sig_path = NULL;
	struct verity_sig_check sig = {"", ""};
	int r, code;

	if ((r = cli_check_args(o, &data, &hash, &root_arg, &sig_path, &side)))
		return r;
	if (cli_fec_params(o, &fp))
		return EXIT_PARAMS;
	if (!fp.device && o->nargs == 1)
		return cli_error(-EINVAL,
				 "repair: requires --fec-device, or %s",
				 side.fec);
	if (!fp.device)
		return cli_error(-EINVAL, "repair: requires --fec-device");
	if ((r = cli_tree_params(o, hash, root_arg, &p, root)))
		return r;
	/* the root hash is trusted only once its signature checks out:
	 * before anything is read, let alone written */
	if (sig_path &&
	    (r = cli_check_signature(o, sig_path, root,
				     ht_digest_size(p.hash_name), &sig)))
		return r;
	if (cli_run_options(o, &opt, &pr))
		return EXIT_PARAMS;
	if (o->json) {
		ro.repaired = json_object_new_array();
		ro.unrepaired = json_object_new_array();
	}
	r = verity_fec_repair(
		&p, data, hash, &fp,
		(o->dry_run ? VERITY_REPAIR_DRY_RUN : 0) |
			(o->rewrite_parity ? VERITY_REPAIR_REWRITE_PARITY : 0),
		&opt, root, ht_digest_size(p.hash_name), NULL, on_event, &ro,
		&res, &l, &err);
	cli_progress_end(&pr);
	if (r) {
		json_object_put(ro.repaired);
		json_object_put(ro.unrepaired);
		return cli_write_error(r, err.msg);
	}
	/* a dry run leaves the image as it was */
	code = cli_verdict(o->dry_run ? &res.before : &res.after);
	if (o->json)
		print_json(&ro, hash, sig_path, &sig, &p, &l, &res, code);
	else
		print_text(&ro, &l.fec, &res);
	return code;
}
