/* fastverity bench output: an aligned table with a summary, JSON, CSV,
 * from the rows fv_bench_run delivers. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/jsonc.h"

#include "bench.h"
#include "cli/json.h"

typedef struct fv_bench_row row;

static const row *same_but_salt(const struct bench_view *r, const row *s,
				uint32_t salt)
{
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *o = &r->trees[i];

		if (o->valid && o->salt_size == salt &&
		    o->format == s->format &&
		    o->data_block_size == s->data_block_size &&
		    o->hash_block_size == s->hash_block_size &&
		    !strcmp(o->name, s->name))
			return o;
	}
	return NULL;
}

/* A tree's bytes against its data's, in percent. */
static double overhead(const row *s)
{
	return 100.0 * (double)s->tree_bytes / (double)s->data_bytes;
}

/* Some roots' parity against the data. */
static double share(const row *a)
{
	return (double)a->parity_bytes / (double)a->data_bytes;
}

/* The first row of n with flag, or NULL. */
static const row *flagged(const row *rows, size_t n, unsigned flag)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].flags & flag)
			return &rows[i];
	return NULL;
}

/* The setting the library recommends (the fastest measured that keeps
 * dm-verity's usual safety: sha256 or stronger, a salt, 4096-byte data
 * blocks), and what other choices measured here cost against it. */
static size_t recommend(const struct bench_view *r, char lines[][400],
			size_t max)
{
	const row *best;
	char buf[400];
	int len, any = 0;

	if (!max)
		return 0;
	best = flagged(r->trees, r->ntrees, FV_BENCH_RECOMMENDED);
	if (!best)
		return 0;
	len = snprintf(buf, sizeof(buf),
		       "Recommended here: %s, a %u-byte salt, %u/%u-byte "
		       "blocks, format %u (%s path, %.0f MB/s%s)",
		       best->name, best->salt_size, best->data_block_size,
		       best->hash_block_size, best->format, best->path,
		       best->rate.median,
		       !(best->flags & FV_BENCH_DEFAULT_KEPT)
			       ? ""
			       : "; the default: no setting measured "
				 "faster beyond the noise");
	for (size_t i = 0; i < r->ntrees && len < (int)sizeof(buf) - 80; i++) {
		const row *s = &r->trees[i];
		const char *what = NULL;
		char w[64];

		if (!s->valid || s == best)
			continue;
		if (strcmp(s->name, best->name) &&
		    s->data_block_size == best->data_block_size)
			what = s->name;
		else if (s->data_block_size < best->data_block_size &&
			 !strcmp(s->name, best->name)) {
			snprintf(w, sizeof(w), "%u-byte blocks",
				 s->data_block_size);
			what = w;
		} else if (s->format != best->format &&
			   !strcmp(s->name, best->name) &&
			   s->data_block_size == best->data_block_size) {
			snprintf(w, sizeof(w), "format %u", s->format);
			what = w;
		}
		if (!what || strstr(buf, what))
			continue;
		double d = 100.0 * (s->rate.median / best->rate.median - 1.0);

		if (s->flags & FV_BENCH_NO_DIFFERENCE)
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					"%s%s no measurable difference",
					any ? ", " : "; against it: ", what);
		else
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					"%s%s %.0f%% %s",
					any ? ", " : "; against it: ", what,
					d < 0 ? -d : d,
					d < 0 ? "slower" : "faster");
		any = 1;
	}
	snprintf(lines[0], 400, "%.398s.", buf);
	return 1;
}

