/* libfastverity: build, check, repair, sign and map dm-verity hash trees
 * (docs/library.md; the on-disk format in docs/format.md).
 *
 * The one header to include; it needs nothing but the C library's. Every
 * type is an opaque handle, made and freed by the library, read and set
 * through functions, so that later versions can add to them without
 * breaking programs built against this one (docs/library.md, "ABI").
 *
 * Errors: functions returning int return 0, or a negative errno with a
 * one-line message (naming the file and the problem) that fv_last_error()
 * returns until the next failure on the same thread. Functions returning
 * a pointer return NULL on failure (out of memory), also with a message.
 * The library never prints and never prompts. An errno means the same
 * for every function; each function lists those it returns:
 *   EINVAL     an argument that is not valid (a NULL handle or path, a
 *              value out of range, flags that exclude each other),
 *              parameters that do not fit together or do not fit the
 *              devices (a data device smaller than its data blocks, a
 *              hash device shorter than its tree), a superblock or root
 *              hash that is not valid, an output that must not be
 *              written (it is an input, or overlaps one)
 *   EOVERFLOW  parameters whose sizes do not fit in 64 bits
 *   ENOMEM     out of memory
 *   ENODEV     a file or device that does not exist or cannot be opened;
 *              a device-mapper name that is not active
 *   ENOTBLK    a directory where an image or device belongs
 *   ENOSPC     a block device too small for the tree or the parity
 *   ENODATA    an input that shrank while it was being read
 *   EIO        a read or write the system refused (a block that cannot be
 *              read is a result of verify and repair, not an error), a
 *              flush that failed, no random bytes
 *   EBUSY      a device held by another user (mounted, mapped) given to
 *              write; a device-mapper name taken, or a device still open
 *   EPERM      a root hash signature that does not check out
 *   EACCES     an encrypted key's passphrase or a token's PIN missing or
 *              wrong; an output that cannot be looked at, or a symlink
 *              that is not followed (a sticky world-writable directory)
 *   ENOSYS     no device-mapper here
 * A system call's own errno passes through where none of these says
 * more (opening an output in a directory that cannot be written). */
#ifndef FASTVERITY_H
#define FASTVERITY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FASTVERITY_VERSION_MAJOR 0
#define FASTVERITY_VERSION_MINOR 9
#define FASTVERITY_VERSION_PATCH 0
#define FASTVERITY_VERSION       "0.9.0"

/* The version of the library loaded at run time ("0.8.0"), which may be
 * newer than the FASTVERITY_VERSION a program was built with. */
const char *fastverity_version(void);

/* Since 0.9. The library opens OpenSSL (libcrypto.so.3)
 * when it first needs it, not when it is loaded: sha256 trees at format
 * 1 never do (the library's own kernels hash them); other hash
 * algorithms, keys, signatures and certificates do. OpenSSL's version
 * line ("OpenSSL 3.0.11 19 Sep 2023"), OpenSSL opened for it; NULL, with
 * fv_last_error(), if it cannot be. */
const char *fv_openssl_version(void);
/* Since 0.9. The digest of n parts (sizes[i] bytes at
 * parts[i]) one after the other with alg ("sha256", "sha512", ...) from
 * OpenSSL's default provider: to out (FV_MAX_DIGEST_SIZE of room), its
 * size to *len. Errors: EINVAL (no such algorithm, a NULL pointer),
 * ENOSYS (OpenSSL cannot be opened), ENOMEM. */
int fv_digest(const char *alg, size_t n, const void *const *parts,
	      const size_t *sizes, uint8_t *out, size_t *len);

/* This thread's message for its last failed call ("" before any). */
const char *fv_last_error(void);

/* Since 0.6. Some messages end with a fix that sets one
 * parameter: "... (give a data block count of 12)". A program with its
 * own names for the parameters (a command line's options) says the fix
 * in its words: fv_last_error_param() tells which parameter, and
 * fv_last_error_say() writes the message with words[param] in place of
 * the library's. */
enum fv_param {
	FV_PARAM_NONE = 0,     /* the message has no fix */
	FV_PARAM_DATA_BLOCKS,  /* the data block count */
	FV_PARAM_HASH_OFFSET,  /* the hash offset */
	FV_PARAM_FEC_ROOTS,    /* the parity's roots */
	FV_PARAM_FEC_OFFSET,   /* the parity's offset */
	FV_PARAM_PASSPHRASE,   /* a key's passphrase or a token's PIN */
	FV_PARAM_DRY_RUN,      /* a repair for real, not a dry run */
	FV_PARAM_CONTAINER,    /* the container an image is read as */
	FV_PARAM_TRUSTED_CERT, /* a certificate trusted to sign the root */
	FV_PARAM_TRUSTED_KEY,  /* the public key an Android vbmeta's signer
				* must have */
	FV_PARAM_ROOT_HASH,    /* the root hash (since 0.10) */
};
/* How a program names a parameter: set to a value (a printf format of
 * one unsigned long long, "--data-blocks=%llu"), and alone
 * ("--data-blocks"). */
struct fv_param_words {
	const char *with_value;
	const char *alone;
};
enum fv_param fv_last_error_param(void);
/* This thread's last message into out (len bytes, always terminated),
 * its fix said with words[param] when param < n and both words are set
 * (else the library's words, as fv_last_error has them). Returns the
 * message's length, as snprintf does. */
int fv_last_error_say(const struct fv_param_words *words, size_t n, char *out,
		      size_t len);

/* Frees what the library allocated for the caller (signatures, strings
 * it says to free). NULL is fine. */
void fv_free(void *p);

/* Limits (since 0.6): the longest salt, root hash and hash name, the
 * most worker threads, and the parity's roots. */
#define FV_MAX_SALT_SIZE   256
#define FV_MAX_DIGEST_SIZE 64
#define FV_MAX_HASH_NAME   31
#define FV_MAX_THREADS     256
#define FV_FEC_MIN_ROOTS   2
#define FV_FEC_MAX_ROOTS   24

/* --- parameters --------------------------------------------------------
 * What the superblock holds, plus where the hash area starts: a plain
 * structure since 0.10, in place of 0.3-0.9's handle
 * with its 19 setters and getters; format, verify and open check the
 * whole set (fv_params_check). */
struct fv_params {
	size_t size; /* sizeof(struct fv_params), set by the caller */
	char hash[FV_MAX_HASH_NAME + 1]; /* "sha256" */
	unsigned hash_type;              /* 0 (Chrome OS) or 1 */
	uint32_t data_block_size;        /* a power of two, 512 to 524288 */
	uint32_t hash_block_size;
	/* 0: every whole block of the data device (filled in by format) */
	uint64_t data_blocks;
	/* bytes from the start of the hash device to the superblock (or,
	 * without one, to the tree) */
	uint64_t hash_offset;
	uint8_t salt[FV_MAX_SALT_SIZE];
	size_t salt_len;
	/* "12345678-1234-4234-8234-123456789abc" (all zeros, or "" given:
	 * none) */
	char uuid[37];
	/* 1: a superblock (the default); 0: none, the parameters given */
	int superblock;
};
typedef struct fv_params fv_params;

/* veritysetup format's defaults into p (as much as p->size holds, set
 * by the caller): sha256, 4096-byte blocks, hash type 1, a random
 * 32-byte salt, a random UUID, a superblock at offset 0, and every
 * whole block of the data device. Errors: EINVAL (p NULL, its size too
 * small), EIO (no random bytes). */
int fv_params_init(fv_params *p);


/* Since 0.6: checks the whole set as format, verify and open will (the
 * message names the first field that is not valid: a hash the library
 * does not know, a hash type other than 0 or 1, a block size, a salt
 * too long, a UUID that is not one, a hash offset past INT64_MAX).
 * Errors: EINVAL. */
int fv_params_check(const fv_params *p);

/* Where the tree goes for p (which must name the data blocks): its first
 * byte on the hash device, its size in hash blocks, and the hash
 * device's minimum size. Any output may be NULL. Errors: EINVAL (the data
 * blocks not set, parameters not valid), EOVERFLOW. */
int fv_params_layout(const fv_params *p, uint64_t *tree_offset,
		     uint64_t *tree_blocks, uint64_t *hash_bytes);

/* --- options ------------------------------------------------------------
 * How format, verify, repair and open run: a plain structure since 0.10,
 * in place of 0.3-0.9's handle and its setters. The
 * caller sets size to sizeof(struct fv_options) and zeroes the rest
 * (fv_options o = {.size = sizeof(o)}): zero is each option's default,
 * and NULL options mean the defaults (one worker per online CPU, no
 * progress, no callbacks, no flags, no anchor). A call checks the
 * options it is given before it reads or writes anything (EINVAL: a
 * member out of its range), reads them during the call only and keeps
 * nothing of them: the strings and arrays need live only as long. */
typedef struct fv_options fv_options;

/* done of total bytes read so far; called from worker threads, one call
 * at a time. */
typedef void (*fv_progress_fn)(void *ctx, uint64_t done, uint64_t total);
/* Since 0.8: a pass over the image begins, by name
 * ("verify data", "rebuild", "verify again", "check parity", "hash
 * data", "hash data and parity", "write parity"), with the progress
 * callback's ctx; the progress calls after it count that pass from 0 to
 * its own total (a bar per pass, whose 100% means that pass is done). */
typedef void (*fv_pass_fn)(void *ctx, const char *pass);

enum fv_failure_kind {
	FV_BAD_DATA_BLOCK, /* a data block does not match its digest */
	FV_BAD_HASH_BLOCK, /* a hash block does not match its parent */
	FV_BAD_PADDING,    /* non-zero bytes where a hash block must be 0 */
	/* since 0.3: a block that cannot be read (EIO); the check goes on,
	 * and repair rebuilds it like any other bad block */
	FV_UNREADABLE_DATA_BLOCK,
	FV_UNREADABLE_HASH_BLOCK,
};
/* One failure, as verify (or repair's first pass) finds it: block is the
 * data block index (data) or the hash block index on the hash device;
 * offset the byte offset on that device; level the tree level of a hash
 * block (0: leaves). The tree is checked from the top down, and only
 * against proven blocks: a damaged hash block is the failure reported,
 * the blocks under it are counted as unchecked (struct fv_report), not
 * reported. Failures come top level first, in device order within a
 * level, data blocks last. */
typedef void (*fv_failure_fn)(void *ctx, enum fv_failure_kind kind,
			      uint64_t block, uint64_t offset, unsigned level);
/* With parity: each bad block as the repair (or verify: what a repair
 * would do) leaves it: repaired 1 when rebuilt and proven, 0 when it
 * stays bad. */
typedef void (*fv_block_fn)(void *ctx, int repaired, enum fv_failure_kind kind,
			    uint64_t block, uint64_t offset, unsigned level);

/* open: the target's flags (several may be or'ed, but one corruption
 * and one error policy at most). */
enum fv_flags {
	FV_IGNORE_CORRUPTION = 1u << 0,
	FV_RESTART_ON_CORRUPTION = 1u << 1,
	FV_PANIC_ON_CORRUPTION = 1u << 2,
	FV_RESTART_ON_ERROR = 1u << 3,
	FV_PANIC_ON_ERROR = 1u << 4,
	FV_IGNORE_ZERO_BLOCKS = 1u << 5,
	FV_CHECK_AT_MOST_ONCE = 1u << 6,
	FV_USE_TASKLETS = 1u << 7,
};

