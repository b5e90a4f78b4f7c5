/* The public library: Android firmware sets walked once
 * (include/fastverity.h, "Android firmware sets: one walk";
 * docs/android.md, "Firmware sets").
 *
 * The walk is libavb's avb_slot_verify's: the top vbmeta judged against
 * the key given, each chain partition descriptor followed once into its
 * partition's image with the key it pins, each hash and hashtree
 * descriptor's partition checked once, every step recorded in the order
 * walked. A super image is walked as the device maps it: the metadata
 * copy and slot liblp reads, each logical partition of the slot judged
 * by its own footer. Every reader of a set (verify, avbtool's
 * verify_image, print_partition_digests, calculate_kernel_cmdline)
 * reads this one result, so they cannot disagree on what a set is. */
#include "verity/api/internal.h"

/* libavb's bound on the vbmeta images of one slot
 * (MAX_NUMBER_OF_VBMETA_IMAGES); a set's checked partitions, and its
 * steps (a super image of 65,536 partitions is far past any device's) */
#define SLOT_MAX_VBMETA  32
#define SLOT_MAX_CHECKED 128
#define SLOT_MAX_STEPS   65536

struct step {
	struct fv_slot_step pub; /* its strings point below */
	char *name, *path, *message, *signer;
	fv_avb *avb; /* a vbmeta step's own */
	fv_result *res;
};

/* A partition checked, or a chained one visited: each once a walk. */
struct seen {
	char *name;
	const struct avb_descriptor *d; /* NULL: a chained vbmeta */
};

struct fv_slot {
	struct step *steps;
	size_t n, cap;
	char **notes;
	size_t nnotes;
	fv_super *super;
	char slot[2];
	struct seen *seen;
	size_t nseen;
	size_t vbmetas, checked;
};

struct walk {
	fv_slot *s;
	const struct fv_slot_request *req;
	const fv_options *o;
	fv_slot_fn fn;
	void *ctx;
	uint8_t *key; /* the top vbmeta's anchor, as a public key blob */
	size_t key_len;
	uint32_t slot; /* the metadata slot: 0 for a, 1 for b */
	int stop;      /* no step after this one */
};

/* ---- the result ---- */

static int note(fv_slot *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int note(fv_slot *s, const char *fmt, ...)
{
	char **v, *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return verity_api_fail(ENOMEM, "out of memory");
	if (!(v = realloc(s->notes, (s->nnotes + 1) * sizeof(*v)))) {
		free(text);
		return verity_api_fail(ENOMEM, "out of memory");
	}
	s->notes = v;
	s->notes[s->nnotes++] = text;
	return 0;
}

/* A new step (its beginning told); *at its index. The name is shown
 * safely (bytes escaped), whatever the metadata holds. */
static int step_add(struct walk *w, enum fv_slot_kind kind, size_t parent,
		    unsigned depth, const void *name, size_t name_len,
		    const char *path, size_t *at)
{
	fv_slot *s = w->s;
	char shown[HT_NAME_SHOWN_MAX];
	struct step *st;

	if (s->n == SLOT_MAX_STEPS)
		return verity_api_fail(EINVAL,
				       "%s: more than %d steps in one firmware "
				       "set: not walked further",
				       w->req->image, SLOT_MAX_STEPS);
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct step *v = realloc(s->steps, cap * sizeof(*v));

		if (!v)
			return verity_api_fail(ENOMEM, "out of memory");
		s->steps = v;
		s->cap = cap;
	}
	st = &s->steps[s->n];
	memset(st, 0, sizeof(*st));
	ht_name_shown(name ? name : "", name ? name_len : 0, shown,
		      sizeof(shown));
	if (!(st->name = strdup(shown)) || !(st->path = strdup(path))) {
		free(st->name);
		return verity_api_fail(ENOMEM, "out of memory");
	}
	st->pub.kind = kind;
	st->pub.parent = parent;
	st->pub.depth = depth;
	st->pub.descriptor = SIZE_MAX;
	st->pub.partition = SIZE_MAX;
	*at = s->n++;
	if (w->fn)
		w->fn(w->ctx, s, *at, 0);
	return 0;
}

/* Step i ends with result (msg: why, one line; NULL for none). */
static int step_end(struct walk *w, size_t i, enum fv_slot_result result,
		    enum fv_slot_why why, int error, const char *msg)
{
	struct step *st = &w->s->steps[i];

	st->pub.result = result;
	st->pub.why = why;
	st->pub.error = error;
	if (msg && !(st->message = strdup(msg)))
		return verity_api_fail(ENOMEM, "out of memory");
	/* STOP: the first step that does not hold ends the walk */
	if ((w->req->flags & FV_SLOT_STOP) && result != FV_SLOT_OK &&
	    result != FV_SLOT_SKIPPED)
		w->stop = 1;
	if (w->fn)
		w->fn(w->ctx, w->s, i, 1);
	return 0;
}

/* A step refused or failed, told to the walk: 1, or < 0 when it could
 * not even be recorded. */
