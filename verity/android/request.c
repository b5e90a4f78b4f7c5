/* avbtool's writers' requests (include/fastverity.h, "Android images
 * written") checked and read into the container's options
 * (verity/container/avb/image.h), and the writes that need nothing
 * else: a vbmeta image, what a request needs of libavb. */
#include "verity/android/request.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/write.h"
#include "verity/storage/backing.h"
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
	free(v->props);
	free(v->chains);
}

/* A list of n that must be there when n is not 0. */
#define LIST(p, n, what)                                              \
	do {                                                          \
		if ((n) && !(p))                                      \
			return ht_fail(err, EINVAL, "%s: %s is NULL", \
				       __func__, what);               \
	} while (0)

static int vb_of(const struct fv_vbmeta_request *in,
		 struct verity_android_vb *v, struct ht_error *err)
{
	static const unsigned sign_known = FV_VBMETA_DETERMINISTIC;
	struct fv_vbmeta_request q;
	const char *name;
	int alg;

	memset(v, 0, sizeof(*v));
	v->o.algorithm = AVB_ALG_NONE;
	if (!in)
		return 0;
	TAKE(q, in, public_key_metadata);
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
	     !(v->props = calloc(q.nproperties, sizeof(*v->props))))) {
		verity_android_vb_done(v);
		return ht_fail(err, ENOMEM, "out of memory");
	}
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
static int footer_of(const struct fv_footer_request *in, const char *image,
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

	*changed = NULL;
	memset(v, 0, sizeof(*v));
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
	struct verity_android_vb v;
	int r;

	if ((r = vb_of(in, &v, err)))
		return r;
	if (!(r = not_an_input(output, &v.o, err)))
		r = verity_avb_make_vbmeta_image(output, &v.o, padding, err);
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
	if (fin) {
		if ((r = verity_android_footer_of(fin, NULL, &f, err)))
			return r;
		r = verity_android_required_minor(&f.v.o, &f.o, minor, err);
		verity_android_footer_done(&f);
	} else {
		if ((r = vb_of(in, &f.v, err)))
			return r;
		r = verity_android_required_minor(&f.v.o, NULL, minor, err);
		verity_android_vb_done(&f.v);
	}
	if (r || !fin)
		return r;
	/* (the footer read again: max_image_size's own reading) */
	if ((r = verity_android_footer_of(fin, NULL, &f, err)))
		return r;
	*max = verity_avb_max_image_size(&f.o, fin->kind == FV_FOOTER_HASHTREE
						       ? AVB_FOOTER_HASHTREE
						       : AVB_FOOTER_HASH);
	verity_android_footer_done(&f);
	return 0;
}
