/* libfastverity: build, check, repair, sign and map dm-verity hash trees.
 * Contracts in brief; every call, member and errno in full, in this
 * file's order: docs/reference.md (the guide: docs/library.md).
 * Errors: 0 or a negative errno (NULL for a pointer), and fv_last_error()
 * says why in one line (this thread's, until its next failure); an errno
 * means one thing throughout (docs/reference.md, "Errors"). Nothing is
 * printed. A structure whose first member is size is versioned: the
 * caller sets size to its sizeof, the library reads or fills that much.
 * A typedef with no body here is a handle, freed by its fv_*_free. Calls
 * may run at once on threads (different images); callbacks one at a time. */
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

/* The version loaded ("0.9.0"; may be newer than FASTVERITY_VERSION). */
const char *fastverity_version(void);
/* alg's digest of n parts into out, *len. Errors: EINVAL, ENOSYS, ENOMEM. */
int fv_digest(const char *alg, size_t n, const void *const *parts,
	      const size_t *sizes, uint8_t *out, size_t *len);
/* This thread's message for its last failed call ("" before any). */
const char *fv_last_error(void);
/* What a message's fix sets ("... (give a data block count of 12)"). */
enum fv_param {
	FV_PARAM_NONE = 0, /* the message has no fix */
	FV_PARAM_DATA_BLOCKS, FV_PARAM_HASH_OFFSET, FV_PARAM_FEC_ROOTS,
	FV_PARAM_FEC_OFFSET, FV_PARAM_PASSPHRASE, FV_PARAM_DRY_RUN,
	FV_PARAM_CONTAINER, FV_PARAM_TRUSTED_CERT, FV_PARAM_TRUSTED_KEY,
	FV_PARAM_ROOT_HASH, FV_PARAM_PARTITION,
};
/* A parameter's words with a value ("--data-blocks=%llu"), and alone. */
struct fv_param_words { const char *with_value; const char *alone; };
/* This thread's last message into text (text_size bytes; NULL, 0: none),
 * its fix in words[param] (param < nwords); param: what the fix sets;
 * len (returned): the message's length, as snprintf. Errors: EINVAL. */
struct fv_error_say {
	size_t size; const struct fv_param_words *words; size_t nwords;
	char *text; size_t text_size; enum fv_param param; size_t len;
};
int fv_last_error_say(struct fv_error_say *s);
void fv_free(void *p); /* frees what the library gave; NULL is fine */
/* Limits: salt, root hash, hash name, worker threads, parity's roots. */
#define FV_MAX_SALT_SIZE   256
#define FV_MAX_DIGEST_SIZE 64
#define FV_MAX_HASH_NAME   31
#define FV_MAX_THREADS     256
#define FV_FEC_MIN_ROOTS   2
#define FV_FEC_MAX_ROOTS   24
/* --- parameters ------------------------------------------------------ */
/* The tree's parameters: what the superblock holds, and where it is. */
struct fv_params {
	size_t size; /* sizeof(struct fv_params), set by the caller */
	char hash[FV_MAX_HASH_NAME + 1]; unsigned hash_type;
	uint32_t data_block_size, hash_block_size; /* 2^n, 512 to 524288 */
	uint64_t data_blocks; /* 0: every whole block (format fills it in) */
	uint64_t hash_offset; /* the superblock's (or tree's) first byte */
	uint8_t salt[FV_MAX_SALT_SIZE]; size_t salt_len;
	char uuid[37];  /* "12345678-1234-...", all zeros or "": none */
	int superblock; /* 1: a superblock (the default); 0: none */
};
typedef struct fv_params fv_params;
/* veritysetup format's defaults into p. Errors: EINVAL, EIO (no random). */
int fv_params_init(fv_params *p);
/* Checks p as format, verify and open do. Errors: EINVAL. */
int fv_params_check(const fv_params *p);
/* Where p's tree goes: its first byte, its hash blocks, the hash device's
 * minimum size (any may be NULL). Errors: EINVAL, EOVERFLOW. */
int fv_params_layout(const fv_params *p, uint64_t *tree_offset,
		     uint64_t *tree_blocks, uint64_t *hash_bytes);
/* fastverity's option values read as it does, errors naming the option:
 * n name/value pairs (a flag "1"; NULL: none) into p; one number (those,
 * fec-offset, fec-roots, threads, size); --changed's ranges (fv_free). */
int fv_params_parse(fv_params *p, const char *const *opts, size_t n);
int fv_option_number(const char *name, const char *value, uint64_t *out);
int fv_ranges_parse(const char *text, uint64_t **ranges, size_t *n);
/* --- options: how an action runs (zeros, or NULL options: defaults) -- */
typedef struct fv_options fv_options;
/* done of total bytes read (from the workers, one call at a time). */
typedef void (*fv_progress_fn)(void *ctx, uint64_t done, uint64_t total);
/* A pass begins ("verify data"); progress then counts it from 0. */
typedef void (*fv_pass_fn)(void *ctx, const char *pass);
/* A bad block: not its digest, not its parent, non-zero padding, EIO. */
enum fv_failure_kind {
	FV_BAD_DATA_BLOCK, FV_BAD_HASH_BLOCK, FV_BAD_PADDING,
	FV_UNREADABLE_DATA_BLOCK, FV_UNREADABLE_HASH_BLOCK,
};
/* One failure: index and byte offset on its device, level (0: leaves). */
typedef void (*fv_failure_fn)(void *ctx, enum fv_failure_kind kind,
			      uint64_t block, uint64_t offset, unsigned level);
/* With parity: a bad block as left (repaired 1: rebuilt and proven). */
typedef void (*fv_block_fn)(void *ctx, int repaired, enum fv_failure_kind kind,
			    uint64_t block, uint64_t offset, unsigned level);
/* open: the table's FV_NFLAGS words (one corruption, one error policy),
 * and FV_SHARED: a data device other mappings use is taken all the same. */