static int ended(int r)
{
	return r < 0 ? r : 1;
}

/* The step ends with the library's last error as its message. */
static int step_fail(struct walk *w, size_t i, enum fv_slot_result result,
		     enum fv_slot_why why, int r)
{
	return step_end(w, i, result, why, r, ht_msg(&verity_api_last));
}

__attribute__((format(printf, 6, 7))) static int
step_say(struct walk *w, size_t i, enum fv_slot_result result,
	 enum fv_slot_why why, int error, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return step_end(w, i, result, why, error, msg);
}

/* Whether partition name (a descriptor d, or NULL: a chained vbmeta)
 * was walked already: 1 for the same descriptor (or chain), -1 for
 * another descriptor of it, 0 for none (then remembered). */
static int seen_before(fv_slot *s, const char *name,
		       const struct avb_descriptor *d, int *err)
{
	struct seen *v;

	*err = 0;
	for (size_t k = 0; k < s->nseen; k++) {
		const struct seen *e = &s->seen[k];

		if ((!e->d) != (!d) || strcmp(e->name, name))
			continue;
		if (!d)
			return 1;
		return e->d->raw_size == d->raw_size &&
				       !memcmp(e->d->raw, d->raw, d->raw_size)
			       ? 1
			       : -1;
	}
	if (!(v = realloc(s->seen, (s->nseen + 1) * sizeof(*v))) ||
	    !((s->seen = v)[s->nseen].name = strdup(name))) {
		*err = verity_api_fail(ENOMEM, "out of memory");
		return 0;
	}
	s->seen[s->nseen++].d = d;
	return 0;
}

/* ---- a vbmeta judged ---- */

/* The vbmeta of step i judged: its signature, then the key the walk
 * was given (pin NULL: the top one) or the one chain descriptor pin
 * pins. 0 with the step ended OK, 1 with it ended refused, < 0. */
static int judge(struct walk *w, size_t i, fv_avb *a,
		 const struct avb_descriptor *pin, const char *pinner,
		 enum fv_trust pinner_trust)
{
	struct step *st = &w->s->steps[i];
	const struct avb_vbmeta *v = &a->in.img.vbmeta;
	const char *alg = verity_avb_algorithm(v->h.algorithm)->name;
	enum avb_judgement why;
	struct ht_error err;
	int r;

	/* its own signature, against the key it carries */
	if ((r = verity_avb_vbmeta_check(v, a->in.path, &err))) {
		verity_api_keep(r, &err);
		if (r == -ENOSYS) /* no libcrypto: nothing was checked */
			return ended(step_fail(w, i, FV_SLOT_ERROR,
					       FV_SLOT_WHY_NONE, r));
		return ended(step_say(
			w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_SIGNATURE, r,
			"%s: the vbmeta's signature (%s) does not "
			"hold: %s",
			a->in.path, alg, ht_msg(&err)));
	}
	a->in.shown = 0;
	if (pin) {
		char *signer = strdup(pinner);

		if (!signer)
			return verity_api_fail(ENOMEM, "out of memory");
		free(st->signer);
		st->signer = signer;
		if (v->h.algorithm == AVB_ALG_NONE)
			return ended(
				step_say(w, i, FV_SLOT_REFUSED,
					 FV_SLOT_WHY_UNSIGNED_PIN, -EPERM,
					 "%s: the vbmeta of chained partition "
					 "%s is not signed, and %s pins a key: "
					 "nothing proves who made it",
					 a->in.path, st->name, pinner));
		/* the key its chain descriptor pins: no anchor of the
		 * caller's, the policy not asked (vouched for as far as the
		 * pinner is) */
		if (!verity_avb_vbmeta_has_key(v, pin->chain.public_key,
					       pin->chain.public_key_len)) {
			struct fv_avb_chain_partition c = {.size = sizeof(c)};
			struct avb_vbmeta key_only;

			r = verity_api_fail(EPERM,
					    "%s: the vbmeta is signed by "
					    "another key",
					    a->in.path);
			memset(&key_only, 0, sizeof(key_only));
			key_only.public_key = pin->chain.public_key;
			key_only.h.public_key_size = pin->chain.public_key_len;
			verity_api_key_sha1(&key_only, c.public_key_sha1);
			return ended(step_say(
				w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_PINNED_KEY,
				r,
				"%s: signed by another key (sha1 %s) "
				"than the one %s pins for %s (sha1 %s)",
				a->in.path, a->in.key_sha1, pinner, st->name,
				c.public_key_sha1));
		}
		a->in.trust = VERITY_TRUST_CHECK;
		/* vouched for as far as the key that pins it is */
		st->pub.trust = pinner_trust == FV_TRUST_CHECK
					? FV_TRUST_CHECK
					: FV_TRUST_UNCHECKED;
		return step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL);
	}
	/* the top one: the policy asked for the walk's anchor (trusted
	 * certificates in the options: the wrong kind, refused) */
	if ((r = verity_api_avb_verdict(
		     a,
		     w->key		      ? VERITY_ANCHOR_KEY
		     : w->o->ntrusted_certs ? VERITY_ANCHOR_CERT
					    : VERITY_ANCHOR_NONE,
		     w->req->key, w->key, w->key_len, 0, &why))) {
		if (why == AVB_OTHER_KEY)
			return ended(step_say(
				w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_OTHER_KEY, r,
				"%s: the vbmeta is signed by another "
				"key (public key sha1 %s), not by %s",
				a->in.path, a->in.key_sha1, w->req->key));
		return ended(step_fail(w, i, FV_SLOT_REFUSED,
				       FV_SLOT_WHY_POLICY, r));
	}
	st->pub.trust = (enum fv_trust)a->in.trust;
	if (a->in.trust == VERITY_TRUST_CHECK &&
	    !(st->signer = strdup(w->req->key)))
		return verity_api_fail(ENOMEM, "out of memory");
	return step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL);
}

