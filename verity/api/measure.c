/* The public API of measuring (include/fastverity.h): the SHA-256
 * kernels one by one, the Reed-Solomon encoders, trees in memory. */
#include "verity/api/internal.h"

/* --- measuring ------------------------------------------------------------ */

_Static_assert((int)FV_KERNEL_PORTABLE == (int)SHA256_KERNEL_PORTABLE &&
		       (int)FV_KERNEL_SHANI == (int)SHA256_KERNEL_SHANI &&
		       (int)FV_KERNEL_ARMV8 == (int)SHA256_KERNEL_ARMV8 &&
		       (int)FV_KERNEL_SHANI3 == (int)SHA256_KERNEL_SHANI3 &&
		       (int)FV_KERNEL_AVX512 == (int)SHA256_KERNEL_AVX512 &&
		       (int)FV_KERNEL_AVX512 + 1 == (int)SHA256_KERNEL_COUNT,
	       "fv_kernel and sha256_kernel differ");

int verity_api_kernel_known(enum fv_kernel k)
{
	return (unsigned)k < SHA256_KERNEL_COUNT;
}

API int fv_kernel_available(enum fv_kernel k)
{
	return verity_api_kernel_known(k) &&
	       ht_sha256_kernel_available((enum sha256_kernel)k);
}

API const char *fv_kernel_name(enum fv_kernel k)
{
	return verity_api_kernel_known(k)
		       ? ht_sha256_kernel_name((enum sha256_kernel)k)
		       : NULL;
}

API const char *fv_kernel_label(enum fv_kernel k)
{
	return verity_api_kernel_known(k)
		       ? ht_sha256_kernel_label((enum sha256_kernel)k)
		       : NULL;
}

API enum fv_kernel fv_kernel_of_arch(void)
{
	return (enum fv_kernel)ht_sha256_arch_kernel();
}

API enum fv_kernel fv_kernel_chosen(enum fv_sha256_kernel choice)
{
	if ((unsigned)choice > FV_SHA256_AVX512)
		choice = FV_SHA256_FASTEST;
	return (enum fv_kernel)ht_sha256_kernel_choose(
		(enum sha256_choice)choice);
}

API const char *fv_cpu_features(void)
{
	return ht_sha256_cpu_features();
}

API int fv_salted_new(const uint8_t *salt, size_t len, fv_salted **out)
{
	fv_salted *s;

	NEED(out);
	*out = NULL;
	if (len > VERITY_MAX_SALT_SIZE || (len && !salt))
		return verity_api_fail(EINVAL,
				       "a salt of %zu bytes (at most %d)", len,
				       VERITY_MAX_SALT_SIZE);
	if (!(s = calloc(1, sizeof(*s))))
		return verity_api_fail(ENOMEM, "out of memory");
	ht_sha256_salted_init(&s->st, salt, len);
	*out = s;
	return 0;
}

API void fv_salted_free(fv_salted *s)
{
	free(s);
}

int verity_api_kernel_usable(enum fv_kernel k)
{
	if (!fv_kernel_available(k))
		return verity_api_fail(
			EINVAL, "this CPU has no SHA-256 kernel %d", (int)k);
	return 0;
}

API int fv_kernel_hash(enum fv_kernel k, const fv_salted *s,
		       const uint8_t *msgs, size_t len, size_t count,
		       uint8_t *out, size_t stride)
{
	int r;

	NEED(s);
	NEED(out);
	if ((r = verity_api_kernel_usable(k)))
		return r;
	if ((count && !msgs) || stride < 32)
		return verity_api_fail(
			EINVAL, "fv_kernel_hash: no messages, or a stride "
				"under 32");
	sha256_finup_many((enum sha256_kernel)k, &s->st, msgs, len, count, out,
			  stride);
	return 0;
}

API int fv_kernel_hash_one(enum fv_kernel k, const fv_salted *s,
			   const uint8_t *msg, size_t len, uint8_t out[32])
{
	int r;

	NEED(s);
	NEED(out);
	if ((r = verity_api_kernel_usable(k)))
		return r;
	if (len && !msg)
		return verity_api_fail(EINVAL,
				       "fv_kernel_hash_one: msg is NULL");
	sha256_finup_one((enum sha256_kernel)k, &s->st, msg, len, out);
	return 0;
}

API int fv_evp_hash(int fresh, const uint8_t *salt, size_t salt_len,
		    const uint8_t *msgs, size_t len, size_t count, uint8_t *out,
		    size_t stride)
{
	struct ht_error err;

	NEED(out);
	if ((salt_len && !salt) || salt_len > FV_MAX_SALT_SIZE ||
	    (count && !msgs) || stride < 32)
		return verity_api_fail(
			EINVAL,
			"fv_evp_hash: no messages or salt, a salt over "
			"%d bytes, or a stride under 32",
			FV_MAX_SALT_SIZE);
	return verity_api_keep(ht_evp_sha256_blocks(fresh, salt, salt_len, msgs,
						    len, count, out, stride,
						    &err),
			       &err);
}

