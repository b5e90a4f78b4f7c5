/* The seam of the library: a verity pair, what an operation on it takes
 * (how it runs) and what it gives back. A pair is data, tree and parity
 * as regions of files or devices, with the tree's parameters, the root
 * digest and its signature; containers (sidecar files, Android images,
 * disk images) make pairs, and format, verify, repair, dump and open
 * take them, never knowing where a pair came from. */
#ifndef FV_TREE_PAIR_H
#define FV_TREE_PAIR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/tree.h"
#include "verity/sign/signature.h"
#include "verity/storage/device.h"
#include "verity/tree/layout.h"
#include "verity/tree/params.h"
#include "verity/policy/trust.h"

/* Reed-Solomon parity over data and tree (docs/format.md, "FEC"). Not in
 * the superblock: the caller names the region, offset and roots. */
struct verity_fec_params {
	struct verity_region region; /* path NULL: no parity */
	uint64_t offset; /* bytes into the region, a multiple of the block
			  * size */
	unsigned roots;  /* 2 to 24 parity bytes per codeword; 0: for
			  * existing parity, the one value its size fits
			  * (VERITY_FEC_DEFAULT_ROOTS where the size cannot
			  * tell); for format, the default */
	int described;   /* roots and place from a container's metadata */
};

struct verity_pair {
	struct verity_params params; /* hash_offset: from the hash region's
				      * start */
	struct verity_region data, hash;
	struct verity_fec_params fec;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t root_size;         /* 0: none (format makes it) */
	const uint8_t *signature; /* PKCS#7 over the hex root, or NULL */
	size_t signature_size;
	const char *signature_name; /* its file, for messages */
	/* the container the pair came from, for the trust policy's words
	 * and anchor (verity/policy/trust.h); AUTO: a plain pair */
	enum verity_container container;
	int signature_found; /* the container carries the signature (else
			      * the caller gave it to be checked) */
	/* the door's verdict on the signature (the trust policy, asked once
	 * when the image was opened); judged 0: never asked, and a pair with
	 * a signature is then refused */
	enum verity_trust trust;
	int judged;
	int data_read_only;  /* update: the data is read, not written */
	/* update: the data blocks were given (not read from a superblock,
	 * nor all of the device): a data region larger than they are is
	 * not taken for data that grew */
	int data_blocks_given;
	/* set when the pair is opened: from parameters validated once */
	struct verity_layout layout;
};

/* The pair's devices, open. */
struct verity_devices {
	struct verity_device data, hash, fec; /* fec.fd -1: no parity */
};

/* Opens the data and hash regions (hash_mode: VERITY_OPEN_CREATE for
 * format, the hash image an output made once every check passed; READ
 * for verify and open; WRITE for repair) and the parity's (fec_mode),
 * with every check made before a block is read or written: parameters
 * (validated once), data blocks against the data region (0: all of it,
 * filled in), layout, overlap of any two regions however the devices are
 * named, sizes, the root digest's size; fills pair->layout. Closes all on
 * failure. */
int verity_pair_open(struct verity_pair *pair, enum verity_open_mode hash_mode,
		     enum verity_open_mode fec_mode, struct verity_devices *d,
		     struct ht_error *err);
void verity_pair_close(struct verity_devices *d);

/* One bad block: where it is on its device. */
struct verity_failure {
	enum ht_failure_kind kind;
	uint64_t position; /* data-device offset (data block) or
			    * hash-device offset (hash block, padding) */
	uint64_t block;    /* data block index, or hash block index on
			    * the hash device */
	uint32_t level;    /* level of the bad hash block or padding */
};
typedef void (*verity_report_fn)(void *ctx, const struct verity_failure *f);

enum verity_repair_event {
	VERITY_REPAIRED,   /* the block was rebuilt (or would be) */
	VERITY_UNREPAIRED, /* still bad at the end */
};
typedef void (*verity_repair_fn)(void *ctx, enum verity_repair_event ev,
				 const struct verity_failure *f);

enum verity_run_flags {
	VERITY_RUN_DRY_RUN = 1u << 0,        /* repair: read only */
	VERITY_RUN_REWRITE_PARITY = 1u << 1, /* repair: stale parity too */
	VERITY_RUN_ROOT_FIRST = 1u << 2,     /* a top that matches neither the
					      * root nor its rebuilt self stops
					      * before any block is judged */
	VERITY_RUN_PARITY_MUST_MATCH = 1u << 3, /* verify: parity that is
						 * not this image's (past
						 * the rewrite limit) is
						 * an error */
};

/* Settings tests change to reach every path; 0 is the default. */
struct verity_tuning {
	size_t fused_max_bytes;   /* parity made with the tree only up to
				   * this many bytes of planes */
	unsigned fused_max_roots; /* ... and this many roots */
	int update_hold_leaves;   /* update: the leaves to rewrite held in
				   * memory, never streamed */
};

/* How an operation runs. */
struct verity_run {
	struct ht_options ht;    /* threads, progress, reading */
	unsigned flags;          /* enum verity_run_flags */
	verity_report_fn report; /* each failure as found (verify; repair's
				  * first pass) */
	verity_repair_fn event;  /* repair: each block rebuilt or left */
	void *ctx;
	const char *const *trusted; /* certificates to check the pair's
				     * signature against */
	size_t ntrusted;
	unsigned activation; /* open: enum verity_act_flags */
	enum sha256_choice sha256; /* the SHA-256 kernel (0: the fastest) */
	struct verity_tuning tuning;
};

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

/* What an operation found and made. */
struct verity_outcome {
	uint8_t root[HT_MAX_DIGEST_SIZE]; /* format: the root digest */
	struct verity_layout layout;
	struct verity_info info;     /* the hashing path taken */
	struct ht_verify_result res; /* verify; repair: the image as left
				      * (a dry run: as found) */
	int has_fec;
	struct verity_fec_result fec;
	int signature_checked;
	enum verity_trust trust; /* the policy's verdict on the signature */
	struct verity_sig_check sig;
};

#endif