#define FV_NFLAGS 8
enum fv_flags {
	FV_IGNORE_CORRUPTION = 1, FV_RESTART_ON_CORRUPTION = 2,
	FV_PANIC_ON_CORRUPTION = 4, FV_RESTART_ON_ERROR = 8,
	FV_PANIC_ON_ERROR = 16, FV_IGNORE_ZERO_BLOCKS = 32,
	FV_CHECK_AT_MOST_ONCE = 64, FV_USE_TASKLETS = 128, FV_SHARED = 256,
};
/* SHA-256 kernel (same results): fastest (default), C, SHA 2/3, AVX-512. */
enum fv_sha256_kernel {
	FV_SHA256_FASTEST = 0, FV_SHA256_PORTABLE = 1, FV_SHA256_TWO_WAY = 2,
	FV_SHA256_THREE_WAY = 3, FV_SHA256_AVX512 = 4,
};
/* What runs here: OpenSSL's version line, OpenSSL opened for it (NULL:
 * it cannot be, openssl_error says why, until this thread's next call);
 * kernel k's name on this CPU. Errors: EINVAL (an unknown k, size). */
struct fv_runtime_info {
	size_t size; const char *openssl, *openssl_error, *sha256_kernel;
};
int fv_runtime_info(enum fv_sha256_kernel k, struct fv_runtime_info *out);
/* fv_repair (or'ed): write nothing; rewrite stale parity too. */
enum fv_repair_flags {
	FV_REPAIR_DRY_RUN = 1u << 0, FV_REPAIR_REWRITE_PARITY = 1u << 1,
};
/* The most certificate files trusted_certs may name. */
#define FV_MAX_TRUSTED_CERTS 64
/* Checked before anything is read (EINVAL), read during the call only. */
struct fv_options {
	size_t size;      /* sizeof(struct fv_options), set by the caller */
	unsigned threads; /* 0: one per CPU; 1: the caller's thread alone */
	int map;          /* 1: map the data (SIGBUS if truncated); 0: read */
	fv_progress_fn progress; void *progress_ctx; fv_pass_fn pass;
	fv_failure_fn failure; void *failure_ctx; /* verify, repair */
	fv_block_fn block; void *block_ctx;       /* with parity */
	unsigned flags; /* open: enum fv_flags */
	const char *const *trusted_certs; size_t ntrusted_certs; /* PEM */
	const char *key; /* the key an Android image's signer must have */
	enum fv_sha256_kernel sha256; unsigned repair; /* fv_repair_flags */
};
/* --- format, verify, repair: what they found ------------------------- */
typedef struct fv_result fv_result;
/* Frees what an action found (read with fv_result_report). */
void fv_result_free(fv_result *r);
/* --- signatures: DER PKCS#7 over the root's hex (.roothash.p7s) ------ */
/* Embed the certificate; give systemd's signature partition JSON (text). */
enum fv_sign_flags { FV_SIGN_EMBED_CERT = 1u << 0, FV_SIGN_DDI_JSON = 1u << 1 };
/* Who signs: a PEM key or "pkcs11:" URI, its certificate, passphrase. */
struct fv_sign_request {
	size_t size; /* sizeof(struct fv_sign_request), set by the caller */
	const char *key, *cert, *passphrase, *pkcs11_module;
	unsigned flags; /* enum fv_sign_flags */
};
/* Signs root_hex (*der: fv_free). Errors: EINVAL, EACCES, ENOMEM. */
int fv_sign(const struct fv_sign_request *req, const char *root_hex,
	    uint8_t **der, size_t *len);
/* A name as messages show it (odd bytes \xNN), into buf; returns buf. */
const char *fv_name_shown(const void *name, size_t n, char *buf, size_t len);
/* --- files around images: fv_file does op (docs/reference.md) ------- */
enum fv_file_op {
	FV_FILE_SIZE = 1, FV_FILE_SAME_STORAGE = 2, /* bytes; same (NULL: not) */
	FV_FILE_REFUSE_SPARSE = 3, /* -EINVAL (named): an Android sparse one */
	FV_FILE_SPARSE_CRC = 4,    /* count: its CRC32 sums; returns 1: not */
	FV_FILE_SUPERBLOCK_AT = 5, /* at: what is at offset */
	FV_FILE_SUPERBLOCK_FIND = 6, /* offset: an appended tree's, not at it */
	FV_FILE_READ = 7,      /* data, len: a small file whole (what, max) */
	FV_FILE_SIGNATURE = 8, /* data, len: a signature file's DER */
	FV_FILE_ROOT_HASH = 9, /* a root hash file's hex into text */
	FV_FILE_WRITE = 10,    /* buf whole (a temporary renamed over path) */
	FV_FILE_SIDECAR_NAMES = 11, /* tree, ...: systemd's, beside path */
	FV_FILE_SIDECAR_PRUNE = 12, /* removed: the stale, but those kept */
	FV_FILE_CONTAINER = 13, /* container: what path alone is (other) */
	FV_FILE_SUPER_EXTRACT = 14, /* slot offset's partition what to other */
};
/* At offset: nothing, a superblock, an interrupted format's, update's. */
enum fv_superblock_at {
	FV_SUPERBLOCK_NONE = 0, FV_SUPERBLOCK_FOUND = 1,
	FV_SUPERBLOCK_UNFINISHED = 2, FV_SUPERBLOCK_UPDATING = 3,
};
enum fv_sidecar_file {
	FV_SIDECAR_SIGNATURE = 1u << 0, FV_SIDECAR_FEC = 1u << 1,
};
struct fv_file_request {
	size_t size; /* sizeof(struct fv_file_request), set by the caller */
	enum fv_file_op op; const char *path, *other, *what;
	uint64_t offset; size_t max; const void *buf; size_t len;
	char *text; size_t text_size; unsigned keep; /* fv_sidecar_file */
};
struct fv_file_answer {
	size_t size; /* sizeof(struct fv_file_answer), set by the caller */
	uint64_t bytes, offset; enum fv_superblock_at at; const char *same;
	unsigned count, removed; uint8_t *data; size_t len; /* data: fv_free */
	char *tree, *roothash, *signature, *fec; /* fv_free each */
	const char *container; /* "avb", "ddi", "sidecar", ... (static) */
};
/* out may be NULL. Errors: EINVAL, ENOENT, ENODEV, ENOTBLK, EPERM, EIO. */
int fv_file(const struct fv_file_request *req, struct fv_file_answer *out);
/* For a SIGINT, SIGTERM or SIGHUP handler that then ends the process:
 * removes outputs' named temporaries, cuts a grown Android image back
 * (async-signal-safe; ignore SIGXFSZ first: docs/reference.md). */
