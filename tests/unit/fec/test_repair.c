/* verity/fec/repair.c: repair from the parity on a pair formatted here
 * (1000 data blocks, parity of 2 roots in a file of its own: four
 * rounds, covered block c in round c % 4): two bad data blocks of one
 * round and a bad hash block rebuilt, proven and written back, the
 * files as format left them, each block said; a dry run saying the
 * same and writing nothing; three bad blocks in one round, past what 2
 * roots rebuild, left bad and said; a wrong root stopping before any
 * block; stale parity rewritten when asked. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fec/repair.h"
#include "verity/tree/format.h"

#define BS     4096u
#define BLOCKS 1000u

static char dir[64];
static char *data, *hash, *fec;
static uint8_t *data0, *hash0, *fec0;
static size_t data_len, hash_len, fec_len;
static uint8_t root[32];
static struct verity_layout lay;

struct events {
	unsigned repaired, unrepaired, reported;
};

static void on_event(void *ctx, enum verity_repair_event ev,
		     const struct verity_failure *f)
{
	struct events *e = ctx;

	(void)f;
	if (ev == VERITY_REPAIRED)
		e->repaired++;
	else
		e->unrepaired++;
}

static void on_report(void *ctx, const struct verity_failure *f)
{
	(void)f;
	((struct events *)ctx)->reported++;
}

static void spill(const char *p, const uint8_t *b, size_t n)
{
	FILE *f = fopen(p, "wb");

	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

static void flip(const char *p, uint64_t off)
{
	FILE *f = fopen(p, "r+b");
	int c;

	fseek(f, (long)off, SEEK_SET);
	c = fgetc(f);
	fseek(f, (long)off, SEEK_SET);
	fputc(c ^ 0x5a, f);
	fclose(f);
}

static int same(const char *p, const uint8_t *b, size_t n)
{
	size_t len;
	uint8_t *now = unit_slurp(p, &len);
	int r = len == n && !memcmp(now, b, n);

	free(now);
	return r;
}

static void pair_of(struct verity_pair *p)
{
	memset(p, 0, sizeof(*p));
	verity_params_default(&p->params);
	p->data.path = data;
	p->hash.path = hash;
	p->fec.region.path = fec;
	p->fec.roots = 2;
	memcpy(p->root, root, 32);
	p->root_size = 32;
}

static void rsetup(void)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b = malloc((size_t)BLOCKS * BS);

	data = unit_path(dir, "/tmp/fv-repair.XXXXXX", "data");
	hash = unit_path(dir, "/tmp/fv-repair.XXXXXX", "hash");
	fec = unit_path(dir, "/tmp/fv-repair.XXXXXX", "fec");
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 37 + i / BS);
	spill(data, b, (size_t)BLOCKS * BS);
	free(b);
	pair_of(&p);
	p.root_size = 0;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	memcpy(root, p.root, 32);
	lay = out.layout;
	ck_assert_uint_eq(lay.fec.rounds, 4);
	data0 = unit_slurp(data, &data_len);
	hash0 = unit_slurp(hash, &hash_len);
	fec0 = unit_slurp(fec, &fec_len);
}

static void rteardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(data);
	free(hash);
	free(fec);
	free(data0);
	free(hash0);
	free(fec0);
}

/* Every file as format left it. */
static void restore(void)
{
	spill(data, data0, data_len);
	spill(hash, hash0, hash_len);
	spill(fec, fec0, fec_len);
}

static int repair(unsigned flags, struct events *e, struct verity_outcome *out,
		  struct ht_error *err)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 2}, .flags = flags};

	memset(e, 0, sizeof(*e));
	run.event = on_event;
	run.report = on_report;
	run.ctx = e;
	pair_of(&p);
	return verity_fec_repair(&p, &run, out, err);
}

/* Data blocks 1 and 5 (round 1), and level 0's first hash block. */
static void damage(void)
{
	flip(data, 1 * BS + 10);
	flip(data, 5 * BS + 4000);
	flip(hash, lay.tree_offset + 1 * BS + 7);
}

