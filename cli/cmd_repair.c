/* fastverity repair <data_device> <hash_device> [<root_hash>]
 *   --fec-device=<fec> [--dry-run]
 * Rebuilds bad blocks from the FEC parity; writes only blocks the tree
 * proves, then parity that disagrees with verified data. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/ddi.h"
#include "cli/super.h"
#include "cli/errors.h"
#include "cli/params.h"
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

static void describe(const struct cli_failure *f, char *buf, size_t len)
{
	if (f->kind == FV_BAD_DATA_BLOCK || f->kind == FV_UNREADABLE_DATA_BLOCK)
		snprintf(buf, len, "data block %" PRIu64, f->block);
	else
		snprintf(buf, len, "hash block %" PRIu64 ", level %u", f->block,
			 f->level);
}

static void on_event(void *c, int repaired, enum fv_failure_kind kind,
		     uint64_t block, uint64_t offset, unsigned level)
{
	struct repair_out *ro = c;
	struct cli_failure f = {kind, offset, block, level};
	char what[96];

	cli_progress_clear();
	if (repaired)
		ro->nrepaired++;
	else
		ro->nunrepaired++;
	if (ro->o->json) {
		json_object_array_add(repaired ? ro->repaired : ro->unrepaired,
				      cli_json_failure(&f));
		return;
	}
	describe(&f, what, sizeof(what));
	if (repaired)
		printf("%s position %" PRIu64 " (%s).\n",
		       !!(ro->o->repair & FV_REPAIR_DRY_RUN) ? "Can repair"
							     : "Repaired",
		       f.position, what);
	else
		fprintf(stderr, "Cannot repair position %" PRIu64 " (%s).\n",
			f.position, what);
}

static json_object *json_counts(const struct cli_counts *c)
{
	json_object *j = json_object_new_object();

	cli_json_add_counts(j, c);
	return j;
}

static void print_json(const struct repair_out *ro, const struct cli_pair *cp,
		       const fv_result *out, const struct fv_layout *l,
		       const struct fv_fec_report *res, int code)
{
	struct cli_counts before, after;
	json_object *j = cli_json_header(cp->pi.hash, cp->pi.params, l, NULL);

	cli_counts_before(res, &before);
	cli_counts_of(out, &after);
	cli_jbool(j, "dry_run", !!(ro->o->repair & FV_REPAIR_DRY_RUN));
	cli_jbool(j, "rewrite_parity",
		  !!(ro->o->repair & FV_REPAIR_REWRITE_PARITY));
	cli_jset(j, "signature", cli_json_signature(cp, out));
	cli_jset(j, "before", json_counts(&before));
	cli_jset(j, "repaired", ro->repaired);
	cli_jset(j, "unrepaired", ro->unrepaired);
	cli_jset(j, "fec", cli_json_fec(l, res, NULL));
	cli_ju64(j, "parity_rounds_rewritten", res->parity_rewritten);
	cli_jset(j, "after", json_counts(&after));
	cli_jstr(j, "result", cli_verdict_word(code));
	cli_jint(j, "exit_code", code);
	cli_json_print(j);
}

static void print_text(const struct repair_out *ro, const fv_result *out,
		       const struct fv_layout *fl,
		       const struct fv_fec_report *res)
{
	const char *verb = !!(ro->o->repair & FV_REPAIR_DRY_RUN)
				   ? "can be repaired"
				   : "repaired";
	struct cli_counts after;
	char roots[160];

	if (fl->fec_roots_from != FV_ROOTS_GIVEN) {
		cli_fec_roots_text(fl, ro->fec_name, roots, sizeof(roots));
		printf("FEC: %s.\n", roots);
	}
	if (res->bad_blocks)
		printf("%" PRIu64 " of %" PRIu64 " bad block%s %s.\n",
		       res->repaired, res->bad_blocks,
		       cli_plural(res->bad_blocks), verb);
	/* past the limit (only a repair that does not rewrite gets here):
	 * not this image's parity, which --rewrite-parity refuses */
	if (res->stale_codewords > res->rewrite_limit)
		printf("Parity: %" PRIu64 " codeword%s in %" PRIu64
		       " round%s disagree with the verified data, more than "
		       "the %" PRIu64 " that damage explains: not this "
		       "image's parity, or the roots or offset are wrong; "
		       "left as it is.\n",
		       res->stale_codewords, cli_plural(res->stale_codewords),
		       res->stale_rounds, cli_plural(res->stale_rounds),
		       res->rewrite_limit);
	else if (res->stale_codewords)
		printf("Parity: %" PRIu64 " codeword%s in %" PRIu64
		       " round%s disagree with the verified data; %s.\n",
		       res->stale_codewords, cli_plural(res->stale_codewords),
		       res->stale_rounds, cli_plural(res->stale_rounds),
		       !!!(ro->o->repair & FV_REPAIR_REWRITE_PARITY)
			       ? "not rewritten (repair --rewrite-parity "
				 "rewrites them)"
		       : !!(ro->o->repair & FV_REPAIR_DRY_RUN)
			       ? "repair --rewrite-parity would "
				 "rewrite them"
			       : "rewritten");
	cli_counts_of(out, &after);
	if (!after.root_matches)
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
	if (!cp->side_fec)
		return cli_error(-EINVAL,
				 "repair: %s holds no parity: requires "
				 "--fec-device",
				 o->args[0]);
	return cli_error(-EINVAL, "repair: requires --fec-device, or %s",
			 cp->side_fec);
}