void fv_remove_temporaries(void);
/* --- Android images (docs/android.md) -------------------------------- */
/* A vbmeta as read (fv_image_info's, a step's), valid while they are. */
typedef struct fv_avb fv_avb;
/* The vbmeta's signature and signer. */
struct fv_avb_header {
	size_t size; const char *algorithm, *public_key_sha1; /* "": none */
	uint64_t rollback_index; };
/* What the image is: a footer, a hashtree descriptor; pointers into a. */
struct fv_avb_info {
	size_t size; /* sizeof(struct fv_avb_info), set by the caller */
	int has_footer, has_hashtree, parity_unusable; size_t descriptors;
	struct fv_avb_header header;
};
/* Errors: EINVAL (NULL, size too small). */
int fv_avb_info(const fv_avb *a, struct fv_avb_info *info);
/* A descriptor's tag, and one structure per tag (bytes not terminated). */
enum fv_avb_tag {
	FV_AVB_PROPERTY = 0, FV_AVB_HASHTREE = 1, FV_AVB_HASH = 2,
	FV_AVB_KERNEL_CMDLINE = 3, FV_AVB_CHAIN_PARTITION = 4,
};
struct fv_avb_hashtree {
	size_t size; unsigned dm_verity_version;
	uint64_t image_size, tree_offset, tree_size;
	uint32_t data_block_size, hash_block_size; unsigned fec_num_roots;
	uint64_t fec_offset, fec_size; const char *hash_algorithm;
	const uint8_t *partition_name; size_t partition_name_len;
	const uint8_t *salt; size_t salt_len;
	const uint8_t *root_digest; size_t root_digest_len; unsigned flags;
};
struct fv_avb_hash {
	size_t size; uint64_t image_size; const char *hash_algorithm;
	const uint8_t *partition_name; size_t partition_name_len;
	const uint8_t *salt; size_t salt_len;
	const uint8_t *digest; size_t digest_len; unsigned flags;
};
struct fv_avb_chain_partition {
	size_t size; const uint8_t *partition_name; size_t partition_name_len;
	unsigned rollback_index_location;
	const uint8_t *public_key; size_t public_key_len; /* AVB key blob */
	char public_key_sha1[41]; unsigned flags;
};
/* Descriptor i: tag, the tag's structure (a property's, a kernel command
 * line's: the tag alone). Errors: EINVAL. */
struct fv_avb_descriptor {
	size_t size; uint64_t tag; /* size: set by the caller */
	union { struct fv_avb_hash hash; struct fv_avb_hashtree hashtree;
		struct fv_avb_chain_partition chain_partition; };
};
int fv_avb_descriptor(const fv_avb *a, size_t i, struct fv_avb_descriptor *d);
/* The image descriptor i describes (fv_free). Errors: EINVAL, ENOMEM. */
int fv_avb_described_image(const fv_avb *a, size_t i, char **path);
/* --- Android images written, as avbtool 1.3.0 writes them ------------ */
#define FV_AVB_RELEASE "avbtool 1.3.0"
/* A chained partition without A/B slots (the vbmeta needs libavb 1.3). */
enum fv_chain_flags { FV_CHAIN_DO_NOT_USE_AB = 1u << 0 };
/* A chained partition: rollback location, the key blob it is signed with. */
struct fv_vbmeta_chain {
	const char *partition; uint32_t location; const char *key_path;
	unsigned flags; /* enum fv_chain_flags */
};
struct fv_vbmeta_property {
	const char *key; const uint8_t *value; size_t len;
};
/* ML-DSA signatures deterministic (by default hedged). */
enum fv_vbmeta_sign_flags { FV_VBMETA_DETERMINISTIC = 1u << 0 };
/* What a vbmeta is made of (algorithm NULL or "NONE": unsigned). */
struct fv_vbmeta_request {
	size_t size; /* sizeof(struct fv_vbmeta_request), set by the caller */
	const char *algorithm, *key; unsigned sign_flags;
	uint64_t rollback_index; uint32_t rollback_location, flags;
	const char *release, *release_append; /* NULL: FV_AVB_RELEASE */
	const struct fv_vbmeta_chain *chains; size_t nchains;
	const struct fv_vbmeta_property *properties; size_t nproperties;
	const char *const *cmdlines; size_t ncmdlines;
	const char *const *includes; size_t nincludes; /* their descriptors */
	const char *signing_helper; int signing_helper_with_files;
	const char *temp_dir; /* a helper's files' (NULL: the output's dir) */
	const char *public_key_metadata; /* a file (NULL: none) */
	const char *const *options; size_t noptions; /* docs/reference.md */
};
/* add_hash_footer (one digest of the data), add_hashtree_footer. */
enum fv_footer_kind { FV_FOOTER_HASH = 0, FV_FOOTER_HASHTREE = 1 };
/* A footer's flags (each: docs/reference.md). */
enum fv_footer_flags {
	FV_FOOTER_DO_NOT_USE_AB = 1u << 0,
	FV_FOOTER_CHECK_AT_MOST_ONCE = 1u << 1,
	FV_FOOTER_DYNAMIC_SIZE = 1u << 2, FV_FOOTER_DO_NOT_APPEND = 1u << 3,
	FV_FOOTER_PERSISTENT_DIGEST = 1u << 4, FV_FOOTER_NO_FEC = 1u << 5,
	FV_FOOTER_SALT_GIVEN = 1u << 6, FV_FOOTER_CHANGED_GIVEN = 1u << 7,
};
/* A footer (read during the call only); vbmeta NULL: unsigned. */
struct fv_footer_request {
	size_t size; /* sizeof(struct fv_footer_request), set by the caller */
	enum fv_footer_kind kind;
	const char *partition_name; uint64_t partition_size; /* "", grow */
	const char *hash; uint32_t block_size; /* NULL: avbtool's; 0: 4096 */
	const uint8_t *salt; size_t salt_len;
	unsigned fec_roots; unsigned flags; /* 0: 2; enum fv_footer_flags */
	const uint64_t *changed; size_t nchanged; /* (offset, length) pairs */
	const char *output_vbmeta; /* also write the vbmeta blob here */
	const struct fv_vbmeta_request *vbmeta;
};
/* What v or f (one, the other NULL) needs: libavb 1.minor (avbtool's
 * rule); f's --calc_max_image_size (out NULL: the options read alone).
 * Errors: EINVAL, EDOM (an option not a number), an include's. */
