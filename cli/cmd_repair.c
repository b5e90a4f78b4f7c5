/* fastverity repair <data_device> <hash_device> [<root_hash>]
 *   --fec-device=<fec> [--dry-run]
 * Rebuilds bad blocks from the FEC parity; writes only blocks the tree
 * proves, then parity that disagrees with verified data. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <json-c/json.h>

#include "verity/sign/signature.h"
#include "cli/ddi.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"

struct repair_out {
	const struct cli_opts *o;
	json_object *repaired, *unrepaired;
	uint64_t nrepaired, nunrepaired;
	const char *fec_name; /* the parity, as messages name it */
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
		       !!(ro->o->repair & VERITY_RUN_DRY_RUN) ? "Can repair"
							      : "Repaired",
		       f->position, what);
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

static void print_json(const struct repair_out *ro, const struct cli_pair *cp,
		       const struct verity_outcome *out, int code)
{
	const struct verity_layout *l = &out->layout;
	const struct verity_fec_result *res = &out->fec;
	json_object *j =
		cli_json_header(cp->pair.hash.path, &cp->pair.params, l, NULL);

	json_object_object_add(j, "dry_run",
			       json_object_new_boolean(
				       !!(ro->o->repair & VERITY_RUN_DRY_RUN)));
	json_object_object_add(
		j, "rewrite_parity",
		json_object_new_boolean(
			!!(ro->o->repair & VERITY_RUN_REWRITE_PARITY)));
	json_object_object_add(j, "signature", cli_json_signature(cp, out));
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
	const char *verb = !!(ro->o->repair & VERITY_RUN_DRY_RUN)
				   ? "can be repaired"
				   : "repaired";
	char roots[160];

	if (fl->roots_source != VERITY_ROOTS_GIVEN) {
		cli_fec_roots_text(fl, ro->fec_name, roots, sizeof(roots));
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
		       !!!(ro->o->repair & VERITY_RUN_REWRITE_PARITY)
			       ? "not rewritten (repair --rewrite-parity "
				 "rewrites them)"
		       : !!(ro->o->repair & VERITY_RUN_DRY_RUN)
			       ? "repair --rewrite-parity would "
				 "rewrite them"
			       : "rewritten");
	if (!res->after.root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
}

/* A pair with no parity to repair from: where it would be, said. */
static int no_parity(const struct cli_opts *o, const struct cli_pair *cp)
{
	if (cp->avb)
		return cli_error(-EINVAL,
				 "repair: %s holds no parity it can use "
				 "(fastverity avb add_hashtree_footer makes "
				 "it, 4096-byte blocks)",
				 o->args[0]);
	if (o->nargs != 1)
		return cli_error(-EINVAL, "repair: requires --fec-device");
	if (!cp->side.fec)
		return cli_error(-EINVAL,
				 "repair: %s holds no parity: requires "
				 "--fec-device",
				 o->args[0]);
	return cli_error(-EINVAL, "repair: requires --fec-device, or %s",
			 cp->side.fec);
}

int cmd_repair(struct cli_opts *o)
{
	struct cli_pair cp;
	struct verity_run run;
	struct verity_outcome out;
	struct cli_progress pr;
	struct ht_error err;
	struct repair_out ro = {o, NULL, NULL, 0, 0, NULL};
	enum verity_container kind = VERITY_CONTAINER_PLAIN;
	int r;

	if (o->nargs == 1 && (r = cli_image_kind(o, o->args[0], &kind)))
		return r;
	r = kind == VERITY_CONTAINER_DDI ? cli_ddi_pair(o, o->args[0], &cp)
					 : cli_pair_from_args(o, kind, &cp);
	if (r)
		goto out;
	if (!cp.pair.fec.region.path) {
		r = no_parity(o, &cp);
		goto out;
	}
	/* the root hash is trusted only once its signature checks out,
	 * before anything is read, let alone written: the trust policy
	 * refused an unchecked signer already (cli_pair_from_args) */
	if (cli_run_of(o, &run, &pr)) {
		r = EXIT_PARAMS;
		goto out;
	}
	ro.fec_name = cp.fec_name;
	run.flags = o->repair;
	run.event = on_event;
	run.ctx = &ro;
	if (o->json) {
		ro.repaired = json_object_new_array();
		ro.unrepaired = json_object_new_array();
	}
	r = verity_op_repair(&cp.pair, &run, &out, &err);
	cli_progress_end(&pr);
	if (r) {
		json_object_put(ro.repaired);
		json_object_put(ro.unrepaired);
		r = cli_inside_write_error(r, &err);
		goto out;
	}
	cli_signature_said(o, &cp, &out);
	/* a dry run leaves the image as it was */
	r = cli_verdict(&out.res);
	if (o->json)
		print_json(&ro, &cp, &out, r);
	else
		print_text(&ro, &out.layout.fec, &out.fec);
out:
	cli_pair_free(&cp);
	return r;
}