/* ---- descriptors ---- */

/* The image descriptor d of a describes (the image itself for its own
 * partition's, else a file beside it or the slot's partition of a
 * super.img beside it): *path, or the step's error. */
static int described(struct walk *w, const fv_avb *a,
		     const struct avb_descriptor *d, char **path)
{
	struct ht_error err;

	return verity_api_keep(
		verity_avb_described_image(&a->in.img, d, w->slot, path, &err),
		&err);
}

/* The image a step reads, as a's own bytes when it is a's image (a
 * logical partition read through its super image's extents). */
static const struct verity_extents *own_src(const fv_avb *a, const char *path)
{
	return a->in.src && !strcmp(path, a->in.path) ? a->in.src : NULL;
}

/* A hash descriptor's partition: its digest over the image. */
static int check_hash(struct walk *w, size_t i, const fv_avb *a,
		      const struct avb_descriptor *d)
{
	const char *path = w->s->steps[i].path;
	struct ht_error err;
	int r = verity_avb_hash_check(path, own_src(a, path), d, &err);

	if (!r)
		return step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL);
	verity_api_keep(r, &err);
	if (r == -ENODEV)
		return step_say(w, i, FV_SLOT_MISSING, FV_SLOT_WHY_NONE, r,
				"%s: missing (no such file, and no super.img "
				"beside holding it)",
				path);
	if (r == -EPERM)
		return step_fail(w, i, FV_SLOT_BAD, FV_SLOT_WHY_DIGEST, r);
	return step_fail(w, i, FV_SLOT_ERROR, FV_SLOT_WHY_NONE, r);
}

/* Whether the data of hashtree descriptor d (over path) makes the root
 * it states: 1 yes, 0 no (or cannot tell). */
static int data_makes_root(struct walk *w, const struct avb_descriptor *d,
			   const char *path)
{
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t len = 0;

	return d->hashtree.p.digest_len &&
	       !verity_avb_data_root(path, d, w->o->threads, root, &len,
				     NULL) &&
	       len == d->hashtree.p.digest_len &&
	       !memcmp(root, d->hashtree.p.digest, len);
}

/* A hashtree descriptor's partition: every block, then the parity
 * against the verified data. pair: the image's own pair (a logical
 * partition's footer), else made from the descriptor over the path. */
