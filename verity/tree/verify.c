/* verify without parity: the pair opened read-only, the root checked
 * first, then every block top-down. */
#include "verity/tree/verify.h"

#include <errno.h>
#include <string.h>

#include "verity/tree/io.h"

struct report_bridge {
	const struct verity_layout *l;
	verity_report_fn report;
	void *ctx;
};

void verity_failure_from_ht(const struct verity_layout *l,
			    const struct ht_failure *f,
			    struct verity_failure *vf)
{
	const struct ht_geometry *g = &l->geo;

	memset(vf, 0, sizeof(*vf));
	vf->kind = f->kind;
	vf->level = f->level;
	if (f->kind == HT_BAD_DATA_BLOCK || f->kind == HT_UNREADABLE_DATA) {
		vf->block = f->block;
		vf->position = f->block * g->data_block_size;
	} else {
		vf->block = l->tree_offset / g->hash_block_size + f->block;
		vf->position = vf->block * g->hash_block_size + f->offset;
	}
}

/* Turns tree-relative failures into device offsets; suspects (blocks
 * under a bad hash block) are not failures of their own. */
static void bridge_report(void *c, const struct ht_failure *f)
{
	const struct report_bridge *b = c;
	struct verity_failure vf;

	if (f->suspect)
		return;
	verity_failure_from_ht(b->l, f, &vf);
	if (b->report)
		b->report(b->ctx, &vf);
}

int verity_tree_verify(struct verity_pair *pair, const struct verity_run *run,
		       struct verity_outcome *out, struct ht_error *err)
{
	struct verity_devices d;
	struct verity_layout *l = &pair->layout;
	struct report_bridge bridge = {l, run->report, run->ctx};
	struct ht_options opt = run->ht;
	struct verity_io_ctx ctx;
	struct ht_hasher h;
	struct ht_io io;
	enum ht_top top;
	int r;

	memset(out, 0, sizeof(*out));
	opt.report = bridge_report;
	opt.report_ctx = &bridge;
	r = verity_pair_open(pair, VERITY_OPEN_READ, VERITY_OPEN_READ, &d, err);
	if (r)
		return r;
	out->layout = *l;
	r = ht_hasher_init(&h, pair->params.hash_name, pair->params.hash_type,
			   pair->params.salt, pair->params.salt_size, err);
	if (r) {
		verity_pair_close(&d);
		return r;
	}
	ht_hasher_use_kernel(&h, run->sha256);
	verity_fill_info(&out->info, &h);
	ctx = (struct verity_io_ctx){&d.data, &d.hash, l->tree_offset, NULL};
	verity_io_init(&io, &ctx);
	/* the root first: a wrong root hash or parameter is one line, not
	 * a failure for every block */
	if (run->flags & VERITY_RUN_ROOT_FIRST)
		r = ht_check_top(&l->geo, &h, &io, pair->root, &top, err);
	if (!r && (run->flags & VERITY_RUN_ROOT_FIRST) &&
	    top == HT_TOP_MISMATCH)
		out->res.root_first = 1;
	else if (!r) {
		/* a damaged top block is blamed, and the root proven by the
		 * top its children rebuild */
		ht_pass(&opt, "verify data");
		r = ht_verify(&l->geo, &h, &io, &opt, pair->root, &out->res,
			      err);
	}
	ht_hasher_free(&h);
	if (!r)
		r = verity_data_unchanged(&d.data, l, err);
	verity_pair_close(&d);
	return r;
}
