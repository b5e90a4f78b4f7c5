/* update's parts (verity/tree/update.c, update_parity.c): the state of
 * one update, shared by the tree's part and the parity's. */
#ifndef FV_TREE_UPDATE_INT_H
#define FV_TREE_UPDATE_INT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtree/hasher.h"
#include "verity/fec/encode.h"
#include "verity/fec/rs.h"
#include "verity/fec/source.h"
#include "verity/tree/io.h"
#include "verity/tree/update.h"

/* Threads an update runs at most. */
#define UPDATE_THREADS 8

/* A growing array of block numbers. */
struct blocks {
	uint64_t *v;
	size_t n, cap;
};

int verity_update_push(struct blocks *b, uint64_t x, struct ht_error *err);
/* Sorts and removes repeats; the new count. */
size_t verity_update_uniq(uint64_t *v, size_t n);
int verity_update_by_u64(const void *a, const void *b);

/* A piece of the parity to write: a run of consecutive rounds encoded
 * from their covered blocks (deltas 0), or one round whose only changes
 * are tree blocks: its stored parity plus each block's change (parity is
 * linear: the parity of new = the parity of old + the parity of
 * new - old in the block's message position), which reads the round and
 * the blocks' old and new bytes, not its rsn covered blocks. */
struct parity_piece {
	uint64_t first, count; /* rounds */
	size_t d0, deltas;     /* a tree-only round: tb pairs [d0, +deltas) */
	size_t at;             /* a held run: its parity at held + at */
};

/* The parity to write, in pieces that each thread free takes next (a
 * thread that starts late, as the second often does here, takes fewer).
 * Held: the runs encoded while the old tree is proven (the covered tree
 * blocks then as they were: their changes are added once they are
 * rewritten). */
struct parity_plan {
	struct fec_source src;
	struct fec_rs rs;
	struct parity_piece *piece;
	size_t n, encodes; /* pieces [0, encodes) are runs encoded */
	uint64_t *tb;      /* (round, tree block) pairs, by round */
	size_t ntb;
	uint8_t *held; /* the runs' parity, if held */
	size_t held_len;
	uint64_t longest; /* rounds in a run at most */
	int planned, full;
	atomic_size_t next;
	atomic_int failed;
};

/* Found by hashing, with parity: the parity made from the verify's reads
 * as format makes it from its own (fused), for a change that reaches so
 * many rounds that they are all encoded again. Off, and its planes not
 * even allocated (tens of MiB: milliseconds here), until the changed
 * blocks found reach start, or reach an eighth of it at a rate that
 * projects twice start over the whole data (read: the blocks seen so
 * far); the chunks read before are kept per thread (first, count pairs)
 * and read again at the end. Used when the plan is the full pass; else
 * dropped. */
struct parity_seen {
	struct fec_fused fused; /* planes NULL: not made */
	const struct verity_run *run;
	unsigned threads;
	atomic_uint_fast64_t found;
	atomic_uint_fast64_t read;
	uint64_t start, total;
	atomic_int on;        /* 1: planes made; -1: they cannot be */
	pthread_mutex_t lock; /* over turning it on */
	int made;             /* lock initialised */
	struct blocks missed[UPDATE_THREADS];
};

struct update {
	struct verity_pair *pair;
	const struct ht_geometry *g;
	struct verity_devices d;
	struct ht_hasher h;
	/* the tree's place in memory (a private anonymous mapping: the
	 * pages never touched cost nothing): the upper levels and the
	 * leaves in need, as on disk, then as rewritten */
	uint8_t *tree;
	size_t tree_len;
	/* the rewritten blocks' bytes before, in the same places (kept:
	 * one bit per tree block), for the parity's deltas; NULL when no
	 * parity is added to, only encoded again */
	uint8_t *old;
	uint64_t *kept;
	size_t hbs, dbs;
	struct blocks changed; /* data blocks */
	struct blocks need;    /* level-0 blocks over them */
	struct blocks dirty;   /* tree blocks rewritten */
	uint8_t root[HT_MAX_DIGEST_SIZE];
	/* found by hashing: the changed blocks' digests as the verify
	 * computed them, in the order of changed (NULL: hash them again) */
	uint8_t *found_digests;
	struct parity_plan parity;
	struct parity_seen seen;
};
/* Found by hashing, with parity: the verify's reads made into parity
 * too, for threads workers (io->data_seen set, ctx an update_io). */
struct update_io {
	struct verity_io_ctx io; /* first: the io's context */
	struct update *u;
};
int verity_update_seen_start(struct update *u, const struct verity_run *run,
			     struct ht_io *io, struct ht_error *err);

/* One thread's buffers for encoding runs (taken at the first run). */
struct parity_bufs {
	uint8_t *buf;
	uint8_t *msg[FEC_RS_N], *planes[FEC_MAX_ROOTS], *out;
};

/* The runs of the rounds the changed data blocks are in (and, without
 * u->old, the rounds of the tree blocks rewritten), held if hold (the
 * tree blocks' changes to be added: u->old is kept), or the pass over
 * every round if they are many. */
int verity_update_parity_plan(struct update *u, int hold, struct ht_error *err);
/* One held run taken and encoded: 1, 0 when none is left, or an error. */
int verity_update_parity_hold(struct update *u, struct parity_bufs *b,
			      struct ht_error *err);
void verity_update_parity_bufs_free(struct parity_bufs *b);
/* The parity written (all: every round encoded again) once the tree
 * blocks are: the plan's runs (held: with the tree blocks' changes
 * added), then the rounds only tree blocks changed in. */
int verity_update_parity_write(struct update *u, int all,
			       const struct ht_options *opt,
			       struct verity_update_result *res,
			       struct ht_error *err);
void verity_update_parity_free(struct update *u);

#endif
