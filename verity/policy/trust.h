/* The trust policy: one function, one table (docs/trust.md), asked by
 * every container and every action, the command's and the library's.
 * It decides from four facts what is trusted: the container (which says
 * what kind of anchor checks its signature: an Android vbmeta a public
 * key, every other container a trusted certificate), whether a signature
 * is there, which trust anchor the caller gave, and whether the action
 * writes. It never reads an image and never checks a signature: it says
 * whether one must be checked, may go unchecked, or whether the request
 * is refused, and in which words. */
#ifndef FV_TRUST_H
#define FV_TRUST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "verity/policy/kinds.h"

enum verity_anchor {
	VERITY_ANCHOR_NONE, /* nothing given to check a signer against */
	VERITY_ANCHOR_CERT, /* trusted certificates (PKCS#7 signatures) */
	VERITY_ANCHOR_KEY,  /* a public key (Android vbmeta) */
};

enum verity_trust {
	VERITY_TRUST_UNSIGNED,  /* no signature, no anchor: the root as the
				 * image states it, said to be unsigned */
	VERITY_TRUST_CHECK,     /* the signature must hold against the
				 * anchor before anything is read */
	VERITY_TRUST_UNCHECKED, /* signed, no anchor, reading only: the
				 * blocks checked against the stated root,
				 * and said: the signer was not checked */
};

/* Where a signature comes from. */
enum verity_signature_from {
	VERITY_SIGNATURE_NONE,  /* there is none */
	VERITY_SIGNATURE_FOUND, /* the container carries it (a vbmeta, a
				 * -verity-sig partition, IMAGE.roothash.p7s) */
	VERITY_SIGNATURE_GIVEN, /* the caller named it to be checked */
};

struct verity_trust_ask {
	enum verity_container container;
	const char *image; /* names the image in the words */
	enum verity_signature_from signature;
	enum verity_anchor anchor;
	int writes; /* repair (not a dry run), a writer on an existing
		     * image */
	int activates; /* open: the kernel gets the signature, and its
			* keyring checks it (reading otherwise) */
};

/* The anchor that checks a container's signatures. */
enum verity_anchor verity_trust_anchor_of(enum verity_container c);

/* The verdict for ask. Refusals, with their message: an anchor of the
 * wrong kind for the container (-EINVAL, the fix the right anchor), an
 * anchor given for an image with no signature (-EPERM: nothing proves
 * who made it), a signature given to be checked with nothing to check
 * it against, and a write to a signed image whose signer is not checked
 * (-EINVAL, the fix the anchor). */
int verity_trust_decide(const struct verity_trust_ask *ask,
			enum verity_trust *verdict, struct ht_error *err);

/* "unsigned", "checked", "not checked": the verdict in text and JSON. */
const char *verity_trust_name(enum verity_trust t);

#endif
