/* Android Verified Boot metadata: parsing (every field checked before
 * use) and encoding (byte for byte as avbtool 1.3.0 writes it). */
#include "verity/container/avb/vbmeta.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libavb's algorithm types: RSA (hash, then signature, in the
 * authentication block; the key blob 8 + 2 * bits / 8 bytes) and ML-DSA
 * (FORMAT-android17 A.1: no hash, the signature at its start; the key
 * blob 4 + the FIPS 204 public key). */
#define RSA(name, dg, hs, bits) \
	{name, VERITY_SCHEME_RSA, dg, hs, bits, 0, (bits) / 8, 8 + (bits) / 4}
#define MLDSA(name, lv, sig, pk) \
	{name, VERITY_SCHEME_MLDSA, "", 0, 0, lv, sig, 4 + (pk)}
static const struct verity_scheme algorithms[AVB_ALG_COUNT] = {
	{"NONE", VERITY_SCHEME_NONE, "", 0, 0, 0, 0, 0},
	RSA("SHA256_RSA2048", "sha256", 32, 2048),
	RSA("SHA256_RSA4096", "sha256", 32, 4096),
	RSA("SHA256_RSA8192", "sha256", 32, 8192),
	RSA("SHA512_RSA2048", "sha512", 64, 2048),
	RSA("SHA512_RSA4096", "sha512", 64, 4096),
	RSA("SHA512_RSA8192", "sha512", 64, 8192),
	MLDSA("MLDSA65", 65, VERITY_MLDSA65_SIG_BYTES, VERITY_MLDSA65_PK_BYTES),
	MLDSA("MLDSA87", 87, VERITY_MLDSA87_SIG_BYTES, VERITY_MLDSA87_PK_BYTES),
};

const struct verity_scheme *verity_avb_algorithm(unsigned type)
{
	return type < AVB_ALG_COUNT ? &algorithms[type] : NULL;
}

int verity_avb_algorithm_by_name(const char *name)
{
	for (int i = 0; i < AVB_ALG_COUNT; i++)
		if (!strcmp(name, algorithms[i].name))
			return i;
	return -1;
}

uint32_t verity_avb_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

uint64_t verity_avb_be64(const uint8_t *p)
{
	return (uint64_t)verity_avb_be32(p) << 32 | verity_avb_be32(p + 4);
}

void verity_avb_put32(uint8_t *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

void verity_avb_put64(uint8_t *p, uint64_t v)
{
	verity_avb_put32(p, (uint32_t)(v >> 32));
	verity_avb_put32(p + 4, (uint32_t)v);
}

/* One codec for every fixed layout (footer, header, each descriptor's
 * fixed part): a table of fields, each a big-endian integer of 4 or 8
 * bytes at a named offset, read into or written from a member of the
 * struct. Reading and writing use the same table, so the two cannot
 * disagree. */
struct field {
	uint16_t at;     /* its offset in the bytes */
	uint8_t bytes;   /* 4 or 8 */
	uint16_t member; /* offsetof the struct member (uint32_t, uint64_t) */
};
/* the member's width checked when the table is compiled */
#define WIDTH(type, m, n) \
	(n + 0 * sizeof(char[sizeof(((type *)0)->m) == n ? 1 : -1]))
#define U32(at, type, m)                                   \
	{                                                  \
		(at), WIDTH(type, m, 4), offsetof(type, m) \
	}
#define U64(at, type, m)                                   \
	{                                                  \
		(at), WIDTH(type, m, 8), offsetof(type, m) \
	}
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void get_fields(const uint8_t *p, void *s, const struct field *f,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t *m = (uint8_t *)s + f[i].member;

		if (f[i].bytes == 4) {
			uint32_t v = verity_avb_be32(p + f[i].at);

			memcpy(m, &v, sizeof(v));
		} else {
			uint64_t v = verity_avb_be64(p + f[i].at);

			memcpy(m, &v, sizeof(v));
		}
	}
}