/* Sentences saying what the figures mean for the choice. */
static size_t summary(const struct bench_view *r, char lines[][400], size_t max)
{
	const row *best = NULL, *vs = NULL;
	const row *lo = NULL, *hi = NULL, *fast = NULL, *slow = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->nimpls; i++) {
		const row *m = &r->impls[i];

		if (m->rate.median > 0 &&
		    (!best || m->rate.median > best->rate.median))
			best = m;
		if ((m->flags & FV_BENCH_REFERENCE) && m->rate.median > 0)
			vs = m;
	}
	if (best && vs && n < max)
		snprintf(lines[n++], 400,
			 "%s hashes %.1fx as fast as veritysetup's way (%s), "
			 "on one core.",
			 best->name, best->rate.median / vs->rate.median,
			 vs->name);
	{
		const row *pref = flagged(r->impls, r->nimpls,
					  FV_BENCH_FAST_PATH),
			  *beat = flagged(r->impls, r->nimpls, FV_BENCH_NOISE);

		if (pref && beat && n < max)
			snprintf(
				lines[n++], 400,
				"The machine was noisy: %s, the kernel this "
				"CPU takes, measured slower than %s (%.0f-%.0f "
				"against %.0f-%.0f MB/s) even measured twice; "
				"these are not a ranking: run again on a quiet "
				"machine, or longer (--time=30).",
				pref->name, beat->name, pref->rate.min,
				pref->rate.max, beat->rate.min, beat->rate.max);
	}
	/* FEC: the speed-up over libfec, from the fewest roots to the most */
	{
		const row *a = NULL, *z = NULL;

		for (size_t i = 0; i < r->nfec; i++) {
			const row *f = &r->fec[i];

			if ((f->flags & FV_BENCH_REFERENCE) || f->ratio < 0)
				continue;
			if (!a)
				a = f;
			z = f;
		}
		if (a && n < max)
			snprintf(
				lines[n++], 400,
				"FEC parity: ISA-L encodes %.0fx (%u roots) to "
				"%.0fx (%u roots) as fast as libfec, "
				"veritysetup's encoder, on one core.",
				a->ratio, a->roots, z->ratio, z->roots);
	}
	/* FEC: the roots to choose, for this image */
	if (r->nroots && n < max) {
		const row *a = &r->roots[0];

		snprintf(lines[n++], 400,
			 "FEC, recommended here: %u roots (the default of "
			 "veritysetup and avbtool): parity %.2f%% of the data, "
			 "correcting a run of up to %.2f MiB of bad blocks the "
			 "tree names (%.2f MiB unnamed); more roots only for a "
			 "medium that loses longer runs: doubling them doubles "
			 "both the parity and the run.",
			 a->roots, 100.0 * share(a),
			 (double)a->run_named / 1048576.0,
			 (double)a->run_unnamed / 1048576.0);
	}
	/* salt cost, against the smallest salt of the same settings */
	for (size_t i = 0; i < r->ntrees && n < max; i++) {
		const row *s = &r->trees[i], *base = NULL;
		char buf[256];
		int len;

		if (!s->valid)
			continue;
		for (uint32_t salt = 0; salt <= 256 && !base; salt++)
			base = same_but_salt(r, s, salt);
		if (base != s)
			continue; /* one sentence per group, from its base row
				   */
		if (s->salt_size)
			len = snprintf(buf, sizeof(buf),
				       "%s, %u/%u-byte blocks, format %u, "
				       "against a %u-byte salt: ",
				       s->name, s->data_block_size,
				       s->hash_block_size, s->format,
				       s->salt_size);
		else
			len = snprintf(buf, sizeof(buf),
				       "%s, %u/%u-byte blocks, format %u, "
				       "against no salt: ",
				       s->name, s->data_block_size,
				       s->hash_block_size, s->format);
		int any = 0;
		for (size_t j = 0; j < r->ntrees; j++) {
			const row *o = &r->trees[j];

			if (o == base || !o->valid ||
			    same_but_salt(r, o, base->salt_size) != base ||
			    o->salt_size == base->salt_size)
				continue;
			double cost = 100.0 * (1.0 - o->rate.median /
							     base->rate.median);
			if (o->flags & FV_BENCH_SALT_SAME)
				len += snprintf(buf + len,
						sizeof(buf) - (size_t)len,
						"%s%u bytes: no measurable "
						"difference",
						any ? ", " : "", o->salt_size);
			else
				len += snprintf(
					buf + len, sizeof(buf) - (size_t)len,
					cost < 0 ? "%s%u bytes measured "
						   "%.1f%% faster"
						 : "%s%u bytes cost "
						   "%.1f%% of throughput",
					any ? ", " : "", o->salt_size,
					cost < 0 ? -cost : cost);
			any = 1;
			if (len >= (int)sizeof(buf) - 40)
				break;
		}
		if (any) {
			snprintf(lines[n++], 400,
				 "%s (a difference inside the rounds' spread "
				 "is none).",
				 buf);
		}
	}
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];

		if (!s->valid)
			continue;
		if (!lo || overhead(s) < overhead(lo))
			lo = s;
		if (!hi || overhead(s) > overhead(hi))
			hi = s;
		if (!strcmp(s->path, "fast") &&
		    (!fast || s->rate.median > fast->rate.median))
			fast = s;
		if (!strcmp(s->path, "generic") &&
		    (!slow || s->rate.median > slow->rate.median))
			slow = s;
	}
	if (fast && slow && n < max)
		snprintf(lines[n++], 400,
			 "The generic path (best: %s, format %u) runs at "
			 "%.0f%% of the fast path (sha256, format 1).",
			 slow->name, slow->format,
			 100.0 * slow->rate.median / fast->rate.median);
	if (lo && hi && lo != hi && n < max)
		snprintf(lines[n++], 400,
			 "The tree costs %.2f%% of the data (%s, %u/%u-byte "
			 "blocks, format %u) to %.2f%% (%s, %u/%u-byte blocks, "
			 "format %u).",
			 overhead(lo), lo->name, lo->data_block_size,
			 lo->hash_block_size, lo->format, overhead(hi),
			 hi->name, hi->data_block_size, hi->hash_block_size,
			 hi->format);
	else if (lo && n < max)
		snprintf(lines[n++], 400,
			 "The tree costs %.2f%% of the data (%s, %u/%u-byte "
			 "blocks, format %u).",
			 overhead(lo), lo->name, lo->data_block_size,
			 lo->hash_block_size, lo->format);
	n += recommend(r, lines + n, max - n);
	if (r->m->device_read > 0 && r->m->sha_unit > 0 && n < max) {
		const row *m = r->m;
		int disk = m->device_read < m->sha_unit;
		double bound = disk ? m->device_read : m->sha_unit;

		snprintf(lines[n++], 400,
			 "%s reads at %.0f MB/s with its cache dropped, and "
			 "the SHA unit hashes up to %.0f MB/s on %u thread%s: "
			 "%s. A tree built from it cold ran at %.0f MB/s, "
			 "%.0f%% of that bound.",
			 m->device, m->device_read, m->sha_unit, m->threads,
			 m->threads == 1 ? "" : "s",
			 disk ? "disk-bound (the disk is the limit)"
			      : "CPU-bound (the hashing is the limit)",
			 m->cold_tree, 100.0 * m->cold_tree / bound);
	}
	return n;
}

