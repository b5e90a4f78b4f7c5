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
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/storage/device.h"
#include "verity/fec/fec.h"
#include "verity/tree/layout_internal.h"
#include "verity/verity.h"

/* A dry run keeps rebuilt blocks in memory; beyond this it stops. */
#define OVERLAY_MAX_BYTES (64u << 20)

struct repair {
	struct verity_params *p;
	struct verity_layout *l;
	const struct ht_geometry *g;
	struct verity_device data, hash, fec;
	struct fec_source src;
	struct fec_rs rs;
	struct ht_hasher h;
	const struct ht_options *opt;
	const uint8_t *root;
	int dry_run;
	unsigned how; /* enum verity_repair_flags */
	struct fec_overlay ov;
	uint8_t *bad;     /* covered blocks that failed the last pass */
	uint8_t *trusted; /* tree blocks chained to the root */
	uint8_t *rebuilt; /* covered blocks written (or kept) once: one that
			   * is bad again (unreadable after the write) is
			   * not rebuilt again, so the passes end */
	int root_matches;
	int first_pass;
	verity_report_fn report;
	verity_repair_fn event;
	void *ctx;
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

/* A block the dry run rebuilt reads from the overlay even when the
 * device cannot read it (the tree reads one block at a time after EIO). */
static int overlaid(const struct fec_overlay *ov, uint64_t first, uint64_t off,
		    size_t len, size_t bs)
{
	if (len != bs || off % bs)
		return 0;
	for (size_t i = 0; i < ov->count; i++)
		if (ov->index[i] == first + off / bs)
			return 1;
	return 0;
}

static int rio_read_data(void *c, uint64_t off, void *buf, size_t len,
			 struct fv_error *err)
{
	struct repair *rp = c;
	size_t bs = rp->g->data_block_size;
	int r = verity_device_read(&rp->data, off, buf, len, err);

	if (r == -EIO && overlaid(&rp->ov, 0, off, len, bs))
		r = 0;
	if (!r && rp->ov.count)
		fec_overlay_patch(&rp->ov, 0, off, buf, len, bs);
	return r;
}

static int rio_read_tree(void *c, uint64_t off, void *buf, size_t len,
			 struct fv_error *err)
{
	struct repair *rp = c;
	size_t bs = rp->g->hash_block_size;
	int r = verity_device_read(&rp->hash, rp->l->tree_offset + off, buf,
				   len, err);

	if (r == -EIO && overlaid(&rp->ov, rp->p->data_blocks, off, len, bs))
		r = 0;
	if (!r && rp->ov.count)
		fec_overlay_patch(&rp->ov, rp->p->data_blocks, off, buf, len,
				  bs);
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
	if (rp->first_pass && rp->report && !f->suspect) {
		verity_failure_from_ht(rp->l, f, &vf);
		rp->report(rp->ctx, &vf);
	}
}

static int verify_pass(struct repair *rp, struct ht_verify_result *vr,
		       struct fv_error *err)
{
	struct verity_io_ctx ioctx = {&rp->data, &rp->hash, rp->l->tree_offset,
				      NULL};
	struct ht_options opt = {.threads = 1};
	struct ht_io io;
	int r;

