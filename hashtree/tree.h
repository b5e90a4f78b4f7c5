/* Building and verifying a hash tree through caller-supplied I/O.
 * Memory is bounded by a window of a few hash blocks and one read chunk,
 * never by the size of the image. */
#ifndef FV_TREE_H
#define FV_TREE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "geometry.h"
#include "hasher.h"

/* Data offsets are bytes from the start of the data area; tree offsets are
 * bytes from the start of the tree (the first block of the top level). */
struct ht_io {
	void *ctx;
	int (*read_data)(void *ctx, uint64_t off, void *buf, size_t len,
			 struct ht_error *err);
	int (*read_tree)(void *ctx, uint64_t off, void *buf, size_t len,
			 struct ht_error *err);
	int (*write_tree)(void *ctx, uint64_t off, const void *buf, size_t len,
			  struct ht_error *err);
	/* Optional. Says whether data offset off lies in a uniform run
	 * (*is_hole: a hole, or a run of one 4-byte pattern, *pattern, as
	 * the bytes from off lie, little-endian; 0 for zeros) and where that
	 * run or data extent ends. A run's blocks are not read, and their
	 * one digest is computed once per run. */
	int (*data_extent)(void *ctx, uint64_t off, int *is_hole,
			   uint32_t *pattern, uint64_t *end);
	/* Optional. Maps data [off, off + len) read-only instead of copying
	 * it; unmap_data releases what map_data returned. NULL from
	 * map_data falls back to read_data. */
	const uint8_t *(*map_data)(void *ctx, uint64_t off, size_t len);
	void (*unmap_data)(void *ctx, const uint8_t *p, size_t len);
	/* Optional. Sees the n data blocks from block first right after
	 * ht_build or ht_verify hashes them, while they are in cache (at most
	 * 256 KiB at a time; blocks of zero holes are not shown: they are
	 * zeros; runs of another pattern are read and shown).
	 * worker < opt->threads (at least 1) says which thread calls, so
	 * that each can keep its own state. Non-zero stops the build. */
	int (*data_seen)(void *ctx, unsigned worker, uint64_t first,
			 const uint8_t *blocks, size_t n, struct ht_error *err);
	/* Optional. Asks for data [off, off + len) to be read into the
	 * cache without waiting for it (a hint: nothing is returned). Called
	 * from one thread of its own, ahead of the workers' reads, so that a
	 * cold disk reads while the workers hash. */
	void (*prefetch)(void *ctx, uint64_t off, uint64_t len);
	/* All callbacks may be called from several threads at once. */
};

enum ht_failure_kind {
	HT_BAD_DATA_BLOCK,  /* a data block does not match its leaf digest */
	HT_BAD_HASH_BLOCK,  /* a hash block does not match its parent digest */
	HT_BAD_PADDING,     /* non-zero bytes where a hash block must be zero */
	HT_UNREADABLE_DATA, /* a data block that cannot be read (EIO) */
	HT_UNREADABLE_HASH, /* a hash block that cannot be read (EIO) */
};

struct ht_failure {
	enum ht_failure_kind kind;
	uint32_t level;  /* the level of the bad block (data: not used) */
	uint64_t block;  /* data block index, or tree block index */
	uint32_t offset; /* padding: first byte of the bad spare area */
	int suspect;     /* under a bad hash block: it does not match that
			  * block, which proves nothing (opt->suspects) */
	/* a bad block's digest as computed (digest size bytes), valid
	 * during the report; NULL for the other kinds */
	const uint8_t *digest;
};

typedef void (*ht_report_fn)(void *ctx, const struct ht_failure *f);

/* Worker threads a run may use. */
#define HT_MAX_THREADS 256

/* Progress: bytes hashed so far out of total (data and hash blocks read).
 * Called from worker threads, one call at a time, once per window. */
