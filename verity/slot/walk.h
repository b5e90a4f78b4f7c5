/* Android firmware sets walked once (docs/android.md, "Firmware sets"):
 * libavb's avb_slot_verify's walk. The top vbmeta judged against the
 * key given (by the door: the trust policy is asked there, through
 * ask->judge), each chain partition descriptor followed once into its
 * partition's image with the key it pins, each hash and hashtree
 * descriptor's partition checked once, every step recorded in the
 * order walked. A super image is walked as the device maps it: the
 * metadata copy and slot liblp reads, each logical partition of the
 * slot judged by its own footer. */
#ifndef FV_SLOT_WALK_H
#define FV_SLOT_WALK_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/android/android.h"
#include "verity/policy/trust.h"
#include "verity/tree/pair.h"

/* Check (else read); follow the top's chains, nested ones; compare with
 * the expected; stop at the first failure; skip a zeroed tree. */
enum slot_flag {
	SLOT_CHECK = 1u << 0,
	SLOT_FOLLOW = 1u << 1,
	SLOT_FOLLOW_NESTED = 1u << 2,
	SLOT_EXPECTED = 1u << 3,
	SLOT_STOP = 1u << 4,
	SLOT_ACCEPT_ZEROED = 1u << 5,
};

enum slot_kind {
	SLOT_VBMETA = 1,
	SLOT_HASH = 2,
	SLOT_HASHTREE = 3,
	SLOT_CHAIN = 4,
	SLOT_CMDLINE = 5,
	SLOT_PARTITION = 6,
};

enum slot_result {
	SLOT_OK = 0,
	SLOT_BAD = 1,
	SLOT_REFUSED = 2,
	SLOT_MISSING = 3,
	SLOT_SKIPPED = 4,
	SLOT_ERROR = 5,
};

enum slot_why {
	SLOT_WHY_NONE = 0,
	SLOT_WHY_SIGNATURE,
	SLOT_WHY_POLICY,
	SLOT_WHY_OTHER_KEY,
	SLOT_WHY_PINNED_KEY,
	SLOT_WHY_UNSIGNED_PIN,
	SLOT_WHY_NESTED,
	SLOT_WHY_NOT_EXPECTED,
	SLOT_WHY_LOCATION,
	SLOT_WHY_KEY_BLOB,
	SLOT_WHY_DIGEST,
	SLOT_WHY_BLOCKS,
	SLOT_WHY_TREE,
	SLOT_WHY_PARITY,
	SLOT_WHY_ZEROED,
	SLOT_WHY_VISITED,
	SLOT_WHY_EMPTY,
	SLOT_WHY_NO_FOOTER,
	SLOT_WHY_LIMIT,
	SLOT_WHY_DESCRIPTORS,
};

/* A chain partition descriptor's expected contents. */
struct slot_expected {
	const char *name;
	unsigned rollback_index_location;
	const uint8_t *public_key; /* an AVB key blob */
	size_t public_key_len;
};

/* One step of the walk. */
struct slot_step {
	enum slot_kind kind;
	enum slot_result result;
	enum slot_why why;
	int error;     /* the -errno, if not OK */
	char *message; /* why, one line naming the file; NULL for none */
	unsigned depth;
	size_t parent; /* SIZE_MAX: none */
	char *name, *path, *signer;
	const struct verity_android *avb; /* the vbmeta it belongs to */
	size_t descriptor;                /* SIZE_MAX: none */
	enum verity_trust trust;          /* a vbmeta step's */
	int expected, followed;           /* a chain step */
	uint64_t bytes;                   /* a logical partition's */
	unsigned extents;
	size_t partition;           /* SIZE_MAX: none */
	struct verity_android *own; /* a vbmeta step's reading, owned */
	/* a hashtree step's verify: checked, its outcome (trust: the
	 * vbmeta's verdict for an image's own pair) and the root checked */
	int checked;
	struct verity_outcome out;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t root_size;
};

/* A partition checked, or a chained one visited: each once a walk. */
struct slot_seen {
	char *name;
	const struct avb_descriptor *d; /* NULL: a chained vbmeta */
};

struct slot_walk {
	struct slot_step *steps;
	size_t n, cap;
	char **notes;
	size_t nnotes;
	struct verity_android_super *super; /* a super image's metadata */
	char slot[2];                       /* "a", "b" or "" */
	struct slot_seen *seen;
	size_t nseen;
	size_t vbmetas, checked;
};

/* What the top vbmeta was judged (ask->judge). */
enum slot_judged {
	SLOT_JUDGED, /* 0: a->trust says what is trusted */
	SLOT_REFUSED_BY_POLICY,
	SLOT_OTHER_KEY, /* signed, by another key than the one given */
};

/* How a walk is asked. */
struct slot_ask {
	const char *image; /* the set's top image */
	const char *kind;  /* its container: "super", "avb" (else refused) */
	const char *key;   /* the top signer's key's file (NULL: none) */
	const uint8_t *key_blob; /* its AVB public key blob, read */
	size_t key_len;
	int certs;        /* trusted certificates given (the wrong anchor) */
	const char *slot; /* "a", "b" or NULL */
	const char *const *partitions; /* a super image's, to check */
	size_t npartitions;
	const char *const *device_names, *const *device_files;
	size_t ndevices;
	const struct slot_expected *expected;
	size_t nexpected;
	unsigned flags;               /* enum slot_flag */
	unsigned threads;             /* 0: the default */
	const struct verity_run *run; /* a hashtree's verify's */
	/* The top vbmeta a judged for anchor (the door asks the policy):
	 * 0, or the refusal in err and *why. */
	int (*judge)(void *ctx, struct verity_android *a,
		     enum verity_anchor anchor, const char *key_path,
		     const uint8_t *key, size_t len, enum slot_judged *why,
		     struct ht_error *err);
	/* Step i begins (done 0) or ends (done 1). */
	void (*told)(void *ctx, const struct slot_walk *w, size_t i, int done);
	void *ctx;
};

/* Walks ask's set into w (zeroed by the caller; slot_walk_free also on
 * error): 0 whatever the steps found, else the walk's error. */
int verity_slot_walk(struct slot_walk *w, const struct slot_ask *ask,
		     struct ht_error *err);
void verity_slot_walk_free(struct slot_walk *w);

#endif
