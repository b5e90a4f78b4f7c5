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

#include "verity/storage/device.h"
#include "verity/storage/extents.h"

#define VERITY_SPARSE_MAGIC      0xed26ff3au
#define VERITY_SPARSE_HEADER     28 /* the smallest file header */
#define VERITY_SPARSE_CHUNK      12 /* the smallest chunk header */
#define VERITY_SPARSE_RAW        0xcac1
#define VERITY_SPARSE_FILL       0xcac2
#define VERITY_SPARSE_DONT_CARE  0xcac3
#define VERITY_SPARSE_CRC32      0xcac4
#define VERITY_SPARSE_MAX_CHUNKS (1u << 24)

/* One chunk as the file holds it. */
struct verity_sparse_chunk {
	uint16_t type;
	uint32_t blocks; /* output blocks (0 for CRC32) */
	uint64_t at;     /* its header's byte in the file */
	uint64_t first;  /* its first output block */
	uint32_t fill;   /* FILL: the pattern; CRC32: the sum it holds */
};

struct verity_sparse {
	uint16_t major, minor;
	uint16_t header_size, chunk_header_size;
	uint32_t block_size;
	uint32_t blocks; /* output blocks */
	uint32_t chunks;
	uint32_t image_crc;      /* 0: none */
	uint32_t crc_chunks;     /* CRC32 chunks (their values not checked) */
	struct verity_extents x; /* the unsparsed bytes: blocks x block_size */
	struct verity_sparse_chunk *c; /* every chunk, in file order */
	uint64_t end;  /* the file's byte after the last chunk */
	uint64_t tail; /* bytes after it (refused, but by the writer) */
};

/* The sparse image open in d (path names it in messages) read into s:
 * -EINVAL with one line naming the chunk and the field (a header that
 * is not a sparse image's, a chunk of an unknown type, sizes that do not
 * add up or overflow, a chunk past the declared blocks, a file that ends
 * early), -ENOMEM, -EIO. */
int verity_sparse_read(const struct verity_device *d, const char *path,
		       struct verity_sparse *s, struct ht_error *err);
/* The same, bytes after the last chunk allowed (s->tail): what an
 * interrupted write leaves, for the writer that cuts them. */
int verity_sparse_read_tail(const struct verity_device *d, const char *path,
			    struct verity_sparse *s, struct ht_error *err);
void verity_sparse_free(struct verity_sparse *s);
/* The CRC32 sums the image holds checked (--check-crc), as libsparse
 * checks them: a CRC32 chunk's against the unsparsed bytes before it
 * (DONT_CARE as zeros), the header's checksum (when not 0) against them
 * all. -EINVAL naming the chunk and both sums. */
int verity_sparse_check_crc(const struct verity_device *d, const char *path,
			    const struct verity_sparse *s, struct ht_error *err);
/* 1 when the file open in d (its own bytes) starts with the sparse
 * magic: read as a sparse image, whose reading then says what is wrong;
 * < 0 (true too) when its first bytes cannot be read. */
int verity_sparse_magic(const struct verity_device *d);

/* --- written, as avbtool 1.3.0 writes them ---------------------------
 * avbtool never rewrites a sparse image's chunks: it cuts the chunk list
 * (a chunk cut inside keeps its first blocks) and appends chunks, each a
 * RAW, FILL or DONT_CARE chunk of its own, and sets the header's totals.
 * The writer does the same, in an order that keeps the file a sparse
 * image at every step: a cut sets the totals first, then shortens the
 * file; appended chunks lie past the chunks the header counts until
 * commit counts them. An interrupted run leaves bytes after the last
 * counted chunk, which readers refuse and the next writer cuts. */
struct verity_sparse_writer {
	struct verity_device d; /* the file's own bytes, read-write */
	struct verity_sparse s; /* its chunks and unsparsed extents */
	const char *path;
	size_t cap;        /* room in s.c */
	uint64_t kept_end; /* the file's end at the last cut or commit */
};

/* Opens the sparse image at path for writing: 1.0 images of 28- and
 * 12-byte headers (the chunks appended are of 12 bytes); -EINVAL naming
 * what is not, the reader's errors, verity_device_open's. */
int verity_sparse_writer_open(struct verity_sparse_writer *w, const char *path,
			      struct ht_error *err);
/* The same over a device already open for writing (taken over: d is
 * left closed), e.g. a copy staged beside the image, whose commit
 * (verity_device_commit) then renames it over path. */
int verity_sparse_writer_adopt(struct verity_sparse_writer *w,
			       struct verity_device *d, const char *path,
			       struct ht_error *err);
/* The unsparsed bytes made size long (a multiple of the block size):
 * shorter, at a chunk's start or inside one; longer, by a DONT_CARE
 * chunk. */
int verity_sparse_cut(struct verity_sparse_writer *w, uint64_t size,
		      struct ht_error *err);
/* A chunk of bytes (a multiple of the block size) appended: RAW of data
 * (NULL: zeros, written later through the extents), FILL of fill, or
 * DONT_CARE; its logical bytes start at the old size. */
int verity_sparse_append(struct verity_sparse_writer *w, uint16_t type,
			 uint64_t bytes, const void *data, uint32_t fill,
			 struct ht_error *err);
/* The header's totals set to the chunks there are, and flushed. */
int verity_sparse_commit(struct verity_sparse_writer *w, struct ht_error *err);
/* Closes; chunks appended and not committed cut off (the image as it
 * was at the last cut or commit). */
void verity_sparse_writer_close(struct verity_sparse_writer *w);

/* The file at path opened for reading as the bytes it holds: an Android
 * sparse image as its unsparsed bytes (its chunk list read and checked,
 * *sparse 1; may be NULL), any other file as it is. */
int verity_sparse_open(struct verity_device *d, const char *path,
		       int *sparse, struct ht_error *err);

#endif