static void put_fields(uint8_t *p, const void *s, const struct field *f,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *m = (const uint8_t *)s + f[i].member;

		if (f[i].bytes == 4) {
			uint32_t v;

			memcpy(&v, m, sizeof(v));
			verity_avb_put32(p + f[i].at, v);
		} else {
			uint64_t v;

			memcpy(&v, m, sizeof(v));
			verity_avb_put64(p + f[i].at, v);
		}
	}
}

/* The footer (docs/android.md): magic at 0, then these. */
static const struct field footer_fields[] = {
	U32(4, struct avb_footer, version_major),
	U32(8, struct avb_footer, version_minor),
	U64(12, struct avb_footer, original_image_size),
	U64(20, struct avb_footer, vbmeta_offset),
	U64(28, struct avb_footer, vbmeta_size),
};

/* The vbmeta header: magic at 0, these, the release string at
 * HEADER_RELEASE. */
enum { HEADER_RELEASE = 128 };
static const struct field header_fields[] = {
	U32(4, struct avb_header, required_major),
	U32(8, struct avb_header, required_minor),
	U64(12, struct avb_header, auth_size),
	U64(20, struct avb_header, aux_size),
	U32(28, struct avb_header, algorithm),
	U64(32, struct avb_header, hash_offset),
	U64(40, struct avb_header, hash_size),
	U64(48, struct avb_header, signature_offset),
	U64(56, struct avb_header, signature_size),
	U64(64, struct avb_header, public_key_offset),
	U64(72, struct avb_header, public_key_size),
	U64(80, struct avb_header, metadata_offset),
	U64(88, struct avb_header, metadata_size),
	U64(96, struct avb_header, descriptors_offset),
	U64(104, struct avb_header, descriptors_size),
	U64(112, struct avb_header, rollback_index),
	U32(120, struct avb_header, flags),
	U32(124, struct avb_header, rollback_index_location),
};

/* Each descriptor's fixed part, after its tag (at 0) and length (at
 * DESC_LENGTH); a 32-byte hash algorithm name at *_ALGORITHM. */
enum {
	DESC_LENGTH = 8,
	HASHTREE_ALGORITHM = 72,
	HASH_ALGORITHM = 24,
	ALGORITHM_FIELD = 32,
};
static const struct field hashtree_fields[] = {
	U32(16, struct avb_descriptor, hashtree.dm_verity_version),
	U64(20, struct avb_descriptor, hashtree.p.image_size),
	U64(28, struct avb_descriptor, hashtree.tree_offset),
	U64(36, struct avb_descriptor, hashtree.tree_size),
	U32(44, struct avb_descriptor, hashtree.data_block_size),
	U32(48, struct avb_descriptor, hashtree.hash_block_size),
	U32(52, struct avb_descriptor, hashtree.fec_num_roots),
	U64(56, struct avb_descriptor, hashtree.fec_offset),
	U64(64, struct avb_descriptor, hashtree.fec_size),
	U32(104, struct avb_descriptor, hashtree.p.name_len),
	U32(108, struct avb_descriptor, hashtree.p.salt_len),
	U32(112, struct avb_descriptor, hashtree.p.digest_len),
	U32(116, struct avb_descriptor, hashtree.p.flags),
};
static const struct field hash_fields[] = {
	U64(16, struct avb_descriptor, hash.p.image_size),
	U32(56, struct avb_descriptor, hash.p.name_len),
	U32(60, struct avb_descriptor, hash.p.salt_len),
	U32(64, struct avb_descriptor, hash.p.digest_len),
	U32(68, struct avb_descriptor, hash.p.flags),
};
static const struct field property_fields[] = {
	U64(16, struct avb_descriptor, property.key_len),
	U64(24, struct avb_descriptor, property.value_len),
};
/* value_len is 64 bits in the struct, 32 on disk: its own field */
enum { CMDLINE_VALUE_LEN = 20 };
static const struct field cmdline_fields[] = {
	U32(16, struct avb_descriptor, cmdline.flags),
};
static const struct field chain_fields[] = {
	U32(16, struct avb_descriptor, chain.rollback_index_location),
	U32(20, struct avb_descriptor, chain.name_len),
	U32(24, struct avb_descriptor, chain.public_key_len),
	U32(28, struct avb_descriptor, chain.flags),
};