/* The SHA-256 kernel of the fast path, for measuring and testing (the
 * results are the same with each): FV_SHA256_FASTEST, the default, is
 * the fastest this CPU has. */
enum fv_sha256_kernel {
	FV_SHA256_FASTEST = 0,
	FV_SHA256_PORTABLE = 1,  /* C, one block at a time */
	FV_SHA256_TWO_WAY = 2,   /* the CPU's SHA instructions, two blocks */
	FV_SHA256_THREE_WAY = 3, /* three blocks */
	FV_SHA256_AVX512 = 4,    /* since 0.9: sixteen in AVX-512 lanes, where
				  * the CPU has them (the fastest otherwise) */
};

/* How fv_repair goes (or'ed). */
enum fv_repair_flags {
	FV_REPAIR_DRY_RUN = 1u << 0, /* find what can be repaired, write
				      * nothing */
	/* also rewrite parity that disagrees with the verified image, from
	 * blocks proven again as they are read; -EINVAL (nothing
	 * rewritten) when more than 5% of its codewords disagree: the
	 * parity is then not this image's (a dry run refuses it too) */
	FV_REPAIR_REWRITE_PARITY = 1u << 1,
};

/* The most certificate files trusted_certs may name. */
#define FV_MAX_TRUSTED_CERTS 64

struct fv_options {
	size_t size; /* sizeof(struct fv_options), set by the caller */
	/* 0: one per online CPU; 1: the calling thread only; at most
	 * FV_MAX_THREADS */
	unsigned threads;
	/* 1: map the data instead of reading it: no copy, but a data file
	 * that another program truncates meanwhile raises SIGBUS in the
	 * caller (a library cannot catch it). 0: read, as the command
	 * does. */
	int map;
	fv_progress_fn progress; /* NULL: none */
	void *progress_ctx;      /* progress's and pass's */
	fv_pass_fn pass;         /* NULL: none */
	/* verify, repair: each failure; with parity, each bad block as
	 * left (NULL: none) */
	fv_failure_fn failure;
	void *failure_ctx;
	fv_block_fn block;
	void *block_ctx;
	unsigned flags; /* open: enum fv_flags */
	/* verify, repair and open: PEM certificates (or bundles) trusted
	 * to sign the root hash, at most FV_MAX_TRUSTED_CERTS (NULL, 0:
	 * none) */
	const char *const *trusted_certs;
	size_t ntrusted_certs;
	/* an Android vbmeta's anchor for open: the public key its signer
	 * must have, a file of either scheme: an RSA key (PEM, private or
	 * public), an ML-DSA key (PKCS#8 or SPKI, PEM or DER), or the
	 * key's AVB public-key blob (NULL: none) */
	const char *key;
	enum fv_sha256_kernel sha256;
	unsigned repair; /* fv_repair: enum fv_repair_flags */
};

/* --- format, verify, repair ---------------------------------------------
 */
typedef struct fv_result fv_result;

/* What an action found: fv_result_report (struct fv_report, below). */
void fv_result_free(fv_result *r);

/* --- signatures ---------------------------------------------------------
 * A detached DER PKCS#7 over the lowercase hex root hash (the kernel's
 * and systemd's .roothash.p7s). */

/* Who signs (since 0.10: one request in place of fv_signer and its
 * setters), read during the call only: nothing of it is kept. */
enum fv_sign_flags {
	/* the certificate inside the signature (systemd's signature
	 * partitions need it) */
	FV_SIGN_EMBED_CERT = 1u << 0,
};
struct fv_sign_request {
	size_t size; /* sizeof(struct fv_sign_request), set by the caller */
	const char *key;  /* a PEM key or a "pkcs11:" URI */
	const char *cert; /* its PEM certificate */
	/* an encrypted key's passphrase or a token's PIN (NULL: none,
	 * never asked for: -EACCES when one is needed) */
	const char *passphrase;
	/* the PKCS#11 module of "pkcs11:" keys; NULL: p11-kit's proxy */
	const char *pkcs11_module;
	unsigned flags; /* enum fv_sign_flags */
};
/* Signs root_hex as req says. *der: fv_free. Errors: EINVAL (a key,
 * certificate or root hash that cannot be read, is not valid, or does
 * not match; unknown flags; size too small), EACCES (the passphrase or
 * PIN), ENOMEM. */
int fv_sign(const struct fv_sign_request *req, const char *root_hex,
	    uint8_t **der, size_t *len);

/* Since 0.6: reads a signature file (DER PKCS#7, a regular file of 1
 * byte to 64 KiB) into *der (fv_free). Errors: EINVAL (missing, empty,
 * too large, not a regular file), EIO, ENOMEM. */
int fv_signature_read(const char *path, uint8_t **der, size_t *len);

/* systemd's signature partition content for root_hex signed by der
 * (made with FV_SIGN_EMBED_CERT) with cert: {"rootHash": ...,
 * "certificateFingerprint": ..., "signature": ...}, NUL-terminated
 * (*json: fv_free). Errors: EINVAL (a certificate that cannot be read),
 * ENOMEM. */
int fv_ddi_signature_json(const char *root_hex, const char *cert,
			  const uint8_t *der, size_t len, char **json);

/* The bytes of a file or block device, opened as every action opens
 * one. Errors: ENODEV (missing, or not to be opened), ENOTBLK (a
 * directory), EINVAL (a FIFO or socket: never waited on), EIO. */
int fv_device_size(const char *path, uint64_t *size);

/* A name from an image (a partition's, a label) as a message shows it:
 * control bytes, DEL and backslashes as \xNN, so that no name prints a
 * line of its own, and at most 256 bytes of it, then "...". Into buf
 * (len bytes; 1028 hold any); returns buf. */
const char *fv_name_shown(const void *name, size_t n, char *buf, size_t len);

/* A small input file read whole (a passphrase file, a key): a regular
 * file of at most max bytes, opened without blocking (a FIFO is refused,
 * never waited on); *buf has a NUL after the last byte (fv_free). what
 * names it in messages ("passphrase file"). Errors: EINVAL (not a
 * regular file, too large, or missing), EIO, ENOMEM. */
int fv_input_read(const char *path, const char *what, size_t max, uint8_t **buf,
		  size_t *len);

/* --- Android images ---------------------------------------------------------
 * An image with an AVB footer (docs/android.md): its tree, parity and
 * vbmeta inside it, described by the vbmeta's first hashtree descriptor.
 * Since 0.4. A vbmeta as read (fv_avb): fv_image_info's
 * avb (fv_open, also of an image read for showing: the request's show)
 * and a walk's steps', valid while the image or the walk is (since 0.10
 * no call makes or frees one alone). */
typedef struct fv_avb fv_avb;

/* Since 0.7: the CRC32 sums an Android sparse image holds checked as
 * libsparse checks them (each CRC32 chunk's against the unsparsed bytes
 * before it, the header's checksum when not 0 against them all): 0 when
 * they hold (*sums: how many there were; may be NULL), 1 when path is
 * not a sparse image. Errors: EPERM (a sum that does not hold, named),
 * EINVAL (a malformed image), ENODEV, EIO, ENOMEM. */
int fv_sparse_check_crc(const char *path, unsigned *sums);

/* What info_image shows, as structures (since 0.6). The footer and the
 * header are members of struct fv_avb_info (since 0.10): fixed there,
 * their size set by the library; new facts go at the end of
 * fv_avb_info. The descriptors' are members of struct
 * fv_avb_descriptor's union, the same way. Pointers point into the
 * handle. */
struct fv_avb_footer {
	size_t size;
	unsigned version_major, version_minor;
	uint64_t image_size; /* the file's */
	uint64_t original_image_size;
	uint64_t vbmeta_offset, vbmeta_size;
};
struct fv_avb_header {
	size_t size;
	unsigned required_major, required_minor;   /* libavb's version */
	uint64_t header_size, auth_size, aux_size; /* the three blocks */
	const char *algorithm;                     /* "SHA256_RSA4096" */
	const char *public_key_sha1;               /* "" unsigned */
	uint64_t rollback_index;
	unsigned flags, rollback_index_location;
	const char *release;
};
/* What the image is (since 0.10, one call in place of
 * 0.4-0.7's fv_avb_partition_name, _root_hex, _layout, _algorithm,
 * _rollback_index, _has_footer, _has_hashtree, _key_sha1, _release,
 * _sparse, _parity_unusable, _footer_of, _header_of and
 * _descriptors). Versioned by size; pointers point into a. */
struct fv_avb_info {
	size_t size; /* sizeof(struct fv_avb_info), set by the caller */
	/* 1 when the image has an AVB footer (its data, tree and parity
	 * are inside it), and when its vbmeta has a hashtree descriptor
	 * (else it has no pair to act on: fv_open) */
	int has_footer;
	int has_hashtree;
	/* 1 for an Android sparse image, read as its unsparsed bytes
	 * (every offset and size here is theirs) */
	int sparse;
	/* 1 when the hashtree descriptor has parity dm-verity cannot use
	 * (4096-byte blocks under a tree of smaller ones, avbtool's way):
	 * the pair then has none */
	int parity_unusable;
	/* the hashtree descriptor's partition name (NULL without one) and
	 * root hash ("" without one), and where data, tree and parity sit
	 * in the image (zeros without one; fec_roots 0: no parity) */
	const char *partition_name;
	const char *root_hex;
	uint64_t image_size, tree_offset, tree_size;
	unsigned fec_roots;
	uint64_t fec_offset, fec_size;
	size_t descriptors;          /* how many (fv_avb_descriptor) */
	struct fv_avb_header header; /* the vbmeta's */
	struct fv_avb_footer footer; /* zeros without one */
};
int fv_avb_info(const fv_avb *a, struct fv_avb_info *info);
/* The descriptors, in the vbmeta's order: one type each. */
enum fv_avb_tag {
	FV_AVB_PROPERTY = 0,
	FV_AVB_HASHTREE = 1,
	FV_AVB_HASH = 2,
	FV_AVB_KERNEL_CMDLINE = 3,
	FV_AVB_CHAIN_PARTITION = 4,
};
struct fv_avb_property {
	size_t size;
	const uint8_t *key;
	size_t key_len;
	const uint8_t *value;
	uint64_t value_len;
};
struct fv_avb_hashtree {
	size_t size;
	unsigned dm_verity_version;
	uint64_t image_size, tree_offset, tree_size;
	uint32_t data_block_size, hash_block_size;
	unsigned fec_num_roots;
	uint64_t fec_offset, fec_size;
	const char *hash_algorithm;
	const uint8_t *partition_name; /* not terminated: partition_name_len */
	size_t partition_name_len;
	const uint8_t *salt;
	size_t salt_len;
	const uint8_t *root_digest;
	size_t root_digest_len;
	unsigned flags;
};
struct fv_avb_hash {
	size_t size;
	uint64_t image_size;
	const char *hash_algorithm;
	const uint8_t *partition_name;
	size_t partition_name_len;
	const uint8_t *salt;
	size_t salt_len;
	const uint8_t *digest;
	size_t digest_len;
	unsigned flags;
};
struct fv_avb_kernel_cmdline {
	size_t size;
	unsigned flags;
	const uint8_t *cmdline;
	size_t cmdline_len;
};
struct fv_avb_chain_partition {
	size_t size;
	const uint8_t *partition_name;
	size_t partition_name_len;
	unsigned rollback_index_location;
	const uint8_t *public_key; /* an AVB public key blob */
	size_t public_key_len;
	char public_key_sha1[41];
	unsigned flags;
};
/* Descriptor i (since 0.10, one call in place of fv_avb_descriptor_tag
 * and one per type): its tag (a value outside enum fv_avb_tag for one
 * libavb does not know: the union all zeros), the bytes after its
 * 16-byte header, and the tag's structure (each with its size set).
 * Errors: EINVAL (i out of range, size too small). */
