/* Android firmware sets walked once (verity/slot/walk.h). Every reader
 * of a set (verify, avbtool's verify_image, print_partition_digests,
 * calculate_kernel_cmdline) reads this one result, so they cannot
 * disagree on what a set is. */
#include "verity/slot/walk.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/ops/ops.h"
#include "verity/container/super/super.h"
#include "verity/sign/scheme.h"

/* libavb's bound on the vbmeta images of one slot
 * (MAX_NUMBER_OF_VBMETA_IMAGES); a set's checked partitions, and its
 * steps (a super image of 65,536 partitions is far past any device's) */
#define SLOT_MAX_VBMETA  32
#define SLOT_MAX_CHECKED 128
#define SLOT_MAX_STEPS   65536
/* the libavb whose rules a set is judged by: 1.3 (avbtool 1.3.0's) */
#define SLOT_LIBAVB_MINOR 3
/* libavb's AVB_MAX_NUMBER_OF_ROLLBACK_INDEX_LOCATIONS */
#define SLOT_ROLLBACK_LOCATIONS 32

struct walk {
	struct slot_walk *s;
	const struct slot_ask *ask;
	struct ht_error *err;
	uint32_t slot; /* the metadata slot: 0 for a, 1 for b */
	int stop;      /* no step after this one */
	int twice;     /* a chained partition's second image (super.img's
			* beside NAME.img): its partitions checked again */
};

/* ---- the result ---- */

static int note(struct walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int note(struct walk *w, const char *fmt, ...)
{
	struct slot_walk *s = w->s;
	char **v, *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return ht_fail(w->err, ENOMEM, "out of memory");
	if (!(v = realloc(s->notes, (s->nnotes + 1) * sizeof(*v)))) {
		free(text);
		return ht_fail(w->err, ENOMEM, "out of memory");
	}
	s->notes = v;
	s->notes[s->nnotes++] = text;
	return 0;
}

/* A new step (its beginning told); *at its index. The name is shown
 * safely (bytes escaped), whatever the metadata holds. */
static int step_add(struct walk *w, enum slot_kind kind, size_t parent,
		    unsigned depth, const void *name, size_t name_len,
		    const char *path, size_t *at)
{
	struct slot_walk *s = w->s;
	char shown[HT_NAME_SHOWN_MAX];
	struct slot_step *st;

	if (s->n == SLOT_MAX_STEPS)
		return ht_fail(w->err, EINVAL,
			       "%s: more than %d steps in one firmware "
			       "set: not walked further",
			       w->ask->image, SLOT_MAX_STEPS);
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct slot_step *v = realloc(s->steps, cap * sizeof(*v));

		if (!v)
			return ht_fail(w->err, ENOMEM, "out of memory");
		s->steps = v;
		s->cap = cap;
	}
	st = &s->steps[s->n];
	memset(st, 0, sizeof(*st));
	ht_name_shown(name ? name : "", name ? name_len : 0, shown,
		      sizeof(shown));
	if (!(st->name = strdup(shown)) || !(st->path = strdup(path))) {
		free(st->name);
		return ht_fail(w->err, ENOMEM, "out of memory");
	}
	st->kind = kind;
	st->parent = parent;
	st->depth = depth;
	st->descriptor = SIZE_MAX;
	st->partition = SIZE_MAX;
	*at = s->n++;
	if (w->ask->told)
		w->ask->told(w->ask->ctx, s, *at, 0);
	return 0;
}

/* Step i ends with result (msg: why, one line; NULL for none). */
static int step_end(struct walk *w, size_t i, enum slot_result result,
		    enum slot_why why, int error, const char *msg)
{
	struct slot_step *st = &w->s->steps[i];

	st->result = result;
	st->why = why;
	st->error = error;
	if (msg && !(st->message = strdup(msg)))
		return ht_fail(w->err, ENOMEM, "out of memory");
	/* STOP: the first step that does not hold ends the walk */
	if ((w->ask->flags & SLOT_STOP) && result != SLOT_OK &&
	    result != SLOT_SKIPPED)
		w->stop = 1;
	if (w->ask->told)
		w->ask->told(w->ask->ctx, w->s, i, 1);
	return 0;
}

/* A step refused or failed, told to the walk: 1, or < 0 when it could
 * not even be recorded. */
static int ended(int r)
{
	return r < 0 ? r : 1;
}

/* 1 when the walk is libavb's slot verify (verify of a set), whose
 * refusals avbtool's verify_image (nested or expected chains) and the
 * readers that check nothing do not make. */
static int libavb(const struct walk *w)
{
	return (w->ask->flags & SLOT_CHECK) &&
	       !(w->ask->flags & (SLOT_EXPECTED | SLOT_FOLLOW_NESTED));
}

/* The step ends with the library's last error as its message. */
static int step_fail(struct walk *w, size_t i, enum slot_result result,
		     enum slot_why why, int r)
{
	return step_end(w, i, result, why, r, ht_msg(w->err));
}

__attribute__((format(printf, 6, 7))) static int
step_say(struct walk *w, size_t i, enum slot_result result, enum slot_why why,
	 int error, const char *fmt, ...)
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
static int seen_before(struct walk *w, const char *name,
		       const struct avb_descriptor *d, int *err)
{
	struct slot_walk *s = w->s;
	struct slot_seen *v;

	*err = 0;
	for (size_t k = 0; k < s->nseen; k++) {
		const struct slot_seen *e = &s->seen[k];

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
		*err = ht_fail(w->err, ENOMEM, "out of memory");
		return 0;
	}
	s->seen[s->nseen++].d = d;
	return 0;
}

/* ---- a vbmeta judged ---- */

