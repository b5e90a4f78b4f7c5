/* The 512-byte dm-verity superblock (docs/format.md), little-endian. */
#ifndef FV_TREE_SUPERBLOCK_H
#define FV_TREE_SUPERBLOCK_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "verity/storage/device.h"
#include "verity/tree/params.h"

/* What an interrupted format leaves where the superblock goes (instead
 * of "verity\0\0"): dump and verify call such an image unfinished. */
#define VERITY_SB_UNFINISHED "fvunfin"
/* What an interrupted update leaves there: the superblock with this in
 * place of its magic, and in its padding the old and the new root
 * (verity/tree/update.h). */
#define VERITY_SB_UPDATING       "fvupdat"
#define VERITY_SB_UPDATE_OLD     344 /* the old root, 64 bytes */
#define VERITY_SB_UPDATE_NEW     408 /* the new root, 64 bytes */

/* Fills sb from p (the hash name lowercased). */
void verity_sb_encode(const struct verity_params *p,
		      uint8_t sb[VERITY_SB_SIZE]);

/* Parses and validates sb into p; hash_offset and no_superblock are left as
 * the caller set them. -EINVAL with a message naming the bad field. */
int verity_sb_decode(const uint8_t sb[VERITY_SB_SIZE], struct verity_params *p,
		     struct ht_error *err);

/* Reads and validates the superblock at p->hash_offset of the hash
 * region into p; an unfinished format is refused as such. */
int verity_read_superblock(const struct verity_region *hash,
			   struct verity_params *p, struct ht_error *err);
/* The same, an interrupted update's superblock read as the superblock
 * it keeps (*updating: 1 then, else 0). */
int verity_read_superblock_update(const struct verity_region *hash,
				  struct verity_params *p, int *updating,
				  struct ht_error *err);

#endif
