/* The covered blocks (data, then the hash device's) and the parity as
 * one address space; and the blocks a dry run rebuilt, kept in memory in
 * their place. */
#ifndef FV_FEC_SOURCE_H
#define FV_FEC_SOURCE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/storage/device.h"
#include "verity/tree/layout.h"

/* Rebuilt blocks kept in memory (dry run), by covered block index. */
struct fec_overlay {
	uint64_t *index; /* sorted */
	uint8_t **block;
	size_t count, cap;
	size_t bytes;
};

/* A dry run holds rebuilt blocks in memory; beyond this it stops. */
#define FEC_OVERLAY_MAX_BYTES (64u << 20)

/* Adds a rebuilt block (bs bytes) as covered block c; the overlay stays
 * sorted. Each block is added once. -ENOMEM past FEC_OVERLAY_MAX_BYTES. */
int verity_fec_overlay_add(struct fec_overlay *ov, uint64_t c,
			   const uint8_t *block, size_t bs,
			   struct ht_error *err);
/* 1 when covered block c is in the overlay. */
int verity_fec_overlay_has(const struct fec_overlay *ov, uint64_t c);
void verity_fec_overlay_free(struct fec_overlay *ov);
/* Copies the overlaid blocks into buf, which holds bytes [off, off + len)
 * of the run of covered blocks that starts at first_block. */
void verity_fec_overlay_patch(const struct fec_overlay *ov,
			      uint64_t first_block, uint64_t off, uint8_t *buf,
			      size_t len, size_t bs);

/* The covered blocks and the parity. */
struct fec_source {
	const struct verity_device *data, *hash, *fec;
	const struct verity_fec_layout *fl;
	const struct fec_overlay *overlay; /* may be NULL */
};

/* Reads count covered blocks from index first (zeros past the end). */
int verity_fec_read_covered(const struct fec_source *s, uint64_t first,
			    uint64_t count, uint8_t *buf, struct ht_error *err);

#endif
