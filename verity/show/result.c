/* A pair's layout (where its tree and parity sit) and what its parity
 * did in a verify or repair, member by member as the public report has
 * them; each filled whole, its size set. */
#include "verity/show/result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout as struct fv_layout has it. */
void verity_show_layout(const struct verity_layout *in, struct fv_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->data_blocks = in->geo.data_blocks;
	l->data_bytes = in->data_bytes;
	l->hash_area_start = in->hash_area_start;
	l->tree_offset = in->tree_offset;
	l->tree_blocks = in->geo.tree_blocks;
	l->hash_end = in->hash_end;
	l->levels = in->geo.levels;
	l->digest_size = (unsigned)in->geo.digest_size;
	l->fec_roots = in->fec.roots;
	l->fec_roots_from = (enum fv_roots_from)in->fec.roots_source;
	l->fec_rsn = in->fec.rsn;
	l->fec_on_hash_device = in->fec.on_hash_device;
	l->fec_offset = in->fec.offset;
	l->fec_blocks = in->fec.blocks;
	l->fec_rounds = in->fec.rounds;
	l->fec_parity_bytes = in->fec.parity_bytes;
}

/* What parity did as struct fv_fec_report has it. */
void verity_show_fec(const struct verity_fec_result *in,
		     struct fv_fec_report *f)
{
	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	f->bad_blocks = in->bad_blocks;
	f->repaired = in->repaired;
	f->passes = in->passes;
	f->stale_codewords = in->stale_codewords;
	f->stale_rounds = in->stale_rounds;
	f->unchecked_rounds = in->unchecked_rounds;
	f->parity_rewritten = in->parity_rewritten;
	f->rewrite_limit = in->rewrite_limit;
	f->before_root_matches = in->before.root_matches;
	f->before_bad_data_blocks = in->before.bad_data_blocks;
	f->before_bad_hash_blocks = in->before.bad_hash_blocks;
	f->before_bad_padding = in->before.bad_padding;
	f->before_unreadable = in->before.unreadable_blocks;
	f->before_unchecked_data_blocks = in->before.unchecked_data_blocks;
	f->before_unchecked_hash_blocks = in->before.unchecked_hash_blocks;
}

void verity_show_report(const struct fv_result *r, struct fv_report *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->root, r->root, r->root_size);
	out->root_size = r->root_size;
	out->root_hex = r->root_hex;
	out->intact = r->checked && r->res.root_matches &&
		      !r->res.bad_data_blocks && !r->res.bad_hash_blocks &&
		      !r->res.bad_padding && !r->res.unreadable_blocks;
	out->root_matches = r->res.root_matches;
	out->root_first = r->res.root_first;
	out->bad_data_blocks = r->res.bad_data_blocks;
	out->bad_hash_blocks = r->res.bad_hash_blocks;
	out->bad_padding = r->res.bad_padding;
	out->unreadable = r->res.unreadable_blocks;
	out->unchecked_data_blocks = r->res.unchecked_data_blocks;
	out->unchecked_hash_blocks = r->res.unchecked_hash_blocks;
	if (r->has_fec) {
		out->repaired = r->fec.repaired;
		out->unrepaired = r->fec.bad_blocks - r->fec.repaired;
		out->stale_codewords = r->fec.stale_codewords;
	}
	out->hashing_path = r->path;
	out->hashing_reason = r->info.path_reason ? r->info.path_reason : "";
	out->hashing_kernel = r->info.kernel ? r->info.kernel : "";
	out->hashing_provider = r->info.provider;
	out->trust = (enum fv_trust)r->trust;
	out->signer = r->sig.signer;
	out->signature_warning = r->sig.warning;
	out->signer_fingerprint = r->sig.fingerprint;
	if (r->has_layout) {
		out->has |= FV_REPORT_LAYOUT;
		verity_show_layout(&r->layout, &out->layout);
	}
	if (r->has_fec) {
		out->has |= FV_REPORT_FEC;
		verity_show_fec(&r->fec, &out->fec);
	}
	if (r->has_update) {
		out->has |= FV_REPORT_UPDATE;
		out->update.size = sizeof(out->update);
		out->update.changed_blocks = r->update.changed_blocks;
		out->update.tree_blocks = r->update.tree_blocks;
		out->update.parity_rounds = r->update.parity_rounds;
		out->update.resumed = r->update.resumed;
	}
	if (r->has_params) {
		out->has |= FV_REPORT_PARAMS;
		out->params = r->params;
	}
}

fv_result *verity_show_result_new(struct ht_error *err)
{
	fv_result *r = calloc(1, sizeof(*r));

	if (!r)
		ht_fail(err, ENOMEM, "out of memory");
	return r;
}

void verity_show_result_root(fv_result *r, const uint8_t *root, size_t size)
{
	memcpy(r->root, root, size);
	r->root_size = size;
	verity_hex_encode(root, size, r->root_hex);
}

void verity_show_result_info(fv_result *r, const struct verity_info *info)
{
	snprintf(r->path, sizeof(r->path), "%s",
		 info->hash_path ? info->hash_path : "");
	r->info = *info;
}

/* What every action's result holds of its outcome. */
void verity_show_result_outcome(fv_result *r, const struct verity_outcome *out)
{
	verity_show_result_info(r, &out->info);
	r->layout = out->layout;
	r->has_layout = 1;
	r->trust = out->trust;
	if (out->signature_checked)
		r->sig = out->sig;
}

void verity_show_result_checked(fv_result *made,
				const struct verity_outcome *out,
				const uint8_t *root, size_t root_size)
{
	made->res = out->res;
	made->fec = out->fec;
	made->has_fec = out->has_fec;
	verity_show_result_outcome(made, out);
	verity_show_result_root(made, root, root_size);
	made->checked = 1;
}
