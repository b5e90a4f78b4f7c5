/* avbtool's writers' requests (include/fastverity.h, "Android images
 * written") checked and read into the container's options
 * (verity/container/avb/image.h), and the writes that need nothing
 * else: a vbmeta image, what a request needs of libavb. */
#include "verity/android/request.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verity/android/write.h"
#include "verity/registry/registry.h"
#include "verity/ops/ops.h"
#include "verity/ops/parse.h"
#include "verity/storage/backing.h"
#include "verity/sign/scheme.h"
#include "verity/storage/file.h"
#include "verity/tree/params.h"

_Static_assert((unsigned)FV_FOOTER_DO_NOT_USE_AB ==
			       AVB_HASHTREE_DO_NOT_USE_AB &&
		       (unsigned)FV_FOOTER_CHECK_AT_MOST_ONCE ==
			       AVB_HASHTREE_CHECK_AT_MOST_ONCE &&
		       (unsigned)FV_CHAIN_DO_NOT_USE_AB ==
			       AVB_CHAIN_DO_NOT_USE_AB,
	       "the footer or chain flags and the descriptor's differ");

/* An argument that must not be NULL: the message names the function,
 * as the door's. */
#define NEED(x)                                                       \
	do {                                                          \
		if (!(x))                                             \
			return ht_fail(err, EINVAL, "%s: %s is NULL", \
				       __func__, #x);                 \
	} while (0)

/* A caller's versioned request (in) copied into full, zeros past what
 * the caller has: its size at least up to last (the door's TAKE). */
#define TAKE(full, in, last)                                                   \
	do {                                                                   \
		NEED(in);                                                      \
		memset(&(full), 0, sizeof(full));                              \
		if ((in)->size <                                               \
		    offsetof(__typeof__(full), last) + sizeof((full).last))    \
			return ht_fail(err, EINVAL,                            \
				       "%s: size %zu is too small", __func__,  \
				       (in)->size);                            \
		memcpy(&(full), (in),                                          \
		       (in)->size < sizeof(full) ? (in)->size : sizeof(full)); \
	} while (0)

void verity_android_vb_done(struct verity_android_vb *v)
{
	for (size_t i = 0; v->in_chains && v->in_chains[i].partition; i++)
		free((char *)v->in_chains[i].partition);
	for (size_t i = 0; i < v->nin_props; i++) {
		free((char *)v->in_props[i].key);
		free(v->values[i]);
	}
	free(v->in_chains);
	free(v->in_props);
	free(v->values);
	free(v->cmdlines);
	free(v->includes);
	free(v->props);
	free(v->chains);
	free(v->changed);
	memset(v, 0, sizeof(*v));
}

/* --- avbtool's options, as its command line spells them ------------- */

/* The value of option name in n pairs (the last one given), or NULL. */
static const char *value_of_pairs(const char *const *o, size_t n,
				  const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(o[2 * i], name))
			v = o[2 * i + 1];
	return v;
}

static const char *value_of(const struct fv_vbmeta_request *q, const char *name)
{
	return value_of_pairs(q->options, q->noptions, name);
}

/* How many times option name is given. */
static size_t count_of(const struct fv_vbmeta_request *q, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < q->noptions; i++)
		n += !strcmp(q->options[2 * i], name);
	return n;
}

/* avbtool's numbers (parse_number): decimal, 0x hex, 0o octal, 0b
 * binary, at most max. Not one: EDOM, argparse's usage error (notnum
 * another errno: where avbtool's int() fails in the run). */
static int number(const char *opt, const char *s, uint64_t max, int notnum,
		  uint64_t *out, struct ht_error *err)
{
	const char *digits = s;
	unsigned long long v = 0;
	int base = 10;
	char *end = NULL;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, digits = s + 2;
	else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
		base = 8, digits = s + 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, digits = s + 2;
	errno = 0;
	if (*digits && *digits != '-' && *digits != '+' && *digits != ' ')
		v = strtoull(digits, &end, base);
	if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ' ||
	    *end || errno == EINVAL)
		return ht_fail(err, notnum, "--%s: '%s' is not a number", opt,
			       s);
	if (errno || v > max)
		return ht_fail(err, EINVAL, "--%s: %s is larger than %" PRIu64,
			       opt, s, max);
	*out = v;
	return 0;
}

/* Option opt, when given, as a number into *out. */
static int number_of(const struct fv_vbmeta_request *q, const char *opt,
		     uint64_t max, uint64_t *out, struct ht_error *err)
{
	const char *s = value_of(q, opt);

	return s ? number(opt, s, max, EDOM, out, err) : 0;
}

/* --chain_partition(_do_not_use_ab) PART_NAME:ROLLBACK_SLOT:KEY_PATH,
 * those with A/B first (avbtool's order), into v's list. */
static int chains_of(struct fv_vbmeta_request *q, struct verity_android_vb *v,
		     struct ht_error *err)
{
	static const char *const names[] = {"chain_partition",
					    "chain_partition_do_not_use_ab"};
	size_t n = count_of(q, names[0]) + count_of(q, names[1]), k = 0;

