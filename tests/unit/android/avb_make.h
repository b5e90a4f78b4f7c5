/* Android images made for the suites of verity/android/, verity/image/
 * and verity/slot/ with the library's own writers (no avbtool): an
 * ML-DSA-65 key and its AVB public key blob, hashtree and hash footers,
 * vbmeta images with chains, a super image of one A/B partition, in a
 * private directory of the suite's (amk_dir, removed by amk_rmdir). */
#ifndef FV_UNIT_AVB_MAKE_H
#define FV_UNIT_AVB_MAKE_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "verity/android/write.h"
#include "verity/container/avb/image.h"
#include "verity/ops/ops.h"
#include "verity/sign/scheme.h"

#define AMK_BS 4096u

static char amk[32];

static inline void amk_dir(const char *template)
{
	snprintf(amk, sizeof(amk), "%s", template);
	ck_assert_ptr_nonnull(mkdtemp(amk));
}

static inline void amk_rmdir(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", amk);
	ck_assert_int_eq(system(cmd), 0);
}

/* amk/name into p (160 bytes). */
static inline char *amk_path(char p[160], const char *name)
{
	snprintf(p, 160, "%s/%s", amk, name);
	return p;
}

static inline void amk_write(const char *p, const void *b, size_t n)
{
	FILE *f = fopen(p, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

static inline void amk_poke(const char *p, uint64_t off, const void *b,
			    size_t n)
{
	FILE *f = fopen(p, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* blocks of data made of seed. */
static inline void amk_data(const char *p, unsigned blocks, unsigned seed)
{
	size_t n = (size_t)blocks * AMK_BS;
	uint8_t *b = malloc(n);

	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(i * seed + i / 4091 + seed);
	amk_write(p, b, n);
	free(b);
}

/* A new ML-DSA-65 key at key, its AVB public key blob at pub. */
static inline void amk_key(const char *key, const char *pub)
{
	struct ht_error err;
	uint8_t *blob;
	size_t len;

	ck_assert_msg(verity_android_key_generate("MLDSA65", key, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(verity_sigkey_file_blob(key, &blob, &len, &err), 0);
	amk_write(pub, blob, len);
	free(blob);
}

/* The vbmeta options of key (NULL: unsigned). */
static inline struct avb_vbmeta_opts amk_vb(const char *key)
{
	struct avb_vbmeta_opts vb = {0};

	vb.algorithm = key ? AVB_ALG_MLDSA65 : AVB_ALG_NONE;
	vb.key_path = key;
	vb.deterministic = 1;
	return vb;
}

/* add_hashtree_footer on image for partition name, signed by key. */
static inline int amk_hashtree(const char *image, const char *name,
			       const char *key, int fec, struct ht_error *err)
{
	static const uint8_t salt[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct avb_footer_opts o = {0};
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;

	o.image = image;
	o.partition_name = name;
	o.hash_algorithm = "sha256";
	o.block_size = AMK_BS;
	o.salt = salt;
	o.salt_len = sizeof(salt);
	o.salt_given = 1;
	o.fec = fec;
	o.roots = fec ? 2 : 0;
	o.vb = amk_vb(key);
	return verity_op_avb_hashtree_footer(&o, &run, &out, err);
}

/* add_hash_footer on image for partition name in a partition of size
 * bytes, signed by key. */
static inline int amk_hash(const char *image, const char *name,
			   const char *key, uint64_t size,
			   struct ht_error *err)
{
	struct avb_footer_opts o = {0};

	o.image = image;
	o.partition_name = name;
	o.partition_size = size;
	o.hash_algorithm = "sha256";
	o.vb = amk_vb(key);
	return verity_avb_add_hash_footer(&o, err);
}

/* make_vbmeta_image at output: chains (n), included images (ni), a
 * command line (NULL: none), signed by key. */
static inline int amk_vbmeta(const char *output, const char *key,
			     const struct avb_chain *chains, size_t n,
			     const char *const *includes, size_t ni,
			     const char *cmdline, struct ht_error *err)
{
	struct avb_vbmeta_opts vb = amk_vb(key);

	vb.chains = chains;
	vb.nchains = n;
	vb.includes = includes;
	vb.nincludes = ni;
	vb.cmdlines = cmdline ? &cmdline : NULL;
	vb.ncmdlines = cmdline ? 1 : 0;
	return verity_avb_make_vbmeta_image(output, &vb, 0, err);
}

static inline void amk_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void amk_sha256(const void *p, size_t n, uint8_t *out)
{
	unsigned len = 32;

	ck_assert_int_eq(EVP_Digest(p, n, out, &len, EVP_sha256(), NULL), 1);
}

/* A super image at path (liblp's metadata, 2 slots): system_a, one
 * extent holding the n bytes of part at 1 MiB, and system_b empty. */
static inline void amk_super(const char *path, const uint8_t *part, size_t n)
{
	const size_t size = (3u << 20) + n, meta = 65536;
	const size_t tsize = 2 * 52 + 24 + 48 + 64;
	uint8_t *img = calloc(1, size), *g, *h, *t;

	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(n % 512, 0);
	g = img + 4096;
	memcpy(img + (1u << 20), part, n);
	/* the geometry, and its backup copy */
	amk_le(g, 0x616c4467, 4);
	amk_le(g + 4, 52, 4);
	amk_le(g + 40, meta, 4);
	amk_le(g + 44, 2, 4);
	amk_le(g + 48, 4096, 4);
	amk_sha256(g, 52, g + 8);
	memcpy(img + 8192, g, 52);
	/* slot 0's primary copy: the header, then the tables */
	h = img + 12288;
	t = h + 128;
	memcpy(t, "system_a", 8);
	amk_le(t + 36, 1, 4); /* readonly */
	amk_le(t + 44, 1, 4); /* one extent, the first */
	memcpy(t + 52, "system_b", 8);
	amk_le(t + 52 + 36, 1, 4);
	t += 104;
	amk_le(t, n / 512, 8); /* linear onto super at sector 2048 */
	amk_le(t + 12, 2048, 8);
	t += 24;
	memcpy(t, "default", 7);
	t += 48;
	amk_le(t, 2048, 8);
	amk_le(t + 8, 1u << 20, 4);
	amk_le(t + 16, size, 8);
	memcpy(t + 24, "super", 5);
	amk_le(h, 0x414c5030, 4);
	amk_le(h + 4, 10, 2);
	amk_le(h + 8, 128, 4);
	amk_le(h + 44, tsize, 4);
	amk_sha256(h + 128, tsize, h + 48);
	amk_le(h + 80, 0, 4), amk_le(h + 84, 2, 4), amk_le(h + 88, 52, 4);
	amk_le(h + 92, 104, 4), amk_le(h + 96, 1, 4), amk_le(h + 100, 24, 4);
	amk_le(h + 104, 128, 4), amk_le(h + 108, 1, 4), amk_le(h + 112, 48, 4);
	amk_le(h + 116, 176, 4), amk_le(h + 120, 1, 4), amk_le(h + 124, 64, 4);
	amk_sha256(h, 128, h + 12);
	/* the other slot's and the backup copies */
	for (unsigned c = 1; c < 4; c++)
		memcpy(h + c * meta, h, 128 + tsize);
	amk_write(path, img, size);
	free(img);
}

/* The whole file at p (*n bytes), malloc'd. */
static inline uint8_t *amk_read(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	uint8_t *b;
	long len;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	ck_assert_ptr_nonnull(b = malloc(len ? (size_t)len : 1));
	ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

#endif
