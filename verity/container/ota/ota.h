/* An Android A/B OTA package (docs/ota.md): an OTA zip holding
 * payload.bin (stored), payload_properties.txt, META-INF/com/android/
 * metadata.pb and otacert, or a bare payload.bin; read whole into what
 * it says, a list of facts in order (shown by show.c, fv_show):
 * the package's keys and values as a JSON document's events. */
#ifndef FV_CONTAINER_OTA_H
#define FV_CONTAINER_OTA_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/container/ota/payload.h"
#include "verity/container/ota/zip.h"
#include "verity/storage/device.h"

#define VERITY_OTA_MAX_SMALL (1u << 20) /* properties, metadata.pb */

/* The entries an OTA zip holds that are read. */
#define VERITY_OTA_PAYLOAD    "payload.bin"
#define VERITY_OTA_PROPERTIES "payload_properties.txt"
#define VERITY_OTA_METADATA   "META-INF/com/android/metadata.pb"
#define VERITY_OTA_OTACERT    "META-INF/com/android/otacert"
#define VERITY_OTA_MAX_FACTS (1u << 22)
#define VERITY_OTA_MAX_OP    (256u << 20) /* an operation's data, output */
#define VERITY_OTA_MAX_IMAGE (1ull << 40) /* new_partition_info.size */

/* What verity_ota_apply found for one partition. */
struct verity_ota_part {
	const char *name; /* the manifest's */
	char verdict[640]; /* "good", or why not */
	uint64_t ops;     /* operations applied */
	char *path;       /* the image written (extract), or NULL */
};

/* Decompressed bytes handed on: 0 or a negative errno. */
typedef int (*verity_ota_put_fn)(void *ctx, const uint8_t *p, size_t n,
				 struct ht_error *err);

/* A fact's kind: a value (string, number, true/false, null), or where an
 * object or array begins and ends (key "" inside an array). */
enum {
	VERITY_FACT_STRING = 's', VERITY_FACT_NUMBER = 'n',
	VERITY_FACT_BOOL = 'b', VERITY_FACT_OBJECT = '{',
	VERITY_FACT_ARRAY = '[', VERITY_FACT_END = '}',
	VERITY_FACT_END_ARRAY = ']',
};

/* The zip's checks (verity_ota_check_zip), in order. */
enum {
	VERITY_OTA_ZIP_SIGNATURE, VERITY_OTA_ZIP_OTACERT,
	VERITY_OTA_ZIP_PROPERTIES, VERITY_OTA_ZIP_PROPERTY_FILES,
	VERITY_OTA_ZIP_CHECKS
};

struct verity_ota_fact {
	char *key, *value;
	int type;
};

/* A Signatures message's verdict: none there; every entry zeros (the
 * placeholder a signer writes first: not signed); one entry verifies
 * with the key; none does. */
enum verity_ota_verdict {
	VERITY_OTA_SIG_NONE = 0, VERITY_OTA_SIG_PLACEHOLDER,
	VERITY_OTA_SIG_GOOD, VERITY_OTA_SIG_BAD,
	/* a good payload signature with bytes after it, which it does not
	 * cover: update_engine (paycheck: "Used payload size different
	 * from actual file size") refuses such a payload */
	VERITY_OTA_SIG_TRAILING,
};

struct verity_ota {
	struct verity_ota_src src;
	struct verity_device dev; /* a file's (dev.fd < 0: none) */
	int is_zip;
	struct verity_zip zip;
	struct verity_payload payload;
	void *metadata; /* Build__Tools__Releasetools__OtaMetadata, or NULL */
	char *properties; /* payload_properties.txt, NUL-ended, or NULL */
	struct verity_ota_fact *f;
	size_t nf, cap;
	int nomem;
	/* what verity_ota_verify found */
	int verified;
	int trusted;       /* the key was the caller's, not the package's */
	char key_kind[32]; /* "RSA-2048", "EC P-256" */
	char *signer;      /* the certificate's subject, or NULL */
	char *zip_signer;  /* the whole-file CMS's signer's subject */
	enum verity_ota_verdict metadata_verdict, payload_verdict;
	/* what verity_ota_check_zip found: each "good", or why not */
	char zip_check[VERITY_OTA_ZIP_CHECKS][384];
	char zip_digest[16]; /* the whole-file signature's: "SHA-256" */
	/* what verity_ota_apply found */
	int applied;
	struct verity_ota_part *parts;
	size_t nparts;
	uint64_t unhashed; /* operations with data and no data_sha256_hash */
	unsigned threads;  /* verity_ota_apply's workers (1: none) */
};

/* 1 when src is an OTA package: a zip with a payload.bin entry, or a
 * payload's magic at byte 0. */
int verity_ota_probe(const struct verity_ota_src *src);
/* 1 when the file at path is one. */
int verity_ota_probe_path(const char *path);
/* src's package into o (verity_ota_free; src outlives o): -EINVAL
 * naming the file and the field, -ENOMEM, -ENOSYS, -EIO. */
int verity_ota_read(const struct verity_ota_src *src, struct verity_ota *o,
		    struct ht_error *err);
/* The facts of what o holds (and what verify found), in order. */
int verity_ota_facts(struct verity_ota *o, struct ht_error *err);
/* The file at path read (verity_ota_read) and, verify bit 1, its
 * signatures checked (verity_ota_verify with cert), bit 2 its operations
 * applied and its partitions hashed (verity_ota_apply, no output), then
 * its facts (*o: verity_ota_free); -ENODEV when it cannot be opened.
 * threads: the operations' workers (0: one per CPU). */