static void human(uint64_t bytes, char *out, size_t len)
{
	if (bytes >= (1u << 20))
		snprintf(out, len, "%.1f MiB", (double)bytes / (1 << 20));
	else
		snprintf(out, len, "%.1f KiB", (double)bytes / 1024);
}

/* A row's cycles a byte at the clock measured; -1 when either is not
 * measured. */
static double cycles_per_byte(const struct bench_view *r, const row *m)
{
	return r->m->clock_mhz > 0 && m->rate.median > 0
		       ? r->m->clock_mhz / m->rate.median
		       : -1;
}

void bench_print_table(const struct bench_view *r)
{
	const row *mc = r->m;
	char lines[32][400], size[32], thr[16];
	size_t n;

	snprintf(thr, sizeof(thr), "%u threads", mc->threads);
	human(mc->data_bytes, size, sizeof(size));
	printf("fastverity bench: %s, %u CPUs (%s), %u thread%s, %s of %s\n\n",
	       mc->name, mc->cpus, mc->cpu_flags, mc->threads,
	       mc->threads == 1 ? "" : "s", size,
	       mc->device ? mc->device : "synthetic data in memory");
	printf("One core, 4096-byte blocks, 32-byte salt (MB/s: median of %d "
	       "rounds, then the slowest and fastest",
	       FV_BENCH_ROUNDS);
	if (mc->threads > 1)
		printf("; the SHA-256 kernels also on %u threads at once, "
		       "their MB/s together",
		       mc->threads);
	if (mc->clock_mhz > 0)
		printf("; cycles a byte at the %.0f MHz measured",
		       mc->clock_mhz);
	printf("):\n");
	printf("  %-40s %9s %13s %8s %9s %6s  %s\n", "implementation", "MB/s",
	       "spread", "ratio", mc->threads > 1 ? thr : "", "c/B", "note");
	for (size_t i = 0; i < r->nimpls; i++) {
		const row *m = &r->impls[i];
		char all[16] = "", cpb[16] = "-";

		if (m->rate.median < 0) {
			printf("  %-40s %9s %13s %8s %9s %6s  not measured: "
			       "%s\n",
			       m->name, "-", "-", "-", "", "", m->note);
			continue;
		}
		if (m->all.median >= 0)
			snprintf(all, sizeof(all), "%.0f", m->all.median);
		if (cycles_per_byte(r, m) > 0)
			snprintf(cpb, sizeof(cpb), "%.2f",
				 cycles_per_byte(r, m));
		printf("  %-40s %9.0f %6.0f-%-6.0f %8.2f %9s %6s  %s\n",
		       m->name, m->rate.median, m->rate.min, m->rate.max,
		       m->ratio, all, cpb, m->note);
	}
	if (r->nfec) {
		printf("\nFEC parity, one core, 4096-byte blocks (MB/s of "
		       "data and hash blocks encoded):\n");
		printf("  %5s  %-34s %9s %13s %9s  %s\n", "roots", "encoder",
		       "MB/s", "spread", "vs libfec", "note");
	}
	for (size_t i = 0; i < r->nfec; i++) {
		const row *f = &r->fec[i];

		if (f->rate.median < 0)
			printf("  %5u  %-34s %9s %13s %9s  not measured: %s\n",
			       f->roots, f->name, "-", "-", "-", f->note);
		else if (f->ratio < 0)
			printf("  %5u  %-34s %9.0f %6.0f-%-6.0f %9s  %s\n",
			       f->roots, f->name, f->rate.median, f->rate.min,
			       f->rate.max, "-", f->note);
		else
			printf("  %5u  %-34s %9.0f %6.0f-%-6.0f %8.1fx  %s\n",
			       f->roots, f->name, f->rate.median, f->rate.min,
			       f->rate.max, f->ratio, f->note);
	}
	if (r->nroots) {
		printf("\nFEC for this image (%.1f MiB of data and its sha256 "
		       "tree, 4096-byte blocks; the encode time from the rates "
		       "above on %u thread%s): the longest run of consecutive "
		       "bad blocks corrected, named by the tree (as repair "
		       "takes them) or not:\n",
		       (double)r->roots[0].data_bytes / 1048576.0,
		       mc->threads ? mc->threads : 1u,
		       mc->threads == 1 ? "" : "s");
		printf("  %5s  %12s  %8s  %12s  %14s  %14s\n", "roots",
		       "parity", "of data", "encode here", "run, named",
		       "run, unnamed");
	}
	for (size_t i = 0; i < r->nroots; i++) {
		const row *a = &r->roots[i];
		char t[32];

		if (a->encode_seconds < 0)
			snprintf(t, sizeof(t), "-");
		else
			snprintf(t, sizeof(t), "%.2f ms",
				 1e3 * a->encode_seconds);
		printf("  %5u  %8.2f MiB  %7.2f%%  %12s  %10.2f MiB  %10.2f "
		       "MiB\n",
		       a->roots, (double)a->parity_bytes / 1048576.0,
		       100.0 * share(a), t, (double)a->run_named / 1048576.0,
		       (double)a->run_unnamed / 1048576.0);
	}
	printf("\nWhole tree, %u thread%s (MB/s of data, upper levels "
	       "included; median of %d rounds, then the slowest and fastest):"
	       "\n",
	       mc->threads, mc->threads == 1 ? "" : "s", FV_BENCH_ROUNDS);
	printf("  %-10s %5s %7s %7s %3s %9s %-8s %6s %11s %9s  %s\n", "hash",
	       "salt", "data", "hash", "fmt", "MB/s", "path", "levels", "tree",
	       "overhead", "spread");
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];
		char tree[32];

		printf("  %-10s %5u %7u %7u %3u ", s->name, s->salt_size,
		       s->data_block_size, s->hash_block_size, s->format);
		if (!s->valid) {
			printf("invalid: %s\n", s->note);
			continue;
		}
		human(s->tree_bytes, tree, sizeof(tree));
		printf("%9.0f %-8s %6u %11s %8.2f%%  %.0f-%.0f\n",
		       s->rate.median, s->path, s->levels, tree, overhead(s),
		       s->rate.min, s->rate.max);
	}
	/* each path taken, and why, once */
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];
		int seen = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = r->trees[k].valid &&
			       !strcmp(r->trees[k].path_reason, s->path_reason);
		if (s->valid && !seen)
			printf("  %s path: %s\n", s->path, s->path_reason);
	}
	n = summary(r, lines, 32);
	if (n)
		printf("\nSummary:\n");
	for (size_t i = 0; i < n; i++)
		printf("  %s\n", lines[i]);
}