	if (!n)
		return 0;
	if (!(v->in_chains = calloc(n + 1, sizeof(*v->in_chains))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < q->noptions; i++) {
			const char *s = q->options[2 * i + 1], *c1, *c2;
			uint64_t loc;
			char *num;
			int r;

			if (strcmp(q->options[2 * i], names[pass]))
				continue;
			if (!(c1 = strchr(s, ':')) ||
			    !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
				return ht_fail(err, EINVAL,
					       "Malformed chained partition "
					       "\"%s\".",
					       s);
			if (!(num = strndup(c1 + 1, (size_t)(c2 - c1 - 1))))
				return ht_fail(err, ENOMEM, "out of memory");
			/* (avbtool's int() of it fails in the run) */
			r = number("chain_partition", num, UINT32_MAX, EINVAL,
				   &loc, err);
			free(num);
			if (r)
				return r;
			v->in_chains[k] = (struct fv_vbmeta_chain){
				strndup(s, (size_t)(c1 - s)), (uint32_t)loc,
				c2 + 1, pass ? FV_CHAIN_DO_NOT_USE_AB : 0};
			if (!v->in_chains[k++].partition)
				return ht_fail(err, ENOMEM, "out of memory");
		}
	q->chains = v->in_chains;
	q->nchains = n;
	return 0;
}

/* --prop KEY:VALUE, then --prop_from_file KEY:PATH (its bytes). */
static int props_of(struct fv_vbmeta_request *q, struct verity_android_vb *v,
		    struct ht_error *err)
{
	static const char *const names[] = {"prop", "prop_from_file"};
	size_t n = count_of(q, names[0]) + count_of(q, names[1]);
	int r;

	if (!n)
		return 0;
	if (!(v->in_props = calloc(n, sizeof(*v->in_props))) ||
	    !(v->values = calloc(n, sizeof(*v->values))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < q->noptions; i++) {
			const char *s = q->options[2 * i + 1],
				   *colon = strchr(s, ':');
			struct fv_vbmeta_property *p =
				&v->in_props[v->nin_props];

			if (strcmp(q->options[2 * i], names[pass]))
				continue;
			if (!colon)
				return ht_fail(err, EINVAL,
					       "Malformed property \"%s\".", s);
			if (!(p->key = strndup(s, (size_t)(colon - s))))
				return ht_fail(err, ENOMEM, "out of memory");
			v->nin_props++;
			if (!pass) {
				p->value = (const uint8_t *)colon + 1;
				p->len = strlen(colon + 1);
			} else if ((r = verity_read_file(
					    colon + 1, "property file",
					    1u << 20,
					    &v->values[v->nin_props - 1],
					    &p->len, err))) {
				return r == -ENOENT ? -EINVAL : r;
			} else {
				p->value = v->values[v->nin_props - 1];
			}
		}
	q->properties = v->in_props;
	q->nproperties = n;
	return 0;
}

/* The values of list option name, into *list (kept in *keep). */
static int list_of(const struct fv_vbmeta_request *q, const char *name,
		   const char **keep[], const char *const **list, size_t *n,
		   struct ht_error *err)
{
	size_t count = count_of(q, name), k = 0;

	if (!count)
		return 0;
	if (!(*keep = calloc(count, sizeof(**keep))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < q->noptions; i++)
		if (!strcmp(q->options[2 * i], name))
			(*keep)[k++] = q->options[2 * i + 1];
	*list = *keep;
	*n = count;
	return 0;
}

/* A footer's options into f (after the vbmeta's, as avbtool reads
 * them). */
static int footer_options(const struct fv_vbmeta_request *q,
			  struct fv_footer_request *f,
			  struct verity_android_vb *v, struct ht_error *err)
{
	static const struct {
		const char *name;
		unsigned flag;
	} flags[] = {
		{"do_not_use_ab", FV_FOOTER_DO_NOT_USE_AB},
		{"check_at_most_once", FV_FOOTER_CHECK_AT_MOST_ONCE},
		{"dynamic_partition_size", FV_FOOTER_DYNAMIC_SIZE},
		{"do_not_append_vbmeta_image", FV_FOOTER_DO_NOT_APPEND},
		{"use_persistent_digest", FV_FOOTER_PERSISTENT_DIGEST},
		{"do_not_generate_fec", FV_FOOTER_NO_FEC},
	};
	uint64_t block = f->block_size, size = f->partition_size,
		 roots = f->fec_roots;
	const char *s;
	int r;

	if ((r = number_of(q, "block_size", UINT32_MAX, &block, err)) ||
	    (r = number_of(q, "partition_size", INT64_MAX, &size, err)) ||
	    (r = number_of(q, "fec_num_roots", 255, &roots, err)))
		return r;
	f->block_size = (uint32_t)block;
	f->partition_size = size;
	f->fec_roots = (unsigned)roots;
	if (value_of(q, "fec_num_roots") && !roots)
		f->flags |= FV_FOOTER_NO_FEC;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (value_of(q, flags[i].name))
			f->flags |= flags[i].flag;
	if ((s = value_of(q, "partition_name")))
		f->partition_name = s;
	if ((s = value_of(q, "hash_algorithm")))
		f->hash = s;
	if ((s = value_of(q, "output_vbmeta_image")))
		f->output_vbmeta = s;
	/* --salt: hex, '' for none */
	if ((s = value_of(q, "salt"))) {
		if (verity_hex_decode(s, v->salt, sizeof(v->salt),
				      &f->salt_len))
			return ht_fail(err, EINVAL,
				       "--salt: '%s' is not hex of at most %d "
				       "bytes",
				       s, FV_MAX_SALT_SIZE);
		f->salt = v->salt;
		f->flags |= FV_FOOTER_SALT_GIVEN;
	}
	return 0;
}

/* q's options (and for a footer f's) read into q and f, what they need
 * kept in v (verity_android_vb_done, also on failure). Options another
 * caller's name: refused. */
static int options_of(struct fv_vbmeta_request *q, struct fv_footer_request *f,
		      struct verity_android_vb *v, struct ht_error *err)
{
	static const char *const vbmeta[] = {"algorithm",
					     "key",
					     "deterministic",
					     "rollback_index",
					     "rollback_index_location",
					     "flags",
					     "set_hashtree_disabled_flag",
					     "set_verification_disabled_flag",
					     "internal_release_string",
					     "append_to_release_string",
					     "chain_partition",
					     "chain_partition_do_not_use_ab",
					     "prop",
					     "prop_from_file",
					     "kernel_cmdline",
					     "include_descriptors_from_image",
					     "signing_helper",
					     "signing_helper_with_files",
					     "public_key_metadata",
					     NULL};
	static const char *const footer[] = {"partition_name",
					     "partition_size",
					     "hash_algorithm",
					     "salt",
					     "block_size",
					     "fec_num_roots",
					     "do_not_generate_fec",
					     "do_not_use_ab",
					     "check_at_most_once",
					     "dynamic_partition_size",
					     "do_not_append_vbmeta_image",
					     "use_persistent_digest",
					     "output_vbmeta_image",
					     "changed",
					     NULL};
	uint64_t index = q->rollback_index, location = q->rollback_location,
		 flags = q->flags;
	const char *s;
	int r;

	for (size_t i = 0; i < q->noptions; i++) {
		const char *name = q->options[2 * i];
		size_t k = 0, j = 0;

		NEED(name);
		NEED(q->options[2 * i + 1]);
		while (vbmeta[k] && strcmp(vbmeta[k], name))
			k++;
		while (f && !vbmeta[k] && footer[j] && strcmp(footer[j], name))
			j++;
		if (!vbmeta[k] && (!f || !footer[j]) &&
		    (f || strcmp(name, "padding_size")))
			return ht_fail(err, EINVAL, "no %s option %s",
				       f ? "footer" : "vbmeta", name);
	}
	if ((r = number_of(q, "rollback_index", UINT64_MAX, &index, err)) ||
	    (r = number_of(q, "rollback_index_location", UINT32_MAX, &location,
			   err)) ||
	    (r = number_of(q, "flags", UINT32_MAX, &flags, err)))
		return r;
	q->rollback_index = index;
	q->rollback_location = (uint32_t)location;
	q->flags = (uint32_t)flags |
		   (value_of(q, "set_hashtree_disabled_flag") ? 1u : 0) |
		   (value_of(q, "set_verification_disabled_flag") ? 2u : 0);
	if (value_of(q, "deterministic"))
		q->sign_flags |= FV_VBMETA_DETERMINISTIC;
	if ((s = value_of(q, "algorithm")))
		q->algorithm = s;
	if ((s = value_of(q, "key")))
		q->key = s;
	if ((s = value_of(q, "internal_release_string")))
		q->release = s;
	if ((s = value_of(q, "append_to_release_string")))
		q->release_append = s;
	if ((s = value_of(q, "public_key_metadata")))
		q->public_key_metadata = s;
	if ((s = value_of(q, "signing_helper")))
		q->signing_helper = s;
	if ((s = value_of(q, "signing_helper_with_files"))) {
		q->signing_helper = s;
		q->signing_helper_with_files = 1;
	}
	if ((r = chains_of(q, v, err)) || (r = props_of(q, v, err)) ||
	    (r = list_of(q, "kernel_cmdline", &v->cmdlines, &q->cmdlines,
			 &q->ncmdlines, err)) ||
	    (r = list_of(q, "include_descriptors_from_image", &v->includes,
			 &q->includes, &q->nincludes, err)))
		return r;
	if (f && (r = footer_options(q, f, v, err)))
		return r;
	/* fastverity's --changed, after avbtool's options */
	if (f && (s = value_of(q, "changed"))) {
		if ((r = verity_ops_ranges(s, &v->changed, &f->nchanged, err)))
			return r;
		f->changed = v->changed;
		f->flags |= FV_FOOTER_CHANGED_GIVEN;
	}
	/* (a vbmeta image's padding_size, after its options) */
	if (!f &&
	    (r = number_of(q, "padding_size", 1u << 30, &v->padding, err)))
		return r;
	q->noptions = 0; /* read */
	return 0;
}

/* A list of n that must be there when n is not 0. */
#define LIST(p, n, what)                                              \
	do {                                                          \
		if ((n) && !(p))                                      \
			return ht_fail(err, EINVAL, "%s: %s is NULL", \
				       __func__, what);               \
	} while (0)

static int vb_check(const struct fv_vbmeta_request *in,
		    struct verity_android_vb *v, struct ht_error *err);

/* in (its options read first) into v, which was zeroed or holds what
 * the options of a footer's vbmeta were read into; v freed on
 * failure. */
static int vb_of(const struct fv_vbmeta_request *in,
		 struct verity_android_vb *v, struct ht_error *err)
{
	int r = vb_check(in, v, err);

	if (r)
		verity_android_vb_done(v);
	return r;
}

static int vb_check(const struct fv_vbmeta_request *in,
		    struct verity_android_vb *v, struct ht_error *err)
{
	static const unsigned sign_known = FV_VBMETA_DETERMINISTIC;
	struct fv_vbmeta_request q;
	const char *name;
	int alg, r;

	v->o.algorithm = AVB_ALG_NONE;
	if (!in)
		return 0;
	TAKE(q, in, public_key_metadata);
	if (q.noptions && (r = options_of(&q, NULL, v, err)))
		return r;
	name = q.algorithm ? q.algorithm : "NONE";
	if ((alg = verity_avb_algorithm_by_name(name)) < 0)
		return ht_fail(
			err, EINVAL,
			"Algorithm with name %s is not supported (NONE, "
			"SHA256_RSA2048, SHA256_RSA4096, SHA256_RSA8192, "
			"SHA512_RSA2048, SHA512_RSA4096, SHA512_RSA8192, "
			"MLDSA65, MLDSA87)",
			name);
	if (q.sign_flags & ~sign_known)
		return ht_fail(err, EINVAL, "unknown signing flags %#x",
			       q.sign_flags);
	LIST(q.chains, q.nchains, "chains");
	LIST(q.properties, q.nproperties, "properties");
	LIST(q.cmdlines, q.ncmdlines, "cmdlines");
	LIST(q.includes, q.nincludes, "includes");
	for (size_t i = 0; i < q.nchains; i++) {
		const struct fv_vbmeta_chain *c = &q.chains[i];

		NEED(c->partition);
		NEED(c->key_path);
		if (c->flags & ~(unsigned)FV_CHAIN_DO_NOT_USE_AB)
			return ht_fail(err, EINVAL, "unknown chain flags %#x",
				       c->flags);
	}
	for (size_t i = 0; i < q.nproperties; i++) {
		NEED(q.properties[i].key);
		LIST(q.properties[i].value, q.properties[i].len, "a value");
	}
	for (size_t i = 0; i < q.ncmdlines; i++)
		NEED(q.cmdlines[i]);
	for (size_t i = 0; i < q.nincludes; i++)
		NEED(q.includes[i]);
	if ((q.nchains &&
	     !(v->chains = calloc(q.nchains, sizeof(*v->chains)))) ||
	    (q.nproperties &&
	     !(v->props = calloc(q.nproperties, sizeof(*v->props)))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < q.nchains; i++)
		v->chains[i] = (struct avb_chain){
			q.chains[i].partition, q.chains[i].location,
			q.chains[i].key_path, q.chains[i].flags};
	for (size_t i = 0; i < q.nproperties; i++)
		v->props[i] = (struct avb_prop){q.properties[i].key,
						q.properties[i].value,
						q.properties[i].len};
	v->o = (struct avb_vbmeta_opts){
		.algorithm = alg,
		.key_path = q.key,
		.deterministic = !!(q.sign_flags & FV_VBMETA_DETERMINISTIC),
		.signing_helper = q.signing_helper,
		.helper_files = q.signing_helper && q.signing_helper_with_files,
		.temp_dir = q.temp_dir,
		.public_key_metadata = q.public_key_metadata,
		.rollback_index = q.rollback_index,
		.rollback_index_location = q.rollback_location,
		.flags = q.flags,
		.release = q.release,
		.append_release = q.release_append,
		.props = v->props,
		.nprops = q.nproperties,
		.cmdlines = q.cmdlines,
		.ncmdlines = q.ncmdlines,
		.chains = v->chains,
		.nchains = q.nchains,
		.includes = q.includes,
		.nincludes = q.nincludes,
	};
	return 0;
}

/* 0 when output is none of the files o reads (its included images, its
 * key, the public key metadata, the signing helper, a chained
 * partition's key); else the refusal, naming it. */
static int not_an_input(const char *output, const struct avb_vbmeta_opts *o,
			struct ht_error *err)
{
	const char *fixed[] = {o->key_path, o->public_key_metadata,
			       o->signing_helper};
	size_t n = sizeof(fixed) / sizeof(fixed[0]);

	for (size_t i = 0; i < n + o->nincludes + o->nchains; i++) {
		const char *in =
			i < n ? fixed[i]
			: i < n + o->nincludes
				? o->includes[i - n]
				: o->chains[i - n - o->nincludes].key_path;

		if (in && verity_path_same_storage(output, in))
			return ht_fail(err, EINVAL,
				       "%s: is the input %s: an output "
				       "is never written over what is "
				       "read",
				       output, in);
	}
	return 0;
}

/* A footer request as the container takes it, for image (its vbmeta's
 * lists in v, freed by vb_done). */
static int footer_check(const struct fv_footer_request *in, const char *image,
			struct avb_footer_opts *o, struct verity_android_vb *v,
			struct verity_range **changed, struct ht_error *err);

static int footer_of(const struct fv_footer_request *in, const char *image,
		     struct avb_footer_opts *o, struct verity_android_vb *v,
		     struct verity_range **changed, struct ht_error *err)
{
	struct fv_footer_request q;
	struct fv_vbmeta_request vq;
	int r = 0;

	*changed = NULL;
	memset(v, 0, sizeof(*v));
	TAKE(q, in, vbmeta);
	/* avbtool's options: the vbmeta's, then the footer's */
	if (q.vbmeta) {
		TAKE(vq, q.vbmeta, public_key_metadata);
		if (vq.noptions)
			r = options_of(&vq, &q, v, err);
		q.vbmeta = &vq;
	}
	if (r || (r = footer_check(&q, image, o, v, changed, err)))
		verity_android_vb_done(v);
	return r;
}

static int footer_check(const struct fv_footer_request *in, const char *image,
			struct avb_footer_opts *o, struct verity_android_vb *v,
			struct verity_range **changed, struct ht_error *err)
{
	static const unsigned known =
		FV_FOOTER_DO_NOT_USE_AB | FV_FOOTER_CHECK_AT_MOST_ONCE |
		FV_FOOTER_DYNAMIC_SIZE | FV_FOOTER_DO_NOT_APPEND |
		FV_FOOTER_PERSISTENT_DIGEST | FV_FOOTER_NO_FEC |
		FV_FOOTER_SALT_GIVEN | FV_FOOTER_CHANGED_GIVEN;
	struct fv_footer_request q;
	int tree, r;

	TAKE(q, in, vbmeta);
	if (q.kind != FV_FOOTER_HASH && q.kind != FV_FOOTER_HASHTREE)
		return ht_fail(err, EINVAL, "no footer of kind %d",
			       (int)q.kind);
	tree = q.kind == FV_FOOTER_HASHTREE;
	if (!q.hash)
		q.hash = tree ? "sha1" : "sha256";
	if (!verity_avb_digest_size(q.hash))
		return ht_fail(err, EINVAL,
			       "hash algorithm '%s' is not supported "
			       "(sha1, sha256, sha512)",
			       q.hash);
	if (q.flags & ~known)
		return ht_fail(err, EINVAL, "unknown footer flags %#x",
			       q.flags);
	if (q.salt_len > VERITY_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "salt of %zu bytes is too long (at most %d)",
			       q.salt_len, VERITY_MAX_SALT_SIZE);
	LIST(q.salt, q.salt_len, "salt");
	LIST(q.changed, q.nchanged, "changed");
	if (q.nchanged > SIZE_MAX / sizeof(**changed))
		return ht_fail(err, EINVAL, "%zu changed ranges", q.nchanged);
	if ((r = vb_of(q.vbmeta, v, err)))
		return r;
	/* --output_vbmeta_image: none of the inputs, nor the image */
	if (q.output_vbmeta &&
	    ((r = not_an_input(q.output_vbmeta, &v->o, err)) ||
	     (image && verity_path_same_storage(q.output_vbmeta, image) &&
	      (r = ht_fail(err, EINVAL,
			   "%s: is the image %s: an output is never "
			   "written over what is read",
			   q.output_vbmeta, image))))) {
		verity_android_vb_done(v);
		return r;
	}
	if ((q.flags & FV_FOOTER_CHANGED_GIVEN) &&
	    !(*changed =
		      calloc(q.nchanged ? q.nchanged : 1, sizeof(**changed)))) {
		verity_android_vb_done(v);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; *changed && i < q.nchanged; i++)
		(*changed)[i] = (struct verity_range){q.changed[2 * i],
						      q.changed[2 * i + 1]};
	*o = (struct avb_footer_opts){
		.image = image,
		.partition_size = q.partition_size,
		.dynamic_size = !!(q.flags & FV_FOOTER_DYNAMIC_SIZE),
		.partition_name = q.partition_name ? q.partition_name : "",
		.hash_algorithm = q.hash,
		.block_size = q.block_size ? q.block_size : 4096,
		.salt = (q.flags & FV_FOOTER_SALT_GIVEN) ? q.salt : NULL,
		.salt_len = (q.flags & FV_FOOTER_SALT_GIVEN) ? q.salt_len : 0,
		.salt_given = !!(q.flags & FV_FOOTER_SALT_GIVEN),
		.fec = tree && !(q.flags & FV_FOOTER_NO_FEC),
		.roots = q.fec_roots ? q.fec_roots : 2,
		.descriptor_flags = q.flags & (FV_FOOTER_DO_NOT_USE_AB |
					       FV_FOOTER_CHECK_AT_MOST_ONCE),
		.do_not_append = !!(q.flags & FV_FOOTER_DO_NOT_APPEND),
		.output_vbmeta = q.output_vbmeta,
		.persistent_digest = !!(q.flags & FV_FOOTER_PERSISTENT_DIGEST),
		.vb = v->o,
		.changed = *changed,
		.nchanged = *changed ? q.nchanged : 0,
	};
	return 0;
}

int verity_android_footer_of(const struct fv_footer_request *in,
			     const char *image, struct verity_android_footer *f,
			     struct ht_error *err)
{
	return footer_of(in, image, &f->o, &f->v, &f->changed, err);
}

void verity_android_footer_done(struct verity_android_footer *f)
{
	free(f->changed);
	verity_android_vb_done(&f->v);
}

int verity_android_make_vbmeta(const char *output,
			       const struct fv_vbmeta_request *in,
			       uint64_t padding, struct ht_error *err)
{
	/* the files its avbtool options name read first, in this order,
	 * none the output (in the command's words) */
	static const char *const inputs[] = {
		"include_descriptors_from_image", "key", "public_key_metadata",
		"signing_helper", "signing_helper_with_files"};
	struct verity_android_vb v;
	int r;

	NEED(in);
	for (size_t k = 0; output && in->size >= sizeof(*in) && k < 5; k++)
		for (size_t i = 0; i < in->noptions; i++) {
			const char *at = in->options[2 * i + 1];

			if (!strcmp(in->options[2 * i], inputs[k]) && at &&
			    verity_path_same_storage(output, at))
				return ht_fail(err, EINVAL,
					       "--output %s: is the input %s: "
					       "an output is never written "
					       "over what is read",
					       output, at);
		}
	memset(&v, 0, sizeof(v));
	if ((r = vb_of(in, &v, err)))
		return r;
	if (!(r = not_an_input(output, &v.o, err)))
		r = verity_avb_make_vbmeta_image(
			output, &v.o, v.padding ? v.padding : padding, err);
	verity_android_vb_done(&v);
	return r;
}

/* The avbtool options of in, or of fin's vbmeta, read alone. */
static int options_only(const struct fv_vbmeta_request *in,
			const struct fv_footer_request *fin,
			struct ht_error *err)
{
	struct fv_footer_request q;
	struct fv_vbmeta_request vq;
	struct verity_android_vb v;
	int r = 0;

	memset(&v, 0, sizeof(v));
	if (fin) {
		TAKE(q, fin, vbmeta);
		in = q.vbmeta;
	}
	if (in) {
		TAKE(vq, in, public_key_metadata);
		r = options_of(&vq, fin ? &q : NULL, &v, err);
	}
	verity_android_vb_done(&v);
	return r;
}

int verity_android_needs(const struct fv_vbmeta_request *in,
			 const struct fv_footer_request *fin, unsigned *minor,
			 uint64_t *max, struct ht_error *err)
{
	struct verity_android_footer f;
	int r;

	if (!in == !fin)
		return ht_fail(err, EINVAL,
			       "fv_avb_needs: one of a vbmeta and a "
			       "footer request");
	if (!minor)
		return options_only(in, fin, err);
	if (!fin) {
		memset(&f.v, 0, sizeof(f.v));
		if ((r = vb_of(in, &f.v, err)))
			return r;
		r = verity_android_required_minor(&f.v.o, NULL, minor, err);
		verity_android_vb_done(&f.v);
		return r;
	}
	/* the footer read once (the files its options name too): its libavb
	 * version, then its largest image */
	if ((r = verity_android_footer_of(fin, NULL, &f, err)))
		return r;
	if (!(r = verity_android_required_minor(&f.v.o, &f.o, minor, err)))
		*max = verity_avb_max_image_size(&f.o,
						 fin->kind == FV_FOOTER_HASHTREE
							 ? AVB_FOOTER_HASHTREE
							 : AVB_FOOTER_HASH);
	verity_android_footer_done(&f);
	return r;
}

void verity_android_shown_done(struct verity_android_shown *s)
{
	for (size_t i = 0; i < s->nexpected; i++) {
		free((char *)s->expected[i].name);
		free((uint8_t *)s->expected[i].public_key);
	}
	free(s->expected);
	memset(s, 0, sizeof(*s));
}

/* --expected_chain_partition NAME:LOCATION:KEY_PATH into x. */
static int expected_of(const char *spec, struct fv_slot_expected *x,
		       struct ht_error *err)
{
	const char *c1 = strchr(spec, ':'), *c2;
	unsigned long loc = 0;
	uint8_t *key;
	char *end = NULL;
	int r;

	if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':') ||
	    (loc = strtoul(c1 + 1, &end, 10)) > UINT32_MAX || end != c2 ||
	    c1 + 1 == c2)
		return ht_fail(err, EINVAL,
			       "malformed chained partition \"%s\"", spec);
	if (!(x->name = strndup(spec, (size_t)(c1 - spec))))
		return ht_fail(err, ENOMEM, "out of memory");
	x->rollback_index_location = (unsigned)loc;
	r = verity_read_file(c2 + 1, "public key file", 1u << 16, &key,
			     &x->public_key_len, err);
	x->public_key = r ? NULL : key;
	return r == -ENOENT ? -EINVAL : r;
}

int verity_android_shown_of(const struct fv_show_request *q,
			    struct verity_android_shown *s,
			    struct ht_error *err)
{
	const char *want = q->what == FV_SHOW_AVB_VBMETA ? "padding_size"
			   : q->what == FV_SHOW_AVB_VBMETA_DIGEST
				   ? "hash_algorithm"
			   : q->what == FV_SHOW_AVB_VERIFY
				   ? "expected_chain_partition"
				   : "",
		   *v;
	uint8_t *blob;
	size_t n = 0, len;
	int r;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < q->noptions; i++) {
		NEED(q->options[2 * i]);
		NEED(q->options[2 * i + 1]);
		if (strcmp(q->options[2 * i], want))
			return ht_fail(err, EINVAL, "fv_show: no option %s",
				       q->options[2 * i]);
		n++;
	}
	if ((v = value_of_pairs(q->options, q->noptions, "padding_size")) &&
	    (r = number("padding_size", v, 1u << 30, EDOM, &s->padding, err)))
		return r;
	s->hash = value_of_pairs(q->options, q->noptions, "hash_algorithm");
	if (q->what != FV_SHOW_AVB_VERIFY)
		return 0;
	if (n && !(s->expected = calloc(n, sizeof(*s->expected))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if ((r = expected_of(q->options[2 * i + 1],
				     &s->expected[s->nexpected++], err)))
			return r;
	/* the key's blob, read to say what is wrong with it first */
	if (q->set &&
	    q->set->size >= offsetof(struct fv_slot_request, key) +
				    sizeof(q->set->key) &&
	    q->set->key) {
		if ((r = verity_sigkey_file_blob(q->set->key, &blob, &len,
						 err)))
			return r;
		free(blob);
	}
	return 0;
}

/* The member of an edit request that its op does not read, or NULL. */
static const char *edit_stray(const struct fv_avb_edit_request *e)
{
	int erase = e->op == FV_AVB_EDIT_ERASE_FOOTER,
	    append = e->op == FV_AVB_EDIT_APPEND_VBMETA_IMAGE,
	    resize = e->op == FV_AVB_EDIT_RESIZE_IMAGE;

	return !erase && e->flags                        ? "flags"
	       : !append && e->vbmeta_image              ? "vbmeta_image"
	       : !append && !resize && e->partition_size ? "partition_size"
							 : NULL;
}

int verity_android_edit(struct fv_avb_edit_request *e, struct ht_error *err)
{
	static const char *const names[] = {NULL, "erase_footer",
					    "append_vbmeta_image",
					    "resize_image", "zero_hashtree"};
	const char *stray;
	int r;

	/* its avbtool options: partition_size */
	for (size_t i = 0; i < e->noptions; i++) {
		NEED(e->options[2 * i]);
		NEED(e->options[2 * i + 1]);
		if (strcmp(e->options[2 * i], "partition_size"))
			return ht_fail(err, EINVAL, "fv_avb_edit: no option %s",
				       e->options[2 * i]);
		if ((r = number("partition_size", e->options[2 * i + 1],
				INT64_MAX, EDOM, &e->partition_size, err)))
			return r;
	}
	if ((unsigned)e->op < 1 || (unsigned)e->op > FV_AVB_EDIT_ZERO_HASHTREE)
		return ht_fail(err, EINVAL, "fv_avb_edit: no edit %d",
			       (int)e->op);
	if ((stray = edit_stray(e)))
		return ht_fail(err, EINVAL, "fv_avb_edit: %s reads no %s",
			       names[e->op], stray);
	if (!e->image)
		return ht_fail(err, EINVAL, "fv_avb_edit: %s: no image",
			       names[e->op]);
	switch (e->op) {
	case FV_AVB_EDIT_ERASE_FOOTER:
		if (e->flags & ~(unsigned)FV_ERASE_KEEP_HASHTREE)
			return ht_fail(err, EINVAL, "unknown erase flags %#x",
				       e->flags);
		return verity_avb_erase_footer(
			e->image, !!(e->flags & FV_ERASE_KEEP_HASHTREE), err);
	case FV_AVB_EDIT_APPEND_VBMETA_IMAGE:
		if (!e->vbmeta_image)
			return ht_fail(err, EINVAL,
				       "fv_avb_edit: %s: no vbmeta_image",
				       names[e->op]);
		return verity_avb_append_vbmeta_image(e->image, e->vbmeta_image,
						      e->partition_size, err);
	case FV_AVB_EDIT_RESIZE_IMAGE:
		return verity_avb_resize_image(e->image, e->partition_size,
					       err);
	default:
		return verity_avb_zero_hashtree(e->image, err);
	}
}

/* name among the words of list (each with a blank either side). */
static int among(const char *list, const char *name)
{
	char word[64];

	snprintf(word, sizeof(word), " %s ", name);
	return strstr(list, word) != NULL;
}

/* The i-th value of avbtool option name in q's options (NULL: none). */
static const char *given(const struct fv_show_request *q, const char *name,
			 size_t i)
{
	for (size_t k = 0; k < q->noptions; k++)
		if (!strcmp(q->options[2 * k], name) && !i--)
			return q->options[2 * k + 1];
	return NULL;
}

/* argparse's FileType: a file avbtool opens while it parses its
 * arguments, a failure a usage error (-EDOM): an input opened (rw: for
 * writing too), an output's directory (or the file) writable. */
static int can_open(const char *sub, const char *opt, const char *path,
		    int output, int rw, struct ht_error *err)
{
	struct stat st;
	int fd, e = 0;

	if (!path)
		return 0;
	if (!output) {
		/* ENOTDIR: fastverity's IMAGE/NAME of a super image's
		 * partition, read later */
		if ((fd = open(path, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC)) < 0)
			e = errno == ENOTDIR ? 0 : errno;
		else
			close(fd);
	} else if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			e = EISDIR;
		else if (access(path, W_OK))
			e = errno;
	} else if (errno != ENOENT) {
		e = errno;
	} else {
		const char *slash = strrchr(path, '/');
		char *dir = slash ? strndup(path, (size_t)(slash - path) +
							  (slash == path))
				  : strdup(".");

		if (!dir)
			return ht_fail(err, ENOMEM, "out of memory");
		if (stat(dir, &st))
			e = errno;
		else if (!S_ISDIR(st.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK))
			e = errno;
		free(dir);
	}
	return e ? ht_fail(err, EDOM,
			   "avb %s: argument --%s: can't open '%s': %s", sub,
			   opt, path, strerror(e))
		 : 0;
}

int verity_android_usage(const struct fv_show_request *q, struct ht_error *err)
{
	static const char image_required[] =
		" info_image verify_image erase_footer calculate_vbmeta_digest "
		"extract_vbmeta_image append_vbmeta_image resize_image "
		"zero_hashtree print_partition_digests "
		"calculate_kernel_cmdline ";
	static const char image_rw[] =
		" add_hashtree_footer append_vbmeta_image erase_footer "
		"resize_image zero_hashtree ";
	const char *sub = q->args, *missing = NULL, *path;
	const char *image = given(q, "image", 0), *out = given(q, "output", 0);
	int r;

	if (!sub)
		return ht_fail(err, EINVAL, "fv_show: args is NULL");
	if (!strcmp(sub, "extract_vbmeta_image") && (!image || !out))
		missing = "--image and --output";
	else if (among(image_required, sub) && !image)
		missing = "--image";
	else if (among(" extract_public_key extract_public_key_digest ", sub) &&
		 (!given(q, "key", 0) || !out))
		missing = "--key and --output";
	else if (!strcmp(sub, "generate_key") &&
		 (!given(q, "algorithm", 0) || !out))
		missing = "--algorithm (MLDSA65, MLDSA87) and --output";
	else if (!strcmp(sub, "append_vbmeta_image") &&
		 !given(q, "partition_size", 0))
		missing = "--partition_size";
	else if (!strcmp(sub, "append_vbmeta_image") &&
		 !given(q, "vbmeta_image", 0))
		missing = "--vbmeta_image";
	if (missing)
		return ht_fail(err, EDOM, "avb %s: %s %s required", sub,
			       missing, strchr(missing, ' ') ? "are" : "is");
	if ((among(image_required, sub) ||
	     !strcmp(sub, "add_hashtree_footer")) &&
	    (r = can_open(sub, "image", image, 0, among(image_rw, sub), err)))
		return r;
	if ((r = can_open(sub, "vbmeta_image", given(q, "vbmeta_image", 0), 0,
			  0, err)))
		return r;
	for (size_t i = 0;
	     (path = given(q, "include_descriptors_from_image", i)); i++)
		if ((r = can_open(sub, "include_descriptors_from_image", path,
				  0, 0, err)))
			return r;
	if (!strcmp(sub, "generate_key")) /* it never writes over a file */
		return 0;
	if ((r = can_open(sub, "output", out, 1, 0, err)) ||
	    (r = can_open(sub, "output_pubkey", given(q, "output_pubkey", 0), 1,
			  0, err)) ||
	    (r = can_open(sub, "output_vbmeta_image",
			  given(q, "output_vbmeta_image", 0), 1, 0, err)))
		return r;
	/* the subcommands that read an Android image ask the registry that
	 * it is one (a sparse image is refused with what makes a raw one) */
	if (image && among(image_required, sub) &&
	    strcmp(sub, "append_vbmeta_image") &&
	    (r = verity_container_named(image, "avb", &path, err)))
		return r;
	if (!strcmp(sub, "resize_image") && !given(q, "partition_size", 0))
		return ht_fail(
			err, EINVAL,
			"avb resize_image: --partition_size is required");
	return 0;
}

int verity_android_add_footer(const char *image,
			      const struct fv_footer_request *in,
			      const struct verity_run *run,
			      struct ht_error *err)
{
	struct verity_android_footer f;
	struct verity_outcome out;
	int r;

	if ((r = verity_android_footer_of(in, image, &f, err)))
		return r;
	if (in->kind == FV_FOOTER_HASH)
		r = verity_avb_add_hash_footer(&f.o, err);
	else
		r = verity_op_avb_hashtree_footer(&f.o, run, &out, err);
	verity_android_footer_done(&f);
	return r;
}

int verity_android_shown_set(const struct fv_show_request *q,
			     struct verity_android_shown *s,
			     struct fv_slot_request *set, struct ht_error *err)
{
	int r;

	memset(set, 0, sizeof(*set));
	memcpy(set, q->set,
	       q->set->size < sizeof(*set) ? q->set->size : sizeof(*set));
	if ((r = verity_android_shown_of(q, s, err)))
		return r;
	set->size = sizeof(*set);
	if (s->nexpected) {
		set->expected = s->expected;
		set->nexpected = s->nexpected;
	}
	return 0;
}