struct fv_avb_descriptor {
	size_t size; /* sizeof(struct fv_avb_descriptor), set by the caller */
	uint64_t tag;
	uint64_t bytes;
	union {
		struct fv_avb_property property;
		struct fv_avb_hashtree hashtree;
		struct fv_avb_hash hash;
		struct fv_avb_kernel_cmdline kernel_cmdline;
		struct fv_avb_chain_partition chain_partition;
	};
};
int fv_avb_descriptor(const fv_avb *a, size_t i, struct fv_avb_descriptor *d);

/* verify_image's steps (since 0.6), for a program that checks a set of
 * images as avbtool does: */
/* The image descriptor i (hash, hashtree, chain partition) describes,
 * as avbtool looks it up: the image itself for its own partition's
 * descriptor (the first hash or hashtree descriptor of an image with a
 * footer) and a nameless one; otherwise <dir>/<partition name><ext> of
 * the image's own path, the name a name (letters, digits, '_', '-',
 * '.'), never a path. *path: fv_free. Errors: EINVAL, ENOMEM. */
int fv_avb_described_image(const fv_avb *a, size_t i, char **path);

/* --- Android images written --------------------------------------------
 * Since 0.6: avbtool's writers, byte for byte as
 * avbtool 1.3.0 writes them (docs/android.md). */

/* The release string avbtool 1.3.0 writes, whose bytes these match. */
#define FV_AVB_RELEASE "avbtool 1.3.0"

/* What every vbmeta is made of (since 0.10, one request
 * in place of 0.6's fv_vbmeta_opts and its setters): algorithm and key,
 * rollback index and location, flags, release string, and the
 * descriptors added, in avbtool's order: chains, properties, kernel
 * command lines, then the included images' descriptors. The library
 * reads the request during the call only. */
enum fv_chain_flags {
	/* a partition without A/B slots (avbtool's
	 * --chain_partition_do_not_use_ab; the vbmeta then needs libavb
	 * 1.3) */
	FV_CHAIN_DO_NOT_USE_AB = 1u << 0,
};
/* A chained partition: its rollback index location and the AVB public
 * key blob at key_path (extract_public_key's) it must be signed with. */
struct fv_vbmeta_chain {
	const char *partition;
	uint32_t location;
	const char *key_path;
	unsigned flags; /* enum fv_chain_flags */
};
struct fv_vbmeta_property {
	const char *key;
	const uint8_t *value;
	size_t len;
};
enum fv_vbmeta_sign_flags {
	/* ML-DSA: deterministic signatures (FIPS 204's rnd of zeros: the
	 * same key and vbmeta give the same bytes, for reproducible
	 * builds); by default each signature is hedged, made with fresh
	 * randomness, as FIPS 204 recommends. RSA's signatures are always
	 * the same bytes. */
	FV_VBMETA_DETERMINISTIC = 1u << 0,
};
struct fv_vbmeta_request {
	size_t size; /* sizeof(struct fv_vbmeta_request), set by the caller */
	/* NULL or "NONE" (unsigned), "SHA256_RSA2048" ... "SHA512_RSA8192",
	 * "MLDSA65", "MLDSA87"; key: a PEM RSA private key (or a "pkcs11:"
	 * URI of one in a token), an ML-DSA PKCS#8 private key (PEM or DER) */
	const char *algorithm;
	const char *key;
	unsigned sign_flags; /* enum fv_vbmeta_sign_flags */
	uint64_t rollback_index;
	uint32_t rollback_location;
	uint32_t flags;
	/* NULL release: avbtool's ("avbtool 1.3.0"); release_append (may
	 * be NULL) is added after a space, as avbtool adds it */
	const char *release;
	const char *release_append;
	const struct fv_vbmeta_chain *chains;
	size_t nchains;
	const struct fv_vbmeta_property *properties;
	size_t nproperties;
	const char *const *cmdlines;
	size_t ncmdlines;
	const char *const *includes; /* images whose descriptors are added */
	size_t nincludes;
	/* a program that signs in the key's place (avbtool's
	 * --signing_helper; with_files: --signing_helper_with_files), run
	 * directly with the algorithm's name and the key path; the key may
	 * then be a public key, and the signature it answers is checked
	 * against it before use (docs/android.md, "Signing helpers") */
	const char *signing_helper;
	int signing_helper_with_files;
	/* where a helper run with files gets its file (in a private
	 * directory made there and removed after; avbtool's is TMPDIR's,
	 * which the command passes). NULL: the directory of the image or
	 * vbmeta image written; the library reads no environment. */
	const char *temp_dir;
	/* a file whose bytes follow the public key in the auxiliary block
	 * (avbtool's --public_key_metadata); NULL: none */
	const char *public_key_metadata;
};

/* add_hash_footer and add_hashtree_footer. */
enum fv_footer_kind {
	FV_FOOTER_HASH = 0,     /* one digest of the data */
	FV_FOOTER_HASHTREE = 1, /* a tree, and parity */
};
enum fv_footer_flags {
	FV_FOOTER_DO_NOT_USE_AB = 1u << 0, /* the descriptor's flags */
	FV_FOOTER_CHECK_AT_MOST_ONCE = 1u << 1,
	FV_FOOTER_DYNAMIC_SIZE = 1u << 2,  /* hash: size to the image */
	FV_FOOTER_DO_NOT_APPEND = 1u << 3, /* no vbmeta or footer */
	/* no digest in the descriptor (the device keeps it), and no random
	 * salt (avbtool's --use_persistent_digest) */
	FV_FOOTER_PERSISTENT_DIGEST = 1u << 4,
	FV_FOOTER_NO_FEC = 1u << 5,        /* hashtree: no parity */
	FV_FOOTER_SALT_GIVEN = 1u << 6,    /* salt, salt_len are the salt, none
					    * when 0 bytes; else random (over an
					    * old footer whose descriptor
					    * digests with the same hash: its
					    * salt) */
	FV_FOOTER_CHANGED_GIVEN = 1u << 7, /* changed, nchanged name the
					    * changed data */
};
/* Over an old footer, fv_avb_add_footer leaves, if interrupted, the old
 * image or the new one (docs/android.md, "Runs over a footer"). */
struct fv_footer_request {
	size_t size; /* sizeof(struct fv_footer_request), set by the caller */
	enum fv_footer_kind kind;
	const char *partition_name; /* NULL: "" */
	uint64_t partition_size;    /* 0: the image grows (hashtree) */
	/* sha1, sha256 or sha512 (NULL: avbtool's default, sha1 for a
	 * tree, sha256 for a hash); block_size 0: 4096 */
	const char *hash;
	uint32_t block_size;
	const uint8_t *salt;
	size_t salt_len;
	unsigned fec_roots; /* hashtree's parity: 0: 2 roots */
	unsigned flags;     /* enum fv_footer_flags */
	/* Over a footer of the same tree (the same hash, block size, salt,
	 * data size and places) whose vbmeta is signed by the request's
	 * key, fv_avb_add_footer rewrites only what the data's change
	 * reaches (as fv_update), byte for byte a full rebuild; with
	 * FV_FOOTER_CHANGED_GIVEN these nchanged (offset, length) pairs are
	 * the changed data bytes, else they are found by one verify of the
	 * old tree. Another layout, an old tree that does not prove, or one
	 * under a vbmeta unsigned or signed by another key, is built
	 * whole. */
	const uint64_t *changed;
	size_t nchanged;
	const char *output_vbmeta; /* also write the vbmeta blob here */
	const struct fv_vbmeta_request *vbmeta; /* NULL: unsigned */
};

/* The libavb version (1.minor) needed by a vbmeta image of v (the
 * included images' needs counted), or by an image with the footer f and
 * its vbmeta (avbtool's rule: the footer's flags, the rollback index
 * location, the chains); one of v and f, the other NULL. Checks the
 * request first, as the writers do. Errors: EINVAL (a request that
 * cannot be used), an include's. */
int fv_avb_required_minor(const struct fv_vbmeta_request *v,
			  const struct fv_footer_request *f, unsigned *minor);
/* make_vbmeta_image: the vbmeta blob alone into output, padded to a
 * multiple of padding (0: none), written whole. Errors: EINVAL (a
 * request, key or included image that cannot be used; output an
 * input), EIO, ENOMEM, EACCES. */
int fv_avb_make_vbmeta_image(const char *output,
			     const struct fv_vbmeta_request *v,
			     uint64_t padding);
/* avbtool's --calc_max_image_size: the largest image the partition
 * size leaves room for, into *max. Errors: EINVAL (the request). */
int fv_avb_max_image_size(const struct fv_footer_request *f, uint64_t *max);
/* Adds the footer to image (o: threads; may be NULL), replacing one it
 * has (docs/android.md, "Runs over a footer"). Errors: EINVAL, EIO,
 * ENOSPC (the partition size), ENOMEM, EBUSY, EACCES. */
int fv_avb_add_footer(const char *image, const struct fv_footer_request *f,
		      const fv_options *o);
/* avbtool's editors of an image in place, one call (since 0.10,
 * in place of 0.6-0.9's fv_avb_erase_footer,
 * _append_vbmeta_image, _resize_image and _zero_hashtree). Each edit
 * reads the members it names; a member it does not name must be 0 or
 * NULL (else EINVAL, naming it), so that a request meant for another
 * edit is never half done. Sparse images are written as avbtool writes
 * them. The library reads the request during the call only. */
enum fv_avb_edit_op {
	/* (0: none, refused) */
	/* erase_footer: image cut back to its data, or with
	 * FV_ERASE_KEEP_HASHTREE in flags to the end of its tree and
	 * parity. Reads image, flags. */
	FV_AVB_EDIT_ERASE_FOOTER = 1,
	/* since 0.7: append_vbmeta_image: the vbmeta blob of vbmeta_image
	 * (a vbmeta image, or an image with a footer) appended to image
	 * with a footer at the end of partition_size, as add_hash_footer
	 * appends its own. Reads image, vbmeta_image, partition_size. */
	FV_AVB_EDIT_APPEND_VBMETA_IMAGE = 2,
	/* since 0.7: resize_image: the footer moved to the end of
	 * partition_size. Reads image, partition_size. */
	FV_AVB_EDIT_RESIZE_IMAGE = 3,
	/* since 0.7: zero_hashtree: tree and parity made zeros after
	 * avbtool's marker (verify_image then needs
	 * --accept_zeroed_hashtree). Reads image. */
	FV_AVB_EDIT_ZERO_HASHTREE = 4,
};
enum fv_erase_flags { FV_ERASE_KEEP_HASHTREE = 1u << 0 };
struct fv_avb_edit_request {
	size_t size; /* sizeof(struct fv_avb_edit_request), set by the caller */
	enum fv_avb_edit_op op;
	const char *image;        /* the image edited (every edit) */
	unsigned flags;           /* erase_footer: enum fv_erase_flags */
	const char *vbmeta_image; /* append_vbmeta_image: the blob's image */
	uint64_t partition_size;  /* append_vbmeta_image, resize_image */
};
/* Errors: EINVAL (no such edit, a member the edit does not read, unknown
 * flags, an image that cannot be edited so), EIO, ENOSPC, ENOMEM, EBUSY,
 * EACCES, EFBIG. */