static int check_tree(struct walk *w, size_t i, const fv_avb *a, size_t desc,
		      const struct avb_descriptor *d, const fv_pair *own)
{
	struct step *st = &w->s->steps[i];
	const char *path = st->path;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	fv_pair *pr = NULL;
	fv_result *res = NULL;
	struct ht_error err;
	size_t rl = 0;
	int r, zeroed = 0;

	if ((w->req->flags & FV_SLOT_ACCEPT_ZEROED) &&
	    (zeroed = verity_avb_tree_zeroed(path, d, &err)) < 0) {
		verity_api_keep(zeroed, &err);
		return step_fail(w, i,
				 zeroed == -ENODEV ? FV_SLOT_MISSING
						   : FV_SLOT_ERROR,
				 FV_SLOT_WHY_NONE, zeroed);
	}
	/* the data's own root: where the descriptor keeps none (a
	 * persistent digest) the tree is checked against it; a zeroed
	 * tree is skipped, its data still checked against the root */
	if ((zeroed || !d->hashtree.p.digest_len) &&
	    (r = verity_avb_data_root(path, d, w->o->threads, root, &rl,
				      &err))) {
		verity_api_keep(r, &err);
		return step_fail(w, i,
				 r == -ENODEV ? FV_SLOT_MISSING : FV_SLOT_ERROR,
				 FV_SLOT_WHY_NONE, r);
	}
	if (zeroed) {
		st->pub.why = FV_SLOT_WHY_ZEROED;
		if (d->hashtree.p.digest_len &&
		    (rl != d->hashtree.p.digest_len ||
		     memcmp(root, d->hashtree.p.digest, rl)))
			return step_say(w, i, FV_SLOT_BAD, FV_SLOT_WHY_BLOCKS,
					-EPERM,
					"%s: the tree is zeroed and the data "
					"does not make the descriptor's root",
					path);
		return step_say(w, i, FV_SLOT_SKIPPED, FV_SLOT_WHY_ZEROED, 0,
				"%s: the tree is zeroed: skipped, the data "
				"makes the descriptor's root",
				path);
	}
	/* the image's own pair (a logical partition's, over its extents),
	 * else one made of the descriptor over the path */
	r = own ? 0 : verity_api_avb_descriptor_pair(a, desc, path, &pr);
	if (!r && !own && !d->hashtree.p.digest_len)
		r = verity_api_pair_set_root(pr, root, rl);
	if (!r)
		r = verity_api_pair_verify(own ? own : pr, w->o, &res);
	if (r) {
		verity_api_pair_free(pr);
		return step_fail(w, i,
				 r == -ENODEV ? FV_SLOT_MISSING : FV_SLOT_ERROR,
				 FV_SLOT_WHY_NONE, r);
	}
	st->res = res;
	st->pub.result_of = res;
	if (res->res.bad_data_blocks || res->res.bad_hash_blocks ||
	    res->res.bad_padding || res->res.unreadable_blocks ||
	    !res->res.root_matches) {
		/* whose fault: the data making the descriptor's root says
		 * the tree (or a zeroed one) is wrong, not the data */
		int tree = !d->hashtree.p.digest_len ||
			   data_makes_root(w, d, path);

		verity_api_pair_free(pr);
		return step_say(w, i, FV_SLOT_BAD,
				tree ? FV_SLOT_WHY_TREE : FV_SLOT_WHY_BLOCKS,
				-EPERM,
				tree ? "%s: the data is intact and the tree "
				       "does not hold"
				     : "%s: the data does not match the "
				       "descriptor's root",
				path);
	}
	if (res->has_fec && res->fec.stale_codewords) {
		verity_api_pair_free(pr);
		return step_say(w, i, FV_SLOT_BAD, FV_SLOT_WHY_PARITY, -EPERM,
				"%s: parity: %llu codewords in %llu rounds "
				"disagree with the verified data",
				path,
				(unsigned long long)res->fec.stale_codewords,
				(unsigned long long)res->fec.stale_rounds);
	}
	if (d->hashtree.fec_num_roots && !(own ? own : pr)->fec &&
	    (r = note(w->s,
		      "%s: the parity uses 4096-byte blocks and the tree "
		      "%u-byte blocks: the kernel cannot use it (not checked)",
		      path, d->hashtree.data_block_size))) {
		verity_api_pair_free(pr);
		return r;
	}
	verity_api_pair_free(pr);
	return step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL);
}

/* A hash or hashtree descriptor's step: its partition checked once a
 * walk (with FV_SLOT_CHECK), else only read. own: the descriptor is a
 * super image's logical partition's own (over its extents), each
 * partition checked once by the metadata's rules already. */
static int partition_step(struct walk *w, size_t vstep, const fv_avb *a,
			  size_t k, unsigned depth, const fv_pair *own,
			  int in_super)
{
	const struct avb_descriptor *d = &a->in.img.vbmeta.desc[k];
	const int tree = d->tag == AVB_TAG_HASHTREE;
	char *path = NULL;
	uint32_t nl;
	const uint8_t *name = verity_avb_desc_name(d, &nl);
	size_t i;
	int r, again = 0, e = 0;

	if ((r = described(w, a, d, &path)))
		path = NULL;
	if ((e = step_add(w, tree ? FV_SLOT_HASHTREE : FV_SLOT_HASH, vstep,
			  depth, name, nl, path ? path : a->in.path, &i))) {
		free(path);
		return e;
	}
	free(path);
	w->s->steps[i].pub.avb = a;
	w->s->steps[i].pub.descriptor = k;
	if (r)
		return step_fail(w, i, FV_SLOT_ERROR, FV_SLOT_WHY_NONE, r);
	if (!(w->req->flags & FV_SLOT_CHECK))
		return step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL);
	/* each partition's data once: the same descriptor again is
	 * checked already, another of the same partition is checked too
	 * (both must hold) */
	if (!in_super &&
	    (again = seen_before(w->s, w->s->steps[i].name, d, &e)) > 0)
		return step_say(w, i, FV_SLOT_SKIPPED, FV_SLOT_WHY_VISITED, 0,
				"%s: checked already in this set",
				w->s->steps[i].path);
	if (e)
		return e;
	if (++w->s->checked > SLOT_MAX_CHECKED) {
		w->stop = 1;
		return step_say(w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_LIMIT,
				-EINVAL,
				"%s: more than %d partitions to check in one "
				"set: not walked further",
				w->req->image, SLOT_MAX_CHECKED);
	}
	return tree ? check_tree(w, i, a, k, d, own) : check_hash(w, i, a, d);
}

static int visit(struct walk *w, const char *path,
		 const struct avb_descriptor *pin, size_t from, unsigned depth);

/* The expected contents of chain d (FV_SLOT_EXPECTED): 1 and *e when
 * some are given. */
