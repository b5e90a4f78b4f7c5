/* libfastverity: build, check and describe dm-verity hash trees.
 * Functions return 0 or a negative errno with a message in *err; the
 * library never prints. */
#ifndef FV_VERITY_H
#define FV_VERITY_H

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "hashtree/geometry.h"
#include "hashtree/hasher.h"
#include "hashtree/tree.h"
#include "verity/tree/params.h"

/* Reed-Solomon parity (FEC) over data and tree; docs/format.md, "FEC".
 * Not in the superblock: the caller names the device, offset and roots. */
struct verity_fec_params {
	const char *device; /* NULL: no FEC */
	uint64_t offset;    /* bytes, a multiple of the block size */
	unsigned roots;     /* 2 to 24 parity bytes per codeword; 0: for
			     * existing parity, the one value the FEC
			     * device's size fits (VERITY_FEC_DEFAULT_ROOTS
			     * where the size cannot tell); for format, the
			     * default */
};

#define VERITY_FEC_DEFAULT_ROOTS 2

/* Where the roots of existing parity came from. */
enum verity_roots_source {
	VERITY_ROOTS_GIVEN,    /* the caller's value */
	VERITY_ROOTS_INFERRED, /* the one value the FEC device's size fits */
	VERITY_ROOTS_DEFAULT,  /* a block device or shared file: its size
				* does not tell, veritysetup's default */
};

/* Where the parity sits and what it covers. */
struct verity_fec_layout {
	unsigned roots;            /* 0: no FEC */
	unsigned rsn;              /* message symbols per codeword */
	uint32_t block_size;       /* data and hash block size (equal) */
	uint64_t data_blocks;      /* covered blocks of the data device */
	uint64_t hash_start_block; /* first covered block of the hash device */
	uint64_t hash_blocks;      /* covered blocks of the hash device */
	uint64_t blocks;       /* all covered blocks: the table's fec_blocks */
	uint64_t rounds;       /* ceil(blocks / rsn) */
	uint64_t offset;       /* byte offset of the parity area */
	uint64_t parity_bytes; /* rounds * roots * block_size */
	int on_hash_device;    /* the parity follows the tree */
	enum verity_roots_source roots_source;
};

/* Where everything sits, derived from validated parameters. */
struct verity_layout {
	struct ht_geometry geo;
	uint64_t data_bytes;      /* data_blocks * data_block_size */
	uint64_t hash_area_start; /* first byte format writes */
	uint64_t tree_offset;     /* byte offset of the tree */
	uint64_t hash_end;        /* byte just after the tree */
	struct verity_fec_layout fec;
};

/* What ran, for --debug and --json. */
struct verity_info {
	const char *hash_path; /* "fast" or "generic" */
	const char *path_reason;
	const char *kernel; /* SHA-256 kernel on the fast path */
	char provider[32];
};

struct verity_failure {
	enum ht_failure_kind kind;
	uint64_t position; /* data-device offset (data block) or
			    * hash-device offset (hash block, padding) */
	uint64_t block;    /* data block index, or hash block index on
			    * the hash device */
	uint32_t level;    /* level of the bad hash block or padding */
};

typedef void (*verity_report_fn)(void *ctx, const struct verity_failure *f);

int verity_layout_compute(const struct verity_params *p,
			  struct verity_layout *l, struct fv_error *err);

/* Reads and validates the superblock at p->hash_offset of hash_path into
 * p. */
int verity_read_superblock(const char *hash_path, struct verity_params *p,
			   struct fv_error *err);

/* opt (may be NULL) sets the worker threads and a progress callback. */

/* Builds the tree of data_path into hash_path and writes the superblock
 * last. p->data_blocks == 0 takes every block of the data device (which
 * must then be a whole number of blocks) and is filled in. root receives
 * the digest (HT_MAX_DIGEST_SIZE bytes). */
int verity_format(struct verity_params *p, const char *data_path,
		  const char *hash_path, const struct verity_fec_params *fec,
		  const struct ht_options *opt, uint8_t *root,
		  struct verity_layout *layout, struct verity_info *info,
		  struct fv_error *err);

/* Checks everything, reporting each failure through report. The devices
 * are opened read-only. p must be complete (from the superblock, or given
 * with no_superblock); data_blocks == 0 is resolved from the device. */
int verity_verify(struct verity_params *p, const char *data_path,
		  const char *hash_path, const struct ht_options *opt,
		  const uint8_t *root, size_t root_size,
		  verity_report_fn report, void *report_ctx,
		  struct ht_verify_result *res, struct verity_info *info,
		  struct fv_error *err);

/* Fills l->fec for the parity fp describes, from the sizes of the hash
 * and FEC devices (for dump); roots 0: inferred from the FEC device's
 * size. */
int verity_fec_describe(const struct verity_params *p, struct verity_layout *l,
			const char *hash_path,
			const struct verity_fec_params *fp,
			struct fv_error *err);

/* FEC: what a check or a repair found and did. */
struct verity_fec_result {
	struct ht_verify_result before; /* the first pass */
	struct ht_verify_result after;  /* the image as left */
	uint64_t bad_blocks;            /* data and hash blocks proven bad */
	uint64_t repaired;              /* rebuilt and proven by the tree */
	uint64_t passes;                /* verify passes run */
	uint64_t stale_codewords; /* parity that disagrees with good data */
	uint64_t stale_rounds;
	uint64_t unchecked_rounds; /* rounds with blocks still bad */
	uint64_t parity_rewritten; /* rounds of parity written again */
	uint64_t rewrite_limit;    /* most stale codewords that may be */
};

/* Most stale parity codewords a repair rewrites: 5% of all codewords,
 * and at least one round's. More says the parity is not this image's
 * (another file's, or other roots or offset): then nearly every codeword
 * disagrees, where damage spoils a few parity blocks. */
#define VERITY_PARITY_REWRITE_PERCENT 5
uint64_t verity_parity_rewrite_limit(const struct verity_fec_layout *fl);

enum verity_repair_flags {
	VERITY_REPAIR_DRY_RUN = 1u << 0,        /* read-only */
	VERITY_REPAIR_REWRITE_PARITY = 1u << 1, /* rewrite stale parity */
	VERITY_REPAIR_ROOT_FIRST = 1u << 2,     /* as verify: a wrong root
						 * hash stops before any
						 * block is judged */
};

enum verity_repair_event {
	VERITY_REPAIRED,   /* the block was rebuilt (or would be) */
	VERITY_UNREPAIRED, /* still bad at the end */
};
typedef void (*verity_repair_fn)(void *ctx, enum verity_repair_event ev,
				 const struct verity_failure *f);

/* Verifies, then rebuilds every bad block FEC can from the parity,
 * writing back only blocks whose new content matches a parent digest
 * proven by the root, hash blocks before the blocks they cover; then
 * checks the parity against the verified data. how (enum
 * verity_repair_flags): DRY_RUN reads only, keeping rebuilt blocks in
 * memory to judge the blocks below them; REWRITE_PARITY rewrites stale
 * parity (refused beyond verity_parity_rewrite_limit()), from blocks
 * proven again as they are read. report receives the first pass's
 * failures, event each repaired and each remaining bad block. Returns 0
 * when it ran (res says what it found), a negative errno when it could
 * not. */
int verity_fec_repair(struct verity_params *p, const char *data_path,
		      const char *hash_path, const struct verity_fec_params *fp,
		      unsigned how, const struct ht_options *opt,
		      const uint8_t *root, size_t root_size,
		      verity_report_fn report, verity_repair_fn event,
		      void *ctx, struct verity_fec_result *res,
		      struct verity_layout *layout, struct fv_error *err);

#endif