int fv_avb_edit(const struct fv_avb_edit_request *req);
/* extract_public_key: the AVB public key blob of a key (*blob: fv_free):
 * a PEM RSA key, private or public; since 0.10 also an ML-DSA key
 * (PKCS#8 private or SPKI public, PEM or DER) or an AVB public key blob.
 * Errors: EINVAL, ENOMEM. */
int fv_avb_public_key(const char *key, uint8_t **blob, size_t *len);
/* Since 0.10: extract_public_key_digest: the SHA-256 of
 * the key's AVB public key blob, lowercase hex (what avb_custom_key
 * holds the digest of). Errors: fv_avb_public_key's. */
int fv_avb_public_key_digest(const char *key, char hex[65]);
/* Since 0.10: a new ML-DSA private key ("MLDSA65", "MLDSA87") from a
 * fresh seed, written to output (mode 0600) as PKCS#8 PEM in the form
 * OpenSSL 3.5 writes by default (seed and expanded key). Errors: EINVAL
 * (another algorithm), EEXIST (output exists: never written over), EIO,
 * ENOMEM. */
int fv_avb_generate_key(const char *algorithm, const char *output);
/* The vbmeta blob (header, authentication and auxiliary blocks), and the
 * bytes the footer counts for it (vbmeta_size: as extract_vbmeta_image
 * writes them; the blob's own size for a vbmeta image). Point into a. */
int fv_avb_vbmeta_blob(const fv_avb *a, const uint8_t **blob, size_t *len,
		       size_t *footer_len);

/* --- Android super images (docs/android.md, "Factory images and
 * super.img") ---------------------------------------------------------
 * Since 0.8. A super image (raw or sparse; a split one
 * with its other block devices) read as a container of logical
 * partitions, each an Android image with its own footer. A logical
 * partition is also named by the path IMAGE/NAME ("super.img/system_a":
 * no file can have that path, as super.img is not a directory), which
 * every function taking an image path reads: fv_container_of, fv_open. */
typedef struct fv_super fv_super;
typedef struct fv_image fv_image; /* (the door, below) */
/* Opens the super image at image and reads metadata slot slot (0 for
 * the first). Block devices past the first: files[i] for names[i] (n of
 * them), else <dir>/<name>.img beside the image. Errors: EINVAL (not a
 * super image, or a field that does not hold in any copy, named),
 * ENODEV (a block device's image neither given nor beside, a file that
 * cannot be opened), EIO,
 * ENOMEM. */
int fv_super_open(const char *image, const char *const *names,
		  const char *const *files, size_t n, unsigned slot,
		  fv_super **out);
void fv_super_free(fv_super *s);

struct fv_super_info {
	size_t size; /* sizeof(struct fv_super_info), set by the caller */
	unsigned major, minor;      /* the metadata's version */
	uint32_t header_size, tables_size, header_flags;
	uint32_t metadata_max_size, metadata_slot_count, logical_block_size;
	unsigned slot;              /* the slot read */
	int geometry_backup;        /* the geometry read from its backup */
	int metadata_backup;        /* the slot read from its backup */
	int sparse;                 /* an Android sparse image */
	uint64_t image_size;        /* its (unsparsed) bytes */
	/* since 0.10: how many partitions, extents, groups, block devices
	 * and notes (fv_super_entry) */
	size_t partitions, extents, groups, block_devices, notes;
};
int fv_super_info(const fv_super *s, struct fv_super_info *info);

#define FV_LP_READONLY      (1u << 0)
#define FV_LP_SLOT_SUFFIXED (1u << 1)
#define FV_LP_UPDATED       (1u << 2)
#define FV_LP_DISABLED      (1u << 3)

struct fv_super_partition {
	size_t size;
	const char *name;
	uint32_t attributes; /* FV_LP_* */
	const char *group;
	uint64_t bytes; /* its extents' */
	uint32_t first_extent, num_extents;
};
struct fv_super_extent {
	size_t size;
	uint64_t sectors;
	unsigned type;   /* 0 linear, 1 zero */
	uint64_t target; /* linear: its first sector on the device */
	uint32_t source; /* linear: the block device's index */
	const char *device; /* linear: the block device's name */
};
struct fv_super_group {
	size_t size;
	const char *name;
	uint32_t flags; /* bit 0: slot-suffixed */
	uint64_t max_size;
};
struct fv_super_block_device {
	size_t size;
	const char *name;
	uint64_t first_sector;
	uint32_t alignment, alignment_offset;
	uint64_t bytes;
	uint32_t flags; /* bit 0: slot-suffixed */
	const char *file; /* the file read for it */
};
/* Entry i of one kind (since 0.10, one call in place
 * of 0.8's fv_super_partition, _extent, _group, _block_device and
 * _note): the kind asked, and its structure in the union (each with its
 * size set by the library: fixed there; new facts go at the end of
 * fv_super_entry). A note is what was read from a backup copy, and why
 * (one line each; the geometry's, the slot's and the other slots').
 * The counts are fv_super_info's. Versioned by size (the union
 * included); pointers point into s. Errors: EINVAL (i past the last,
 * the count named; a kind outside enum fv_super_kind; size too
 * small). */
enum fv_super_kind {
	FV_SUPER_PARTITION = 0,
	FV_SUPER_EXTENT = 1,
	FV_SUPER_GROUP = 2,
	FV_SUPER_BLOCK_DEVICE = 3,
	FV_SUPER_NOTE = 4,
};
struct fv_super_entry {
	size_t size; /* sizeof(struct fv_super_entry), set by the caller */
	enum fv_super_kind kind;
	union {
		struct fv_super_partition partition;
		struct fv_super_extent extent;
		struct fv_super_group group;
		struct fv_super_block_device block_device;
		const char *note;
	};
};
int fv_super_entry(const fv_super *s, enum fv_super_kind kind, size_t i,
		   struct fv_super_entry *e);
/* The partition a device booting slot ("a", "b"; NULL: the slot s was
 * read for) maps for name: name itself when it has a slot suffix (then
 * of that slot) or the image is not A/B, else name_<slot>, never a
 * partition of the bare name on an A/B image: its index, or -ENOENT. */
int fv_super_find(const fv_super *s, const char *name, const char *slot);
/* Byte off of partition i as the block device and byte that hold it
 * (*device: the block device's index). Errors: EINVAL (past its end),
 * ENODATA (a zero extent). */
int fv_super_offset(const fv_super *s, size_t i, uint64_t off,
		    uint32_t *device, uint64_t *at);
/* Since 0.10: partition i read as an Android image through s's files
 * (its vbmeta's signature checked), judged as fv_open judges one for
 * o's anchor (o may be NULL: none), as an opened image (container
 * "avb", its pair acted on as any image's: fv_verify, fv_activate); s
 * outlives *out. Errors: fv_open's, ENODATA (an empty partition),
 * ENOMSG (no AVB footer and no vbmeta: not an Android image). */
int fv_super_image(const fv_super *s, size_t i, const fv_options *o,
		   fv_image **out);

/* --- containers and trust (docs/trust.md) --------------------------------
 * Since 0.5. The registry alone; the door asks it and
 * the trust policy (fv_open). */

/* What an image given alone is, decided once, in one order: "sparse"
 * (refused: not raw data), "avb", "ddi", "sidecar" (also an image that
 * reads no other way, whose missing tree is then the error); an image
 * that reads two ways (a GPT disk image with an AVB footer, a disk or
 * Android image with IMAGE.verity beside it) is refused unless asked
 * names one ("avb", "ddi", "sidecar"; NULL: decide). *name: a static
 * string. Errors: EINVAL (two readings, the message naming both; not
 * the container asked; a sparse image), ENODEV, ENOTBLK, EIO. */
int fv_container_of(const char *image, const char *asked, const char **name);

/* Since 0.6: 0 unless path is an Android sparse image
 * (or cannot be read), which is refused where raw data is expected:
 * -EINVAL, the message naming the command that makes a raw one. */
int fv_refuse_sparse(const char *path);

/* The trust policy's verdict (docs/trust.md has the table), which the
 * door reaches (fv_open, fv_image_info). */
enum fv_trust {
	FV_TRUST_UNSIGNED = 0,  /* nothing signed, nothing asked */
	FV_TRUST_CHECK = 1,     /* the signature must hold against the anchor */
	FV_TRUST_UNCHECKED = 2, /* signed, read without an anchor: the blocks
				 * are checked against the stated root, the
				 * signer is not */
};

/* --- Android firmware sets: one walk ------------------------------------
 * Since 0.10. A set given by its top image — a vbmeta
 * image, an image with an AVB footer, or a super image — walked as
 * libavb's avb_slot_verify walks it (docs/android.md, "Firmware sets"):
 * each vbmeta judged (its own signature, then the key given for the top
 * one or the key a chain partition descriptor pins for a chained one),
 * each chained partition visited once, each partition's data checked
 * once, the metadata copy and slot of a super image that the device
 * maps (liblp's rules), and the work bounded (at most 32 vbmetas and
 * 128 checked partitions a set). Every printer of a set reads its one
 * result: the steps, in the order walked. */
typedef struct fv_slot fv_slot;

enum fv_slot_flag {
	/* judge every vbmeta's signature and signer, check every
	 * partition's data; without it the walk only reads (digests,
	 * command lines), as avbtool's print commands do */
	FV_SLOT_CHECK = 1u << 0,
	/* follow the chain partition descriptors of the top vbmeta */
	FV_SLOT_FOLLOW = 1u << 1,
	/* follow those of chained vbmetas too (avbtool's
	 * print_partition_digests); without it a chain descriptor below the
	 * top is refused when checking, as libavb refuses it, unless
	 * FV_SLOT_EXPECTED */
	FV_SLOT_FOLLOW_NESTED = 1u << 2,
	/* chain descriptors are compared with the expected ones
	 * (avbtool's --expected_chain_partition): one not followed must be
	 * expected */
	FV_SLOT_EXPECTED = 1u << 3,
	/* stop at the first step that does not hold (avbtool's
	 * verify_image); else bad data and missing images are reported and
	 * the walk goes on */
	FV_SLOT_STOP = 1u << 4,
	/* a hashtree whose tree is all zeros: skipped, its data checked
	 * against the root (avbtool's --accept_zeroed_hashtree) */
	FV_SLOT_ACCEPT_ZEROED = 1u << 5,
};