/* A number written with the digits it means (json-c would print
 * 19118.439999999999): decimals after the point. */
static json_object *num_digits(double v, int decimals)
{
	char text[64];

	snprintf(text, sizeof(text), "%.*f", decimals, v);
	return json_object_new_double_s(strtod(text, NULL), text);
}

/* MB/s and ratios: two decimals; NULL when not measured. */
static json_object *num_or_null(double v)
{
	return v < 0 ? NULL : num_digits(v, 2);
}

/* mb_per_s and its spread (slowest, fastest round); NULL when not
 * measured (median < 0). */
static void add_rate_as(json_object *j, const char *prefix,
			const struct fv_bench_rate *r)
{
	char key[64];

	snprintf(key, sizeof(key), "%smb_per_s", prefix);
	cli_jset(j, key, num_or_null(r->median));
	snprintf(key, sizeof(key), "%smb_per_s_min", prefix);
	cli_jset(j, key, num_or_null(r->median < 0 ? -1 : r->min));
	snprintf(key, sizeof(key), "%smb_per_s_max", prefix);
	cli_jset(j, key, num_or_null(r->median < 0 ? -1 : r->max));
}

static void add_rate(json_object *j, const struct fv_bench_rate *r)
{
	add_rate_as(j, "", r);
}

/* bench --json's fec_advice: one object per number of roots. */
static json_object *fec_advice_json(const struct bench_view *r)
{
	json_object *adv = json_object_new_array();

	for (size_t i = 0; i < r->nroots; i++) {
		const row *a = &r->roots[i];
		json_object *j = json_object_new_object();

		cli_jint(j, "roots", (int)a->roots);
		cli_ju64(j, "parity_bytes", a->parity_bytes);
		cli_jset(j, "parity_percent", num_digits(100.0 * share(a), 2));
		cli_jset(j, "encode_ms",
			 a->encode_seconds < 0
				 ? NULL
				 : num_digits(1e3 * a->encode_seconds, 3));
		cli_ju64(j, "run_named_bytes", a->run_named);
		cli_ju64(j, "run_unnamed_bytes", a->run_unnamed);
		json_object_array_add(adv, j);
	}
	return adv;
}

