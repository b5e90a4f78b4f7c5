/* fv_bench_run's request read (include/fastverity.h, "Measuring"):
 * its lists checked, every combination a setting, the run, and the
 * report shown as the caller asked (output.c). */
#include "verity/bench/request.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "verity/ops/parse.h"
#include "verity/show/pair.h"
#include "verity/storage/device.h"
#include "verity/tree/params.h"

_Static_assert((int)FV_BENCH_TABLE == VERITY_BENCH_TABLE &&
		       (int)FV_BENCH_JSON == VERITY_BENCH_JSON &&
		       (int)FV_BENCH_CSV == VERITY_BENCH_CSV,
	       "fv_bench_output and verity_bench_output differ");

#define BENCH_MAX_LIST 16

/* A list of the request: 1 to BENCH_MAX_LIST items. */
static int bench_list(const void *items, size_t n, const char *what,
		      struct ht_error *err)
{
	if (!items || !n || n > BENCH_MAX_LIST)
		return ht_fail(err, EINVAL, "fv_bench_run: %zu %s (1 to %d)", n,
			       what, BENCH_MAX_LIST);
	return 0;
}

/* The parameters of one setting, made as fv_params_init makes them and
 * checked as fv_params_check checks them: 0, or -errno with the
 * message naming the setting. */
static int setting(const char *hash, unsigned format, uint32_t dbs,
		   uint32_t hbs, uint32_t salt_size, struct verity_params *out,
		   struct ht_error *err)
{
	fv_params p;
	char why[512];
	int r;

	if ((r = verity_show_params_init(&p, err)))
		return r;
	p.size = sizeof(p);
	if (strlen(hash) > FV_MAX_HASH_NAME)
		r = ht_fail(err, EINVAL, "hash algorithm %s not supported",
			    hash);
	if (!r && salt_size > FV_MAX_SALT_SIZE)
		r = ht_fail(err, EINVAL,
			    "salt of %u bytes is too long (at most %d)",
			    salt_size, FV_MAX_SALT_SIZE);
	if (!r) {
		snprintf(p.hash, sizeof(p.hash), "%s", hash);
		p.hash_type = format;
		p.data_block_size = dbs;
		p.hash_block_size = hbs;
		memset(p.salt, 0x5a, salt_size);
		p.salt_len = salt_size;
		if (!(r = verity_show_params_in(&p, out, err)))
			r = verity_params_validate(out, err);
	}
	if (r) {
		snprintf(why, sizeof(why), "%s", ht_msg(err));
		r = ht_fail(err, -r,
			    "%.31s, %u-byte salt, %u/%u-byte blocks, "
			    "format %u: %s",
			    hash, salt_size, dbs, hbs, format, why);
	}
	return r;
}

/* Every combination of the lists, in the request's order: setting k's
 * salt size is k's last digit in the lists' mixed radix, its hash the
 * first. */
static int bench_settings(const struct fv_bench_request *q,
			  struct bench_report *rep, struct ht_error *err)
{
	int r;

	rep->nsettings = q->nhashes * q->nformats * q->ndata_block_sizes *
			 q->nhash_block_sizes * q->nsalt_sizes;
	if (!(rep->settings = calloc(rep->nsettings, sizeof(*rep->settings))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t k = 0; k < rep->nsettings; k++) {
		size_t i = k, s, h, d, f;

		s = i % q->nsalt_sizes, i /= q->nsalt_sizes;
		h = i % q->nhash_block_sizes, i /= q->nhash_block_sizes;
		d = i % q->ndata_block_sizes, i /= q->ndata_block_sizes;
		f = i % q->nformats, i /= q->nformats;
		if (!q->hashes[i])
			return ht_fail(err, EINVAL,
				       "fv_bench_run: hash %zu is NULL", i);
		if ((r = setting(q->hashes[i], q->formats[f],
				 q->data_block_sizes[d], q->hash_block_sizes[h],
				 q->salt_sizes[s], &rep->settings[k].p, err)))
			return r;
	}
	return 0;
}

static struct verity_bench_rate rate_of(double median, double lo, double hi)
{
	return (struct verity_bench_rate){
		.median = median, .min = lo, .max = hi};
}

/* The report as rows: how many. */
static size_t bench_rows(const struct bench_report *rep,
			 struct verity_bench_row *rows)
{
	struct verity_bench_row w = {
		.kind = VERITY_BENCH_MACHINE,
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

