/* Android images as a container (docs/android.md): an image with an AVB
 * footer, or a bare vbmeta image, read into its metadata; a hashtree
 * descriptor turned into a verity pair (data, tree and parity are
 * regions of the one image); and the writers avbtool has: hashtree and
 * hash footers, vbmeta images, erasing a footer. */
#ifndef FV_CONTAINER_AVB_IMAGE_H
#define FV_CONTAINER_AVB_IMAGE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/container/avb/vbmeta.h"
#include "verity/container/sparse/sparse.h"
#include "verity/tree/pair.h"
#include "verity/tree/update.h"

/* AOSP's fec tool and avbtool's parity: 4096-byte blocks, whatever the
 * tree's block size. */
#define AVB_FEC_BLOCK 4096u

/* Android sparse images start with this (little-endian) magic. */
#define AVB_SPARSE_MAGIC 0xed26ff3au

struct avb_image {
	const char *path;
	uint64_t file_size;
	int has_footer;
	struct avb_footer footer;
	uint8_t *blob; /* the vbmeta blob as read */
	struct avb_vbmeta vbmeta;
	int sparse; /* an Android sparse image, read unsparsed */
	/* read from extents the caller keeps (a logical partition of a
	 * super image opened by the caller), which its pairs read: NULL,
	 * the file at path */
	const struct verity_extents *src;
};

/* 1 when the file at path starts with an Android sparse image's header
 * (magic, version 1.0, its header and chunk header sizes): never raw
 * data (0 otherwise, also for a file that cannot be read). */
int verity_avb_sparse_probe(const char *path);

/* 1 when d's bytes end with an AVB footer or start with a vbmeta. */
int verity_avb_device_probe(const struct verity_device *d);

/* Reads the footer (when the last 64 bytes start with its magic) and the
 * vbmeta blob it points to, or a vbmeta image at byte 0. A sparse image
 * is read as its unsparsed bytes (offsets and sizes are theirs), as
 * avbtool reads it. */
int verity_avb_image_read(const char *path, struct avb_image *img,
			  struct ht_error *err);
void verity_avb_image_free(struct avb_image *img);
/* The same for the bytes of extents x (x->path: the file their own
 * extents lie in), which the caller keeps for as long as img and its
 * pairs; path names them in messages. */
int verity_avb_image_read_source(const char *path,
				 const struct verity_extents *x,
				 struct avb_image *img, struct ht_error *err);

/* The first hashtree descriptor, or NULL. */
const struct avb_descriptor *
verity_avb_image_hashtree(const struct avb_image *img);

/* A hashtree descriptor of the image at path as a verity pair: data
 * [0, image_size), the tree at tree_offset, the parity at fec_offset
 * (used only when the kernel's geometry can read it: 4096-byte blocks),
 * the root digest. Checks the descriptor against the file: block sizes,
 * digest, the tree's and parity's sizes and places. *fec_unusable is
 * set when the descriptor has parity of another geometry. */
int verity_avb_hashtree_pair(const char *path, uint64_t file_size,
			     const struct avb_descriptor *d,
			     struct verity_pair *pair, int *fec_unusable,
			     struct ht_error *err);

/* The image's own hashtree descriptor d as its pair (verity_avb_hashtree_pair),
 * once its metadata is proven to lie outside what the pair reads and
 * repair may write: the footer's vbmeta and the footer itself outside
 * data, tree and parity, the data the footer counts inside the
 * descriptor's. A bare vbmeta image (no footer) has no pair of its own:
 * its descriptors describe other partitions' images. */
int verity_avb_image_pair(const struct avb_image *img,
			  const struct avb_descriptor *d,
			  struct verity_pair *pair, int *fec_unusable,
			  struct ht_error *err);

/* What a new vbmeta blob holds besides the descriptor its command makes:
 * avbtool's common options. */
struct avb_prop {
	const char *key;
	const uint8_t *value;
	size_t value_len;
};
struct avb_chain {
	const char *name;
	uint32_t rollback_index_location;
	const char *key_path; /* an .avbpubkey blob */
	uint32_t flags;       /* AVB_CHAIN_DO_NOT_USE_AB */
};
/* A chain partition descriptor's flag: the partition has no A/B slots
 * (--chain_partition_do_not_use_ab; libavb 1.3). */