	if (rp->opt)
		opt = *rp->opt;
	opt.suspects = 1;
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
	r = ht_verify(rp->g, &rp->h, &io, &opt, rp->root, pass_report, rp, vr,
		      err);
	rp->res->passes++;
	if (r)
		return r;
	rp->root_matches = vr->root_matches;
	return 0;
}

/* ---- trust ---- */

static uint32_t level_of(const struct ht_geometry *g, uint64_t t)
{
	for (uint32_t lv = 0; lv < g->levels; lv++)
		if (t >= g->level_first[lv] &&
		    t < g->level_first[lv] + g->level_blocks[lv])
			return lv;
	return UINT32_MAX;
}

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

/* Where the digest that proves covered block c lives: its parent tree
 * block and the digest's byte offset in it, or the root (*parent =
 * UINT64_MAX). -1 when c is neither a tree nor a data block (covered
 * blocks of the hash device after the tree: nothing proves them). */
static int parent_slot(const struct repair *rp, uint64_t c, uint64_t *parent,
		       size_t *slot)
{
	const struct ht_geometry *g = rp->g;
	uint64_t nd = rp->p->data_blocks, k;
	uint32_t lv;

	*parent = UINT64_MAX;
	*slot = 0;
	if (c < nd) {
		if (g->levels == 0)
			return 0;
		*parent = g->level_first[0] + (c >> g->bits);
		*slot = (size_t)(c & ((1u << g->bits) - 1)) * g->slot_size;
		return 0;
	}
	if (c - nd >= g->tree_blocks)
		return -1;
	lv = level_of(g, c - nd);
	if (lv == g->levels - 1)
		return 0;
	k = c - nd - g->level_first[lv];
	*parent = g->level_first[lv + 1] + (k >> g->bits);
	*slot = (size_t)(k & ((1u << g->bits) - 1)) * g->slot_size;
	return 0;
}

/* The same, and whether that parent was trusted by the last pass. */
static int parent_of(const struct repair *rp, uint64_t c, uint64_t *parent,
		     size_t *slot, int *trusted)
{
	if (parent_slot(rp, c, parent, slot))
		return -1;
	*trusted = *parent == UINT64_MAX || bit(rp->trusted, *parent);
	return 0;
}

/* 1 when block (bs bytes) is what its trusted parent says it is. */
static int proven(struct repair *rp, uint64_t c, const uint8_t *block,
		  struct fv_error *err)
{
	uint8_t digest[HT_MAX_DIGEST_SIZE], *pblock;
	uint64_t parent;
	size_t slot = 0, bs = rp->l->fec.block_size;
	int trusted, r, same;

	if (parent_of(rp, c, &parent, &slot, &trusted) || !trusted)
		return 0;
	if (ht_hash_blocks(&rp->h, block, bs, 1, digest, sizeof(digest), err))
		return -EIO;
	if (parent == UINT64_MAX)
		return !memcmp(digest, rp->root, rp->g->digest_size);
	pblock = malloc(bs);
	if (!pblock)
		return fv_fail(err, ENOMEM, "out of memory");
	r = fec_read_covered(&rp->src, rp->p->data_blocks + parent, 1, pblock,
			     err);
	same = !r && !memcmp(digest, pblock + slot, rp->g->digest_size);
	free(pblock);
	return r ? r : same;
}

/* ---- rebuilt blocks: written at once, or kept (dry run) ---- */

/* Adds a rebuilt block to the overlay; the overlay stays sorted. Blocks
 * of one round never overlap those of another, and each is added once. */
static int overlay_add(struct fec_overlay *ov, uint64_t c, const uint8_t *block,
		       size_t bs, struct fv_error *err)
{
	uint8_t *copy;
	size_t i;

	if (ov->bytes + bs > OVERLAY_MAX_BYTES)
		return fv_fail(err, ENOMEM,
			       "a dry run holds rebuilt blocks in memory, and "
			       "more than %u MiB are needed: run repair "
			       "without --dry-run",
			       OVERLAY_MAX_BYTES >> 20);
	if (ov->count == ov->cap) {
		size_t cap = ov->cap ? 2 * ov->cap : 64;
		uint64_t *ix = realloc(ov->index, cap * sizeof(*ix));
		uint8_t **bl;

		if (!ix)
			return fv_fail(err, ENOMEM, "out of memory");
		ov->index = ix;
		bl = realloc(ov->block, cap * sizeof(*bl));
		if (!bl)
			return fv_fail(err, ENOMEM, "out of memory");
		ov->block = bl;
		ov->cap = cap;
	}
	copy = malloc(bs);
	if (!copy)
		return fv_fail(err, ENOMEM, "out of memory");
	memcpy(copy, block, bs);
	for (i = ov->count; i > 0 && ov->index[i - 1] > c; i--) {
		ov->index[i] = ov->index[i - 1];
		ov->block[i] = ov->block[i - 1];
	}
	ov->index[i] = c;
	ov->block[i] = copy;
	ov->count++;
	ov->bytes += bs;
	return 0;
}

static void overlay_free(struct fec_overlay *ov)
{
	for (size_t i = 0; i < ov->count; i++)
		free(ov->block[i]);
	free(ov->index);
	free(ov->block);
	memset(ov, 0, sizeof(*ov));
}

static int commit_block(struct repair *rp, uint64_t c, const uint8_t *block,
			struct fv_error *err)
{
	size_t bs = rp->l->fec.block_size;
	uint64_t nd = rp->p->data_blocks;

