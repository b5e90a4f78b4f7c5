/* FEC check and repair: the tree says which blocks are bad, the parity
 * rebuilds them, and the tree proves each rebuilt block before it is
 * kept.
 *
 * A pass verifies everything and marks bad blocks. A hash block is
 * trusted when it and every block above it match, up to the root; a bad
 * block whose parent is trusted is proven bad, one whose parent is not is
 * only suspect (its parent may be what is wrong). Each round (codeword
 * group) holding proven-bad blocks is decoded, with the bad blocks as
 * erasures; a rebuilt block is kept only if its digest equals the one in
 * its trusted parent. Kept hash blocks make their children judgeable, so
 * passes repeat until one keeps nothing: hash blocks are repaired before
 * the blocks they cover. */
#include "verity/fec/repair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/fec/proof.h"
#include "verity/fec/refresh.h"
#include "verity/fec/rs.h"
#include "verity/fec/source.h"
#include "verity/tree/io.h"
#include "verity/tree/verify.h"

struct repair {
	struct verity_pair *pair;
	const struct verity_params *p;
	struct verity_layout *l;
	const struct ht_geometry *g;
	struct verity_devices d;
	struct fec_source src;
	struct fec_rs rs;
	struct ht_hasher h;
	struct fec_proof proof;
	const struct verity_run *run;
	const uint8_t *root;
	int dry_run;
	struct fec_overlay ov;
	uint8_t *bad;     /* covered blocks that failed the last pass */
	uint8_t *trusted; /* tree blocks chained to the root */
	uint8_t *rebuilt; /* covered blocks written (or kept) once: one that
			   * is bad again (unreadable after the write) is
			   * not rebuilt again, so the passes end */
	int root_matches;
	int first_pass;
	struct verity_fec_result *res;
	uint8_t *round;     /* rsn blocks of one round */
	uint8_t *parity;    /* the round's parity, interleaved */
	uint8_t *planes;    /* ... and one plane per parity row */
	uint8_t *candidate; /* rebuilt blocks */
};

static int bit(const uint8_t *map, uint64_t i)
{
	return map[i / 8] >> (i % 8) & 1;
}

static void set_bit(uint8_t *map, uint64_t i)
{
	map[i / 8] |= (uint8_t)(1u << (i % 8));
}

/* ---- the verify pass, through the overlay in a dry run ---- */

static int rio_read_data(void *c, uint64_t off, void *buf, size_t len,
			 struct ht_error *err)
{
	struct repair *rp = c;
	size_t bs = rp->g->data_block_size;
	int r = verity_device_read(&rp->d.data, off, buf, len, err);

	/* a block the dry run rebuilt reads from the overlay even when the
	 * device cannot read it (the tree reads one block at a time after
	 * EIO) */
	if (r == -EIO && len == bs && verity_fec_overlay_has(&rp->ov, off / bs))
		r = 0;
	if (!r && rp->ov.count)
		verity_fec_overlay_patch(&rp->ov, 0, off, buf, len, bs);
	return r;
}

static int rio_read_tree(void *c, uint64_t off, void *buf, size_t len,
			 struct ht_error *err)
{
	struct repair *rp = c;
	size_t bs = rp->g->hash_block_size;
	int r = verity_device_read(&rp->d.hash, rp->l->tree_offset + off, buf,
				   len, err);

	if (r == -EIO && len == bs &&
	    verity_fec_overlay_has(&rp->ov, rp->p->data_blocks + off / bs))
		r = 0;
	if (!r && rp->ov.count)
		verity_fec_overlay_patch(&rp->ov, rp->p->data_blocks, off, buf,
					 len, bs);
	return r;
}

/* Every block found wrong is marked, suspects too (blocks that do not
 * match a bad parent: likely bad themselves, the first erasures to try);
 * the first pass's failures are reported as verify reports them. */
