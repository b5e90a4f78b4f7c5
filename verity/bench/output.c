/* What `fastverity bench` shows of a run: an aligned table with a
 * summary, the --json document, or CSV, from the run's rows (output.h),
 * handed to the caller as items (verity/show/show.h). The sentences of
 * the summary say what the figures allow to conclude (rank.c's flags). */
#include "verity/bench/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct verity_bench_row row;

static const row *same_but_salt(const struct verity_bench_view *r, const row *s,
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
static size_t recommend(const struct verity_bench_view *r, char lines[][400],
			size_t max)
{
	const row *best;
	char buf[400];
	int len, any = 0;

	if (!max)
		return 0;
	best = flagged(r->trees, r->ntrees, BENCH_RECOMMENDED);
	if (!best)
		return 0;
	len = snprintf(buf, sizeof(buf),
		       "Recommended here: %s, a %u-byte salt, %u/%u-byte "
		       "blocks, format %u (%s path, %.0f MB/s%s)",
		       best->name, best->salt_size, best->data_block_size,
		       best->hash_block_size, best->format, best->path,
		       best->rate.median,
		       !(best->flags & BENCH_DEFAULT_KEPT)
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

		if (s->flags & BENCH_NO_DIFFERENCE)
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
static size_t summary(const struct verity_bench_view *r, char lines[][400],
		      size_t max)
{
	const row *best = NULL, *vs = NULL;
	const row *lo = NULL, *hi = NULL, *fast = NULL, *slow = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->nimpls; i++) {
		const row *m = &r->impls[i];

		if (m->rate.median > 0 &&
		    (!best || m->rate.median > best->rate.median))
			best = m;
		if ((m->flags & BENCH_REFERENCE) && m->rate.median > 0)
			vs = m;
	}
	if (best && vs && n < max)
		snprintf(lines[n++], 400,
			 "%s hashes %.1fx as fast as veritysetup's way (%s), "
			 "on one core.",
			 best->name, best->rate.median / vs->rate.median,
			 vs->name);
	{
		const row *pref = flagged(r->impls, r->nimpls, BENCH_FAST_PATH),
			  *beat = flagged(r->impls, r->nimpls, BENCH_NOISE);

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

			if ((f->flags & BENCH_REFERENCE) || f->ratio < 0)
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
			if (o->flags & BENCH_SALT_SAME)
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
static double cycles_per_byte(const struct verity_bench_view *r, const row *m)
{
	return r->m->clock_mhz > 0 && m->rate.median > 0
		       ? r->m->clock_mhz / m->rate.median
		       : -1;
}

static void table(const struct verity_bench_view *r, FILE *f)
{
	const row *mc = r->m;
	char lines[32][400], size[32], thr[16];
	size_t n;

	snprintf(thr, sizeof(thr), "%u threads", mc->threads);
	human(mc->data_bytes, size, sizeof(size));
	fprintf(f,
		"fastverity bench: %s, %u CPUs (%s), %u thread%s, %s of %s\n\n",
		mc->name, mc->cpus, mc->cpu_flags, mc->threads,
		mc->threads == 1 ? "" : "s", size,
		mc->device ? mc->device : "synthetic data in memory");
	fprintf(f,
		"One core, 4096-byte blocks, 32-byte salt (MB/s: median of %d "
		"rounds, then the slowest and fastest",
		BENCH_ROUNDS);
	if (mc->threads > 1)
		fprintf(f,
			"; the SHA-256 kernels also on %u threads at once, "
			"their MB/s together",
			mc->threads);
	if (mc->clock_mhz > 0)
		fprintf(f, "; cycles a byte at the %.0f MHz measured",
			mc->clock_mhz);
	fprintf(f, "):\n");
	fprintf(f, "  %-40s %9s %13s %8s %9s %6s  %s\n", "implementation",
		"MB/s", "spread", "ratio", mc->threads > 1 ? thr : "", "c/B",
		"note");
	for (size_t i = 0; i < r->nimpls; i++) {
		const row *m = &r->impls[i];
		char all[16] = "", cpb[16] = "-";

		if (m->rate.median < 0) {
			fprintf(f,
				"  %-40s %9s %13s %8s %9s %6s  not measured: "
				"%s\n",
				m->name, "-", "-", "-", "", "", m->note);
			continue;
		}
		if (m->all.median >= 0)
			snprintf(all, sizeof(all), "%.0f", m->all.median);
		if (cycles_per_byte(r, m) > 0)
			snprintf(cpb, sizeof(cpb), "%.2f",
				 cycles_per_byte(r, m));
		fprintf(f, "  %-40s %9.0f %6.0f-%-6.0f %8.2f %9s %6s  %s\n",
			m->name, m->rate.median, m->rate.min, m->rate.max,
			m->ratio, all, cpb, m->note);
	}
	if (r->nfec) {
		fprintf(f, "\nFEC parity, one core, 4096-byte blocks (MB/s of "
			   "data and hash blocks encoded):\n");
		fprintf(f, "  %5s  %-34s %9s %13s %9s  %s\n", "roots",
			"encoder", "MB/s", "spread", "vs libfec", "note");
	}
	for (size_t i = 0; i < r->nfec; i++) {
		const row *e = &r->fec[i];

		if (e->rate.median < 0)
			fprintf(f,
				"  %5u  %-34s %9s %13s %9s  not measured: %s\n",
				e->roots, e->name, "-", "-", "-", e->note);
		else if (e->ratio < 0)
			fprintf(f, "  %5u  %-34s %9.0f %6.0f-%-6.0f %9s  %s\n",
				e->roots, e->name, e->rate.median, e->rate.min,
				e->rate.max, "-", e->note);
		else
			fprintf(f,
				"  %5u  %-34s %9.0f %6.0f-%-6.0f %8.1fx  %s\n",
				e->roots, e->name, e->rate.median, e->rate.min,
				e->rate.max, e->ratio, e->note);
	}
	if (r->nroots) {
		fprintf(f,
			"\nFEC for this image (%.1f MiB of data and its sha256 "
			"tree, 4096-byte blocks; the encode time from the "
			"rates "
			"above on %u thread%s): the longest run of consecutive "
			"bad blocks corrected, named by the tree (as repair "
			"takes them) or not:\n",
			(double)r->roots[0].data_bytes / 1048576.0,
			mc->threads ? mc->threads : 1u,
			mc->threads == 1 ? "" : "s");
		fprintf(f, "  %5s  %12s  %8s  %12s  %14s  %14s\n", "roots",
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
		fprintf(f,
			"  %5u  %8.2f MiB  %7.2f%%  %12s  %10.2f MiB  %10.2f "
			"MiB\n",
			a->roots, (double)a->parity_bytes / 1048576.0,
			100.0 * share(a), t, (double)a->run_named / 1048576.0,
			(double)a->run_unnamed / 1048576.0);
	}
	fprintf(f,
		"\nWhole tree, %u thread%s (MB/s of data, upper levels "
		"included; median of %d rounds, then the slowest and fastest):"
		"\n",
		mc->threads, mc->threads == 1 ? "" : "s", BENCH_ROUNDS);
	fprintf(f, "  %-10s %5s %7s %7s %3s %9s %-8s %6s %11s %9s  %s\n",
		"hash", "salt", "data", "hash", "fmt", "MB/s", "path", "levels",
		"tree", "overhead", "spread");
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];
		char tree[32];

		fprintf(f, "  %-10s %5u %7u %7u %3u ", s->name, s->salt_size,
			s->data_block_size, s->hash_block_size, s->format);
		if (!s->valid) {
			fprintf(f, "invalid: %s\n", s->note);
			continue;
		}
		human(s->tree_bytes, tree, sizeof(tree));
		fprintf(f, "%9.0f %-8s %6u %11s %8.2f%%  %.0f-%.0f\n",
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
			fprintf(f, "  %s path: %s\n", s->path, s->path_reason);
	}
	n = summary(r, lines, 32);
	if (n)
		fprintf(f, "\nSummary:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %s\n", lines[i]);
}

/* A number written with the digits it means (json-c would print
 * 19118.439999999999): decimals after the point. */
static void num_digits(struct show *sh, const char *key, double v, int decimals)
{
	char text[64];

	snprintf(text, sizeof(text), "%.*f", decimals, v);
	verity_show_number(sh, key, strtod(text, NULL), text);
}

/* MB/s and ratios: two decimals; null when not measured. */
static void num_or_null(struct show *sh, const char *key, double v)
{
	if (v < 0)
		verity_show_null(sh, key);
	else
		num_digits(sh, key, v, 2);
}

/* mb_per_s and its spread (slowest, fastest round); null when not
 * measured (median < 0). */
static void add_rate_as(struct show *sh, const char *prefix,
			const struct verity_bench_rate *r)
{
	char key[64];

	snprintf(key, sizeof(key), "%smb_per_s", prefix);
	num_or_null(sh, key, r->median);
	snprintf(key, sizeof(key), "%smb_per_s_min", prefix);
	num_or_null(sh, key, r->median < 0 ? -1 : r->min);
	snprintf(key, sizeof(key), "%smb_per_s_max", prefix);
	num_or_null(sh, key, r->median < 0 ? -1 : r->max);
}

/* bench --json's fec_advice: one object per number of roots. */
static void fec_advice_json(const struct verity_bench_view *r, struct show *sh)
{
	verity_show_array(sh, "fec_advice");
	for (size_t i = 0; i < r->nroots; i++) {
		const row *a = &r->roots[i];

		verity_show_object(sh, NULL);
		verity_show_u64(sh, "roots", a->roots);
		verity_show_u64(sh, "parity_bytes", a->parity_bytes);
		num_digits(sh, "parity_percent", 100.0 * share(a), 2);
		if (a->encode_seconds < 0)
			verity_show_null(sh, "encode_ms");
		else
			num_digits(sh, "encode_ms", 1e3 * a->encode_seconds, 3);
		verity_show_u64(sh, "run_named_bytes", a->run_named);
		verity_show_u64(sh, "run_unnamed_bytes", a->run_unnamed);
		verity_show_end(sh);
	}
	verity_show_end(sh);
}

/* A tree's member: its value when the setting is valid, else null. */
#define VALID_OR_NULL(s, sh, key, call)            \
	do {                                       \
		if ((s)->valid)                    \
			call;                      \
		else                               \
			verity_show_null(sh, key); \
	} while (0)

static void json(const struct verity_bench_view *r, struct show *sh)
{
	const row *mc = r->m;
	char lines[32][400], copy[128], *save = NULL;
	size_t n;

	verity_show_object(sh, NULL);
	verity_show_object(sh, "machine");
	verity_show_str(sh, "cpu", mc->name);
	verity_show_u64(sh, "cpus", mc->cpus);
	snprintf(copy, sizeof(copy), "%s", mc->cpu_flags);
	verity_show_array(sh, "flags_used");
	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		verity_show_str(sh, NULL, t);
	verity_show_end(sh);
	verity_show_str(sh, "sha256_kernel", mc->sha256_kernel);
	verity_show_u64(sh, "threads", mc->threads);
	num_or_null(sh, "clock_mhz", mc->clock_mhz > 0 ? mc->clock_mhz : -1);
	verity_show_end(sh);
	verity_show_u64(sh, "size", mc->data_bytes);
	if (mc->device_read > 0) {
		verity_show_object(sh, "device_bound");
		verity_show_number(sh, "device_read_mb_per_s", mc->device_read,
				   NULL);
		verity_show_number(sh, "sha_unit_mb_per_s", mc->sha_unit, NULL);
		verity_show_number(sh, "cold_tree_mb_per_s", mc->cold_tree,
				   NULL);
		verity_show_str(sh, "bound",
				mc->device_read < mc->sha_unit ? "disk"
							       : "cpu");
		verity_show_end(sh);
	}
	verity_show_str(sh, "device", mc->device);
	verity_show_array(sh, "implementations");
	for (size_t i = 0; i < r->nimpls; i++) {
		const row *b = &r->impls[i];

		verity_show_object(sh, NULL);
		verity_show_str(sh, "name", b->name);
		add_rate_as(sh, "", &b->rate);
		num_or_null(sh, "ratio", b->ratio);
		/* the kernels' rows: every thread at once, and cycles a
		 * byte at the clock measured */
		if (b->all.median >= 0)
			add_rate_as(sh, "all_threads_", &b->all);
		num_or_null(sh, "cycles_per_byte", cycles_per_byte(r, b));
		verity_show_str(sh, "note", b->note);
		verity_show_end(sh);
	}
	verity_show_end(sh);
	verity_show_array(sh, "fec");
	for (size_t i = 0; i < r->nfec; i++) {
		const row *e = &r->fec[i];

		verity_show_object(sh, NULL);
		verity_show_u64(sh, "roots", e->roots);
		verity_show_str(sh, "encoder", e->name);
		add_rate_as(sh, "", &e->rate);
		num_or_null(sh, "vs_libfec", e->ratio);
		verity_show_str(sh, "note", e->note);
		verity_show_end(sh);
	}
	verity_show_end(sh);
	fec_advice_json(r, sh);
	verity_show_array(sh, "settings");
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];

		verity_show_object(sh, NULL);
		verity_show_str(sh, "hash", s->name);
		verity_show_u64(sh, "salt_size", s->salt_size);
		verity_show_u64(sh, "data_block_size", s->data_block_size);
		verity_show_u64(sh, "hash_block_size", s->hash_block_size);
		verity_show_u64(sh, "format", s->format);
		verity_show_bool(sh, "valid", s->valid);
		verity_show_str(sh, "reason", s->valid ? NULL : s->note);
		VALID_OR_NULL(s, sh, "mb_per_s",
			      num_or_null(sh, "mb_per_s", s->rate.median));
		verity_show_str(sh, "path", s->valid ? s->path : NULL);
		verity_show_str(sh, "path_reason",
				s->valid ? s->path_reason : NULL);
		VALID_OR_NULL(s, sh, "levels",
			      verity_show_u64(sh, "levels", s->levels));
		VALID_OR_NULL(s, sh, "data_bytes",
			      verity_show_u64(sh, "data_bytes", s->data_bytes));
		VALID_OR_NULL(s, sh, "tree_bytes",
			      verity_show_u64(sh, "tree_bytes", s->tree_bytes));
		VALID_OR_NULL(
			s, sh, "overhead_percent",
			num_digits(sh, "overhead_percent", overhead(s), 3));
		VALID_OR_NULL(s, sh, "mb_per_s_min",
			      num_or_null(sh, "mb_per_s_min", s->rate.min));
		VALID_OR_NULL(s, sh, "mb_per_s_max",
			      num_or_null(sh, "mb_per_s_max", s->rate.max));
		verity_show_u64(sh, "runs", s->runs);
		verity_show_end(sh);
	}
	verity_show_end(sh);
	n = summary(r, lines, 32);
	verity_show_array(sh, "summary");
	for (size_t i = 0; i < n; i++)
		verity_show_str(sh, NULL, lines[i]);
	verity_show_end(sh);
	verity_show_end(sh);
}

/* CSV fields never hold commas or quotes except reasons, which are quoted. */
static void csv_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv(const struct verity_bench_view *r, FILE *f)
{
	fputs("kind,name,hash,salt_size,data_block_size,hash_block_size,format,"
	      "mb_per_s,path,levels,tree_bytes,overhead_percent,note\n",
	      f);
	for (size_t i = 0; i < r->nimpls; i++) {
		const row *m = &r->impls[i];

		fprintf(f, "implementation,");
		csv_text(f, m->name);
		fprintf(f, ",sha256,32,4096,,1,");
		if (m->rate.median >= 0)
			fprintf(f, "%.0f", m->rate.median);
		fprintf(f, ",,,,,");
		csv_text(f, m->note);
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->nfec; i++) {
		const row *e = &r->fec[i];

		fprintf(f, "fec,");
		csv_text(f, e->name);
		fprintf(f, ",,,4096,4096,,");
		if (e->rate.median >= 0)
			fprintf(f, "%.0f", e->rate.median);
		fprintf(f, ",,,,,");
		fprintf(f, "\"%u roots; %s\"\n", e->roots, e->note);
	}
	for (size_t i = 0; i < r->ntrees; i++) {
		const row *s = &r->trees[i];

		fprintf(f, "tree,,%s,%u,%u,%u,%u,", s->name, s->salt_size,
			s->data_block_size, s->hash_block_size, s->format);
		if (s->valid)
			fprintf(f, "%.0f,%s,%u,%" PRIu64 ",%.3f,",
				s->rate.median, s->path, s->levels,
				s->tree_bytes, overhead(s));
		else
			fprintf(f, ",,,,,");
		csv_text(f, s->note);
		fputc('\n', f);
	}
}

/* A row of a kind: the first one kept, the kind's rows counted. */
static void take(const row *r, const row **first, size_t *n)
{
	if (!(*n)++)
		*first = r;
}

int verity_bench_output(const struct verity_bench_row *rows, size_t n,
			enum verity_bench_output how, struct show *sh)
{
	struct verity_bench_view v = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	for (size_t i = 0; i < n; i++) {
		const row *r = &rows[i];

		switch (r->kind) {
		case VERITY_BENCH_MACHINE:
			v.m = r;
			break;
		case VERITY_BENCH_HASHING:
			take(r, &v.impls, &v.nimpls);
			break;
		case VERITY_BENCH_FEC:
			take(r, &v.fec, &v.nfec);
			break;
		case VERITY_BENCH_ROOTS:
			take(r, &v.roots, &v.nroots);
			break;
		case VERITY_BENCH_TREE:
			take(r, &v.trees, &v.ntrees);
			break;
		}
	}
	if (!v.m)
		return -EINVAL;
	if (how == VERITY_BENCH_JSON) {
		json(&v, sh);
		return sh->r;
	}
	if (!(f = open_memstream(&buf, &len)))
		return -ENOMEM;
	if (how == VERITY_BENCH_CSV)
		csv(&v, f);
	else
		table(&v, f);
	return verity_show_stream(sh, f, &buf);
}