/* The vbmeta of step i judged: its signature, then the key the walk
 * was given (pin NULL: the top one) or the one chain descriptor pin
 * pins. 0 with the step ended OK, 1 with it ended refused, < 0. */
static int judge(struct walk *w, size_t i, struct verity_android *a,
		 const struct avb_descriptor *pin, const char *pinner,
		 enum verity_trust pinner_trust)
{
	struct slot_step *st = &w->s->steps[i];
	const struct avb_vbmeta *v = &a->img.vbmeta;
	const char *alg = verity_avb_algorithm(v->h.algorithm)->name;
	enum slot_judged why;
	int r;

	/* what it needs of libavb (1.3 is what fastverity knows) */
	if (libavb(w) && v->h.required_minor > SLOT_LIBAVB_MINOR)
		return ended(step_say(
			w, i, SLOT_REFUSED, SLOT_WHY_DESCRIPTORS, -EINVAL,
			"%s: the vbmeta needs libavb 1.%u, and "
			"libavb 1.%d refuses it (unsupported "
			"version)",
			a->path, v->h.required_minor, SLOT_LIBAVB_MINOR));
	/* its own signature, against the key it carries */
	if ((r = verity_avb_vbmeta_check(v, a->path, w->err))) {
		if (r == -ENOSYS) /* no libcrypto: nothing was checked */
			return ended(
				step_fail(w, i, SLOT_ERROR, SLOT_WHY_NONE, r));
		return ended(
			step_say(w, i, SLOT_REFUSED, SLOT_WHY_SIGNATURE, r,
				 "%s: the vbmeta's signature (%s) does not "
				 "hold: %s",
				 a->path, alg, ht_msg(w->err)));
	}
	a->shown = 0;
	if (pin) {
		char *signer = strdup(pinner);

		if (!signer)
			return ht_fail(w->err, ENOMEM, "out of memory");
		free(st->signer);
		st->signer = signer;
		if (v->h.algorithm == AVB_ALG_NONE)
			return ended(
				step_say(w, i, SLOT_REFUSED,
					 SLOT_WHY_UNSIGNED_PIN, -EPERM,
					 "%s: the vbmeta of chained partition "
					 "%s is not signed, and %s pins a key: "
					 "nothing proves who made it",
					 a->path, st->name, pinner));
		/* flags (verification or the tree disabled) are the top
		 * vbmeta's alone: libavb refuses a set whose chained vbmeta
		 * sets any (avbtool's verify_image does not look) */
		if (v->h.flags &&
		    !(w->ask->flags & (SLOT_EXPECTED | SLOT_FOLLOW_NESTED)))
			return ended(step_say(
				w, i, SLOT_REFUSED, SLOT_WHY_DESCRIPTORS,
				-EINVAL,
				"%s: the vbmeta of chained partition %s has "
				"flags %u: libavb takes flags from the top "
				"vbmeta only, and refuses the set",
				a->path, st->name, v->h.flags));
		/* the key its chain descriptor pins: no anchor of the
		 * caller's, the policy not asked (vouched for as far as the
		 * pinner is) */
		if (!verity_avb_vbmeta_has_key(v, pin->chain.public_key,
					       pin->chain.public_key_len)) {
			char sha1[41];
			struct avb_vbmeta key_only;

			r = ht_fail(w->err, EPERM,
				    "%s: the vbmeta is signed by "
				    "another key",
				    a->path);
			memset(&key_only, 0, sizeof(key_only));
			key_only.public_key = pin->chain.public_key;
			key_only.h.public_key_size = pin->chain.public_key_len;
			verity_android_key_sha1(&key_only, sha1);
			return ended(step_say(
				w, i, SLOT_REFUSED, SLOT_WHY_PINNED_KEY, r,
				"%s: signed by another key (sha1 %s) "
				"than the one %s pins for %s (sha1 %s)",
				a->path, a->key_sha1, pinner, st->name, sha1));
		}
		a->trust = VERITY_TRUST_CHECK;
		/* vouched for as far as the key that pins it is */
		st->trust = pinner_trust == VERITY_TRUST_CHECK
				    ? VERITY_TRUST_CHECK
				    : VERITY_TRUST_UNCHECKED;
		return step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
	}
	/* the top one: the policy asked for the walk's anchor (trusted
	 * certificates in the options: the wrong kind, refused) */
	if ((r = w->ask->judge(w->ask->ctx, a,
			       w->ask->key_blob ? VERITY_ANCHOR_KEY
			       : w->ask->certs  ? VERITY_ANCHOR_CERT
						: VERITY_ANCHOR_NONE,
			       w->ask->key, w->ask->key_blob, w->ask->key_len,
			       &why, w->err))) {
		if (why == SLOT_OTHER_KEY)
			return ended(step_say(
				w, i, SLOT_REFUSED, SLOT_WHY_OTHER_KEY, r,
				"%s: the vbmeta is signed by another "
				"key (public key sha1 %s), not by %s",
				a->path, a->key_sha1, w->ask->key));
		return ended(step_fail(w, i, SLOT_REFUSED, SLOT_WHY_POLICY, r));
	}
	st->trust = a->trust;
	if (a->trust == VERITY_TRUST_CHECK &&
	    !(st->signer = strdup(w->ask->key)))
		return ht_fail(w->err, ENOMEM, "out of memory");
	return step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
}

/* ---- descriptors ---- */

/* The image descriptor d of a describes (the image itself for its own
 * partition's, else a file beside it or the slot's partition of a
 * super.img beside it): *path, or the step's error. */
static int described(struct walk *w, const struct verity_android *a,
		     const struct avb_descriptor *d, char **path)
{

	return verity_avb_described_image(&a->img, d, w->slot, path, w->err);
}

/* The image a step reads, as a's own bytes when it is a's image (a
 * logical partition read through its super image's extents). */
