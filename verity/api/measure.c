/* The public API of measuring (include/fastverity.h): fv_bench_run, the
 * door to verity/bench/, and the SHA-256 kernel a choice runs. */
#include "verity/api/internal.h"
#include "verity/bench/bench.h"

_Static_assert((int)FV_BENCH_FAST_PATH == BENCH_FAST_PATH &&
		       (int)FV_BENCH_REFERENCE == BENCH_REFERENCE &&
		       (int)FV_BENCH_NOISE == BENCH_NOISE &&
		       (int)FV_BENCH_RECOMMENDED == BENCH_RECOMMENDED &&
		       (int)FV_BENCH_DEFAULT_KEPT == BENCH_DEFAULT_KEPT &&
		       (int)FV_BENCH_NO_DIFFERENCE == BENCH_NO_DIFFERENCE &&
		       (int)FV_BENCH_SALT_SAME == BENCH_SALT_SAME &&
		       (int)FV_BENCH_ROUNDS == BENCH_ROUNDS,
	       "fv_bench_flag and bench_flag differ");

#define BENCH_MAX_LIST 16

/* The parameters of one setting, checked as fv_params checks them:
 * 0, or -errno with the message naming the setting. */
static int bench_params(const char *hash, unsigned format, uint32_t dbs,
			uint32_t hbs, uint32_t salt_size,
			struct verity_params *out)
{
	struct fv_params p = {.size = sizeof(p)};
	char why[512];
	int r;

	if ((r = fv_params_init(&p)))
		return r;
	if (strlen(hash) > FV_MAX_HASH_NAME)
		r = verity_api_fail(EINVAL, "hash algorithm %s not supported",
				    hash);
	if (!r && salt_size > FV_MAX_SALT_SIZE)
		r = verity_api_fail(
			EINVAL, "salt of %u bytes is too long (at most %d)",
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
		return verity_api_fail(
			-r,
			"%.31s, %u-byte salt, %u/%u-byte blocks, "
			"format %u: %s",
			hash, salt_size, dbs, hbs, format, why);
	}
	return 0;
}

/* A list of the request: 1 to BENCH_MAX_LIST items. */
static int bench_list(const void *items, size_t n, const char *what)
{
	if (!items || !n || n > BENCH_MAX_LIST)
		return verity_api_fail(EINVAL, "fv_bench_run: %zu %s (1 to %d)",
				       n, what, BENCH_MAX_LIST);
	return 0;
}

/* Every combination of the lists, in the request's order: setting k's
 * salt size is k's last digit in the lists' mixed radix, its hash the
 * first. */
static int bench_settings(const struct fv_bench_request *q,
			  struct bench_report *rep)
{
	int r;

	rep->nsettings = q->nhashes * q->nformats * q->ndata_block_sizes *
			 q->nhash_block_sizes * q->nsalt_sizes;
	if (!(rep->settings = calloc(rep->nsettings, sizeof(*rep->settings))))
		return verity_api_fail(ENOMEM, "out of memory");
	for (size_t k = 0; k < rep->nsettings; k++) {
		size_t i = k, s, h, d, f;

		s = i % q->nsalt_sizes, i /= q->nsalt_sizes;
		h = i % q->nhash_block_sizes, i /= q->nhash_block_sizes;
		d = i % q->ndata_block_sizes, i /= q->ndata_block_sizes;
		f = i % q->nformats, i /= q->nformats;
		if (!q->hashes[i])
			return verity_api_fail(
				EINVAL, "fv_bench_run: hash %zu is NULL", i);
		if ((r = bench_params(q->hashes[i], q->formats[f],
				      q->data_block_sizes[d],
				      q->hash_block_sizes[h], q->salt_sizes[s],
				      &rep->settings[k].p)))
			return r;
	}
	return 0;
}

static struct fv_bench_rate rate_of(double median, double lo, double hi)
{
	return (struct fv_bench_rate){.median = median, .min = lo, .max = hi};
}

/* Row w as the caller's row i (row_size bytes of it at most). */
static void give_row(uint8_t *rows, size_t row_size, size_t i,
		     const struct fv_bench_row *w)
{
	memcpy(rows + i * row_size, w,
	       row_size < sizeof(*w) ? row_size : sizeof(*w));
}

