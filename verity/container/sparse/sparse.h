/* Android sparse images (libsparse's format, img2simg's output; the facts
 * in docs/android.md): the header and chunk list read, validated, and
 * made a source of extents (verity/storage/extents.h) whose bytes are
 * the unsparsed image, read in place: nothing is unsparsed to a file.
 *
 * Hand-written rather than Debian's libsparse (android-libsparse-dev):
 * its reader imports a file into a list of blocks it reads through its
 * own callbacks, and says neither where a RAW chunk's bytes lie in the
 * file nor which chunk a bad field is in; an extent map needs the first
 * and a refusal the second. */
#ifndef FV_CONTAINER_SPARSE_H
#define FV_CONTAINER_SPARSE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "verity/storage/extents.h"

#define VERITY_SPARSE_MAGIC      0xed26ff3au
#define VERITY_SPARSE_HEADER     28 /* the smallest file header */
#define VERITY_SPARSE_CHUNK      12 /* the smallest chunk header */
#define VERITY_SPARSE_RAW        0xcac1
#define VERITY_SPARSE_FILL       0xcac2
#define VERITY_SPARSE_DONT_CARE  0xcac3
#define VERITY_SPARSE_CRC32      0xcac4
#define VERITY_SPARSE_MAX_CHUNKS (1u << 24)

struct verity_sparse {
	uint16_t major, minor;
	uint16_t header_size, chunk_header_size;
	uint32_t block_size;
	uint32_t blocks; /* output blocks */
	uint32_t chunks;
	uint32_t image_crc;      /* 0: none */
	uint32_t crc_chunks;     /* CRC32 chunks (their values not checked) */
	struct verity_extents x; /* the unsparsed bytes: blocks x block_size */
};

/* The sparse image open in d (path names it in messages) read into s:
 * -EINVAL with one line naming the chunk and the field (a header that
 * is not a sparse image's, a chunk of an unknown type, sizes that do not
 * add up or overflow, a chunk past the declared blocks, a file that ends
 * early), -ENOMEM, -EIO. */
int verity_sparse_read(const struct verity_device *d, const char *path,
		       struct verity_sparse *s, struct ht_error *err);
void verity_sparse_free(struct verity_sparse *s);

#endif