static const struct verity_extents *own_src(const struct verity_android *a,
					    const char *path)
{
	return a->src && !strcmp(path, a->path) ? a->src : NULL;
}

/* A hash descriptor's partition: its digest over the image. */
static int check_hash(struct walk *w, size_t i, const struct verity_android *a,
		      const struct avb_descriptor *d)
{
	const char *path = w->s->steps[i].path;
	const char *alg = d->hash.p.hash_algorithm;
	char shown[HT_NAME_SHOWN_MAX];
	int r;

	/* libavb's load_and_verify_hash_partition hashes these alone */
	if (libavb(w) && strcmp(alg, "sha256") && strcmp(alg, "sha512")) {
		ht_name_shown(alg, strlen(alg), shown, sizeof(shown));
		return step_say(w, i, SLOT_REFUSED, SLOT_WHY_DESCRIPTORS,
				-EINVAL,
				"%s: hash descriptor of %s: hash algorithm "
				"%s: libavb hashes sha256 or sha512, and "
				"refuses the set",
				a->path, w->s->steps[i].name, shown);
	}
	r = verity_avb_hash_check(path, own_src(a, path), d, w->err);
	if (!r)
		return step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
	if (r == -ENODEV)
		return step_say(w, i, SLOT_MISSING, SLOT_WHY_NONE, r,
				"%s: missing (no such file, and no super.img "
				"beside holding it)",
				path);
	if (r == -EPERM)
		return step_fail(w, i, SLOT_BAD, SLOT_WHY_DIGEST, r);
	return step_fail(w, i, SLOT_ERROR, SLOT_WHY_NONE, r);
}

/* Whether the data of hashtree descriptor d (over path) makes the root
 * it states: 1 yes, 0 no (or cannot tell). */
static int data_makes_root(struct walk *w, const struct avb_descriptor *d,
			   const char *path)
{
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t len = 0;

	return d->hashtree.p.digest_len &&
	       !verity_avb_data_root(path, d, w->ask->threads, root, &len,
				     NULL) &&
	       len == d->hashtree.p.digest_len &&
	       !memcmp(root, d->hashtree.p.digest, len);
}

/* A hashtree descriptor's partition: every block, then the parity
 * against the verified data. pair: the image's own pair (a logical
 * partition's footer), else made from the descriptor over the path. */
static int check_tree(struct walk *w, size_t i, const struct verity_android *a,
		      size_t desc, const struct avb_descriptor *d,
		      const struct verity_pair *own)
{
	struct slot_step *st = &w->s->steps[i];
	const char *path = st->path;
	uint8_t root[HT_MAX_DIGEST_SIZE];
	struct verity_pair pair;
	const struct ht_verify_result *res = &st->out.res;
	size_t rl = 0;
	int r = 0, zeroed = 0;

	if ((w->ask->flags & SLOT_ACCEPT_ZEROED) &&
	    (zeroed = verity_avb_tree_zeroed(path, d, w->err)) < 0) {
		return step_fail(w, i,
				 zeroed == -ENODEV ? SLOT_MISSING : SLOT_ERROR,
				 SLOT_WHY_NONE, zeroed);
	}
	/* the data's own root: where the descriptor keeps none (a
	 * persistent digest) the tree is checked against it; a zeroed
	 * tree is skipped, its data still checked against the root */
	if ((zeroed || !d->hashtree.p.digest_len) &&
	    (r = verity_avb_data_root(path, d, w->ask->threads, root, &rl,
				      w->err))) {
		return step_fail(w, i, r == -ENODEV ? SLOT_MISSING : SLOT_ERROR,
				 SLOT_WHY_NONE, r);
	}
	if (zeroed) {
		st->why = SLOT_WHY_ZEROED;
		if (d->hashtree.p.digest_len &&
		    (rl != d->hashtree.p.digest_len ||
		     memcmp(root, d->hashtree.p.digest, rl)))
			return step_say(w, i, SLOT_BAD, SLOT_WHY_BLOCKS, -EPERM,
					"%s: the tree is zeroed and the data "
					"does not make the descriptor's root",
					path);
		return step_say(w, i, SLOT_SKIPPED, SLOT_WHY_ZEROED, 0,
				"%s: the tree is zeroed: skipped, the data "
				"makes the descriptor's root",
				path);
	}
	/* the image's own pair (a logical partition's, over its extents),
	 * else one made of the descriptor over the path */
	if (own)
		pair = *own;
	else
		r = verity_android_descriptor_pair(a, desc, path, &pair,
						   w->err);
	if (!r && !own && !d->hashtree.p.digest_len) {
		memcpy(pair.root, root, rl);
		pair.root_size = rl;
	}
	if (!r && !pair.root_size)
		r = ht_fail(w->err, EINVAL,
			    "%s: no root hash to check against (the open "
			    "request's root_hex or root_hash_file)",
			    pair.data.path);
	if (!r)
		r = verity_op_verify(&pair, w->ask->run, &st->out, w->err);
	if (r)
		return step_fail(w, i, r == -ENODEV ? SLOT_MISSING : SLOT_ERROR,
				 SLOT_WHY_NONE, r);
	if (own) /* the vbmeta's, judged when the image was read */
		st->out.trust = a->trust;
	memcpy(st->root, pair.root, pair.root_size);
	st->root_size = pair.root_size;
	st->checked = 1;
	if (res->bad_data_blocks || res->bad_hash_blocks || res->bad_padding ||
	    res->unreadable_blocks || !res->root_matches) {
		/* whose fault: the data making the descriptor's root says
		 * the tree (or a zeroed one) is wrong, not the data */
		int tree = !d->hashtree.p.digest_len ||
			   data_makes_root(w, d, path);

		return step_say(w, i, SLOT_BAD,
				tree ? SLOT_WHY_TREE : SLOT_WHY_BLOCKS, -EPERM,
				tree ? "%s: the data is intact and the tree "
				       "does not hold"
				     : "%s: the data does not match the "
				       "descriptor's root",
				path);
	}
	if (st->out.has_fec && st->out.fec.stale_codewords) {
		return step_say(w, i, SLOT_BAD, SLOT_WHY_PARITY, -EPERM,
				"%s: parity: %llu codewords in %llu rounds "
				"disagree with the verified data",
				path,
				(unsigned long long)st->out.fec.stale_codewords,
				(unsigned long long)st->out.fec.stale_rounds);
	}
	if (d->hashtree.fec_num_roots && !pair.fec.region.path &&
	    (r = note(w,
		      "%s: the parity uses 4096-byte blocks and the tree "
		      "%u-byte blocks: the kernel cannot use it (not checked)",
		      path, d->hashtree.data_block_size)))
		return r;
	return step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
}

