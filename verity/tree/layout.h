/* Where everything of a verity pair sits: the tree's geometry and place
 * on the hash device, and the parity's (docs/format.md). */
#ifndef FV_TREE_LAYOUT_H
#define FV_TREE_LAYOUT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "hashtree/geometry.h"
#include "hashtree/hasher.h"
#include "verity/tree/params.h"

#define VERITY_FEC_DEFAULT_ROOTS 2

/* Where the roots of existing parity came from. */
enum verity_roots_source {
	VERITY_ROOTS_GIVEN,     /* the caller's value */
	VERITY_ROOTS_INFERRED,  /* the one value the FEC device's size fits */
	VERITY_ROOTS_DEFAULT,   /* a block device or shared file: its size
				 * does not tell, veritysetup's default */
	VERITY_ROOTS_DESCRIBED, /* a container's metadata (an Android
				 * image's hashtree descriptor) */
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

/* Validates p, then lays the tree out (no parity). */
int verity_layout_compute(const struct verity_params *p,
			  struct verity_layout *l, struct ht_error *err);
/* The same for parameters already validated (a pair's). */
int verity_layout_of(const struct verity_params *p, struct verity_layout *l,
		     struct ht_error *err);
void verity_fill_info(struct verity_info *info, const struct ht_hasher *h);

#endif