static void pass_report(void *c, const struct ht_failure *f)
{
	struct repair *rp = c;
	struct verity_failure vf;

	if (f->kind == HT_BAD_DATA_BLOCK || f->kind == HT_UNREADABLE_DATA)
		set_bit(rp->bad, f->block);
	else
		set_bit(rp->bad, rp->p->data_blocks + f->block);
	if (rp->first_pass && rp->run->report && !f->suspect) {
		verity_failure_from_ht(rp->l, f, &vf);
		rp->run->report(rp->run->ctx, &vf);
	}
}

static int verify_pass(struct repair *rp, struct ht_verify_result *vr,
		       struct ht_error *err)
{
	struct verity_io_ctx ioctx = {&rp->d.data, &rp->d.hash,
				      rp->l->tree_offset, NULL};
	struct ht_options opt = rp->run->ht;
	struct ht_io io;
	int r;

	opt.suspects = 1;
	opt.report = pass_report;
	opt.report_ctx = rp;
	memset(rp->bad, 0, (rp->l->fec.blocks + 7) / 8);
	if (rp->ov.count) {
		memset(&io, 0, sizeof(io));
		io.ctx = rp;
		io.read_data = rio_read_data;
		io.read_tree = rio_read_tree;
	} else {
		verity_io_init(&io, &ioctx);
	}
	/* a top block that fails against the root is reported with the
	 * rest */
	ht_pass(&opt, rp->first_pass ? "verify data" : "verify again");
	r = ht_verify(rp->g, &rp->h, &io, &opt, rp->root, vr, err);
	rp->res->passes++;
	if (r)
		return r;
	rp->root_matches = vr->root_matches;
	return 0;
}

/* ---- trust ---- */

/* Tree block t: does the chain from it to the root hold? Top-down, so
 * a block's parent is decided before the block. */
static void compute_trust(struct repair *rp)
{
	const struct ht_geometry *g = rp->g;
	uint64_t nd = rp->p->data_blocks;

	memset(rp->trusted, 0, (g->tree_blocks + 7) / 8);
	for (uint32_t lv = g->levels; lv-- > 0;) {
		for (uint64_t k = 0; k < g->level_blocks[lv]; k++) {
			uint64_t t = g->level_first[lv] + k;
			int ok;

			if (lv == g->levels - 1)
				ok = !bit(rp->bad, nd + t);
			else
				ok = !bit(rp->bad, nd + t) &&
				     bit(rp->trusted, g->level_first[lv + 1] +
							      (k >> g->bits));
			if (ok)
				set_bit(rp->trusted, t);
		}
	}
}

/* Covered block c's parent (or the root: *parent UINT64_MAX), and
 * whether the last pass trusted it; -1 when no digest covers c. */
static int parent_of(const struct repair *rp, uint64_t c, uint64_t *parent,
		     size_t *slot, int *trusted)
{
	int where = verity_fec_proof_parent(&rp->proof, c, parent, slot);

	if (where < 0)
		return -1;
	*trusted = where == 1 || bit(rp->trusted, *parent);
	return 0;
}

/* ---- rebuilt blocks: written at once, or kept (dry run) ---- */

static int commit_block(struct repair *rp, uint64_t c, const uint8_t *block,
			struct ht_error *err)
{
	size_t bs = rp->l->fec.block_size;
	uint64_t nd = rp->p->data_blocks;

	int r;

	if (rp->dry_run)
		return verity_fec_overlay_add(&rp->ov, c, block, bs, err);
	r = c < nd ? verity_device_write(&rp->d.data, c * bs, block, bs, err)
		   : verity_device_write(&rp->d.hash,
					 rp->l->tree_offset + (c - nd) * bs,
					 block, bs, err);
	/* what was proven before may read differently now */
	verity_fec_proof_reset(&rp->proof);
	return r;
}

static void failure_of(const struct repair *rp, uint64_t c,
		       struct verity_failure *f)
{
	uint64_t nd = rp->p->data_blocks, bs = rp->l->fec.block_size;