typedef void (*ht_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* How a build or verify runs. */
struct ht_options {
	unsigned threads; /* 0 or 1: the calling thread only; at most
			   * HT_MAX_THREADS */
	ht_progress_fn progress;
	void *progress_ctx;
	/* Optional: a pass over the image begins, named (ctx:
	 * progress_ctx); the progress calls after it count that pass from
	 * 0 to its own total. */
	void (*pass)(void *ctx, const char *name);
	/* verify: each failure (may be NULL), top levels first, in
	 * position order within a level, one call at a time */
	ht_report_fn report;
	void *report_ctx;
	int no_map;   /* read data, never map it: a file that shrinks is then
		       * an error returned, not a SIGBUS */
	int suspects; /* verify: also hash the blocks under a bad hash
		       * block, and report those that do not match it
		       * (ht_failure.suspect): repair's erasure hints */
};

/* A block is checked when its parent is proven (up to the root); under
 * a bad or unreadable hash block it is unchecked, counted, not blamed. */
struct ht_verify_result {
	uint64_t bad_data_blocks; /* proven bad */
	uint64_t bad_hash_blocks;
	uint64_t bad_padding;
	uint64_t unreadable_blocks;     /* data and hash blocks */
	uint64_t unchecked_data_blocks; /* under a bad hash block */
	uint64_t unchecked_hash_blocks;
	int root_matches;
	int root_first; /* stopped before the tree: see ht_check_top */
};

/* Writes every level, leaves first, and returns the root digest. Level 0
 * and every large level are split into windows of whole parent blocks,
 * handed to opt->threads workers in order; the output does not depend on
 * the number of threads. */
int ht_build(const struct ht_geometry *g, const struct ht_hasher *h,
	     const struct ht_io *io, const struct ht_options *opt,
	     uint8_t *root, struct ht_error *err);

/* Level 0 alone, for a caller that hashes the levels above as its
 * blocks come (fs-verity's digest: memory bounded by a block per level,
 * not by the tree). Each window's level-0 blocks are handed to
 * io->write_tree in one call, whole blocks at their tree offsets, from
 * any worker and out of order, but never more than HT_LEAVES_AHEAD +
 * opt->threads windows past the first one not yet written: a caller who
 * puts them in order keeps at most that many aside. Nothing
 * is read back (read_tree is not called); g->levels must be at least 1.
 * Progress counts the data bytes. */
#define HT_LEAVES_AHEAD 64
int ht_build_leaves(const struct ht_geometry *g, const struct ht_hasher *h,
		    const struct ht_io *io, const struct ht_options *opt,
		    struct ht_error *err);

/* Where the top of the tree stands against the root hash, from at most
 * one hash block and its children (the tree's top two levels). */
enum ht_top {
	HT_TOP_MATCHES,    /* the stored top block hashes to the root */
	HT_TOP_DAMAGED,    /* it does not, but its children rebuild one that
			    * does: the top block itself is damaged */
	HT_TOP_MISMATCH,   /* neither: a wrong root hash or wrong parameters
			    * (salt, sizes, hash, data blocks), far more likely
			    * than damage to two levels at once */
	HT_TOP_UNREADABLE, /* the top block (or the only data block) cannot
			    * be read */
	HT_TOP_UNCERTAIN,  /* it does not match, and some of its children
			    * cannot be read to tell why */
};
int ht_check_top(const struct ht_geometry *g, const struct ht_hasher *h,
		 const struct ht_io *io, const uint8_t *root, enum ht_top *top,
		 struct ht_error *err);

/* Checks the root, then every level from the top down: a block is judged
 * against its parent only when the parent is proven, so a damaged hash
 * block is the one blamed and the blocks under it are counted unchecked.
 * A top block that its children prove damaged (HT_TOP_DAMAGED) is
 * reported, and its children trusted; a top that matches nothing is
 * reported bad with everything under it unchecked. A block that cannot
 * be read (EIO) is reported unreadable and the check goes on. Failures
 * go to opt->report. Returns 0 when the whole check ran (the result says what
 * it found), or a negative errno when it could not run (memory, an I/O error
 * other than EIO). */
/* A pass named to opt->pass, if any (opt may be NULL). */
static inline void ht_pass(const struct ht_options *opt, const char *name)
{
	if (opt && opt->pass)
		opt->pass(opt->progress_ctx, name);
}

int ht_verify(const struct ht_geometry *g, const struct ht_hasher *h,
	      const struct ht_io *io, const struct ht_options *opt,
	      const uint8_t *root, struct ht_verify_result *res,
	      struct ht_error *err);

#endif