	if (rp->dry_run)
		return overlay_add(&rp->ov, c, block, bs, err);
	if (c < nd)
		return verity_device_write(&rp->data, c * bs, block, bs, err);
	return verity_device_write(
		&rp->hash, rp->l->tree_offset + (c - nd) * bs, block, bs, err);
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
	f->level = level_of(rp->g, c - nd);
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
		  const unsigned *cand_pos, size_t ncand, struct fv_error *err)
{
	size_t bs = rp->l->fec.block_size;
	const struct verity_fec_layout *fl = &rp->l->fec;

	for (size_t k = 0; k < ncand; k++) {
		unsigned i = cand_pos[k];
		uint64_t c = (uint64_t)i * fl->rounds + st->n;
		const uint8_t *blk = rp->candidate + k * bs;
		struct verity_failure f;
		size_t pk;
		int r;

		for (pk = 0; pk < st->nproven && st->proven_pos[pk] != i; pk++)
			;
		if (pk == st->nproven || st->fixed[pk] || bit(rp->rebuilt, c))
			continue;
		r = proven(rp, c, blk, err);
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
		failure_of(rp, c, &f);
		if (rp->event)
			rp->event(rp->ctx, VERITY_REPAIRED, &f);
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
			const unsigned *pos, unsigned ne, struct fv_error *err)
{
	const struct fec_rs *rs = &rp->rs;
	size_t bs = rp->l->fec.block_size;
	struct fec_rs_erasure e;
	uint8_t *src[FEC_RS_N + FEC_MAX_ROOTS], *out[FEC_MAX_ROOTS];
	int r = fec_rs_erasure_init(rs, &e, pos, ne, err);

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
	fec_rs_erasure_decode(rs, &e, bs, src, out);
	fec_rs_erasure_free(&e);
	return accept(rp, st, pos, ne, err);
}

/* Error (and erasure) decoding codeword by codeword with libfec: finds
 * unknown bad bytes, roots / 2 per codeword with no erasures. */
static int try_karn(struct repair *rp, struct round_state *st,
		    const unsigned *eras, unsigned ne, struct fv_error *err)
{
	const struct fec_rs *rs = &rp->rs;
	size_t bs = rp->l->fec.block_size;
	unsigned cand[FEC_RS_N];
	int epos[FEC_MAX_ROOTS];
	uint8_t cw[FEC_RS_N];

	for (unsigned t = 0; t < ne; t++)
		epos[t] = (int)eras[t];
	for (size_t k = 0; k < st->nproven; k++)
		cand[k] = st->proven_pos[k];
	for (size_t b = 0; b < bs; b++) {
		for (unsigned i = 0; i < rs->rsn; i++)
			cw[i] = rp->round[i * bs + b];
		for (unsigned j = 0; j < rs->roots; j++)
			cw[rs->rsn + j] = rp->parity[b * rs->roots + j];
		fec_rs_decode_codeword(rs, cw, epos, (int)ne);
		for (size_t k = 0; k < st->nproven; k++)
			rp->candidate[k * bs + b] = cw[cand[k]];
	}
	return accept(rp, st, cand, st->nproven, err);
}

static int repair_round(struct repair *rp, struct round_state *st,
			struct fv_error *err)
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

		r = fec_read_covered(&rp->src, c, 1, rp->round + i * bs, err);
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
	r = verity_device_read(&rp->fec, fl->offset + st->n * bs * fl->roots,
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
		       struct fv_error *err)
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
				return fv_fail(err, ENOMEM, "out of memory");
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
		       uint64_t *accepted, struct fv_error *err)
{
	uint64_t rounds = rp->l->fec.rounds;
	struct round_state *st = malloc(sizeof(*st));
	int r = 0;

	if (!st)
		return fv_fail(err, ENOMEM, "out of memory");
	*accepted = 0;
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

static int open_all(struct repair *rp, const char *data_path,
		    const char *hash_path, const struct verity_fec_params *fp,
		    size_t root_size, struct fv_error *err)
{
	enum verity_open_mode mode =
		rp->dry_run ? VERITY_OPEN_READ : VERITY_OPEN_WRITE;
	int r;

	r = verity_open_pair(rp->p, data_path, hash_path, root_size, mode,
			     &rp->data, &rp->hash, rp->l, err);
	if (r)
		return r;
	/* the parity is written only when asked to be */
	return verity_fec_open(rp->p, rp->l, fp,
			       rp->how & VERITY_REPAIR_REWRITE_PARITY
				       ? mode
				       : VERITY_OPEN_READ,
			       &rp->data, &rp->hash, &rp->fec, err);
}

static void close_all(struct repair *rp)
{
	verity_device_close(&rp->fec);
	verity_device_close(&rp->hash);
	verity_device_close(&rp->data);
}

static int flush(const struct verity_device *d, struct fv_error *err)
{
	if (fsync(d->fd) < 0 && errno != EINVAL)
		return fv_fail(err, EIO, "%s: cannot flush: %s", d->path,
			       strerror(errno));
	return 0;
}

static int run_passes(struct repair *rp, struct fv_error *err)
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

/* ---- parity rewritten from blocks proven in the same read ---- */

/* Tree blocks proven against the root since the rewrite began: the last
 * one of each level, content and index. */
struct proof_cache {
	uint8_t *block; /* levels blocks */
	uint64_t index[HT_MAX_LEVELS];
	int valid[HT_MAX_LEVELS];
};

static int prove_block(struct repair *rp, struct proof_cache *pc, uint64_t c,
		       const uint8_t *block, struct fv_error *err);

/* Tree block t as read now and proven, or NULL (*r: 0 when it does not
 * prove, else the error). */
static const uint8_t *proven_tree_block(struct repair *rp,
					struct proof_cache *pc, uint64_t t,
					int *r, struct fv_error *err)
{
	uint32_t lv = level_of(rp->g, t);
	uint8_t *buf = pc->block + (size_t)lv * rp->l->fec.block_size;

	*r = 0;
	if (pc->valid[lv] && pc->index[lv] == t)
		return buf;
	pc->valid[lv] = 0;
	*r = fec_read_covered(&rp->src, rp->p->data_blocks + t, 1, buf, err);
	if (!*r)
		*r = prove_block(rp, pc, rp->p->data_blocks + t, buf, err);
	if (*r != 1)
		return NULL;
	*r = 0;
	pc->valid[lv] = 1;
	pc->index[lv] = t;
	return buf;
}

/* 1 when covered block c, holding block, is what the root says, through
 * tree blocks read now; 0 when not; a negative errno. Blocks that no tree
 * block covers (the hash device's tail) prove nothing and pass. */
static int prove_block(struct repair *rp, struct proof_cache *pc, uint64_t c,
		       const uint8_t *block, struct fv_error *err)
{
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	const uint8_t *parent_block;
	uint64_t parent;
	size_t slot;
	int r;

	if (parent_slot(rp, c, &parent, &slot))
		return 1;
	if (ht_hash_blocks(&rp->h, block, rp->l->fec.block_size, 1, digest,
			   sizeof(digest), err))
		return -EIO;
	if (parent == UINT64_MAX)
		return !memcmp(digest, rp->root, rp->g->digest_size);
	parent_block = proven_tree_block(rp, pc, parent, &r, err);
	if (!parent_block)
		return r;
	return !memcmp(digest, parent_block + slot, rp->g->digest_size);
}

/* Rewrites the parity of each stale round from its blocks, each read
 * once and proven against the root before it goes in: a block that
 * changed since the verify pass stops the rewrite, with its round left
 * as it was. */
static int rewrite_rounds(struct repair *rp, const uint8_t *stale,
			  struct fv_error *err)
{
	const struct verity_fec_layout *fl = &rp->l->fec;
	size_t bs = fl->block_size, round_bytes = bs * fl->roots;
	uint8_t *src[FEC_RS_N], *planes[FEC_MAX_ROOTS];
	struct proof_cache pc = {NULL, {0}, {0}};
	int r = 0;

	pc.block = malloc((size_t)(rp->g->levels ? rp->g->levels : 1) * bs);
	if (!pc.block)
		return fv_fail(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < rp->rs.rsn; i++)
		src[i] = rp->round + (size_t)i * bs;
	for (unsigned k = 0; k < fl->roots; k++)
		planes[k] = rp->planes + (size_t)k * bs;
	for (uint64_t n = 0; !r && n < fl->rounds; n++) {
		if (!bit(stale, n))
			continue;
		for (unsigned i = 0; !r && i < rp->rs.rsn; i++) {
			uint64_t c = (uint64_t)i * fl->rounds + n;
			struct verity_failure f;

			r = fec_read_covered(&rp->src, c, 1, src[i], err);
			if (!r && c < fl->blocks)
				r = prove_block(rp, &pc, c, src[i], err);
			else if (!r)
				r = 1;
			if (r == 1) {
				r = 0;
				continue;
			}
			if (r)
				break;
			failure_of(rp, c, &f);
			r = fv_fail(err, ESTALE,
				    "%s: %s %llu no longer matches the tree "
				    "(changed while repair ran?); the parity "
				    "of its round is left as it was",
				    c < rp->p->data_blocks ? rp->data.path
							   : rp->hash.path,
				    c < rp->p->data_blocks ? "data block"
							   : "hash block",
				    (unsigned long long)f.block);
		}
		if (r)
			break;
		fec_encode_stored(&rp->rs, bs, src, planes, rp->parity);
		r = verity_device_write(&rp->fec, fl->offset + n * round_bytes,
					rp->parity, round_bytes, err);
		if (!r)
			rp->res->parity_rewritten++;
	}
	free(pc.block);
	return r;
}

/* Parity that disagrees with verified data: counted; rewritten only when
 * asked, and only when few codewords disagree (more says the parity is
 * not this image's: another file, or other roots or offset). */
static int parity_pass(struct repair *rp, const struct ht_options *opt,
		       struct fv_error *err)
{
	const struct verity_fec_layout *fl = &rp->l->fec;
	int rewrite = rp->how & VERITY_REPAIR_REWRITE_PARITY;
	struct fec_pass_result pr = {0, 0, NULL};
	uint8_t *skip;
	int r;

	skip = unverified_rounds(rp, &rp->res->unchecked_rounds);
	if (!skip)
		return fv_fail(err, ENOMEM, "out of memory");
	if (rewrite && !(pr.stale = calloc((fl->rounds + 7) / 8, 1))) {
		free(skip);
		return fv_fail(err, ENOMEM, "out of memory");
	}
	r = fec_parity_pass(&rp->src, &rp->rs, FEC_PASS_CHECK, skip,
			    opt ? opt->threads : 1, &pr, err);
	free(skip);
	rp->res->stale_codewords = pr.stale_codewords;
	rp->res->stale_rounds = pr.stale_rounds;
	rp->res->rewrite_limit = verity_parity_rewrite_limit(fl);
	if (!r && rewrite && pr.stale_codewords > rp->res->rewrite_limit)
		r = fv_fail(err, EINVAL,
			    "%s: %llu of %llu parity codewords disagree with "
			    "the verified image, more than the %d%% (%llu) "
			    "that damage explains: it is not this image's "
			    "parity, or --fec-roots or --fec-offset is wrong; "
			    "nothing rewritten",
			    fl->on_hash_device ? rp->hash.path : rp->fec.path,
			    (unsigned long long)pr.stale_codewords,
			    (unsigned long long)(fl->rounds * fl->block_size),
			    VERITY_PARITY_REWRITE_PERCENT,
			    (unsigned long long)rp->res->rewrite_limit);
	if (!r && rewrite && pr.stale_rounds && !rp->dry_run)
		r = rewrite_rounds(rp, pr.stale, err);
	if (!r && rp->res->parity_rewritten)
		r = flush(&rp->fec, err);
	free(pr.stale);
	return r;
}

static int finish(struct repair *rp, const struct ht_options *opt,
		  struct fv_error *err)
{
	uint64_t nd = rp->p->data_blocks, remaining = 0;
	int r = 0;

	for (uint64_t c = 0; c < nd + rp->g->tree_blocks; c++) {
		struct verity_failure f;

		if (!bit(rp->bad, c))
			continue;
		remaining++;
		/* rebuilt, and bad again: the write did not take (a medium
		 * that still cannot read it) */
		if (bit(rp->rebuilt, c))
			rp->res->repaired--;
		failure_of(rp, c, &f);
		if (rp->event)
			rp->event(rp->ctx, VERITY_UNREPAIRED, &f);
	}
	rp->res->bad_blocks = rp->res->repaired + remaining;
	if (!rp->dry_run && rp->res->repaired)
		r = flush(&rp->data, err);
	if (!r && !rp->dry_run && rp->res->repaired)
		r = flush(&rp->hash, err);
	if (!r)
		r = parity_pass(rp, opt, err);
	return r;
}

/* verify's first step: a top that matches neither the root nor a top
 * rebuilt from its children is a wrong root hash or parameter, not
 * damage: 1 (res says root_first) and nothing else is judged. */
static int wrong_root(struct repair *rp, int *r, struct fv_error *err)
{
	struct verity_io_ctx ioctx = {&rp->data, &rp->hash, rp->l->tree_offset,
				      NULL};
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

uint64_t verity_parity_rewrite_limit(const struct verity_fec_layout *fl)
{
	uint64_t all = fl->rounds * fl->block_size;
	uint64_t limit = all / 100 * VERITY_PARITY_REWRITE_PERCENT;

	return limit > fl->block_size ? limit : fl->block_size;
}

int verity_fec_repair(struct verity_params *p, const char *data_path,
		      const char *hash_path, const struct verity_fec_params *fp,
		      unsigned how, const struct ht_options *opt,
		      const uint8_t *root, size_t root_size,
		      verity_report_fn report, verity_repair_fn event,
		      void *ctx, struct verity_fec_result *res,
		      struct verity_layout *layout, struct fv_error *err)
{
	struct verity_layout l;
	struct repair rp;
	size_t bs;
	int r;

	memset(&rp, 0, sizeof(rp));
	memset(res, 0, sizeof(*res));
	if (!fp || !fp->device)
		return fv_fail(err, EINVAL, "no FEC device given");
	rp.p = p;
	rp.l = &l;
	rp.g = &l.geo;
	rp.opt = opt;
	rp.root = root;
	rp.how = how;
	rp.dry_run = (how & VERITY_REPAIR_DRY_RUN) != 0;
	rp.report = report;
	rp.event = event;
	rp.ctx = ctx;
	rp.res = res;
	rp.first_pass = 1;
	rp.data.fd = rp.hash.fd = rp.fec.fd = -1;
	r = open_all(&rp, data_path, hash_path, fp, root_size, err);
	if (r) {
		close_all(&rp);
		return r;
	}
	if (layout)
		*layout = l;
	rp.src = (struct fec_source){&rp.data, &rp.hash, &rp.fec, &l.fec,
				     &rp.ov};
	bs = l.fec.block_size;
	r = fec_rs_init(&rp.rs, l.fec.roots, err);
	if (r) {
		close_all(&rp);
		return r;
	}
	r = ht_hasher_init(&rp.h, p->hash_name, p->hash_type, p->salt,
			   p->salt_size, err);
	if (r) {
		fec_rs_free(&rp.rs);
		close_all(&rp);
		return r;
	}
	rp.bad = calloc((l.fec.blocks + 7) / 8, 1);
	rp.rebuilt = calloc((l.fec.blocks + 7) / 8, 1);
	rp.trusted = calloc((l.geo.tree_blocks + 7) / 8 + 1, 1);
	rp.round = malloc(bs * rp.rs.rsn);
	rp.parity = malloc(bs * l.fec.roots);
	rp.planes = malloc(bs * l.fec.roots);
	rp.candidate = malloc(bs * FEC_RS_N);
	if (!rp.bad || !rp.rebuilt || !rp.trusted || !rp.round || !rp.parity ||
	    !rp.planes || !rp.candidate)
		r = fv_fail(err, ENOMEM, "out of memory");
	if (!r && (how & VERITY_REPAIR_ROOT_FIRST) && wrong_root(&rp, &r, err))
		goto out;
	if (!r)
		r = run_passes(&rp, err);
	if (!r)
		r = finish(&rp, opt, err);
out:
	free(rp.bad);
	free(rp.rebuilt);
	free(rp.trusted);
	free(rp.round);
	free(rp.parity);
	free(rp.planes);
	free(rp.candidate);
	overlay_free(&rp.ov);
	ht_hasher_free(&rp.h);
	fec_rs_free(&rp.rs);
	close_all(&rp);
	return r;
}