struct fv_avb_needs {
	size_t size; unsigned libavb_minor; uint64_t max_image_size;
};
int fv_avb_needs(const struct fv_vbmeta_request *v,
		 const struct fv_footer_request *f, struct fv_avb_needs *out);
/* make_vbmeta_image. Errors: EINVAL, EIO, ENOMEM, EACCES. */
int fv_avb_make_vbmeta_image(const char *output,
			     const struct fv_vbmeta_request *v,
			     uint64_t padding);
/* Adds image's footer. Errors: EINVAL, EIO, ENOSPC, ENOMEM, EBUSY, EACCES. */
int fv_avb_add_footer(const char *image, const struct fv_footer_request *f,
		      const fv_options *o);
/* avbtool's editors of an image in place (0: none). */
enum fv_avb_edit_op {
	FV_AVB_EDIT_ERASE_FOOTER = 1, FV_AVB_EDIT_APPEND_VBMETA_IMAGE = 2,
	FV_AVB_EDIT_RESIZE_IMAGE = 3, FV_AVB_EDIT_ZERO_HASHTREE = 4,
};
enum fv_erase_flags { FV_ERASE_KEEP_HASHTREE = 1u << 0 };
/* An edit: a member the op does not read must be 0 (else EINVAL). */
struct fv_avb_edit_request {
	size_t size; /* sizeof(struct fv_avb_edit_request), set by the caller */
	enum fv_avb_edit_op op;
	const char *image; unsigned flags; /* every edit; erase_footer */
	const char *vbmeta_image; uint64_t partition_size; /* append, resize */
	const char *const *options; size_t noptions; /* fv_vbmeta_request's */
};
/* Errors: EINVAL, EIO, ENOSPC, ENOMEM, EBUSY, EACCES, EFBIG. */
int fv_avb_edit(const struct fv_avb_edit_request *req);
/* extract_public_key (*out: key's blob), _digest (its SHA-256's hex);
 * a new ML-DSA key ("MLDSA65", "MLDSA87") as output, PKCS#8 PEM, 0600,
 * never over a file (out NULL). *out: fv_free. Errors: EINVAL, EEXIST,
 * EIO, ENOMEM. */
enum fv_avb_key_op {
	FV_AVB_KEY_BLOB = 1, FV_AVB_KEY_DIGEST = 2, FV_AVB_KEY_GENERATE = 3,
};
struct fv_avb_key_request {
	size_t size; enum fv_avb_key_op op; const char *key, *algorithm, *output;
};
int fv_avb_key(const struct fv_avb_key_request *req, uint8_t **out,
	       size_t *len);
/* --- Android super images: logical partitions, also IMAGE/NAME ------- */
typedef struct fv_super fv_super;
typedef struct fv_image fv_image; /* (the door, below) */
/* Opens a super image's metadata slot slot; other block devices: files[i]
 * for names[i], else beside it. Errors: EINVAL, ENODEV, EIO, ENOMEM. */
int fv_super_open(const char *image, const char *const *names,
		  const char *const *files, size_t n, unsigned slot,
		  fv_super **out);
void fv_super_free(fv_super *s);
/* A super image's metadata: version, header, geometry, what was read. */
struct fv_super_info {
	size_t size; /* sizeof(struct fv_super_info), set by the caller */
	unsigned major, minor; uint32_t header_size, tables_size, header_flags;
	uint32_t metadata_max_size, metadata_slot_count, logical_block_size;
	unsigned slot; int geometry_backup, metadata_backup, sparse;
	uint64_t image_size; size_t partitions, extents, groups, block_devices, notes;
};
/* Errors: EINVAL (NULL, size too small). */
int fv_super_info(const fv_super *s, struct fv_super_info *info);
struct fv_super_partition {
	size_t size; const char *name; uint32_t attributes; /* liblp's */
	const char *group; uint64_t bytes; uint32_t first_extent, num_extents;
};
struct fv_super_extent {
	size_t size; uint64_t sectors; unsigned type; /* 0 linear, 1 zero */
	uint64_t target; uint32_t source; const char *device;
};
struct fv_super_group {
	size_t size; const char *name; uint32_t flags; uint64_t max_size;
};
struct fv_super_block_device {
	size_t size; const char *name; uint64_t first_sector;
	uint32_t alignment, alignment_offset; uint64_t bytes; uint32_t flags;
	const char *file; /* the file read for it */
};
/* Entry i of one kind (a note: a copy read from its backup, and why);
 * pointers into s. Errors: EINVAL (i past the last, kind, size). */
enum fv_super_kind {
	FV_SUPER_PARTITION = 0, FV_SUPER_EXTENT = 1, FV_SUPER_GROUP = 2,
	FV_SUPER_BLOCK_DEVICE = 3, FV_SUPER_NOTE = 4,
};
struct fv_super_entry {
	size_t size; /* sizeof(struct fv_super_entry), set by the caller */
	enum fv_super_kind kind;
	union { struct fv_super_partition partition; const char *note;
		struct fv_super_extent extent; struct fv_super_group group;
		struct fv_super_block_device block_device; };
};
int fv_super_entry(const fv_super *s, enum fv_super_kind kind, size_t i,
		   struct fv_super_entry *e);
/* The partition booting slot (NULL: s's) maps for name, or -ENOENT. */
int fv_super_find(const fv_super *s, const char *name, const char *slot);
/* Partition i's byte off on its device. Errors: EINVAL, ENODATA. */
int fv_super_offset(const fv_super *s, size_t i, uint64_t off,
		    uint32_t *device, uint64_t *at);