	memset(f, 0, sizeof(*f));
	if (c < nd) {
		f->kind = HT_BAD_DATA_BLOCK;
		f->block = c;
		f->position = c * bs;
		return;
	}
	f->kind = HT_BAD_HASH_BLOCK;
	f->block = rp->l->tree_offset / bs + (c - nd);
	f->position = f->block * bs;
	f->level = ht_level_of(rp->g, c - nd);
}

/* ---- one round ---- */

struct round_state {
	uint64_t n;
	size_t nbad;
	const uint64_t *bad; /* covered indexes, ascending */
	unsigned proven_pos[FEC_RS_N];
	size_t nproven;
	int fixed[FEC_RS_N];
	uint64_t accepted;
};

/* Keeps each candidate (candidate + k * bs for proven position k) that
 * the tree proves. */
static int accept(struct repair *rp, struct round_state *st,
		  const unsigned *cand_pos, size_t ncand, struct ht_error *err)
{
	size_t bs = rp->l->fec.block_size;
	const struct verity_fec_layout *fl = &rp->l->fec;

	for (size_t k = 0; k < ncand; k++) {
		unsigned i = cand_pos[k];
		uint64_t c = (uint64_t)i * fl->rounds + st->n;
		const uint8_t *blk = rp->candidate + k * bs;
		size_t pk;
		int r;

		for (pk = 0; pk < st->nproven && st->proven_pos[pk] != i; pk++)
			;
		if (pk == st->nproven || st->fixed[pk] || bit(rp->rebuilt, c))
			continue;
		/* kept only when it proves, up to the root, now */
		r = verity_fec_proof_check(&rp->proof, c, blk, err);
		if (r < 0)
			return r;
		if (!r)
			continue;
		r = commit_block(rp, c, blk, err);
		if (r)
			return r;
		memcpy(rp->round + (size_t)i * bs, blk, bs);
		set_bit(rp->rebuilt, c);
		st->fixed[pk] = 1;
		st->accepted++;
		rp->res->repaired++;
	}
	return 0;
}

static int all_fixed(const struct round_state *st)
{
	for (size_t k = 0; k < st->nproven; k++)
		if (!st->fixed[k])
			return 0;
	return 1;
}

/* Erasure decoding of positions pos[0..ne) with ISA-L. */
static int try_erasures(struct repair *rp, struct round_state *st,
			const unsigned *pos, unsigned ne, struct ht_error *err)
{
	const struct fec_rs *rs = &rp->rs;
	size_t bs = rp->l->fec.block_size;
	struct fec_rs_erasure e;
	uint8_t *src[FEC_RS_N + FEC_MAX_ROOTS], *out[FEC_MAX_ROOTS];
	int r = verity_fec_rs_erasure_init(rs, &e, pos, ne, err);

	if (r == -ENOMEM)
		return r;
	if (r)
		return 0; /* cannot be solved this way */
	for (unsigned i = 0; i < rs->rsn; i++)
		src[i] = rp->round + (size_t)i * bs;
	for (unsigned t = 0; t < ne; t++) {
		src[rs->rsn + t] = rp->planes + (size_t)e.rows[t] * bs;
		out[t] = rp->candidate + (size_t)t * bs;
	}
	verity_fec_rs_erasure_decode(rs, &e, bs, src, out);
	verity_fec_rs_erasure_free(&e);
	return accept(rp, st, pos, ne, err);
}

/* Error (and erasure) decoding codeword by codeword with libfec: finds
 * unknown bad bytes, roots / 2 per codeword with no erasures. */