static int expected_of(const struct walk *w, const struct avb_descriptor *d,
		       const struct fv_slot_expected **e)
{
	for (size_t k = 0; k < w->req->nexpected; k++) {
		const struct fv_slot_expected *x = &w->req->expected[k];

		if (x->name && strlen(x->name) == d->chain.name_len &&
		    !memcmp(x->name, d->chain.name, d->chain.name_len)) {
			*e = x;
			return 1;
		}
	}
	return 0;
}

/* A chain partition descriptor: compared with what is expected, then
 * followed (each chained partition once a walk). */
static int chain_step(struct walk *w, size_t vstep, const fv_avb *a, size_t k,
		      unsigned depth)
{
	const struct avb_descriptor *d = &a->in.img.vbmeta.desc[k];
	const unsigned flags = w->req->flags;
	const int follow = (flags & FV_SLOT_FOLLOW) &&
			   (!depth || (flags & FV_SLOT_FOLLOW_NESTED));
	const struct fv_slot_expected *x = NULL;
	char *path = NULL;
	size_t i;
	int r, e;

	if ((r = described(w, a, d, &path)))
		path = NULL;
	if ((e = step_add(w, FV_SLOT_CHAIN, vstep, depth, d->chain.name,
			  d->chain.name_len, path ? path : a->in.path, &i))) {
		free(path);
		return e;
	}
	free(path);
	w->s->steps[i].pub.avb = a;
	w->s->steps[i].pub.descriptor = k;
	if (r)
		return step_fail(w, i, FV_SLOT_ERROR, FV_SLOT_WHY_NONE, r);
	if ((flags & FV_SLOT_EXPECTED) && expected_of(w, d, &x)) {
		w->s->steps[i].pub.expected = 1;
		if (x->rollback_index_location !=
		    d->chain.rollback_index_location)
			return step_say(w, i, FV_SLOT_REFUSED,
					FV_SLOT_WHY_LOCATION, -EINVAL,
					"%s: chain partition %s: rollback "
					"index location %u, %u expected",
					a->in.path, w->s->steps[i].name,
					d->chain.rollback_index_location,
					x->rollback_index_location);
		if (x->public_key_len != d->chain.public_key_len ||
		    memcmp(x->public_key, d->chain.public_key,
			   x->public_key_len))
			return step_say(w, i, FV_SLOT_REFUSED,
					FV_SLOT_WHY_KEY_BLOB, -EINVAL,
					"%s: chain partition %s: another "
					"public key blob than expected",
					a->in.path, w->s->steps[i].name);
	} else if (!follow && (flags & FV_SLOT_EXPECTED)) {
		return step_say(w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_NOT_EXPECTED,
				-EINVAL,
				"%s: chain partition %s: nothing expected of "
				"it, and it is not followed",
				a->in.path, w->s->steps[i].name);
	}
	if (!follow) {
		/* libavb takes chains in the top vbmeta only */
		if (depth && (flags & FV_SLOT_CHECK) &&
		    !(flags & (FV_SLOT_EXPECTED | FV_SLOT_FOLLOW_NESTED)))
			return step_say(
				w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_NESTED,
				-EINVAL,
				"%s: a chain partition descriptor (%s) in a "
				"chained vbmeta: libavb follows chains from "
				"the top vbmeta only, and refuses the set",
				a->in.path, w->s->steps[i].name);
		return step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL);
	}
	if ((r = seen_before(w->s, w->s->steps[i].name, NULL, &e)) > 0)
		return step_say(w, i, FV_SLOT_SKIPPED, FV_SLOT_WHY_VISITED, 0,
				"%s: chained partition %s visited already in "
				"this set",
				a->in.path, w->s->steps[i].name);
	if (e)
		return e;
	w->s->steps[i].pub.followed = 1;
	if ((r = step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL)))
		return r;
	path = strdup(w->s->steps[i].path);
	if (!path)
		return verity_api_fail(ENOMEM, "out of memory");
	r = visit(w, path, d, i, depth + 1);
	free(path);
	return r;
}

/* The descriptors of vbmeta step vstep, in order. */
static int descriptors(struct walk *w, size_t vstep, const fv_avb *a,
		       unsigned depth)
{
	const struct avb_vbmeta *v = &a->in.img.vbmeta;
	int r = 0;

	for (size_t k = 0; !r && !w->stop && k < v->ndesc; k++) {
		const struct avb_descriptor *d = &v->desc[k];
		size_t i;

		if (d->tag == AVB_TAG_CHAIN_PARTITION)
			r = chain_step(w, vstep, a, k, depth);
		else if (d->tag == AVB_TAG_HASH || d->tag == AVB_TAG_HASHTREE)
			r = partition_step(w, vstep, a, k, depth, NULL, 0);
		else if (d->tag == AVB_TAG_KERNEL_CMDLINE &&
			 !(r = step_add(w, FV_SLOT_CMDLINE, vstep, depth, NULL,
					0, a->in.path, &i))) {
			w->s->steps[i].pub.avb = a;
			w->s->steps[i].pub.descriptor = k;
			r = step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0,
				     NULL);
		}
	}
	return r;
}