#define AVB_CHAIN_DO_NOT_USE_AB 1u
struct avb_vbmeta_opts {
	int algorithm;        /* enum verity_avb_algorithm */
	const char *key_path; /* the private key (RSA: PEM or a pkcs11:
			       * URI; ML-DSA: PKCS#8); NULL for NONE; a
			       * public one will do with a signing helper */
	int deterministic;    /* ML-DSA: deterministic signatures (the
			       * same bytes for the same key and vbmeta),
			       * not hedged ones */
	/* a program that signs in the key's place, avbtool's way: run with
	 * the algorithm's name and key_path, given the PKCS#1 v1.5 block
	 * (RSA) or the message (ML-DSA) on stdin (helper_files: in a file
	 * named third, which it overwrites) and answering the signature;
	 * checked against the key before use */
	const char *signing_helper;
	int helper_files;
	/* where helper_files' file is made, in a private directory of its
	 * own: the caller's (the command's TMPDIR), else the directory of
	 * output, the file the vbmeta is written into (the library reads no
	 * environment) */
	const char *temp_dir;
	const char *output;
	const char *public_key_metadata; /* a file put after the key */
	int size_only; /* made for its size: not signed */
	uint64_t rollback_index;
	uint32_t rollback_index_location;
	uint32_t flags;
	const char *release; /* NULL: "avbtool 1.3.0" */
	const char *append_release;
	const struct avb_prop *props;
	size_t nprops;
	const char *const *cmdlines;
	size_t ncmdlines;
	const struct avb_chain *chains;
	size_t nchains;
	const char *const *includes; /* images whose descriptors are added */
	size_t nincludes;
	uint32_t required_minor;
};

/* A vbmeta blob: the descriptors given first, then chains, properties,
 * kernel command lines and the included images' descriptors; signed with
 * the key. out is malloc'd; out NULL: only checks what the options name
 * (the key and its size, chained keys, included images). */
int verity_avb_vbmeta_make(const struct avb_vbmeta_opts *o,
			   const struct avb_descriptor *first, size_t nfirst,
			   struct avb_buf *out, struct ht_error *err);

/* The release string of avbtool 1.3.0, whose bytes fastverity makes. */
#define AVB_RELEASE_DEFAULT "avbtool 1.3.0"

struct avb_footer_opts {
	const char *image;
	uint64_t partition_size; /* 0: the image grows (hashtree only) */
	int dynamic_size;        /* hash: size the partition to the image */
	const char *partition_name;
	const char *hash_algorithm;
	uint32_t block_size;
	const uint8_t *salt; /* NULL: random, the digest's size */
	size_t salt_len;
	int salt_given;
	int fec; /* hashtree: make parity */
	unsigned roots;
	uint32_t descriptor_flags; /* AVB_HASHTREE_* */
	int do_not_append;         /* no vbmeta or footer in the image */
	const char *output_vbmeta; /* also write the blob here */
	int persistent_digest;     /* no digest (and no random salt) */
	struct avb_vbmeta_opts vb;
	/* over a footer of the same tree: the data ranges that changed
	 * (NULL: found by the old tree's verify) */
	const struct verity_range *changed;
	size_t nchanged;
};

/* The two footers avbtool adds. */
enum avb_footer_kind {
	AVB_FOOTER_HASH,     /* add_hash_footer: one digest of the data */
	AVB_FOOTER_HASHTREE, /* add_hashtree_footer: a tree (and parity) */
};

/* avbtool's largest image for a partition: what is left after the most
 * the tree, parity and metadata of a partition_size image may take. */
uint64_t verity_avb_max_image_size(const struct avb_footer_opts *o,
				   enum avb_footer_kind kind);

/* add_hashtree_footer in two steps around the format of the pair (the
 * container translates, the caller formats and, when parity_apart,
 * makes the parity of 4096-byte blocks under a tree of others:
 * verity/api/ops.c): verity_avb_hashtree_begin decides everything (the vbmeta's
 * size included) before it writes, opens the image, lays out the data's
 * and the tree's padding and fills pair (data, tree and, with 4096-byte
 * blocks, the parity in the image); over an existing footer it writes in
 * place only where the run gives every byte the old footer counts (tree,
 * parity, vbmeta) the value it has while the data is unchanged, else it
 * stages the new image beside the old (docs/android.md, "Runs over a
 * footer"). verity_avb_hashtree_end
 * writes the vbmeta blob with its hashtree descriptor (root: the
 * formatted root digest) and the footer, last. A failure after begin
 * (or verity_avb_hashtree_abort) leaves the data without a footer (a first
 * run), the old footer (in place), or the old image (staged). */
struct avb_hashtree_job {
	struct verity_device image;
	uint64_t original;   /* the data's bytes, before any footer */
	uint64_t image_size; /* padded: the descriptor's image size */
	uint64_t fec_offset; /* after the tree, padded to 4096 */
	uint8_t salt[VERITY_MAX_SALT_SIZE];
	size_t salt_len;
	unsigned digest_size;
	int staged; /* made beside the old image (which a failure keeps) */
	int parity_apart; /* the parity is of 4096-byte blocks under a tree
			   * of others: made after the tree, over
			   * [0, fec_offset) of the image */
	uint64_t old_end; /* written in place over an old footer, which
			   * ends the file until the new one is written */
	/* an Android sparse image, written as avbtool writes one: chunks
	 * appended (image reads and writes its unsparsed bytes) */
	struct verity_sparse_writer *sparse;
	/* the old footer's vbmeta, read before anything is written
	 * (have_old): its salt kept when none is given; old_signed when it
	 * is signed by the key of the options (its signature holds, and the
	 * signer is that key), the only vbmeta whose tree a run reuses */
	struct avb_image old;
	int have_old, old_signed;
};
int verity_avb_hashtree_begin(const struct avb_footer_opts *o,
			      struct avb_hashtree_job *job,
			      struct verity_pair *pair, struct ht_error *err);
