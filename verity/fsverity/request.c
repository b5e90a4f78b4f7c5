/* fs-verity's requests read and computed, each digest kept with what is
 * shown of it. */
#include "verity/fsverity/request.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/tree/params.h"

void verity_fsv_shown_free(fv_fsverity_digest *d)
{
	if (!d)
		return;
	verity_fsv_digest_free(&d->d);
	free(d);
}

int verity_fsv_params_of(const struct fv_fsverity_params *in,
			 struct fsv_params *p, struct ht_error *err)
{
	struct fv_fsverity_params f = {0};

	memset(p, 0, sizeof(*p));
	p->alg = FSV_SHA256;
	p->block_size = 4096;
	if (!in)
		return 0;
	if (in->size <
	    offsetof(struct fv_fsverity_params, hash) + sizeof(in->hash))
		return ht_fail(err, EINVAL,
			       "fs-verity parameters: size %zu is too small",
			       in->size);
	memcpy(&f, in, in->size < sizeof(f) ? in->size : sizeof(f));
	/* (a hash not known said first, then the salt: its bytes not
	 * read) */
	if (f.hash && !verity_fsv_alg_of(f.hash))
		f.salt_len = 0;
	else if (f.salt_len && !f.salt)
		return ht_fail(err, EINVAL,
			       "fs-verity parameters: salt is NULL");
	return verity_fsv_params_make(f.hash, f.block_size, f.salt, f.salt_len,
				      p, err);
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

static int compute_files(const struct fsv_params *p, const char *const *paths,
			 size_t n, const struct ht_options *ho, int keep,
			 fv_fsverity_digest **out, size_t *failed,
			 struct ht_error *err)
{
	struct fsv_digest *all;
	size_t bad = n;
	int r;

	all = calloc(n ? n : 1, sizeof(*all));
	if (!all)
		return ht_fail(err, ENOMEM, "out of memory");
	r = verity_fsv_compute_files(p, paths, n, ho, keep, all, &bad, err);
	for (size_t i = 0; i < bad && i < n; i++) {
		out[i] = wrap(&all[i]);
		if (!out[i]) {
			for (size_t j = i; j < bad; j++)
				verity_fsv_digest_free(&all[j]);
			for (size_t j = 0; j < i; j++) {
				verity_fsv_shown_free(out[j]);
				out[j] = NULL;
			}
			free(all);
			return ht_fail(err, ENOMEM, "out of memory");
		}
	}
	free(all);
	*failed = bad;
	return r;
}

int verity_fsv_request(const struct fv_fsverity_request *q,
		       const struct ht_options *ho, fv_fsverity_digest **out,
		       struct ht_error *err)
{
	struct fsv_source src = {0};
	struct ht_options one = {.threads = 1};
	struct fsv_params p;
	struct fsv_digest d;
	size_t failed;
	int r, keep;

	if ((r = verity_fsv_params_of(q->params, &p, err)))
		return r;
	if (!q->path == !q->read)
		return ht_fail(err, EINVAL,
			       "fv_fsverity_compute: give one of path and "
			       "read");
	if (q->flags & ~(unsigned)FV_FSVERITY_KEEP_TREE)
		return ht_fail(err, EINVAL, "unknown fs-verity flags %#x",
			       q->flags);
	keep = !!(q->flags & FV_FSVERITY_KEEP_TREE);
	/* a file at path, its tree neither kept nor written: memory
	 * bounded, as for many files */
	if (q->path && !keep && !q->tree_path)
		return compute_files(&p, &q->path, 1, ho, 0, out, &failed, err);
	if (q->path) {
		src.path = q->path;
		one = *ho;
	} else {
		/* called in order from the calling thread */
		src.read = q->read;
		src.read_ctx = q->read_ctx;
		src.size = q->read_size;
		src.name = q->name;
	}
	if ((r = verity_fsv_compute(&p, &src, &one, q->tree_path, keep, &d,
				    err)))
		return r;
	if (!(*out = wrap(&d))) {
		verity_fsv_digest_free(&d);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	return 0;
}

int verity_fsv_request_files(const struct fv_fsverity_params *p,
			     const char *const *paths, size_t n,
			     const struct ht_options *ho, unsigned flags,
			     fv_fsverity_digest **out, size_t *failed,
			     struct ht_error *err)
{
	const char *who = "fv_fsverity_compute_files";
	struct fsv_params fp;
	int r;

	if (n && !paths)
		return ht_fail(err, EINVAL, "%s: paths is NULL", who);
	if (n > SIZE_MAX / sizeof(*out))
		return ht_fail(err, EINVAL, "%s: %zu files", who, n);
	if (flags & ~(unsigned)FV_FSVERITY_KEEP_TREE)
		return ht_fail(err, EINVAL, "unknown fs-verity flags %#x",
			       flags);
	memset(out, 0, n * sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (!paths[i])
			return ht_fail(err, EINVAL, "%s: paths[%zu] is NULL",
				       who, i);
	if ((r = verity_fsv_params_of(p, &fp, err)) || !n)
		return r;
	return compute_files(&fp, paths, n, ho,
			     !!(flags & FV_FSVERITY_KEEP_TREE), out, failed,
			     err);
}

void verity_fsv_shown_info(const fv_fsverity_digest *d,
			   struct fv_fsverity_info *full)
{
	memset(full, 0, sizeof(*full));
	full->hash = verity_fsv_alg_name(d->d.alg);
	full->digest = d->d.digest;
	full->digest_len = d->d.digest_size;
	full->digest_hex = d->hex;
	full->root = d->d.root;
	full->descriptor = d->d.descriptor;
	full->tree = d->d.tree;
	full->tree_len = d->d.tree ? d->d.tree_bytes : 0;
	full->file_size = d->d.size;
	full->signed_digest = d->sig;
	full->signed_digest_len = d->sig_len;
}