int cmd_repair(struct cli_opts *o)
{
	struct cli_pair cp;
	fv_options opts;
	fv_result *out = NULL;
	struct cli_progress pr;
	struct fv_report rep;
	struct cli_counts counts;
	struct repair_out ro = {o, NULL, NULL, 0, 0, NULL};
	enum cli_container kind = CLI_PLAIN;
	int r;

	memset(&cp, 0, sizeof(cp));
	if ((r = cli_check_crc(o)))
		return r;
	if (o->nargs == 1 && (r = cli_image_kind(o, o->args[0], &kind)))
		return r;
	if (kind == CLI_SUPER)
		return o->partition ? cli_super_on_partition(o, cmd_repair)
				    : cli_super_refuse(o, o->args[0]);
	if (o->slot || (o->partition && kind != CLI_DDI))
		return cli_error(-EINVAL,
				 "%s: --%s names a partition of a super image "
				 "or a disk image",
				 o->args[0], o->slot ? "slot" : "partition");
	r = kind == CLI_DDI ? cli_ddi_pair(o, o->args[0], &cp)
			    : cli_pair_from_args(o, kind, &cp);
	if (r)
		goto out;
	if (!cp.pi.fec) {
		r = no_parity(o, &cp);
		goto out;
	}
	/* the root hash is trusted only once its signature checks out,
	 * before anything is read, let alone written: the trust policy
	 * refused an unchecked signer already (cli_pair_from_args) */
	if (cli_run_options(o, &opts, &pr)) {
		r = EXIT_PARAMS;
		goto out;
	}
	opts.repair = o->repair;
	ro.fec_name = cp.fec_name;
	opts.block = on_event;
	opts.block_ctx = &ro;
	if (o->json) {
		ro.repaired = json_object_new_array();
		ro.unrepaired = json_object_new_array();
	}
	r = fv_repair(cp.img, cp.at, &opts, &out);
	cli_progress_end(&pr);
	if (r) {
		json_object_put(ro.repaired);
		json_object_put(ro.unrepaired);
		r = cli_write_error(r);
		goto out;
	}
	cli_signature_said(o, &cp, out);
	cli_report(out, &rep);
	cli_counts_of(out, &counts);
	/* a dry run leaves the image as it was */
	r = cli_verdict(&counts);
	if (o->json)
		print_json(&ro, &cp, out, &rep.layout, &rep.fec, r);
	else
		print_text(&ro, out, &rep.layout, &rep.fec);
out:
	fv_result_free(out);
	cli_pair_free(&cp);
	return r;
}