int verity_avb_footer_magic(const uint8_t *buf)
{
	return !memcmp(buf, "AVBf", 4);
}

int verity_avb_footer_parse(const uint8_t buf[AVB_FOOTER_SIZE],
			    uint64_t file_size, const char *path,
			    struct avb_footer *f, struct ht_error *err)
{
	if (!verity_avb_footer_magic(buf))
		return ht_fail(err, EINVAL, "%s: no AVB footer (magic AVBf)",
			       path);
	get_fields(buf, f, footer_fields, COUNT(footer_fields));
	if (f->version_major != 1)
		return ht_fail(err, EINVAL,
			       "%s: AVB footer version %u.%u is not supported "
			       "(1.x)",
			       path, f->version_major, f->version_minor);
	if (file_size < AVB_FOOTER_SIZE ||
	    f->original_image_size > file_size - AVB_FOOTER_SIZE)
		return ht_fail(err, EINVAL,
			       "%s: AVB footer: original image size %llu is "
			       "beyond the footer (file of %llu bytes)",
			       path, (unsigned long long)f->original_image_size,
			       (unsigned long long)file_size);
	if (f->vbmeta_size < AVB_HEADER_SIZE ||
	    f->vbmeta_size > AVB_MAX_VBMETA ||
	    f->vbmeta_offset > file_size - AVB_FOOTER_SIZE ||
	    f->vbmeta_size > file_size - AVB_FOOTER_SIZE - f->vbmeta_offset)
		return ht_fail(err, EINVAL,
			       "%s: AVB footer: vbmeta of %llu bytes at %llu "
			       "is not inside the image (file of %llu bytes, "
			       "vbmeta of %u to %u bytes)",
			       path, (unsigned long long)f->vbmeta_size,
			       (unsigned long long)f->vbmeta_offset,
			       (unsigned long long)file_size, AVB_HEADER_SIZE,
			       AVB_MAX_VBMETA);
	/* the data the footer counts ends where its vbmeta may start: a
	 * vbmeta inside the data is one that a writer (resize_image,
	 * erase_footer, a re-run) would cut or zero the data after */
	if (f->original_image_size > f->vbmeta_offset)
		return ht_fail(err, EINVAL,
			       "%s: AVB footer: original image size %llu "
			       "reaches past the vbmeta offset %llu (the "
			       "vbmeta would lie inside the data)",
			       path, (unsigned long long)f->original_image_size,
			       (unsigned long long)f->vbmeta_offset);
	return 0;
}

void verity_avb_footer_encode(const struct avb_footer *f,
			      uint8_t buf[AVB_FOOTER_SIZE])
{
	memset(buf, 0, AVB_FOOTER_SIZE);
	memcpy(buf, "AVBf", 4);
	put_fields(buf, f, footer_fields, COUNT(footer_fields));
}

/* [off, off + size) inside a block of block bytes. */
static int inside(uint64_t off, uint64_t size, uint64_t block)
{
	return off <= block && size <= block - off;
}

static uint64_t round8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

unsigned verity_avb_digest_size(const char *name)
{
	if (!strcmp(name, "sha1"))
		return 20;
	if (!strcmp(name, "sha256"))
		return 32;
	if (!strcmp(name, "sha512"))
		return 64;
	return 0;
}

/* The 32-byte algorithm name field: NUL-terminated, printable. */
static int algorithm_field(const uint8_t *p, char out[33], const char *path,
			   const char *what, struct ht_error *err)
{
	memcpy(out, p, 32);
	out[32] = 0;
	for (size_t i = 0; out[i]; i++)
		if (out[i] < 0x21 || out[i] > 0x7e)
			return ht_fail(err, EINVAL,
				       "%s: %s descriptor: hash algorithm "
				       "name is not printable",
				       path, what);
	for (size_t i = strlen(out); i < 32; i++)
		if (p[i])
			return ht_fail(err, EINVAL,
				       "%s: %s descriptor: hash algorithm "
				       "name is not NUL-padded",
				       path, what);
	return 0;
}