/* A chain partition descriptor's expected contents. */
struct fv_slot_expected {
	const char *name;
	unsigned rollback_index_location;
	const uint8_t *public_key; /* an AVB public key blob */
	size_t public_key_len;
};

struct fv_slot_request {
	size_t size;       /* sizeof(struct fv_slot_request) */
	const char *image;     /* the set's top image */
	const char *container; /* "avb" or "super" where the image reads
				* two ways (fv_container_of); NULL */
	const char *key;       /* the top vbmeta's signer's key
				* (struct fv_options' key's forms); NULL */
	/* "a" or "b": the slot booted (partitions NAME_<slot>, a super
	 * image's metadata slot 0 or 1); NULL: a, where the image is A/B */
	const char *slot;
	/* a super image: the partitions to check (NULL: every one of the
	 * slot's metadata); a name without a slot suffix means the slot's
	 * NAME_<slot> on an A/B image */
	const char *const *partitions;
	size_t npartitions;
	/* a split super image's other block devices' files */
	const char *const *device_names, *const *device_files;
	size_t ndevices;
	const struct fv_slot_expected *expected; /* FV_SLOT_EXPECTED */
	size_t nexpected;
	unsigned flags; /* enum fv_slot_flag */
};

enum fv_slot_kind {
	FV_SLOT_VBMETA = 1,    /* a vbmeta read (and judged) */
	FV_SLOT_HASH = 2,      /* a hash descriptor's partition */
	FV_SLOT_HASHTREE = 3,  /* a hashtree descriptor's partition */
	FV_SLOT_CHAIN = 4,     /* a chain partition descriptor */
	FV_SLOT_CMDLINE = 5,   /* a kernel command line descriptor */
	FV_SLOT_PARTITION = 6, /* a super image's logical partition */
};

enum fv_slot_result {
	FV_SLOT_OK = 0,      /* checked and good; read, without CHECK */
	FV_SLOT_BAD = 1,     /* the data is not what the descriptor says */
	FV_SLOT_REFUSED = 2, /* a signature, signer or rule does not hold */
	FV_SLOT_MISSING = 3, /* no image of the partition */
	FV_SLOT_SKIPPED = 4, /* not checked: why says why */
	FV_SLOT_ERROR = 5,   /* could not be read or checked */
};

enum fv_slot_why {
	FV_SLOT_WHY_NONE = 0,
	FV_SLOT_WHY_SIGNATURE,    /* the vbmeta's signature does not hold */
	FV_SLOT_WHY_POLICY,       /* the trust policy refused (message) */
	FV_SLOT_WHY_OTHER_KEY,    /* signed by another key than the one given */
	FV_SLOT_WHY_PINNED_KEY,   /* signed by another key than its chain pins */
	FV_SLOT_WHY_UNSIGNED_PIN, /* chained, not signed, and a key is pinned */
	FV_SLOT_WHY_NESTED,       /* a chain descriptor below the top vbmeta */
	FV_SLOT_WHY_NOT_EXPECTED, /* a chain not followed and not expected */
	FV_SLOT_WHY_LOCATION,     /* expected another rollback index location */
	FV_SLOT_WHY_KEY_BLOB,     /* expected another public key blob */
	FV_SLOT_WHY_DIGEST,       /* a hash that differs */
	FV_SLOT_WHY_BLOCKS,       /* bad blocks, or a root that differs */
	FV_SLOT_WHY_TREE,         /* the data is intact, the tree is not */
	FV_SLOT_WHY_PARITY,       /* parity that disagrees with the data */
	FV_SLOT_WHY_ZEROED,       /* a zeroed tree, skipped as asked */
	FV_SLOT_WHY_VISITED,      /* visited already in this walk */
	FV_SLOT_WHY_EMPTY,        /* a logical partition with no extents */
	FV_SLOT_WHY_NO_FOOTER,    /* a logical partition with no AVB footer */
	FV_SLOT_WHY_LIMIT,        /* past the walk's bounds */
	FV_SLOT_WHY_DESCRIPTORS,  /* a vbmeta's descriptors refused (two of
				   * one partition, more than 128): its step
				   * ends twice, OK and then this */
};

/* One step of the walk. Strings and handles belong to the walk's
 * result (valid until fv_slot_free). */
struct fv_slot_step {
	size_t size; /* sizeof(struct fv_slot_step), set by the caller */
	enum fv_slot_kind kind;
	enum fv_slot_result result;
	enum fv_slot_why why;
	int error;           /* the -errno behind a result other than OK */
	const char *message; /* why, one line naming the file; "" for OK */
	unsigned depth;      /* 0: the top vbmeta; a chain adds 1 */
	/* a descriptor's vbmeta step; a vbmeta's: the chain step that led
	 * to it, or the partition step it is the footer of; SIZE_MAX: none */
	size_t parent;
	const char *name; /* the partition's name (shown safely: odd bytes
			   * escaped); "" for a top vbmeta image */
	const char *path; /* the image read: a file, or SUPER/NAME */
	/* a vbmeta step: its handle; a descriptor step: its vbmeta's, and
	 * the descriptor's index there */
	const fv_avb *avb;
	size_t descriptor;
	/* a vbmeta step (CHECK): the verdict, and who signs: the key
	 * given (trust CHECK at the top), or the chain's pinning vbmeta */
	enum fv_trust trust;
	const char *signer;
	/* a hashtree step: the verify's result (counts, parity), or NULL */
	const fv_result *result_of;
	/* a chain step: 1 when it matched an expected one, 1 when followed */
	int expected, followed;
	/* a partition step: its size, extents, index in the walk's super
	 * image (struct fv_slot_info) */
	uint64_t bytes;
	unsigned extents;
	size_t partition;
};

/* Called as each step begins (done 0: the failures reported next
 * through o's failure callback are its) and ends (done 1). */
typedef void (*fv_slot_fn)(void *ctx, const fv_slot *s, size_t step,
			   int done);

/* Walks the set req names with o's run options (threads, failure
 * callback, progress). 0 and *out whatever the steps found (each
 * failure is a step's result); an error only when the walk cannot
 * start or cannot go on at all: EINVAL (a request that makes no sense,
 * an image that is no firmware set), ENODEV (the top image missing),
 * ENOMEM. *out: fv_slot_free, also after an error when not NULL. */
int fv_slot_verify(const struct fv_slot_request *req, const fv_options *o,
		   fv_slot_fn fn, void *ctx, fv_slot **out);
void fv_slot_free(fv_slot *s);
/* What the walk holds (versioned: the caller sets size; strings and the
 * handle belong to the walk's result). */
struct fv_slot_info {
	size_t size; /* sizeof(struct fv_slot_info), set by the caller */
	size_t steps; /* how many (from the callback: so far) */
	size_t notes; /* how many fv_slot_note has */
	/* a super image's metadata as the walk read it (the slot's); NULL
	 * for another set */
	const fv_super *super;
	const char *slot; /* "a" or "b": the slot walked; "" when none */
};
/* Errors: EINVAL (s or info NULL, size too small). */
int fv_slot_info(const fv_slot *s, struct fv_slot_info *info);
/* Step i. Errors: EINVAL (i out of range, size too small). */
int fv_slot_step(const fv_slot *s, size_t i, struct fv_slot_step *st);
/* Note i: what the walk has to say besides its steps (backup metadata
 * read, a signer not checked, the partition a short name stood for);
 * NULL past the last. */
const char *fv_slot_note(const fv_slot *s, size_t i);

/* --- the door ---------------------------------------------------------------
 * Since 0.10. What verify, repair and open act on,
 * opened once whatever
 * it is: an image given alone, which the registry names (or the caller:
 * container "avb", "ddi", "super", "sidecar"), or a data and a hash
 * device (a plain pair). Its pairs (one for a plain pair, an Android
 * image and an image with sidecar files; one a protected partition for
 * a disk image; one a logical Android partition for a super image) are
 * judged here, once, by the trust policy (docs/trust.md) for the
 * options' anchor (their key for Android images, their trusted_certs
 * for the others), and acted on through
 * fv_image_pair. */

struct fv_open_request {
	size_t size;             /* sizeof(struct fv_open_request) */
	const char *image;       /* an image given alone; NULL for: */
	const char *data, *hash; /* a plain pair's devices */
	const char *container;   /* NULL: as the registry says */
	/* a plain pair's or a sidecar image's tree: its parameters, or
	 * NULL: its superblock at hash_offset */
	const fv_params *params;
	uint64_t hash_offset;
	/* the parity: its file (a sidecar image's IMAGE.fec when NULL),
	 * offset and roots (0: told from its size) */
	const char *fec_path;
	uint64_t fec_offset;
	unsigned fec_roots;
	/* a PKCS#7 signature of the root hash, given to be checked (a
	 * sidecar image's IMAGE.roothash.p7s when NULL) */
	const char *signature_path;
	/* the action writes on the image's word (a repair, not a dry run):
	 * judged so */
	int writes;
	/* since 0.10: a plain pair's or a sidecar image's root hash to
	 * check against, as hex text or the file holding it (at most one;
	 * both NULL: none, or a sidecar image's IMAGE.roothash when it
	 * exists); a text of the wrong length for the tree's hash, or not
	 * hex, is refused (EINVAL, FV_PARAM_ROOT_HASH) */
	const char *root_hex;
	const char *root_hash_file;
	/* since 0.10: the pair is opened to be mapped (fv_activate): a
	 * signature given with no anchor goes to the kernel's keyring,
	 * which checks it */
	int activates;
	/* since 0.10: an Android image (container NULL or "avb") read for
	 * showing what it says (info_image, calculate_vbmeta_digest): parsed
	 * and validated, its signature not checked, never judged nor acted
	 * on (no pair); fv_image_info's avb is its vbmeta, trust
	 * FV_TRUST_UNCHECKED when signed (else FV_TRUST_UNSIGNED). Takes
	 * image alone (another member set, or an anchor in the options:
	 * EINVAL). In place of 0.6-0.9's fv_avb_show and fv_avb_free. */
	int show;
};

/* Opens what req names and judges it. Errors: EINVAL (an image that
 * reads two ways, or not the container named; malformed metadata; an
 * anchor of the wrong kind; a signature given with no anchor; a write
 * on an unchecked signer's word), EPERM (an anchor for an image that is
 * not signed; an Android vbmeta signed by another key), ENODEV,
 * ENOTBLK, EIO, ENOMEM. */
int fv_open(const struct fv_open_request *req, const fv_options *o,
	    fv_image **out);
void fv_image_free(fv_image *img);
struct fv_image_info; /* (below, with the disk images') */
struct fv_image_pair_info;
/* What img is (since 0.10, one call in place of fv_image_container,
 * _avb, _pairs and _ddi_disk), and its pair i (in place of
 * fv_image_pair_name, _trust and _ddi_pair). Errors: EINVAL (a NULL
 * handle, i out of range, a size too small). */
int fv_image_info(const fv_image *img, struct fv_image_info *info);
int fv_image_pair_info(const fv_image *img, size_t i,
		       struct fv_image_pair_info *p);

