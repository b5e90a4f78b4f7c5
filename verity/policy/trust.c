/* The trust policy (verity/policy/trust.h; the table in docs/trust.md). */
#include "verity/policy/trust.h"

#include <errno.h>

enum anchor_state { NO_ANCHOR, RIGHT_ANCHOR, WRONG_ANCHOR };

/* One row a case: where the signature comes from, the anchor given,
 * reading, writing or opening (the kernel checks what it is handed). errnum 0: the verdict; otherwise the refusal, in
 * words whose %s are the image, the container's words and the
 * anchor's. */
#define UNSIGNED_ANCHOR                                                      \
	"%s: %s that is not signed, and %s was given to check its signer: " \
	"nothing proves who made it"
#define WRONG_UNSIGNED "%s: %s is not signed, and %s does not apply to it"
#define WRONG_SIGNED   "%s: %s is signed, and %s cannot check its signer"
#define GIVEN_NO_ANCHOR                                                      \
	"%s: a signature to check, and nothing to check it against: its "  \
	"signer is trusted only once checked"
#define WRITE_UNCHECKED                                                      \
	"%s: %s that is signed, and nothing was given to check its signer: " \
	"nothing is written on the word of an unchecked root"

static const struct rule {
	enum verity_trust verdict;
	int errnum;
	const char *words;
} table[3][3][3] = {
	[VERITY_SIGNATURE_NONE] = {
		[NO_ANCHOR] = {{VERITY_TRUST_UNSIGNED, 0, NULL},
			       {VERITY_TRUST_UNSIGNED, 0, NULL},
			       {VERITY_TRUST_UNSIGNED, 0, NULL}},
		[RIGHT_ANCHOR] = {{0, EPERM, UNSIGNED_ANCHOR},
				  {0, EPERM, UNSIGNED_ANCHOR},
				  {0, EPERM, UNSIGNED_ANCHOR}},
		[WRONG_ANCHOR] = {{0, EINVAL, WRONG_UNSIGNED},
				  {0, EINVAL, WRONG_UNSIGNED},
				  {0, EINVAL, WRONG_UNSIGNED}},
	},
	[VERITY_SIGNATURE_FOUND] = {
		[NO_ANCHOR] = {{VERITY_TRUST_UNCHECKED, 0, NULL},
			       {0, EINVAL, WRITE_UNCHECKED},
			       {VERITY_TRUST_UNCHECKED, 0, NULL}},
		[RIGHT_ANCHOR] = {{VERITY_TRUST_CHECK, 0, NULL},
				  {VERITY_TRUST_CHECK, 0, NULL},
				  {VERITY_TRUST_CHECK, 0, NULL}},
		[WRONG_ANCHOR] = {{0, EINVAL, WRONG_SIGNED},
				  {0, EINVAL, WRONG_SIGNED},
				  {0, EINVAL, WRONG_SIGNED}},
	},
	[VERITY_SIGNATURE_GIVEN] = {
		[NO_ANCHOR] = {{0, EINVAL, GIVEN_NO_ANCHOR},
			       {0, EINVAL, GIVEN_NO_ANCHOR},
			       {VERITY_TRUST_UNCHECKED, 0, NULL}},
		[RIGHT_ANCHOR] = {{VERITY_TRUST_CHECK, 0, NULL},
				  {VERITY_TRUST_CHECK, 0, NULL},
				  {VERITY_TRUST_CHECK, 0, NULL}},
		[WRONG_ANCHOR] = {{0, EINVAL, WRONG_SIGNED},
				  {0, EINVAL, WRONG_SIGNED},
				  {0, EINVAL, WRONG_SIGNED}},
	},
};

enum verity_anchor verity_trust_anchor_of(enum verity_container c)
{
	return c == VERITY_CONTAINER_AVB || c == VERITY_CONTAINER_SUPER
		       ? VERITY_ANCHOR_KEY
		       : VERITY_ANCHOR_CERT;
}

static const char *anchor_words(enum verity_anchor a)
{
	return a == VERITY_ANCHOR_KEY ? "a public key" : "a trusted certificate";
}

int verity_trust_decide(const struct verity_trust_ask *ask,
			enum verity_trust *verdict, struct ht_error *err)
{
	enum verity_anchor right = verity_trust_anchor_of(ask->container);
	enum anchor_state st = ask->anchor == VERITY_ANCHOR_NONE ? NO_ANCHOR
			       : ask->anchor == right		 ? RIGHT_ANCHOR
								 : WRONG_ANCHOR;

	const char *image = ask->image ? ask->image : "image";
	const char *what = verity_container_words(ask->container);
	enum ht_param fix = right == VERITY_ANCHOR_KEY ? HT_PARAM_TRUSTED_KEY
						       : HT_PARAM_TRUSTED_CERT;
	const struct rule *r;

	if ((unsigned)ask->signature > VERITY_SIGNATURE_GIVEN)
		return ht_fail(err, EINVAL, "no such signature source");
	r = &table[ask->signature][st][ask->writes ? 1 : ask->activates ? 2 : 0];
	if (!r->errnum) {
		*verdict = r->verdict;
		return 0;
	}
	if (st == NO_ANCHOR || st == WRONG_ANCHOR)
		/* the fix: the anchor this container takes */
		return ht_fail_fix(err, r->errnum, fix, 0, 0, "give %0", r->words,
				   image, what, anchor_words(ask->anchor));
	return ht_fail(err, r->errnum, r->words, image, what,
		       anchor_words(ask->anchor));
}

const char *verity_trust_name(enum verity_trust t)
{
	return t == VERITY_TRUST_CHECK	   ? "checked"
	       : t == VERITY_TRUST_UNCHECKED ? "not checked"
					     : "unsigned";
}
