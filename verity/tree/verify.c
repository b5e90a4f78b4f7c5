#include <errno.h>
#include <string.h>

#include "verity/storage/device.h"
#include "verity/tree/layout_internal.h"
#include "verity/verity.h"

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

int verity_verify(struct verity_params *p, const char *data_path,
		  const char *hash_path, const struct ht_options *opt,
		  const uint8_t *root, size_t root_size,
		  verity_report_fn report, void *report_ctx,
		  struct ht_verify_result *res, struct verity_info *info,
		  struct fv_error *err)
{
	struct verity_device data, hash;
	struct verity_layout l;
	struct verity_io_ctx ctx;
	struct report_bridge bridge = {&l, report, report_ctx};
	struct ht_hasher h;
	struct ht_io io;
	int r;

	r = verity_open_pair(p, data_path, hash_path, root_size,
			     VERITY_OPEN_READ, &data, &hash, &l, err);
	if (r)
		return r;
	r = ht_hasher_init(&h, p->hash_name, p->hash_type, p->salt,
			   p->salt_size, err);
	if (!r) {
		verity_fill_info(info, &h);
		ctx.data = &data;
		ctx.hash = &hash;
		ctx.tree_offset = l.tree_offset;
		ctx.fused = NULL;
		verity_io_init(&io, &ctx);
		enum ht_top top;

		/* the root first: a wrong root hash or parameter is one line,
		 * not a failure for every block */
		r = ht_check_top(&l.geo, &h, &io, root, &top, err);
		if (!r && top == HT_TOP_MISMATCH) {
			memset(res, 0, sizeof(*res));
			res->root_first = 1;
		} else if (!r) {
			/* a damaged top block is blamed, and the root proven
			 * by the top its children rebuild */
			r = ht_verify(&l.geo, &h, &io, opt, root, bridge_report,
				      &bridge, res, err);
		}
		ht_hasher_free(&h);
		if (!r)
			r = verity_data_unchanged(&data, &l, err);
	}
	verity_device_close(&hash);
	verity_device_close(&data);
	return r;
}