API int fv_rs_new(unsigned roots, fv_rs **out)
{
	struct ht_error err;
	fv_rs *rs;

	NEED(out);
	*out = NULL;
	if (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS)
		return verity_api_fail(EINVAL, "%u roots (%d to %d)", roots,
				       FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (!(rs = calloc(1, sizeof(*rs))))
		return verity_api_fail(ENOMEM, "out of memory");
	if (verity_fec_rs_init(&rs->rs, roots, &err)) {
		free(rs);
		return verity_api_keep(-ENOMEM, &err);
	}
	*out = rs;
	return 0;
}

API void fv_rs_free(fv_rs *rs)
{
	if (!rs)
		return;
	verity_fec_rs_free(&rs->rs);
	free(rs);
}

API unsigned fv_rs_message_size(const fv_rs *rs)
{
	return rs ? rs->rs.rsn : 0;
}

API int fv_rs_encode(const fv_rs *rs, size_t len, uint8_t *const *src,
		     uint8_t *const *par)
{
	NEED(rs);
	NEED(src);
	NEED(par);
	verity_fec_rs_encode(&rs->rs, len, src, par);
	return 0;
}

API int fv_rs_encode_one(const fv_rs *rs, const uint8_t *msg, uint8_t *parity)
{
	NEED(rs);
	NEED(msg);
	NEED(parity);
	verity_fec_rs_encode_scalar(&rs->rs, msg, parity);
	return 0;
}

API int fv_memtree_new(const fv_params *p, const uint8_t *data,
		       const char *path, const fv_options *o, fv_memtree **out)
{
	struct ht_error err;
	fv_memtree *m;
	int r;

	NEED(out);
	*out = NULL;
	NEED(p);
	if (!data && !path)
		return verity_api_fail(EINVAL,
				       "fv_memtree_new: no data and no path");
	if ((r = verity_params_validate(&p->p, &err)))
		return verity_api_keep(r, &err);
	if (!(m = calloc(1, sizeof(*m))))
		return verity_api_fail(ENOMEM, "out of memory");
	if (!data) {
		if ((r = verity_device_open(&m->dev, path, VERITY_OPEN_READ,
					    &err))) {
			free(m);
			return verity_api_keep(r, &err);
		}
		m->has_dev = 1;
		if (p->p.data_blocks > m->dev.size / p->p.data_block_size) {
			fv_memtree_free(m);
			return verity_api_fail(
				EINVAL,
				"%s: %llu bytes, fewer than %llu blocks "
				"of %u bytes",
				path, (unsigned long long)m->dev.size,
				(unsigned long long)p->p.data_blocks,
				p->p.data_block_size);
		}
	}
	if ((r = verity_memtree_init(&m->mt, &p->p, data,
				     m->has_dev ? &m->dev : NULL, &err))) {
		if (m->has_dev)
			verity_device_close(&m->dev);
		free(m);
		return verity_api_keep(r, &err);
	}
	ht_hasher_use_kernel(&m->mt.h, (enum sha256_choice)(o ? o->sha256 : 0));
	verity_fill_info(&m->mt.info, &m->mt.h);
	*out = m;
	return 0;
}

API void fv_memtree_free(fv_memtree *m)
{
	if (!m)
		return;
	verity_memtree_free(&m->mt);
	if (m->has_dev)
		verity_device_close(&m->dev);
	free(m);
}

API int fv_memtree_build(fv_memtree *m, unsigned threads, uint8_t *root,
			 size_t size)
{
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	struct ht_error err;
	int r;

	NEED(m);
	NEED(root);
	if (threads > VERITY_MAX_THREADS)
		return verity_api_fail(EINVAL, "%u threads (at most %d)",
				       threads, VERITY_MAX_THREADS);
	if ((r = verity_memtree_build(
		     &m->mt, threads ? threads : verity_default_threads(),
		     digest, &err)))
		return verity_api_keep(r, &err);
	memcpy(root, digest,
	       size < m->mt.h.digest_size ? size : m->mt.h.digest_size);
	return 0;
}

API unsigned fv_memtree_levels(const fv_memtree *m)
{
	return m ? m->mt.g.levels : 0;
}

API uint64_t fv_memtree_tree_bytes(const fv_memtree *m)
{
	return m ? m->mt.tree_bytes : 0;
}

API uint64_t fv_memtree_data_bytes(const fv_memtree *m)
{
	return m ? m->mt.data_bytes : 0;
}

API const char *fv_memtree_hashing_path(const fv_memtree *m)
{
	return m ? verity_api_or_empty(m->mt.info.hash_path) : NULL;
}

API const char *fv_memtree_hashing_reason(const fv_memtree *m)
{
	return m ? verity_api_or_empty(m->mt.info.path_reason) : NULL;
}

API const char *fv_sha256_kernel_name(enum fv_sha256_kernel k)
{
	if ((unsigned)k > FV_SHA256_AVX512) {
		verity_api_fail(EINVAL, "no SHA-256 kernel %d", (int)k);
		return NULL;
	}
	return ht_sha256_kernel_name(
		ht_sha256_kernel_choose((enum sha256_choice)k));
}