	rows[n++] = w;
	for (size_t i = 0; i < rep->nimpls; i++) {
		const struct bench_impl *m = &rep->impls[i];

		w = (struct verity_bench_row){
			.kind = VERITY_BENCH_HASHING,
			.flags = m->flags,
			.name = m->name,
			.note = m->mb_per_s < 0 ? m->why : m->note,
			.rate = rate_of(m->mb_per_s, m->lo, m->hi),
			.all = rate_of(m->all_mb_per_s, m->all_lo, m->all_hi),
			.ratio = m->ratio,
		};
		rows[n++] = w;
	}
	for (size_t i = 0; i < rep->nfec; i++) {
		const struct bench_fec *f = &rep->fec[i];

		w = (struct verity_bench_row){
			.kind = VERITY_BENCH_FEC,
			.flags = f->scalar ? BENCH_REFERENCE : 0,
			.name = f->name,
			.note = f->mb_per_s < 0 ? f->why : f->note,
			.rate = rate_of(f->mb_per_s, f->lo, f->hi),
			.ratio = f->ratio,
			.roots = f->roots,
		};
		rows[n++] = w;
	}
	for (size_t i = 0; i < rep->nadvice; i++) {
		const struct bench_fec_advice *a = &rep->advice[i];

		w = (struct verity_bench_row){
			.kind = VERITY_BENCH_ROOTS,
			.roots = a->roots,
			.parity_bytes = a->parity_bytes,
			.encode_seconds = a->encode_seconds,
			.run_named = a->run_named,
			.run_unnamed = a->run_unnamed,
			.data_bytes = rep->advice_data_bytes,
		};
		rows[n++] = w;
	}
	for (size_t i = 0; i < rep->nsettings; i++) {
		const struct bench_setting *s = &rep->settings[i];

		w = (struct verity_bench_row){
			.kind = VERITY_BENCH_TREE,
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
		rows[n++] = w;
	}
	return n;
}

/* --- fastverity bench's options, as it reads them --------------------- */

/* The value of name in the options (the last one given), or NULL. */
static const char *option(const struct fv_bench_request *q, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < q->noptions; i++)
		if (!strcmp(q->options[2 * i], name) && q->options[2 * i + 1])
			v = q->options[2 * i + 1];
	return v;
}

/* A comma-separated list (empty items skipped) of --name, or dflt. */
static int text_list(const struct fv_bench_request *q, const char *name,
		     const char *dflt, char out[][32], size_t *n,
		     struct ht_error *err)
{
	const char *text = option(q, name) ? option(q, name) : dflt;
	char buf[512], *save = NULL;

	*n = 0;
	if (strlen(text) >= sizeof(buf))
		return ht_fail(err, EINVAL, "--%s: list too long", name);
	strcpy(buf, text);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == BENCH_MAX_LIST || strlen(tok) >= 32)
			return ht_fail(
				err, EINVAL,
				"--%s: at most %d items of 31 characters", name,
				BENCH_MAX_LIST);
		strcpy(out[(*n)++], tok);
	}
	if (!*n)
		return ht_fail(err, EINVAL, "--%s: empty list", name);
	return 0;
}

/* A list of numbers (each at most UINT32_MAX). */
static int number_list(const struct fv_bench_request *q, const char *name,
		       const char *dflt, uint32_t *out, size_t *n,
		       struct ht_error *err)
{
	char items[BENCH_MAX_LIST][32];
	int r;

	if ((r = text_list(q, name, dflt, items, n, err)))
		return r;
	for (size_t i = 0; i < *n; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(items[i], &end, 10);
		if (errno || *end || items[i][0] < '0' || items[i][0] > '9' ||
		    v > UINT32_MAX)
			return ht_fail(err, EINVAL,
				       "--%s: '%s' is not a number", name,
				       items[i]);
		out[i] = (uint32_t)v;
	}
	return 0;
}

/* Bytes of memory available for new allocations (MemAvailable), or 0
 * when the kernel does not say. */
static uint64_t available_memory(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	if (!kib) {
		long pages = sysconf(_SC_AVPHYS_PAGES),
		     page = sysconf(_SC_PAGESIZE);

		return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page
					     : 0;
	}
	return (uint64_t)kib << 10;
}

/* The data's bytes: --size (64 MiB), no more than --device's; without
 * a device, never more than half the memory available (the data and
 * its tree live in memory: no swap, no OOM killer). */
static int data_size(struct fv_bench_request *q, struct ht_error *err)
{
	const char *size = option(q, "size");
	uint64_t avail;
	struct verity_device d;
	int r;

	q->bytes = 64ULL << 20;
	if (size && (r = verity_ops_number("size", size, &q->bytes, err)))
		return r;
	if ((q->device = option(q, "device"))) {
		/* opened as every action opens a device: a missing one is
		 * said before anything runs */
		if ((r = verity_device_open(&d, q->device, VERITY_OPEN_READ,
					    err)))
			return r;
		if (!size || q->bytes > d.size)
			q->bytes = d.size;
		verity_device_close(&d);
		return 0;
	}
	avail = available_memory();
	if (q->bytes > SIZE_MAX / 2 || (avail && q->bytes > avail / 2))
		return ht_fail(err, EINVAL,
			       "--size: %llu bytes is more than half of the "
			       "memory available (%llu MiB); bench keeps the "
			       "data in memory: give a smaller --size, or "
			       "--device=PATH to read an image",
			       (unsigned long long)q->bytes,
			       (unsigned long long)(avail >> 20));
	return 0;
}

