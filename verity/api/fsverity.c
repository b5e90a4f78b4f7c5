/* The public API of fs-verity digests (include/fastverity.h, "fs-verity"):
 * handles around verity/fsverity/digest.h. */
#include "verity/api/internal.h"

#include "verity/fsverity/digest.h"
#include "verity/fsverity/kernel.h"
#include "verity/tree/params.h"

struct fv_fsverity_digest {
	struct fsv_digest d;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	/* what a built-in signature signs */
	uint8_t sig[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE];
	size_t sig_len;
};

/* The caller's parameters as the library's (NULL: the defaults), read
 * as far as in->size says. */
static int params_of(const struct fv_fsverity_params *in, struct fsv_params *p)
{
	struct fv_fsverity_params f = {0};
	struct ht_error err;

	memset(p, 0, sizeof(*p));
	p->alg = FSV_SHA256;
	p->block_size = 4096;
	if (!in)
		return 0;
	if (in->size <
	    offsetof(struct fv_fsverity_params, hash) + sizeof(in->hash))
		return verity_api_fail(EINVAL,
				       "fs-verity parameters: size %zu is too "
				       "small",
				       in->size);
	memcpy(&f, in, in->size < sizeof(f) ? in->size : sizeof(f));
	/* (a hash not known said first, then the salt: its bytes not
	 * read) */
	if (f.hash && !verity_fsv_alg_of(f.hash))
		f.salt_len = 0;
	else if (f.salt_len && !f.salt)
		return verity_api_fail(EINVAL,
				       "fs-verity parameters: salt is NULL");
	return verity_api_keep(verity_fsv_params_make(f.hash, f.block_size,
						      f.salt, f.salt_len, p,
						      &err),
			       &err);
}

/* ho from checked options (verity_api_options_in). */
static void options_of(const fv_options *o, struct ht_options *ho)
{
	memset(ho, 0, sizeof(*ho));
	ho->threads = o->threads ? o->threads : verity_default_threads();
	ho->no_map = !o->map;
	ho->progress = o->progress;
	ho->progress_ctx = o->progress_ctx;
	ho->pass = o->pass;
}

static fv_fsverity_digest *wrap(const struct fsv_digest *d)
{
	fv_fsverity_digest *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->d = *d;
	verity_hex_encode(d->digest, d->digest_size, w->hex);
	w->sig_len = verity_fsv_signed_digest(d, w->sig);
	return w;
}

static int give(struct fsv_digest *d, fv_fsverity_digest **out)
{
	*out = wrap(d);
	if (!*out) {
		verity_fsv_digest_free(d);
		return verity_api_fail(ENOMEM, "out of memory");
	}
	return 0;
}

static int compute_files(const struct fsv_params *p, const char *const *paths,
			 size_t n, const fv_options *o, unsigned flags,
			 fv_fsverity_digest **out, size_t *failed)
{
	struct fsv_digest *all;
	struct ht_options ho;
	struct ht_error err;
	size_t bad = n;
	int r;

	all = calloc(n ? n : 1, sizeof(*all));
	if (!all)
		return verity_api_fail(ENOMEM, "out of memory");
	options_of(o, &ho);
	r = verity_fsv_compute_files(p, paths, n, &ho,
				     !!(flags & FV_FSVERITY_KEEP_TREE), all,
				     &bad, &err);
	for (size_t i = 0; i < bad && i < n; i++) {
		out[i] = wrap(&all[i]);
		if (!out[i]) {
			for (size_t j = i; j < bad; j++)
				verity_fsv_digest_free(&all[j]);
			for (size_t j = 0; j < i; j++) {
				fv_fsverity_digest_free(out[j]);
				out[j] = NULL;
			}
			free(all);
			return verity_api_fail(ENOMEM, "out of memory");
		}
	}
	free(all);
	*failed = bad;
	return r ? verity_api_keep(r, &err) : 0;
}

API int fv_fsverity_compute(const struct fv_fsverity_request *req,
			    const fv_options *o, fv_fsverity_digest **out)
{
	struct fv_fsverity_request q = {0};
	struct fsv_source src = {0};
	struct ht_options ho = {.threads = 1};
	struct ht_error err;
	struct fsv_params p;
	struct fsv_digest d;
	fv_options opts;
	size_t failed;
	int r, keep;

	NEED(out);
	*out = NULL;
	NEED(req);
	if (req->size < offsetof(struct fv_fsverity_request, params) +
				sizeof(req->params))
		return verity_api_fail(EINVAL, "%s: size %zu is too small",
				       __func__, req->size);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	o = &opts;
	memcpy(&q, req, req->size < sizeof(q) ? req->size : sizeof(q));
	if ((r = params_of(q.params, &p)))
		return r;
	if (!q.path == !q.read)
		return verity_api_fail(EINVAL,
				       "%s: give one of path and read",
				       __func__);
	if (q.flags & ~(unsigned)FV_FSVERITY_KEEP_TREE)
		return verity_api_fail(EINVAL, "unknown fs-verity flags %#x",
				       q.flags);
	keep = !!(q.flags & FV_FSVERITY_KEEP_TREE);
	/* a file at path, its tree neither kept nor written: memory
	 * bounded, as for many files */
	if (q.path && !keep && !q.tree_path)
		return compute_files(&p, &q.path, 1, o, 0, out, &failed);
	if (q.path) {
		src.path = q.path;
		options_of(o, &ho);
	} else {
		/* called in order from the calling thread */
		src.read = q.read;
		src.read_ctx = q.read_ctx;
		src.size = q.read_size;
		src.name = q.name;
	}
	r = verity_fsv_compute(&p, &src, &ho, q.tree_path, keep, &d, &err);
	if (r)
		return verity_api_keep(r, &err);
	return give(&d, out);
}

