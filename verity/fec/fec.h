/* Internal to verity/: the FEC layout and the parity pass over the
 * covered blocks (docs/format.md, "FEC"). */
#ifndef FV_FEC_H
#define FV_FEC_H

#include <pthread.h>

#include "verity/storage/device.h"
#include "verity/fec/rs.h"
#include "verity/verity.h"

/* Computes what the parity covers. hash_size is the hash device's size in
 * bytes (used when the parity has a device of its own); the parity is on
 * the hash device when on_hash_device. Refuses block sizes that differ,
 * an offset off the block grid, and parity that would overlap the tree. */
int verity_fec_layout_compute(const struct verity_params *p,
			      const struct verity_layout *l,
			      const struct verity_fec_params *fp,
			      uint64_t hash_size, int on_hash_device,
			      struct verity_fec_layout *fl,
			      struct fv_error *err);

/* Refuses a parity area that overlaps the data or the hash area of the
 * same file, or does not fit a block device. */
int verity_fec_check_devices(const struct verity_layout *l,
			     const struct verity_fec_layout *fl,
			     const struct verity_device *data,
			     const struct verity_device *hash,
			     const struct verity_device *fec,
			     struct fv_error *err);

/* Opens the FEC device (created with VERITY_OPEN_CREATE) and lays the
 * parity out into l->fec, with the checks every action makes: block
 * sizes, offset, overlap with data and tree; existing parity (any other
 * mode) must fit the device. When creating, the hash device's size is
 * taken as what it will be once the tree is written. Closes fec on
 * failure. */
/* The same for a FEC device the caller opened (format's outputs). */
int verity_fec_attach(const struct verity_params *p, struct verity_layout *l,
		      const struct verity_fec_params *fp,
		      enum verity_open_mode mode,
		      const struct verity_device *data,
		      const struct verity_device *hash,
		      const struct verity_device *fec, struct fv_error *err);
int verity_fec_open(const struct verity_params *p, struct verity_layout *l,
		    const struct verity_fec_params *fp,
		    enum verity_open_mode mode,
		    const struct verity_device *data,
		    const struct verity_device *hash, struct verity_device *fec,
		    struct fv_error *err);

/* Rebuilt blocks kept in memory (dry run), by covered block index. */
struct fec_overlay {
	uint64_t *index; /* sorted */
	uint8_t **block;
	size_t count, cap;
	size_t bytes, max_bytes;
};

/* Copies the overlaid blocks into buf, which holds bytes [off, off + len)
 * of the run of covered blocks that starts at first_block. */
void fec_overlay_patch(const struct fec_overlay *ov, uint64_t first_block,
		       uint64_t off, uint8_t *buf, size_t len, size_t bs);

/* The covered blocks and the parity, as one address space. */
struct fec_source {
	const struct verity_device *data, *hash, *fec;
	const struct verity_fec_layout *fl;
	const struct fec_overlay *overlay; /* may be NULL */
};

/* Reads count covered blocks from index first (zeros past the end). */
int fec_read_covered(const struct fec_source *s, uint64_t first, uint64_t count,
		     uint8_t *buf, struct fv_error *err);

/* Parity computed while the tree is built (format): every data block is
 * added into its rounds' parity as the tree hashes it (ht_io.data_seen),
 * each thread into planes of its own; then the covered hash blocks, the
 * sum over threads, and one write. Used when the planes of all threads
 * fit fec_fused_max_bytes and the roots are at most fec_fused_max_roots
 * (beyond, the read-modify-write of the planes costs more than reading
 * the data again); tests lower these to cover both paths. */
extern size_t fec_fused_max_bytes;
extern unsigned fec_fused_max_roots;

struct fec_fused {
	const struct fec_rs *rs;
	const struct verity_fec_layout *fl;
	unsigned threads;
	size_t plane_bytes;        /* rounds * block size */
	uint8_t *planes;           /* (threads + 1) sets of roots planes */
	pthread_mutex_t tree_lock; /* the last set: tree blocks */
	uint64_t tree_end;         /* tree blocks seen: [0, tree_end) */
};

/* 0 and set up, or 1 when fused encoding does not apply (use
 * fec_parity_pass), or a negative errno. */
int fec_fused_init(struct fec_fused *f, const struct fec_rs *rs,
		   const struct verity_fec_layout *fl, unsigned threads,
		   struct fv_error *err);
/* From ht_io.data_seen: data blocks [first, first + n), just hashed. */
int fec_fused_data_seen(struct fec_fused *f, unsigned worker, uint64_t first,
			const uint8_t *blocks, size_t n, struct fv_error *err);
/* From ht_io.write_tree: tree blocks [tree_block, tree_block + n) as
 * written (the tree starts at the first covered hash block). Any
 * thread. */
void fec_fused_tree_written(struct fec_fused *f, uint64_t tree_block,
			    const uint8_t *blocks, size_t n);
/* Adds the covered hash blocks after the tree, sums the sets and writes
 * the parity area. */
int fec_fused_finish(struct fec_fused *f, const struct fec_source *s,
		     struct fv_error *err);
void fec_fused_free(struct fec_fused *f);

enum fec_pass_mode {
	FEC_PASS_WRITE, /* compute and write all parity */
	FEC_PASS_CHECK, /* compare with the stored parity */
};

struct fec_pass_result {
	uint64_t stale_codewords;
	uint64_t stale_rounds;
	uint8_t *stale; /* check: a bitmap of the stale rounds, or NULL */
};

/* Computes the parity of every round, threads splitting the rounds.
 * skip (may be NULL): a bitmap of rounds left alone (blocks still bad).
 * A check never writes; it marks stale rounds in res->stale when the
 * caller gave a bitmap (rounds bits, zeroed). */
int fec_parity_pass(const struct fec_source *s, const struct fec_rs *rs,
		    enum fec_pass_mode mode, const uint8_t *skip,
		    unsigned threads, struct fec_pass_result *res,
		    struct fv_error *err);

/* The parity of one round (or of a batch of consecutive rounds, len
 * bytes of each message position): src[i] holds symbol position i,
 * planes receives roots planes of len bytes, out the parity as stored
 * (roots bytes per codeword). */
void fec_encode_stored(const struct fec_rs *rs, size_t len, uint8_t *const *src,
		       uint8_t *const *planes, uint8_t *out);

#endif
