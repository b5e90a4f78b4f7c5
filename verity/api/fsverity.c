/* The public API of fs-verity digests (include/fastverity.h, "fs-verity"):
 * handles around verity/fsverity/digest.h. */
#include "verity/api/internal.h"

#include "verity/fsverity/digest.h"
#include "verity/fsverity/kernel.h"
#include "verity/tree/params.h"

struct fv_fsverity_params {
	struct fsv_params p;
};

struct fv_fsverity_digest {
	struct fsv_digest d;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
};

API fv_fsverity_params *fv_fsverity_params_new(void)
{
	fv_fsverity_params *p = calloc(1, sizeof(*p));

	if (p) {
		p->p.alg = FSV_SHA256;
		p->p.block_size = 4096;
	}
	return p;
}

API void fv_fsverity_params_free(fv_fsverity_params *p)
{
	free(p);
}

API int fv_fsverity_params_set_hash(fv_fsverity_params *p, const char *name)
{
	enum fsv_alg a;

	NEED(p);
	NEED(name);
	a = verity_fsv_alg_of(name);
	if (!a)
		return verity_api_fail(EINVAL,
				       "hash algorithm '%s': fs-verity has "
				       "sha256 and sha512",
				       name);
	p->p.alg = a;
	return 0;
}

API int fv_fsverity_params_set_block_size(fv_fsverity_params *p, uint32_t size)
{
	struct fsv_params t;
	struct ht_error err;
	int r;

	NEED(p);
	t = p->p;
	t.block_size = size;
	if ((r = verity_fsv_params_check(&t, &err)))
		return verity_api_keep(r, &err);
	p->p.block_size = size;
	return 0;
}

API int fv_fsverity_params_set_salt(fv_fsverity_params *p, const uint8_t *salt,
				    size_t len)
{
	NEED(p);
	if (len && !salt)
		return verity_api_fail(EINVAL, "%s: salt is NULL", __func__);
	if (len > FSV_MAX_SALT)
		return verity_api_fail(EINVAL,
				       "a salt of %zu bytes: fs-verity takes at "
				       "most %d",
				       len, FSV_MAX_SALT);
	memset(p->p.salt, 0, sizeof(p->p.salt));
	if (len)
		memcpy(p->p.salt, salt, len);
	p->p.salt_size = len;
	return 0;
}

static void options_of(const fv_options *o, struct ht_options *ho)
{
	memset(ho, 0, sizeof(*ho));
	ho->threads = o && o->threads ? o->threads : verity_default_threads();
	ho->no_map = !o || !o->map;
	if (o) {
		ho->progress = o->progress;
		ho->progress_ctx = o->progress_ctx;
		ho->pass = o->pass;
	}
}