/* --- what dump and lp dump show: items, in order, to a visitor ------- */
enum fv_item_kind { /* TEXT: stdout's, u bytes; a warning; --json's: */
	FV_ITEM_TEXT, FV_ITEM_WARNING, FV_ITEM_STRING, FV_ITEM_UINT,
	FV_ITEM_BOOL, FV_ITEM_NULL, FV_ITEM_OBJECT, FV_ITEM_ARRAY, FV_ITEM_END,
	FV_ITEM_NUMBER, /* d, written as text says (NULL: as a double) */
	FV_ITEM_ERROR, /* stderr's, as it is */
};
struct fv_item {
	enum fv_item_kind kind; const char *key, *text; uint64_t u; double d;
};
typedef int (*fv_item_fn)(void *ctx, const struct fv_item *it);
enum fv_show_what { FV_SHOW_SUPER = 1, FV_SHOW_LPDUMP = 2, /* dump; lp */
	FV_SHOW_SET_VERIFY = 3, FV_SHOW_AVB_VERIFY = 4, /* a set's; avb's */
	FV_SHOW_AVB_INFO = 5, FV_SHOW_AVB_DIGESTS, FV_SHOW_AVB_CMDLINE,
	FV_SHOW_AVB_DUMP, /* avb's info_image, ...; dump of an Android image */
	FV_SHOW_DDI, /* dump of a disk image */
	FV_SHOW_STATUS, /* status (image: the mapping's NAME) */
	FV_SHOW_LPUNPACK, FV_SHOW_LPDUMP_SIZE, /* lp unpack; lp dump -d */
	FV_SHOW_AVB_PUBKEY, FV_SHOW_AVB_VBMETA, /* a vbmeta's key blob; its blob */
	FV_SHOW_AVB_VBMETA_DIGEST, /* avb calculate_vbmeta_digest's */
	FV_SHOW_OTA_INFO, FV_SHOW_OTA_VERIFY, FV_SHOW_OTA_EXTRACT, /* ota's */
	FV_SHOW_FSVERITY_DIGEST, FV_SHOW_FSVERITY_SIGN, FV_SHOW_FSVERITY_ENABLE,
	FV_SHOW_FSVERITY_MEASURE, /* fsverity-utils' commands */
	FV_SHOW_DDI_VERIFY, /* verify of a disk image */
	FV_SHOW_VERIFY, FV_SHOW_REPAIR, /* pair at of img checked, said */
	FV_SHOW_PAIR, /* its header: dump; or *res's: format, update */
	FV_SHOW_AVB_USAGE, /* args: avb's subcommand; options: all given */
	FV_SHOW_SIGN, /* sign's: fv_sign(sign, args) to image ("-": text) */
	FV_SHOW_OPEN, /* an image alone (open) mapped as args, fv_activate's */
	FV_SHOW_FSVERITY_DUMP, /* dump_metadata: args TYPE, image FILE */
	FV_SHOW_AVB_OPTIONS, FV_SHOW_AVB_RUN }; /* avb's table; a run */
struct fv_show_request { /* names, files, n: fv_super_open's */
	size_t size; enum fv_show_what what; const char *image; int json;
	const char *const *names, *const *files; size_t n; unsigned slot;
	int all, hashtree_disabled; /* every slot after slot; AVB_CMDLINE's */
	const struct fv_slot_request *set; const fv_options *o; /* verify's */
	const char *partition; /* a disk image's role (root, usr); NULL: all */
	const char *dir, *source, *key; /* LPUNPACK's, OTA's; a delta's; AVB */
	const char *hash, *block_size, *salt, *tree, *descriptor, *signature;
	unsigned flags; const struct fv_sign_request *sign; /* fs-verity's */
	const char *const *options; size_t noptions; /* avb's; alone's: names */
	const fv_image *img; size_t at; fv_result **res; /* its, kept; PAIR's */
	uint64_t max; const char *args; /* failures listed; repair's; --uuid */
	/* VERIFY, REPAIR, PAIR (dump), OPEN of image alone, no img: open's
	 * request; options: what each walk refuses, named (verity/image/
	 * takes.h); said's items: "container" (u: the walk, 0 one pair, 1 a
	 * set, 2 OTA, 3 a disk image's, 4 sidecar; d: the caller's own walk,
	 * 1 sidecar files, 2 a super image's partition) first, a pair's
	 * "trust" (u; d: pairs; text: path), OPEN's "data", "hash"; an error
	 * "hint", said after the call's error; certs: if o's none */
	const struct fv_open_request *open; const char *const *certs; size_t ncerts;
};
/* Errors: fv_super_open's, fv_slot_verify's, an image's read; fn's
 * return. > 0, said: a set's verify: the first refusal's errno, else
 * EPERM, ENODEV; a pair's: EPERM (bad blocks), EINVAL (the root does not
 * match); status's ENODEV (inactive); lp unpack's failure; fs-verity's:
 * its exit code (flags: 1 digest only, 2 as a built-in signature signs
 * it, 4 checked only; options: threads, key, cert, key-passphrase-file).
 * VERIFY's all: the parity said when well; REPAIR's, PAIR's image: alone. */
int fv_show(const struct fv_show_request *q, fv_item_fn fn, void *ctx);
/* --- containers and trust (docs/trust.md) ----------------------------- */
/* The trust policy's verdict: nothing signed; the signature checked
 * against the anchor; signed, no anchor: the signer not checked. */
enum fv_trust {
	FV_TRUST_UNSIGNED = 0, FV_TRUST_CHECK = 1, FV_TRUST_UNCHECKED = 2,
};
/* --- Android firmware sets: one walk, as libavb's avb_slot_verify ----- */
typedef struct fv_slot fv_slot;
/* Check (else read); follow the top's chains, nested ones; compare with
 * the expected; stop at the first failure; skip a zeroed tree. */
enum fv_slot_flag {
	FV_SLOT_CHECK = 1u << 0, FV_SLOT_FOLLOW = 1u << 1,
	FV_SLOT_FOLLOW_NESTED = 1u << 2, FV_SLOT_EXPECTED = 1u << 3,
	FV_SLOT_STOP = 1u << 4, FV_SLOT_ACCEPT_ZEROED = 1u << 5,
};
/* A chain partition descriptor's expected contents. */
struct fv_slot_expected {
	const char *name; unsigned rollback_index_location;
	const uint8_t *public_key; size_t public_key_len; /* AVB key blob */
};
/* The set's top image, container, top signer's key, slot, partitions to
 * check (NULL: all), a split super image's devices, expected chains. */
