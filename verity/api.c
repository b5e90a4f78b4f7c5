/* The public API (include/fastverity.h): opaque handles over the library's
 * internal structures, and the thread's last error. Nothing here does
 * work of its own: each call checks its arguments and hands over. */
#include "include/fastverity.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "verity/container/avb/image.h"
#include "verity/container/avb/rsa.h"
#include "verity/container/ddi/ddi.h"
#include "verity/container/registry.h"
#include "verity/container/sidecar.h"
#include "verity/fec/rs.h"
#include "verity/ops.h"
#include "verity/sign/signature.h"
#include "verity/storage/backing.h"
#include "verity/storage/file.h"
#include "verity/storage/output.h"
#include "verity/tree/memtree.h"
#include "verity/tree/superblock.h"
#include "verity/trust.h"

#define API __attribute__((visibility("default")))

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

struct fv_params {
	struct verity_params p;
};

struct fv_options {
	unsigned threads;
	int map;
	fv_progress_fn progress;
	void *progress_ctx;
	char *fec_path;
	uint64_t fec_offset;
	unsigned fec_roots;
	unsigned flags;
	uint8_t *signature;
	size_t signature_len;
	char **trusted; /* certificate files for verify and repair */
	size_t ntrusted;
	char *key; /* an Android vbmeta's signer's public key (PEM) */
	fv_failure_fn failure_fn; /* fv_pair_verify, fv_pair_repair */
	void *failure_ctx;
	fv_block_fn block_fn;
	void *block_ctx;
	enum fv_sha256_kernel sha256;
	unsigned repair; /* enum fv_repair_flags, fv_pair_repair */
};

struct fv_result {
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t root_size;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	struct ht_verify_result res; /* verify; repair: the image as left */
	struct verity_fec_result fec;
	int checked;   /* verify or repair ran */
	int has_fec;   /* fec holds a repair's figures */
	char path[16]; /* "fast" or "generic" */
	/* since 0.6 */
	struct verity_layout layout;
	int has_layout;
	struct verity_info info;
	enum verity_trust trust;
	struct verity_sig_check sig; /* trust CHECK: who signed */
};

struct fv_status {
	struct verity_active a;
	fv_params params;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
};

API const char *fastverity_version(void)
{
	return FASTVERITY_VERSION;
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
		       (int)FV_PARAM_TRUSTED_KEY + 1 == (int)HT_PARAM_COUNT,
	       "fv_param and ht_param differ");

_Static_assert((int)FV_SHA256_FASTEST == (int)SHA256_CHOOSE_FASTEST &&
		       (int)FV_SHA256_PORTABLE == (int)SHA256_CHOOSE_PORTABLE &&
		       (int)FV_SHA256_TWO_WAY == (int)SHA256_CHOOSE_TWO_WAY &&
		       (int)FV_SHA256_THREE_WAY == (int)SHA256_CHOOSE_THREE_WAY,
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
		       FV_FEC_MAX_ROOTS == FEC_MAX_ROOTS,
	       "the public limits and the library's differ");

/* This thread's last error, its fix included. */
static _Thread_local struct ht_error last;

__attribute__((format(printf, 2, 3))) static int fail(int errnum,
						      const char *fmt, ...);

API const char *fv_last_error(void)
{
	return last.msg;
}

API enum fv_param fv_last_error_param(void)
{
	return last.param < HT_PARAM_COUNT ? (enum fv_param)last.param
					   : FV_PARAM_NONE;
}

API int fv_last_error_say(const struct fv_param_words *words, size_t n,
			  char *out, size_t len)
{
	struct ht_param_names names = {NULL, NULL};

	if (!out || !len)
		return fail(EINVAL, "fv_last_error_say: out is NULL or empty");
	if (words && (size_t)last.param < n && last.param < HT_PARAM_COUNT) {
		names.with_value = words[last.param].with_value;
		names.alone = words[last.param].alone;
	}
	return ht_say(&last, &names, out, len);
}

/* Keeps err's message as this thread's last error; returns r. */
static int keep(int r, const struct ht_error *err)
{
	if (r)
		last = *err;
	return r;
}

__attribute__((format(printf, 2, 3))) static int fail(int errnum,
						      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last.msg, sizeof(last.msg), fmt, ap);
	va_end(ap);
	last.problem_len = strlen(last.msg);
	last.param = HT_PARAM_NONE;
	return -errnum;
}

static void *out_of_memory(void)
{
	fail(ENOMEM, "out of memory");
	return NULL;
}