/* Step i read a file beside a (NAME.img) while a super.img beside
 * holds the partition too: a device maps super's, so that is read as
 * well, in a step of its own (either failing fails the set), and the
 * two said. *in: its path (malloc'd), NULL for none. libavb's slot
 * verify only: avbtool's verify_image reads the file alone. */
static int in_super_too(struct walk *w, const struct verity_android *a,
			size_t i, const uint8_t *name, uint32_t nl, char **in)
{
	const char *path = w->s->steps[i].path, *slash;
	char dir[4096], part[LP_NAME_MAX + 1];
	int r;

	*in = NULL;
	if (!libavb(w) || w->stop || a->src || !strcmp(path, a->path) ||
	    nl > LP_NAME_MAX || w->s->steps[i].result != SLOT_OK)
		return 0;
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0,
		 path);
	snprintf(part, sizeof(part), "%.*s", (int)nl, (const char *)name);
	if (!(*in = verity_super_beside(slash ? (slash == path ? "/" : dir)
					      : NULL,
					part, w->slot)))
		return 0;
	if ((r = note(w,
		      "%s: %spartition %s lies both in %s and in %s, which "
		      "a device maps: both checked",
		      a->path,
		      w->s->steps[i].kind == SLOT_CHAIN ? "chained " : "", part,
		      path, *in))) {
		free(*in);
		*in = NULL;
	}
	return r;
}

/* Partition step i (of descriptor k), read from NAME.img: super.img's
 * partition beside checked too (in_super_too). */
static int also_in_super(struct walk *w, size_t vstep,
			 const struct verity_android *a, size_t k,
			 unsigned depth, size_t i)
{
	const struct avb_descriptor *d = &a->img.vbmeta.desc[k];
	uint32_t nl;
	const uint8_t *name = verity_avb_desc_name(d, &nl);
	char *in;
	size_t j;
	int r;

	if ((r = in_super_too(w, a, i, name, nl, &in)) || !in)
		return r;
	r = step_add(w, w->s->steps[i].kind, vstep, depth, name, nl, in, &j);
	free(in);
	if (r)
		return r;
	w->s->steps[j].avb = a;
	w->s->steps[j].descriptor = k;
	return d->tag == AVB_TAG_HASHTREE ? check_tree(w, j, a, k, d, NULL)
					  : check_hash(w, j, a, d);
}

/* A hash or hashtree descriptor's step: its partition checked once a
 * walk (with SLOT_CHECK), else only read. own: the descriptor is a
 * super image's logical partition's own (over its extents), each
 * partition checked once by the metadata's rules already. */
static int partition_step(struct walk *w, size_t vstep,
			  const struct verity_android *a, size_t k,
			  unsigned depth, const struct verity_pair *own,
			  int in_super)
{
	const struct avb_descriptor *d = &a->img.vbmeta.desc[k];
	const int tree = d->tag == AVB_TAG_HASHTREE;
	char *path = NULL;
	uint32_t nl;
	const uint8_t *name = verity_avb_desc_name(d, &nl);
	size_t i;
	int r, again = 0, e = 0;

	if ((r = described(w, a, d, &path)))
		path = NULL;
	if ((e = step_add(w, tree ? SLOT_HASHTREE : SLOT_HASH, vstep, depth,
			  name, nl, path ? path : a->path, &i))) {
		free(path);
		return e;
	}
	free(path);
	w->s->steps[i].avb = a;
	w->s->steps[i].descriptor = k;
	if (r)
		return step_fail(w, i, SLOT_ERROR, SLOT_WHY_NONE, r);
	if (!(w->ask->flags & SLOT_CHECK))
		return step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
	/* each partition's data once: the same descriptor again is
	 * checked already, another of the same partition is checked too
	 * (both must hold) */
	if (!in_super && !w->twice &&
	    (again = seen_before(w, w->s->steps[i].name, d, &e)) > 0)
		return step_say(w, i, SLOT_SKIPPED, SLOT_WHY_VISITED, 0,
				"%s: checked already in this set",
				w->s->steps[i].path);
	if (e)
		return e;
	/* a persistent digest lives on the device (libavb reads it from
	 * there): nothing here to check the data against, and said, as
	 * verify of the image alone says it */
	if (libavb(w) &&
	    !(tree ? d->hashtree.p.digest_len : d->hash.p.digest_len))
		return step_say(
			w, i, SLOT_REFUSED, SLOT_WHY_DESCRIPTORS, -EINVAL,
			"%s: the %s descriptor of %s holds no digest (a "
			"persistent digest the device keeps): nothing "
			"to check the data against here",
			a->path, tree ? "hashtree" : "hash",
			w->s->steps[i].name);
	if (++w->s->checked > SLOT_MAX_CHECKED) {
		w->stop = 1;
		return step_say(w, i, SLOT_REFUSED, SLOT_WHY_LIMIT, -EINVAL,
				"%s: more than %d partitions to check in one "
				"set: not walked further",
				w->ask->image, SLOT_MAX_CHECKED);
	}
	if ((r = tree ? check_tree(w, i, a, k, d, own)
		      : check_hash(w, i, a, d)) < 0)
		return r;
	return also_in_super(w, vstep, a, k, depth, i);
}

