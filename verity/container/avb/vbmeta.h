/* Android Verified Boot metadata (docs/android.md): the 64-byte footer
 * at the end of a partition, the vbmeta blob it points to (header,
 * authentication block, auxiliary block) and the descriptors in it.
 * Everything is big-endian and untrusted: the parser checks every size
 * and offset before use and names the field that is wrong. */
#ifndef FV_CONTAINER_AVB_VBMETA_H
#define FV_CONTAINER_AVB_VBMETA_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/sign/scheme.h"

#define AVB_FOOTER_SIZE  64
#define AVB_HEADER_SIZE  256
#define AVB_RELEASE_SIZE 48 /* 47 characters and a NUL */
/* The most vbmeta this reader takes (libavb boots 64 KiB at most;
 * property files can make more). */
#define AVB_MAX_VBMETA (1u << 20)
/* avbtool's room for metadata when it sizes an image to a partition. */
#define AVB_MAX_VBMETA_ROOM (64u << 10)
#define AVB_FOOTER_BLOCK    4096u

enum verity_avb_algorithm {
	AVB_ALG_NONE,
	AVB_ALG_SHA256_RSA2048,
	AVB_ALG_SHA256_RSA4096,
	AVB_ALG_SHA256_RSA8192,
	AVB_ALG_SHA512_RSA2048,
	AVB_ALG_SHA512_RSA4096,
	AVB_ALG_SHA512_RSA8192,
	AVB_ALG_MLDSA65, /* Android 17 (docs/android.md, "ML-DSA") */
	AVB_ALG_MLDSA87,
	AVB_ALG_COUNT
};

/* An algorithm type's scheme (verity/sign/scheme.h): its name, hash and
 * signature sizes, key; NULL for a number libavb does not know. */
const struct verity_scheme *verity_avb_algorithm(unsigned type);
/* -1 for a name avbtool does not know */
int verity_avb_algorithm_by_name(const char *name);

enum avb_tag {
	AVB_TAG_PROPERTY,
	AVB_TAG_HASHTREE,
	AVB_TAG_HASH,
	AVB_TAG_KERNEL_CMDLINE,
	AVB_TAG_CHAIN_PARTITION,
};

/* Hashtree descriptor flags. */
#define AVB_HASHTREE_DO_NOT_USE_AB      (1u << 0)
#define AVB_HASHTREE_CHECK_AT_MOST_ONCE (1u << 1)
#define AVB_HASHTREE_FIXED              180 /* bytes before the name */
#define AVB_HASH_FIXED                  132
#define AVB_CHAIN_FIXED                 92
#define AVB_PROPERTY_FIXED              32
#define AVB_CMDLINE_FIXED               24
#define AVB_DESCRIPTOR_HEADER           16

/* One type per descriptor tag; pointers are into the vbmeta blob a
 * descriptor was parsed from (or into buffers the writer owns). */

/* What hash and hashtree descriptors both say of their partition's
 * data: its size and digest (a hashtree's root digest). */
struct avb_digest_part {
	uint64_t image_size;
	char hash_algorithm[33];
	const uint8_t *name; /* the partition's */
	uint32_t name_len;
	const uint8_t *salt;
	uint32_t salt_len;
	const uint8_t *digest;
	uint32_t digest_len;
	uint32_t flags;
};
struct avb_hashtree_desc {
	struct avb_digest_part p;
	uint32_t dm_verity_version;
	uint64_t tree_offset, tree_size;
	uint32_t data_block_size, hash_block_size, fec_num_roots;
	uint64_t fec_offset, fec_size;
};
struct avb_hash_desc {
	struct avb_digest_part p;
};
struct avb_property_desc {
	const uint8_t *key;
	uint64_t key_len;
	const uint8_t *value;
	uint64_t value_len;
};
struct avb_cmdline_desc {
	uint32_t flags;
	const uint8_t *value;
	uint64_t value_len;
};
struct avb_chain_desc {
	uint32_t rollback_index_location;
	const uint8_t *name; /* the chained partition's */
	uint32_t name_len;
	const uint8_t *public_key;
	uint32_t public_key_len;
	uint32_t flags;
};

/* A descriptor: its tag says which member holds it (none for a tag
 * libavb does not know: its bytes alone). */
struct avb_descriptor {
	uint64_t tag;
	const uint8_t *raw; /* the whole descriptor, header included */
	size_t raw_size;
	union {
		struct avb_hashtree_desc hashtree;
		struct avb_hash_desc hash;
		struct avb_property_desc property;
		struct avb_cmdline_desc cmdline;
		struct avb_chain_desc chain;
	};
};

/* The digest part of a hash or hashtree descriptor; NULL for any other
 * tag, and for d NULL (an image whose vbmeta has no such descriptor). */