/* Since 0.10: the actions, on pair i of an opened image, whatever its
 * container (in place of 0.6-0.9's pairs, fv_image_pair and fv_pair_*).
 * fv_verify checks every block against the pair's root (read-only),
 * reporting each failure through the options' failure callback; with
 * parity, also what it could repair, and its stale codewords.
 * fv_repair verifies, then rebuilds bad blocks from the parity,
 * writing back only blocks the tree proves right, hash blocks before
 * the blocks they cover, fsync before it returns; stale parity is
 * counted, and rewritten only with FV_REPAIR_REWRITE_PARITY (the
 * options' repair; FV_REPAIR_DRY_RUN writes nothing); open the image
 * with writes set for a repair that writes. The trust policy
 * (docs/trust.md) judged the pair when the image was opened and is
 * asked again for these options' anchor. 0 when the action ran: *res
 * says whether the image is (now) intact. Errors (*res NULL): EINVAL
 * (no root hash, parameters, devices too small; parity that is not this
 * image's: more than 5% of its codewords disagree with the verified
 * image; a repair without parity; i out of range), EPERM (the signature
 * does not check out; the policy's refusals, as fv_open's), EBUSY
 * (repair: a device in use, mounted or mapped), EOVERFLOW, ENOMEM,
 * ENODEV, ENOTBLK, ENODATA, EIO. */
int fv_verify(const fv_image *img, size_t i, const fv_options *o,
	      fv_result **res);
int fv_repair(const fv_image *img, size_t i, const fv_options *o,
	      fv_result **res);
/* Where everything of pair i sits, as dump shows it, without reading a
 * block: the layout (struct fv_report's), the parity's roots told from
 * its size when not given. Errors: EINVAL (parameters, devices too
 * small), EOVERFLOW, ENODEV, ENOTBLK, EIO, ENOMEM. */
int fv_describe(const fv_image *img, size_t i, const fv_options *o,
		fv_result **res);
/* Creates the read-only /dev/mapper/<name> of pair i with the options'
 * flags (open the image with activates set: a signature given with no
 * anchor then goes to the kernel). A signature the door judged
 * checkable (an anchor given) is checked first, offline, against the
 * options' trusted certificates; *res (may be NULL) says how the
 * signer stands (fv_result_report: trust, signer), also when the
 * mapping then fails (NULL when the check did not pass). Errors: EBUSY (the
 * name is taken), ENOSYS (no device-mapper), EINVAL (the name,
 * parameters, the root; the kernel refused the table), EPERM (a signer
 * not trusted, a signature over another root), ENAMETOOLONG (device
 * paths too long for a table), ENODEV, ENOTBLK, EIO, ENOMEM. */
int fv_activate(const char *name, const fv_image *img, size_t i,
		const fv_options *o, fv_result **res);

/* Since 0.10: what format and update make (in place of fv_pair_new and
 * its setters for them). */
struct fv_format_request {
	size_t size;             /* sizeof(struct fv_format_request) */
	const char *data, *hash; /* the data, and the tree's file */
	/* the tree's parameters; update: NULL reads them from the
	 * superblock at hash_offset (an interrupted update's too) */
	const fv_params *params;
	uint64_t hash_offset;
	/* the parity: its file (NULL: none), offset, roots (format: 2 to
	 * 24, 0 the default; update: 0 tells them from its size) */
	const char *fec_path;
	uint64_t fec_offset;
	unsigned fec_roots;
	/* the tree of an image with sidecar files: its files read as they
	 * are, as veritysetup, systemd and the kernel read them */
	int sidecar;
	/* update: the old root, as hex or the file holding it (checked as
	 * fv_open checks one) */
	const char *root_hex;
	const char *root_hash_file;
	/* update: the tree's data block count said again (0: not), which
	 * lets the data hold more bytes than the tree covers */
	uint64_t data_blocks;
};
/* Builds the tree of req's data into its hash file (replaced whole, or
 * written in place on a block device or at an offset), the superblock
 * last; with parity, the parity too. Refuses outputs that overlap the
 * data. *res (may be NULL): the root hash, the layout and the
 * parameters as written (data blocks filled in when 0). Errors: EINVAL,
 * EOVERFLOW, ENOMEM, ENODEV, ENOTBLK, ENOSPC, ENODATA, EIO, EBUSY (a
 * device in use given as an output), EACCES; the old hash image is left
 * as it was, or (written in place) marked unfinished. */
int fv_format(const struct fv_format_request *req, const fv_options *o,
	      fv_result **res);
/* update (docs/format.md, "update"): after some data bytes changed,
 * the tree blocks and parity rounds they reach are rewritten in place,
 * byte-identical with a format of the changed data (salt, UUID and
 * superblock kept). req's root is the old root: the old tree is proven
 * against it before anything is reused (EPERM naming the first block
 * that is not, nothing written). ranges: n pairs of (offset, length) of
 * changed data bytes, widened to whole blocks; only those blocks (and
 * the rounds of parity they are in) are read, so a change outside them
 * is neither seen nor in the new root; NULL: every data block hashed
 * against its stored leaf to find them. A tree's size is fixed: data
 * holding more than its blocks is refused (EINVAL) unless req gives the
 * data blocks. An interrupted update leaves the superblock's place
 * marked (FV_SUPERBLOCK_UPDATING); the same update again completes it
 * only while the tree still proves against the old root, and without
 * ranges always. *res: the new root and what the update did
 * (fv_result_report). Errors: EPERM, EINVAL (a range past the data,
 * data that grew), fv_verify's. */
int fv_update(const struct fv_format_request *req, const uint64_t *ranges,
	      size_t n, const fv_options *o, fv_result **res);

/* A root hash file (veritysetup's --root-hash-file, systemd's
 * IMAGE.roothash): the hex digest and nothing after it but white space,
 * a regular file of at most 4096 bytes, read whole. The digits, with a
 * NUL, into hex (size bytes: 2 * 64 + 1 holds any). Errors: EINVAL (a
 * byte that is not a hex digit, named by its position; more digits than
 * fit; not a regular file; a file that does not exist), EIO, ENOMEM. */
int fv_root_hash_file_read(const char *path, char *hex, size_t size);

/* What lies at offset of path: a superblock's magic (FV_SUPERBLOCK_FOUND;
 * fv_open validates it), the marker of a format or an
 * update that was interrupted (FV_SUPERBLOCK_UNFINISHED, _UPDATING), or
 * none (0, also when
 * path cannot be read). */
enum fv_superblock_at {
	FV_SUPERBLOCK_NONE = 0,
	FV_SUPERBLOCK_FOUND = 1,
	FV_SUPERBLOCK_UNFINISHED = 2,
	FV_SUPERBLOCK_UPDATING = 3, /* since 0.10: an interrupted update's
				     * marker */
};
enum fv_superblock_at fv_superblock_probe(const char *path, uint64_t offset);
/* A superblock's magic where an appended tree's would be (the last 1/64
 * of path, every 4096 bytes, at most 16384 places), other than at skip:
 * 0 and *offset, or -ENOENT. Errors: ENOENT, ENODEV, ENOTBLK, EIO. */
int fv_superblock_search(const char *path, uint64_t skip, uint64_t *offset);

/* When two existing paths share their storage (the same file, a file
 * and a loop device of it, a disk and its partition): a phrase for
 * messages ("" when they are two names of one file, " (a loop device of
 * the same file)"); NULL when they do not, or either does not exist. A
 * static string. */
const char *fv_same_storage(const char *a, const char *b);

/* systemd's names beside an image IMAGE.raw (any other name gets the
 * suffixes appended): its tree IMAGE.verity, root hash IMAGE.roothash,
 * signature IMAGE.roothash.p7s and (fastverity's) parity IMAGE.fec;
 * each output may be NULL, each name fv_free'd. Errors: EINVAL, ENOMEM. */
int fv_sidecar_names(const char *image, char **tree, char **roothash,
		     char **signature, char **fec);
/* After a new tree for image: the sidecars that no longer match it are
 * removed, the signature unless keep has FV_SIDECAR_SIGNATURE, the
 * parity unless it has FV_SIDECAR_FEC; *removed (may be NULL) says
 * which were there and went. Errors: EIO (one that cannot be removed),
 * EINVAL, ENOMEM. */
enum fv_sidecar_file {
	FV_SIDECAR_SIGNATURE = 1u << 0,
	FV_SIDECAR_FEC = 1u << 1,
};
int fv_sidecar_prune(const char *image, unsigned keep, unsigned *removed);

/* Writes a small output whole (a root hash file, a signature): a
 * temporary file beside it, flushed, renamed over it; no symlink another
 * user owns is followed. what names it in messages ("the root hash
 * file"). Errors: EIO, EACCES, EINVAL, ENOMEM, and the system's. */
int fv_output_write(const char *path, const char *what, const void *buf,
		    size_t len);

/* The kernel k runs on this CPU, by name ("SHA-NI, three blocks at a
 * time"; the fastest for FV_SHA256_FASTEST): a static string, NULL for
 * an unknown k. */
const char *fv_sha256_kernel_name(enum fv_sha256_kernel k);

struct fv_update_report {
	size_t size; /* its sizeof, set by the library (struct fv_report) */
	uint64_t changed_blocks; /* data blocks hashed again */
	uint64_t tree_blocks;    /* hash blocks written */
	uint64_t parity_rounds;  /* parity rounds written */
	int resumed;             /* an interrupted update completed */
};
/* Where the roots of parity came from. */
enum fv_roots_from {
	FV_ROOTS_GIVEN = 0,     /* the caller's value */
	FV_ROOTS_INFERRED = 1,  /* the one value the device's size fits */
	FV_ROOTS_DEFAULT = 2,   /* the default: the size does not tell */
	FV_ROOTS_DESCRIBED = 3, /* the container's metadata */
};
/* Where everything sits (docs/format.md). A versioned structure: the
 * program sets size to sizeof(struct fv_layout) as it knows it, and the
 * library fills that much; members are only ever added at the end. (In
 * struct fv_report, the library sets its size: see there.) */
struct fv_layout {
	size_t size;
	uint64_t data_blocks;
	uint64_t data_bytes;
	uint64_t hash_area_start; /* the first byte format writes */
	uint64_t tree_offset;     /* the tree's first byte */
	uint64_t tree_blocks;     /* hash blocks of the tree */
	uint64_t hash_end;        /* the byte just after the tree */
	unsigned levels;
	unsigned digest_size;
	/* the parity (fec_roots 0: none) */
	unsigned fec_roots;
	enum fv_roots_from fec_roots_from;
	unsigned fec_rsn;          /* message bytes of a codeword */
	int fec_on_hash_device;    /* the parity follows the tree */
	uint64_t fec_offset;       /* its first byte on its device */
	uint64_t fec_blocks;       /* blocks it covers */
	uint64_t fec_rounds;       /* its interleaving rounds */
	uint64_t fec_parity_bytes; /* its size */
};
/* What parity did (in struct fv_report, which sets its size). */
struct fv_fec_report {
	size_t size;
	uint64_t bad_blocks;      /* data and hash blocks proven bad */
	uint64_t repaired;        /* rebuilt and proven by the tree */
	uint64_t passes;          /* verify passes run */
	uint64_t stale_codewords; /* parity disagreeing with good data */
	uint64_t stale_rounds;
	uint64_t unchecked_rounds; /* rounds with blocks still bad */
	uint64_t parity_rewritten; /* rounds of parity written again */
	uint64_t rewrite_limit;    /* the most stale codewords rewritten */
	/* the first pass, before anything was rebuilt (the result's own
	 * counts are the image as left) */
	int before_root_matches;
	uint64_t before_bad_data_blocks;
	uint64_t before_bad_hash_blocks;
	uint64_t before_bad_padding;
	uint64_t before_unreadable;
	uint64_t before_unchecked_data_blocks;
	uint64_t before_unchecked_hash_blocks;
};
/* Since 0.10: what an action found, in one versioned
 * structure (as fv_layout: the caller sets size, the library fills that
 * much). Strings point into the result (valid until fv_result_free) and
 * are never NULL. */
