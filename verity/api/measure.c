/* The public API of measuring (include/fastverity.h): fv_bench_run, the
 * door to verity/bench/, and the SHA-256 kernel a choice runs. */
#include "verity/api/internal.h"
#include "verity/bench/request.h"

API int fv_bench_run(const struct fv_bench_request *req, const fv_options *o,
		     fv_item_fn fn, void *ctx)
{
	struct fv_bench_request q;
	struct verity_bench_text text;
	struct show sh = {fn, ctx, 0, 0};
	fv_options opts;
	struct ht_error err;
	int r;

	TAKE(q, req, output);
	NEED(fn);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	if (q.noptions && !q.options)
		return verity_api_fail(EINVAL, "%s: options is NULL", __func__);
	for (size_t i = 0; i < q.noptions; i++)
		NEED(q.options[2 * i]);
	if (q.noptions &&
	    verity_api_keep(
		    r = verity_bench_options(&q, &text, &opts.threads, &err),
		    &err))
		return r;
	sh.json = q.output == FV_BENCH_JSON;
	if ((r = verity_bench_request(&q, opts.threads,
				      (enum sha256_choice)opts.sha256, &sh,
				      &err)) &&
	    r != sh.r)
		r = verity_api_keep(r, &err);
	return r;
}

API int fv_runtime_info(enum fv_sha256_kernel k, struct fv_runtime_info *out)
{
	/* why OpenSSL cannot be opened, kept for the caller (the thread's
	 * last message is for failed calls) */
	static _Thread_local char why[4096];
	struct fv_runtime_info full;
	struct ht_error err = {0};

	NEED(out);
	if ((unsigned)k > FV_SHA256_AVX512)
		return verity_api_fail(EINVAL, "no SHA-256 kernel %d", (int)k);
	memset(&full, 0, sizeof(full));
	full.sha256_kernel = ht_sha256_kernel_name(
		ht_sha256_kernel_choose((enum sha256_choice)k));
	if (!(full.openssl = ht_openssl_version(&err))) {
		snprintf(why, sizeof(why), "%s", ht_msg(&err));
		full.openssl_error = why;
	}
	GIVE(out, full, sha256_kernel);
	return 0;
}