static int try_karn(struct repair *rp, struct round_state *st,
		    const unsigned *eras, unsigned ne, struct ht_error *err)
{
	const struct fec_rs *rs = &rp->rs;
	size_t bs = rp->l->fec.block_size;
	unsigned cand[FEC_RS_N];
	int epos[FEC_MAX_ROOTS];
	uint8_t cw[FEC_RS_N];
	int r;

	if ((r = verity_fec_rs_open_decoder(&rp->rs, err)))
		return r;
	for (unsigned t = 0; t < ne; t++)
		epos[t] = (int)eras[t];
	for (size_t k = 0; k < st->nproven; k++)
		cand[k] = st->proven_pos[k];
	for (size_t b = 0; b < bs; b++) {
		for (unsigned i = 0; i < rs->rsn; i++)
			cw[i] = rp->round[i * bs + b];
		for (unsigned j = 0; j < rs->roots; j++)
			cw[rs->rsn + j] = rp->parity[b * rs->roots + j];
		verity_fec_rs_decode_codeword(rs, cw, epos, (int)ne);
		for (size_t k = 0; k < st->nproven; k++)
			rp->candidate[k * bs + b] = cw[cand[k]];
	}
	return accept(rp, st, cand, st->nproven, err);
}

static int repair_round(struct repair *rp, struct round_state *st,
			struct ht_error *err)
{
	const struct verity_fec_layout *fl = &rp->l->fec;
	const struct fec_rs *rs = &rp->rs;
	size_t bs = fl->block_size;
	unsigned all[FEC_RS_N];
	size_t nall = 0;
	int r;

	st->nproven = 0;
	for (size_t k = 0; k < st->nbad; k++) {
		uint64_t c = st->bad[k], parent;
		size_t slot;
		int trusted = 0;

		all[nall++] = (unsigned)(c / fl->rounds);
		if (!parent_of(rp, c, &parent, &slot, &trusted) && trusted) {
			st->fixed[st->nproven] = 0;
			st->proven_pos[st->nproven++] =
				(unsigned)(c / fl->rounds);
		}
	}
	if (!st->nproven)
		return 0; /* nothing provable until a parent is repaired */
	for (unsigned i = 0; i < rs->rsn; i++) {
		uint64_t c = (uint64_t)i * fl->rounds + st->n;
		size_t k;

		r = verity_fec_read_covered(&rp->src, c, 1, rp->round + i * bs,
					    err);
		if (r != -EIO && r)
			return r;
		if (!r)
			continue;
		/* a block that cannot be read is an erasure, as the
		 * kernel's FEC takes it */
		memset(rp->round + i * bs, 0, bs);
		for (k = 0; k < nall && all[k] != i; k++)
			;
		if (k == nall)
			all[nall++] = i;
	}
	r = verity_device_read(&rp->d.fec, fl->offset + st->n * bs * fl->roots,
			       rp->parity, bs * fl->roots, err);
	if (r)
		return r;
	for (unsigned j = 0; j < fl->roots; j++)
		for (size_t b = 0; b < bs; b++)
			rp->planes[j * bs + b] = rp->parity[b * fl->roots + j];
	if (nall <= rs->roots)
		r = try_erasures(rp, st, all, (unsigned)nall, err);
	if (!r && !all_fixed(st) && nall != st->nproven &&
	    st->nproven <= rs->roots)
		r = try_erasures(rp, st, st->proven_pos, (unsigned)st->nproven,
				 err);
	if (!r && !all_fixed(st) && st->nproven <= rs->roots)
		r = try_karn(rp, st, st->proven_pos, (unsigned)st->nproven,
			     err);
	if (!r && !all_fixed(st))
		r = try_karn(rp, st, NULL, 0, err);
	return r;
}

/* ---- the passes ---- */

/* The bad blocks of the last pass, by round. */
struct bad_list {
	uint64_t *c;
	size_t n, cap;
};

static int by_round(const void *a, const void *b, void *rounds)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	uint64_t rx = x % *(uint64_t *)rounds, ry = y % *(uint64_t *)rounds;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int collect_bad(struct repair *rp, struct bad_list *bl,
		       struct ht_error *err)
{
	uint64_t end = rp->p->data_blocks + rp->g->tree_blocks;