/* The variable part of a descriptor: lengths that sum (in 64 bits) to
 * what its size says, as avbtool requires. */
static int variable_part(const uint8_t *d, uint64_t following, size_t fixed,
			 uint64_t lens, const char *path, const char *what,
			 struct ht_error *err)
{
	(void)d;
	if (following < fixed - AVB_DESCRIPTOR_HEADER)
		return ht_fail(err, EINVAL,
			       "%s: %s descriptor of %llu bytes is shorter "
			       "than its fixed part (%zu)",
			       path, what, (unsigned long long)following,
			       fixed - AVB_DESCRIPTOR_HEADER);
	if (lens > following ||
	    round8(fixed - AVB_DESCRIPTOR_HEADER + lens) != following)
		return ht_fail(err, EINVAL,
			       "%s: %s descriptor: its lengths (%llu bytes) "
			       "do not match its size (%llu bytes)",
			       path, what, (unsigned long long)lens,
			       (unsigned long long)following);
	return 0;
}

/* The tail shared by hashtree and hash descriptors: the algorithm name
 * at alg, then name, salt and digest after the fixed part, the digest as
 * long as the algorithm's (the_digest: what the message calls it). */
static int name_salt_digest(struct avb_digest_part *x, const uint8_t *d,
			    uint64_t following, size_t fixed, size_t alg,
			    const char *what, const char *the_digest,
			    const char *path, struct ht_error *err)
{
	unsigned want;
	int r;

	if ((r = algorithm_field(d + alg, x->hash_algorithm, path, what,
				 err)) ||
	    (r = variable_part(d, following, fixed,
			       (uint64_t)x->name_len + x->salt_len +
				       x->digest_len,
			       path, what, err)))
		return r;
	x->name = d + fixed;
	x->salt = x->name + x->name_len;
	x->digest = x->salt + x->salt_len;
	want = verity_avb_digest_size(x->hash_algorithm);
	if (x->digest_len && want && x->digest_len != want)
		return ht_fail(err, EINVAL,
			       "%s: %s descriptor: %s of %u bytes for %s (%u "
			       "bytes)",
			       path, what, the_digest, x->digest_len,
			       x->hash_algorithm, want);
	return 0;
}

static int parse_hashtree(struct avb_descriptor *x, const uint8_t *d,
			  uint64_t following, const char *path,
			  struct ht_error *err)
{
	if (following < AVB_HASHTREE_FIXED - AVB_DESCRIPTOR_HEADER)
		return variable_part(d, following, AVB_HASHTREE_FIXED, 0, path,
				     "hashtree", err);
	get_fields(d, x, hashtree_fields, COUNT(hashtree_fields));
	return name_salt_digest(&x->hashtree.p, d, following,
				AVB_HASHTREE_FIXED, HASHTREE_ALGORITHM,
				"hashtree", "root digest", path, err);
}

static int parse_hash(struct avb_descriptor *x, const uint8_t *d,
		      uint64_t following, const char *path,
		      struct ht_error *err)
{
	if (following < AVB_HASH_FIXED - AVB_DESCRIPTOR_HEADER)
		return variable_part(d, following, AVB_HASH_FIXED, 0, path,
				     "hash", err);
	get_fields(d, x, hash_fields, COUNT(hash_fields));
	return name_salt_digest(&x->hash.p, d, following, AVB_HASH_FIXED,
				HASH_ALGORITHM, "hash", "digest", path, err);
}