struct fv_slot_request {
	size_t size; /* sizeof(struct fv_slot_request) */
	const char *image, *container, *key, *slot;
	const char *const *partitions; size_t npartitions;
	const char *const *device_names, *const *device_files; size_t ndevices;
	const struct fv_slot_expected *expected; size_t nexpected;
	unsigned flags; /* enum fv_slot_flag */
};
/* A step: a vbmeta; a descriptor's; a super image's logical partition. */
enum fv_slot_kind {
	FV_SLOT_VBMETA = 1, FV_SLOT_HASH = 2, FV_SLOT_HASHTREE = 3,
	FV_SLOT_CHAIN = 4, FV_SLOT_CMDLINE = 5, FV_SLOT_PARTITION = 6,
};
/* Good (or read); bad data; refused; no image; skipped; error. */
enum fv_slot_result {
	FV_SLOT_OK = 0, FV_SLOT_BAD = 1, FV_SLOT_REFUSED = 2,
	FV_SLOT_MISSING = 3, FV_SLOT_SKIPPED = 4, FV_SLOT_ERROR = 5,
};
/* Why a step is not OK (each: docs/reference.md). */
enum fv_slot_why {
	FV_SLOT_WHY_NONE = 0, FV_SLOT_WHY_SIGNATURE, FV_SLOT_WHY_POLICY,
	FV_SLOT_WHY_OTHER_KEY, FV_SLOT_WHY_PINNED_KEY, FV_SLOT_WHY_UNSIGNED_PIN,
	FV_SLOT_WHY_NESTED, FV_SLOT_WHY_NOT_EXPECTED, FV_SLOT_WHY_LOCATION,
	FV_SLOT_WHY_KEY_BLOB, FV_SLOT_WHY_DIGEST, FV_SLOT_WHY_BLOCKS,
	FV_SLOT_WHY_TREE, FV_SLOT_WHY_PARITY, FV_SLOT_WHY_ZEROED,
	FV_SLOT_WHY_VISITED, FV_SLOT_WHY_EMPTY, FV_SLOT_WHY_NO_FOOTER,
	FV_SLOT_WHY_LIMIT, FV_SLOT_WHY_DESCRIPTORS,
};
/* One step of the walk; strings and handles valid until fv_slot_free. */
struct fv_slot_step {
	size_t size; /* sizeof(struct fv_slot_step), set by the caller */
	enum fv_slot_kind kind; enum fv_slot_result result;
	enum fv_slot_why why; int error; /* error: the -errno, if not OK */
	const char *message; /* why, one line naming the file; "" for OK */
	unsigned depth; size_t parent; /* a chain adds 1; SIZE_MAX: none */
	const char *name, *path; /* the partition's (escaped); the image */
	const fv_avb *avb; size_t descriptor; /* the vbmeta; a descriptor */
	enum fv_trust trust; const char *signer; /* a vbmeta step's (CHECK) */
	const fv_result *result_of; /* a hashtree step: the verify's, or NULL */
	int followed; size_t partition; /* a chain step; a partition step */
};
/* Called as each step begins (d 0) and ends (d 1; a vbmeta's twice when
 * its descriptors are then refused: checked, as avbtool says). */
typedef void (*fv_slot_fn)(void *ctx, const fv_slot *s, size_t step, int d);
/* Walks req's set (0 whatever the steps found; *out: fv_slot_free, also
 * on error). Errors: EINVAL, ENODEV, ENOMEM. */
int fv_slot_verify(const struct fv_slot_request *req, const fv_options *o,
		   fv_slot_fn fn, void *ctx, fv_slot **out);
void fv_slot_free(fv_slot *s);
/* What the walk holds (super: a super image's metadata); into s. */
struct fv_slot_info {
	size_t size; /* sizeof(struct fv_slot_info), set by the caller */
	size_t steps, notes; const fv_super *super; const char *slot;
	const char *const *note; /* note[i] for i < notes: backups read, ... */
};
/* That, and step i. Errors: EINVAL (NULL, size too small, i too big). */
int fv_slot_info(const fv_slot *s, struct fv_slot_info *info);
int fv_slot_step(const fv_slot *s, size_t i, struct fv_slot_step *st);
/* --- the door: what actions act on, opened and judged once ------------ */
/* An image given alone (its container: NULL, the registry's), or a plain
 * pair; its tree, parity, signature and root where not found. */
struct fv_open_request {
	size_t size; /* sizeof(struct fv_open_request) */
	const char *image, *data, *hash, *container;
	const fv_params *params; uint64_t hash_offset; /* NULL: superblock */
	const char *fec_path; uint64_t fec_offset; unsigned fec_roots;
	const char *signature_path; int writes; /* writes: judged so */
	const char *root_hex, *root_hash_file; /* the root, as hex or file */
	int activates; /* to be mapped: an unanchored signature to the kernel */
	int show; /* an Android image read for showing only (image alone) */
	const char *partition; /* a disk image's role: its pairs alone; a super
	 * image's logical partition (slot 1: b's), devices: fv_super_open's */
	unsigned slot; const char *const *names, *const *files; size_t n;
	fv_item_fn said; void *ctx; /* the open's warnings, as they come */
	const char *action; /* verify, repair, open, dump: refusals name it */
};
/* Opens and judges. Errors: EINVAL, EPERM, ENODEV, ENOTBLK, EIO, ENOMEM. */
int fv_open(const struct fv_open_request *req, const fv_options *o,
	    fv_image **out);
void fv_image_free(fv_image *img);
struct fv_image_info; struct fv_image_pair_info; /* (below, disk images') */
/* What img is, and its pair i. Errors: EINVAL (NULL, i, size). */
int fv_image_info(const fv_image *img, struct fv_image_info *info);
int fv_image_pair_info(const fv_image *img, size_t i,
		       struct fv_image_pair_info *p);
/* Verify or repair pair i on the open's verdict (an anchor in o: EINVAL).
 * Errors: EINVAL, EPERM, EBUSY, EOVERFLOW, ENOMEM, ENODEV, ENODATA, EIO. */