START_TEST(rebuilt)
{
	struct events e;
	struct verity_outcome out;
	struct ht_error err = {0};

	restore();
	damage();
	ck_assert_msg(repair(VERITY_RUN_ROOT_FIRST, &e, &out, &err) == 0, "%s",
		      ht_msg(&err));
	/* first the hash block (its data blocks unchecked under it), then,
	 * rebuilt, the two data blocks it covers */
	ck_assert_uint_eq(out.fec.before.bad_hash_blocks, 1);
	ck_assert_uint_eq(out.fec.before.unchecked_data_blocks, 128);
	ck_assert_uint_eq(out.fec.bad_blocks, 3);
	ck_assert_uint_eq(out.fec.repaired, 3);
	ck_assert_uint_ge(out.fec.passes, 2);
	ck_assert_uint_eq(e.repaired, out.fec.repaired);
	ck_assert_uint_eq(e.unrepaired, 0);
	ck_assert_uint_gt(e.reported, 0);
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_uint_eq(out.res.bad_data_blocks, 0);
	ck_assert_uint_eq(out.res.bad_hash_blocks, 0);
	ck_assert(same(data, data0, data_len));
	ck_assert(same(hash, hash0, hash_len));
	ck_assert(same(fec, fec0, fec_len));
	/* nothing left to do */
	ck_assert_int_eq(repair(0, &e, &out, &err), 0);
	ck_assert_uint_eq(out.fec.repaired, 0);
	ck_assert_uint_eq(e.repaired, 0);
}
END_TEST

START_TEST(dry_run)
{
	struct events e;
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *d1, *h1;
	size_t n;

	restore();
	damage();
	d1 = unit_slurp(data, &n);
	h1 = unit_slurp(hash, &n);
	ck_assert_msg(repair(VERITY_RUN_DRY_RUN, &e, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(out.fec.repaired, 3);
	ck_assert_uint_eq(e.unrepaired, 0);
	/* as found: the damage still there */
	ck_assert_uint_gt(out.res.bad_data_blocks + out.res.bad_hash_blocks, 0);
	ck_assert(same(data, d1, data_len));
	ck_assert(same(hash, h1, hash_len));
	ck_assert(same(fec, fec0, fec_len));
	free(d1);
	free(h1);
}
END_TEST

/* Blocks 1, 5 and 9: three of round 1's, two roots rebuild two. */
START_TEST(past_the_roots)
{
	struct events e;
	struct verity_outcome out;
	struct ht_error err = {0};

	restore();
	flip(data, 1 * BS);
	flip(data, 5 * BS);
	flip(data, 9 * BS);
	ck_assert_int_eq(repair(0, &e, &out, &err), 0);
	ck_assert_uint_eq(out.fec.repaired, 0);
	ck_assert_uint_eq(e.unrepaired, 3);
	ck_assert_uint_eq(out.res.bad_data_blocks, 3);
	ck_assert_uint_ge(out.fec.unchecked_rounds, 1);
	/* the data as it was: nothing unproven written */
	flip(data, 1 * BS);
	flip(data, 5 * BS);
	flip(data, 9 * BS);
	ck_assert(same(data, data0, data_len));
}
END_TEST

START_TEST(wrong_root)
{
	struct verity_pair p;
	struct events e = {0};
	struct verity_run run = {.ht = {.threads = 1},
				 .flags = VERITY_RUN_ROOT_FIRST};
	struct verity_outcome out;
	struct ht_error err = {0};

	restore();
	flip(data, 3 * BS);
	run.event = on_event;
	run.report = on_report;
	run.ctx = &e;
	pair_of(&p);
	p.root[0] ^= 1;
	ck_assert_int_eq(verity_fec_repair(&p, &run, &out, &err), 0);
	ck_assert_int_eq(out.res.root_first, 1);
	ck_assert_uint_eq(e.reported + e.repaired + e.unrepaired, 0);
	ck_assert_uint_eq(out.fec.repaired, 0);
	flip(data, 3 * BS);
	ck_assert(same(data, data0, data_len));
}
END_TEST

/* A parity byte changed: stale, counted; rewritten when asked. */
START_TEST(stale_parity)
{
	struct events e;
	struct verity_outcome out;
	struct ht_error err = {0};

	restore();
	flip(fec, 4096 + 3);
	ck_assert_int_eq(repair(0, &e, &out, &err), 0);
	ck_assert_uint_eq(out.fec.stale_codewords, 1);
	ck_assert_uint_eq(out.fec.parity_rewritten, 0);
	ck_assert(!same(fec, fec0, fec_len));
	ck_assert_int_eq(repair(VERITY_RUN_REWRITE_PARITY, &e, &out, &err), 0);
	ck_assert_uint_eq(out.fec.parity_rewritten, 1);
	ck_assert(same(fec, fec0, fec_len));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"fec_repair", 0, rsetup,
					    rteardown,    1, NULL};

	return run_unit(&u, UNIT_TESTS(rebuilt, dry_run, past_the_roots,
				       wrong_root, stale_parity));
}
