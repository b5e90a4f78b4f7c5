/* The public API (include/fastverity.h): opaque handles over the library's
 * internal structures, and the thread's last error; the pairs, images,
 * Android images and measuring are api_pair.c, api_image.c, api_avb.c and
 * api_measure.c (their structures in api.h). Nothing here does work of
 * its own: each call checks its arguments and hands over. */
#include "verity/api/internal.h"
#include "verity/dm/shown.h"

/* The public enums are the internal ones, value for value. */
_Static_assert((unsigned)FV_IGNORE_CORRUPTION ==
			       (unsigned)VERITY_ACT_IGNORE_CORRUPTION &&
		       (unsigned)FV_RESTART_ON_CORRUPTION ==
			       (unsigned)VERITY_ACT_RESTART_ON_CORRUPTION &&
		       (unsigned)FV_PANIC_ON_CORRUPTION ==
			       (unsigned)VERITY_ACT_PANIC_ON_CORRUPTION &&
		       (unsigned)FV_RESTART_ON_ERROR ==
			       (unsigned)VERITY_ACT_RESTART_ON_ERROR &&
		       (unsigned)FV_PANIC_ON_ERROR ==
			       (unsigned)VERITY_ACT_PANIC_ON_ERROR &&
		       (unsigned)FV_IGNORE_ZERO_BLOCKS ==
			       (unsigned)VERITY_ACT_IGNORE_ZERO_BLOCKS &&
		       (unsigned)FV_CHECK_AT_MOST_ONCE ==
			       (unsigned)VERITY_ACT_CHECK_AT_MOST_ONCE &&
		       (unsigned)FV_USE_TASKLETS ==
			       (unsigned)VERITY_ACT_TASKLETS,
	       "fv_flags and verity_act_flags differ");
_Static_assert((unsigned)FV_REPAIR_DRY_RUN == (unsigned)VERITY_RUN_DRY_RUN &&
		       (unsigned)FV_REPAIR_REWRITE_PARITY ==
			       (unsigned)VERITY_RUN_REWRITE_PARITY,
	       "fv_repair_flags and verity_run_flags differ");
_Static_assert((int)FV_BAD_DATA_BLOCK == (int)HT_BAD_DATA_BLOCK &&
		       (int)FV_BAD_HASH_BLOCK == (int)HT_BAD_HASH_BLOCK &&
		       (int)FV_BAD_PADDING == (int)HT_BAD_PADDING &&
		       (int)FV_UNREADABLE_DATA_BLOCK ==
			       (int)HT_UNREADABLE_DATA &&
		       (int)FV_UNREADABLE_HASH_BLOCK == (int)HT_UNREADABLE_HASH,
	       "fv_failure_kind and ht_failure_kind differ");

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

_Static_assert((int)FV_PARAM_DATA_BLOCKS == (int)HT_PARAM_DATA_BLOCKS &&
		       (int)FV_PARAM_HASH_OFFSET == (int)HT_PARAM_HASH_OFFSET &&
		       (int)FV_PARAM_FEC_ROOTS == (int)HT_PARAM_FEC_ROOTS &&
		       (int)FV_PARAM_FEC_OFFSET == (int)HT_PARAM_FEC_OFFSET &&
		       (int)FV_PARAM_PASSPHRASE == (int)HT_PARAM_PASSPHRASE &&
		       (int)FV_PARAM_DRY_RUN == (int)HT_PARAM_DRY_RUN &&
		       (int)FV_PARAM_CONTAINER == (int)HT_PARAM_CONTAINER &&
		       (int)FV_PARAM_TRUSTED_CERT ==
			       (int)HT_PARAM_TRUSTED_CERT &&
		       (int)FV_PARAM_TRUSTED_KEY == (int)HT_PARAM_TRUSTED_KEY &&
		       (int)FV_PARAM_ROOT_HASH == (int)HT_PARAM_ROOT_HASH &&
		       (int)FV_PARAM_PARTITION == (int)HT_PARAM_PARTITION &&
		       (int)FV_PARAM_PARTITION + 1 == (int)HT_PARAM_COUNT,
	       "fv_param and ht_param differ");