	bl->n = 0;
	for (uint64_t c = 0; c < end; c++) {
		if (!bit(rp->bad, c)) {
			if (rp->bad[c / 8] == 0)
				c |= 7; /* skip a clean byte */
			continue;
		}
		if (bl->n == bl->cap) {
			size_t cap = bl->cap ? 2 * bl->cap : 256;
			uint64_t *v = realloc(bl->c, cap * sizeof(*v));

			if (!v)
				return ht_fail(err, ENOMEM, "out of memory");
			bl->c = v;
			bl->cap = cap;
		}
		bl->c[bl->n++] = c;
	}
	if (bl->n)
		qsort_r(bl->c, bl->n, sizeof(*bl->c), by_round,
			&rp->l->fec.rounds);
	return 0;
}

static int repair_pass(struct repair *rp, const struct bad_list *bl,
		       uint64_t *accepted, struct ht_error *err)
{
	uint64_t rounds = rp->l->fec.rounds;
	struct round_state *st = malloc(sizeof(*st));
	int r = 0;

	const struct ht_options *opt = &rp->run->ht;
	/* progress: the covered bytes of the rounds decoded */
	const uint64_t unit = (uint64_t)rp->rs.rsn * rp->l->fec.block_size;
	uint64_t total = 0, done = 0;

	if (!st)
		return ht_fail(err, ENOMEM, "out of memory");
	*accepted = 0;
	for (size_t k = 0; k < bl->n; k++)
		total += !k || bl->c[k] % rounds != bl->c[k - 1] % rounds;
	if (total)
		ht_pass(opt, "rebuild");
	for (size_t k = 0; !r && k < bl->n;) {
		size_t end = k;

		while (end < bl->n && bl->c[end] % rounds == bl->c[k] % rounds)
			end++;
		memset(st, 0, sizeof(*st));
		st->n = bl->c[k] % rounds;
		st->bad = bl->c + k;
		st->nbad = end - k;
		/* more bad blocks than symbols: only error decoding */
		r = repair_round(rp, st, err);
		*accepted += st->accepted;
		k = end;
		if (opt->progress)
			opt->progress(opt->progress_ctx, ++done * unit,
				      total * unit);
	}
	free(st);
	return r;
}

/* Rounds whose blocks are not all proven good: their parity is neither
 * judged nor rewritten. */
static uint8_t *unverified_rounds(struct repair *rp, uint64_t *count)
{
	const struct ht_geometry *g = rp->g;
	uint64_t rounds = rp->l->fec.rounds, nd = rp->p->data_blocks;
	uint8_t *skip = calloc((rounds + 7) / 8, 1);

	if (!skip)
		return NULL;
	for (uint64_t c = 0; c < nd + g->tree_blocks; c++)
		if (bit(rp->bad, c))
			set_bit(skip, c % rounds);
	for (uint64_t t = 0; t < g->tree_blocks; t++) {
		if (bit(rp->trusted, t))
			continue;
		set_bit(skip, (nd + t) % rounds);
		if (t >= g->level_first[0] &&
		    t < g->level_first[0] + g->level_blocks[0]) {
			uint64_t d0 = (t - g->level_first[0]) << g->bits;

			for (uint64_t d = d0;
			     d < nd && d < d0 + (1u << g->bits); d++)
				set_bit(skip, d % rounds);
		}
	}
	if (g->levels == 0 && !rp->root_matches)
		set_bit(skip, 0);
	*count = 0;
	for (uint64_t n = 0; n < rounds; n++)
		*count += bit(skip, n);
	return skip;
}