int verity_ota_open(const char *path, int verify, const char *cert,
		    unsigned threads, struct verity_ota **o,
		    struct ht_error *err);
/* The metadata and payload signatures checked with the key of cert (a
 * PEM certificate or public key file; NULL: the zip's otacert, the
 * signer then not checked against a trusted one): SHA-256 digests,
 * RSA-2048/4096 PKCS#1 v1.5 or ECDSA, any entry verifying. -EINVAL (a
 * key update_engine does not take, named; a bare payload without cert),
 * -ENOSYS (no OpenSSL), -EIO. The verdicts go in o. */
int verity_ota_verify(struct verity_ota *o, const char *cert,
		      struct ht_error *err);
/* A zip's own checks (docs/ota.md), each verdict into o->zip_check: the
 * whole-file signature (CMS SignedData in the comment's footer, over the
 * file less the comment and its length; SHA-1 or SHA-256, RSA or ECDSA)
 * with trusted (an EVP_PKEY; NULL: the CMS's own certificate), otacert
 * equal to the CMS's signer certificate, payload_properties.txt's four
 * values against payload.bin (dm: SHA-256 of its metadata), each
 * property file's name:offset:size against the entries. -ENOMEM, -EIO. */
int verity_ota_check_zip(struct verity_ota *o, void *trusted,
			 const uint8_t dm[32], struct ht_error *err);
/* alg's digest ("SHA256", "SHA1") of [a, a + alen) then [b, b + blen)
 * of the package into out. */
int verity_ota_digest(const struct verity_ota *o, const char *alg, uint64_t a,
		      uint64_t alen, uint64_t b, uint64_t blen, uint8_t *out,
		      struct ht_error *err);
/* 1 when sig (len bytes) signs digest d (dlen bytes, of alg) with key
 * (an EVP_PKEY: RSA PKCS#1 v1.5, or ECDSA). */
int verity_ota_verify_digest(void *key, const char *alg, const uint8_t *sig,
			     size_t len, const uint8_t *d, size_t dlen);
/* The subject of the whole-file signature's signer certificate (as the
 * CMS holds it, not checked) into o->zip_signer, when OpenSSL opens and
 * the CMS reads; nothing otherwise. */
void verity_ota_zip_signer(struct verity_ota *o);
/* A small entry's bytes (stored, or deflated and inflated; its CRC-32
 * checked), NUL-ended (*out NULL: no such entry): -EINVAL naming the
 * entry (another method, over VERITY_OTA_MAX_SMALL, a bad CRC-32 or
 * deflate stream), -ENOSYS (no zlib), -ENOMEM, -EIO. */
int verity_ota_entry(const struct verity_ota *o, const char *name,
		     char **out, size_t *len, struct ht_error *err);
void verity_ota_free(struct verity_ota *o);
/* A bsdiff patch (BSDIFF40: three bzip2 streams; BSDF2: each stream
 * bzip2 or brotli, as its header says) applied to old (oldlen bytes):
 * the new data, at most max bytes, handed to put; *produced: how many.
 * -EINVAL naming what and the field (a header, a stream, a control
 * entry past the new size or the diff or extra data), -ENOSYS, -ENOMEM,
 * put's errors. */
int verity_ota_bspatch(const uint8_t *patch, size_t len, const uint8_t *old,
		       size_t oldlen, uint64_t max, verity_ota_put_fn put,
		       void *ctx, uint64_t *produced, const char *what,
		       struct ht_error *err);
/* Each partition named in names (a comma-separated list; NULL: all) of a
 * full payload applied: each operation's data checked against its
 * data_sha256_hash, decompressed into its dst_extents (REPLACE,
 * REPLACE_BZ, REPLACE_XZ, REPLACE_ZSTD, ZERO, DISCARD; every size
 * bounded), the image hashed against new_partition_info; with dir, each
 * good image committed as dir/NAME.img (verity/storage/output.h; a bad
 * one leaves nothing); delta operations (SOURCE_COPY, SOURCE_BSDIFF,
 * BROTLI_BSDIFF) from src_dir/NAME.img, checked first against
 * old_partition_info, each operation's source against src_sha256_hash
 * (src_dir NULL: such a partition is not applied). The verdicts in
 * o->parts. -EINVAL (a name not in
 * the payload), -ENOMEM, -EIO, an output's errors. */
int verity_ota_apply(struct verity_ota *o, const char *dir,
		     const char *src_dir, const char *names,
		     struct ht_error *err);
#define VERITY_OTA_BROTLI 100 /* a brotli stream (a BSDF2 patch's) */
/* in (len bytes) of an operation of type (1 bzip2, 8 xz, 14 zstd,
 * VERITY_OTA_BROTLI brotli)
 * decompressed, at most max bytes, handed to put; *produced: how many.
 * -EINVAL (what named: not a valid stream, more than max), -ENOSYS (its
 * library cannot be opened), -ENOMEM, put's errors. */
int verity_ota_decompress(unsigned type, const uint8_t *in, size_t len,
			  uint64_t max, verity_ota_put_fn put, void *ctx,
			  uint64_t *produced, const char *what,
			  struct ht_error *err);
/* inlen bytes of raw deflate at in into exactly outlen bytes at out
 * (what names the entry). */
int verity_ota_inflate(const uint8_t *in, size_t inlen, uint8_t *out,
		       size_t outlen, const char *what, struct ht_error *err);

#endif