int fv_verify(const fv_image *img, size_t i, const fv_options *o,
	      fv_result **res);
int fv_repair(const fv_image *img, size_t i, const fv_options *o,
	      fv_result **res);
/* Where everything of pair i sits (a disk image's: signer, unchecked).
 * Errors: EINVAL, EOVERFLOW, ENODEV, ENOTBLK, EIO, ENOMEM. */
int fv_describe(const fv_image *img, size_t i, const fv_options *o,
		fv_result **res);
/* /dev/mapper/<name> of pair i (*res may be NULL). Errors: EBUSY, ENOSYS,
 * EINVAL, EPERM, ENAMETOOLONG, ENODEV, ENOTBLK, EIO, ENOMEM. */
int fv_activate(const char *name, const fv_image *img, size_t i,
		const fv_options *o, fv_result **res);
/* What format and update make: data, tree, parity; update's old root. */
struct fv_format_request {
	size_t size; /* sizeof(struct fv_format_request) */
	const char *data, *hash; const fv_params *params; uint64_t hash_offset;
	const char *fec_path; uint64_t fec_offset; unsigned fec_roots;
	int sidecar; /* an image with sidecar files */
	const char *root_hex, *root_hash_file;
	uint64_t data_blocks; /* update: the tree's count again (0: not) */
};
/* Builds the tree (and parity), superblock last. Errors: EINVAL,
 * EOVERFLOW, ENOMEM, ENODEV, ENOTBLK, ENOSPC, ENODATA, EIO, EBUSY, EACCES. */
int fv_format(const struct fv_format_request *req, const fv_options *o,
	      fv_result **res);
/* Rewrites what n changed (offset, length) ranges reach (NULL: found).
 * Errors: EPERM (the old tree), EINVAL, fv_verify's. */
int fv_update(const struct fv_format_request *req, const uint64_t *ranges,
	      size_t n, const fv_options *o, fv_result **res);
/* What fv_update did: blocks hashed, written, rounds; one resumed. */
struct fv_update_report {
	size_t size; uint64_t changed_blocks, tree_blocks, parity_rounds;
	int resumed;
};
/* Parity's roots: given, the one size fits, the default, the container's. */
enum fv_roots_from {
	FV_ROOTS_GIVEN = 0, FV_ROOTS_INFERRED = 1, FV_ROOTS_DEFAULT = 2,
	FV_ROOTS_DESCRIBED = 3,
};
/* Where everything sits (docs/format.md; parity: fec_roots 0 none). */
struct fv_layout {
	size_t size; uint64_t data_blocks, data_bytes;
	uint64_t hash_area_start, tree_offset, tree_blocks, hash_end;
	unsigned levels, digest_size, fec_roots;
	enum fv_roots_from fec_roots_from; unsigned fec_rsn;
	int fec_on_hash_device;
	uint64_t fec_offset, fec_blocks, fec_rounds, fec_parity_bytes;
};
/* What parity did; before_*: the first pass, before any repair. */
struct fv_fec_report {
	size_t size; uint64_t bad_blocks, repaired, passes;
	uint64_t stale_codewords, stale_rounds, unchecked_rounds;
	uint64_t parity_rewritten, rewrite_limit; int before_root_matches;
	uint64_t before_bad_data_blocks, before_bad_hash_blocks;
	uint64_t before_bad_padding, before_unreadable;
	uint64_t before_unchecked_data_blocks, before_unchecked_hash_blocks;
};
/* Which of fv_report's structures the action gave (else zeros). */
enum fv_report_has {
	FV_REPORT_LAYOUT = 1u << 0, FV_REPORT_FEC = 1u << 1,
	FV_REPORT_UPDATE = 1u << 2, FV_REPORT_PARAMS = 1u << 3,
};
/* What an action found (strings into the result, never NULL). */
struct fv_report {
	size_t size; /* sizeof(struct fv_report), set by the caller */
	uint8_t root[FV_MAX_DIGEST_SIZE]; size_t root_size;
	const char *root_hex; int intact, root_matches, root_first;
	uint64_t bad_data_blocks, bad_hash_blocks, bad_padding, unreadable;
	uint64_t unchecked_data_blocks, unchecked_hash_blocks;
	uint64_t repaired, unrepaired, stale_codewords; /* with parity */
	const char *hashing_path, *hashing_reason, *hashing_kernel,
		*hashing_provider;
	enum fv_trust trust;
	const char *signer, *signature_warning, *signer_fingerprint;
	unsigned has; /* enum fv_report_has */
	struct fv_layout layout; struct fv_fec_report fec;
	struct fv_update_report update; fv_params params;
};
/* Errors: EINVAL (NULL, size too small). */
int fv_result_report(const fv_result *r, struct fv_report *out);
/* --- disk images (systemd's): strings into the image ----------------- */
/* One GPT partition: 1-based index (0: none), ..., byte offset, bytes. */
struct fv_gpt_partition {
	unsigned index; const char *type, *label, *uuid; uint64_t offset, bytes;
};
struct fv_ddi_pair {
	size_t size; const char *role, *arch, *root_hex; /* "root", "x86-64" */
	int is_signed; const char *fingerprint; /* a signature partition */
	struct fv_gpt_partition data, hash, signature;
};
/* What fv_image_info and fv_image_pair_info fill (strings into img). */
struct fv_image_info {
	size_t size; /* sizeof(struct fv_image_info), set by the caller */
	const char *container; /* "plain", "sidecar", "avb", "ddi", "super" */
	size_t pairs; const fv_avb *avb; /* an Android image's vbmeta; NULL */
	enum fv_trust trust; /* on pair 0 (Android: the vbmeta's) */
	const char *path; /* as opened (a super's partition: IMAGE/NAME) */
};
struct fv_image_pair_info {
	size_t size; /* sizeof(struct fv_image_pair_info), set by the caller */
	const char *name; enum fv_trust trust;
	struct fv_ddi_pair ddi; /* a disk image's partitions (zeros) */
	const char *data, *hash, *fec; /* the files (fec NULL: none) */
	const fv_params *params;
	const char *root_hex, *signature; /* "", NULL: none */
};
/* --- bench: what `fastverity bench` measures -------------------------- */
/* The settings (every combination of the lists), the data (a device;
 * NULL: synthetic; bytes, 0: all), about how long (seconds), the report:
 * bench's table, --json or CSV; or bench's options, name/value pairs. */
