/* The actions on a held pair for the public API (act.h). */
#include "verity/pairs/act.h"

#include <errno.h>
#include <string.h>

#include "verity/ops/ops.h"
#include "verity/ops/options.h"
#include "verity/show/result.h"

/* The callbacks of a pair action, passed on. */
static void failure(void *c, const struct verity_failure *f)
{
	const fv_options *o = c;

	if (o->failure)
		o->failure(o->failure_ctx, (enum fv_failure_kind)f->kind,
			   f->block, f->position, f->level);
}

static void block(void *c, enum verity_repair_event ev,
		  const struct verity_failure *f)
{
	const fv_options *o = c;

	if (o->block)
		o->block(o->block_ctx, ev == VERITY_REPAIRED,
			 (enum fv_failure_kind)f->kind, f->block, f->position,
			 f->level);
}

void verity_pairs_run(const fv_options *o, struct verity_run *run)
{
	verity_ops_run_of(o, run);
	run->report = failure;
	run->event = block;
	run->ctx = (void *)o;
}

int verity_pairs_request(struct verity_held *pr,
			 const struct fv_format_request *req,
			 const struct verity_params *q, int update,
			 struct ht_error *err)
{
	return verity_held_request(
		pr,
		&(struct verity_held_request){
			.params = q,
			.hash_offset = req->hash_offset,
			.update = update,
			.data_blocks = req->data_blocks,
			.sidecar = req->sidecar,
			.fec_path = req->fec_path,
			.fec_offset = req->fec_offset,
			.fec_roots = req->fec_roots,
			.root_hex = update ? req->root_hex : NULL,
			.root_hash_file = update ? req->root_hash_file : NULL,
			.root_needed = update},
		err);
}

/* A result made (out of memory: -ENOMEM) and handed on. */
static int made_new(fv_result **made, struct ht_error *err)
{
	return (*made = verity_show_result_new(err)) ? 0 : -ENOMEM;
}

int verity_pairs_format(struct verity_held *pr, const fv_options *o,
			fv_result **res, struct ht_error *err)
{
	struct verity_outcome out;
	struct verity_run run;
	int r;

	verity_pairs_run(o, &run);
	if ((r = verity_held_format(pr, &run, &out, err)) || !res ||
	    (r = made_new(res, err)))
		return r;
	verity_show_result_root(*res, out.root, out.layout.geo.digest_size);
	verity_show_result_outcome(*res, &out);
	return 0;
}

int verity_pairs_update(struct verity_held *pr, const uint64_t *ranges,
			size_t n, const fv_options *o, fv_result **res,
			struct ht_error *err)
{
	struct verity_update_result u;
	struct verity_layout layout;
	struct verity_run run;
	int r;

	verity_pairs_run(o, &run);
	if ((r = verity_held_update(pr, ranges, n, &run, &u, &layout, err)) ||
	    !res || (r = made_new(res, err)))
		return r;
	verity_show_result_root(*res, u.root, layout.geo.digest_size);
	(*res)->layout = layout;
	(*res)->has_layout = 1;
	(*res)->update = u;
	(*res)->has_update = 1;
	return 0;
}

int verity_pairs_check(const struct verity_held *pr, const fv_options *o,
		       int repair, fv_result **res, struct ht_error *err)
{
	struct verity_outcome out;
	struct verity_run run;
	int r;

	verity_pairs_run(o, &run);
	run.flags = repair ? o->repair : 0;
	if ((r = verity_held_check(pr, &run, repair, &out, err)) ||
	    (r = made_new(res, err)))
		return r;
	verity_show_result_checked(*res, &out, pr->pair.root,
				   pr->pair.root_size);
	return 0;
}

int verity_pairs_check_signature(const struct verity_held *pr,
				 const fv_options *o, fv_result **res,
				 struct ht_error *err)
{
	struct verity_pair pair;
	struct verity_outcome out;
	struct verity_run run;
	int r;

	verity_held_take(pr, &pair);
	verity_ops_run_of(o, &run);
	memset(&out, 0, sizeof(out));
	if ((r = verity_op_check_signature(&pair, &run, &out, err)) ||
	    (r = made_new(res, err)))
		return r;
	verity_show_result_outcome(*res, &out);
	return 0;
}

int verity_pairs_dump(const struct verity_held *pr, fv_result **res,
		      struct ht_error *err)
{
	struct verity_pair pair;
	struct verity_outcome out;
	int r;

	verity_held_take(pr, &pair);
	if ((r = verity_op_dump(&pair, 0, &out, err)) ||
	    (r = made_new(res, err)))
		return r;
	verity_show_result_outcome(*res, &out);
	if (pair.root_size)
		verity_show_result_root(*res, pair.root, pair.root_size);
	return 0;
}

int verity_pairs_activate(const char *name, const struct verity_held *pr,
			  const fv_options *o, struct ht_error *err)
{
	struct verity_pair pair;
	struct verity_run run;

	verity_held_take(pr, &pair);
	verity_ops_run_of(o, &run);
	return verity_op_open(name, &pair, &run, err);
}