static int parse_one(struct avb_descriptor *x, const uint8_t *d,
		     uint64_t following, const char *path, struct ht_error *err)
{
	int r = 0;

	switch (x->tag) {
	case AVB_TAG_PROPERTY:
		if (following < AVB_PROPERTY_FIXED - AVB_DESCRIPTOR_HEADER)
			return variable_part(d, following, AVB_PROPERTY_FIXED,
					     0, path, "property", err);
		get_fields(d, x, property_fields, COUNT(property_fields));
		if (x->property.key_len > following ||
		    x->property.value_len > following)
			return ht_fail(err, EINVAL,
				       "%s: property descriptor: key or value "
				       "longer than the descriptor",
				       path);
		r = variable_part(d, following, AVB_PROPERTY_FIXED,
				  x->property.key_len + 1 +
					  x->property.value_len + 1,
				  path, "property", err);
		x->property.key = d + AVB_PROPERTY_FIXED;
		x->property.value = x->property.key + x->property.key_len + 1;
		break;
	case AVB_TAG_HASHTREE:
		r = parse_hashtree(x, d, following, path, err);
		break;
	case AVB_TAG_HASH:
		r = parse_hash(x, d, following, path, err);
		break;
	case AVB_TAG_KERNEL_CMDLINE:
		if (following < AVB_CMDLINE_FIXED - AVB_DESCRIPTOR_HEADER)
			return variable_part(d, following, AVB_CMDLINE_FIXED, 0,
					     path, "kernel cmdline", err);
		get_fields(d, x, cmdline_fields, COUNT(cmdline_fields));
		x->cmdline.value_len = verity_avb_be32(d + CMDLINE_VALUE_LEN);
		r = variable_part(d, following, AVB_CMDLINE_FIXED,
				  x->cmdline.value_len, path, "kernel cmdline",
				  err);
		x->cmdline.value = d + AVB_CMDLINE_FIXED;
		break;
	case AVB_TAG_CHAIN_PARTITION:
		if (following < AVB_CHAIN_FIXED - AVB_DESCRIPTOR_HEADER)
			return variable_part(d, following, AVB_CHAIN_FIXED, 0,
					     path, "chain partition", err);
		get_fields(d, x, chain_fields, COUNT(chain_fields));
		r = variable_part(d, following, AVB_CHAIN_FIXED,
				  (uint64_t)x->chain.name_len +
					  x->chain.public_key_len,
				  path, "chain partition", err);
		x->chain.name = d + AVB_CHAIN_FIXED;
		x->chain.public_key = x->chain.name + x->chain.name_len;
		break;
	default: /* kept as it is: info_image shows it as unknown */
		break;
	}
	return r;
}

int verity_avb_descriptors_parse(const uint8_t *p, size_t len, const char *path,
				 struct avb_descriptor **out, size_t *n,
				 struct ht_error *err)
{
	struct avb_descriptor *list = NULL;
	size_t count = 0, cap = 0, off = 0;
	int r = 0;

	while (off < len) {
		uint64_t following;
		struct avb_descriptor *x;

		if (len - off < AVB_DESCRIPTOR_HEADER) {
			r = ht_fail(err, EINVAL,
				    "%s: descriptor at byte %zu of the "
				    "descriptors is cut off (%zu bytes left)",
				    path, off, len - off);
			break;
		}
		following = verity_avb_be64(p + off + DESC_LENGTH);
		if (following > len - off - AVB_DESCRIPTOR_HEADER ||
		    following % 8) {
			r = ht_fail(err, EINVAL,
				    "%s: descriptor at byte %zu: length %llu "
				    "is %s",
				    path, off, (unsigned long long)following,
				    following % 8
					    ? "not a multiple of 8"
					    : "past the descriptors' end");
			break;
		}
		if (count == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			void *q = realloc(list, ncap * sizeof(*list));

			if (!q) {
				r = ht_fail(err, ENOMEM, "out of memory");
				break;
			}
			list = q;
			cap = ncap;
		}
		x = &list[count++];
		memset(x, 0, sizeof(*x));
		x->tag = verity_avb_be64(p + off);
		x->raw = p + off;
		x->raw_size = AVB_DESCRIPTOR_HEADER + (size_t)following;
		if ((r = parse_one(x, p + off, following, path, err)))
			break;
		off += x->raw_size;
	}
	if (r) {
		free(list);
		return r;
	}
	*out = list;
	*n = count;
	return 0;
}

