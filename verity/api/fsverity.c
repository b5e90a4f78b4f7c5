/* The public API of fs-verity digests (include/fastverity.h, "fs-verity"):
 * handles around verity/fsverity/digest.h. */
#include "verity/api/internal.h"
#include "verity/fsverity/request.h"
#include "verity/fsverity/kernel.h"
#include "verity/fsverity/show.h"

API int fv_fsverity_compute(const struct fv_fsverity_request *req,
			    const fv_options *o, fv_fsverity_digest **out)
{
	struct fv_fsverity_request q = {0};
	struct verity_run run;
	struct ht_error err;
	fv_options opts;
	int r;

	NEED(out);
	*out = NULL;
	NEED(req);
	if (req->size <
	    offsetof(struct fv_fsverity_request, params) + sizeof(req->params))
		return verity_api_fail(EINVAL, "%s: size %zu is too small",
				       __func__, req->size);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	memcpy(&q, req, req->size < sizeof(q) ? req->size : sizeof(q));
	verity_ops_run_of(&opts, &run);
	return verity_api_keep(verity_fsv_request(&q, &run.ht, out, &err),
			       &err);
}

API int fv_fsverity_compute_files(const struct fv_fsverity_params *p,
				  const char *const *paths, size_t n,
				  const fv_options *o, unsigned flags,
				  fv_fsverity_digest **out, size_t *failed)
{
	struct verity_run run;
	struct ht_error err;
	fv_options opts;
	int r;

	NEED(out);
	NEED(failed);
	*failed = n;
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	verity_ops_run_of(&opts, &run);
	return verity_api_keep(verity_fsv_request_files(p, paths, n, &run.ht,
							flags, out, failed,
							&err),
			       &err);
}

API void fv_fsverity_digest_free(fv_fsverity_digest *d)
{
	verity_fsv_shown_free(d);
}

API int fv_fsverity_digest_info(const fv_fsverity_digest *d,
				struct fv_fsverity_info *info)
{
	struct fv_fsverity_info full;

	NEED(d);
	NEED(info);
	verity_fsv_shown_info(d, &full);
	GIVE(info, full, hash);
	return 0;
}

_Static_assert(FV_MAX_DIGEST_SIZE == HT_MAX_DIGEST_SIZE,
	       "the digest sizes differ");

API int fv_fsverity_read_metadata(const char *path,
				  enum fv_fsverity_metadata type,
				  uint64_t offset, uint64_t length,
				  fv_write_fn out, void *ctx)
{
	struct ht_error err;

	NEED(path);
	NEED(out);
	return verity_api_keep(verity_fsv_read_metadata(path, (unsigned)type,
							offset, length, out,
							ctx, &err),
			       &err);
}

int verity_api_fsverity_show(const struct fv_show_request *q, fv_item_fn fn,
			     void *ctx)
{
	struct show sh = {fn, ctx, 0, 0};
	struct verity_signer vs, *signer = NULL;
	struct fv_sign_request sq;
	struct verity_run run;
	struct ht_error err = {0};
	fv_options opts;
	int r;

	if ((r = verity_api_options_in("fv_show", q->o, &opts)))
		return r;
	if (q->sign) {
		TAKE(sq, q->sign, flags);
		if ((r = verity_sign_signer_of(&sq, signer = &vs, &err)))
			return verity_api_keep(r, &err);
	}
	verity_ops_run_of(&opts, &run);
	r = verity_fsv_show(q, &run.ht, signer, &sh, &err);
	return r < 0 && r != sh.r ? verity_api_keep(r, &err) : r;
}