enum fv_report_has {
	/* the layout of the pair acted on (format, verify, repair, dump,
	 * update, the signature check) */
	FV_REPORT_LAYOUT = 1u << 0,
	FV_REPORT_FEC = 1u << 1,    /* the action ran with parity */
	FV_REPORT_UPDATE = 1u << 2, /* what fv_update did */
	FV_REPORT_PARAMS = 1u << 3, /* the tree's parameters (format,
				     * update: as written) */
};
struct fv_report {
	size_t size; /* sizeof(struct fv_report), set by the caller */
	/* The root hash (format, update: the new one) or the one checked
	 * (verify, repair): root_size bytes, and as lowercase hex. */
	uint8_t root[FV_MAX_DIGEST_SIZE];
	size_t root_size;
	const char *root_hex;
	/* verify and repair: 1 when every block matches the root (after
	 * repair: the image as left) */
	int intact;
	/* 1 when the top of the tree matches the root; 0 means a wrong
	 * root hash or parameters, or damage reaching the top */
	int root_matches;
	/* 1 when verify stopped at the top of the tree, which matches
	 * neither the root hash nor the top its children rebuild: a wrong
	 * root hash or parameter, no block judged */
	int root_first;
	uint64_t bad_data_blocks;
	uint64_t bad_hash_blocks;
	uint64_t bad_padding;
	uint64_t unreadable; /* blocks that could not be read */
	/* data and hash blocks under a bad or unreadable hash block, not
	 * checked */
	uint64_t unchecked_data_blocks;
	uint64_t unchecked_hash_blocks;
	/* FEC (0 without parity): blocks rebuilt (and proven), blocks
	 * still bad, parity codewords that disagreed with verified data */
	uint64_t repaired;
	uint64_t unrepaired;
	uint64_t stale_codewords;
	/* "fast" (salted SHA-256 state, CPU kernel) or "generic"
	 * (OpenSSL), why it was taken, the SHA-256 kernel of the fast path
	 * ("" on the generic one) and the OpenSSL provider */
	const char *hashing_path;
	const char *hashing_reason;
	const char *hashing_kernel;
	const char *hashing_provider;
	/* The trust policy's verdict on the pair's signature, and, when it
	 * was checked (FV_TRUST_CHECK), its signer's subject, any leniency
	 * the check needed and the signer's certificateFingerprint ("" when
	 * none). */
	enum fv_trust trust;
	const char *signer;
	const char *signature_warning;
	const char *signer_fingerprint;
	/* enum fv_report_has: which of the three below the action gave; one
	 * it did not is all zeros. They are these structures as this header
	 * has them (their size set by the library): one that grows later is
	 * added anew at the end of fv_report. */
	unsigned has;
	struct fv_layout layout;
	struct fv_fec_report fec;
	struct fv_update_report update;
	/* since 0.10 */
	fv_params params;
};
/* Errors: EINVAL (a NULL handle, or a size smaller than the first
 * member's end). */
int fv_result_report(const fv_result *r, struct fv_report *out);

/* --- disk images ----------------------------------------------------------
 * Since 0.6. A systemd disk image opened with
 * fv_open ("ddi"): its GPT, and each pair's partitions. Strings
 * point into the image handle (valid until fv_image_free). */
struct fv_ddi_disk {
	size_t size; /* the caller's sizeof (versioned, as fv_layout) */
	unsigned sector_size; /* 512 or 4096 */
	const char *disk_uuid;
	size_t partitions; /* used entries of the table */
};
/* One GPT partition. This structure is fixed (new facts about partitions
 * go at the end of fv_ddi_pair). */
struct fv_gpt_partition {
	unsigned index;   /* 1-based, as sfdisk numbers them; 0: none */
	const char *type; /* the type's name ("root-x86-64"), or its GUID */
	const char *label;
	const char *uuid;
	uint64_t offset; /* bytes from the start of the image */
	uint64_t bytes;
};
struct fv_ddi_pair {
	size_t size;             /* versioned, as fv_layout */
	const char *role;        /* "root" or "usr" */
	const char *arch;        /* "x86-64", "arm64", ... */
	const char *root_hex;    /* as the partitions or the signature say */
	int is_signed;           /* a signature partition */
	const char *fingerprint; /* its certificateFingerprint ("" none) */
	struct fv_gpt_partition data, hash, signature;
};
/* What fv_image_info and fv_image_pair_info fill. The disk image's
 * structures are fixed members (their size set by the library; new
 * facts go at the end of these two). Strings point into img. */
struct fv_image_info {
	size_t size; /* sizeof(struct fv_image_info), set by the caller */
	const char *container; /* "plain", "sidecar", "avb", "ddi", "super" */
	size_t pairs;
	/* an Android image's vbmeta as opened (what it says, for showing;
	 * NULL for other containers) */
	const fv_avb *avb;
	/* the policy's verdict on pair 0 as opened; for an Android image its
	 * vbmeta's, also where the vbmeta describes no pair (a vbmeta
	 * image, a hash footer, a persistent digest) */
	enum fv_trust trust;
	struct fv_ddi_disk disk; /* a disk image's GPT (zeros otherwise) */
};
struct fv_image_pair_info {
	size_t size; /* sizeof(struct fv_image_pair_info), set by the caller */
	/* the partition's ("system", "root-x86-64"), "data" for a plain
	 * pair and a sidecar image */
	const char *name;
	enum fv_trust trust;    /* the policy's verdict as opened */
	struct fv_ddi_pair ddi; /* a disk image's partitions (zeros
				 * otherwise) */
	/* since 0.10: what the actions read: the data, tree and parity
	 * files (fec NULL: none), the tree's parameters, the root hash
	 * checked against ("" when none was given) and the signature's
	 * file (NULL: none; a disk image's is the image) */
	const char *data, *hash, *fec;
	const fv_params *params;
	const char *root_hex;
	const char *signature;
};
/* Who pair i's signature says signed it, trusting nothing (for showing;
 * fv_verify checks it): *subject fv_free'd, NULL when unsigned.
 * Errors: EINVAL (not a PKCS#7 signature, i out of range), ENOMEM. */
int fv_image_signer(const fv_image *img, size_t i, char **subject);

/* --- bench -----------------------------------------------------------------
 * Since 0.10. What `fastverity bench` measures here, in
 * about req->seconds: the ways of hashing 4096-byte blocks with a 32-byte
 * salt (the SHA-256 kernels, also on every thread at once; OpenSSL's EVP
 * two ways; the kernel's AF_ALG), the FEC encoders (ISA-L's, libfec's)
 * for 2 to 24 roots and what those roots cost and correct on the data,
 * and a whole tree of every setting asked for, built in memory from
 * synthetic data or read from a device (never written). A rate is the
 * median of FV_BENCH_ROUNDS rounds, the slowest and fastest its spread;
 * the conclusions (enum fv_bench_flag) allow for that noise. */
#define FV_BENCH_ROUNDS 5

struct fv_bench_request {
	size_t size;     /* sizeof(struct fv_bench_request) */
	size_t row_size; /* sizeof(struct fv_bench_row): the rows' stride */
	/* the settings: every combination of these (1 to 16 each), the
	 * hashes varying slowest, then the formats, the data and the hash
	 * block sizes, the salt sizes fastest */
	const char *const *hashes;
	size_t nhashes;
	const unsigned *formats;
	size_t nformats;
	const uint32_t *data_block_sizes, *hash_block_sizes, *salt_sizes;
	size_t ndata_block_sizes, nhash_block_sizes, nsalt_sizes;
	const char *device; /* the data read from it; NULL: synthetic */
	uint64_t bytes;     /* of data (a device: at most its size, 0 all) */
	double seconds;     /* about how long it all takes (at most a day) */
};

enum fv_bench_kind {
	FV_BENCH_MACHINE = 1, /* the first row: the machine and the run */
	FV_BENCH_HASHING = 2, /* a way of hashing */
	FV_BENCH_FEC = 3,     /* a parity encoder for some roots, one core */
	FV_BENCH_ROOTS = 4,   /* what some roots cost and correct here */
	FV_BENCH_TREE = 5,    /* a whole tree of one setting */
};

enum fv_bench_flag {
	FV_BENCH_FAST_PATH = 1 << 0, /* HASHING: the fast path's kernel */
	FV_BENCH_REFERENCE = 1 << 1, /* HASHING, FEC: veritysetup's way */
	/* HASHING: a kernel faster than the fast path's, measured twice:
	 * the machine was noisy, the rows are no ranking */
	FV_BENCH_NOISE = 1 << 2,
	/* TREE: the setting to take (the fastest with sha256 or stronger,
	 * a salt, 4096-byte data blocks); DEFAULT_KEPT with it: format's
	 * default, no lead over it beyond the noise; NO_DIFFERENCE: a
	 * spread overlapping the recommended one's */
	FV_BENCH_RECOMMENDED = 1 << 3,
	FV_BENCH_DEFAULT_KEPT = 1 << 4,
	FV_BENCH_NO_DIFFERENCE = 1 << 5,
};

/* MB/s: the median round, the slowest, the fastest (median < 0: not
 * measured). */
struct fv_bench_rate {
	double median, min, max;
};

/* One row of the report; its strings live until the visitor returns. */
struct fv_bench_row {
	enum fv_bench_kind kind;
	unsigned flags;   /* enum fv_bench_flag */
	const char *name; /* the CPU; the way; TREE: the hash */
	const char *note; /* what it is; not measured, tree failed: why */
	struct fv_bench_rate rate; /* HASHING, FEC: one core; TREE: all */
	struct fv_bench_rate all;  /* HASHING: every thread at once */
	double ratio; /* HASHING: to the fastest; FEC: to the reference of
		       * its roots; < 0: none */
	unsigned roots; /* FEC, ROOTS */
	/* ROOTS: the parity, its encoding here (seconds, < 0: not
	 * measured), the longest run of bad blocks it corrects when the
	 * tree names them and when not (bytes) */
	uint64_t parity_bytes;
	double encode_seconds;
	uint64_t run_named, run_unnamed;
	/* TREE: the setting (valid 0: its tree failed), the hashing path
	 * ("fast", "generic") and why, levels, trees built, tree bytes */
	uint32_t salt_size, data_block_size, hash_block_size;
	unsigned format;
	int valid;
	const char *path, *path_reason;
	unsigned levels, runs;
	uint64_t tree_bytes;
	uint64_t data_bytes; /* TREE, ROOTS: whole blocks; MACHINE: all */
	/* MACHINE: CPUs online, threads run, the SHA-256 instructions
	 * ("sha_ni sse4_1"), fv_sha256_kernel_name's, the device (NULL:
	 * synthetic data), the clock measured (MHz; 0: not); a device's
	 * read with its cache dropped, the SHA unit on the threads, the
	 * first tree built cold (MB/s; 0: not measured) */
	unsigned cpus, threads;
	const char *cpu_flags, *sha256_kernel, *device;
	double clock_mhz, device_read, sha_unit, cold_tree;
};