static int visit(struct walk *w, const char *path,
		 const struct avb_descriptor *pin, size_t from, unsigned depth);

/* The expected contents of chain d (SLOT_EXPECTED): 1 and *e when
 * some are given. */
static int expected_of(const struct walk *w, const struct avb_descriptor *d,
		       const struct slot_expected **e)
{
	for (size_t k = 0; k < w->ask->nexpected; k++) {
		const struct slot_expected *x = &w->ask->expected[k];

		if (x->name && strlen(x->name) == d->chain.name_len &&
		    !memcmp(x->name, d->chain.name, d->chain.name_len)) {
			*e = x;
			return 1;
		}
	}
	return 0;
}

/* 1 when the vbmeta chain step k led to was read and judged OK. */
static int held(const struct walk *w, size_t k)
{
	for (size_t j = k + 1; j < w->s->n; j++)
		if (w->s->steps[j].kind == SLOT_VBMETA &&
		    w->s->steps[j].parent == k)
			return w->s->steps[j].result == SLOT_OK;
	return 0;
}

/* Chain step i names a partition an earlier chain followed: its one
 * vbmeta, checked against that chain's key, holds for this one only if
 * this one pins the same key (libavb loads and checks it again, and
 * rejects the set). 0, or the step ended refused (1, or < 0 when it
 * could not be recorded). */
static int other_pin(struct walk *w, size_t i, const struct verity_android *a,
		     const struct avb_descriptor *d)
{
	const struct slot_step *st = &w->s->steps[i];

	for (size_t k = 0; k < i; k++) {
		const struct slot_step *f = &w->s->steps[k];
		const struct avb_descriptor *e;
		struct avb_vbmeta pin[2];
		char sha1[2][41];

		if (f->kind != SLOT_CHAIN || !f->followed ||
		    strcmp(f->name, st->name))
			continue;
		e = &f->avb->img.vbmeta.desc[f->descriptor];
		/* the vbmeta it led to refused already: the set fails */
		if (!held(w, k) ||
		    (e->chain.public_key_len == d->chain.public_key_len &&
		     !memcmp(e->chain.public_key, d->chain.public_key,
			     d->chain.public_key_len)))
			return 0;
		memset(pin, 0, sizeof(pin));
		pin[0].public_key = d->chain.public_key;
		pin[0].h.public_key_size = d->chain.public_key_len;
		pin[1].public_key = e->chain.public_key;
		pin[1].h.public_key_size = e->chain.public_key_len;
		verity_android_key_sha1(&pin[0], sha1[0]);
		verity_android_key_sha1(&pin[1], sha1[1]);
		return ended(step_say(
			w, i, SLOT_REFUSED, SLOT_WHY_PINNED_KEY, -EPERM,
			"%s: chain partition %s pins key sha1 %s, and an "
			"earlier chain of it, in %s, key sha1 %s: its one "
			"vbmeta cannot be signed by both (libavb checks it "
			"again, and rejects the set)",
			a->path, st->name, sha1[0], w->s->steps[f->parent].path,
			sha1[1]));
	}
	return 0;
}

/* A chain partition descriptor: compared with what is expected, then
 * followed (each chained partition once a walk). */