int verity_avb_vbmeta_parse(const uint8_t *b, size_t len, const char *path,
			    struct avb_vbmeta *v, struct ht_error *err)
{
	struct avb_header *h = &v->h;
	const struct verity_scheme *alg;
	const uint8_t *aux;

	memset(v, 0, sizeof(*v));
	if (len < AVB_HEADER_SIZE || memcmp(b, "AVB0", 4))
		return ht_fail(err, EINVAL,
			       "%s: no vbmeta image here (magic AVB0)", path);
	get_fields(b, h, header_fields, COUNT(header_fields));
	memcpy(h->release, b + HEADER_RELEASE, AVB_RELEASE_SIZE);
	if (h->release[AVB_RELEASE_SIZE - 1])
		return ht_fail(err, EINVAL,
			       "%s: vbmeta release string is not "
			       "NUL-terminated",
			       path);
	if (h->required_major != 1)
		return ht_fail(err, EINVAL,
			       "%s: vbmeta needs libavb %u.%u (this reader "
			       "knows 1.x)",
			       path, h->required_major, h->required_minor);
	if (h->auth_size % 64 || h->aux_size % 64)
		return ht_fail(err, EINVAL,
			       "%s: vbmeta block sizes %llu and %llu are not "
			       "multiples of 64",
			       path, (unsigned long long)h->auth_size,
			       (unsigned long long)h->aux_size);
	if (h->auth_size > len - AVB_HEADER_SIZE ||
	    h->aux_size > len - AVB_HEADER_SIZE - h->auth_size)
		return ht_fail(err, EINVAL,
			       "%s: vbmeta blocks of %llu and %llu bytes do "
			       "not fit its %zu bytes",
			       path, (unsigned long long)h->auth_size,
			       (unsigned long long)h->aux_size, len);
	if (!(alg = verity_avb_algorithm(h->algorithm)))
		return ht_fail(err, EINVAL,
			       "%s: vbmeta algorithm %u is unknown", path,
			       h->algorithm);
	if (!inside(h->hash_offset, h->hash_size, h->auth_size) ||
	    !inside(h->signature_offset, h->signature_size, h->auth_size))
		return ht_fail(err, EINVAL,
			       "%s: vbmeta hash or signature is outside the "
			       "authentication block",
			       path);
	if (!inside(h->public_key_offset, h->public_key_size, h->aux_size) ||
	    !inside(h->metadata_offset, h->metadata_size, h->aux_size) ||
	    !inside(h->descriptors_offset, h->descriptors_size, h->aux_size))
		return ht_fail(err, EINVAL,
			       "%s: vbmeta public key, key metadata or "
			       "descriptors are outside the auxiliary block",
			       path);
	/* libavb's sizes, exactly: an ML-DSA vbmeta has no hash */
	if (alg->kind != VERITY_SCHEME_NONE &&
	    (h->hash_size != alg->hash_size ||
	     h->signature_size != alg->sig_size))
		return ht_fail(err, EINVAL,
			       "%s: vbmeta hash of %llu and signature of %llu "
			       "bytes do not fit %s",
			       path, (unsigned long long)h->hash_size,
			       (unsigned long long)h->signature_size,
			       alg->name);
	v->blob = b;
	v->size = AVB_HEADER_SIZE + (size_t)h->auth_size + (size_t)h->aux_size;
	v->hash = b + AVB_HEADER_SIZE + h->hash_offset;
	v->signature = b + AVB_HEADER_SIZE + h->signature_offset;
	aux = b + AVB_HEADER_SIZE + h->auth_size;
	v->public_key = aux + h->public_key_offset;
	return verity_avb_descriptors_parse(aux + h->descriptors_offset,
					    (size_t)h->descriptors_size, path,
					    &v->desc, &v->ndesc, err);
}

void verity_avb_vbmeta_free(struct avb_vbmeta *v)
{
	free(v->desc);
	v->desc = NULL;
	v->ndesc = 0;
}

