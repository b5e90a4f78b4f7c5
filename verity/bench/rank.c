/* What bench concludes from its figures, where noise can mislead: a
 * lead counts only when the spreads (slowest to fastest round) do not
 * overlap. Pure functions of the figures (tests/unit/bench/test_rank.c). */
#include <stdlib.h>
#include <string.h>

#include "verity/bench/bench.h"

static int cmp_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void verity_bench_stats(double *rates, unsigned n, double *median, double *lo,
			double *hi)
{
	qsort(rates, n, sizeof(*rates), cmp_rate);
	*median = rates[n / 2];
	*lo = rates[0];
	*hi = rates[n - 1];
}

int verity_bench_spreads_overlap(double alo, double ahi, double blo, double bhi)
{
	/* a figure of one round has no spread: how noisy it is is not
	 * known, so no lead over it is measurable */
	if (alo >= ahi || blo >= bhi)
		return 1;
	return alo <= bhi && blo <= ahi;
}

/* sha256, a 32-byte salt, 4096-byte blocks, format 1: what format makes
 * when nothing is said. */
static int is_default(const struct bench_setting *s)
{
	return !strcmp(s->p.hash_name, "sha256") && s->p.salt_size == 32 &&
	       s->p.data_block_size == 4096 && s->p.hash_block_size == 4096 &&
	       s->p.hash_type == 1;
}

/* Keeps dm-verity's usual safety: sha256 or stronger, a salt, 4096-byte
 * data blocks. */
static int is_safe(const struct bench_setting *s)
{
	return s->valid && s->p.salt_size && s->p.data_block_size == 4096 &&
	       strcmp(s->p.hash_name, "sha1") && strcmp(s->p.hash_name, "md5");
}

const struct bench_setting *
verity_bench_recommend(const struct bench_setting *s, size_t n, int *measurable)
{
	const struct bench_setting *best = NULL, *def = NULL;

	*measurable = 1;
	for (size_t i = 0; i < n; i++) {
		if (!is_safe(&s[i]))
			continue;
		if (is_default(&s[i]))
			def = &s[i];
		if (!best || s[i].mb_per_s > best->mb_per_s)
			best = &s[i];
	}
	if (!best || !def || best == def)
		return best;
	/* a lead inside the noise is no reason to leave the default */
	if (verity_bench_spreads_overlap(best->lo, best->hi, def->lo,
					 def->hi)) {
		*measurable = 0;
		return def;
	}
	return best;
}

const struct bench_impl *
verity_bench_noisy_kernel(const struct bench_impl *impls, size_t n,
			  const struct bench_impl **preferred)
{
	const struct bench_impl *pref = NULL, *beat = NULL;

	for (size_t i = 0; i < n; i++)
		if (impls[i].flags & BENCH_FAST_PATH)
			pref = &impls[i];
	*preferred = pref;
	if (!pref || pref->mb_per_s <= 0)
		return NULL;
	/* another SHA-256 kernel faster than the one this CPU takes */
	for (size_t i = 0; i < n; i++)
		if (&impls[i] != pref &&
		    !strncmp(impls[i].name, "SHA-256 ", 8) &&
		    strstr(impls[i].name, "-way") &&
		    impls[i].mb_per_s > pref->mb_per_s &&
		    (!beat || impls[i].mb_per_s > beat->mb_per_s))
			beat = &impls[i];
	return beat;
}

/* The valid setting with the smallest salt of s's hash, block sizes and
 * format: what a salt's cost is measured against. */
static const struct bench_setting *salt_base(const struct bench_setting *all,
					     size_t n,
					     const struct bench_setting *s)
{
	const struct bench_setting *base = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct bench_setting *o = &all[i];

		if (o->valid && !strcmp(o->p.hash_name, s->p.hash_name) &&
		    o->p.data_block_size == s->p.data_block_size &&
		    o->p.hash_block_size == s->p.hash_block_size &&
		    o->p.hash_type == s->p.hash_type &&
		    (!base || o->p.salt_size < base->p.salt_size))
			base = o;
	}
	return base;
}

void verity_bench_conclude(struct bench_report *rep)
{
	const struct bench_impl *pref, *beat = verity_bench_noisy_kernel(
					       rep->impls, rep->nimpls, &pref);
	const struct bench_setting *best;
	int measurable;

	if (beat)
		rep->impls[beat - rep->impls].flags |= BENCH_NOISE;
	for (size_t i = 0; i < rep->nsettings; i++) {
		struct bench_setting *s = &rep->settings[i];
		const struct bench_setting *base =
			s->valid ? salt_base(rep->settings, rep->nsettings, s)
				 : NULL;

		if (base && base != s &&
		    verity_bench_spreads_overlap(s->lo, s->hi, base->lo,
						 base->hi))
			s->flags |= BENCH_SALT_SAME;
	}
	best = verity_bench_recommend(rep->settings, rep->nsettings,
				      &measurable);
	if (!best)
		return;
	for (size_t i = 0; i < rep->nsettings; i++) {
		struct bench_setting *s = &rep->settings[i];

		if (s == best)
			s->flags |= BENCH_RECOMMENDED |
				    (measurable ? 0 : BENCH_DEFAULT_KEPT);
		else if (s->valid && verity_bench_spreads_overlap(
					     s->lo, s->hi, best->lo, best->hi))
			s->flags |= BENCH_NO_DIFFERENCE;
	}
}