/* The vbmeta of the image at path: read, judged (the top one against
 * the walk's key, a chained one against the key pin pins), then its
 * descriptors. from: the chain step that led here (SIZE_MAX: none). */
static int visit(struct walk *w, const char *path,
		 const struct avb_descriptor *pin, size_t from, unsigned depth)
{
	fv_slot *s = w->s;
	const struct step *parent = from == SIZE_MAX ? NULL : &s->steps[from];
	const char *pinner = NULL;
	enum fv_trust pinner_trust = FV_TRUST_UNSIGNED;
	uint32_t nl = 0;
	const uint8_t *name = pin ? verity_avb_desc_name(pin, &nl) : NULL;
	size_t i;
	fv_avb *a;
	int r;

	if (parent) {
		const struct step *vb = &s->steps[parent->pub.parent];

		pinner = vb->path;
		pinner_trust = vb->pub.trust;
	}
	/* the top image unreadable is the walk's error, no step */
	if (!depth && (r = verity_api_avb_read(path, 1, &a)))
		return r;
	if ((r = step_add(w, FV_SLOT_VBMETA, from, depth, name, nl, path,
			  &i))) {
		if (!depth)
			verity_api_avb_free(a);
		return r;
	}
	if (!depth)
		s->steps[i].avb = a;
	if (++s->vbmetas > SLOT_MAX_VBMETA) {
		w->stop = 1;
		return step_say(w, i, FV_SLOT_REFUSED, FV_SLOT_WHY_LIMIT,
				-EINVAL,
				"%s: more than %d vbmeta images in one set "
				"(libavb's bound): not walked further",
				path, SLOT_MAX_VBMETA);
	}
	if (depth && (r = verity_api_avb_read(path, 1, &a)))
		return step_fail(w, i,
				 r == -ENODEV ? FV_SLOT_MISSING : FV_SLOT_ERROR,
				 FV_SLOT_WHY_NONE, r);
	s->steps[i].avb = a;
	s->steps[i].pub.avb = a;
	if (w->req->flags & FV_SLOT_CHECK) {
		struct ht_error err;

		if ((r = judge(w, i, a, pin, pinner, pinner_trust)))
			return r < 0 ? r : 0;
		if ((r = verity_avb_check_partitions(&a->in.img, &err))) {
			verity_api_keep(r, &err);
			/* the step ended OK: what it holds is refused */
			s->steps[i].pub.result = FV_SLOT_REFUSED;
			s->steps[i].pub.why = FV_SLOT_WHY_DESCRIPTORS;
			s->steps[i].pub.error = r;
			if (!(s->steps[i].message = strdup(ht_msg(&err))))
				return verity_api_fail(ENOMEM, "out of memory");
			if (w->fn)
				w->fn(w->ctx, s, i, 1);
			if (w->req->flags & FV_SLOT_STOP)
				w->stop = 1;
			return 0;
		}
	} else if ((r = step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0,
				 NULL))) {
		return r;
	}
	return descriptors(w, i, a, depth);
}

/* ---- a super image ---- */

/* The partitions asked for (all of the slot's when none is named):
 * their indexes into *idx, *n of them. */
static int super_pick(struct walk *w, const struct lp_metadata *m,
		      uint32_t **idx, size_t *n)
{
	const struct fv_slot_request *req = w->req;
	const size_t want = req->npartitions ? req->npartitions : m->np;
	int r;

	*n = 0;
	if (!(*idx = calloc(want + 1, sizeof(**idx))))
		return verity_api_fail(ENOMEM, "out of memory");
	if (!req->npartitions) {
		for (uint32_t i = 0; i < m->np; i++)
			(*idx)[(*n)++] = i;
		return 0;
	}
	for (size_t k = 0; k < req->npartitions; k++) {
		const char *asked = req->partitions[k];
		char picked[LP_NAME_MAX + 8];
		int i, own;

		if (!asked)
			return verity_api_fail(EINVAL,
					       "%s: partition %zu is NULL",
					       __func__, k);
		/* a name with another slot's suffix is not this slot's */
		own = verity_lp_suffix_slot(asked);
		if (req->slot && own >= 0 && (uint32_t)own != w->slot)
			return verity_api_fail(EINVAL,
					       "%s: partition %s is slot %c's, "
					       "and slot %s was asked for",
					       req->image, asked,
					       own ? 'b' : 'a', req->slot);
		i = verity_super_pick(m, asked, picked, sizeof(picked));
		if (i < 0 && strcmp(picked, asked))
			return verity_api_fail(ENOENT,
					       "%s: no logical partition %s "
					       "(%s of slot %c, an A/B image)",
					       req->image, picked, asked,
					       m->slot ? 'b' : 'a');
		if (i < 0)
			return verity_api_fail(ENOENT,
					       "%s: no logical partition %s",
					       req->image, asked);
		if (strcmp(picked, asked) &&
		    (r = note(w->s, "%s: %s is partition %s (slot %c)",
			      req->image, asked, picked, m->slot ? 'b' : 'a')))
			return r;
		(*idx)[(*n)++] = (uint32_t)i;
	}
	return 0;
}