int verity_avb_buf_put(struct avb_buf *b, const void *p, size_t len)
{
	if (b->cap - b->len < len) {
		size_t ncap = b->cap ? b->cap : 4096;
		void *q;

		while (ncap - b->len < len)
			ncap *= 2;
		if (!(q = realloc(b->p, ncap)))
			return -ENOMEM;
		b->p = q;
		b->cap = ncap;
	}
	if (len)
		memcpy(b->p + b->len, p, len);
	b->len += len;
	return 0;
}

int verity_avb_buf_zeros(struct avb_buf *b, size_t len)
{
	static const uint8_t zeros[64];
	int r = 0;

	while (!r && len) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);

		r = verity_avb_buf_put(b, zeros, n);
		len -= n;
	}
	return r;
}

void verity_avb_buf_free(struct avb_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* A descriptor's variable part: up to three runs of bytes. */
struct parts {
	const void *p[3];
	size_t n[3];
};

/* The descriptor's header and fixed part (fixed bytes, zeroed), then
 * its variable part and zero padding to 8. */
static int put_descriptor(struct avb_buf *b, uint8_t *fixed, size_t fixed_len,
			  uint64_t tag, const struct parts *v)
{
	uint64_t following = fixed_len - AVB_DESCRIPTOR_HEADER;
	uint64_t padded;
	int r;

	for (int i = 0; i < 3; i++)
		following += v->n[i];
	padded = round8(following);
	verity_avb_put64(fixed, tag);
	verity_avb_put64(fixed + DESC_LENGTH, padded);
	if ((r = verity_avb_buf_put(b, fixed, fixed_len)))
		return r;
	for (int i = 0; i < 3; i++)
		if ((r = verity_avb_buf_put(b, v->p[i], v->n[i])))
			return r;
	return verity_avb_buf_zeros(b, (size_t)(padded - following));
}

/* A hash or hashtree descriptor's algorithm name in its fixed part, then
 * name, salt and digest. */
static int put_digest_part(struct avb_buf *b, uint8_t *fixed, size_t fixed_len,
			   size_t alg, uint64_t tag,
			   const struct avb_digest_part *x)
{
	memcpy(fixed + alg, x->hash_algorithm,
	       strnlen(x->hash_algorithm, ALGORITHM_FIELD));
	return put_descriptor(
		b, fixed, fixed_len, tag,
		&(struct parts){{x->name, x->salt, x->digest},
				{x->name_len, x->salt_len, x->digest_len}});
}

const struct avb_digest_part *
verity_avb_digest_part(const struct avb_descriptor *d)
{
	if (!d)
		return NULL;
	return d->tag == AVB_TAG_HASHTREE ? &d->hashtree.p
	       : d->tag == AVB_TAG_HASH   ? &d->hash.p
					  : NULL;
}

const uint8_t *verity_avb_desc_name(const struct avb_descriptor *d,
				    uint32_t *len)
{
	const struct avb_digest_part *p = verity_avb_digest_part(d);

	*len = p                                   ? p->name_len
	       : d->tag == AVB_TAG_CHAIN_PARTITION ? d->chain.name_len
						   : 0;
	return p                                   ? p->name
	       : d->tag == AVB_TAG_CHAIN_PARTITION ? d->chain.name
						   : NULL;
}

int verity_avb_descriptor_encode(const struct avb_descriptor *d,
				 struct avb_buf *b)
{
	uint8_t f[AVB_HASHTREE_FIXED];
	static const uint8_t nul = 0;
	struct avb_buf tmp = {0};
	int r;

	memset(f, 0, sizeof(f));
	switch (d->tag) {
	case AVB_TAG_PROPERTY:
		put_fields(f, d, property_fields, COUNT(property_fields));
		/* key NUL value NUL */
		if ((r = verity_avb_buf_put(&tmp, d->property.value,
					    (size_t)d->property.value_len)) ||
		    (r = verity_avb_buf_put(&tmp, &nul, 1)) ||
		    (r = verity_avb_buf_put(&tmp, &nul, 1))) {
			verity_avb_buf_free(&tmp);
			return r;
		}
		/* tmp: value NUL NUL; the key's NUL goes between */
		r = put_descriptor(
			b, f, AVB_PROPERTY_FIXED, d->tag,
			&(struct parts){
				{d->property.key, &nul, tmp.p},
				{(size_t)d->property.key_len, 1, tmp.len - 1}});
		verity_avb_buf_free(&tmp);
		return r;
	case AVB_TAG_HASHTREE:
		put_fields(f, d, hashtree_fields, COUNT(hashtree_fields));
		return put_digest_part(b, f, AVB_HASHTREE_FIXED,
				       HASHTREE_ALGORITHM, d->tag,
				       &d->hashtree.p);
	case AVB_TAG_HASH:
		put_fields(f, d, hash_fields, COUNT(hash_fields));
		return put_digest_part(b, f, AVB_HASH_FIXED, HASH_ALGORITHM,
				       d->tag, &d->hash.p);
	case AVB_TAG_KERNEL_CMDLINE:
		put_fields(f, d, cmdline_fields, COUNT(cmdline_fields));
		verity_avb_put32(f + CMDLINE_VALUE_LEN,
				 (uint32_t)d->cmdline.value_len);
		return put_descriptor(
			b, f, AVB_CMDLINE_FIXED, d->tag,
			&(struct parts){{d->cmdline.value},
					{(size_t)d->cmdline.value_len}});
	case AVB_TAG_CHAIN_PARTITION:
		put_fields(f, d, chain_fields, COUNT(chain_fields));
		return put_descriptor(
			b, f, AVB_CHAIN_FIXED, d->tag,
			&(struct parts){
				{d->chain.name, d->chain.public_key},
				{d->chain.name_len, d->chain.public_key_len}});
	default: /* an unknown descriptor is copied as it was read */
		return verity_avb_buf_put(b, d->raw, d->raw_size);
	}
}

void verity_avb_header_encode(const struct avb_header *h,
			      uint8_t b[AVB_HEADER_SIZE])
{
	memset(b, 0, AVB_HEADER_SIZE);
	memcpy(b, "AVB0", 4);
	put_fields(b, h, header_fields, COUNT(header_fields));
	memcpy(b + HEADER_RELEASE, h->release,
	       strnlen(h->release, AVB_RELEASE_SIZE - 1));
}

int verity_avb_partition_name_ok(const uint8_t *name, size_t len)
{
	if (!len || len > 64 || name[0] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return 0;
	}
	return 1;
}

int verity_avb_vbmeta_has_key(const struct avb_vbmeta *v, const uint8_t *blob,
			      size_t len)
{
	return len == v->h.public_key_size && !memcmp(blob, v->public_key, len);
}

int verity_avb_vbmeta_check(const struct avb_vbmeta *v, const char *path,
			    struct ht_error *err)
{
	const struct verity_scheme *alg = verity_avb_algorithm(v->h.algorithm);
	const uint8_t *aux = v->blob + AVB_HEADER_SIZE + v->h.auth_size;
	/* the signed message: the header, then the whole auxiliary block */
	const struct verity_msg m[2] = {{v->blob, AVB_HEADER_SIZE},
					{aux, (size_t)v->h.aux_size}};
	char what[300];
	int r;

	if (alg->kind == VERITY_SCHEME_NONE)
		return 0;
	/* a key blob of the wrong shape is a malformed image; a digest or
	 * signature that does not match is a failed check */
	snprintf(what, sizeof(what), "%.256s: checking its signature (%s)",
		 path, alg->name);
	if ((r = verity_scheme_load(alg, what, err)))
		return r;
	snprintf(what, sizeof(what), "%.256s: vbmeta public key", path);
	r = verity_scheme_verify(alg, v->public_key,
				 (size_t)v->h.public_key_size, m, 2, v->hash,
				 v->signature, (size_t)v->h.signature_size,
				 what, err);
	if (r == -EBADMSG)
		return ht_fail(err, EPERM,
			       "%s: the vbmeta digest does not match its "
			       "header and auxiliary block",
			       path);
	if (r == -EPERM)
		return ht_fail(err, EPERM,
			       "%s: the vbmeta signature does not match its "
			       "embedded public key",
			       path);
	return r;
}