/* Called once, everything measured: rows[0, n), req->row_size apart, the
 * machine first, then each kind in turn, the trees in the settings'
 * order. Its return is fv_bench_run's. */
typedef int (*fv_bench_fn)(void *ctx, const struct fv_bench_row *rows,
			   size_t n);
/* o: the threads and the SHA-256 kernel (NULL: the defaults). Every
 * setting is checked and its tree prepared before anything is timed.
 * Errors: EINVAL (the request; a setting that cannot make a tree, the
 * message naming it), ENODEV, ENOTBLK, EIO, ENOMEM. */
int fv_bench_run(const struct fv_bench_request *req, const fv_options *o,
		 fv_bench_fn fn, void *ctx);

/* --- device-mapper --------------------------------------------------------
 * Needs root and the kernel's dm-verity; image files go through loop
 * devices. */

enum fv_close_how {
	FV_CLOSE_NOW = 0,
	FV_CLOSE_DEFERRED = 1,        /* when its last user closes it */
	FV_CLOSE_CANCEL_DEFERRED = 2, /* undo an earlier deferred close */
};
/* Errors: ENODEV (no such device, or no device-mapper), EBUSY (in use),
 * EINVAL (the name, or how). */
int fv_close(const char *name, enum fv_close_how how);

typedef struct fv_status fv_status;
/* Errors: ENODEV (no device of that name is active), ENOSYS (no
 * device-mapper), EINVAL (the name), ENOMEM. */
int fv_status_get(const char *name, fv_status **st);
void fv_status_free(fv_status *st);
/* Since 0.10: what fv_status_get read, in one call. Its
 * strings and params point into st, valid until fv_status_free. */
struct fv_status_info {
	size_t size; /* sizeof(struct fv_status_info), set by the caller */
	int is_verity;
	int corrupted;
	int open_count;
	unsigned flags; /* enum fv_flags */
	/* Block sizes, data blocks, hash and salt of the table (its UUID
	 * all zeros: a table has none). */
	const fv_params *params;
	const char *root_hex;
	/* The devices, "/dev/loop0"; for a loop device, its backing file
	 * (else NULL); the FEC device and its file are NULL without FEC. */
	const char *data_device;
	const char *hash_device;
	const char *data_file;
	const char *hash_file;
	const char *fec_device;
	const char *fec_file;
	unsigned fec_roots;
	/* The mapping read-only; its root hash signature given to the
	 * kernel (its keyring checked it). */
	int read_only;
	int is_signed;
	/* Its size in 512-byte sectors, the tree's first block on the hash
	 * device, the parity's first block and the blocks it covers. */
	uint64_t size_sectors;
	uint64_t hash_start_block;
	uint64_t fec_start_block;
	uint64_t fec_blocks;
};
/* Errors: EINVAL (st or info NULL, size too small). */
int fv_status_info(const fv_status *st, struct fv_status_info *info);
/* The kernel's word for one flag of enum fv_flags ("ignore_corruption"),
 * NULL for anything else; flags in the kernel's order are 1u << 0 to
 * 1u << (FV_NFLAGS - 1). */
#define FV_NFLAGS 8
const char *fv_flag_name(unsigned flag);

/* Since 0.9: fs-verity (docs/fsverity.md). A file's
 * fs-verity digest, what `fsverity digest` (fsverity-utils) prints and
 * the kernel measures: the Merkle tree over the file's 1-64 KiB blocks,
 * the 256-byte descriptor holding its root, and the digest of that. */
typedef struct fv_fsverity_digest fv_fsverity_digest;
/* Since 0.10: a tree's parameters, read as far as size
 * says (members past it, and zeros, are the defaults); a NULL pointer
 * to them: SHA-256, 4096-byte blocks, no salt. */
struct fv_fsverity_params {
	size_t size;         /* sizeof(struct fv_fsverity_params), set by
			      * the caller */
	const char *hash;    /* "sha256" or "sha512"; NULL: sha256 */
	uint32_t block_size; /* a power of two from 1024 to 65536; 0: 4096 */
	const uint8_t *salt; /* salt_len bytes, at most 32; none when 0 */
	size_t salt_len;
};
/* The bytes of one file, given by read (fsverity-utils' read_fn: fills
 * buf with exactly count bytes, the next ones, and returns 0 or a
 * negative errno), called in order from the calling thread. */
typedef int (*fv_read_fn)(void *ctx, void *buf, size_t count);
enum fv_fsverity_flags {
	FV_FSVERITY_KEEP_TREE = 1u << 0, /* keep each file's tree */
};
/* Since 0.10: what fv_fsverity_compute computes. */
struct fv_fsverity_request {
	size_t size; /* sizeof(struct fv_fsverity_request), set by the
		      * caller */
	const struct fv_fsverity_params *params; /* NULL: the defaults */
	/* The file: at path (with o's threads, NULL: every CPU; mapped
	 * when o's map says so), or read_size bytes from
	 * read(read_ctx, ...); name is what messages call the latter (may
	 * be NULL). One of path and read. */
	const char *path;
	fv_read_fn read;
	void *read_ctx;
	uint64_t read_size;
	const char *name;
	/* The tree written to this file as the kernel stores it (`fsverity
	 * digest --out-merkle-tree`: a new file, or one replaced when the
	 * tree is whole), not kept; NULL: none. */
	const char *tree_path;
	/* FV_FSVERITY_KEEP_TREE: the tree kept in memory (1/128 of the
	 * file's size, for SHA-256 and 4 KiB blocks) for
	 * fv_fsverity_digest_info; without it (or with tree_path) memory
	 * does not grow with a file at path. */
	unsigned flags;
};
/* The digest of one file. Errors: ENODEV (missing), EISDIR, EINVAL (not
 * a file, parameters, the request), EIO, ENOMEM, and a tree file's
 * (fv_output_write). */
int fv_fsverity_compute(const struct fv_fsverity_request *req,
			const fv_options *o, fv_fsverity_digest **out);
/* n files at once: small files each on one thread, several at a time,
 * large ones each on every thread; out[i] (n pointers) is paths[i]'s.
 * On failure *failed is the first file, in paths' order, that failed
 * (fv_last_error: its message), and out[j] for j < *failed are set; the
 * others are NULL. Without FV_FSVERITY_KEEP_TREE no tree is kept, and
 * memory does not grow with the files' sizes (a few blocks of each
 * level of a tree, the threads' windows). With n 0, p is checked alone
 * (-EINVAL, the message naming what is wrong). */
int fv_fsverity_compute_files(const struct fv_fsverity_params *p,
			      const char *const *paths, size_t n,
			      const fv_options *o, unsigned flags,
			      fv_fsverity_digest **out, size_t *failed);
void fv_fsverity_digest_free(fv_fsverity_digest *d);
/* Since 0.10: a digest and what it is made of; the
 * pointers into d, valid until fv_fsverity_digest_free. */
struct fv_fsverity_info {
	size_t size;           /* sizeof(struct fv_fsverity_info), set by the
				* caller */
	const char *hash;      /* "sha256" or "sha512" */
	const uint8_t *digest; /* digest_len bytes */
	size_t digest_len;
	const char *digest_hex;    /* in lowercase hex */
	const uint8_t *root;       /* the tree's root hash, digest_len bytes */
	const uint8_t *descriptor; /* 256 bytes */
	/* The Merkle tree as the kernel stores it (`fsverity digest
	 * --out-merkle-tree`: the root's level first), tree_len bytes;
	 * NULL, 0 for a file of at most one block or a tree not kept. */
	const uint8_t *tree;
	uint64_t tree_len;
	uint64_t file_size;
	/* What a built-in signature signs ("FSVerity", le16 hash number,
	 * le16 digest size, the digest; `--for-builtin-sig`), at most
	 * 12 + 64 bytes. */
	const uint8_t *signed_digest;
	size_t signed_digest_len;
};
/* Errors: EINVAL (d or info NULL, size too small). */
int fv_fsverity_digest_info(const fv_fsverity_digest *d,
			    struct fv_fsverity_info *info);
/* A built-in signature of the digest (`fsverity sign`): a detached DER
 * PKCS#7, no attributes, no certificate, with the file's hash as its
 * digest (*der: fv_free). Errors: fv_sign's. */
int fv_fsverity_sign(const fv_fsverity_digest *d,
		     const struct fv_sign_request *req, uint8_t **der,
		     size_t *len);
/* The kernel's side (a file system with fs-verity: ext4 or f2fs with
 * the verity feature, btrfs). FS_IOC_ENABLE_VERITY: path becomes a
 * verity file of p's parameters (NULL: the defaults), with a built-in
 * signature (sig, len; NULL, 0: none). Errors: ENODEV (missing),
 * EISDIR, EOPNOTSUPP (no fs-verity there), EEXIST (already one),
 * ETXTBSY, EKEYREJECTED, EBADMSG, ENOKEY (the signature refused),
 * EINVAL, and the system's; the message names the file and says what
 * the error means. */
int fv_fsverity_enable(const char *path, const struct fv_fsverity_params *p,
		       const uint8_t *sig, size_t len);
/* FS_IOC_MEASURE_VERITY: the digest the kernel holds. Since 0.10
 * into a structure. */
struct fv_fsverity_measurement {
	size_t size;   /* sizeof(struct fv_fsverity_measurement), set by the
			* caller */
	unsigned hash; /* its hash's number: 1 sha256, 2 sha512 */
	const char *hash_name; /* "sha256", "sha512"; NULL for another
				* number */
	uint8_t digest[FV_MAX_DIGEST_SIZE]; /* digest_len bytes of it */
	size_t digest_len;
};
/* Errors: ENODATA (not a verity file), ENODEV, EISDIR, EOPNOTSUPP,
 * EINVAL (size too small), and the system's. */
int fv_fsverity_measure(const char *path, struct fv_fsverity_measurement *m);
enum fv_fsverity_metadata {
	FV_FSVERITY_MERKLE_TREE = 1,
	FV_FSVERITY_DESCRIPTOR = 2,
	FV_FSVERITY_SIGNATURE = 3,
};
/* FS_IOC_READ_VERITY_METADATA: length bytes (0: to the end) of a
 * verity file's metadata from offset, handed to out a piece at a time
 * (its non-zero return stops the read and is returned). Errors:
 * fv_fsverity_measure's. */
typedef int (*fv_write_fn)(void *ctx, const void *buf, size_t n);
int fv_fsverity_read_metadata(const char *path, enum fv_fsverity_metadata type,
			      uint64_t offset, uint64_t length, fv_write_fn out,
			      void *ctx);

#ifdef __cplusplus
}
#endif

#endif
