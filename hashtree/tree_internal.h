/* Internal to hashtree/: one level of the tree computed window by window
 * by a pool of workers. window.c hashes and compares one window; pool.c
 * hands windows to threads and publishes results in order; tree.c runs
 * the levels. */
#ifndef FV_TREE_INTERNAL_H
#define FV_TREE_INTERNAL_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <pthread.h>
#include <stdatomic.h>

#include "tree.h"

/* One read of child blocks; fits L2. */
#define CHUNK_BYTES (256u << 10)
/* Most parent blocks in one window. */
#define WINDOW_BYTES (256u << 10)
/* Children per window, about: the last windows of a level then end within
 * a few ms of each other. */
#define WINDOW_CHILD_BYTES (8u << 20)
/* One mapping of data, when mapped. */
#define MAP_BYTES (8u << 20)
/* Level 0: how far past the windows handed out the data is asked for
 * (io->prefetch), and in what steps. */
#define PREFETCH_AHEAD (32u << 20)
#define PREFETCH_STEP  (2u << 20)
/* How far windows may finish ahead of the oldest unfinished one. */
#define DONE_RING 4096
/* ht_build_leaves: the same, much nearer (its caller puts the blocks
 * in order) */
#define LEAVES_AHEAD HT_LEAVES_AHEAD

enum pass_mode { PASS_BUILD, PASS_VERIFY };

/* One level: its parent blocks computed from its child blocks, window by
 * window. Shared by the workers; the fields below `lock` change. */
struct level_pass {
	const struct ht_geometry *g;
	const struct ht_hasher *h;
	const struct ht_io *io;
	enum pass_mode mode;
	uint32_t level;
	size_t child_size;
	uint64_t child_count;
	uint64_t parents; /* parent blocks in this level */
	size_t window;    /* parent blocks per window */
	uint64_t windows;
	const uint8_t *zero_digest; /* level 0: digest of a zero block */
	int seen;                   /* level 0 of a build: call data_seen */
	/* level 0 of a build whose windows hold whole level-1 blocks'
	 * children (small hash blocks): each window also hashes its parents
	 * into level 1 while they are in cache, and level 1 has no pass of
	 * its own (set by ht_level_run) */
	int fuse_up;
	/* ht_build_leaves: level 0 alone, never fused up, its windows
	 * committed at most LEAVES_AHEAD ahead of the oldest unfinished */
	int leaves_only;
	/* verify: bitmaps over the tree's blocks, filled top-down; a level's
	 * bits are final before its blocks are parents */
	uint8_t *untrusted;  /* not proven: bad, unreadable, or under one */
	uint8_t *proven_bad; /* bad or unreadable with a proven parent */
	int children_proven; /* the top's children, proven by the root
			      * through the top they rebuild (HT_TOP_DAMAGED) */
	ht_report_fn report;
	void *report_ctx;
	const struct ht_options *opt;
	uint64_t progress_base, progress_total;

	atomic_uint_fast64_t next_window;
	pthread_mutex_t lock;
	pthread_cond_t turn;
	uint64_t committed; /* windows [0, committed) are all done */
	/* done[wi % DONE_RING]: window wi (< committed + DONE_RING) is done */
	uint8_t done[DONE_RING];
	uint64_t done_bytes;
	int prefetch_stop; /* the workers are done: the prefetcher stops */
	atomic_int error;
	struct ht_error err;
	struct ht_verify_result res;
};

/* What one worker owns: buffers for one window, and what it found. */
struct worker {
	struct level_pass *lp;
	unsigned index; /* 0 .. threads - 1 */
	uint8_t *chunk; /* read buffer, made when first needed */
	size_t chunk_blocks, chunk_bytes;
	size_t window_bytes; /* of computed and stored */
	uint8_t *computed;
	uint8_t *stored;
	uint8_t *upper; /* fuse_up: the window's level-1 blocks */
	size_t upper_bytes;
	struct ht_failure *found;
	size_t nfound;
	/* verify: blocks of this window that could not be read: children
	 * (bit i: child first_child + i) and parents (bit k: parent p0 + k) */
	uint8_t *unread_children, *unread_parents;
	size_t unread_children_bytes, unread_parents_bytes;
	uint64_t first_child;
	int any_unread;
	struct ht_verify_result res;
	const uint8_t *map; /* current mapping of data, if any */
	uint64_t map_off;
	size_t map_len;
	uint64_t window_end; /* byte offset where this window's children end */
	int hole;            /* cached data extent: a uniform run or data */
	uint32_t pattern;    /* ... the run's pattern (0: zeros) */
	uint32_t fill_of;    /* fill_digest is the digest of a block of */
	int fill_known;      /* ... this pattern, when known */
	uint8_t fill_digest[HT_MAX_DIGEST_SIZE];
	uint64_t extent_end; /* ... valid below this data offset */
	uint64_t extent_start;
};

/* window.c: one window, computed and written or compared; knows nothing
 * of the other workers. */
int ht_worker_init(struct worker *w, struct level_pass *lp, unsigned index);
void ht_worker_free(struct worker *w);
/* Hashes window wi and writes it (build) or compares it (verify),
 * keeping what it found in w; *bytes: the child bytes it read. */
int ht_window_run(struct worker *w, uint64_t wi, uint64_t *bytes,
		  struct ht_error *err);

/* Adds the counts of b to a. */
static inline void ht_result_add(struct ht_verify_result *a,
				 const struct ht_verify_result *b)
{
	a->bad_data_blocks += b->bad_data_blocks;
	a->bad_hash_blocks += b->bad_hash_blocks;
	a->bad_padding += b->bad_padding;
	a->unreadable_blocks += b->unreadable_blocks;
	a->unchecked_data_blocks += b->unchecked_data_blocks;
	a->unchecked_hash_blocks += b->unchecked_hash_blocks;
}

/* pool.c: the workers, the order windows are handed out and published
 * in (ht_window_run, then the commit), one-way on window.c. */
int ht_level_run(struct level_pass *lp, unsigned threads, struct ht_error *err);

#endif