#define NEED(x)                                                              \
	do {                                                                 \
		if (!(x))                                                    \
			return fail(EINVAL, "%s: %s is NULL", __func__, #x); \
	} while (0)

API void fv_free(void *p)
{
	free(p);
}

/* --- parameters -------------------------------------------------------- */

API fv_params *fv_params_new(void)
{
	fv_params *p = calloc(1, sizeof(*p));
	uint8_t rnd[16];
	struct ht_error err;

	if (!p)
		return out_of_memory();
	verity_params_default(&p->p);
	p->p.salt_size = 32;
	if (keep(verity_random(p->p.salt, p->p.salt_size, &err), &err) ||
	    keep(verity_random(rnd, sizeof(rnd), &err), &err)) {
		free(p);
		return NULL;
	}
	verity_uuid_random(p->p.uuid, rnd);
	return p;
}

API fv_params *fv_params_copy(const fv_params *p)
{
	fv_params *c;

	if (!p) {
		fail(EINVAL, "fv_params_copy: p is NULL");
		return NULL;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return out_of_memory();
	*c = *p;
	return c;
}

API void fv_params_free(fv_params *p)
{
	free(p);
}

API int fv_params_set_hash(fv_params *p, const char *name)
{
	NEED(p);
	NEED(name);
	if (strlen(name) > VERITY_MAX_HASH_NAME || !ht_digest_size(name))
		return fail(EINVAL, "hash algorithm %s not supported", name);
	snprintf(p->p.hash_name, sizeof(p->p.hash_name), "%s", name);
	return 0;
}

API int fv_params_set_hash_type(fv_params *p, unsigned type)
{
	NEED(p);
	if (type > 1)
		return fail(EINVAL, "unsupported hash type %u (0 or 1)", type);
	p->p.hash_type = (int)type;
	return 0;
}

API int fv_params_set_block_sizes(fv_params *p, uint32_t data_block_size,
				  uint32_t hash_block_size)
{
	NEED(p);
	if (!ht_block_size_valid(data_block_size))
		return fail(EINVAL,
			    "unsupported data block size %u (a power of two "
			    "from 512 to 524288)",
			    data_block_size);
	if (!ht_block_size_valid(hash_block_size))
		return fail(EINVAL,
			    "unsupported hash block size %u (a power of two "
			    "from 512 to 524288)",
			    hash_block_size);
	p->p.data_block_size = data_block_size;
	p->p.hash_block_size = hash_block_size;
	return 0;
}

API int fv_params_set_data_blocks(fv_params *p, uint64_t blocks)
{
	NEED(p);
	p->p.data_blocks = blocks;
	return 0;
}

API int fv_params_set_hash_offset(fv_params *p, uint64_t bytes)
{
	NEED(p);
	if (bytes > (uint64_t)INT64_MAX)
		return fail(EINVAL, "hash offset %llu is too large",
			    (unsigned long long)bytes);
	p->p.hash_offset = bytes;
	return 0;
}

API int fv_params_set_salt(fv_params *p, const uint8_t *salt, size_t len)
{
	NEED(p);
	if (len > VERITY_MAX_SALT_SIZE)
		return fail(EINVAL, "salt of %zu bytes is too long (at most %d)",
			    len, VERITY_MAX_SALT_SIZE);
	if (len && !salt)
		return fail(EINVAL, "fv_params_set_salt: salt is NULL");
	if (len)
		memcpy(p->p.salt, salt, len);
	p->p.salt_size = len;
	return 0;
}

API int fv_params_set_uuid(fv_params *p, const char *uuid)
{
	uint8_t rnd[16];
	struct ht_error err;

	NEED(p);
	if (!uuid) {
		if (keep(verity_random(rnd, sizeof(rnd), &err), &err))
			return -EIO;
		verity_uuid_random(p->p.uuid, rnd);
		return 0;
	}
	if (verity_uuid_parse(uuid, p->p.uuid))
		return fail(EINVAL, "invalid UUID %s", uuid);
	return 0;
}

API int fv_params_set_superblock(fv_params *p, int present)
{
	NEED(p);
	p->p.no_superblock = !present;
	return 0;
}

API const char *fv_params_hash(const fv_params *p)
{
	return p ? p->p.hash_name : NULL;
}

API unsigned fv_params_hash_type(const fv_params *p)
{
	return p ? (unsigned)p->p.hash_type : 0;
}

API uint32_t fv_params_data_block_size(const fv_params *p)
{
	return p ? p->p.data_block_size : 0;
}

API uint32_t fv_params_hash_block_size(const fv_params *p)
{
	return p ? p->p.hash_block_size : 0;
}

API uint64_t fv_params_data_blocks(const fv_params *p)
{
	return p ? p->p.data_blocks : 0;
}

API uint64_t fv_params_hash_offset(const fv_params *p)
{
	return p ? p->p.hash_offset : 0;
}

API size_t fv_params_salt(const fv_params *p, const uint8_t **salt)
{
	if (salt)
		*salt = p ? p->p.salt : NULL;
	return p ? p->p.salt_size : 0;
}

API void fv_params_uuid(const fv_params *p, char out[37])
{
	static const uint8_t none[16];

	verity_uuid_format(p ? p->p.uuid : none, out);
}

API int fv_params_superblock(const fv_params *p)
{
	return p && !p->p.no_superblock;
}

API size_t fv_params_root_size(const fv_params *p)
{
	return p ? ht_digest_size(p->p.hash_name) : 0;
}

API int fv_params_read_superblock(fv_params *p, const char *hash_path)
{
	struct verity_region region = {hash_path, 0, 0};
	struct verity_params q;
	struct ht_error err;
	int r;

	NEED(p);
	NEED(hash_path);
	q = p->p;
	r = verity_read_superblock(&region, &q, &err);
	if (!r)
		p->p = q;
	return keep(r, &err);
}

API int fv_params_layout(const fv_params *p, uint64_t *tree_offset,
			 uint64_t *tree_blocks, uint64_t *hash_bytes)
{
	struct verity_layout l;
	struct ht_error err;
	int r;

	NEED(p);
	if (!p->p.data_blocks)
		return fail(EINVAL, "fv_params_layout: the data blocks are "
				    "not set");
	r = verity_layout_compute(&p->p, &l, &err);
	if (r)
		return keep(r, &err);
	if (tree_offset)
		*tree_offset = l.tree_offset;
	if (tree_blocks)
		*tree_blocks = l.geo.tree_blocks;
	if (hash_bytes)
		*hash_bytes = l.hash_end;
	return 0;
}

API int fv_superblock_encode(const fv_params *p, uint8_t sb[FV_SUPERBLOCK_SIZE])
{
	struct ht_error err;

	NEED(p);
	NEED(sb);
	if (p->p.no_superblock)
		return fail(EINVAL, "these parameters have no superblock "
				    "(fv_params_set_superblock)");
	if (!p->p.data_blocks)
		return fail(EINVAL, "the data blocks are not set");
	if (keep(verity_params_validate(&p->p, &err), &err))
		return -EINVAL;
	verity_sb_encode(&p->p, sb);
	return 0;
}

API int fv_superblock_decode(fv_params *p, const uint8_t sb[FV_SUPERBLOCK_SIZE])
{
	struct verity_params q;
	struct ht_error err;
	int r;

	NEED(p);
	NEED(sb);
	q = p->p;
	q.no_superblock = 0;
	r = verity_sb_decode(sb, &q, &err);
	if (!r)
		p->p = q;
	return keep(r, &err);
}

/* --- options ------------------------------------------------------------ */

API fv_options *fv_options_new(void)
{
	fv_options *o = calloc(1, sizeof(*o));

	return o ? o : out_of_memory();
}

API void fv_options_free(fv_options *o)
{
	if (!o)
		return;
	free(o->fec_path);
	free(o->key);
	free(o->signature);
	for (size_t i = 0; i < o->ntrusted; i++)
		free(o->trusted[i]);
	free(o->trusted);
	free(o);
}

API int fv_options_set_threads(fv_options *o, unsigned threads)
{
	NEED(o);
	if (threads > VERITY_MAX_THREADS)
		return fail(EINVAL, "%u threads (at most %d)", threads,
			    VERITY_MAX_THREADS);
	o->threads = threads;
	return 0;
}

API int fv_options_set_map(fv_options *o, int map)
{
	NEED(o);
	o->map = !!map;
	return 0;
}

API void fv_options_set_progress(fv_options *o, fv_progress_fn fn, void *ctx)
{
	if (!o)
		return;
	o->progress = fn;
	o->progress_ctx = ctx;
}

API int fv_options_set_fec(fv_options *o, const char *path, uint64_t offset,
			   unsigned roots)
{
	char *copy = NULL;

	NEED(o);
	if (path && roots && (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS))
		return fail(EINVAL, "%u FEC roots (%d to %d)", roots,
			    FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (path && !(copy = strdup(path)))
		return fail(ENOMEM, "out of memory");
	free(o->fec_path);
	o->fec_path = copy;
	o->fec_offset = path ? offset : 0;
	o->fec_roots = path ? roots : 0;
	return 0;
}

API int fv_options_set_flags(fv_options *o, unsigned flags)
{
	struct ht_error err;

	NEED(o);
	if (flags & ~((1u << VERITY_NFLAGS) - 1))
		return fail(EINVAL, "unknown flags 0x%x", flags);
	if (keep(verity_flags_check(flags, &err), &err))
		return -EINVAL;
	o->flags = flags;
	return 0;
}

API int fv_options_set_signature(fv_options *o, const uint8_t *der, size_t len)
{
	uint8_t *copy = NULL;

	NEED(o);
	if (len > VERITY_MAX_SIGNATURE)
		return fail(EINVAL, "a signature of %zu bytes (at most %d)",
			    len, VERITY_MAX_SIGNATURE);
	if (len && !der)
		return fail(EINVAL, "fv_options_set_signature: der is NULL");
	if (len && !(copy = malloc(len)))
		return fail(ENOMEM, "out of memory");
	if (len)
		memcpy(copy, der, len);
	free(o->signature);
	o->signature = copy;
	o->signature_len = len;
	return 0;
}

API int fv_options_set_trusted_certs(fv_options *o, const char *const *paths,
				     size_t n)
{
	char **copy = NULL;

	NEED(o);
	if (n && !paths)
		return fail(EINVAL, "fv_options_set_trusted_certs: paths is "
				    "NULL");
	if (n > VERITY_MAX_TRUSTED_FILES)
		return fail(EINVAL, "%zu certificate files (at most %d)", n,
			    VERITY_MAX_TRUSTED_FILES);
	if (n && !(copy = calloc(n, sizeof(*copy))))
		return fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (!paths[i] || !(copy[i] = strdup(paths[i]))) {
			while (i--)
				free(copy[i]);
			free(copy);
			return paths[i] ? fail(ENOMEM, "out of memory")
					: fail(EINVAL,
					       "certificate file %zu "
					       "is NULL",
					       i);
		}
	}
	for (size_t i = 0; i < o->ntrusted; i++)
		free(o->trusted[i]);
	free(o->trusted);
	o->trusted = copy;
	o->ntrusted = n;
	return 0;
}

/* --- format, verify, repair ----------------------------------------------- */

/* How an operation runs, from the options (NULL: defaults). */
static void run_of(const fv_options *o, struct verity_run *run)
{
	static const fv_options none;

	if (!o)
		o = &none;
	memset(run, 0, sizeof(*run));
	run->ht.threads = o->threads ? o->threads : verity_default_threads();
	run->ht.no_map = !o->map;
	run->ht.progress = o->progress;
	run->ht.progress_ctx = o->progress_ctx;
	run->trusted = (const char *const *)o->trusted;
	run->ntrusted = o->ntrusted;
	run->activation = o->flags;
	run->sha256 = (enum sha256_choice)o->sha256;
}

/* The pair of the arguments: whole files, the options' parity and
 * signature. */
static void pair_of(const fv_params *p, const char *data_path,
		    const char *hash_path, const fv_options *o,
		    struct verity_pair *pair)
{
	memset(pair, 0, sizeof(*pair));
	pair->params = p->p;
	pair->data.path = data_path;
	pair->hash.path = hash_path;
	if (o && o->fec_path) {
		pair->fec.region.path = o->fec_path;
		pair->fec.offset = o->fec_offset;
		pair->fec.roots = o->fec_roots;
	}
	if (o && o->signature) {
		pair->signature = o->signature;
		pair->signature_size = o->signature_len;
	}
}

API int fv_fec_info(const fv_params *p, const char *hash_path,
		    const fv_options *o, unsigned *roots, uint64_t *blocks,
		    uint64_t *parity_bytes)
{
	struct verity_pair pair;
	struct verity_outcome out;
	struct ht_error err;
	int r;

	NEED(p);
	NEED(hash_path);
	if (!o || !o->fec_path)
		return fail(EINVAL, "no FEC device (fv_options_set_fec)");
	pair_of(p, hash_path, hash_path, o, &pair);
	/* the parameters as given: no superblock read again */
	r = verity_op_dump(&pair, 0, &out, &err);
	if (r)
		return keep(r, &err);
	if (roots)
		*roots = out.layout.fec.roots;
	if (blocks)
		*blocks = out.layout.fec.blocks;
	if (parity_bytes)
		*parity_bytes = out.layout.fec.parity_bytes;
	return 0;
}

static fv_result *result_new(void)
{
	fv_result *r = calloc(1, sizeof(*r));

	return r ? r : out_of_memory();
}

static void result_root(fv_result *r, const uint8_t *root, size_t size)
{
	memcpy(r->root, root, size);
	r->root_size = size;
	verity_hex_encode(root, size, r->root_hex);
}

static void result_info(fv_result *r, const struct verity_info *info)
{
	snprintf(r->path, sizeof(r->path), "%s",
		 info->hash_path ? info->hash_path : "");
	r->info = *info;
}

/* What every action's result holds of its outcome. */
static void result_outcome(fv_result *r, const struct verity_outcome *out)
{
	result_info(r, &out->info);
	r->layout = out->layout;
	r->has_layout = 1;
	r->trust = out->trust;
	if (out->signature_checked)
		r->sig = out->sig;
}

API int fv_format(fv_params *p, const char *data_path, const char *hash_path,
		  const fv_options *o, fv_result **res)
{
	struct verity_pair pair;
	struct verity_run run;
	struct verity_outcome out;
	struct ht_error err;
	fv_result *made;
	int r;

	NEED(p);
	NEED(data_path);
	NEED(hash_path);
	if (res)
		*res = NULL;
	pair_of(p, data_path, hash_path, o, &pair);
	pair.signature = NULL;
	run_of(o, &run);
	r = verity_op_format(&pair, &run, &out, &err);
	if (r)
		return keep(r, &err);
	p->p.data_blocks = pair.params.data_blocks;
	if (res) {
		made = result_new();
		if (!made)
			return -ENOMEM;
		result_root(made, out.root, out.layout.geo.digest_size);
		result_outcome(made, &out);
		*res = made;
	}
	return 0;
}

/* The failure callback of the internal API, passed on. */
struct bridge {
	fv_failure_fn fn;
	void *ctx;
};

static void bridge_failure(void *c, const struct verity_failure *f)
{
	const struct bridge *b = c;

	if (b->fn)
		b->fn(b->ctx, (enum fv_failure_kind)f->kind, f->block,
		      f->position, f->level);
}

static int root_decode(const fv_params *p, const char *root_hex, uint8_t *root,
		       size_t *len)
{
	size_t want = ht_digest_size(p->p.hash_name);

	if (!root_hex)
		return fail(EINVAL, "the root hash is NULL");
	if (verity_hex_decode(root_hex, root, HT_MAX_DIGEST_SIZE, len) ||
	    *len != want)
		return fail(EINVAL,
			    "invalid root hash %s (%zu hex digits for %s)",
			    root_hex, 2 * want, p->p.hash_name);
	return 0;
}

/* The pair of a verify or repair call, its root decoded. */
static int check_pair(fv_params *p, const char *data_path,
		      const char *hash_path, const char *root_hex,
		      const fv_options *o, struct verity_pair *pair)
{
	NEED(p);
	NEED(data_path);
	NEED(hash_path);
	pair_of(p, data_path, hash_path, o, pair);
	return root_decode(p, root_hex, pair->root, &pair->root_size);
}

/* What check does with a pair. */
enum check_op { CHECK_VERIFY, CHECK_REPAIR };

/* verify and repair (with how, enum fv_repair_flags) of the older entry
 * points: one call of the shared operations. */
static int check(struct verity_pair *pair, const fv_options *o,
		 enum check_op op, unsigned how, struct bridge *b,
		 fv_result **res)
{
	int repair = op == CHECK_REPAIR;
	struct verity_run run;
	struct verity_outcome out;
	struct ht_error err;
	fv_result *made;
	int r;

	if (repair && !pair->fec.region.path)
		return fail(EINVAL, "repair needs FEC parity "
				    "(fv_options_set_fec)");
	if (pair->signature && !pair->signature_found && (!o || !o->ntrusted))
		return fail(EINVAL, "a root hash signature is set but no "
				    "certificate to check it against "
				    "(fv_options_set_trusted_certs)");
	run_of(o, &run);
	run.flags = how;
	run.report = bridge_failure;
	run.ctx = b;
	r = repair ? verity_op_repair(pair, &run, &out, &err)
		   : verity_op_verify(pair, &run, &out, &err);
	if (r)
		return keep(r, &err);
	made = result_new();
	if (!made)
		return -ENOMEM;
	made->res = out.res;
	made->fec = out.fec;
	made->has_fec = out.has_fec;
	result_outcome(made, &out);
	result_root(made, pair->root, pair->root_size);
	made->checked = 1;
	*res = made;
	return 0;
}

API int fv_verify(fv_params *p, const char *data_path, const char *hash_path,
		  const char *root_hex, const fv_options *o, fv_failure_fn fn,
		  void *ctx, fv_result **res)
{
	struct bridge b = {fn, ctx};
	struct verity_pair pair;
	int r;

	NEED(res);
	*res = NULL;
	r = check_pair(p, data_path, hash_path, root_hex, o, &pair);
	return r ? r : check(&pair, o, CHECK_VERIFY, 0, &b, res);
}

API int fv_repair(fv_params *p, const char *data_path, const char *hash_path,
		  const char *root_hex, const fv_options *o, unsigned how,
		  fv_failure_fn fn, void *ctx, fv_result **res)
{
	struct bridge b = {fn, ctx};
	struct verity_pair pair;
	int r;

	NEED(res);
	*res = NULL;
	if (how & ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		return fail(EINVAL, "fv_repair: unknown flags 0x%x", how);
	r = check_pair(p, data_path, hash_path, root_hex, o, &pair);
	return r ? r : check(&pair, o, CHECK_REPAIR, how, &b, res);
}

API void fv_result_free(fv_result *r)
{
	free(r);
}

API const char *fv_result_root_hex(const fv_result *r)
{
	return r ? r->root_hex : NULL;
}

API size_t fv_result_root(const fv_result *r, uint8_t *buf, size_t size)
{
	if (!r)
		return 0;
	if (buf)
		memcpy(buf, r->root, size < r->root_size ? size : r->root_size);
	return r->root_size;
}

API int fv_result_intact(const fv_result *r)
{
	return r && r->checked && r->res.root_matches &&
	       !r->res.bad_data_blocks && !r->res.bad_hash_blocks &&
	       !r->res.bad_padding && !r->res.unreadable_blocks;
}

API int fv_result_root_first(const fv_result *r)
{
	return r && r->res.root_first;
}

API int fv_result_root_matches(const fv_result *r)
{
	return r && r->res.root_matches;
}

API uint64_t fv_result_bad_data_blocks(const fv_result *r)
{
	return r ? r->res.bad_data_blocks : 0;
}

API uint64_t fv_result_bad_hash_blocks(const fv_result *r)
{
	return r ? r->res.bad_hash_blocks : 0;
}

API uint64_t fv_result_bad_padding(const fv_result *r)
{
	return r ? r->res.bad_padding : 0;
}

API uint64_t fv_result_unreadable(const fv_result *r)
{
	return r ? r->res.unreadable_blocks : 0;
}

API uint64_t fv_result_unchecked(const fv_result *r, uint64_t *hash_blocks)
{
	if (hash_blocks)
		*hash_blocks = r ? r->res.unchecked_hash_blocks : 0;
	return r ? r->res.unchecked_data_blocks : 0;
}

API uint64_t fv_result_repaired(const fv_result *r)
{
	return r && r->has_fec ? r->fec.repaired : 0;
}

API uint64_t fv_result_unrepaired(const fv_result *r)
{
	if (!r || !r->has_fec)
		return 0;
	return r->fec.bad_blocks - r->fec.repaired;
}

API uint64_t fv_result_stale_codewords(const fv_result *r)
{
	return r && r->has_fec ? r->fec.stale_codewords : 0;
}

API const char *fv_result_hashing_path(const fv_result *r)
{
	return r ? r->path : NULL;
}

/* --- signatures ----------------------------------------------------------- */

API int fv_sign(const char *key, const char *cert, const char *passphrase,
		const char *root_hex, int embed_cert, uint8_t **der,
		size_t *len)
{
	struct verity_signer s = {key, cert, passphrase, NULL, embed_cert};
	struct ht_error err;

	NEED(key);
	NEED(cert);
	NEED(root_hex);
	NEED(der);
	NEED(len);
	return keep(verity_sign(&s, root_hex, der, len, &err), &err);
}

API int fv_signature_check(const uint8_t *sig, size_t len,
			   const char *const *trusted, size_t ntrusted,
			   const char *root_hex, char **signer)
{
	struct verity_sig_check res;
	struct ht_error err;
	int r;

	NEED(sig);
	NEED(root_hex);
	if (ntrusted)
		NEED(trusted);
	if (signer)
		*signer = NULL;
	r = verity_signature_check(&(struct verity_sig){sig, len, "signature"},
				   trusted, ntrusted, root_hex, &res, &err);
	if (r)
		return keep(r, &err);
	if (signer && !(*signer = strdup(res.signer)))
		return fail(ENOMEM, "out of memory");
	return 0;
}

/* --- device-mapper ----------------------------------------------------------
 */

API int fv_open(const char *name, fv_params *p, const char *data_path,
		const char *hash_path, const char *root_hex,
		const fv_options *o)
{
	struct verity_pair pair;
	struct verity_run run;
	struct ht_error err;
	int r;

	NEED(name);
	NEED(p);
	NEED(data_path);
	NEED(hash_path);
	pair_of(p, data_path, hash_path, o, &pair);
	if ((r = root_decode(p, root_hex, pair.root, &pair.root_size)))
		return r;
	run_of(o, &run);
	return keep(verity_op_open(name, &pair, &run, &err), &err);
}

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
		return fail(EINVAL, "fv_close: unknown way %d", (int)how);
	return keep(verity_close(name, way, &err), &err);
}

API int fv_status_get(const char *name, fv_status **st)
{
	struct ht_error err;
	fv_status *s;
	int r;

	NEED(name);
	NEED(st);
	*st = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return fail(ENOMEM, "out of memory");
	r = verity_status(name, &s->a, &err);
	if (r) {
		free(s);
		return keep(r, &err);
	}
	s->params.p = s->a.p;
	verity_hex_encode(s->a.root, s->a.root_size, s->root_hex);
	*st = s;
	return 0;
}

API void fv_status_free(fv_status *st)
{
	free(st);
}

API int fv_status_is_verity(const fv_status *st)
{
	return st && st->a.is_verity;
}

API int fv_status_corrupted(const fv_status *st)
{
	return st && st->a.corrupted;
}

API int fv_status_open_count(const fv_status *st)
{
	return st ? st->a.open_count : 0;
}

API unsigned fv_status_flags(const fv_status *st)
{
	return st ? st->a.flags : 0;
}

API const fv_params *fv_status_params(const fv_status *st)
{
	return st ? &st->params : NULL;
}

API const char *fv_status_root_hex(const fv_status *st)
{
	return st ? st->root_hex : NULL;
}

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

API const char *fv_status_data_device(const fv_status *st)
{
	return st ? or_null(st->a.data_dev) : NULL;
}

API const char *fv_status_hash_device(const fv_status *st)
{
	return st ? or_null(st->a.hash_dev) : NULL;
}

API const char *fv_status_data_file(const fv_status *st)
{
	return st ? or_null(st->a.data_loop) : NULL;
}

API const char *fv_status_hash_file(const fv_status *st)
{
	return st ? or_null(st->a.hash_loop) : NULL;
}

API const char *fv_status_fec_device(const fv_status *st)
{
	return st ? or_null(st->a.fec_dev) : NULL;
}

API unsigned fv_status_fec_roots(const fv_status *st)
{
	return st ? st->a.fec_roots : 0;
}

_Static_assert(FV_NFLAGS == VERITY_NFLAGS, "the flag counts differ");

API int fv_status_read_only(const fv_status *st)
{
	return st ? st->a.read_only : 0;
}

API int fv_status_signed(const fv_status *st)
{
	return st ? st->a.sig_key_desc[0] != 0 : 0;
}

API uint64_t fv_status_size_sectors(const fv_status *st)
{
	return st ? st->a.size_sectors : 0;
}

API uint64_t fv_status_hash_start_block(const fv_status *st)
{
	return st ? st->a.hash_start_block : 0;
}

API uint64_t fv_status_fec_start_block(const fv_status *st)
{
	return st ? st->a.fec_start_block : 0;
}

API uint64_t fv_status_fec_blocks(const fv_status *st)
{
	return st ? st->a.fec_blocks : 0;
}

API const char *fv_status_fec_file(const fv_status *st)
{
	return st ? or_null(st->a.fec_loop) : NULL;
}

API const char *fv_flag_name(unsigned flag)
{
	for (size_t i = 0; i < VERITY_NFLAGS; i++)
		if (verity_flag_words[i].flag == flag)
			return verity_flag_words[i].word;
	return NULL;
}

/* --- Android images --- */

struct fv_avb {
	char *path;
	struct avb_image img;
	const struct avb_descriptor *ht; /* NULL: no hashtree descriptor */
	struct verity_pair pair;         /* with ht and a footer */
	int paired;
	int unusable; /* parity dm-verity cannot use, left out */
	int shown;    /* read for showing: its signature not checked */
	char *name;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	char key_sha1[41];
	enum verity_trust trust;
};

API void fv_avb_free(fv_avb *a)
{
	if (!a)
		return;
	verity_avb_image_free(&a->img);
	free(a->path);
	free(a->name);
	free(a);
}

/* The signer is the key at key_path. */
/* The trust policy's verdict on a's vbmeta (verity/trust.h). */
static int avb_trust(const fv_avb *a, enum verity_anchor anchor, int writes,
		     enum verity_trust *trust)
{
	struct verity_trust_ask ask = {
		VERITY_CONTAINER_AVB, a->path,
		a->img.vbmeta.h.algorithm != AVB_ALG_NONE
			? VERITY_SIGNATURE_FOUND
			: VERITY_SIGNATURE_NONE,
		anchor, writes};
	struct ht_error err;
	int r = verity_trust_decide(&ask, trust, &err);

	return r ? keep(r, &err) : 0;
}

/* The vbmeta's public key's SHA-1, hex ("" for none). */
static void key_sha1(const struct avb_vbmeta *v, char out[41])
{
	uint8_t d[20];
	unsigned len = 0;
	EVP_MD *md;

	out[0] = '\0';
	if (!v->h.public_key_size)
		return;
	md = EVP_MD_fetch(ht_crypto_libctx(), "SHA1", NULL);
	if (md && EVP_Digest(v->public_key, (size_t)v->h.public_key_size, d,
			     &len, md, NULL) &&
	    len == 20)
		verity_hex_encode(d, 20, out);
	EVP_MD_free(md);
}

/* An Android image read; judged (its own signature checked) unless
 * shown. */
static int avb_read(const char *image, int show, fv_avb **out)
{
	enum avb_judgement why;
	struct ht_error err;
	fv_avb *a;
	int r;

	NEED(image);
	NEED(out);
	*out = NULL;
	if (!(a = calloc(1, sizeof(*a))) || !(a->path = strdup(image))) {
		free(a);
		return fail(ENOMEM, "out of memory");
	}
	if ((r = verity_avb_image_read(a->path, &a->img, &err)) ||
	    (!show &&
	     (r = verity_avb_vbmeta_judge(&a->img.vbmeta, a->path, VERITY_ANCHOR_NONE,
				   NULL, 0, 0, &a->trust, &why, &err)))) {
		fv_avb_free(a);
		return keep(r, &err);
	}
	a->shown = show;
	if (show)
		a->trust = a->img.vbmeta.h.algorithm != AVB_ALG_NONE
				   ? VERITY_TRUST_UNCHECKED
				   : VERITY_TRUST_UNSIGNED;
	key_sha1(&a->img.vbmeta, a->key_sha1);
	if ((a->ht = verity_avb_image_hashtree(&a->img)) &&
	    !(a->name = strndup((const char *)a->ht->hashtree.p.name,
				a->ht->hashtree.p.name_len))) {
		fv_avb_free(a);
		return fail(ENOMEM, "out of memory");
	}
	/* the pair, when the image has one; its errors are fv_avb_pair's */
	if (a->ht && a->img.has_footer &&
	    !verity_avb_image_pair(&a->img, a->ht, &a->pair, &a->unusable, &err)) {
		a->paired = 1;
		verity_hex_encode(a->pair.root, a->pair.root_size, a->root_hex);
	}
	*out = a;
	return 0;
}

API int fv_avb_read(const char *image, fv_avb **out)
{
	return avb_read(image, 0, out);
}

API int fv_avb_show(const char *image, fv_avb **out)
{
	return avb_read(image, 1, out);
}

API int fv_avb_check_key(fv_avb *a, const char *key)
{
	enum avb_judgement why;
	struct ht_error err;
	uint8_t *blob = NULL;
	size_t len = 0;
	int r;

	NEED(a);
	NEED(key);
	/* judged as the command judges it: a key for an unsigned vbmeta
	 * refused, the signer's key compared */
	if (!(r = verity_avb_key_file_blob(key, &blob, &len, &err)))
		r = verity_avb_vbmeta_judge(&a->img.vbmeta, a->path, VERITY_ANCHOR_KEY,
				     blob, len, 0, &a->trust, &why, &err);
	free(blob);
	return keep(r, &err);
}

API int fv_avb_has_footer(const fv_avb *a)
{
	return a && a->img.has_footer;
}

API int fv_avb_has_hashtree(const fv_avb *a)
{
	return a && a->ht;
}

API const char *fv_avb_key_sha1(const fv_avb *a)
{
	return a ? a->key_sha1 : NULL;
}

API const char *fv_avb_release(const fv_avb *a)
{
	return a ? a->img.vbmeta.h.release : NULL;
}

API int fv_avb_parity_unusable(const fv_avb *a)
{
	return a && a->paired && a->unusable;
}

/* The reason a's pair cannot be had, in the library's words. */
static int avb_unpaired(const fv_avb *a);
static int avb_unpaired(const fv_avb *a)
{
	struct verity_pair pair;
	struct ht_error err;
	int unusable;

	if (a->shown)
		return fail(EINVAL, "%s: read for showing (fv_avb_show), its "
				    "signature not checked: no pair",
			    a->path);
	if (!a->ht)
		return fail(EINVAL, "%s: the vbmeta has no hashtree descriptor",
			    a->path);
	return keep(verity_avb_image_pair(&a->img, a->ht, &pair, &unusable, &err),
		    &err);
}

API int fv_avb_open(const char *image, const char *key, fv_avb **out)
{
	fv_avb *a;
	int r;

	NEED(out);
	*out = NULL;
	if ((r = fv_avb_read(image, &a)))
		return r;
	if ((key && (r = fv_avb_check_key(a, key))) ||
	    (!a->paired && (r = avb_unpaired(a)))) {
		fv_avb_free(a);
		return r;
	}
	*out = a;
	return 0;
}

API const char *fv_avb_partition_name(const fv_avb *a)
{
	return a ? a->name : NULL;
}

API int fv_avb_params(const fv_avb *a, fv_params **p)
{
	NEED(a);
	NEED(p);
	if (!a->paired || a->shown)
		return avb_unpaired(a);
	if (!(*p = calloc(1, sizeof(**p))))
		return -ENOMEM;
	(*p)->p = a->pair.params;
	return 0;
}

API const char *fv_avb_root_hex(const fv_avb *a)
{
	return a ? a->root_hex : NULL;
}

API void fv_avb_layout(const fv_avb *a, uint64_t *image_size,
		       uint64_t *tree_offset, uint64_t *tree_size,
		       unsigned *fec_roots, uint64_t *fec_offset,
		       uint64_t *fec_size)
{
	const struct avb_descriptor *d = a ? a->ht : NULL;

	if (image_size)
		*image_size = d ? d->hashtree.p.image_size : 0;
	if (tree_offset)
		*tree_offset = d ? d->hashtree.tree_offset : 0;
	if (tree_size)
		*tree_size = d ? d->hashtree.tree_size : 0;
	if (fec_roots)
		*fec_roots = d ? d->hashtree.fec_num_roots : 0;
	if (fec_offset)
		*fec_offset = d ? d->hashtree.fec_offset : 0;
	if (fec_size)
		*fec_size = d ? d->hashtree.fec_size : 0;
}

API const char *fv_avb_algorithm(const fv_avb *a)
{
	return a ? verity_avb_algorithm(a->img.vbmeta.h.algorithm)->name : NULL;
}

API uint64_t fv_avb_rollback_index(const fv_avb *a)
{
	return a ? a->img.vbmeta.h.rollback_index : 0;
}

API int fv_avb_signer_checked(const fv_avb *a)
{
	return a && a->trust == VERITY_TRUST_CHECK;
}

API int fv_avb_verify(const fv_avb *a, const fv_options *o, fv_failure_fn fn,
		      void *ctx, fv_result **res)
{
	struct bridge b = {fn, ctx};
	struct verity_pair pair;

	NEED(a);
	NEED(res);
	*res = NULL;
	if (!a->paired || a->shown)
		return avb_unpaired(a);
	pair = a->pair;
	return check(&pair, o, CHECK_VERIFY, 0, &b, res);
}

API int fv_avb_repair(const fv_avb *a, const fv_options *o, unsigned how,
		      fv_failure_fn fn, void *ctx, fv_result **res)
{
	struct bridge b = {fn, ctx};
	struct verity_pair pair;

	NEED(a);
	NEED(res);
	*res = NULL;
	if (!a->paired || a->shown)
		return avb_unpaired(a);
	{
		enum verity_trust trust;
		int r = avb_trust(a,
				  a->trust == VERITY_TRUST_CHECK
					  ? VERITY_ANCHOR_KEY
					  : VERITY_ANCHOR_NONE,
				  !(how & FV_REPAIR_DRY_RUN), &trust);

		if (r)
			return r;
	}
	pair = a->pair;
	return check(&pair, o, CHECK_REPAIR, how, &b, res);
}

/* --- containers and trust ------------------------------------------------ */

_Static_assert((int)FV_SIGNATURE_FOUND == (int)VERITY_SIGNATURE_FOUND &&
		       (int)FV_SIGNATURE_GIVEN == (int)VERITY_SIGNATURE_GIVEN &&
		       (int)FV_ANCHOR_CERT == (int)VERITY_ANCHOR_CERT &&
		       (int)FV_ANCHOR_KEY == (int)VERITY_ANCHOR_KEY &&
		       (int)FV_TRUST_CHECK == (int)VERITY_TRUST_CHECK &&
		       (int)FV_TRUST_UNCHECKED == (int)VERITY_TRUST_UNCHECKED,
	       "the public trust enums are the policy's");

API int fv_container_of(const char *image, const char *asked, const char **name)
{
	enum verity_container kind;
	struct ht_error err;
	int want = VERITY_CONTAINER_AUTO, r;

	NEED(image);
	NEED(name);
	if (asked && ((want = verity_container_by_name(asked)) < 0 ||
		      want == VERITY_CONTAINER_SPARSE))
		return fail(EINVAL, "no container named '%s' (avb, ddi, sidecar)",
			    asked);
	if ((r = verity_container_identify(image, (enum verity_container)want,
					   &kind, &err)))
		return keep(r, &err);
	*name = verity_container_name(kind);
	return 0;
}

API int fv_trust_decide(const char *container, enum fv_signature_from signature,
			enum fv_anchor anchor, int writes, const char *image,
			enum fv_trust *verdict)
{
	int c = verity_container_by_name(container);
	struct verity_trust_ask ask;
	enum verity_trust t;
	struct ht_error err;
	int r;

	NEED(verdict);
	if (c < 0 || c == VERITY_CONTAINER_SPARSE)
		return fail(EINVAL, "no container named '%s'",
			    container ? container : "(null)");
	if ((unsigned)signature > FV_SIGNATURE_GIVEN ||
	    (unsigned)anchor > FV_ANCHOR_KEY)
		return fail(EINVAL, "fv_trust_decide: a signature source or "
				    "anchor out of range");
	ask = (struct verity_trust_ask){(enum verity_container)c, image,
					(enum verity_signature_from)signature,
					(enum verity_anchor)anchor, !!writes};
	if ((r = verity_trust_decide(&ask, &t, &err)))
		return keep(r, &err);
	*verdict = (enum fv_trust)t;
	return 0;
}

API enum fv_trust fv_avb_trust(const fv_avb *a)
{
	return a ? (enum fv_trust)a->trust : FV_TRUST_UNSIGNED;
}

API int fv_options_set_key(fv_options *o, const char *path)
{
	char *copy = NULL;

	NEED(o);
	if (path && !(copy = strdup(path)))
		return fail(ENOMEM, "out of memory");
	free(o->key);
	o->key = copy;
	return 0;
}

/* --- images given alone -------------------------------------------------- */

struct image_pair {
	struct verity_pair pair;
	char name[64];
	enum verity_trust trust;
	enum verity_signature_from from;
	const struct ddi_verity *ddi; /* its protected partition */
};

struct fv_image {
	char *path;
	enum verity_container kind;
	struct image_pair *pairs;
	size_t n;
	fv_avb *av; /* an Android image's */
	struct ddi_image ddi;
	int ddi_read;
	struct verity_sidecar side;
	uint8_t *signature; /* the sidecar's IMAGE.roothash.p7s */
};

API void fv_image_free(fv_image *img)
{
	if (!img)
		return;
	fv_avb_free(img->av);
	if (img->ddi_read)
		verity_ddi_image_free(&img->ddi);
	verity_sidecar_free(&img->side);
	free(img->signature);
	free(img->pairs);
	free(img->path);
	free(img);
}

static enum verity_anchor anchor_of(const fv_options *o)
{
	return o && o->key        ? VERITY_ANCHOR_KEY
	       : o && o->ntrusted ? VERITY_ANCHOR_CERT
				  : VERITY_ANCHOR_NONE;
}

/* An Android image's one pair: its vbmeta judged for the options'
 * anchor, its hashtree descriptor made the pair. */
static int avb_read(const char *image, int show, fv_avb **out);

/* An Android image's one pair: opened as fv_avb_read opens one, judged
 * for the options' anchor (a key: its signer's; certificates: the wrong
 * kind, refused by the policy), its hashtree descriptor made the pair. */
static int image_avb(fv_image *img, const fv_options *o, struct ht_error *err)
{
	struct image_pair *ip = &img->pairs[0];
	fv_avb *a;
	int r;

	if ((r = avb_read(img->path, 0, &img->av)))
		goto said;
	a = img->av;
	ip->from = a->img.vbmeta.h.algorithm != AVB_ALG_NONE
			   ? VERITY_SIGNATURE_FOUND
			   : VERITY_SIGNATURE_NONE;
	if (o && o->key) {
		if ((r = fv_avb_check_key(a, o->key)))
			goto said;
	} else if (anchor_of(o) != VERITY_ANCHOR_NONE) {
		struct verity_trust_ask ask = {VERITY_CONTAINER_AVB, img->path,
					       ip->from, anchor_of(o), 0};
		enum verity_trust t;

		if ((r = verity_trust_decide(&ask, &t, err)))
			return r;
	}
	if (!a->paired) {
		r = avb_unpaired(a);
		goto said;
	}
	ip->pair = a->pair;
	ip->trust = a->trust;
	snprintf(ip->name, sizeof(ip->name), "%s", a->name);
	img->n = 1;
	return 0;
said:
	/* the message is this thread's already: err carries it on */
	*err = last;
	return r;
}

/* A disk image's pairs, one a protected partition ("root-x86-64"). */
static int image_ddi(fv_image *img, const fv_options *o, struct ht_error *err)
{
	int r;

	if ((r = verity_ddi_image_read(img->path, &img->ddi, err)))
		return r;
	img->ddi_read = 1;
	if (!(img->pairs = calloc(img->ddi.nv ? img->ddi.nv : 1,
				  sizeof(*img->pairs))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < img->ddi.nv; i++) {
		const struct ddi_verity *v = &img->ddi.v[i];
		struct image_pair *ip = &img->pairs[i];
		struct verity_trust_ask ask = {
			VERITY_CONTAINER_DDI, img->path,
			v->signature ? VERITY_SIGNATURE_FOUND
				     : VERITY_SIGNATURE_NONE,
			anchor_of(o), 0};

		if ((r = verity_ddi_pair(&img->ddi, v, &ip->pair, err)) ||
		    (r = verity_trust_decide(&ask, &ip->trust, err)))
			return r;
		ip->from = ask.signature;
		ip->ddi = v;
		snprintf(ip->name, sizeof(ip->name), "%s-%s",
			 verity_ddi_role_name(v->role), v->arch);
		img->n++;
	}
	return 0;
}

/* An image with sidecar files: IMAGE.verity's superblock, the root hash
 * in IMAGE.roothash, IMAGE.roothash.p7s and IMAGE.fec when there. */
static int image_sidecar(fv_image *img, const fv_options *o,
			 struct ht_error *err)
{
	struct image_pair *ip = &img->pairs[0];
	struct verity_pair *pair = &ip->pair;
	const char *sig_path = NULL;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	size_t n;
	struct verity_trust_ask ask;
	int r;

	if ((r = verity_sidecar_names(img->path, &img->side, err)))
		return r;
	verity_sidecar_pair(&img->side, img->path, pair, &sig_path);
	verity_params_default(&pair->params);
	if ((r = verity_read_superblock(&pair->hash, &pair->params, err)))
		return r == -ENOENT ? -ENODEV : r;
	if (access(img->side.roothash, F_OK))
		return ht_fail(err, ENODEV, "%s: does not exist",
			       img->side.roothash);
	/* the grammar of every root hash file */
	if ((r = fv_root_hash_file_read(img->side.roothash, hex, sizeof(hex)))) {
		snprintf(err->msg, sizeof(err->msg), "%s", last.msg);
		err->param = HT_PARAM_NONE;
		return r;
	}
	r = verity_hex_decode(hex, pair->root, sizeof(pair->root), &n);
	if (r || n != ht_digest_size(pair->params.hash_name))
		return ht_fail(err, EINVAL, "%s: not a %s root hash",
			       img->side.roothash, pair->params.hash_name);
	pair->root_size = n;
	if (sig_path) {
		if ((r = verity_read_signature(sig_path, &img->signature,
					       &pair->signature_size, err)))
			return r;
		pair->signature = img->signature;
		pair->signature_name = sig_path;
		pair->signature_found = 1;
	}
	pair->container = VERITY_CONTAINER_SIDECAR;
	ask = (struct verity_trust_ask){
		VERITY_CONTAINER_SIDECAR, sig_path ? sig_path : img->path,
		sig_path ? VERITY_SIGNATURE_FOUND : VERITY_SIGNATURE_NONE,
		anchor_of(o), 0};
	if ((r = verity_trust_decide(&ask, &ip->trust, err)))
		return r;
	ip->from = ask.signature;
	snprintf(ip->name, sizeof(ip->name), "%s", "data");
	img->n = 1;
	return 0;
}

API int fv_image_open(const char *path, const char *container,
		      const fv_options *o, fv_image **out)
{
	struct ht_error err;
	fv_image *img;
	int want = VERITY_CONTAINER_AUTO, r;

	NEED(path);
	NEED(out);
	*out = NULL;
	if (container && ((want = verity_container_by_name(container)) < 0 ||
			  want == VERITY_CONTAINER_SPARSE ||
			  want == VERITY_CONTAINER_PLAIN))
		return fail(EINVAL, "no container of images named '%s' (avb, "
				    "ddi, sidecar)",
			    container);
	if (!(img = calloc(1, sizeof(*img))) || !(img->path = strdup(path))) {
		free(img);
		return fail(ENOMEM, "out of memory");
	}
	r = verity_container_identify(path, (enum verity_container)want,
				      &img->kind, &err);
	if (!r && img->kind != VERITY_CONTAINER_DDI &&
	    !(img->pairs = calloc(1, sizeof(*img->pairs))))
		r = ht_fail(&err, ENOMEM, "out of memory");
	if (!r)
		r = img->kind == VERITY_CONTAINER_AVB ? image_avb(img, o, &err)
		    : img->kind == VERITY_CONTAINER_DDI
			    ? image_ddi(img, o, &err)
			    : image_sidecar(img, o, &err);
	if (r) {
		fv_image_free(img);
		return keep(r, &err);
	}
	*out = img;
	return 0;
}

API const char *fv_image_container(const fv_image *img)
{
	return img ? verity_container_name(img->kind) : NULL;
}

API size_t fv_image_pairs(const fv_image *img)
{
	return img ? img->n : 0;
}

API const char *fv_image_pair_name(const fv_image *img, size_t i)
{
	return img && i < img->n ? img->pairs[i].name : NULL;
}

API enum fv_trust fv_image_trust(const fv_image *img, size_t i)
{
	return img && i < img->n ? (enum fv_trust)img->pairs[i].trust
				 : FV_TRUST_UNSIGNED;
}

static int pair_check(const fv_pair *pr, const fv_options *o, enum check_op op,
		      unsigned how, fv_result **res);

/* verify or repair of pair i: fv_pair_verify or fv_pair_repair of it, with
 * the callback given and the options' parity for images whose container
 * carries none. */
static int image_check(const fv_image *img, size_t i, const fv_options *o,
		       enum check_op op, unsigned how, fv_failure_fn fn, void *ctx,
		       fv_result **res)
{
	fv_options with = {0};
	fv_pair *pr;
	int r;

	NEED(img);
	NEED(res);
	*res = NULL;
	if ((r = fv_image_pair(img, i, &pr)))
		return r;
	if (o)
		with = *o; /* borrowed: not freed */
	with.failure_fn = fn;
	with.failure_ctx = ctx;
	with.block_fn = NULL;
	if (img->kind != VERITY_CONTAINER_AVB && o && o->fec_path)
		r = fv_pair_set_fec(pr, o->fec_path, o->fec_offset,
				    o->fec_roots);
	if (!r)
		r = pair_check(pr, &with, op, how, res);
	fv_pair_free(pr);
	return r;
}

API int fv_image_verify(const fv_image *img, size_t i, const fv_options *o,
			fv_failure_fn fn, void *ctx, fv_result **res)
{
	return image_check(img, i, o, CHECK_VERIFY, 0, fn, ctx, res);
}

API int fv_image_repair(const fv_image *img, size_t i, const fv_options *o,
			unsigned how, fv_failure_fn fn, void *ctx,
			fv_result **res)
{
	if (how & ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		return fail(EINVAL, "fv_image_repair: unknown flags %#x", how);
	return image_check(img, i, o, CHECK_REPAIR, how, fn, ctx, res);
}

/* --- pairs ------------------------------------------------------------- */

struct fv_pair {
	struct verity_pair pair; /* its paths and signature point below */
	fv_params params;        /* pair.params, as fv_pair_params shows */
	char *data, *hash, *fec, *signature_name;
	uint8_t *signature;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	/* an image's pair (fv_image_pair): the policy asked again for each
	 * action with the anchor the image was opened with */
	int of_image;
	char *image;
	enum verity_trust opened; /* the verdict when the image was opened */
	char fingerprint[65];     /* a disk image's certificateFingerprint */
	unsigned fingerprint_at;  /* its signature partition */
};

/* dup of s (NULL stays NULL) into *dst; -ENOMEM. */
static int set_string(char **dst, const char *s)
{
	char *c = NULL;

	if (s && !(c = strdup(s)))
		return fail(ENOMEM, "out of memory");
	free(*dst);
	*dst = c;
	return 0;
}

API int fv_pair_new(const char *data, const char *hash, fv_pair **out)
{
	fv_pair *pr;
	fv_params *p;

	NEED(out);
	*out = NULL;
	NEED(data);
	NEED(hash);
	if (!(p = fv_params_new()))
		return -ENOMEM;
	if (!(pr = calloc(1, sizeof(*pr)))) {
		free(p);
		return fail(ENOMEM, "out of memory");
	}
	pr->params = *p;
	free(p);
	if (set_string(&pr->data, data) || set_string(&pr->hash, hash)) {
		fv_pair_free(pr);
		return -ENOMEM;
	}
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	*out = pr;
	return 0;
}

API void fv_pair_free(fv_pair *pr)
{
	if (!pr)
		return;
	free(pr->data);
	free(pr->hash);
	free(pr->fec);
	free(pr->signature_name);
	free(pr->signature);
	free(pr->image);
	free(pr);
}

API int fv_pair_set_params(fv_pair *pr, const fv_params *p)
{
	NEED(pr);
	NEED(p);
	pr->params = *p;
	return 0;
}

API const fv_params *fv_pair_params(const fv_pair *pr)
{
	return pr ? &pr->params : NULL;
}

API int fv_pair_read_superblock(fv_pair *pr, uint64_t hash_offset)
{
	struct verity_params p;
	struct ht_error err;
	int r;

	NEED(pr);
	verity_params_default(&p);
	p.hash_offset = hash_offset;
	if ((r = verity_read_superblock(&pr->pair.hash, &p, &err)))
		return keep(r, &err);
	pr->params.p = p;
	return 0;
}

API int fv_pair_set_root(fv_pair *pr, const uint8_t *root, size_t len)
{
	NEED(pr);
	NEED(root);
	if (!len || len > HT_MAX_DIGEST_SIZE)
		return fail(EINVAL, "a root hash of %zu bytes (1 to %d)", len,
			    HT_MAX_DIGEST_SIZE);
	memcpy(pr->pair.root, root, len);
	pr->pair.root_size = len;
	verity_hex_encode(root, len, pr->root_hex);
	return 0;
}

API int fv_pair_set_root_hex(fv_pair *pr, const char *hex)
{
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t len;

	NEED(pr);
	NEED(hex);
	if (verity_hex_decode(hex, root, sizeof(root), &len) || !len)
		return fail(EINVAL, "invalid root hash %s (hex digits, at most "
				    "%d)",
			    hex, 2 * HT_MAX_DIGEST_SIZE);
	return fv_pair_set_root(pr, root, len);
}

API const char *fv_pair_root_hex(const fv_pair *pr)
{
	return pr ? pr->root_hex : NULL;
}

API int fv_pair_set_fec(fv_pair *pr, const char *path, uint64_t offset,
			unsigned roots)
{
	NEED(pr);
	if (path && roots && (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS))
		return fail(EINVAL, "%u FEC roots (%d to %d)", roots,
			    FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (set_string(&pr->fec, path))
		return -ENOMEM;
	pr->pair.fec = (struct verity_fec_params){{pr->fec, 0, 0}, 0, 0, 0};
	if (path) {
		pr->pair.fec.offset = offset;
		pr->pair.fec.roots = roots;
	}
	return 0;
}

API int fv_pair_set_signature(fv_pair *pr, const uint8_t *der, size_t len,
			      const char *name)
{
	uint8_t *copy = NULL;

	NEED(pr);
	if (der && !len)
		return fail(EINVAL, "a signature of 0 bytes");
	if (der && !(copy = malloc(len)))
		return fail(ENOMEM, "out of memory");
	if (der)
		memcpy(copy, der, len);
	if (set_string(&pr->signature_name, der ? name : NULL)) {
		free(copy);
		return -ENOMEM;
	}
	free(pr->signature);
	pr->signature = copy;
	pr->pair.signature = copy;
	pr->pair.signature_size = der ? len : 0;
	pr->pair.signature_name = pr->signature_name;
	pr->pair.signature_found = 0; /* given to be checked */
	return 0;
}

API const char *fv_pair_data_path(const fv_pair *pr)
{
	return pr ? pr->data : NULL;
}

API const char *fv_pair_hash_path(const fv_pair *pr)
{
	return pr ? pr->hash : NULL;
}

API const char *fv_pair_fec_path(const fv_pair *pr)
{
	return pr ? pr->fec : NULL;
}

API int fv_image_pair(const fv_image *img, size_t i, fv_pair **out)
{
	const struct image_pair *ip;
	const struct verity_pair *src;
	fv_pair *pr;
	int r;

	NEED(img);
	NEED(out);
	*out = NULL;
	if (i >= img->n)
		return fail(EINVAL, "%s: no pair %zu (%zu pairs)", img->path, i,
			    img->n);
	ip = &img->pairs[i];
	src = &ip->pair;
	if ((r = fv_pair_new(src->data.path, src->hash.path, &pr)))
		return r;
	/* the regions as the container placed them, with the paths kept */
	pr->pair = *src;
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	pr->params.p = src->params;
	r = set_string(&pr->fec, src->fec.region.path);
	pr->pair.fec.region.path = pr->fec;
	if (!r && src->signature) {
		r = fv_pair_set_signature(pr, src->signature,
					  src->signature_size,
					  src->signature_name);
		pr->pair.signature_found = src->signature_found;
	}
	if (!r)
		r = set_string(&pr->image, img->path);
	if (r) {
		fv_pair_free(pr);
		return r;
	}
	if (src->root_size)
		verity_hex_encode(src->root, src->root_size, pr->root_hex);
	pr->of_image = 1;
	pr->pair.container = img->kind;
	pr->opened = ip->trust;
	if (ip->ddi) {
		snprintf(pr->fingerprint, sizeof(pr->fingerprint), "%s",
			 ip->ddi->fingerprint);
		pr->fingerprint_at = ip->ddi->sig ? ip->ddi->sig->index : 0;
	}
	/* the image's own verdict, for fv_pair_verify's policy */
	pr->pair.signature_found = ip->from == VERITY_SIGNATURE_FOUND;
	*out = pr;
	return 0;
}

API void fv_options_set_failure_fn(fv_options *o, fv_failure_fn fn, void *ctx)
{
	if (!o)
		return;
	o->failure_fn = fn;
	o->failure_ctx = ctx;
}

API void fv_options_set_block_fn(fv_options *o, fv_block_fn fn, void *ctx)
{
	if (!o)
		return;
	o->block_fn = fn;
	o->block_ctx = ctx;
}

API int fv_options_set_sha256(fv_options *o, enum fv_sha256_kernel k)
{
	NEED(o);
	if ((unsigned)k > FV_SHA256_THREE_WAY)
		return fail(EINVAL, "no SHA-256 kernel %d", (int)k);
	o->sha256 = k;
	return 0;
}

API int fv_options_set_repair(fv_options *o, unsigned how)
{
	NEED(o);
	if (how & ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		return fail(EINVAL, "unknown repair flags %#x", how);
	o->repair = how;
	return 0;
}

/* The callbacks of a pair action, passed on. */
static void pair_failure(void *c, const struct verity_failure *f)
{
	const fv_options *o = c;

	if (o->failure_fn)
		o->failure_fn(o->failure_ctx, (enum fv_failure_kind)f->kind,
			      f->block, f->position, f->level);
}

static void pair_block(void *c, enum verity_repair_event ev,
		       const struct verity_failure *f)
{
	const fv_options *o = c;

	if (o->block_fn)
		o->block_fn(o->block_ctx, ev == VERITY_REPAIRED,
			    (enum fv_failure_kind)f->kind, f->block,
			    f->position, f->level);
}

/* The pair as an action takes it: the parameters as set. */
static void pair_take(const fv_pair *pr, struct verity_pair *pair)
{
	*pair = pr->pair;
	pair->params = pr->params.p;
}

/* An action's run: the options', with the pair callbacks. */
static void pair_run(const fv_options *o, struct verity_run *run)
{
	static const fv_options none;

	run_of(o, run);
	run->report = pair_failure;
	run->event = pair_block;
	run->ctx = (void *)(o ? o : &none);
}

API int fv_pair_format(fv_pair *pr, const fv_options *o, fv_result **res)
{
	struct verity_pair pair;
	struct verity_run run;
	struct verity_outcome out;
	struct ht_error err;
	fv_result *made;
	int r;

	NEED(pr);
	if (res)
		*res = NULL;
	pair_take(pr, &pair);
	pair.signature = NULL;
	pair_run(o, &run);
	if ((r = verity_op_format(&pair, &run, &out, &err)))
		return keep(r, &err);
	pr->params.p.data_blocks = pair.params.data_blocks;
	fv_pair_set_root(pr, out.root, out.layout.geo.digest_size);
	if (res) {
		if (!(made = result_new()))
			return -ENOMEM;
		result_root(made, out.root, out.layout.geo.digest_size);
		result_outcome(made, &out);
		*res = made;
	}
	return 0;
}

/* verify or repair of a pair: an image's asks the policy again for the
 * options' anchor (an Android vbmeta's key judged when it was opened),
 * and a disk image's signer must be the one its certificateFingerprint
 * names. */
static int pair_check(const fv_pair *pr, const fv_options *o, enum check_op op,
		      unsigned how, fv_result **res)
{
	struct verity_pair pair;
	struct verity_run run;
	struct verity_outcome out;
	struct ht_error err;
	fv_result *made;
	int r;

	NEED(pr);
	NEED(res);
	*res = NULL;
	if (!pr->pair.root_size)
		return fail(EINVAL, "%s: no root hash to check against "
				    "(fv_pair_set_root)",
			    pr->data);
	if (pr->of_image) {
		struct verity_trust_ask ask = {
			pr->pair.container, pr->image,
			pr->pair.container == VERITY_CONTAINER_AVB
				? (pr->opened == VERITY_TRUST_UNSIGNED
					   ? VERITY_SIGNATURE_NONE
					   : VERITY_SIGNATURE_FOUND)
			: pr->pair.signature ? VERITY_SIGNATURE_FOUND
					     : VERITY_SIGNATURE_NONE,
			anchor_of(o),
			op == CHECK_REPAIR && !(how & FV_REPAIR_DRY_RUN)};
		enum verity_trust t;

		if (pr->pair.container == VERITY_CONTAINER_AVB &&
		    pr->opened == VERITY_TRUST_CHECK)
			ask.anchor = VERITY_ANCHOR_KEY; /* judged when opened */
		if ((r = verity_trust_decide(&ask, &t, &err)))
			return keep(r, &err);
	}
	if (op == CHECK_REPAIR && !pr->pair.fec.region.path)
		return fail(EINVAL, "%s: repair needs FEC parity "
				    "(fv_pair_set_fec, fv_options_set_fec)",
			    pr->data);
	pair_take(pr, &pair);
	pair_run(o, &run);
	run.flags = how;
	r = op == CHECK_REPAIR ? verity_op_repair(&pair, &run, &out, &err)
			       : verity_op_verify(&pair, &run, &out, &err);
	if (r)
		return keep(r, &err);
	if (pr->fingerprint[0] && out.signature_checked &&
	    strcmp(pr->fingerprint, out.sig.fingerprint))
		return fail(EINVAL,
			    "%s: partition %u: certificateFingerprint %s is not "
			    "the signer's (%s)",
			    pr->image, pr->fingerprint_at, pr->fingerprint,
			    out.sig.fingerprint);
	if (!(made = result_new()))
		return -ENOMEM;
	made->res = out.res;
	made->fec = out.fec;
	made->has_fec = out.has_fec;
	result_outcome(made, &out);
	if (pr->pair.container == VERITY_CONTAINER_AVB)
		made->trust = pr->opened; /* the vbmeta's, judged when opened */
	result_root(made, pair.root, pair.root_size);
	made->checked = 1;
	*res = made;
	return 0;
}

API int fv_pair_verify(const fv_pair *pr, const fv_options *o, fv_result **res)
{
	return pair_check(pr, o, CHECK_VERIFY, 0, res);
}

API int fv_pair_repair(const fv_pair *pr, const fv_options *o, fv_result **res)
{
	return pair_check(pr, o, CHECK_REPAIR, o ? o->repair : 0, res);
}

API int fv_pair_dump(const fv_pair *pr, const fv_options *o, fv_result **res)
{
	struct verity_pair pair;
	struct verity_outcome out;
	struct ht_error err;
	fv_result *made;
	int r;

	(void)o;
	NEED(pr);
	NEED(res);
	*res = NULL;
	pair_take(pr, &pair);
	if ((r = verity_op_dump(&pair, 0, &out, &err)))
		return keep(r, &err);
	if (!(made = result_new()))
		return -ENOMEM;
	result_outcome(made, &out);
	if (pair.root_size)
		result_root(made, pair.root, pair.root_size);
	*res = made;
	return 0;
}

API int fv_pair_activate(const char *name, const fv_pair *pr,
			 const fv_options *o)
{
	struct verity_pair pair;
	struct verity_run run;
	struct ht_error err;

	NEED(name);
	NEED(pr);
	pair_take(pr, &pair);
	run_of(o, &run);
	return keep(verity_op_open(name, &pair, &run, &err), &err);
}

API int fv_result_layout(const fv_result *r, struct fv_layout *l)
{
	struct fv_layout full;
	const struct verity_layout *in;

	NEED(r);
	NEED(l);
	if (l->size < offsetof(struct fv_layout, data_blocks) +
			      sizeof(l->data_blocks))
		return fail(EINVAL, "fv_result_layout: size %zu is too small",
			    l->size);
	if (!r->has_layout)
		return fail(EINVAL, "fv_result_layout: the result has no "
				    "layout");
	in = &r->layout;
	memset(&full, 0, sizeof(full));
	full.data_blocks = in->geo.data_blocks;
	full.data_bytes = in->data_bytes;
	full.hash_area_start = in->hash_area_start;
	full.tree_offset = in->tree_offset;
	full.tree_blocks = in->geo.tree_blocks;
	full.hash_end = in->hash_end;
	full.levels = in->geo.levels;
	full.digest_size = (unsigned)in->geo.digest_size;
	full.fec_roots = in->fec.roots;
	full.fec_roots_from = (enum fv_roots_from)in->fec.roots_source;
	full.fec_rsn = in->fec.rsn;
	full.fec_on_hash_device = in->fec.on_hash_device;
	full.fec_offset = in->fec.offset;
	full.fec_blocks = in->fec.blocks;
	full.fec_rounds = in->fec.rounds;
	full.fec_parity_bytes = in->fec.parity_bytes;
	full.size = l->size < sizeof(full) ? l->size : sizeof(full);
	memcpy(l, &full, full.size);
	return 0;
}

API int fv_result_fec(const fv_result *r, struct fv_fec_report *f)
{
	struct fv_fec_report full;

	NEED(r);
	NEED(f);
	if (f->size < offsetof(struct fv_fec_report, bad_blocks) +
			      sizeof(f->bad_blocks))
		return fail(EINVAL, "fv_result_fec: size %zu is too small",
			    f->size);
	if (!r->has_fec)
		return fail(ENODATA, "the action ran without parity");
	memset(&full, 0, sizeof(full));
	full.bad_blocks = r->fec.bad_blocks;
	full.repaired = r->fec.repaired;
	full.passes = r->fec.passes;
	full.stale_codewords = r->fec.stale_codewords;
	full.stale_rounds = r->fec.stale_rounds;
	full.unchecked_rounds = r->fec.unchecked_rounds;
	full.parity_rewritten = r->fec.parity_rewritten;
	full.rewrite_limit = r->fec.rewrite_limit;
	full.before_root_matches = r->fec.before.root_matches;
	full.before_bad_data_blocks = r->fec.before.bad_data_blocks;
	full.before_bad_hash_blocks = r->fec.before.bad_hash_blocks;
	full.before_bad_padding = r->fec.before.bad_padding;
	full.before_unreadable = r->fec.before.unreadable_blocks;
	full.before_unchecked_data_blocks = r->fec.before.unchecked_data_blocks;
	full.before_unchecked_hash_blocks = r->fec.before.unchecked_hash_blocks;
	full.size = f->size < sizeof(full) ? f->size : sizeof(full);
	memcpy(f, &full, full.size);
	return 0;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

API const char *fv_result_hashing_reason(const fv_result *r)
{
	return r ? or_empty(r->info.path_reason) : NULL;
}

API const char *fv_result_hashing_kernel(const fv_result *r)
{
	return r ? or_empty(r->info.kernel) : NULL;
}

API const char *fv_result_hashing_provider(const fv_result *r)
{
	return r ? r->info.provider : NULL;
}

API enum fv_trust fv_result_trust(const fv_result *r)
{
	return r ? (enum fv_trust)r->trust : FV_TRUST_UNSIGNED;
}

API const char *fv_result_signer(const fv_result *r)
{
	return r ? r->sig.signer : NULL;
}

API const char *fv_result_signature_warning(const fv_result *r)
{
	return r ? r->sig.warning : NULL;
}

/* --- files around pairs ---------------------------------------------- */

#define ROOT_FILE_MAX 4096

API int fv_root_hash_file_read(const char *path, char *hex, size_t size)
{
	struct ht_error err;
	uint8_t *text;
	size_t len, bad;
	int r;

	NEED(path);
	NEED(hex);
	r = verity_read_file(path, "root hash file", ROOT_FILE_MAX, &text, &len,
			     &err);
	if (r)
		return keep(r == -ENOENT ? -EINVAL : r, &err);
	r = verity_root_text_parse(text, len, hex, size, &bad);
	free(text);
	if (r && bad)
		return fail(EINVAL,
			    "%s: invalid root hash string specified: byte %zu "
			    "is not a hex digit (the file holds the hex root "
			    "hash, and nothing after it but white space)",
			    path, bad);
	if (r)
		return fail(EINVAL,
			    "%s: invalid root hash string specified (more "
			    "than %zu hex digits)",
			    path, size ? size - 1 : 0);
	return 0;
}

static int bytes_at(const struct verity_device *d, uint64_t off,
		    const void *want, size_t n)
{
	uint8_t m[8];

	return n <= sizeof(m) && off + n <= d->size &&
	       !verity_device_read(d, off, m, n, NULL) && !memcmp(m, want, n);
}

API enum fv_superblock_at fv_superblock_probe(const char *path,
					      uint64_t offset)
{
	struct verity_device d;
	enum fv_superblock_at at = FV_SUPERBLOCK_NONE;

	if (!path || verity_device_open(&d, path, VERITY_OPEN_READ, NULL))
		return FV_SUPERBLOCK_NONE;
	if (bytes_at(&d, offset, "verity\0\0", 8))
		at = FV_SUPERBLOCK_FOUND;
	else if (bytes_at(&d, offset, VERITY_SB_UNFINISHED,
			  sizeof(VERITY_SB_UNFINISHED)))
		at = FV_SUPERBLOCK_UNFINISHED;
	verity_device_close(&d);
	return at;
}

/* At most this many places are looked at: one per 4 KiB of the last
 * part of the image, where format --hash-offset puts an appended tree's
 * superblock (the tree of 4 KiB blocks and sha256 is 1/127 of the
 * data). */
#define SCAN_MAX 16384

API int fv_superblock_search(const char *path, uint64_t skip, uint64_t *offset)
{
	struct verity_device h;
	struct ht_error err;
	uint64_t from;
	int r;

	NEED(path);
	NEED(offset);
	if ((r = verity_device_open(&h, path, VERITY_OPEN_READ, &err)))
		return keep(r, &err);
	from = h.size - h.size / 64;
	from -= from % 4096;
	if (h.size / 64 / 4096 > SCAN_MAX)
		from = h.size - (uint64_t)SCAN_MAX * 4096;
	r = -ENOENT;
	for (uint64_t off = from; off + 512 <= h.size; off += 4096)
		if (off != skip && bytes_at(&h, off, "verity\0\0", 8)) {
			*offset = off;
			r = 0;
			break;
		}
	verity_device_close(&h);
	return r ? fail(ENOENT, "%s: no superblock where an appended tree's "
				"would be",
			path)
		 : 0;
}

API int fv_pair_sidecar(const char *image, fv_pair **out)
{
	struct verity_sidecar side;
	struct verity_pair sp;
	struct ht_error err;
	const char *sig_path = NULL;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	fv_pair *pr;
	int r;

	NEED(out);
	*out = NULL;
	NEED(image);
	if ((r = verity_sidecar_names(image, &side, &err)))
		return keep(r, &err);
	memset(&sp, 0, sizeof(sp));
	verity_sidecar_pair(&side, image, &sp, &sig_path);
	if ((r = fv_pair_new(image, side.tree, &pr))) {
		verity_sidecar_free(&side);
		return r;
	}
	if (sp.fec.region.path)
		r = fv_pair_set_fec(pr, sp.fec.region.path, 0, 0);
	if (!r && access(side.roothash, F_OK) == 0 &&
	    !(r = fv_root_hash_file_read(side.roothash, hex, sizeof(hex))))
		r = fv_pair_set_root_hex(pr, hex);
	if (!r && sig_path) {
		uint8_t *der;
		size_t len;

		if ((r = verity_read_signature(sig_path, &der, &len, &err))) {
			keep(r, &err);
		} else {
			r = fv_pair_set_signature(pr, der, len, sig_path);
			free(der);
			pr->pair.signature_found = 1;
		}
	}
	verity_sidecar_free(&side);
	if (r) {
		fv_pair_free(pr);
		return r;
	}
	pr->pair.container = VERITY_CONTAINER_SIDECAR;
	*out = pr;
	return 0;
}

API const char *fv_same_storage(const char *a, const char *b)
{
	return a && b ? verity_path_same_storage(a, b) : NULL;
}

_Static_assert((unsigned)FV_SIDECAR_SIGNATURE ==
			       (unsigned)VERITY_SIDECAR_SIGNATURE &&
		       (unsigned)FV_SIDECAR_FEC == (unsigned)VERITY_SIDECAR_FEC,
	       "fv_sidecar_file and the sidecar flags differ");

/* *dst = a copy of s, when dst is wanted. */
static int give(char **dst, const char *s)
{
	if (!dst)
		return 0;
	if (!(*dst = strdup(s)))
		return fail(ENOMEM, "out of memory");
	return 0;
}

API int fv_sidecar_names(const char *image, char **tree, char **roothash,
			 char **signature, char **fec)
{
	struct verity_sidecar side;
	struct ht_error err;
	int r;

	NEED(image);
	if ((r = verity_sidecar_names(image, &side, &err)))
		return keep(r, &err);
	if ((r = give(tree, side.tree)) || (r = give(roothash, side.roothash)) ||
	    (r = give(signature, side.signature)) || (r = give(fec, side.fec))) {
		if (tree && r) {
			free(*tree);
			*tree = NULL;
		}
		if (roothash && r) {
			free(*roothash);
			*roothash = NULL;
		}
		if (signature && r) {
			free(*signature);
			*signature = NULL;
		}
	}
	verity_sidecar_free(&side);
	return r;
}

API int fv_sidecar_prune(const char *image, unsigned kept, unsigned *removed)
{
	struct verity_sidecar side;
	struct verity_pair pair;
	struct ht_error err;
	unsigned gone = 0;
	int r;

	NEED(image);
	if (kept & ~(unsigned)(FV_SIDECAR_SIGNATURE | FV_SIDECAR_FEC))
		return fail(EINVAL, "fv_sidecar_prune: unknown files %#x", kept);
	if ((r = verity_sidecar_names(image, &side, &err)))
		return keep(r, &err);
	memset(&pair, 0, sizeof(pair));
	if (kept & FV_SIDECAR_FEC)
		pair.fec.region.path = side.fec;
	r = verity_sidecar_prune(&side, &pair, !!(kept & FV_SIDECAR_SIGNATURE),
				 &gone, &err);
	verity_sidecar_free(&side);
	if (removed)
		*removed = gone;
	return r ? keep(r, &err) : 0;
}

API int fv_output_write(const char *path, const char *what, const void *buf,
			size_t len)
{
	struct ht_error err;

	NEED(path);
	NEED(what);
	if (len && !buf)
		return fail(EINVAL, "fv_output_write: buf is NULL");
	return keep(verity_write_file(path, what, buf, len, &err), &err);
}

API int fv_params_check(const fv_params *p)
{
	struct ht_error err;

	NEED(p);
	return keep(verity_params_validate(&p->p, &err), &err);
}

API int fv_signature_read(const char *path, uint8_t **der, size_t *len)
{
	struct ht_error err;

	NEED(path);
	NEED(der);
	NEED(len);
	*der = NULL;
	*len = 0;
	return keep(verity_read_signature(path, der, len, &err), &err);
}

API int fv_refuse_sparse(const char *path)
{
	struct ht_error err;

	NEED(path);
	return keep(verity_container_refuse_sparse(path, &err), &err);
}

API const char *fv_sha256_kernel_name(enum fv_sha256_kernel k)
{
	if ((unsigned)k > FV_SHA256_THREE_WAY) {
		fail(EINVAL, "no SHA-256 kernel %d", (int)k);
		return NULL;
	}
	return ht_sha256_kernel_name(ht_sha256_kernel_choose((enum sha256_choice)k));
}

/* --- signers ---------------------------------------------------------- */

struct fv_signer {
	char *key, *cert, *passphrase, *module;
	unsigned flags;
};

API int fv_signer_new(const char *key, const char *cert, fv_signer **out)
{
	fv_signer *s;

	NEED(out);
	*out = NULL;
	NEED(key);
	NEED(cert);
	if (!(s = calloc(1, sizeof(*s))))
		return fail(ENOMEM, "out of memory");
	if (set_string(&s->key, key) || set_string(&s->cert, cert)) {
		fv_signer_free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static void wipe(char *p)
{
	if (p)
		explicit_bzero(p, strlen(p));
	free(p);
}

API void fv_signer_free(fv_signer *s)
{
	if (!s)
		return;
	free(s->key);
	free(s->cert);
	wipe(s->passphrase);
	free(s->module);
	free(s);
}

API int fv_signer_set_passphrase(fv_signer *s, const char *passphrase)
{
	char *copy = NULL;

	NEED(s);
	if (passphrase && !(copy = strdup(passphrase)))
		return fail(ENOMEM, "out of memory");
	wipe(s->passphrase);
	s->passphrase = copy;
	return 0;
}

API int fv_signer_set_pkcs11_module(fv_signer *s, const char *path)
{
	NEED(s);
	return set_string(&s->module, path);
}

API int fv_signer_set_flags(fv_signer *s, unsigned flags)
{
	NEED(s);
	if (flags & ~(unsigned)FV_SIGN_EMBED_CERT)
		return fail(EINVAL, "unknown signing flags %#x", flags);
	s->flags = flags;
	return 0;
}

API int fv_signer_sign(const fv_signer *s, const char *root_hex, uint8_t **der,
		       size_t *len)
{
	struct ht_error err;
	struct verity_signer vs;

	NEED(s);
	NEED(root_hex);
	NEED(der);
	NEED(len);
	vs = (struct verity_signer){s->key, s->cert, s->passphrase, s->module,
				    !!(s->flags & FV_SIGN_EMBED_CERT)};
	return keep(verity_sign(&vs, root_hex, der, len, &err), &err);
}

API int fv_ddi_signature_json(const char *root_hex, const char *cert,
			      const uint8_t *der, size_t len, char **json)
{
	struct ht_error err;
	char fp[65];
	int r;

	NEED(root_hex);
	NEED(cert);
	NEED(der);
	NEED(json);
	*json = NULL;
	if ((r = verity_cert_fingerprint(cert, fp, &err)) ||
	    (r = verity_ddi_sig_json_make(root_hex, fp, der, len, json, &err)))
		return keep(r, &err);
	return 0;
}

API int fv_input_read(const char *path, const char *what, size_t max,
		      uint8_t **buf, size_t *len)
{
	struct ht_error err;
	int r;

	NEED(path);
	NEED(what);
	NEED(buf);
	NEED(len);
	*buf = NULL;
	r = verity_read_file(path, what, max, buf, len, &err);
	return r ? keep(r == -ENOENT ? -EINVAL : r, &err) : 0;
}

/* --- disk images --------------------------------------------------------- */

API int fv_image_ddi_disk(const fv_image *img, struct fv_ddi_disk *d)
{
	struct fv_ddi_disk full;

	NEED(img);
	NEED(d);
	if (!img->ddi_read)
		return fail(EINVAL, "%s: not opened as a disk image", img->path);
	if (d->size < offsetof(struct fv_ddi_disk, sector_size) +
			      sizeof(d->sector_size))
		return fail(EINVAL, "fv_image_ddi_disk: size %zu is too small",
			    d->size);
	memset(&full, 0, sizeof(full));
	full.sector_size = img->ddi.gpt.h.sector;
	full.disk_uuid = img->ddi.gpt.h.disk_uuid;
	full.partitions = img->ddi.gpt.nparts;
	full.size = d->size < sizeof(full) ? d->size : sizeof(full);
	memcpy(d, &full, full.size);
	return 0;
}

static void gpt_partition_of(const struct gpt_partition *g,
			     struct fv_gpt_partition *p)
{
	const char *type;

	memset(p, 0, sizeof(*p));
	if (!g)
		return;
	type = verity_ddi_type_name(g->type);
	p->index = g->index;
	p->type = type ? type : g->type;
	p->label = g->label;
	p->uuid = g->uuid;
	p->offset = g->offset;
	p->bytes = g->size;
}

static const struct ddi_verity *ddi_at(const fv_image *img, size_t i)
{
	if (!img || !img->ddi_read) {
		fail(EINVAL, "%s: not opened as a disk image",
		     img ? img->path : "(NULL)");
		return NULL;
	}
	if (i >= img->ddi.nv) {
		fail(EINVAL, "%s: no pair %zu (%zu pairs)", img->path, i,
		     img->ddi.nv);
		return NULL;
	}
	return &img->ddi.v[i];
}

API int fv_image_ddi_pair(const fv_image *img, size_t i, struct fv_ddi_pair *p)
{
	const struct ddi_verity *v = ddi_at(img, i);
	struct fv_ddi_pair full;

	NEED(p);
	if (!v)
		return -EINVAL;
	if (p->size < offsetof(struct fv_ddi_pair, role) + sizeof(p->role))
		return fail(EINVAL, "fv_image_ddi_pair: size %zu is too small",
			    p->size);
	memset(&full, 0, sizeof(full));
	full.role = verity_ddi_role_name(v->role);
	full.arch = v->arch;
	full.root_hex = v->root_hex;
	full.is_signed = v->sig != NULL;
	full.fingerprint = v->fingerprint;
	gpt_partition_of(v->data, &full.data);
	gpt_partition_of(v->hash, &full.hash);
	gpt_partition_of(v->sig, &full.signature);
	full.size = p->size < sizeof(full) ? p->size : sizeof(full);
	memcpy(p, &full, full.size);
	return 0;
}

API int fv_image_signer(const fv_image *img, size_t i, char **subject)
{
	const struct ddi_verity *v = ddi_at(img, i);
	struct verity_sig_check who;
	struct ht_error err;
	char name[64];
	int r;

	NEED(subject);
	*subject = NULL;
	if (!v)
		return -EINVAL;
	if (!v->sig)
		return 0;
	/* named as messages name the partition */
	snprintf(name, sizeof(name), "partition %u", v->sig->index);
	memset(&who, 0, sizeof(who));
	if ((r = verity_signature_signer(
		     &(struct verity_sig){v->signature, v->signature_len, name},
		     &who, &err)))
		return keep(r, &err);
	if (!(*subject = strdup(who.signer)))
		return fail(ENOMEM, "out of memory");
	return 0;
}

API const char *fv_result_signer_fingerprint(const fv_result *r)
{
	return r ? r->sig.fingerprint : NULL;
}

/* --- measuring ------------------------------------------------------------ */

_Static_assert((int)FV_KERNEL_PORTABLE == (int)SHA256_KERNEL_PORTABLE &&
		       (int)FV_KERNEL_SHANI == (int)SHA256_KERNEL_SHANI &&
		       (int)FV_KERNEL_ARMV8 == (int)SHA256_KERNEL_ARMV8 &&
		       (int)FV_KERNEL_SHANI3 == (int)SHA256_KERNEL_SHANI3 &&
		       (int)FV_KERNEL_SHANI3 + 1 == (int)SHA256_KERNEL_COUNT,
	       "fv_kernel and sha256_kernel differ");

static int kernel_known(enum fv_kernel k)
{
	return (unsigned)k < SHA256_KERNEL_COUNT;
}

API int fv_kernel_available(enum fv_kernel k)
{
	return kernel_known(k) &&
	       ht_sha256_kernel_available((enum sha256_kernel)k);
}

API const char *fv_kernel_name(enum fv_kernel k)
{
	return kernel_known(k) ? ht_sha256_kernel_name((enum sha256_kernel)k)
			       : NULL;
}

API const char *fv_kernel_label(enum fv_kernel k)
{
	return kernel_known(k) ? ht_sha256_kernel_label((enum sha256_kernel)k)
			       : NULL;
}

API enum fv_kernel fv_kernel_of_arch(void)
{
	return (enum fv_kernel)ht_sha256_arch_kernel();
}

API enum fv_kernel fv_kernel_chosen(enum fv_sha256_kernel choice)
{
	if ((unsigned)choice > FV_SHA256_THREE_WAY)
		choice = FV_SHA256_FASTEST;
	return (enum fv_kernel)ht_sha256_kernel_choose(
		(enum sha256_choice)choice);
}

API const char *fv_cpu_features(void)
{
	return ht_sha256_cpu_features();
}

struct fv_salted {
	struct sha256_salted_state st;
};

API int fv_salted_new(const uint8_t *salt, size_t len, fv_salted **out)
{
	fv_salted *s;

	NEED(out);
	*out = NULL;
	if (len > VERITY_MAX_SALT_SIZE || (len && !salt))
		return fail(EINVAL, "a salt of %zu bytes (at most %d)", len,
			    VERITY_MAX_SALT_SIZE);
	if (!(s = calloc(1, sizeof(*s))))
		return fail(ENOMEM, "out of memory");
	ht_sha256_salted_init(&s->st, salt, len);
	*out = s;
	return 0;
}

API void fv_salted_free(fv_salted *s)
{
	free(s);
}

static int kernel_usable(enum fv_kernel k)
{
	if (!fv_kernel_available(k))
		return fail(EINVAL, "this CPU has no SHA-256 kernel %d",
			    (int)k);
	return 0;
}

API int fv_kernel_hash(enum fv_kernel k, const fv_salted *s, const uint8_t *msgs,
		       size_t len, size_t count, uint8_t *out, size_t stride)
{
	int r;

	NEED(s);
	NEED(out);
	if ((r = kernel_usable(k)))
		return r;
	if ((count && !msgs) || stride < 32)
		return fail(EINVAL, "fv_kernel_hash: no messages, or a stride "
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
	if ((r = kernel_usable(k)))
		return r;
	if (len && !msg)
		return fail(EINVAL, "fv_kernel_hash_one: msg is NULL");
	sha256_finup_one((enum sha256_kernel)k, &s->st, msg, len, out);
	return 0;
}

struct fv_rs {
	struct fec_rs rs;
};

API int fv_rs_new(unsigned roots, fv_rs **out)
{
	struct ht_error err;
	fv_rs *rs;

	NEED(out);
	*out = NULL;
	if (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS)
		return fail(EINVAL, "%u roots (%d to %d)", roots, FEC_MIN_ROOTS,
			    FEC_MAX_ROOTS);
	if (!(rs = calloc(1, sizeof(*rs))))
		return fail(ENOMEM, "out of memory");
	if (verity_fec_rs_init(&rs->rs, roots, &err)) {
		free(rs);
		return keep(-ENOMEM, &err);
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

struct fv_memtree {
	struct verity_memtree mt;
	struct verity_device dev;
	int has_dev;
};

API int fv_memtree_new(const fv_params *p, const uint8_t *data, const char *path,
		       const fv_options *o, fv_memtree **out)
{
	struct ht_error err;
	fv_memtree *m;
	int r;

	NEED(out);
	*out = NULL;
	NEED(p);
	if (!data && !path)
		return fail(EINVAL, "fv_memtree_new: no data and no path");
	if ((r = verity_params_validate(&p->p, &err)))
		return keep(r, &err);
	if (!(m = calloc(1, sizeof(*m))))
		return fail(ENOMEM, "out of memory");
	if (!data) {
		if ((r = verity_device_open(&m->dev, path, VERITY_OPEN_READ,
					    &err))) {
			free(m);
			return keep(r, &err);
		}
		m->has_dev = 1;
		if (p->p.data_blocks > m->dev.size / p->p.data_block_size) {
			fv_memtree_free(m);
			return fail(EINVAL,
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
		return keep(r, &err);
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
		return fail(EINVAL, "%u threads (at most %d)", threads,
			    VERITY_MAX_THREADS);
	if ((r = verity_memtree_build(&m->mt,
				      threads ? threads
					      : verity_default_threads(),
				      digest, &err)))
		return keep(r, &err);
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
	return m ? or_empty(m->mt.info.hash_path) : NULL;
}

API const char *fv_memtree_hashing_reason(const fv_memtree *m)
{
	return m ? or_empty(m->mt.info.path_reason) : NULL;
}

API int fv_device_size(const char *path, uint64_t *size)
{
	struct verity_device d;
	struct ht_error err;
	int r;

	NEED(path);
	NEED(size);
	if ((r = verity_device_open(&d, path, VERITY_OPEN_READ, &err)))
		return keep(r, &err);
	*size = d.size;
	verity_device_close(&d);
	return 0;
}

/* --- Android images as pairs ---------------------------------------- */

API int fv_avb_pair(const fv_avb *a, fv_pair **out)
{
	fv_pair *pr;
	int r;

	NEED(a);
	NEED(out);
	*out = NULL;
	if (!a->paired || a->shown)
		return avb_unpaired(a);
	if ((r = fv_pair_new(a->path, a->path, &pr)))
		return r;
	pr->pair = a->pair;
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	pr->params.p = a->pair.params;
	if ((r = set_string(&pr->fec, a->pair.fec.region.path)) ||
	    (r = set_string(&pr->image, a->path))) {
		fv_pair_free(pr);
		return r;
	}
	pr->pair.fec.region.path = pr->fec;
	pr->pair.container = VERITY_CONTAINER_AVB;
	verity_hex_encode(a->pair.root, a->pair.root_size, pr->root_hex);
	pr->of_image = 1;
	pr->opened = a->trust;
	*out = pr;
	return 0;
}


/* --- Android images described ---------------------------------------- */

_Static_assert((int)FV_AVB_PROPERTY == AVB_TAG_PROPERTY &&
		       (int)FV_AVB_HASHTREE == AVB_TAG_HASHTREE &&
		       (int)FV_AVB_HASH == AVB_TAG_HASH &&
		       (int)FV_AVB_KERNEL_CMDLINE == AVB_TAG_KERNEL_CMDLINE &&
		       (int)FV_AVB_CHAIN_PARTITION == AVB_TAG_CHAIN_PARTITION,
	       "fv_avb_tag and the AVB tags differ");

/* Copies full (of its type) into out, as much as out->size says: the
 * versioned structures' one rule. */
#define GIVE(out, full, first)                                               \
	do {                                                                 \
		if ((out)->size < offsetof(__typeof__(full), first) +         \
					  sizeof((full).first))               \
			return fail(EINVAL, "%s: size %zu is too small",      \
				    __func__, (out)->size);                   \
		(full).size = (out)->size < sizeof(full) ? (out)->size        \
							 : sizeof(full);      \
		memcpy((out), &(full), (full).size);                          \
	} while (0)

API int fv_avb_footer_of(const fv_avb *a, struct fv_avb_footer *f)
{
	struct fv_avb_footer full;
	const struct avb_footer *ft;

	NEED(a);
	NEED(f);
	if (!a->img.has_footer)
		return fail(ENODATA, "%s: a vbmeta image, with no footer",
			    a->path);
	ft = &a->img.footer;
	memset(&full, 0, sizeof(full));
	full.version_major = ft->version_major;
	full.version_minor = ft->version_minor;
	full.image_size = a->img.file_size;
	full.original_image_size = ft->original_image_size;
	full.vbmeta_offset = ft->vbmeta_offset;
	full.vbmeta_size = ft->vbmeta_size;
	GIVE(f, full, version_major);
	return 0;
}

API int fv_avb_header_of(const fv_avb *a, struct fv_avb_header *h)
{
	struct fv_avb_header full;
	const struct avb_header *in;

	NEED(a);
	NEED(h);
	in = &a->img.vbmeta.h;
	memset(&full, 0, sizeof(full));
	full.required_major = in->required_major;
	full.required_minor = in->required_minor;
	full.header_size = AVB_HEADER_SIZE;
	full.auth_size = in->auth_size;
	full.aux_size = in->aux_size;
	full.algorithm = verity_avb_algorithm(in->algorithm)->name;
	full.public_key_sha1 = a->key_sha1;
	full.rollback_index = in->rollback_index;
	full.flags = in->flags;
	full.rollback_index_location = in->rollback_index_location;
	full.release = in->release;
	GIVE(h, full, required_major);
	return 0;
}

API size_t fv_avb_descriptors(const fv_avb *a)
{
	return a ? a->img.vbmeta.ndesc : 0;
}

/* Descriptor i of tag (any tag: tag UINT64_MAX), or NULL with the
 * message. */
static const struct avb_descriptor *descriptor(const fv_avb *a, size_t i,
					       uint64_t tag)
{
	const struct avb_descriptor *d;

	if (!a || i >= a->img.vbmeta.ndesc) {
		fail(EINVAL, "%s: no descriptor %zu", a ? a->path : "(NULL)",
		     i);
		return NULL;
	}
	d = &a->img.vbmeta.desc[i];
	if (tag != UINT64_MAX && d->tag != tag) {
		fail(EINVAL, "%s: descriptor %zu has tag %llu, not %llu",
		     a->path, i, (unsigned long long)d->tag,
		     (unsigned long long)tag);
		return NULL;
	}
	return d;
}

API uint64_t fv_avb_descriptor_tag(const fv_avb *a, size_t i, uint64_t *bytes)
{
	const struct avb_descriptor *d = descriptor(a, i, UINT64_MAX);

	if (bytes)
		*bytes = d ? d->raw_size - AVB_DESCRIPTOR_HEADER : 0;
	return d ? d->tag : UINT64_MAX;
}

API int fv_avb_property(const fv_avb *a, size_t i, struct fv_avb_property *out)
{
	const struct avb_descriptor *d = descriptor(a, i, AVB_TAG_PROPERTY);
	struct fv_avb_property full;

	NEED(out);
	if (!d)
		return -EINVAL;
	memset(&full, 0, sizeof(full));
	full.key = d->property.key;
	full.key_len = (size_t)d->property.key_len;
	full.value = d->property.value;
	full.value_len = d->property.value_len;
	GIVE(out, full, key);
	return 0;
}

API int fv_avb_hashtree(const fv_avb *a, size_t i, struct fv_avb_hashtree *out)
{
	const struct avb_descriptor *d = descriptor(a, i, AVB_TAG_HASHTREE);
	struct fv_avb_hashtree full;

	NEED(out);
	if (!d)
		return -EINVAL;
	memset(&full, 0, sizeof(full));
	full.dm_verity_version = d->hashtree.dm_verity_version;
	full.image_size = d->hashtree.p.image_size;
	full.tree_offset = d->hashtree.tree_offset;
	full.tree_size = d->hashtree.tree_size;
	full.data_block_size = d->hashtree.data_block_size;
	full.hash_block_size = d->hashtree.hash_block_size;
	full.fec_num_roots = d->hashtree.fec_num_roots;
	full.fec_offset = d->hashtree.fec_offset;
	full.fec_size = d->hashtree.fec_size;
	full.hash_algorithm = d->hashtree.p.hash_algorithm;
	full.partition_name = d->hashtree.p.name;
	full.partition_name_len = d->hashtree.p.name_len;
	full.salt = d->hashtree.p.salt;
	full.salt_len = d->hashtree.p.salt_len;
	full.root_digest = d->hashtree.p.digest;
	full.root_digest_len = d->hashtree.p.digest_len;
	full.flags = d->hashtree.p.flags;
	GIVE(out, full, dm_verity_version);
	return 0;
}

API int fv_avb_hash(const fv_avb *a, size_t i, struct fv_avb_hash *out)
{
	const struct avb_descriptor *d = descriptor(a, i, AVB_TAG_HASH);
	struct fv_avb_hash full;

	NEED(out);
	if (!d)
		return -EINVAL;
	memset(&full, 0, sizeof(full));
	full.image_size = d->hash.p.image_size;
	full.hash_algorithm = d->hash.p.hash_algorithm;
	full.partition_name = d->hash.p.name;
	full.partition_name_len = d->hash.p.name_len;
	full.salt = d->hash.p.salt;
	full.salt_len = d->hash.p.salt_len;
	full.digest = d->hash.p.digest;
	full.digest_len = d->hash.p.digest_len;
	full.flags = d->hash.p.flags;
	GIVE(out, full, image_size);
	return 0;
}

API int fv_avb_kernel_cmdline(const fv_avb *a, size_t i,
			      struct fv_avb_kernel_cmdline *out)
{
	const struct avb_descriptor *d =
		descriptor(a, i, AVB_TAG_KERNEL_CMDLINE);
	struct fv_avb_kernel_cmdline full;

	NEED(out);
	if (!d)
		return -EINVAL;
	memset(&full, 0, sizeof(full));
	full.flags = d->cmdline.flags;
	full.cmdline = d->cmdline.value;
	full.cmdline_len = (size_t)d->cmdline.value_len;
	GIVE(out, full, flags);
	return 0;
}

API int fv_avb_chain_partition(const fv_avb *a, size_t i,
			       struct fv_avb_chain_partition *out)
{
	const struct avb_descriptor *d =
		descriptor(a, i, AVB_TAG_CHAIN_PARTITION);
	struct fv_avb_chain_partition full;
	struct avb_vbmeta key_only;

	NEED(out);
	if (!d)
		return -EINVAL;
	memset(&full, 0, sizeof(full));
	full.partition_name = d->chain.name;
	full.partition_name_len = d->chain.name_len;
	full.rollback_index_location = d->chain.rollback_index_location;
	full.public_key = d->chain.public_key;
	full.public_key_len = d->chain.public_key_len;
	/* the key's SHA-1 as a vbmeta's */
	memset(&key_only, 0, sizeof(key_only));
	key_only.public_key = d->chain.public_key;
	key_only.h.public_key_size = d->chain.public_key_len;
	key_sha1(&key_only, full.public_key_sha1);
	full.flags = d->chain.flags;
	GIVE(out, full, partition_name);
	return 0;
}

/* --- verify_image's steps -------------------------------------------- */

API int fv_avb_check_signature(fv_avb *a)
{
	enum avb_judgement why;
	struct ht_error err;
	int r;

	NEED(a);
	if ((r = verity_avb_vbmeta_judge(&a->img.vbmeta, a->path, VERITY_ANCHOR_NONE,
				  NULL, 0, 0, &a->trust, &why, &err)))
		return keep(r, &err);
	a->shown = 0;
	return 0;
}

API int fv_avb_check_key_blob(fv_avb *a, const uint8_t *blob, size_t len)
{
	enum avb_judgement why;
	struct ht_error err;

	NEED(a);
	NEED(blob);
	return keep(verity_avb_vbmeta_judge(&a->img.vbmeta, a->path,
				     VERITY_ANCHOR_KEY, blob, len, 0, &a->trust,
				     &why, &err),
		    &err);
}

API int fv_avb_check_partitions(const fv_avb *a)
{
	struct ht_error err;

	NEED(a);
	return keep(verity_avb_check_partitions(&a->img, &err), &err);
}

API int fv_avb_described_image(const fv_avb *a, size_t i, char **path)
{
	const struct avb_descriptor *d = descriptor(a, i, UINT64_MAX);
	struct ht_error err;

	NEED(path);
	*path = NULL;
	if (!d)
		return -EINVAL;
	return keep(verity_avb_described_image(&a->img, d, path, &err), &err);
}

API int fv_avb_check_hash(const fv_avb *a, size_t i, const char *image)
{
	const struct avb_descriptor *d = descriptor(a, i, AVB_TAG_HASH);
	struct ht_error err;

	NEED(image);
	if (!d)
		return -EINVAL;
	return keep(verity_avb_hash_check(image, d, &err), &err);
}

API int fv_avb_descriptor_pair(const fv_avb *a, size_t i, const char *image,
			       fv_pair **out)
{
	const struct avb_descriptor *d = descriptor(a, i, AVB_TAG_HASHTREE);
	struct verity_device dev;
	struct verity_pair vp;
	struct ht_error err;
	fv_pair *pr;
	int unusable, r;

	NEED(image);
	NEED(out);
	*out = NULL;
	if (!d)
		return -EINVAL;
	if ((r = verity_device_open(&dev, image, VERITY_OPEN_READ, &err)))
		return keep(r, &err);
	r = verity_avb_hashtree_pair(image, dev.size, d, &vp, &unusable, &err);
	verity_device_close(&dev);
	if (r)
		return keep(r, &err);
	if ((r = fv_pair_new(image, image, &pr)))
		return r;
	pr->pair = vp;
	pr->pair.data.path = pr->data;
	pr->pair.hash.path = pr->hash;
	pr->params.p = vp.params;
	if ((r = set_string(&pr->fec, vp.fec.region.path))) {
		fv_pair_free(pr);
		return r;
	}
	pr->pair.fec.region.path = pr->fec;
	verity_hex_encode(vp.root, vp.root_size, pr->root_hex);
	*out = pr;
	return 0;
}

API const char *fv_name_shown(const void *name, size_t n, char *buf, size_t len)
{
	return ht_name_shown(name, n, buf, len);
}

/* --- Android images written ------------------------------------------- */

_Static_assert((unsigned)FV_FOOTER_DO_NOT_USE_AB == AVB_HASHTREE_DO_NOT_USE_AB &&
		       (unsigned)FV_FOOTER_CHECK_AT_MOST_ONCE ==
			       AVB_HASHTREE_CHECK_AT_MOST_ONCE,
	       "the footer flags and the descriptor's differ");

struct fv_vbmeta_opts {
	struct avb_vbmeta_opts vb; /* its pointers point below */
	char *key, *release, *append;
	struct avb_prop *props;
	char **strings; /* every string and value the options own */
	size_t nstrings;
	char **cmdlines, **includes;
	struct avb_chain *chains;
};

/* s (n bytes, then a NUL) kept by v; NULL when out of memory. */
static char *vb_keep(fv_vbmeta_opts *v, const void *p, size_t n)
{
	char **more = realloc(v->strings, (v->nstrings + 1) * sizeof(*more));
	char *c = malloc(n + 1);

	if (more)
		v->strings = more;
	if (!more || !c) {
		free(c);
		fail(ENOMEM, "out of memory");
		return NULL;
	}
	if (n)
		memcpy(c, p, n);
	c[n] = '\0';
	v->strings[v->nstrings++] = c;
	return c;
}

API fv_vbmeta_opts *fv_vbmeta_opts_new(void)
{
	fv_vbmeta_opts *v = calloc(1, sizeof(*v));

	if (!v)
		return out_of_memory();
	v->vb.algorithm = AVB_ALG_NONE;
	return v;
}

API void fv_vbmeta_opts_free(fv_vbmeta_opts *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nstrings; i++)
		free(v->strings[i]);
	free(v->strings);
	free(v->props);
	free(v->cmdlines);
	free(v->includes);
	free(v->chains);
	free(v);
}

API int fv_vbmeta_set_algorithm(fv_vbmeta_opts *v, const char *name,
				const char *key)
{
	int alg;

	NEED(v);
	NEED(name);
	if ((alg = verity_avb_algorithm_by_name(name)) < 0)
		return fail(EINVAL,
			    "Algorithm with name %s is not supported (NONE, "
			    "SHA256_RSA2048, SHA256_RSA4096, SHA256_RSA8192, "
			    "SHA512_RSA2048, SHA512_RSA4096, SHA512_RSA8192)",
			    name);
	if (key && !(key = vb_keep(v, key, strlen(key))))
		return -ENOMEM;
	v->vb.algorithm = alg;
	v->vb.key_path = key;
	return 0;
}

API int fv_vbmeta_set_rollback(fv_vbmeta_opts *v, uint64_t index,
			       uint32_t location)
{
	NEED(v);
	v->vb.rollback_index = index;
	v->vb.rollback_index_location = location;
	return 0;
}

API int fv_vbmeta_set_flags(fv_vbmeta_opts *v, uint32_t flags)
{
	NEED(v);
	v->vb.flags = flags;
	return 0;
}

API int fv_vbmeta_set_release(fv_vbmeta_opts *v, const char *release,
			      const char *append)
{
	NEED(v);
	if ((release && !(release = vb_keep(v, release, strlen(release)))) ||
	    (append && !(append = vb_keep(v, append, strlen(append)))))
		return -ENOMEM;
	v->vb.release = release;
	v->vb.append_release = append;
	return 0;
}

/* One more slot in an array of n, of size each; NULL when out of
 * memory. */
static void *grow(void *array, size_t n, size_t size)
{
	void *more = realloc(array, (n + 1) * size);

	if (!more)
		fail(ENOMEM, "out of memory");
	return more;
}

API int fv_vbmeta_add_property(fv_vbmeta_opts *v, const char *key,
			       const uint8_t *value, size_t len)
{
	struct avb_prop *more;
	const char *k, *val;

	NEED(v);
	NEED(key);
	if (len && !value)
		return fail(EINVAL, "fv_vbmeta_add_property: value is NULL");
	if (!(k = vb_keep(v, key, strlen(key))) ||
	    !(val = vb_keep(v, value, len)) ||
	    !(more = grow(v->props, v->vb.nprops, sizeof(*more))))
		return -ENOMEM;
	v->props = more;
	v->props[v->vb.nprops++] = (struct avb_prop){k, (const uint8_t *)val,
						      len};
	v->vb.props = v->props;
	return 0;
}

/* A string kept and added to a list of n. */
static int add_string(fv_vbmeta_opts *v, char ***list, size_t *n,
		      const char *s)
{
	char *c, **more;

	if (!(c = vb_keep(v, s, strlen(s))) ||
	    !(more = grow(*list, *n, sizeof(*more))))
		return -ENOMEM;
	*list = more;
	(*list)[(*n)++] = c;
	return 0;
}

API int fv_vbmeta_add_kernel_cmdline(fv_vbmeta_opts *v, const char *cmdline)
{
	int r;

	NEED(v);
	NEED(cmdline);
	if ((r = add_string(v, &v->cmdlines, &v->vb.ncmdlines, cmdline)))
		return r;
	v->vb.cmdlines = (const char *const *)v->cmdlines;
	return 0;
}

API int fv_vbmeta_add_include(fv_vbmeta_opts *v, const char *image)
{
	int r;

	NEED(v);
	NEED(image);
	if ((r = add_string(v, &v->includes, &v->vb.nincludes, image)))
		return r;
	v->vb.includes = (const char *const *)v->includes;
	return 0;
}

API int fv_vbmeta_add_chain(fv_vbmeta_opts *v, const char *partition,
			    uint32_t location, const char *key_path)
{
	struct avb_chain *more;
	const char *name, *key;

	NEED(v);
	NEED(partition);
	NEED(key_path);
	if (!(name = vb_keep(v, partition, strlen(partition))) ||
	    !(key = vb_keep(v, key_path, strlen(key_path))) ||
	    !(more = grow(v->chains, v->vb.nchains, sizeof(*more))))
		return -ENOMEM;
	v->chains = more;
	v->chains[v->vb.nchains++] = (struct avb_chain){name, location, key};
	v->vb.chains = v->chains;
	return 0;
}

API int fv_vbmeta_required_minor(const fv_vbmeta_opts *v, unsigned *minor)
{
	NEED(v);
	NEED(minor);
	/* a rollback index location needs 1.2; the included images' needs
	 * count too */
	*minor = v->vb.rollback_index_location ? 2 : 0;
	for (size_t i = 0; i < v->vb.nincludes; i++) {
		struct avb_image img;
		struct ht_error err;
		int r;

		if ((r = verity_avb_image_read(v->vb.includes[i], &img, &err)))
			return keep(r, &err);
		if (img.vbmeta.h.required_minor > *minor)
			*minor = img.vbmeta.h.required_minor;
		verity_avb_image_free(&img);
	}
	return 0;
}

API int fv_avb_make_vbmeta_image(const char *output, const fv_vbmeta_opts *v,
				 uint64_t padding)
{
	struct ht_error err;

	NEED(output);
	NEED(v);
	for (size_t i = 0; i < v->vb.nincludes; i++)
		if (verity_path_same_storage(output, v->vb.includes[i]))
			return fail(EINVAL,
				    "%s: is the input %s: an output is never "
				    "written over what is read",
				    output, v->vb.includes[i]);
	return keep(verity_avb_make_vbmeta_image(output, &v->vb, padding, &err), &err);
}

struct fv_footer_opts {
	struct avb_footer_opts f; /* f.vb: vb's, its pointers below */
	enum fv_footer_kind kind;
	fv_vbmeta_opts *vb;
	char *name, *hash, *output_vbmeta;
	uint8_t salt[VERITY_MAX_SALT_SIZE];
};

API fv_footer_opts *fv_footer_opts_new(enum fv_footer_kind kind)
{
	fv_footer_opts *f;

	if (kind != FV_FOOTER_HASH && kind != FV_FOOTER_HASHTREE) {
		fail(EINVAL, "no footer of kind %d", (int)kind);
		return NULL;
	}
	if (!(f = calloc(1, sizeof(*f))) || !(f->vb = fv_vbmeta_opts_new())) {
		free(f);
		return out_of_memory();
	}
	f->kind = kind;
	f->f.partition_name = "";
	f->f.hash_algorithm = kind == FV_FOOTER_HASHTREE ? "sha1" : "sha256";
	f->f.block_size = 4096;
	f->f.fec = kind == FV_FOOTER_HASHTREE;
	f->f.roots = 2;
	f->f.vb = f->vb->vb;
	return f;
}

API void fv_footer_opts_free(fv_footer_opts *f)
{
	if (!f)
		return;
	fv_vbmeta_opts_free(f->vb);
	free(f->name);
	free(f->hash);
	free(f->output_vbmeta);
	free(f);
}

API int fv_footer_set_partition(fv_footer_opts *f, const char *name,
				uint64_t size)
{
	NEED(f);
	if (set_string(&f->name, name))
		return -ENOMEM;
	f->f.partition_name = f->name ? f->name : "";
	f->f.partition_size = size;
	return 0;
}

API int fv_footer_set_hash(fv_footer_opts *f, const char *algorithm,
			   uint32_t block_size)
{
	NEED(f);
	NEED(algorithm);
	if (!verity_avb_digest_size(algorithm))
		return fail(EINVAL, "hash algorithm %s not supported (sha1, "
				    "sha256, sha512)",
			    algorithm);
	if (set_string(&f->hash, algorithm))
		return -ENOMEM;
	f->f.hash_algorithm = f->hash;
	f->f.block_size = block_size;
	return 0;
}

API int fv_footer_set_salt(fv_footer_opts *f, const uint8_t *salt, size_t len)
{
	NEED(f);
	if (len > VERITY_MAX_SALT_SIZE || (len && !salt))
		return fail(EINVAL, "salt of %zu bytes is too long (at most %d)",
			    len, VERITY_MAX_SALT_SIZE);
	if (len)
		memcpy(f->salt, salt, len);
	f->f.salt = f->salt;
	f->f.salt_len = len;
	f->f.salt_given = 1;
	return 0;
}

API int fv_footer_set_fec(fv_footer_opts *f, unsigned roots)
{
	NEED(f);
	f->f.fec = roots != 0 && f->kind == FV_FOOTER_HASHTREE;
	f->f.roots = roots ? roots : 2;
	return 0;
}

API int fv_footer_set_flags(fv_footer_opts *f, unsigned flags)
{
	NEED(f);
	if (flags & ~(unsigned)(FV_FOOTER_DO_NOT_USE_AB |
				FV_FOOTER_CHECK_AT_MOST_ONCE |
				FV_FOOTER_DYNAMIC_SIZE | FV_FOOTER_DO_NOT_APPEND))
		return fail(EINVAL, "unknown footer flags %#x", flags);
	f->f.descriptor_flags =
		flags & (FV_FOOTER_DO_NOT_USE_AB | FV_FOOTER_CHECK_AT_MOST_ONCE);
	f->f.dynamic_size = !!(flags & FV_FOOTER_DYNAMIC_SIZE);
	f->f.do_not_append = !!(flags & FV_FOOTER_DO_NOT_APPEND);
	return 0;
}

API int fv_footer_set_output_vbmeta(fv_footer_opts *f, const char *path)
{
	NEED(f);
	if (set_string(&f->output_vbmeta, path))
		return -ENOMEM;
	f->f.output_vbmeta = f->output_vbmeta;
	return 0;
}

/* dst made a copy of src. */
static int vbmeta_copy(fv_vbmeta_opts *dst, const fv_vbmeta_opts *src)
{
	const struct avb_vbmeta_opts *o = &src->vb;
	int r = 0;

	if (!(r = fv_vbmeta_set_algorithm(dst, "NONE", o->key_path)))
		dst->vb.algorithm = o->algorithm;
	if (!r)
		r = fv_vbmeta_set_rollback(dst, o->rollback_index,
					   o->rollback_index_location);
	if (!r)
		r = fv_vbmeta_set_flags(dst, o->flags);
	if (!r)
		r = fv_vbmeta_set_release(dst, o->release, o->append_release);
	for (size_t i = 0; !r && i < o->nprops; i++)
		r = fv_vbmeta_add_property(dst, o->props[i].key,
					   o->props[i].value,
					   o->props[i].value_len);
	for (size_t i = 0; !r && i < o->ncmdlines; i++)
		r = fv_vbmeta_add_kernel_cmdline(dst, o->cmdlines[i]);
	for (size_t i = 0; !r && i < o->nchains; i++)
		r = fv_vbmeta_add_chain(dst, o->chains[i].name,
					o->chains[i].rollback_index_location,
					o->chains[i].key_path);
	for (size_t i = 0; !r && i < o->nincludes; i++)
		r = fv_vbmeta_add_include(dst, o->includes[i]);
	dst->vb.required_minor = o->required_minor;
	return r;
}

API int fv_footer_set_vbmeta(fv_footer_opts *f, const fv_vbmeta_opts *v)
{
	fv_vbmeta_opts *copy;
	int r;

	NEED(f);
	NEED(v);
	if (!(copy = fv_vbmeta_opts_new()))
		return -ENOMEM;
	if ((r = vbmeta_copy(copy, v))) {
		fv_vbmeta_opts_free(copy);
		return r;
	}
	fv_vbmeta_opts_free(f->vb);
	f->vb = copy;
	return 0;
}

/* f's options as the container takes them, for image. */
static struct avb_footer_opts footer_of(const fv_footer_opts *f,
					const char *image)
{
	struct avb_footer_opts o = f->f;

	o.image = image;
	o.vb = f->vb->vb;
	return o;
}

API uint64_t fv_avb_max_image_size(const fv_footer_opts *f)
{
	struct avb_footer_opts o;

	if (!f)
		return 0;
	o = footer_of(f, NULL);
	return verity_avb_max_image_size(&o, f->kind == FV_FOOTER_HASHTREE
					      ? AVB_FOOTER_HASHTREE
					      : AVB_FOOTER_HASH);
}

API int fv_avb_add_footer(const char *image, const fv_footer_opts *f,
			  const fv_options *opts)
{
	struct avb_footer_opts o;
	struct verity_outcome out;
	struct verity_run run;
	struct ht_error err;

	NEED(image);
	NEED(f);
	o = footer_of(f, image);
	if (f->kind == FV_FOOTER_HASH)
		return keep(verity_avb_add_hash_footer(&o, &err), &err);
	run_of(opts, &run);
	return keep(verity_op_avb_hashtree_footer(&o, &run, &out, &err), &err);
}

API int fv_avb_erase_footer(const char *image, unsigned flags)
{
	struct ht_error err;

	NEED(image);
	if (flags & ~(unsigned)FV_ERASE_KEEP_HASHTREE)
		return fail(EINVAL, "unknown erase flags %#x", flags);
	return keep(verity_avb_erase_footer(image, !!(flags & FV_ERASE_KEEP_HASHTREE),
				     &err),
		    &err);
}

API int fv_avb_public_key(const char *key, uint8_t **blob, size_t *len)
{
	struct ht_error err;

	NEED(key);
	NEED(blob);
	NEED(len);
	*blob = NULL;
	return keep(verity_avb_key_file_blob(key, blob, len, &err), &err);
}

API int fv_avb_vbmeta_blob(const fv_avb *a, const uint8_t **blob, size_t *len,
			   size_t *footer_len)
{
	NEED(a);
	NEED(blob);
	*blob = a->img.vbmeta.blob;
	if (len)
		*len = a->img.vbmeta.size;
	if (footer_len)
		*footer_len = a->img.has_footer
				      ? (size_t)a->img.footer.vbmeta_size
				      : a->img.vbmeta.size;
	return 0;
}