/* About ten seconds in all ("seconds": the command's default); a small
 * --size measures small: the time shrinks with it (64 MiB: the full
 * time), down to a second; --time: 0.1 to 3600. */
static int run_time(struct fv_bench_request *q, struct ht_error *err)
{
	const char *dflt = option(q, "seconds"), *time = option(q, "time");
	double full = 64ULL << 20;
	char *end;

	q->seconds = dflt ? atof(dflt) : 10;
	if (!(q->seconds > 0))
		q->seconds = 10;
	if (option(q, "size") && !time && !dflt && (double)q->bytes < full)
		q->seconds = q->seconds * (double)q->bytes / full < 1
				     ? 1
				     : q->seconds * (double)q->bytes / full;
	if (!time)
		return 0;
	q->seconds = strtod(time, &end);
	if (*end || !(q->seconds >= 0.1 && q->seconds <= 3600))
		return ht_fail(err, EINVAL,
			       "--time: '%s' is not a number of seconds from "
			       "0.1 to 3600",
			       time);
	return 0;
}

int verity_bench_options(struct fv_bench_request *q,
			 struct verity_bench_text *t, unsigned *threads,
			 struct ht_error *err)
{
	const char *v;
	uint64_t n;
	int r;

	if ((r = text_list(q, "hash", "sha256", t->hashes, &q->nhashes, err)) ||
	    (r = number_list(q, "salt-size", "0,32,64,256", t->salts,
			     &q->nsalt_sizes, err)) ||
	    (r = number_list(q, "data-block-size", "4096", t->dbs,
			     &q->ndata_block_sizes, err)) ||
	    (r = number_list(q, "hash-block-size", "4096", t->hbs,
			     &q->nhash_block_sizes, err)) ||
	    (r = number_list(q, "format", "1", t->formats, &q->nformats, err)))
		return r;
	if ((v = option(q, "threads"))) {
		if ((r = verity_ops_number("threads", v, &n, err)))
			return r;
		*threads = (unsigned)n;
	}
	if ((r = data_size(q, err)) || (r = run_time(q, err)))
		return r;
	for (size_t i = 0; i < q->nhashes; i++)
		t->names[i] = t->hashes[i];
	q->hashes = t->names;
	q->salt_sizes = t->salts;
	q->data_block_sizes = t->dbs;
	q->hash_block_sizes = t->hbs;
	q->formats = t->formats;
	return 0;
}

int verity_bench_request(const struct fv_bench_request *q, unsigned threads,
			 enum sha256_choice sha256, struct show *sh,
			 struct ht_error *err)
{
	struct verity_bench_row *rows = NULL;
	struct bench_report *rep = NULL;
	struct bench_plan plan;
	size_t n;
	int r;

	if ((r = bench_list(q->hashes, q->nhashes, "hashes", err)) ||
	    (r = bench_list(q->formats, q->nformats, "formats", err)) ||
	    (r = bench_list(q->data_block_sizes, q->ndata_block_sizes,
			    "data block sizes", err)) ||
	    (r = bench_list(q->hash_block_sizes, q->nhash_block_sizes,
			    "hash block sizes", err)) ||
	    (r = bench_list(q->salt_sizes, q->nsalt_sizes, "salt sizes", err)))
		return r;
	/* (said as the run's failures are, below) */
	if (!(q->seconds > 0 && q->seconds <= 86400))
		r = ht_fail(err, EINVAL,
			    "fv_bench_run: %g seconds (more than 0, at most a "
			    "day)",
			    q->seconds);
	else if ((unsigned)q->output > VERITY_BENCH_CSV)
		r = ht_fail(err, EINVAL, "fv_bench_run: no output %u",
			    (unsigned)q->output);
	else if (!(rep = calloc(1, sizeof(*rep))))
		r = ht_fail(err, ENOMEM, "out of memory");
	else
		r = bench_settings(q, rep, err);
	if (r)
		goto out;
	plan = (struct bench_plan){
		.device = q->device,
		.size = q->bytes,
		.threads = threads,
		.sha256 = sha256,
		.seconds = q->seconds,
	};
	if ((r = verity_bench_run(rep, &plan, err)))
		goto out;
	n = 1 + rep->nimpls + rep->nfec + rep->nadvice + rep->nsettings;
	if (!(rows = calloc(n, sizeof(*rows)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	n = bench_rows(rep, rows);
	/* the visitor's return is handed back as it is */
	if ((r = verity_bench_output(
		     rows, n, (enum verity_bench_output)q->output, sh)) &&
	    r != sh->r)
		r = ht_fail(err, -r, "fv_bench_run: the report cannot be made");
out:
	free(rows);
	if (rep)
		free(rep->settings);
	free(rep);
	/* the command's: a failure of the run, after its options */
	if (r < 0 && r != sh->r && q->noptions) {
		char why[1024];

		snprintf(why, sizeof(why), "%s", ht_msg(err));
		r = ht_fail(err, -r, "bench: %s", why);
	}
	return r;
}
