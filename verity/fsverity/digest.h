/* fs-verity file digests (docs/fsverity.md): the file's Merkle tree,
 * level 0 hashed by hashtree/ as a dm-verity tree of format 1 whose salt
 * is the fs-verity salt zero-padded to the hash's own block size, over
 * the file zero-padded to whole blocks, the levels above as level 0's
 * blocks come, a block of each in flight; then the 256-byte descriptor
 * and its digest. Memory does not grow with the file unless its tree is
 * kept in memory. */
#ifndef FV_FSVERITY_DIGEST_H
#define FV_FSVERITY_DIGEST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "hashtree/hasher.h"
#include "hashtree/tree.h"

#define FSV_DESCRIPTOR_SIZE 256
#define FSV_MAX_SALT        32
#define FSV_MIN_BLOCK       1024
#define FSV_MAX_BLOCK       65536
/* The formatted digest a built-in signature signs: "FSVerity", le16
 * algorithm, le16 digest size, the digest. */
#define FSV_SIGNED_HEADER 12

/* fs-verity's numbers for its hash algorithms. */
enum fsv_alg {
	FSV_SHA256 = 1,
	FSV_SHA512 = 2,
};

struct fsv_params {
	enum fsv_alg alg;
	uint32_t block_size; /* a power of two, FSV_MIN_BLOCK..FSV_MAX_BLOCK */
	uint8_t salt[FSV_MAX_SALT];
	size_t salt_size;
};

/* "sha256" or "sha512"; NULL for another number. */
const char *verity_fsv_alg_name(enum fsv_alg alg);
/* The number of a name, or 0. */
enum fsv_alg verity_fsv_alg_of(const char *name);
unsigned verity_fsv_digest_size(enum fsv_alg alg);
/* Checks p: -EINVAL with a message. */
int verity_fsv_params_check(const struct fsv_params *p, struct ht_error *err);
/* p made of a caller's choices (hash: NULL for sha256; block_size: 0
 * for 4096; salt_len bytes of salt) and checked. */
int verity_fsv_params_make(const char *hash, uint32_t block_size,
			   const uint8_t *salt, size_t salt_len,
			   struct fsv_params *p, struct ht_error *err);

/* What a file's digest is made of. */
struct fsv_digest {
	enum fsv_alg alg;
	unsigned digest_size;
	uint8_t digest[HT_MAX_DIGEST_SIZE]; /* H(descriptor) */
	uint8_t root[HT_MAX_DIGEST_SIZE];   /* the tree's root hash */
	uint8_t descriptor[FSV_DESCRIPTOR_SIZE];
	uint8_t *tree; /* the Merkle tree as the kernel stores it (the root's
			* level first), tree_bytes; NULL when empty */
	uint64_t tree_bytes;
	uint64_t size; /* the file's bytes */
};
void verity_fsv_digest_free(struct fsv_digest *d);

/* Where a file's bytes come from: exactly one of path, mem, read. */
struct fsv_source {
	const char *path; /* a regular file (mapped or read) */
	const uint8_t *mem;
	/* fsverity-utils' read_fn: fills buf with exactly count bytes, the
	 * next ones of the file; 0, or a negative errno */
	int (*read)(void *ctx, void *buf, size_t count);
	void *read_ctx;
	uint64_t size; /* mem and read: the file's bytes */
	uint64_t mem_bytes; /* mem: its bytes, at least size (zeros past
			     * size up to whole blocks let them be hashed in
			     * place) */
	const char *name; /* mem and read: the file as messages name it */
};

/* Computes the digest of one file with opt->threads workers (a read
 * callback: one, as it is read in order). tree_path NULL: the tree is
 * kept in out when keep_tree says so (memory: the tree's bytes), else
 * dropped as it is made; else it is written to that file (a new file,
 * or one replaced when it is whole), not kept, with memory bounded. */
int verity_fsv_compute(const struct fsv_params *p, const struct fsv_source *src,
		       const struct ht_options *opt, const char *tree_path,
		       int keep_tree, struct fsv_digest *out,
		       struct ht_error *err);

/* Many files at once: small files each on one worker, several at a
 * time, large ones one after another on every worker. out[i] is the
 * digest of paths[i]; on failure *failed is the first file (in argument
 * order) that failed, err its message, and out[j] for j < *failed are
 * valid. Without keep_tree the trees are not kept, and memory does not
 * grow with the files' sizes. */
int verity_fsv_compute_files(const struct fsv_params *p, const char *const *paths,
		      size_t n, const struct ht_options *opt, int keep_tree,
		      struct fsv_digest *out, size_t *failed,
		      struct ht_error *err);

/* The formatted digest a built-in signature signs (FSV_SIGNED_HEADER +
 * digest size bytes); returns its length. */
size_t verity_fsv_signed_digest(const struct fsv_digest *d,
			 uint8_t out[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE]);

#endif
