/* The public API of measuring (include/fastverity.h): fv_bench_run, the
 * door to verity/bench/, and the SHA-256 kernel a choice runs. */
#include "verity/api/internal.h"
#include "verity/bench/request.h"

/* The parameters of one setting, checked as fv_params checks them:
 * 0, or -errno with the message (err's, and the thread's) naming the
 * setting. */
static int bench_params(const char *hash, unsigned format, uint32_t dbs,
			uint32_t hbs, uint32_t salt_size,
			struct verity_params *out, struct ht_error *err)
{
	struct fv_params p = {.size = sizeof(p)};
	char why[512];
	int r;

	if ((r = fv_params_init(&p))) {
		*err = verity_api_last;
		return r;
	}
	if (strlen(hash) > FV_MAX_HASH_NAME)
		r = verity_api_fail(EINVAL, "hash algorithm %s not supported",
				    hash);
	if (!r && salt_size > FV_MAX_SALT_SIZE)
		r = verity_api_fail(EINVAL,
				    "salt of %u bytes is too long (at most %d)",
				    salt_size, FV_MAX_SALT_SIZE);
	if (!r) {
		snprintf(p.hash, sizeof(p.hash), "%s", hash);
		p.hash_type = format;
		p.data_block_size = dbs;
		p.hash_block_size = hbs;
		memset(p.salt, 0x5a, salt_size);
		p.salt_len = salt_size;
		if (!(r = fv_params_check(&p)))
			r = verity_api_params_in(&p, out);
	}
	if (r) {
		snprintf(why, sizeof(why), "%s", fv_last_error());
		r = verity_api_fail(-r,
				    "%.31s, %u-byte salt, %u/%u-byte blocks, "
				    "format %u: %s",
				    hash, salt_size, dbs, hbs, format, why);
		/* the message is this thread's: err carries it on */
		*err = verity_api_last;
	}
	return r;
}

API int fv_bench_run(const struct fv_bench_request *req, const fv_options *o,
		     fv_item_fn fn, void *ctx)
{
	struct fv_bench_request q = {0};
	struct show sh = {fn, ctx, 0, 0};
	fv_options opts;
	struct ht_error err;
	int r;

	NEED(req);
	NEED(fn);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	/* (the first version's size: later ones only add at the end) */
	if (req->size < sizeof(q))
		return verity_api_fail(EINVAL, "%s: size %zu is too small",
				       __func__, req->size);
	memcpy(&q, req, sizeof(q));
	sh.json = q.output == FV_BENCH_JSON;
	if (!(r = verity_bench_request(&q, opts.threads,
				       (enum sha256_choice)opts.sha256,
				       bench_params, &sh, &err)) ||
	    r == sh.r)
		return r;
	return verity_api_keep(r, &err);
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