static int run_passes(struct repair *rp, struct ht_error *err)
{
	struct bad_list bl = {NULL, 0, 0};
	struct ht_verify_result vr;
	uint64_t accepted;
	int r;

	for (;;) {
		r = verify_pass(rp, &vr, err);
		if (r)
			break;
		if (rp->first_pass)
			rp->res->before = vr;
		rp->first_pass = 0;
		compute_trust(rp);
		r = collect_bad(rp, &bl, err);
		if (!r)
			r = repair_pass(rp, &bl, &accepted, err);
		if (r || !accepted)
			break;
	}
	rp->res->after = vr;
	free(bl.c);
	return r;
}

/* Parity that disagrees with verified data: counted; rewritten only when
 * asked (docs/format.md, "Where we differ", 12). Parity that is not this
 * image's (past the rewrite limit) is refused by a rewrite, a dry run of
 * one, and verify; a repair that only reads it reports it. */
static int check_parity(struct repair *rp, struct ht_error *err)
{
	unsigned flags = rp->run->flags;
	struct verity_fec_refresh x = {
		.src = &rp->src,
		.rs = &rp->rs,
		.proof = &rp->proof,
		.threads = rp->run->ht.threads,
		.rewrite = !rp->dry_run && (flags & VERITY_RUN_REWRITE_PARITY),
		.rewrite_asked = !!(flags & VERITY_RUN_REWRITE_PARITY),
		.must_match = !!(flags & VERITY_RUN_PARITY_MUST_MATCH),
		.opt = &rp->run->ht};
	uint8_t *skip = unverified_rounds(rp, &rp->res->unchecked_rounds);
	int r;

	if (!skip)
		return ht_fail(err, ENOMEM, "out of memory");
	x.skip = skip;
	r = verity_fec_refresh(&x, rp->res, err);
	free(skip);
	return r;
}

static int finish(struct repair *rp, struct ht_error *err)
{
	uint64_t nd = rp->p->data_blocks, remaining = 0;
	int r = 0;

	/* the events in the order of the blocks: the hash device's (the
	 * tree blocks, which prove the data blocks under them), then the
	 * data device's, each by offset */
	for (uint64_t i = 0; i < nd + rp->g->tree_blocks; i++) {
		uint64_t c = i < rp->g->tree_blocks ? nd + i
						    : i - rp->g->tree_blocks;
		struct verity_failure f;
		int bad = bit(rp->bad, c);

		if (!bad && !bit(rp->rebuilt, c))
			continue;
		/* rebuilt, and bad again: the write did not take (a medium
		 * that still cannot read it) */
		if (bad && bit(rp->rebuilt, c))
			rp->res->repaired--;
		remaining += bad;
		failure_of(rp, c, &f);
		if (rp->run->event)
			rp->run->event(rp->run->ctx,
				       bad ? VERITY_UNREPAIRED : VERITY_REPAIRED,
				       &f);
	}
	rp->res->bad_blocks = rp->res->repaired + remaining;
	if (!rp->dry_run && rp->res->repaired)
		r = verity_device_flush(&rp->d.data, err);
	if (!r && !rp->dry_run && rp->res->repaired)
		r = verity_device_flush(&rp->d.hash, err);
	if (!r)
		r = check_parity(rp, err);
	return r;
}

/* verify's first step: a top that matches neither the root nor a top
 * rebuilt from its children is a wrong root hash or parameter, not
 * damage: 1 (res says root_first) and nothing else is judged. */
static int wrong_root(struct repair *rp, int *r, struct ht_error *err)
{
	struct verity_io_ctx ioctx = {&rp->d.data, &rp->d.hash,
				      rp->l->tree_offset, NULL};
	struct ht_io io;
	enum ht_top top;

	verity_io_init(&io, &ioctx);
	*r = ht_check_top(rp->g, &rp->h, &io, rp->root, &top, err);
	if (*r || top != HT_TOP_MISMATCH)
		return 0;
	rp->res->before.root_first = 1;
	rp->res->after = rp->res->before;
	return 1;
}