_Static_assert((int)FV_SHA256_FASTEST == (int)SHA256_CHOOSE_FASTEST &&
		       (int)FV_SHA256_PORTABLE == (int)SHA256_CHOOSE_PORTABLE &&
		       (int)FV_SHA256_TWO_WAY == (int)SHA256_CHOOSE_TWO_WAY &&
		       (int)FV_SHA256_THREE_WAY ==
			       (int)SHA256_CHOOSE_THREE_WAY &&
		       (int)FV_SHA256_AVX512 == (int)SHA256_CHOOSE_AVX512,
	       "fv_sha256_kernel and sha256_choice differ");
_Static_assert((int)FV_ROOTS_GIVEN == (int)VERITY_ROOTS_GIVEN &&
		       (int)FV_ROOTS_INFERRED == (int)VERITY_ROOTS_INFERRED &&
		       (int)FV_ROOTS_DEFAULT == (int)VERITY_ROOTS_DEFAULT &&
		       (int)FV_ROOTS_DESCRIBED == (int)VERITY_ROOTS_DESCRIBED,
	       "fv_roots_from and verity_roots_source differ");

_Static_assert(FV_MAX_SALT_SIZE == VERITY_MAX_SALT_SIZE &&
		       FV_MAX_DIGEST_SIZE == HT_MAX_DIGEST_SIZE &&
		       FV_MAX_HASH_NAME == VERITY_MAX_HASH_NAME &&
		       FV_MAX_THREADS == VERITY_MAX_THREADS &&
		       FV_FEC_MIN_ROOTS == FEC_MIN_ROOTS &&
		       FV_FEC_MAX_ROOTS == FEC_MAX_ROOTS &&
		       FV_MAX_TRUSTED_CERTS == VERITY_MAX_TRUSTED_FILES,
	       "the public limits and the library's differ");

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

void *verity_api_out_of_memory(void)
{
	verity_api_fail(ENOMEM, "out of memory");
	return NULL;
}

API void fv_free(void *p)
{
	free(p);
}

/* --- parameters -------------------------------------------------------- */

/* The parameters q into the caller's p, as much as p->size holds. */
static int params_give(const struct verity_params *q, fv_params *p)
{
	fv_params full;

	verity_show_params(q, &full);
	GIVE(p, full, superblock);
	return 0;
}

API int fv_params_init(fv_params *p)
{
	struct verity_params q;
	uint8_t rnd[16];
	struct ht_error err;

	NEED(p);
	if (p->size < offsetof(fv_params, superblock) + sizeof(p->superblock))
		return verity_api_fail(EINVAL,
				       "%s: size %zu is too small (set it to "
				       "sizeof(struct fv_params))",
				       __func__, p->size);
	verity_params_default(&q);
	q.salt_size = 32;
	if (verity_api_keep(verity_random(q.salt, q.salt_size, &err), &err) ||
	    verity_api_keep(verity_random(rnd, sizeof(rnd), &err), &err))
		return -EIO;
	verity_uuid_random(q.uuid, rnd);
	return params_give(&q, p);
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
	struct verity_layout l;
	struct ht_error err;
	int r;

	NEED(p);
	if ((r = verity_api_params_in(p, &q)))
		return r;
	if (!q.data_blocks)
		return verity_api_fail(EINVAL,
				       "fv_params_layout: the data blocks are "
				       "not set");
	r = verity_layout_compute(&q, &l, &err);
	if (r)
		return verity_api_keep(r, &err);
	if (tree_offset)
		*tree_offset = l.tree_offset;
	if (tree_blocks)
		*tree_blocks = l.geo.tree_blocks;
	if (hash_bytes)
		*hash_bytes = l.hash_end;
	return 0;
}

/* --- options ------------------------------------------------------------ */