void bench_print_json(const struct bench_view *r)
{
	const row *mc = r->m;
	json_object *root = json_object_new_object(),
		    *m = json_object_new_object();
	json_object *impls = json_object_new_array(),
		    *sets = json_object_new_array(),
		    *fec = json_object_new_array();
	json_object *sum = json_object_new_array(),
		    *flags = json_object_new_array();
	char lines[32][400], copy[128], *save = NULL;
	size_t n;

	cli_jstr(m, "cpu", mc->name);
	cli_jint(m, "cpus", (int)mc->cpus);
	snprintf(copy, sizeof(copy), "%s", mc->cpu_flags);
	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		json_object_array_add(flags, cli_json_str(t));
	cli_jset(m, "flags_used", flags);
	cli_jstr(m, "sha256_kernel", mc->sha256_kernel);
	cli_jint(m, "threads", (int)mc->threads);
	cli_jset(m, "clock_mhz",
		 num_or_null(mc->clock_mhz > 0 ? mc->clock_mhz : -1));
	cli_jset(root, "machine", m);
	cli_ju64(root, "size", mc->data_bytes);
	if (mc->device_read > 0) {
		json_object *b = json_object_new_object();

		cli_jset(b, "device_read_mb_per_s",
			 json_object_new_double(mc->device_read));
		cli_jset(b, "sha_unit_mb_per_s",
			 json_object_new_double(mc->sha_unit));
		cli_jset(b, "cold_tree_mb_per_s",
			 json_object_new_double(mc->cold_tree));
		cli_jstr(b, "bound",
			 mc->device_read < mc->sha_unit ? "disk" : "cpu");
		cli_jset(root, "device_bound", b);
	}
	cli_jset(root, "device", mc->device ? cli_json_str(mc->device) : NULL);
	for (size_t i = 0; i < r->nimpls; i++) {
		const row *b = &r->impls[i];
		json_object *j = json_object_new_object();

		cli_jstr(j, "name", b->name);
		add_rate(j, &b->rate);
		cli_jset(j, "ratio", num_or_null(b->ratio));
		/* the kernels' rows: every thread at once, and cycles a
		 * byte at the clock measured */
		if (b->all.median >= 0)
			add_rate_as(j, "all_threads_", &b->all);
		cli_jset(j, "cycles_per_byte",
			 num_or_null(cycles_per_byte(r, b)));
		cli_jstr(j, "note", b->note);
		json_object_array_add(impls, j);
	}
	cli_jset(root, "implementations", impls);
	for (size_t i = 0; i < r->nfec; i++) {
		const row *f = &r->fec[i];
		json_object *j = json_object_new_object();

		cli_jint(j, "roots", (int)f->roots);
		cli_jstr(j, "encoder", f->name);
		add_rate(j, &f->rate);
		cli_jset(j, "vs_libfec", num_or_null(f->ratio));
		cli_jstr(j, "note", f->note);
		json_object_array_add(fec, j);
	}
	cli_jset(root, "fec", fec);
	cli_jset(root, "fec_advice", fec_advice_json(r));
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];
		json_object *j = json_object_new_object();

		cli_jstr(j, "hash", s->name);
		cli_jint(j, "salt_size", (int)s->salt_size);
		cli_ji64(j, "data_block_size", s->data_block_size);
		cli_ji64(j, "hash_block_size", s->hash_block_size);
		cli_jint(j, "format", (int)s->format);
		cli_jbool(j, "valid", s->valid);
		cli_jset(j, "reason", s->valid ? NULL : cli_json_str(s->note));
		cli_jset(j, "mb_per_s",
			 s->valid ? num_or_null(s->rate.median) : NULL);
		cli_jset(j, "path", s->valid ? cli_json_str(s->path) : NULL);
		cli_jset(j, "path_reason",
			 s->valid ? cli_json_str(s->path_reason) : NULL);
		cli_jset(j, "levels",
			 s->valid ? json_object_new_int((int)s->levels) : NULL);
		cli_jset(j, "data_bytes",
			 s->valid ? json_object_new_uint64(s->data_bytes)
				  : NULL);
		cli_jset(j, "tree_bytes",
			 s->valid ? json_object_new_uint64(s->tree_bytes)
				  : NULL);
		cli_jset(j, "overhead_percent",
			 s->valid ? num_digits(overhead(s), 3) : NULL);
		cli_jset(j, "mb_per_s_min",
			 s->valid ? num_or_null(s->rate.min) : NULL);
		cli_jset(j, "mb_per_s_max",
			 s->valid ? num_or_null(s->rate.max) : NULL);
		cli_jint(j, "runs", (int)s->runs);
		json_object_array_add(sets, j);
	}
	cli_jset(root, "settings", sets);
	n = summary(r, lines, 32);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(sum, cli_json_str(lines[i]));
	cli_jset(root, "summary", sum);
	cli_json_print(root);
}

