/* Building and verifying a hash tree through caller-supplied I/O.
 * Memory is bounded by a window of a few hash blocks and one read chunk,
 * never by the size of the image. */
#ifndef FV_TREE_H
#define FV_TREE_H

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
			 struct fv_error *err);
	int (*read_tree)(void *ctx, uint64_t off, void *buf, size_t len,
			 struct fv_error *err);
	int (*write_tree)(void *ctx, uint64_t off, const void *buf,
			  size_t len, struct fv_error *err);
};

enum ht_failure_kind {
	HT_BAD_DATA_BLOCK, /* a data block does not match its leaf digest */
	HT_BAD_HASH_BLOCK, /* a hash block does not match its parent digest */
	HT_BAD_PADDING,	   /* non-zero bytes where a hash block must be zero */
};

struct ht_failure {
	enum ht_failure_kind kind;
	uint32_t level;	  /* the level of the bad block (data: not used) */
	uint64_t block;	  /* data block index, or tree block index */
	uint32_t offset;  /* padding: first byte of the bad spare area */
};

typedef void (*ht_report_fn)(void *ctx, const struct ht_failure *f);

struct ht_verify_result {
	uint64_t bad_data_blocks;
	uint64_t bad_hash_blocks;
	uint64_t bad_padding;
	int root_matches;
};

/* Writes every level, leaves first, and returns the root digest. */
int ht_build(const struct ht_geometry *g, const struct ht_hasher *h,
	     const struct ht_io *io, uint8_t *root, struct fv_error *err);

/* Checks every data block, hash block, spare area and the root, reporting
 * each failure through report (may be NULL) as it is found. Returns 0 when
 * the whole check ran (the result says what it found), or a negative errno
 * when it could not run (I/O, memory). */
int ht_verify(const struct ht_geometry *g, const struct ht_hasher *h,
	      const struct ht_io *io, const uint8_t *root, ht_report_fn report,
	      void *report_ctx, struct ht_verify_result *res,
	      struct fv_error *err);

#endif