int verity_avb_hashtree_end(const struct avb_footer_opts *o,
			    struct avb_hashtree_job *job,
			    const struct verity_pair *pair,
			    const struct verity_run *run, const uint8_t *root,
			    struct ht_error *err);
void verity_avb_hashtree_abort(struct avb_hashtree_job *job);
/* A hash descriptor's digest is of every byte, those a sparse image's
 * DONT_CARE and FILL chunks (or a logical partition's zero extents) do
 * not store too: no run of them can be skipped, and a few KiB of sparse
 * image can declare 16 TiB of them, hours of hashing. At most this many
 * such bytes are hashed: 4 GiB (about 3 s of SHA-256 here), or 16 times
 * the bytes the image stores when more (docs/android.md); past it the
 * run is refused, -EFBIG, before a byte is hashed. */
#define VERITY_AVB_UNSTORED_MIN   (UINT64_C(4) << 30)
#define VERITY_AVB_UNSTORED_RATIO 16
/* A hash descriptor checked over the image at path (read through src
 * when not NULL): the salted digest of its first image_size bytes.
 * -EPERM when it differs (avbtool's words, naming the digest and path);
 * an empty digest (a persistent one) is not compared; -EFBIG past the
 * bytes not stored that are hashed at most (above). */
int verity_avb_hash_check(const char *path, const struct verity_extents *src,
			  const struct avb_descriptor *d,
			  struct ht_error *err);
/* add_hash_footer: one digest of the whole data (of a sparse image, at
 * most the unstored bytes above). */
int verity_avb_add_hash_footer(const struct avb_footer_opts *o,
			       struct ht_error *err);
/* make_vbmeta_image: the blob alone, padded to a multiple of padding. */
int verity_avb_make_vbmeta_image(const char *output,
				 const struct avb_vbmeta_opts *o,
				 uint64_t padding, struct ht_error *err);
/* verify_image's rules, avbtool's and libavb's: each partition's data
 * checked once (two hash or hashtree descriptors of one partition, or
 * more than 128, refused), and the image a descriptor describes (the
 * image itself for its own partition's and a nameless one; else
 * <dir>/<partition name><ext>, the name a name, never a path; *path
 * malloc'd). */
int verity_avb_check_partitions(const struct avb_image *img,
				struct ht_error *err);
/* slot: the metadata slot a super.img beside is read for, when the
 * partition has no file of its own (verity_super_beside); the public
 * face's lookup is slot 0's. */
int verity_avb_described_image(const struct avb_image *img,
			       const struct avb_descriptor *d, uint32_t slot,
			       char **path, struct ht_error *err);
/* erase_footer: the image cut back to its data (keep_hashtree: to the end
 * of its tree and parity). */
int verity_avb_erase_footer(const char *image, int keep_hashtree,
			    struct ht_error *err);

/* append_vbmeta_image: the vbmeta blob of vbmeta_image appended to
 * image as add_hash_footer appends its own (replacing a footer the image
 * has), the footer at the end of partition_size. */
int verity_avb_append_vbmeta_image(const char *image, const char *vbmeta_image,
				   uint64_t partition_size,
				   struct ht_error *err);
/* resize_image: the footer of an image moved to the end of a partition
 * of partition_size bytes (zeros between the vbmeta and it). */
int verity_avb_resize_image(const char *image, uint64_t partition_size,
			    struct ht_error *err);
/* zero_hashtree: the tree and the parity after it made zeros, each
 * starting with avbtool's "ZeRoHaSH" marker. */
int verity_avb_zero_hashtree(const char *image, struct ht_error *err);
/* 1 when the tree hashtree descriptor ht describes in image is zeroed
 * (no tree, or one starting with the marker), 0 when not; < 0 error. */
int verity_avb_tree_zeroed(const char *image, const struct avb_descriptor *ht,
			   struct ht_error *err);
/* The root of the tree ht describes computed from image's data alone
 * (the tree built in memory): *len bytes into root. */
int verity_avb_data_root(const char *image, const struct avb_descriptor *ht,
			 unsigned threads, uint8_t *root, size_t *len,
			 struct ht_error *err);

#endif