API int fv_fsverity_compute_files(const struct fv_fsverity_params *p,
				  const char *const *paths, size_t n,
				  const fv_options *o, unsigned flags,
				  fv_fsverity_digest **out, size_t *failed)
{
	struct fsv_params fp;
	fv_options opts;
	int r;

	NEED(out);
	NEED(failed);
	*failed = n;
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	if (n && !paths)
		return verity_api_fail(EINVAL, "%s: paths is NULL", __func__);
	if (n > SIZE_MAX / sizeof(*out))
		return verity_api_fail(EINVAL, "%s: %zu files", __func__, n);
	if (flags & ~(unsigned)FV_FSVERITY_KEEP_TREE)
		return verity_api_fail(EINVAL, "unknown fs-verity flags %#x",
				       flags);
	memset(out, 0, n * sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (!paths[i])
			return verity_api_fail(EINVAL, "%s: paths[%zu] is NULL",
					       __func__, i);
	if ((r = params_of(p, &fp)) || !n)
		return r;
	return compute_files(&fp, paths, n, &opts, flags, out, failed);
}

API void fv_fsverity_digest_free(fv_fsverity_digest *d)
{
	if (!d)
		return;
	verity_fsv_digest_free(&d->d);
	free(d);
}

API int fv_fsverity_digest_info(const fv_fsverity_digest *d,
				struct fv_fsverity_info *info)
{
	struct fv_fsverity_info full = {0};

	NEED(d);
	NEED(info);
	full.hash = verity_fsv_alg_name(d->d.alg);
	full.digest = d->d.digest;
	full.digest_len = d->d.digest_size;
	full.digest_hex = d->hex;
	full.root = d->d.root;
	full.descriptor = d->d.descriptor;
	full.tree = d->d.tree;
	full.tree_len = d->d.tree ? d->d.tree_bytes : 0;
	full.file_size = d->d.size;
	full.signed_digest = d->sig;
	full.signed_digest_len = d->sig_len;
	GIVE(info, full, hash);
	return 0;
}

API int fv_fsverity_sign(const fv_fsverity_digest *d,
			 const struct fv_sign_request *req, uint8_t **der,
			 size_t *len)
{
	struct fv_sign_request q;
	struct verity_signer vs;
	struct ht_error err;
	int r;

	NEED(d);
	TAKE(q, req, flags);
	NEED(der);
	NEED(len);
	if ((r = verity_api_signer_of(&q, &vs)))
		return r;
	return verity_api_keep(
		verity_sign_bytes(&vs, d->sig, d->sig_len,
				  d->d.alg == FSV_SHA512 ? "SHA512" : "SHA256",
				  der, len, &err),
		&err);
}

API int fv_fsverity_enable(const char *path, const struct fv_fsverity_params *p,
			   const uint8_t *sig, size_t len)
{
	struct fsv_params fp;
	struct ht_error err;
	int r;

	NEED(path);
	if (len && !sig)
		return verity_api_fail(EINVAL, "%s: sig is NULL", __func__);
	if ((r = params_of(p, &fp)))
		return r;
	return verity_api_keep(verity_fsv_enable(path, &fp, sig, len, &err),
			       &err);
}

_Static_assert(FV_MAX_DIGEST_SIZE == HT_MAX_DIGEST_SIZE,
	       "the digest sizes differ");

API int fv_fsverity_measure(const char *path, struct fv_fsverity_measurement *m)
{
	struct fv_fsverity_measurement full = {0};
	struct ht_error err;
	int r;

	NEED(path);
	NEED(m);
	r = verity_fsv_measure(path, &full.hash, full.digest, &full.digest_len,
			       &err);
	if (r)
		return verity_api_keep(r, &err);
	full.hash_name = verity_fsv_alg_name((enum fsv_alg)full.hash);
	GIVE(m, full, hash);
	return 0;
}

API int fv_fsverity_read_metadata(const char *path,
				  enum fv_fsverity_metadata type,
				  uint64_t offset, uint64_t length,
				  fv_write_fn out, void *ctx)
{
	struct ht_error err;

	NEED(path);
	NEED(out);
	return verity_api_keep(verity_fsv_read_metadata(path, (unsigned)type, offset,
						 length, out, ctx, &err),
			       &err);
}