static int alloc_buffers(struct repair *rp, struct ht_error *err)
{
	const struct verity_fec_layout *fl = &rp->l->fec;
	size_t bs = fl->block_size;

	rp->bad = calloc((fl->blocks + 7) / 8, 1);
	rp->rebuilt = calloc((fl->blocks + 7) / 8, 1);
	rp->trusted = calloc((rp->g->tree_blocks + 7) / 8 + 1, 1);
	rp->round = malloc(bs * rp->rs.rsn);
	rp->parity = malloc(bs * fl->roots);
	rp->planes = malloc(bs * fl->roots);
	rp->candidate = malloc(bs * FEC_RS_N);
	if (!rp->bad || !rp->rebuilt || !rp->trusted || !rp->round ||
	    !rp->parity || !rp->planes || !rp->candidate)
		return ht_fail(err, ENOMEM, "out of memory");
	return 0;
}

static void free_all(struct repair *rp)
{
	free(rp->bad);
	free(rp->rebuilt);
	free(rp->trusted);
	free(rp->round);
	free(rp->parity);
	free(rp->planes);
	free(rp->candidate);
	verity_fec_overlay_free(&rp->ov);
	verity_fec_proof_free(&rp->proof);
	ht_hasher_free(&rp->h); /* safe on a zeroed hasher */
	if (rp->rs.matrix)
		verity_fec_rs_free(&rp->rs);
	verity_pair_close(&rp->d);
}

int verity_fec_repair(struct verity_pair *pair, const struct verity_run *run,
		      struct verity_outcome *out, struct ht_error *err)
{
	const struct verity_params *p = &pair->params;
	struct repair rp;
	enum verity_open_mode mode = run->flags & VERITY_RUN_DRY_RUN
					     ? VERITY_OPEN_READ
					     : VERITY_OPEN_WRITE;
	int r;

	memset(&rp, 0, sizeof(rp));
	memset(out, 0, sizeof(*out));
	if (!pair->fec.region.path)
		return ht_fail(err, EINVAL, "no FEC device given");
	rp.pair = pair;
	rp.p = p;
	rp.l = &pair->layout;
	rp.g = &pair->layout.geo;
	rp.run = run;
	rp.root = pair->root;
	rp.dry_run = mode == VERITY_OPEN_READ;
	rp.res = &out->fec;
	rp.first_pass = 1;
	out->has_fec = 1;
	/* the parity is written only when asked to be */
	r = verity_pair_open(pair, mode,
			     run->flags & VERITY_RUN_REWRITE_PARITY
				     ? mode
				     : VERITY_OPEN_READ,
			     &rp.d, err);
	if (r)
		return r;
	out->layout = pair->layout;
	rp.src = (struct fec_source){&rp.d.data, &rp.d.hash, &rp.d.fec,
				     &rp.l->fec, &rp.ov};
	/* (libfec's decoder made when a round first needs it: try_karn) */
	r = verity_fec_rs_init_encoder(&rp.rs, rp.l->fec.roots, err);
	if (!r)
		r = ht_hasher_init(&rp.h, p->hash_name, p->hash_type, p->salt,
				   p->salt_size, err);
	if (!r) {
		ht_hasher_use_kernel(&rp.h, run->sha256);
		verity_fill_info(&out->info, &rp.h);
		r = verity_fec_proof_init(&rp.proof, rp.g, &rp.h, &rp.src,
					  rp.root, err);
	}
	if (!r)
		r = alloc_buffers(&rp, err);
	if (!r && (run->flags & VERITY_RUN_ROOT_FIRST) &&
	    wrong_root(&rp, &r, err)) {
		out->res = out->fec.before;
		free_all(&rp);
		return 0;
	}
	if (!r)
		r = run_passes(&rp, err);
	if (!r)
		r = finish(&rp, err);
	out->res = rp.dry_run ? out->fec.before : out->fec.after;
	free_all(&rp);
	return r;
}