static int chain_step(struct walk *w, size_t vstep,
		      const struct verity_android *a, size_t k, unsigned depth)
{
	const struct avb_descriptor *d = &a->img.vbmeta.desc[k];
	const unsigned flags = w->ask->flags;
	const int follow = (flags & SLOT_FOLLOW) &&
			   (!depth || (flags & SLOT_FOLLOW_NESTED));
	const struct slot_expected *x = NULL;
	char *path = NULL;
	size_t i;
	int r, e;

	if ((r = described(w, a, d, &path)))
		path = NULL;
	if ((e = step_add(w, SLOT_CHAIN, vstep, depth, d->chain.name,
			  d->chain.name_len, path ? path : a->path, &i))) {
		free(path);
		return e;
	}
	free(path);
	w->s->steps[i].avb = a;
	w->s->steps[i].descriptor = k;
	if (r)
		return step_fail(w, i, SLOT_ERROR, SLOT_WHY_NONE, r);
	/* libavb's slot verify: a chain's location indexes the device's
	 * rollback indexes, 1 to 31 (0 is the top vbmeta's) */
	if ((flags & SLOT_CHECK) &&
	    !(flags & (SLOT_EXPECTED | SLOT_FOLLOW_NESTED)) &&
	    (!d->chain.rollback_index_location ||
	     d->chain.rollback_index_location >= SLOT_ROLLBACK_LOCATIONS))
		return step_say(w, i, SLOT_REFUSED, SLOT_WHY_LOCATION, -EINVAL,
				"%s: chain partition %s: rollback index "
				"location %u: libavb takes 1 to %d, and "
				"refuses the set",
				a->path, w->s->steps[i].name,
				d->chain.rollback_index_location,
				SLOT_ROLLBACK_LOCATIONS - 1);
	if ((flags & SLOT_EXPECTED) && expected_of(w, d, &x)) {
		w->s->steps[i].expected = 1;
		if (x->rollback_index_location !=
		    d->chain.rollback_index_location)
			return step_say(w, i, SLOT_REFUSED, SLOT_WHY_LOCATION,
					-EINVAL,
					"%s: chain partition %s: rollback "
					"index location %u, %u expected",
					a->path, w->s->steps[i].name,
					d->chain.rollback_index_location,
					x->rollback_index_location);
		if (x->public_key_len != d->chain.public_key_len ||
		    memcmp(x->public_key, d->chain.public_key,
			   x->public_key_len))
			return step_say(w, i, SLOT_REFUSED, SLOT_WHY_KEY_BLOB,
					-EINVAL,
					"%s: chain partition %s: another "
					"public key blob than expected",
					a->path, w->s->steps[i].name);
	} else if (!follow && (flags & SLOT_EXPECTED)) {
		return step_say(w, i, SLOT_REFUSED, SLOT_WHY_NOT_EXPECTED,
				-EINVAL,
				"%s: chain partition %s: nothing expected of "
				"it, and it is not followed",
				a->path, w->s->steps[i].name);
	}
	if (!follow) {
		/* libavb takes chains in the top vbmeta only */
		if (depth && (flags & SLOT_CHECK) &&
		    !(flags & (SLOT_EXPECTED | SLOT_FOLLOW_NESTED)))
			return step_say(
				w, i, SLOT_REFUSED, SLOT_WHY_NESTED, -EINVAL,
				"%s: a chain partition descriptor (%s) in a "
				"chained vbmeta: libavb follows chains from "
				"the top vbmeta only, and refuses the set",
				a->path, w->s->steps[i].name);
		return step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
	}
	if ((r = seen_before(w, w->s->steps[i].name, NULL, &e)) > 0) {
		if ((flags & SLOT_CHECK) && (r = other_pin(w, i, a, d)))
			return r < 0 ? r : 0;
		return step_say(w, i, SLOT_SKIPPED, SLOT_WHY_VISITED, 0,
				"%s: chained partition %s visited already in "
				"this set",
				a->path, w->s->steps[i].name);
	}
	if (e)
		return e;
	w->s->steps[i].followed = 1;
	if ((r = step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL)))
		return r;
	path = strdup(w->s->steps[i].path);
	if (!path)
		return ht_fail(w->err, ENOMEM, "out of memory");
	r = visit(w, path, d, i, depth + 1);
	free(path);
	if (r ||
	    (r = in_super_too(w, a, i, d->chain.name, d->chain.name_len,
			      &path)) ||
	    !path)
		return r;
	/* super.img's too, its partitions checked again there (not
	 * "checked already": another image of them) */
	if ((r = step_add(w, SLOT_CHAIN, vstep, depth, d->chain.name,
			  d->chain.name_len, path, &i))) {
		free(path);
		return r;
	}
	w->s->steps[i].avb = a;
	w->s->steps[i].descriptor = k;
	w->s->steps[i].followed = 1;
	if (!(r = step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL))) {
		w->twice++;
		r = visit(w, path, d, i, depth + 1);
		w->twice--;
	}
	free(path);
	return r;
}

/* The descriptors of vbmeta step vstep, in order. */
static int descriptors(struct walk *w, size_t vstep,
		       const struct verity_android *a, unsigned depth)
{
	const struct avb_vbmeta *v = &a->img.vbmeta;
	int r = 0;

	for (size_t k = 0; !r && !w->stop && k < v->ndesc; k++) {
		const struct avb_descriptor *d = &v->desc[k];
		size_t i;

		if (d->tag == AVB_TAG_CHAIN_PARTITION)
			r = chain_step(w, vstep, a, k, depth);
		else if (d->tag == AVB_TAG_HASH || d->tag == AVB_TAG_HASHTREE)
			r = partition_step(w, vstep, a, k, depth, NULL, 0);
		else if (d->tag == AVB_TAG_KERNEL_CMDLINE &&
			 !(r = step_add(w, SLOT_CMDLINE, vstep, depth, NULL, 0,
					a->path, &i))) {
			w->s->steps[i].avb = a;
			w->s->steps[i].descriptor = k;
			r = step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL);
		}
	}
	return r;
}

/* The top vbmeta's flags, which a device booting the set obeys:
 * verification disabled (libavb checks none of its descriptors) or
 * the tree disabled (no dm-verity: androidboot.veritymode=disabled).
 * Checked here all the same; said, as a verdict "verified" would
 * otherwise speak for a device that checks nothing. */
static int top_flags(struct walk *w, const struct verity_android *a)
{
	const uint32_t f = a->img.vbmeta.h.flags;

	if (w->ask->flags & (SLOT_EXPECTED | SLOT_FOLLOW_NESTED))
		return 0;
	if (f & 2)
		return note(w,
			    "%s: the top vbmeta disables verification (flags "
			    "%u): a device booting this set checks none of "
			    "it; checked here all the same",
			    a->path, f);
	if (f & 1)
		return note(w,
			    "%s: the top vbmeta disables hashtrees (flags "
			    "%u): a device booting this set maps its "
			    "partitions without dm-verity; checked here all "
			    "the same",
			    a->path, f);
	return 0;
}

/* The vbmeta of the image at path: read, judged (the top one against
 * the walk's key, a chained one against the key pin pins), then its
 * descriptors. from: the chain step that led here (SIZE_MAX: none). */
