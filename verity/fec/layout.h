/* Where the parity sits and what it covers (docs/format.md, "FEC"), and
 * the checks every action makes before parity is read or written. */
#ifndef FV_FEC_LAYOUT_H
#define FV_FEC_LAYOUT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "verity/storage/device.h"
#include "verity/tree/pair.h"

/* Computes what the parity covers. hash_size is the hash region's size
 * in bytes (used when the parity has a region of its own); the parity is
 * on the hash region when on_hash_device. Refuses block sizes that
 * differ, an offset off the block grid, and parity that would overlap
 * the tree. */
int verity_fec_layout_compute(const struct verity_params *p,
			      const struct verity_layout *l,
			      const struct verity_fec_params *fp,
			      uint64_t hash_size, int on_hash_device,
			      struct verity_fec_layout *fl,
			      struct ht_error *err);

/* The parity of bytes [0, covered) of one device read as blocks of
 * block_size (covered a multiple of it), stored at offset on the same
 * device: the geometry avbtool's parity has under trees of other block
 * sizes (docs/android.md). */
int verity_fec_layout_flat(uint64_t covered, uint32_t block_size,
			   unsigned roots, uint64_t offset,
			   struct verity_fec_layout *fl, struct ht_error *err);

/* Refuses a parity area that overlaps the data or the hash area (of the
 * same file, however named), or does not fit a block device. */
int verity_fec_check_devices(const struct verity_layout *l,
			     const struct verity_fec_layout *fl,
			     const struct verity_device *data,
			     const struct verity_device *hash,
			     const struct verity_device *fec,
			     struct ht_error *err);

/* Lays the parity of the opened fec region out into l->fec, with the
 * checks every action makes: block sizes, offset, overlap with data and
 * tree; existing parity (any mode but CREATE) must fit the region, and
 * its roots, when not given, come from its size (a parity file of its
 * own must be exactly the parity of the roots given). When creating, the
 * hash region's size is taken as what it will be once the tree is
 * written. */
int verity_fec_attach(const struct verity_params *p, struct verity_layout *l,
		      const struct verity_fec_params *fp,
		      enum verity_open_mode mode,
		      const struct verity_devices *d, struct ht_error *err);

/* Fills pair->layout.fec for the pair's parity from the sizes of the hash
 * and parity regions (dump: no data region); roots 0: told from the
 * parity's size. pair->layout must hold the tree's layout. */
int verity_fec_describe(struct verity_pair *pair, struct ht_error *err);

#endif