int verity_api_options_in(const char *who, const fv_options *in,
			  fv_options *full)
{
	struct ht_error err;

	memset(full, 0, sizeof(*full));
	if (in) {
		/* (0.10's first version ends with repair) */
		if (in->size <
		    offsetof(fv_options, repair) + sizeof(in->repair))
			return verity_api_fail(EINVAL,
					       "%s: options of size %zu: too "
					       "small",
					       who, in->size);
		memcpy(full, in,
		       in->size < sizeof(*full) ? in->size : sizeof(*full));
	}
	full->size = sizeof(*full);
	full->map = !!full->map;
	if (full->threads > VERITY_MAX_THREADS)
		return verity_api_fail(EINVAL, "%u threads (at most %d)",
				       full->threads, VERITY_MAX_THREADS);
	if (full->flags & ~(((1u << VERITY_NFLAGS) - 1) | VERITY_ACT_SHARED))
		return verity_api_fail(EINVAL, "unknown flags 0x%x",
				       full->flags);
	if (verity_api_keep(verity_flags_check(full->flags, &err), &err))
		return -EINVAL;
	if (full->ntrusted_certs && !full->trusted_certs)
		return verity_api_fail(EINVAL, "%s: trusted_certs is NULL",
				       who);
	if (full->ntrusted_certs > VERITY_MAX_TRUSTED_FILES)
		return verity_api_fail(
			EINVAL, "%zu certificate files (at most %d)",
			full->ntrusted_certs, VERITY_MAX_TRUSTED_FILES);
	for (size_t i = 0; i < full->ntrusted_certs; i++)
		if (!full->trusted_certs[i])
			return verity_api_fail(
				EINVAL, "certificate file %zu is NULL", i);
	if ((unsigned)full->sha256 > FV_SHA256_AVX512)
		return verity_api_fail(EINVAL, "no SHA-256 kernel %d",
				       (int)full->sha256);
	if (full->repair &
	    ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		return verity_api_fail(EINVAL, "unknown repair flags %#x",
				       full->repair);
	return 0;
}

/* --- format, verify, repair ----------------------------------------------- */

void verity_api_run_of(const fv_options *o, struct verity_run *run)
{
	memset(run, 0, sizeof(*run));
	run->ht.threads = o->threads ? o->threads : verity_default_threads();
	run->ht.no_map = !o->map;
	run->ht.progress = o->progress;
	run->ht.progress_ctx = o->progress_ctx;
	run->ht.pass = o->pass;
	run->trusted = o->trusted_certs;
	run->ntrusted = o->ntrusted_certs;
	run->activation = o->flags;
	run->sha256 = (enum sha256_choice)o->sha256;
}

fv_result *verity_api_result_new(void)
{
	fv_result *r = calloc(1, sizeof(*r));

	return r ? r : verity_api_out_of_memory();
}

void verity_api_result_root(fv_result *r, const uint8_t *root, size_t size)
{
	memcpy(r->root, root, size);
	r->root_size = size;
	verity_hex_encode(root, size, r->root_hex);
}

void verity_api_result_info(fv_result *r, const struct verity_info *info)
{
	snprintf(r->path, sizeof(r->path), "%s",
		 info->hash_path ? info->hash_path : "");
	r->info = *info;
}

/* What every action's result holds of its outcome. */
void verity_api_result_outcome(fv_result *r, const struct verity_outcome *out)
{
	verity_api_result_info(r, &out->info);
	r->layout = out->layout;
	r->has_layout = 1;
	r->trust = out->trust;
	if (out->signature_checked)
		r->sig = out->sig;
}

void verity_api_result_checked(fv_result *made,
			       const struct verity_outcome *out,
			       const uint8_t *root, size_t root_size)
{
	made->res = out->res;
	made->fec = out->fec;
	made->has_fec = out->has_fec;
	verity_api_result_outcome(made, out);
	verity_api_result_root(made, root, root_size);
	made->checked = 1;
}

API void fv_result_free(fv_result *r)
{
	free(r);
}

/* --- signatures ----------------------------------------------------------- */

int verity_api_signer_of(const struct fv_sign_request *q,
			 struct verity_signer *vs)
{
	if (!q->key || !q->cert)
		return verity_api_fail(EINVAL, "a signing request without a "
					       "key or a certificate");
	if (q->flags & ~(unsigned)FV_SIGN_EMBED_CERT)
		return verity_api_fail(EINVAL, "unknown signing flags %#x",
				       q->flags);
	*vs = (struct verity_signer){q->key, q->cert, q->passphrase,
				     q->pkcs11_module,
				     !!(q->flags & FV_SIGN_EMBED_CERT)};
	return 0;
}

/* systemd's signature partition JSON of root_hex signed by der with
 * cert (fv_sign's FV_SIGN_DDI_JSON). */
static int ddi_signature_json(const char *root_hex, const char *cert,
			      const uint8_t *der, size_t len, char **json)
{
	struct ht_error err;
	char fp[65];
	int r;

	*json = NULL;
	if ((r = verity_cert_fingerprint(cert, fp, &err)) ||
	    (r = verity_ddi_sig_json_make(root_hex, fp, der, len, json, &err)))
		return verity_api_keep(r, &err);
	return 0;
}

API int fv_sign(const struct fv_sign_request *req, const char *root_hex,
		uint8_t **der, size_t *len)
{
	struct fv_sign_request q;
	struct verity_signer vs;
	struct ht_error err;
	char *json = NULL;
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
	if ((r = verity_api_signer_of(&q, &vs)))
		return r;
	if ((r = verity_api_keep(verity_sign(&vs, root_hex, der, len, &err),
				 &err)) ||
	    !ddi)
		return r;
	r = ddi_signature_json(root_hex, q.cert, *der, *len, &json);
	free(*der);
	*der = NULL;
	*len = 0;
	if (r)
		return r;
	*der = (uint8_t *)json;
	*len = strlen(json);
	return 0;
}

/* --- device-mapper ----------------------------------------------------------
 */

API int fv_close(const char *name, enum fv_close_how how)
{
	struct ht_error err;
	enum verity_close_how way =
		how == FV_CLOSE_DEFERRED          ? VERITY_CLOSE_DEFERRED
		: how == FV_CLOSE_CANCEL_DEFERRED ? VERITY_CLOSE_CANCEL_DEFERRED
						  : VERITY_CLOSE_NOW;

	NEED(name);
	if (how != FV_CLOSE_NOW && how != FV_CLOSE_DEFERRED &&
	    how != FV_CLOSE_CANCEL_DEFERRED)
		return verity_api_fail(EINVAL, "fv_close: unknown way %d",
				       (int)how);
	return verity_api_keep(verity_close(name, way, &err), &err);
}

/* What st read into info (as much as its size says). */
static int status_info(const fv_status *st, struct fv_status_info *info)
{
	struct fv_status_info full;

	verity_dm_shown_status(&st->a, &st->params, st->root_hex, &full);
	GIVE(info, full, is_verity);
	return 0;
}

API int fv_status_get(const char *name, fv_status **st,
		      struct fv_status_info *info)
{
	struct ht_error err;
	fv_status *s;
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
	s = calloc(1, sizeof(*s));
	if (!s)
		return verity_api_fail(ENOMEM, "out of memory");
	r = verity_status(name, &s->a, &err);
	if (r) {
		free(s);
		return verity_api_keep(r, &err);
	}
	verity_show_params(&s->a.p, &s->params);
	verity_hex_encode(s->a.root, s->a.root_size, s->root_hex);
	*st = s;
	return info ? status_info(s, info) : 0;
}

API void fv_status_free(fv_status *st)
{
	free(st);
}

/* --- containers and trust ------------------------------------------------ */

_Static_assert((int)FV_TRUST_CHECK == (int)VERITY_TRUST_CHECK &&
		       (int)FV_TRUST_UNCHECKED == (int)VERITY_TRUST_UNCHECKED,
	       "the public trust enums are the policy's");

API const char *fv_name_shown(const void *name, size_t n, char *buf, size_t len)
{
	return ht_name_shown(name, n, buf, len);
}