static int visit(struct walk *w, const char *path,
		 const struct avb_descriptor *pin, size_t from, unsigned depth)
{
	struct slot_walk *s = w->s;
	const struct slot_step *parent =
		from == SIZE_MAX ? NULL : &s->steps[from];
	const char *pinner = NULL;
	enum verity_trust pinner_trust = VERITY_TRUST_UNSIGNED;
	uint32_t nl = 0;
	const uint8_t *name = pin ? verity_avb_desc_name(pin, &nl) : NULL;
	size_t i;
	struct verity_android *a;
	int r;

	if (parent) {
		const struct slot_step *vb = &s->steps[parent->parent];

		pinner = vb->path;
		pinner_trust = vb->trust;
	}
	/* the top image unreadable is the walk's error, no step */
	if (!depth && (r = verity_android_read(path, NULL, 1, &a, w->err)))
		return r;
	if ((r = step_add(w, SLOT_VBMETA, from, depth, name, nl, path, &i))) {
		if (!depth)
			verity_android_free(a);
		return r;
	}
	if (!depth)
		s->steps[i].own = a;
	if (++s->vbmetas > SLOT_MAX_VBMETA) {
		w->stop = 1;
		return step_say(w, i, SLOT_REFUSED, SLOT_WHY_LIMIT, -EINVAL,
				"%s: more than %d vbmeta images in one set "
				"(libavb's bound): not walked further",
				path, SLOT_MAX_VBMETA);
	}
	if (depth && (r = verity_android_read(path, NULL, 1, &a, w->err)))
		return step_fail(w, i, r == -ENODEV ? SLOT_MISSING : SLOT_ERROR,
				 SLOT_WHY_NONE, r);
	s->steps[i].own = a;
	s->steps[i].avb = a;
	if (w->ask->flags & SLOT_CHECK) {
		if ((r = judge(w, i, a, pin, pinner, pinner_trust)))
			return r < 0 ? r : 0;
		if (!depth && (r = top_flags(w, a)))
			return r;
		if ((r = verity_avb_check_partitions(&a->img, w->err))) {
			/* the step ended OK: what it holds is refused */
			s->steps[i].result = SLOT_REFUSED;
			s->steps[i].why = SLOT_WHY_DESCRIPTORS;
			s->steps[i].error = r;
			if (!(s->steps[i].message = strdup(ht_msg(w->err))))
				return ht_fail(w->err, ENOMEM, "out of memory");
			if (w->ask->told)
				w->ask->told(w->ask->ctx, s, i, 1);
			if (w->ask->flags & SLOT_STOP)
				w->stop = 1;
			return 0;
		}
	} else if ((r = step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL))) {
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
	const struct slot_ask *req = w->ask;
	const size_t want = req->npartitions ? req->npartitions : m->np;
	int r;

	*n = 0;
	if (!(*idx = calloc(want + 1, sizeof(**idx))))
		return ht_fail(w->err, ENOMEM, "out of memory");
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
			return ht_fail(w->err, EINVAL,
				       "%s: partition %zu is NULL", __func__,
				       k);
		/* a name with another slot's suffix is not this slot's */
		own = verity_lp_suffix_slot(asked);
		if (req->slot && own >= 0 && (uint32_t)own != w->slot)
			return ht_fail(w->err, EINVAL,
				       "%s: partition %s is slot %c's, "
				       "and slot %s was asked for",
				       req->image, asked, own ? 'b' : 'a',
				       req->slot);
		i = verity_super_pick(m, asked, picked, sizeof(picked));
		if (i < 0 && strcmp(picked, asked))
			return ht_fail(w->err, ENOENT,
				       "%s: no logical partition %s "
				       "(%s of slot %c, an A/B image)",
				       req->image, picked, asked,
				       m->slot ? 'b' : 'a');
		if (i < 0)
			return ht_fail(w->err, ENOENT,
				       "%s: no logical partition %s",
				       req->image, asked);
		if (strcmp(picked, asked) &&
		    (r = note(w, "%s: %s is partition %s (slot %c)", req->image,
			      asked, picked, m->slot ? 'b' : 'a')))
			return r;
		(*idx)[(*n)++] = (uint32_t)i;
	}
	return 0;
}

/* The pair of a logical partition's own footer, over its extents. */
static void own_pair(const struct verity_android *a, struct verity_pair *pair)
{
	*pair = a->pair;
	pair->data.path = pair->hash.path = a->path;
	if (a->src) {
		pair->data.extents = pair->hash.extents = a->src;
		if (pair->fec.region.path)
			pair->fec.region.extents = a->src;
	}
	pair->container = VERITY_CONTAINER_AVB;
	/* the descriptor lays out the data region and its blocks */
	pair->data_blocks_given = 1;
}

/* Logical partition i: its own footer's vbmeta judged against the
 * walk's key, its own descriptor checked over its extents. named: the
 * caller asked for it by name. */