/* Logical partition i: its own footer's vbmeta judged against the
 * walk's key, its own descriptor checked over its extents. named: the
 * caller asked for it by name. */
static int super_partition(struct walk *w, uint32_t p, int named)
{
	fv_slot *s = w->s;
	const struct verity_super *vs = &s->super->in.s;
	const struct lp_partition *lp = &vs->m.p[p];
	const int anchored = w->key != NULL;
	char *path;
	size_t len = strlen(vs->path) + strlen(lp->name) + 2, i, vi;
	fv_avb *a = NULL;
	int r;

	if (!(path = malloc(len)))
		return verity_api_fail(ENOMEM, "out of memory");
	snprintf(path, len, "%s/%s", vs->path, lp->name);
	r = step_add(w, FV_SLOT_PARTITION, SIZE_MAX, 0, lp->name,
		     strlen(lp->name), path, &i);
	free(path);
	if (r)
		return r;
	s->steps[i].pub.bytes = lp->size;
	s->steps[i].pub.extents = lp->num_extents;
	s->steps[i].pub.partition = p;
	/* with a trust anchor, a partition asked for and not checkable is
	 * a failure: nothing vouches for it */
	if (!lp->num_extents)
		return named && anchored
			       ? step_say(w, i, FV_SLOT_REFUSED,
					  FV_SLOT_WHY_EMPTY, -EPERM,
					  "%s: partition %s is empty (no "
					  "extents): nothing to check against "
					  "the key",
					  vs->path, s->steps[i].name)
			       : step_end(w, i, FV_SLOT_SKIPPED,
					  FV_SLOT_WHY_EMPTY, 0, NULL);
	r = verity_api_super_avb(s->super, p, 1, &a);
	if (r == -ENOMSG)
		return anchored
			       ? step_say(w, i, FV_SLOT_REFUSED,
					  FV_SLOT_WHY_NO_FOOTER, -EPERM,
					  "%s/%s: no AVB footer: nothing in it "
					  "can be checked against the key",
					  vs->path, s->steps[i].name)
			       : step_end(w, i, FV_SLOT_SKIPPED,
					  FV_SLOT_WHY_NO_FOOTER, 0, NULL);
	if (r)
		return step_fail(w, i, FV_SLOT_ERROR, FV_SLOT_WHY_NONE, r);
	if ((r = step_end(w, i, FV_SLOT_OK, FV_SLOT_WHY_NONE, 0, NULL))) {
		verity_api_avb_free(a);
		return r;
	}
	if ((r = step_add(w, FV_SLOT_VBMETA, i, 0, lp->name, strlen(lp->name),
			  a->in.path, &vi))) {
		verity_api_avb_free(a);
		return r;
	}
	s->steps[vi].avb = a;
	s->steps[vi].pub.avb = a;
	if ((r = judge(w, vi, a, NULL, NULL, FV_TRUST_UNSIGNED)))
		return r < 0 ? r : 0;
	/* its own partition's descriptor: the first hash or hashtree one */
	for (size_t k = 0; k < a->in.img.vbmeta.ndesc; k++) {
		const struct avb_descriptor *d = &a->in.img.vbmeta.desc[k];
		size_t di;

		if (d->tag == AVB_TAG_HASHTREE) {
			fv_pair *own = NULL;

			if (!a->in.paired) {
				if ((r = step_add(w, FV_SLOT_HASHTREE, vi, 0,
						  lp->name, strlen(lp->name),
						  a->in.path, &di)))
					return r;
				r = verity_api_avb_unpaired(a);
				return step_fail(w, di, FV_SLOT_ERROR,
						 FV_SLOT_WHY_NONE, r);
			}
			if ((r = verity_api_avb_pair(a, &own)))
				return r;
			r = partition_step(w, vi, a, k, 0, own, 1);
			verity_api_pair_free(own);
			return r;
		}
		if (d->tag == AVB_TAG_HASH)
			return partition_step(w, vi, a, k, 0, NULL, 1);
	}
	if ((r = step_add(w, FV_SLOT_HASH, vi, 0, lp->name, strlen(lp->name),
			  a->in.path, &vi)))
		return r;
	return step_say(w, vi, FV_SLOT_ERROR, FV_SLOT_WHY_NONE, -EINVAL,
			"%s: the vbmeta has neither a hashtree nor a hash "
			"descriptor",
			a->in.path);
}

