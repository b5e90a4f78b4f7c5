/* The public API (include/fastverity.h): the thread's last error,
 * parameters, options, signing, device-mapper; the other files of
 * verity/api/ the rest. Nothing here does work of its own: each call
 * checks its arguments and hands over. */
#include "verity/api/internal.h"
#include "verity/dm/shown.h"
#include "verity/files/signed.h"
#include "verity/ops/parse.h"

API const char *fastverity_version(void)
{
	return FASTVERITY_VERSION;
}

API int fv_digest(const char *alg, size_t n, const void *const *parts,
		  const size_t *sizes, uint8_t *out, size_t *len)
{
	struct ht_error err;

	NEED(alg);
	NEED(out);
	NEED(len);
	if (n && (!parts || !sizes))
		return verity_api_fail(EINVAL, "fv_digest: no parts");
	for (size_t i = 0; i < n; i++)
		if (sizes[i] && !parts[i])
			return verity_api_fail(
				EINVAL, "fv_digest: part %zu is NULL", i);
	return verity_api_keep(
		ht_digest_parts(alg, n, parts, sizes, out, len, &err), &err);
}

/* --- errors ---------------------------------------------------------- */

/* This thread's last error, its fix included. */
_Thread_local struct ht_error verity_api_last;

API const char *fv_last_error(void)
{
	return ht_msg(&verity_api_last);
}

API int fv_last_error_say(struct fv_error_say *s)
{
	struct ht_param_names names = {NULL, NULL};
	unsigned param = verity_api_last.param < HT_PARAM_COUNT
				 ? (unsigned)verity_api_last.param
				 : FV_PARAM_NONE;
	int len;

	NEED(s);
	if (s->size < offsetof(struct fv_error_say, len) + sizeof(s->len))
		return verity_api_fail(EINVAL,
				       "fv_last_error_say: size %zu is too "
				       "small",
				       s->size);
	if (!s->text != !s->text_size)
		return verity_api_fail(EINVAL, "fv_last_error_say: text and "
					       "text_size go together");
	if (s->words && param < s->nwords) {
		names.with_value = s->words[param].with_value;
		names.alone = s->words[param].alone;
	}
	len = ht_say(&verity_api_last, &names, s->text, s->text_size);
	s->param = (enum fv_param)param;
	s->len = len < 0 ? 0 : (size_t)len;
	return len;
}

/* Keeps err's message as this thread's last error; returns r. */
int verity_api_keep(int r, const struct ht_error *err)
{
	if (r)
		ht_keep(&verity_api_last, err);
	return r;
}

__attribute__((format(printf, 2, 3))) int verity_api_fail(int errnum,
							  const char *fmt, ...)
{
	struct ht_error e = {0};
	va_list ap;

	va_start(ap, fmt);
	ht_failv(&e, errnum, fmt, ap);
	va_end(ap);
	ht_keep(&verity_api_last, &e);
	return -errnum;
}

API void fv_free(void *p)
{
	free(p);
}

/* --- parameters -------------------------------------------------------- */

API int fv_params_init(fv_params *p)
{
	struct ht_error err;
	fv_params full;

	NEED(p);
	if (p->size < offsetof(fv_params, superblock) + sizeof(p->superblock))
		return verity_api_fail(EINVAL,
				       "%s: size %zu is too small (set it to "
				       "sizeof(struct fv_params))",
				       __func__, p->size);
	if (verity_api_keep(verity_show_params_init(&full, &err), &err))
		return -EIO;
	GIVE(p, full, superblock);
	return 0;
}

/* The caller's parameters as the library keeps them, each field checked
 * on its own (-EINVAL naming it); the whole set is checked by
 * verity_params_validate. */
int verity_api_params_in(const fv_params *in, struct verity_params *out)
{
	struct ht_error err;

	NEED(in);
	return verity_api_keep(verity_show_params_in(in, out, &err), &err);
}

API int fv_params_layout(const fv_params *p, uint64_t *tree_offset,
			 uint64_t *tree_blocks, uint64_t *hash_bytes)
{
	struct verity_params q;
	struct ht_error err;
	int r;

	NEED(p);
	if ((r = verity_api_params_in(p, &q)))
		return r;
	return verity_api_keep(verity_show_params_layout(&q, tree_offset,
							 tree_blocks,
							 hash_bytes, &err),
			       &err);
}

