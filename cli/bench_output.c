/* fastverity bench output: an aligned table with a summary, JSON, CSV. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/jsonc.h"

#include "bench.h"
#include "cli/json.h"

static const struct bench_setting *same_but_salt(const struct bench_report *r,
						 const struct bench_setting *s,
						 uint32_t salt)
{
	for (size_t i = 0; i < r->nsettings; i++) {
		const struct bench_setting *o = &r->settings[i];

		if (o->valid && o->salt_size == salt &&
		    o->format == s->format &&
		    o->data_block_size == s->data_block_size &&
		    o->hash_block_size == s->hash_block_size &&
		    !strcmp(o->hash, s->hash))
			return o;
	}
	return NULL;
}

/* An FEC encoder's speed over libfec's (veritysetup's) for the same
 * roots, or -1. */
static double fec_ratio(const struct bench_report *r, const struct bench_fec *f)
{
	for (size_t i = 0; i < r->nfec; i++)
		if (r->fec[i].roots == f->roots && r->fec[i].scalar &&
		    r->fec[i].mb_per_s > 0 && f->mb_per_s > 0)
			return f->mb_per_s / r->fec[i].mb_per_s;
	return -1;
}

/* The fastest setting measured that keeps dm-verity's usual safety
 * (sha256 or stronger, a salt, 4096-byte data blocks), and what other
 * choices measured here cost against it. */