/* CSV fields never hold commas or quotes except reasons, which are quoted. */
static void csv_text(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

void bench_print_csv(const struct bench_view *r)
{
	puts("kind,name,hash,salt_size,data_block_size,hash_block_size,format,"
	     "mb_per_s,path,levels,tree_bytes,overhead_percent,note");
	for (size_t i = 0; i < r->nimpls; i++) {
		const row *m = &r->impls[i];

		printf("implementation,");
		csv_text(m->name);
		printf(",sha256,32,4096,,1,");
		if (m->rate.median >= 0)
			printf("%.0f", m->rate.median);
		printf(",,,,,");
		csv_text(m->note);
		putchar('\n');
	}
	for (size_t i = 0; i < r->nfec; i++) {
		const row *f = &r->fec[i];

		printf("fec,");
		csv_text(f->name);
		printf(",,,4096,4096,,");
		if (f->rate.median >= 0)
			printf("%.0f", f->rate.median);
		printf(",,,,,");
		printf("\"%u roots; %s\"\n", f->roots, f->note);
	}
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];

		printf("tree,,%s,%u,%u,%u,%u,", s->name, s->salt_size,
		       s->data_block_size, s->hash_block_size, s->format);
		if (s->valid)
			printf("%.0f,%s,%u,%" PRIu64 ",%.3f,", s->rate.median,
			       s->path, s->levels, s->tree_bytes, overhead(s));
		else
			printf(",,,,,");
		csv_text(s->note);
		putchar('\n');
	}
}