API int fv_params_parse(fv_params *p, const char *const *opts, size_t n)
{
	struct ht_error err;
	fv_params q;
	int r;

	NEED(p);
	if (p->size < sizeof(q))
		return verity_api_fail(EINVAL,
				       "%s: size %zu is too small (set it to "
				       "sizeof(struct fv_params))",
				       __func__, p->size);
	if (n && !opts)
		return verity_api_fail(EINVAL, "fv_params_parse: opts is NULL");
	for (size_t i = 0; i < n; i++)
		NEED(opts[2 * i]);
	/* p as it was when a value is refused */
	memcpy(&q, p, sizeof(q));
	if (!(r = verity_api_keep(verity_ops_params_parse(&q, opts, n, &err),
				  &err)))
		memcpy(p, &q, sizeof(q));
	return r;
}

API int fv_option_number(const char *name, const char *value, uint64_t *out)
{
	struct ht_error err;
	uint64_t v;
	int r;

	NEED(name);
	NEED(value);
	NEED(out);
	/* *out as it was when the value is refused */
	if ((r = verity_api_keep(verity_ops_number(name, value, &v, &err),
				 &err)))
		return r;
	*out = v;
	return 0;
}

API int fv_ranges_parse(const char *text, uint64_t **ranges, size_t *n)
{
	struct ht_error err;

	NEED(text);
	NEED(ranges);
	NEED(n);
	return verity_api_keep(verity_ops_ranges(text, ranges, n, &err), &err);
}

int verity_api_options_in(const char *who, const fv_options *in,
			  fv_options *full)
{
	struct ht_error err;

	return verity_api_keep(verity_ops_options_in(who, in, full, &err),
			       &err);
}

fv_result *verity_api_result_new(void)
{
	struct ht_error err;
	fv_result *r = verity_show_result_new(&err);

	verity_api_keep(!r, &err);
	return r;
}

API void fv_result_free(fv_result *r)
{
	free(r);
}

/* --- signatures --------------------------------------------------------- */

API int fv_sign(const struct fv_sign_request *req, const char *root_hex,
		uint8_t **der, size_t *len)
{
	struct fv_sign_request q;
	struct verity_signer vs;
	struct ht_error err;
	unsigned ddi;
	int r;

	TAKE(q, req, flags);
	NEED(root_hex);
	NEED(der);
	NEED(len);
	/* systemd's partition holds the certificate */
	if ((ddi = q.flags & FV_SIGN_DDI_JSON))
		q.flags = (q.flags & ~(unsigned)FV_SIGN_DDI_JSON) |
			  FV_SIGN_EMBED_CERT;
	if (!(r = verity_sign_signer_of(&q, &vs, &err)))
		r = ddi ? verity_ddi_sig_json_sign(&vs, root_hex, der, len,
						   &err)
			: verity_sign(&vs, root_hex, der, len, &err);
	return verity_api_keep(r, &err);
}

/* FV_SHOW_SIGN: fv_sign's signature of q->args handed on as sign does
 * (verity/files/signed.c). */
int verity_api_sign_show(const struct fv_show_request *q, struct show *sh)
{
	struct ht_error err;
	uint8_t *der;
	size_t len;
	int r;

	NEED(q->sign);
	NEED(q->image);
	if ((r = fv_sign(q->sign, q->args, &der, &len)))
		return r;
	r = verity_files_signed(q, der, len, sh, &err);
	free(der);
	return r && r != sh->r ? verity_api_keep(r, &err) : r;
}

/* --- device-mapper ------------------------------------------------------ */

API int fv_close(const char *name, enum fv_close_how how)
{
	struct ht_error err;

	NEED(name);
	return verity_api_keep(verity_dm_close(name, how, &err), &err);
}

API int fv_status_get(const char *name, fv_status **st,
		      struct fv_status_info *info)
{
	struct fv_status_info full;
	struct ht_error err;
	int r;

	NEED(name);
	NEED(st);
	*st = NULL;
	if (info && info->size < offsetof(struct fv_status_info, is_verity) +
					 sizeof(info->is_verity))
		return verity_api_fail(EINVAL,
				       "fv_status_get: size %zu is "
				       "too small",
				       info->size);
	if ((r = verity_dm_status_get(name, st, &err)))
		return verity_api_keep(r, &err);
	if (!info)
		return 0;
	verity_dm_shown_status(&(*st)->a, &(*st)->params, (*st)->root_hex,
			       &full);
	GIVE(info, full, is_verity);
	return 0;
}

API void fv_status_free(fv_status *st)
{
	free(st);
}

/* --- names -------------------------------------------------------------- */

API const char *fv_name_shown(const void *name, size_t n, char *buf, size_t len)
{
	return ht_name_shown(name, n, buf, len);
}