static int super_walk(struct walk *w)
{
	const struct fv_slot_request *req = w->req;
	fv_slot *s = w->s;
	uint32_t *idx = NULL;
	size_t n = 0;
	int r;

	if ((r = fv_super_open(req->image, req->device_names, req->device_files,
			       req->ndevices, 0, &s->super)))
		return r;
	if (req->slot && w->slot >= s->super->in.s.m.slots)
		return verity_api_fail(EINVAL,
				       "%s: metadata of %u slot%s: no slot %s "
				       "(slot b is metadata slot 1)",
				       req->image, s->super->in.s.m.slots,
				       s->super->in.s.m.slots == 1 ? "" : "s",
				       req->slot);
	if (w->slot) {
		fv_super_free(s->super);
		s->super = NULL;
		if ((r = fv_super_open(req->image, req->device_names,
				       req->device_files, req->ndevices,
				       w->slot, &s->super)))
			return r;
	}
	for (size_t k = 0; k < s->super->in.nnotes; k++)
		if ((r = note(s, "%s", s->super->in.notes[k])))
			return r;
	if ((r = super_pick(w, &s->super->in.s.m, &idx, &n)))
		goto out;
	for (size_t k = 0; !r && !w->stop && k < n; k++)
		r = super_partition(w, idx[k], req->npartitions != 0);
out:
	free(idx);
	return r;
}

/* ---- the door ---- */

API int fv_slot_verify(const struct fv_slot_request *req, const fv_options *o,
		       fv_slot_fn fn, void *ctx, fv_slot **out)
{
	struct walk w = {0};
	struct ht_error err;
	fv_options opts;
	const char *kind;
	fv_slot *s;
	int r;

	NEED(req);
	NEED(out);
	*out = NULL;
	if (req->size <
	    offsetof(struct fv_slot_request, flags) + sizeof(req->flags))
		return verity_api_fail(EINVAL, "%s: size %zu is too small",
				       __func__, req->size);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	NEED(req->image);
	if (req->slot && strcmp(req->slot, "a") && strcmp(req->slot, "b"))
		return verity_api_fail(EINVAL, "%s: slot '%s' is not a or b",
				       req->image, req->slot);
	if (req->nexpected && !req->expected)
		return verity_api_fail(EINVAL, "%s: expected is NULL",
				       __func__);
	if (req->npartitions && !req->partitions)
		return verity_api_fail(EINVAL, "%s: partitions is NULL",
				       __func__);
	if (!(s = calloc(1, sizeof(*s))))
		return verity_api_fail(ENOMEM, "out of memory");
	*out = s;
	w.s = s;
	w.req = req;
	w.o = &opts;
	w.fn = fn;
	w.ctx = ctx;
	w.slot = req->slot && !strcmp(req->slot, "b");
	if ((r = verity_api_container_of(req->image, req->container, &kind)))
		return r;
	if (req->key && (req->flags & FV_SLOT_CHECK) &&
	    (r = verity_api_keep(verity_sigkey_file_blob(req->key, &w.key,
							 &w.key_len, &err),
				 &err)))
		return r;
	if (!strcmp(kind, "super")) {
		r = super_walk(&w);
		snprintf(s->slot, sizeof(s->slot), "%c",
			 s->super && verity_lp_ab(&s->super->in.s.m)
				 ? (w.slot ? 'b' : 'a')
				 : '\0');
	} else if (!strcmp(kind, "avb")) {
		if (req->npartitions)
			r = verity_api_fail(EINVAL,
					    "%s: partitions are chosen in a "
					    "super image, not in a vbmeta's "
					    "set",
					    req->image);
		else
			r = visit(&w, req->image, NULL, SIZE_MAX, 0);
		if (req->slot)
			snprintf(s->slot, sizeof(s->slot), "%s", req->slot);
	} else {
		r = verity_api_fail(EINVAL,
				    "%s: not an Android firmware set (no AVB "
				    "footer or vbmeta, no super image "
				    "metadata)",
				    req->image);
	}
	free(w.key);
	return r;
}

API void fv_slot_free(fv_slot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct step *st = &s->steps[i];

		free(st->name);
		free(st->path);
		free(st->message);
		free(st->signer);
		fv_result_free(st->res);
		verity_api_avb_free(st->avb);
	}
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	for (size_t i = 0; i < s->nseen; i++)
		free(s->seen[i].name);
	free(s->steps);
	free(s->notes);
	free(s->seen);
	fv_super_free(s->super);
	free(s);
}

API int fv_slot_info(const fv_slot *s, struct fv_slot_info *info)
{
	struct fv_slot_info full = {0};

	NEED(s);
	NEED(info);
	full.steps = s->n;
	full.notes = s->nnotes;
	full.super = s->super;
	full.slot = s->slot;
	full.note = (const char *const *)s->notes;
	GIVE(info, full, steps);
	return 0;
}

API int fv_slot_step(const fv_slot *s, size_t i, struct fv_slot_step *out)
{
	struct fv_slot_step full;
	const struct step *st;

	NEED(s);
	NEED(out);
	if (i >= s->n)
		return verity_api_fail(EINVAL, "step %zu of %zu", i, s->n);
	st = &s->steps[i];
	full = st->pub;
	full.name = st->name;
	full.path = st->path;
	full.message = st->message ? st->message : "";
	full.signer = st->signer;
	GIVE(out, full, kind);
	return 0;
}