enum fv_bench_output { FV_BENCH_TABLE, FV_BENCH_JSON, FV_BENCH_CSV };
struct fv_bench_request {
	size_t size; /* sizeof(struct fv_bench_request) */
	const char *const *hashes; size_t nhashes;
	const unsigned *formats; size_t nformats;
	const uint32_t *data_block_sizes, *hash_block_sizes, *salt_sizes;
	size_t ndata_block_sizes, nhash_block_sizes, nsalt_sizes;
	const char *device; uint64_t bytes; double seconds;
	enum fv_bench_output output;
	const char *const *options; size_t noptions;
};
/* Measures req; the report to fn as items (fv_show's). Errors: EINVAL,
 * ENODEV, ENOTBLK, EIO, ENOMEM; fn's non-zero return, as it is. */
int fv_bench_run(const struct fv_bench_request *req, const fv_options *o,
		 fv_item_fn fn, void *ctx);
/* --- device-mapper (root, the kernel's dm-verity) --------------------- */
/* Now; when its last user closes it; undo an earlier deferred close. */
enum fv_close_how {
	FV_CLOSE_NOW = 0, FV_CLOSE_DEFERRED = 1, FV_CLOSE_CANCEL_DEFERRED = 2,
};
/* Errors: ENODEV (no such device or no device-mapper), EBUSY, EINVAL. */
int fv_close(const char *name, enum fv_close_how how);
typedef struct fv_status fv_status;
/* What fv_status_get read (pointers into its *st). */
struct fv_status_info {
	size_t size; /* sizeof(struct fv_status_info), set by the caller */
	int is_verity, corrupted, open_count; unsigned flags; /* fv_flags */
	const fv_params *params; const char *root_hex;
	const char *data_device, *hash_device, *data_file, *hash_file;
	const char *fec_device, *fec_file; unsigned fec_roots;
	int read_only, is_signed;
	uint64_t size_sectors, hash_start_block, fec_start_block, fec_blocks;
	const char *flag_name[FV_NFLAGS]; /* the kernel's word for 1u << i */
	int64_t fec_repaired; /* blocks parity corrected (-1: kernel says not) */
};
/* name's table and status into *st, what they say into *info (or NULL).
 * Errors: ENODEV (not active), ENOSYS (no dm), EINVAL, ENOMEM. */
int fv_status_get(const char *name, fv_status **st,
		  struct fv_status_info *info);
void fv_status_free(fv_status *st);
/* --- fs-verity (docs/fsverity.md) ------------------------------------- */
/* A file's fs-verity digest, as `fsverity digest` prints it. */
typedef struct fv_fsverity_digest fv_fsverity_digest;
/* A tree's parameters (NULL, zeros: SHA-256, 4096-byte blocks, no salt). */
struct fv_fsverity_params {
	size_t size; /* sizeof(struct fv_fsverity_params), set by the caller */
	const char *hash;    /* "sha256" or "sha512"; NULL: sha256 */
	uint32_t block_size; /* 2^n, 1024 to 65536; 0: 4096 */
	const uint8_t *salt; size_t salt_len; /* at most 32 bytes */
};
/* Fills buf with the next count bytes; 0 or a negative errno. */
typedef int (*fv_read_fn)(void *ctx, void *buf, size_t count);
/* Keep each file's tree (for fv_fsverity_digest_info). */
enum fv_fsverity_flags { FV_FSVERITY_KEEP_TREE = 1u << 0 };
/* One file: path, or read_size bytes from read; its tree to tree_path. */
struct fv_fsverity_request {
	size_t size; /* sizeof(struct fv_fsverity_request), set by the caller */
	const struct fv_fsverity_params *params; /* NULL: the defaults */
	const char *path; fv_read_fn read; void *read_ctx; uint64_t read_size;
	const char *name, *tree_path;
	unsigned flags; /* enum fv_fsverity_flags */
};
/* One file's digest (fv_fsverity_digest_free). Errors: ENODEV, EISDIR,
 * EINVAL, EIO, ENOMEM, and a tree file's (fv_file FV_FILE_WRITE). */
int fv_fsverity_compute(const struct fv_fsverity_request *req,
			const fv_options *o, fv_fsverity_digest **out);
/* n files at once into out[i]; *failed: the first that failed (n 0: p
 * checked alone). Errors: fv_fsverity_compute's. */
int fv_fsverity_compute_files(const struct fv_fsverity_params *p,
			      const char *const *paths, size_t n,
			      const fv_options *o, unsigned flags,
			      fv_fsverity_digest **out, size_t *failed);
void fv_fsverity_digest_free(fv_fsverity_digest *d);
/* A digest and what it is made of (pointers into d). */
struct fv_fsverity_info {
	size_t size; /* sizeof(struct fv_fsverity_info), set by the caller */
	const char *hash; const uint8_t *digest; size_t digest_len;
	const char *digest_hex; const uint8_t *root, *descriptor, *tree;
	uint64_t tree_len, file_size;
	const uint8_t *signed_digest; size_t signed_digest_len;
};
/* Errors: EINVAL (d or info NULL, size too small). */
int fv_fsverity_digest_info(const fv_fsverity_digest *d,
			    struct fv_fsverity_info *info);
/* What fv_fsverity_read_metadata reads. */
enum fv_fsverity_metadata {
	FV_FSVERITY_MERKLE_TREE = 1, FV_FSVERITY_DESCRIPTOR = 2,
	FV_FSVERITY_SIGNATURE = 3,
};
/* FS_IOC_READ_VERITY_METADATA: length bytes (0: all) from offset, to out
 * a piece at a time (non-zero: stop, returned). Errors: as measure's. */
typedef int (*fv_write_fn)(void *ctx, const void *buf, size_t n);
int fv_fsverity_read_metadata(const char *path, enum fv_fsverity_metadata type,
			      uint64_t offset, uint64_t length, fv_write_fn out,
			      void *ctx);

#ifdef __cplusplus
}
#endif
#endif