const struct avb_digest_part *
verity_avb_digest_part(const struct avb_descriptor *d);
/* The partition a hash, hashtree or chain descriptor names (*len 0 and
 * NULL for another tag). */
const uint8_t *verity_avb_desc_name(const struct avb_descriptor *d,
				    uint32_t *len);

struct avb_footer {
	uint32_t version_major, version_minor;
	uint64_t original_image_size;
	uint64_t vbmeta_offset;
	uint64_t vbmeta_size;
};

struct avb_header {
	uint32_t required_major, required_minor;
	uint64_t auth_size, aux_size;
	uint32_t algorithm;
	uint64_t hash_offset, hash_size;
	uint64_t signature_offset, signature_size;
	uint64_t public_key_offset, public_key_size;
	uint64_t metadata_offset, metadata_size;
	uint64_t descriptors_offset, descriptors_size;
	uint64_t rollback_index;
	uint32_t flags;
	uint32_t rollback_index_location;
	char release[AVB_RELEASE_SIZE];
};

/* A parsed vbmeta blob. */
struct avb_vbmeta {
	const uint8_t *blob; /* header || auth || aux */
	size_t size;         /* 256 + auth + aux */
	struct avb_header h;
	const uint8_t *hash, *signature, *public_key;
	struct avb_descriptor *desc;
	size_t ndesc;
};

/* 1 when buf (64 bytes) starts with the footer's magic. */
int verity_avb_footer_magic(const uint8_t *buf);
/* Parses the footer in the last 64 bytes of a file of file_size bytes,
 * as libavb validates one (magic, major version 1) and then its ranges:
 * the vbmeta blob inside the file before the footer, the original size
 * no further than the vbmeta's offset (no sum wraps). Every reader and
 * writer of a footer goes through it. The message names path and the
 * field. */
int verity_avb_footer_parse(const uint8_t buf[AVB_FOOTER_SIZE],
			    uint64_t file_size, const char *path,
			    struct avb_footer *f, struct ht_error *err);
void verity_avb_footer_encode(const struct avb_footer *f,
			      uint8_t buf[AVB_FOOTER_SIZE]);

/* Parses blob (len bytes, len >= 256 + its blocks): the header (magic,
 * major version, block sizes, algorithm, every offset and size inside
 * its block) and every descriptor (lengths, tags, names, digests).
 * v->desc is malloc'd (verity_avb_vbmeta_free). */
int verity_avb_vbmeta_parse(const uint8_t *blob, size_t len, const char *path,
			    struct avb_vbmeta *v, struct ht_error *err);
void verity_avb_vbmeta_free(struct avb_vbmeta *v);

/* Parses one descriptor list (descriptors_size bytes). */
int verity_avb_descriptors_parse(const uint8_t *p, size_t len, const char *path,
				 struct avb_descriptor **out, size_t *n,
				 struct ht_error *err);

/* Encoding, as avbtool lays the bytes out. Each appends to a growing
 * buffer (avb_buf); 0 or -ENOMEM. */
struct avb_buf {
	uint8_t *p;
	size_t len, cap;
};
int verity_avb_buf_put(struct avb_buf *b, const void *p, size_t len);
int verity_avb_buf_zeros(struct avb_buf *b, size_t len);
void verity_avb_buf_free(struct avb_buf *b);
int verity_avb_descriptor_encode(const struct avb_descriptor *d,
				 struct avb_buf *b);
void verity_avb_header_encode(const struct avb_header *h,
			      uint8_t buf[AVB_HEADER_SIZE]);

/* The size in bytes of a digest AVB descriptors use (sha1, sha256,
 * sha512: the one list), 0 for any other name. */
unsigned verity_avb_digest_size(const char *name);

/* 1 when name (len bytes) is a partition's name, never a path: 1 to 64
 * of the bytes partitions are named with (letters, digits, '_', '-',
 * and '.' anywhere but first), so that <dir>/<name><ext> stays in dir. */
int verity_avb_partition_name_ok(const uint8_t *name, size_t len);

/* Byte order helpers. */
uint32_t verity_avb_be32(const uint8_t *p);
uint64_t verity_avb_be64(const uint8_t *p);
void verity_avb_put32(uint8_t *p, uint32_t v);
void verity_avb_put64(uint8_t *p, uint64_t v);

/* Checks a vbmeta blob's authentication block as libavb does: for RSA
 * the digest of header and auxiliary block, then the signature with the
 * embedded public key (for ML-DSA over header and auxiliary block).
 * 0: it holds (or the blob is unsigned); -EPERM with the reason;
 * -EINVAL for a key blob of the wrong shape. */
int verity_avb_vbmeta_check(const struct avb_vbmeta *v, const char *path,
			    struct ht_error *err);
/* 1 when v carries the public key blob given. */
int verity_avb_vbmeta_has_key(const struct avb_vbmeta *v, const uint8_t *blob,
			      size_t len);

#endif