static size_t recommend(const struct bench_report *r, char lines[][400],
			size_t max)
{
	const struct bench_setting *best;
	char buf[400];
	int len, any = 0, measurable;

	if (!max)
		return 0;
	best = bench_recommend(r->settings, r->nsettings, &measurable);
	if (!best)
		return 0;
	len = snprintf(buf, sizeof(buf),
		       "Recommended here: %s, a %u-byte salt, %u/%u-byte "
		       "blocks, format %d (%s path, %.0f MB/s%s)",
		       best->hash, best->salt_size, best->data_block_size,
		       best->hash_block_size, best->format, best->path,
		       best->mb_per_s,
		       measurable ? ""
				  : "; the default: no setting measured "
				    "faster beyond the noise");
	for (size_t i = 0; i < r->nsettings && len < (int)sizeof(buf) - 80;
	     i++) {
		const struct bench_setting *s = &r->settings[i];
		const char *what = NULL;
		char w[64];

		if (!s->valid || s == best)
			continue;
		if (strcmp(s->hash, best->hash) &&
		    s->data_block_size == best->data_block_size)
			what = s->hash;
		else if (s->data_block_size < best->data_block_size &&
			 !strcmp(s->hash, best->hash)) {
			snprintf(w, sizeof(w), "%u-byte blocks",
				 s->data_block_size);
			what = w;
		} else if (s->format != best->format &&
			   !strcmp(s->hash, best->hash) &&
			   s->data_block_size == best->data_block_size) {
			snprintf(w, sizeof(w), "format %d", s->format);
			what = w;
		}
		if (!what || strstr(buf, what))
			continue;
		double d = 100.0 * (s->mb_per_s / best->mb_per_s - 1.0);

		if (bench_spreads_overlap(s->lo, s->hi, best->lo, best->hi))
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
static size_t summary(const struct bench_report *r, char lines[][400],
		      size_t max)
{
	const struct bench_impl *best = NULL, *vs = NULL;
	const struct bench_setting *lo = NULL, *hi = NULL, *fast = NULL,
				   *slow = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->nimpls; i++) {
		const struct bench_impl *m = &r->impls[i];

		if (m->mb_per_s > 0 && (!best || m->mb_per_s > best->mb_per_s))
			best = m;
		if (!strcmp(m->note, "how veritysetup hashes") &&
		    m->mb_per_s > 0)
			vs = m;
	}
	if (best && vs && n < max)
		snprintf(lines[n++], 400,
			 "%s hashes %.1fx as fast as veritysetup's way (%s), "
			 "on one core.",
			 best->name, best->mb_per_s / vs->mb_per_s, vs->name);
	{
		const struct bench_impl *pref,
			*beat = bench_noisy_kernel(r->impls, r->nimpls, &pref);

		if (beat && n < max)
			snprintf(
				lines[n++], 400,
				"The machine was noisy: %s, the kernel this "
				"CPU takes, measured slower than %s (%.0f-%.0f "
				"against %.0f-%.0f MB/s) even measured twice; "
				"these are not a ranking: run again on a quiet "
				"machine, or longer (--time=30).",
				pref->name, beat->name, pref->lo, pref->hi,
				beat->lo, beat->hi);
	}
	/* FEC: the speed-up over libfec, from the fewest roots to the most */
	{
		const struct bench_fec *a = NULL, *z = NULL;

		for (size_t i = 0; i < r->nfec; i++) {
			const struct bench_fec *f = &r->fec[i];

			if (f->scalar || fec_ratio(r, f) < 0)
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
				fec_ratio(r, a), a->roots, fec_ratio(r, z),
				z->roots);
	}
	/* FEC: the roots to choose, for this image */
	if (r->nadvice && n < max) {
		const struct bench_fec_advice *a = &r->advice[0];

		snprintf(lines[n++], 400,
			 "FEC, recommended here: %u roots (the default of "
			 "veritysetup and avbtool): parity %.2f%% of the data, "
			 "correcting a run of up to %.2f MiB of bad blocks the "
			 "tree names (%.2f MiB unnamed); more roots only for a "
			 "medium that loses longer runs: doubling them doubles "
			 "both the parity and the run.",
			 a->roots, 100.0 * a->share,
			 (double)a->run_named / 1048576.0,
			 (double)a->run_unnamed / 1048576.0);
	}
	/* salt cost, against the smallest salt of the same settings */
	for (size_t i = 0; i < r->nsettings && n < max; i++) {
		const struct bench_setting *s = &r->settings[i], *base = NULL;
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
				       "%s, %u/%u-byte blocks, format %d: "
				       "against a %u-byte salt, ",
				       s->hash, s->data_block_size,
				       s->hash_block_size, s->format,
				       s->salt_size);
		else
			len = snprintf(buf, sizeof(buf),
				       "%s, %u/%u-byte blocks, format %d: "
				       "against no salt, ",
				       s->hash, s->data_block_size,
				       s->hash_block_size, s->format);
		int any = 0;
		for (size_t j = 0; j < r->nsettings; j++) {
			const struct bench_setting *o = &r->settings[j];

			if (o == base || !o->valid ||
			    same_but_salt(r, o, base->salt_size) != base ||
			    o->salt_size == base->salt_size)
				continue;
			double cost =
				100.0 * (1.0 - o->mb_per_s / base->mb_per_s);
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					"%s%u bytes cost %.1f%%",
					any ? ", " : "", o->salt_size, cost);
			any = 1;
			if (len >= (int)sizeof(buf) - 40)
				break;
		}
		if (any) {
			snprintf(lines[n++], 400,
				 "%s of throughput (negative: faster; "
				 "differences of a few percent are noise).",
				 buf);
		}
	}
	for (size_t i = 0; i < r->nsettings; i++) {
		const struct bench_setting *s = &r->settings[i];

		if (!s->valid)
			continue;
		if (!lo || s->overhead_percent < lo->overhead_percent)
			lo = s;
		if (!hi || s->overhead_percent > hi->overhead_percent)
			hi = s;
		if (!strcmp(s->path, "fast") &&
		    (!fast || s->mb_per_s > fast->mb_per_s))
			fast = s;
		if (!strcmp(s->path, "generic") &&
		    (!slow || s->mb_per_s > slow->mb_per_s))
			slow = s;
	}
	if (fast && slow && n < max)
		snprintf(lines[n++], 400,
			 "The generic path (best: %s, format %d) runs at "
			 "%.0f%% of the fast path (sha256, format 1).",
			 slow->hash, slow->format,
			 100.0 * slow->mb_per_s / fast->mb_per_s);
	if (lo && hi && lo != hi && n < max)
		snprintf(lines[n++], 400,
			 "The tree costs %.2f%% of the data (%s, %u/%u-byte "
			 "blocks, format %d) to %.2f%% (%s, %u/%u-byte blocks, "
			 "format %d).",
			 lo->overhead_percent, lo->hash, lo->data_block_size,
			 lo->hash_block_size, lo->format, hi->overhead_percent,
			 hi->hash, hi->data_block_size, hi->hash_block_size,
			 hi->format);
	else if (lo && n < max)
		snprintf(lines[n++], 400,
			 "The tree costs %.2f%% of the data (%s, %u/%u-byte "
			 "blocks, format %d).",
			 lo->overhead_percent, lo->hash, lo->data_block_size,
			 lo->hash_block_size, lo->format);
	n += recommend(r, lines + n, max - n);
	if (r->dev_read_mbps > 0 && r->cpu_mbps > 0 && n < max) {
		int disk = r->dev_read_mbps < r->cpu_mbps;
		double bound = disk ? r->dev_read_mbps : r->cpu_mbps;

		snprintf(lines[n++], 400,
			 "%s reads at %.0f MB/s with its cache dropped, and "
			 "the SHA unit hashes up to %.0f MB/s on %u thread%s: "
			 "%s. A tree built from it cold ran at %.0f MB/s, "
			 "%.0f%% of that bound.",
			 r->device, r->dev_read_mbps, r->cpu_mbps, r->threads,
			 r->threads == 1 ? "" : "s",
			 disk ? "disk-bound (the disk is the limit)"
			      : "CPU-bound (the hashing is the limit)",
			 r->cold_mbps, 100.0 * r->cold_mbps / bound);
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
static double cycles_per_byte(const struct bench_report *r,
			      const struct bench_impl *m)
{
	return r->clock_mhz > 0 && m->mb_per_s > 0 ? r->clock_mhz / m->mb_per_s
						   : -1;
}

void bench_print_table(const struct bench_report *r)
{
	char lines[32][400], size[32], thr[16];
	size_t n;

	snprintf(thr, sizeof(thr), "%u threads", r->threads);
	human(r->size, size, sizeof(size));
	printf("fastverity bench: %s, %u CPUs (%s), %u thread%s, %s of %s\n\n",
	       r->cpu, r->cpus, r->cpu_flags, r->threads,
	       r->threads == 1 ? "" : "s", size,
	       r->device ? r->device : "synthetic data in memory");
	printf("One core, 4096-byte blocks, 32-byte salt (MB/s: median of %d "
	       "rounds, then the slowest and fastest",
	       BENCH_ROUNDS);
	if (r->threads > 1)
		printf("; the SHA-256 kernels also on %u threads at once, "
		       "their MB/s together",
		       r->threads);
	if (r->clock_mhz > 0)
		printf("; cycles a byte at the %.0f MHz measured",
		       r->clock_mhz);
	printf("):\n");
	printf("  %-40s %9s %13s %8s %9s %6s  %s\n", "implementation", "MB/s",
	       "spread", "ratio", r->threads > 1 ? thr : "", "c/B", "note");
	for (size_t i = 0; i < r->nimpls; i++) {
		const struct bench_impl *m = &r->impls[i];
		char all[16] = "", cpb[16] = "-";

		if (m->mb_per_s < 0) {
			printf("  %-40s %9s %13s %8s %9s %6s  not measured: "
			       "%s\n",
			       m->name, "-", "-", "-", "", "", m->why);
			continue;
		}
		if (m->all_mb_per_s >= 0)
			snprintf(all, sizeof(all), "%.0f", m->all_mb_per_s);
		if (cycles_per_byte(r, m) > 0)
			snprintf(cpb, sizeof(cpb), "%.2f",
				 cycles_per_byte(r, m));
		printf("  %-40s %9.0f %6.0f-%-6.0f %8.2f %9s %6s  %s\n",
		       m->name, m->mb_per_s, m->lo, m->hi, m->ratio, all, cpb,
		       m->note);
	}
	if (r->nfec) {
		printf("\nFEC parity, one core, 4096-byte blocks (MB/s of "
		       "data and hash blocks encoded):\n");
		printf("  %5s  %-34s %9s %13s %9s  %s\n", "roots", "encoder",
		       "MB/s", "spread", "vs libfec", "note");
	}
	for (size_t i = 0; i < r->nfec; i++) {
		const struct bench_fec *f = &r->fec[i];
		double ratio = fec_ratio(r, f);

		if (f->mb_per_s < 0)
			printf("  %5u  %-34s %9s %13s %9s  not measured: %s\n",
			       f->roots, f->name, "-", "-", "-", f->why);
		else if (ratio < 0)
			printf("  %5u  %-34s %9.0f %6.0f-%-6.0f %9s  %s\n",
			       f->roots, f->name, f->mb_per_s, f->lo, f->hi,
			       "-", f->note);
		else
			printf("  %5u  %-34s %9.0f %6.0f-%-6.0f %8.1fx  %s\n",
			       f->roots, f->name, f->mb_per_s, f->lo, f->hi,
			       ratio, f->note);
	}
	if (r->nadvice) {
		printf("\nFEC for this image (%.1f MiB of data and its sha256 "
		       "tree, 4096-byte blocks; the encode time from the rates "
		       "above on %u thread%s): the longest run of consecutive "
		       "bad blocks corrected, named by the tree (as repair "
		       "takes them) or not:\n",
		       (double)r->advice_data_bytes / 1048576.0,
		       r->threads ? r->threads : 1u,
		       r->threads == 1 ? "" : "s");
		printf("  %5s  %12s  %8s  %12s  %14s  %14s\n", "roots",
		       "parity", "of data", "encode here", "run, named",
		       "run, unnamed");
	}
	for (size_t i = 0; i < r->nadvice; i++) {
		const struct bench_fec_advice *a = &r->advice[i];
		char t[32];

		if (a->encode_seconds < 0)
			snprintf(t, sizeof(t), "-");
		else
			snprintf(t, sizeof(t), "%.2f ms",
				 1e3 * a->encode_seconds);
		printf("  %5u  %8.2f MiB  %7.2f%%  %12s  %10.2f MiB  %10.2f "
		       "MiB\n",
		       a->roots, (double)a->parity_bytes / 1048576.0,
		       100.0 * a->share, t, (double)a->run_named / 1048576.0,
		       (double)a->run_unnamed / 1048576.0);
	}
	printf("\nWhole tree, %u thread%s (MB/s of data, upper levels "
	       "included; median of %d rounds, then the slowest and fastest):"
	       "\n",
	       r->threads, r->threads == 1 ? "" : "s", BENCH_ROUNDS);
	printf("  %-10s %5s %7s %7s %3s %9s %-8s %6s %11s %9s  %s\n", "hash",
	       "salt", "data", "hash", "fmt", "MB/s", "path", "levels", "tree",
	       "overhead", "spread");
	for (size_t i = 0; i < r->nsettings; i++) {
		const struct bench_setting *s = &r->settings[i];
		char tree[32];

		printf("  %-10s %5u %7u %7u %3d ", s->hash, s->salt_size,
		       s->data_block_size, s->hash_block_size, s->format);
		if (!s->valid) {
			printf("invalid: %s\n", s->why);
			continue;
		}
		human(s->tree_bytes, tree, sizeof(tree));
		printf("%9.0f %-8s %6u %11s %8.2f%%  %.0f-%.0f\n", s->mb_per_s,
		       s->path, s->levels, tree, s->overhead_percent, s->lo,
		       s->hi);
	}
	/* each path taken, and why, once */
	for (size_t i = 0; i < r->nsettings; i++) {
		const struct bench_setting *s = &r->settings[i];
		int seen = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = r->settings[k].valid &&
			       r->settings[k].path_reason == s->path_reason;
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
 * measured (mb < 0). */
static void add_rate_as(json_object *j, const char *prefix, double mb,
			double lo, double hi)
{
	char key[64];

	snprintf(key, sizeof(key), "%smb_per_s", prefix);
	json_object_object_add(j, key, num_or_null(mb));
	snprintf(key, sizeof(key), "%smb_per_s_min", prefix);
	json_object_object_add(j, key, num_or_null(mb < 0 ? -1 : lo));
	snprintf(key, sizeof(key), "%smb_per_s_max", prefix);
	json_object_object_add(j, key, num_or_null(mb < 0 ? -1 : hi));
}

static void add_rate(json_object *j, double mb, double lo, double hi)
{
	add_rate_as(j, "", mb, lo, hi);
}

/* bench --json's fec_advice: one object per number of roots. */
static json_object *fec_advice_json(const struct bench_report *r)
{
	json_object *adv = json_object_new_array();

	for (size_t i = 0; i < r->nadvice; i++) {
		const struct bench_fec_advice *a = &r->advice[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "roots",
				       json_object_new_int((int)a->roots));
		json_object_object_add(j, "parity_bytes",
				       json_object_new_uint64(a->parity_bytes));
		json_object_object_add(j, "parity_percent",
				       num_digits(100.0 * a->share, 2));
		json_object_object_add(
			j, "encode_ms",
			a->encode_seconds < 0
				? NULL
				: num_digits(1e3 * a->encode_seconds, 3));
		json_object_object_add(j, "run_named_bytes",
				       json_object_new_uint64(a->run_named));
		json_object_object_add(j, "run_unnamed_bytes",
				       json_object_new_uint64(a->run_unnamed));
		json_object_array_add(adv, j);
	}
	return adv;
}

void bench_print_json(const struct bench_report *r)
{
	json_object *root = json_object_new_object(),
		    *m = json_object_new_object();
	json_object *impls = json_object_new_array(),
		    *sets = json_object_new_array(),
		    *fec = json_object_new_array();
	json_object *sum = json_object_new_array(),
		    *flags = json_object_new_array();
	char lines[32][400], copy[128], *save = NULL;
	size_t n;

	json_object_object_add(m, "cpu", cli_json_str(r->cpu));
	json_object_object_add(m, "cpus", json_object_new_int((int)r->cpus));
	snprintf(copy, sizeof(copy), "%s", r->cpu_flags);
	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		json_object_array_add(flags, cli_json_str(t));
	json_object_object_add(m, "flags_used", flags);
	json_object_object_add(m, "sha256_kernel",
			       cli_json_str(r->sha256_kernel));
	json_object_object_add(m, "threads",
			       json_object_new_int((int)r->threads));
	json_object_object_add(
		m, "clock_mhz",
		num_or_null(r->clock_mhz > 0 ? r->clock_mhz : -1));
	json_object_object_add(root, "machine", m);
	json_object_object_add(root, "size", json_object_new_uint64(r->size));
	if (r->dev_read_mbps > 0) {
		json_object *b = json_object_new_object();

		json_object_object_add(
			b, "device_read_mb_per_s",
			json_object_new_double(r->dev_read_mbps));
		json_object_object_add(b, "sha_unit_mb_per_s",
				       json_object_new_double(r->cpu_mbps));
		json_object_object_add(b, "cold_tree_mb_per_s",
				       json_object_new_double(r->cold_mbps));
		json_object_object_add(
			b, "bound",
			json_object_new_string(r->dev_read_mbps < r->cpu_mbps
						       ? "disk"
						       : "cpu"));
		json_object_object_add(root, "device_bound", b);
	}
	json_object_object_add(root, "device",
			       r->device ? cli_json_str(r->device) : NULL);
	for (size_t i = 0; i < r->nimpls; i++) {
		const struct bench_impl *b = &r->impls[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "name", cli_json_str(b->name));
		add_rate(j, b->mb_per_s, b->lo, b->hi);
		json_object_object_add(j, "ratio", num_or_null(b->ratio));
		/* the kernels' rows: every thread at once, and cycles a
		 * byte at the clock measured */
		if (b->all_mb_per_s >= 0)
			add_rate_as(j, "all_threads_", b->all_mb_per_s,
				    b->all_lo, b->all_hi);
		json_object_object_add(j, "cycles_per_byte",
				       num_or_null(cycles_per_byte(r, b)));
		json_object_object_add(
			j, "note",
			cli_json_str(b->mb_per_s < 0 ? b->why : b->note));
		json_object_array_add(impls, j);
	}
	json_object_object_add(root, "implementations", impls);
	for (size_t i = 0; i < r->nfec; i++) {
		const struct bench_fec *f = &r->fec[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "roots",
				       json_object_new_int((int)f->roots));
		json_object_object_add(j, "encoder", cli_json_str(f->name));
		add_rate(j, f->mb_per_s, f->lo, f->hi);
		json_object_object_add(j, "vs_libfec",
				       num_or_null(fec_ratio(r, f)));
		json_object_object_add(
			j, "note",
			cli_json_str(f->mb_per_s < 0 ? f->why : f->note));
		json_object_array_add(fec, j);
	}
	json_object_object_add(root, "fec", fec);
	json_object_object_add(root, "fec_advice", fec_advice_json(r));
	for (size_t i = 0; i < r->nsettings; i++) {
		const struct bench_setting *s = &r->settings[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "hash", cli_json_str(s->hash));
		json_object_object_add(j, "salt_size",
				       json_object_new_int((int)s->salt_size));
		json_object_object_add(
			j, "data_block_size",
			json_object_new_int64(s->data_block_size));
		json_object_object_add(
			j, "hash_block_size",
			json_object_new_int64(s->hash_block_size));
		json_object_object_add(j, "format",
				       json_object_new_int(s->format));
		json_object_object_add(j, "valid",
				       json_object_new_boolean(s->valid));
		json_object_object_add(j, "reason",
				       s->valid ? NULL : cli_json_str(s->why));
		json_object_object_add(j, "mb_per_s",
				       s->valid ? num_or_null(s->mb_per_s)
						: NULL);
		json_object_object_add(j, "path",
				       s->valid ? cli_json_str(s->path) : NULL);
		json_object_object_add(j, "path_reason",
				       s->valid ? cli_json_str(s->path_reason)
						: NULL);
		json_object_object_add(
			j, "levels",
			s->valid ? json_object_new_int((int)s->levels) : NULL);
		json_object_object_add(
			j, "data_bytes",
			s->valid ? json_object_new_uint64(s->data_bytes)
				 : NULL);
		json_object_object_add(
			j, "tree_bytes",
			s->valid ? json_object_new_uint64(s->tree_bytes)
				 : NULL);
		json_object_object_add(
			j, "overhead_percent",
			s->valid ? num_digits(s->overhead_percent, 3) : NULL);
		json_object_object_add(j, "mb_per_s_min",
				       s->valid ? num_or_null(s->lo) : NULL);
		json_object_object_add(j, "mb_per_s_max",
				       s->valid ? num_or_null(s->hi) : NULL);
		json_object_object_add(j, "runs",
				       json_object_new_int((int)s->runs));
		json_object_array_add(sets, j);
	}
	json_object_object_add(root, "settings", sets);
	n = summary(r, lines, 32);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(sum, cli_json_str(lines[i]));
	json_object_object_add(root, "summary", sum);
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

void bench_print_csv(const struct bench_report *r)
{
	puts("kind,name,hash,salt_size,data_block_size,hash_block_size,format,"
	     "mb_per_s,path,levels,tree_bytes,overhead_percent,note");
	for (size_t i = 0; i < r->nimpls; i++) {
		const struct bench_impl *m = &r->impls[i];

		printf("implementation,");
		csv_text(m->name);
		printf(",sha256,32,4096,,1,");
		if (m->mb_per_s >= 0)
			printf("%.0f", m->mb_per_s);
		printf(",,,,,");
		csv_text(m->mb_per_s < 0 ? m->why : m->note);
		putchar('\n');
	}
	for (size_t i = 0; i < r->nfec; i++) {
		const struct bench_fec *f = &r->fec[i];

		printf("fec,");
		csv_text(f->name);
		printf(",,,4096,4096,,");
		if (f->mb_per_s >= 0)
			printf("%.0f", f->mb_per_s);
		printf(",,,,,");
		printf("\"%u roots; %s\"\n", f->roots,
		       f->mb_per_s < 0 ? f->why : f->note);
	}
	for (size_t i = 0; i < r->nsettings; i++) {
		const struct bench_setting *s = &r->settings[i];

		printf("tree,,%s,%u,%u,%u,%d,", s->hash, s->salt_size,
		       s->data_block_size, s->hash_block_size, s->format);
		if (s->valid)
			printf("%.0f,%s,%u,%" PRIu64 ",%.3f,", s->mb_per_s,
			       s->path, s->levels, s->tree_bytes,
			       s->overhead_percent);
		else
			printf(",,,,,");
		csv_text(s->valid ? "" : s->why);
		putchar('\n');
	}
}