static int super_partition(struct walk *w, uint32_t p, int named)
{
	struct slot_walk *s = w->s;
	const struct verity_super *vs = &s->super->s;
	const struct lp_partition *lp = &vs->m.p[p];
	const int anchored = w->ask->key_blob != NULL;
	char *path;
	size_t len = strlen(vs->path) + strlen(lp->name) + 2, i, vi;
	struct verity_android *a = NULL;
	int r;

	if (!(path = malloc(len)))
		return ht_fail(w->err, ENOMEM, "out of memory");
	snprintf(path, len, "%s/%s", vs->path, lp->name);
	r = step_add(w, SLOT_PARTITION, SIZE_MAX, 0, lp->name, strlen(lp->name),
		     path, &i);
	free(path);
	if (r)
		return r;
	s->steps[i].bytes = lp->size;
	s->steps[i].extents = lp->num_extents;
	s->steps[i].partition = p;
	/* with a trust anchor, a partition asked for and not checkable is
	 * a failure: nothing vouches for it */
	if (!lp->num_extents)
		return named && anchored
			       ? step_say(w, i, SLOT_REFUSED, SLOT_WHY_EMPTY,
					  -EPERM,
					  "%s: partition %s is empty (no "
					  "extents): nothing to check against "
					  "the key",
					  vs->path, s->steps[i].name)
			       : step_end(w, i, SLOT_SKIPPED, SLOT_WHY_EMPTY, 0,
					  NULL);
	r = verity_android_super_read(s->super, p, 1, &a, w->err);
	if (r == -ENOMSG)
		return anchored
			       ? step_say(w, i, SLOT_REFUSED,
					  SLOT_WHY_NO_FOOTER, -EPERM,
					  "%s/%s: no AVB footer: nothing in it "
					  "can be checked against the key",
					  vs->path, s->steps[i].name)
			       : step_end(w, i, SLOT_SKIPPED,
					  SLOT_WHY_NO_FOOTER, 0, NULL);
	if (r)
		return step_fail(w, i, SLOT_ERROR, SLOT_WHY_NONE, r);
	if ((r = step_end(w, i, SLOT_OK, SLOT_WHY_NONE, 0, NULL))) {
		verity_android_free(a);
		return r;
	}
	if ((r = step_add(w, SLOT_VBMETA, i, 0, lp->name, strlen(lp->name),
			  a->path, &vi))) {
		verity_android_free(a);
		return r;
	}
	s->steps[vi].own = a;
	s->steps[vi].avb = a;
	if ((r = judge(w, vi, a, NULL, NULL, VERITY_TRUST_UNSIGNED)))
		return r < 0 ? r : 0;
	/* its own partition's descriptor: the first hash or hashtree one */
	for (size_t k = 0; k < a->img.vbmeta.ndesc; k++) {
		const struct avb_descriptor *d = &a->img.vbmeta.desc[k];
		size_t di;

		if (d->tag == AVB_TAG_HASHTREE) {
			struct verity_pair own;

			if (!a->paired) {
				if ((r = step_add(w, SLOT_HASHTREE, vi, 0,
						  lp->name, strlen(lp->name),
						  a->path, &di)))
					return r;
				r = verity_android_unpaired(a, w->err);
				return step_fail(w, di, SLOT_ERROR,
						 SLOT_WHY_NONE, r);
			}
			if (a->shown)
				return verity_android_unpaired(a, w->err);
			own_pair(a, &own);
			return partition_step(w, vi, a, k, 0, &own, 1);
		}
		if (d->tag == AVB_TAG_HASH)
			return partition_step(w, vi, a, k, 0, NULL, 1);
	}
	if ((r = step_add(w, SLOT_HASH, vi, 0, lp->name, strlen(lp->name),
			  a->path, &vi)))
		return r;
	return step_say(w, vi, SLOT_ERROR, SLOT_WHY_NONE, -EINVAL,
			"%s: the vbmeta has neither a hashtree nor a hash "
			"descriptor",
			a->path);
}

static int super_walk(struct walk *w)
{
	const struct slot_ask *req = w->ask;
	struct slot_walk *s = w->s;
	uint32_t *idx = NULL;
	size_t n = 0;
	int r;

	if ((r = verity_android_super_open(req->image, req->device_names,
					   req->device_files, req->ndevices, 0,
					   &s->super, w->err)))
		return r;
	if (req->slot && w->slot >= s->super->s.m.slots)
		return ht_fail(w->err, EINVAL,
			       "%s: metadata of %u slot%s: no slot %s "
			       "(slot b is metadata slot 1)",
			       req->image, s->super->s.m.slots,
			       s->super->s.m.slots == 1 ? "" : "s", req->slot);
	if (w->slot) {
		verity_android_super_close(s->super);
		s->super = NULL;
		if ((r = verity_android_super_open(
			     req->image, req->device_names, req->device_files,
			     req->ndevices, w->slot, &s->super, w->err)))
			return r;
	}
	for (size_t k = 0; k < s->super->nnotes; k++)
		if ((r = note(w, "%s", s->super->notes[k])))
			return r;
	if ((r = super_pick(w, &s->super->s.m, &idx, &n)))
		goto out;
	for (size_t k = 0; !r && !w->stop && k < n; k++)
		r = super_partition(w, idx[k], req->npartitions != 0);
out:
	free(idx);
	return r;
}

/* ---- the walk ---- */

int verity_slot_walk(struct slot_walk *s, const struct slot_ask *ask,
		     struct ht_error *err)
{
	struct walk w = {.s = s, .ask = ask, .err = err};
	int r;

	w.slot = ask->slot && !strcmp(ask->slot, "b");
	if (!strcmp(ask->kind, "super")) {
		r = super_walk(&w);
		snprintf(s->slot, sizeof(s->slot), "%c",
			 s->super && verity_lp_ab(&s->super->s.m)
				 ? (w.slot ? 'b' : 'a')
				 : '\0');
	} else if (!strcmp(ask->kind, "avb")) {
		if (ask->npartitions)
			r = ht_fail(err, EINVAL,
				    "%s: partitions are chosen in a super "
				    "image, not in a vbmeta's set",
				    ask->image);
		else
			r = visit(&w, ask->image, NULL, SIZE_MAX, 0);
		if (ask->slot)
			snprintf(s->slot, sizeof(s->slot), "%s", ask->slot);
	} else {
		r = ht_fail(err, EINVAL,
			    "%s: not an Android firmware set (no AVB footer "
			    "or vbmeta, no super image metadata)",
			    ask->image);
	}
	return r;
}

void verity_slot_walk_free(struct slot_walk *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct slot_step *st = &s->steps[i];

		free(st->name);
		free(st->path);
		free(st->message);
		free(st->signer);
		verity_android_free(st->own);
	}
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	for (size_t i = 0; i < s->nseen; i++)
		free(s->seen[i].name);
	free(s->steps);
	free(s->notes);
	free(s->seen);
	verity_android_super_close(s->super);
	memset(s, 0, sizeof(*s));
}