static fv_fsverity_digest *wrap(const struct fsv_digest *d)
{
	fv_fsverity_digest *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->d = *d;
	verity_hex_encode(d->digest, d->digest_size, w->hex);
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

API int fv_fsverity_compute(const fv_fsverity_params *p, const char *path,
			    const fv_options *o, fv_fsverity_digest **out)
{
	struct fsv_source src = {.path = path};
	struct ht_options ho;
	struct ht_error err;
	struct fsv_digest d;
	int r;

	NEED(out);
	*out = NULL;
	NEED(p);
	NEED(path);
	options_of(o, &ho);
	r = verity_fsv_compute(&p->p, &src, &ho, NULL, &d, &err);
	if (r)
		return verity_api_keep(r, &err);
	return give(&d, out);
}

API int fv_fsverity_compute_tree(const fv_fsverity_params *p, const char *path,
				 const fv_options *o, const char *tree_path,
				 fv_fsverity_digest **out)
{
	struct fsv_source src = {.path = path};
	struct ht_options ho;
	struct ht_error err;
	struct fsv_digest d;
	int r;

	NEED(out);
	*out = NULL;
	NEED(p);
	NEED(path);
	NEED(tree_path);
	options_of(o, &ho);
	r = verity_fsv_compute(&p->p, &src, &ho, tree_path, &d, &err);
	if (r)
		return verity_api_keep(r, &err);
	return give(&d, out);
}

API int fv_fsverity_compute_read(const fv_fsverity_params *p, fv_read_fn read,
				 void *ctx, uint64_t size, const char *name,
				 fv_fsverity_digest **out)
{
	struct fsv_source src = {
		.read = read, .read_ctx = ctx, .size = size, .name = name};
	struct ht_options ho = {.threads = 1};
	struct ht_error err;
	struct fsv_digest d;
	int r;

	NEED(out);
	*out = NULL;
	NEED(p);
	NEED(read);
	r = verity_fsv_compute(&p->p, &src, &ho, NULL, &d, &err);
	if (r)
		return verity_api_keep(r, &err);
	return give(&d, out);
}

API int fv_fsverity_compute_files(const fv_fsverity_params *p,
				  const char *const *paths, size_t n,
				  const fv_options *o, unsigned flags,
				  fv_fsverity_digest **out, size_t *failed)
{
	struct fsv_digest *all;
	struct ht_options ho;
	struct ht_error err;
	size_t bad = n;
	int r;

	NEED(p);
	NEED(out);
	NEED(failed);
	*failed = n;
	if (n && !paths)
		return verity_api_fail(EINVAL, "%s: paths is NULL", __func__);
	if (flags & ~(unsigned)FV_FSVERITY_KEEP_TREE)
		return verity_api_fail(EINVAL, "unknown fs-verity flags %#x",
				       flags);
	memset(out, 0, n * sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (!paths[i])
			return verity_api_fail(EINVAL, "%s: paths[%zu] is NULL",
					       __func__, i);
	all = calloc(n ? n : 1, sizeof(*all));
	if (!all)
		return verity_api_fail(ENOMEM, "out of memory");
	options_of(o, &ho);
	r = verity_fsv_compute_files(&p->p, paths, n, &ho,
			      !!(flags & FV_FSVERITY_KEEP_TREE), all, &bad,
			      &err);
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

API void fv_fsverity_digest_free(fv_fsverity_digest *d)
{
	if (!d)
		return;
	verity_fsv_digest_free(&d->d);
	free(d);
}

API const char *fv_fsverity_digest_hash(const fv_fsverity_digest *d)
{
	return d ? verity_fsv_alg_name(d->d.alg) : NULL;
}

API size_t fv_fsverity_digest_bytes(const fv_fsverity_digest *d,
				    const uint8_t **digest)
{
	if (!d)
		return 0;
	if (digest)
		*digest = d->d.digest;
	return d->d.digest_size;
}

API const char *fv_fsverity_digest_hex(const fv_fsverity_digest *d)
{
	return d ? d->hex : NULL;
}

API size_t fv_fsverity_root(const fv_fsverity_digest *d, const uint8_t **root)
{
	if (!d)
		return 0;
	if (root)
		*root = d->d.root;
	return d->d.digest_size;
}

API const uint8_t *fv_fsverity_descriptor(const fv_fsverity_digest *d)
{
	return d ? d->d.descriptor : NULL;
}

API uint64_t fv_fsverity_tree(const fv_fsverity_digest *d, const uint8_t **tree)
{
	if (tree)
		*tree = d ? d->d.tree : NULL;
	return d && d->d.tree ? d->d.tree_bytes : 0;
}

API uint64_t fv_fsverity_file_size(const fv_fsverity_digest *d)
{
	return d ? d->d.size : 0;
}

API size_t fv_fsverity_signed_digest(const fv_fsverity_digest *d, uint8_t *buf,
				     size_t size)
{
	uint8_t f[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE];
	size_t n;

	if (!d || !buf)
		return 0;
	n = verity_fsv_signed_digest(&d->d, f);
	if (size < n)
		return 0;
	memcpy(buf, f, n);
	return n;
}

API int fv_fsverity_sign(const fv_fsverity_digest *d, const fv_signer *s,
			 uint8_t **der, size_t *len)
{
	uint8_t f[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE];
	struct verity_signer vs;
	struct ht_error err;
	size_t n;

	NEED(d);
	NEED(s);
	NEED(der);
	NEED(len);
	n = verity_fsv_signed_digest(&d->d, f);
	vs = (struct verity_signer){s->key, s->cert, s->passphrase, s->module,
				    !!(s->flags & FV_SIGN_EMBED_CERT)};
	return verity_api_keep(
		verity_sign_bytes(&vs, f, n,
				  d->d.alg == FSV_SHA512 ? "SHA512" : "SHA256",
				  der, len, &err),
		&err);
}

API int fv_fsverity_enable(const char *path, const fv_fsverity_params *p,
			   const uint8_t *sig, size_t len)
{
	struct ht_error err;

	NEED(path);
	NEED(p);
	if (len && !sig)
		return verity_api_fail(EINVAL, "%s: sig is NULL", __func__);
	return verity_api_keep(verity_fsv_enable(path, &p->p, sig, len, &err), &err);
}

API int fv_fsverity_measure(const char *path, unsigned *hash, uint8_t *digest,
			    size_t *len)
{
	struct ht_error err;

	NEED(path);
	NEED(hash);
	NEED(digest);
	NEED(len);
	return verity_api_keep(verity_fsv_measure(path, hash, digest, len, &err),
			       &err);
}

API const char *fv_fsverity_hash_name(unsigned hash)
{
	return verity_fsv_alg_name((enum fsv_alg)hash);
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