/* The report as rows, the caller's row size apart: how many. */
static size_t bench_rows(const struct bench_report *rep, uint8_t *rows,
			 size_t row_size)
{
	struct fv_bench_row w = {
		.kind = FV_BENCH_MACHINE,
		.name = rep->cpu,
		.cpus = rep->cpus,
		.threads = rep->threads,
		.cpu_flags = rep->cpu_flags,
		.sha256_kernel = rep->sha256_kernel,
		.device = rep->device,
		.clock_mhz = rep->clock_mhz,
		.data_bytes = rep->size,
		.device_read = rep->dev_read_mbps,
		.sha_unit = rep->cpu_mbps,
		.cold_tree = rep->cold_mbps,
	};
	size_t n = 0;

	give_row(rows, row_size, n++, &w);
	for (size_t i = 0; i < rep->nimpls; i++) {
		const struct bench_impl *m = &rep->impls[i];

		w = (struct fv_bench_row){
			.kind = FV_BENCH_HASHING,
			.flags = m->flags,
			.name = m->name,
			.note = m->mb_per_s < 0 ? m->why : m->note,
			.rate = rate_of(m->mb_per_s, m->lo, m->hi),
			.all = rate_of(m->all_mb_per_s, m->all_lo, m->all_hi),
			.ratio = m->ratio,
		};
		give_row(rows, row_size, n++, &w);
	}
	for (size_t i = 0; i < rep->nfec; i++) {
		const struct bench_fec *f = &rep->fec[i];

		w = (struct fv_bench_row){
			.kind = FV_BENCH_FEC,
			.flags = f->scalar ? FV_BENCH_REFERENCE : 0,
			.name = f->name,
			.note = f->mb_per_s < 0 ? f->why : f->note,
			.rate = rate_of(f->mb_per_s, f->lo, f->hi),
			.ratio = f->ratio,
			.roots = f->roots,
		};
		give_row(rows, row_size, n++, &w);
	}
	for (size_t i = 0; i < rep->nadvice; i++) {
		const struct bench_fec_advice *a = &rep->advice[i];

		w = (struct fv_bench_row){
			.kind = FV_BENCH_ROOTS,
			.roots = a->roots,
			.parity_bytes = a->parity_bytes,
			.encode_seconds = a->encode_seconds,
			.run_named = a->run_named,
			.run_unnamed = a->run_unnamed,
			.data_bytes = rep->advice_data_bytes,
		};
		give_row(rows, row_size, n++, &w);
	}
	for (size_t i = 0; i < rep->nsettings; i++) {
		const struct bench_setting *s = &rep->settings[i];

		w = (struct fv_bench_row){
			.kind = FV_BENCH_TREE,
			.flags = s->flags,
			.name = s->p.hash_name,
			.note = s->valid ? "" : s->why,
			.rate = rate_of(s->mb_per_s, s->lo, s->hi),
			.salt_size = (uint32_t)s->p.salt_size,
			.data_block_size = s->p.data_block_size,
			.hash_block_size = s->p.hash_block_size,
			.format = (unsigned)s->p.hash_type,
			.valid = s->valid,
			.path = s->path,
			.path_reason = s->path_reason,
			.levels = s->levels,
			.runs = s->runs,
			.tree_bytes = s->tree_bytes,
			.data_bytes = s->data_bytes,
		};
		give_row(rows, row_size, n++, &w);
	}
	return n;
}

API int fv_bench_run(const struct fv_bench_request *req, const fv_options *o,
		     fv_bench_fn fn, void *ctx)
{
	struct fv_bench_request q = {0};
	struct bench_report *rep;
	fv_options opts;
	struct bench_plan plan;
	struct ht_error err;
	uint8_t *rows = NULL;
	size_t n;
	int r;

	NEED(req);
	NEED(fn);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	/* (the first version's sizes: later ones only add at the end) */
	if (req->size < sizeof(q) ||
	    req->row_size < sizeof(struct fv_bench_row) ||
	    req->row_size % _Alignof(struct fv_bench_row))
		return verity_api_fail(EINVAL,
				       "%s: size %zu or row size %zu is too "
				       "small, or the row size not aligned",
				       __func__, req->size, req->row_size);
	memcpy(&q, req, sizeof(q));
	if ((r = bench_list(q.hashes, q.nhashes, "hashes")) ||
	    (r = bench_list(q.formats, q.nformats, "formats")) ||
	    (r = bench_list(q.data_block_sizes, q.ndata_block_sizes,
			    "data block sizes")) ||
	    (r = bench_list(q.hash_block_sizes, q.nhash_block_sizes,
			    "hash block sizes")) ||
	    (r = bench_list(q.salt_sizes, q.nsalt_sizes, "salt sizes")))
		return r;
	if (!(q.seconds > 0 && q.seconds <= 86400))
		return verity_api_fail(EINVAL,
				       "%s: %g seconds (more than 0, at most a "
				       "day)",
				       __func__, q.seconds);
	if (!(rep = calloc(1, sizeof(*rep))))
		return verity_api_fail(ENOMEM, "out of memory");
	if ((r = bench_settings(&q, rep)))
		goto out;
	plan = (struct bench_plan){
		.device = q.device,
		.size = q.bytes,
		.threads = opts.threads,
		.sha256 = (enum sha256_choice)opts.sha256,
		.seconds = q.seconds,
	};
	if ((r = verity_api_keep(verity_bench_run(rep, &plan, &err), &err)))
		goto out;
	n = 1 + rep->nimpls + rep->nfec + rep->nadvice + rep->nsettings;
	if (!(rows = calloc(n, q.row_size))) {
		r = verity_api_fail(ENOMEM, "out of memory");
		goto out;
	}
	n = bench_rows(rep, rows, q.row_size);
	r = fn(ctx, (const struct fv_bench_row *)(void *)rows, n);
out:
	free(rows);
	free(rep->settings);
	free(rep);
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
