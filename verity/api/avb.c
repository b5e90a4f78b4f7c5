/* The public API of Android images (include/fastverity.h): reading,
 * judging, describing (one type per descriptor tag), verify_image's
 * steps and avbtool's writers, each handed over to
 * verity/container/avb/. */
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/api/internal.h"
#include "verity/android/write.h"


/* --- Android images (read by verity/android/) --- */

void verity_api_avb_free(fv_avb *a)
{
	verity_android_free(a ? &a->in : NULL);
}

void verity_api_key_sha1(const struct avb_vbmeta *v, char out[41])
{
	verity_android_key_sha1(v, out);
}

int verity_api_avb_read(const char *image, int show, fv_avb **out)
{
	return verity_api_avb_read_from(image, NULL, show, out);
}

int verity_api_avb_read_from(const char *image, struct verity_extents *src,
			     int show, fv_avb **out)
{
	struct verity_android *a;
	struct ht_error err;
	int r;

	NEED(image);
	NEED(out);
	*out = NULL;
	if ((r = verity_android_read(image, src, show, &a, &err)))
		return verity_api_keep(r, &err);
	*out = verity_api_avb_of(a);
	return 0;
}

/* The reason a's pair cannot be had, in the library's words. */
int verity_api_avb_unpaired(const fv_avb *a)
{
	struct ht_error err;

	return verity_api_keep(verity_android_unpaired(&a->in, &err), &err);
}

/* --- Android images described ---------------------------------------- */

_Static_assert((int)FV_AVB_PROPERTY == AVB_TAG_PROPERTY &&
		       (int)FV_AVB_HASHTREE == AVB_TAG_HASHTREE &&
		       (int)FV_AVB_HASH == AVB_TAG_HASH &&
		       (int)FV_AVB_KERNEL_CMDLINE == AVB_TAG_KERNEL_CMDLINE &&
		       (int)FV_AVB_CHAIN_PARTITION == AVB_TAG_CHAIN_PARTITION,
	       "fv_avb_tag and the AVB tags differ");

static void avb_footer_of(const fv_avb *a, struct fv_avb_footer *out)
{
	struct fv_avb_footer full;
	const struct avb_footer *ft = &a->in.img.footer;

	memset(&full, 0, sizeof(full));
	if (!a->in.img.has_footer) {
		*out = full;
		return;
	}
	full.size = sizeof(full);
	full.version_major = ft->version_major;
	full.version_minor = ft->version_minor;
	full.image_size = a->in.img.file_size;
	full.original_image_size = ft->original_image_size;
	full.vbmeta_offset = ft->vbmeta_offset;
	full.vbmeta_size = ft->vbmeta_size;
	*out = full;
}

static void avb_header_of(const fv_avb *a, struct fv_avb_header *out)
{
	const struct avb_header *in = &a->in.img.vbmeta.h;
	struct fv_avb_header full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.required_major = in->required_major;
	full.required_minor = in->required_minor;
	full.header_size = AVB_HEADER_SIZE;
	full.auth_size = in->auth_size;
	full.aux_size = in->aux_size;
	full.algorithm = verity_avb_algorithm(in->algorithm)->name;
	full.public_key_sha1 = a->in.key_sha1;
	full.rollback_index = in->rollback_index;
	full.flags = in->flags;
	full.rollback_index_location = in->rollback_index_location;
	full.release = in->release;
	*out = full;
}

API int fv_avb_info(const fv_avb *a, struct fv_avb_info *out)
{
	const struct avb_descriptor *d;
	struct fv_avb_info full;

	NEED(a);
	NEED(out);
	d = a->in.ht;
	memset(&full, 0, sizeof(full));
	full.has_footer = a->in.img.has_footer;
	full.has_hashtree = d != NULL;
	full.sparse = a->in.img.sparse;
	full.parity_unusable = a->in.paired && a->in.unusable;
	full.partition_name = a->in.name;
	full.root_hex = a->in.root_hex;
	if (d) {
		full.image_size = d->hashtree.p.image_size;
		full.tree_offset = d->hashtree.tree_offset;
		full.tree_size = d->hashtree.tree_size;
		full.fec_roots = d->hashtree.fec_num_roots;
		full.fec_offset = d->hashtree.fec_offset;
		full.fec_size = d->hashtree.fec_size;
	}
	full.descriptors = a->in.img.vbmeta.ndesc;
	avb_header_of(a, &full.header);
	avb_footer_of(a, &full.footer);
	full.vbmeta = a->in.img.vbmeta.blob;
	full.vbmeta_size = a->in.img.vbmeta.size;
	full.vbmeta_footer_size = a->in.img.has_footer
					  ? (size_t)a->in.img.footer.vbmeta_size
					  : a->in.img.vbmeta.size;
	GIVE(out, full, has_footer);
	return 0;
}

/* Descriptor i of tag (any tag: tag UINT64_MAX), or NULL with the
 * message. */
const struct avb_descriptor *verity_api_descriptor(const fv_avb *a, size_t i,
						   uint64_t tag)
{
	struct ht_error err;
	const struct avb_descriptor *d =
		verity_android_descriptor(a ? &a->in : NULL, i, tag, &err);

	if (!d)
		verity_api_keep(-EINVAL, &err);
	return d;
}

static void avb_property_of(const struct avb_descriptor *d,
			    struct fv_avb_property *out)
{
	struct fv_avb_property full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.key = d->property.key;
	full.key_len = (size_t)d->property.key_len;
	full.value = d->property.value;
	full.value_len = d->property.value_len;
	*out = full;
}

static void avb_hashtree_of(const struct avb_descriptor *d,
			    struct fv_avb_hashtree *out)
{
	struct fv_avb_hashtree full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.dm_verity_version = d->hashtree.dm_verity_version;
	full.image_size = d->hashtree.p.image_size;
	full.tree_offset = d->hashtree.tree_offset;
	full.tree_size = d->hashtree.tree_size;
	full.data_block_size = d->hashtree.data_block_size;
	full.hash_block_size = d->hashtree.hash_block_size;
	full.fec_num_roots = d->hashtree.fec_num_roots;
	full.fec_offset = d->hashtree.fec_offset;
	full.fec_size = d->hashtree.fec_size;
	full.hash_algorithm = d->hashtree.p.hash_algorithm;
	full.partition_name = d->hashtree.p.name;
	full.partition_name_len = d->hashtree.p.name_len;
	full.salt = d->hashtree.p.salt;
	full.salt_len = d->hashtree.p.salt_len;
	full.root_digest = d->hashtree.p.digest;
	full.root_digest_len = d->hashtree.p.digest_len;
	full.flags = d->hashtree.p.flags;
	*out = full;
}

static void avb_hash_of(const struct avb_descriptor *d, struct fv_avb_hash *out)
{
	struct fv_avb_hash full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.image_size = d->hash.p.image_size;
	full.hash_algorithm = d->hash.p.hash_algorithm;
	full.partition_name = d->hash.p.name;
	full.partition_name_len = d->hash.p.name_len;
	full.salt = d->hash.p.salt;
	full.salt_len = d->hash.p.salt_len;
	full.digest = d->hash.p.digest;
	full.digest_len = d->hash.p.digest_len;
	full.flags = d->hash.p.flags;
	*out = full;
}

static void cmdline_of(const struct avb_descriptor *d,
		       struct fv_avb_kernel_cmdline *out)
{
	struct fv_avb_kernel_cmdline full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.flags = d->cmdline.flags;
	full.cmdline = d->cmdline.value;
	full.cmdline_len = (size_t)d->cmdline.value_len;
	*out = full;
}

static void chain_of(const struct avb_descriptor *d,
		     struct fv_avb_chain_partition *out)
{
	struct fv_avb_chain_partition full;
	struct avb_vbmeta key_only;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.partition_name = d->chain.name;
	full.partition_name_len = d->chain.name_len;
	full.rollback_index_location = d->chain.rollback_index_location;
	full.public_key = d->chain.public_key;
	full.public_key_len = d->chain.public_key_len;
	/* the key's SHA-1 as a vbmeta's */
	memset(&key_only, 0, sizeof(key_only));
	key_only.public_key = d->chain.public_key;
	key_only.h.public_key_size = d->chain.public_key_len;
	verity_api_key_sha1(&key_only, full.public_key_sha1);
	full.flags = d->chain.flags;
	*out = full;
}

API int fv_avb_descriptor(const fv_avb *a, size_t i,
			  struct fv_avb_descriptor *out)
{
	const struct avb_descriptor *d =
		verity_api_descriptor(a, i, UINT64_MAX);
	struct fv_avb_descriptor full;

	NEED(out);
	if (!d)
		return -EINVAL;
	memset(&full, 0, sizeof(full));
	full.tag = d->tag;
	full.bytes = d->raw_size - AVB_DESCRIPTOR_HEADER;
	switch (d->tag) {
	case AVB_TAG_PROPERTY:
		avb_property_of(d, &full.property);
		break;
	case AVB_TAG_HASHTREE:
		avb_hashtree_of(d, &full.hashtree);
		break;
	case AVB_TAG_HASH:
		avb_hash_of(d, &full.hash);
		break;
	case AVB_TAG_KERNEL_CMDLINE:
		cmdline_of(d, &full.kernel_cmdline);
		break;
	case AVB_TAG_CHAIN_PARTITION:
		chain_of(d, &full.chain_partition);
		break;
	}
	GIVE(out, full, bytes);
	return 0;
}

/* --- verify_image's steps -------------------------------------------- */

API int fv_avb_described_image(const fv_avb *a, size_t i, char **path)
{
	const struct avb_descriptor *d =
		verity_api_descriptor(a, i, UINT64_MAX);
	struct ht_error err;

	NEED(path);
	*path = NULL;
	if (!d)
		return -EINVAL;
	return verity_api_keep(
		verity_avb_described_image(&a->in.img, d, 0, path, &err), &err);
}

/* --- Android images written ------------------------------------------- */

_Static_assert((unsigned)FV_FOOTER_DO_NOT_USE_AB ==
			       AVB_HASHTREE_DO_NOT_USE_AB &&
		       (unsigned)FV_FOOTER_CHECK_AT_MOST_ONCE ==
			       AVB_HASHTREE_CHECK_AT_MOST_ONCE &&
		       (unsigned)FV_CHAIN_DO_NOT_USE_AB ==
			       AVB_CHAIN_DO_NOT_USE_AB,
	       "the footer or chain flags and the descriptor's differ");

/* A vbmeta request as the container takes it: the request checked, its
 * lists copied into the container's types (freed by vb_done). */
struct vb {
	struct avb_vbmeta_opts o;
	struct avb_prop *props;
	struct avb_chain *chains;
};

static void vb_done(struct vb *v)
{
	free(v->props);
	free(v->chains);
}

/* A list of n that must be there when n is not 0. */
#define LIST(p, n, what)                                                 \
	do {                                                             \
		if ((n) && !(p))                                         \
			return verity_api_fail(EINVAL, "%s: %s is NULL", \
					       __func__, what);          \
	} while (0)

static int vb_of(const struct fv_vbmeta_request *in, struct vb *v)
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
		return verity_api_fail(
			EINVAL,
			"Algorithm with name %s is not supported (NONE, "
			"SHA256_RSA2048, SHA256_RSA4096, SHA256_RSA8192, "
			"SHA512_RSA2048, SHA512_RSA4096, SHA512_RSA8192, "
			"MLDSA65, MLDSA87)",
			name);
	if (q.sign_flags & ~sign_known)
		return verity_api_fail(EINVAL, "unknown signing flags %#x",
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
			return verity_api_fail(
				EINVAL, "unknown chain flags %#x", c->flags);
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
		vb_done(v);
		return verity_api_fail(ENOMEM, "out of memory");
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
static int not_an_input(const char *output, const struct avb_vbmeta_opts *o)
{
	const char *fixed[] = {o->key_path, o->public_key_metadata,
			       o->signing_helper};
	size_t n = sizeof(fixed) / sizeof(fixed[0]);

	for (size_t i = 0; i < n + o->nincludes + o->nchains; i++) {
		const char *in = i < n		       ? fixed[i]
				 : i < n + o->nincludes ? o->includes[i - n]
				 : o->chains[i - n - o->nincludes].key_path;

		if (in && verity_path_same_storage(output, in))
			return verity_api_fail(EINVAL,
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
		     struct avb_footer_opts *o, struct vb *v,
		     struct verity_range **changed)
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
		return verity_api_fail(EINVAL, "no footer of kind %d",
				       (int)q.kind);
	tree = q.kind == FV_FOOTER_HASHTREE;
	if (!q.hash)
		q.hash = tree ? "sha1" : "sha256";
	if (!verity_avb_digest_size(q.hash))
		return verity_api_fail(EINVAL,
				       "hash algorithm '%s' is not supported "
				       "(sha1, sha256, sha512)",
				       q.hash);
	if (q.flags & ~known)
		return verity_api_fail(EINVAL, "unknown footer flags %#x",
				       q.flags);
	if (q.salt_len > VERITY_MAX_SALT_SIZE)
		return verity_api_fail(
			EINVAL, "salt of %zu bytes is too long (at most %d)",
			q.salt_len, VERITY_MAX_SALT_SIZE);
	LIST(q.salt, q.salt_len, "salt");
	LIST(q.changed, q.nchanged, "changed");
	if (q.nchanged > SIZE_MAX / sizeof(**changed))
		return verity_api_fail(EINVAL, "%zu changed ranges",
				       q.nchanged);
	if ((r = vb_of(q.vbmeta, v)))
		return r;
	/* --output_vbmeta_image: none of the inputs, nor the image */
	if (q.output_vbmeta &&
	    ((r = not_an_input(q.output_vbmeta, &v->o)) ||
	     (image && verity_path_same_storage(q.output_vbmeta, image) &&
	      (r = verity_api_fail(EINVAL,
				   "%s: is the image %s: an output is never "
				   "written over what is read",
				   q.output_vbmeta, image))))) {
		vb_done(v);
		return r;
	}
	if ((q.flags & FV_FOOTER_CHANGED_GIVEN) &&
	    !(*changed =
		      calloc(q.nchanged ? q.nchanged : 1, sizeof(**changed)))) {
		vb_done(v);
		return verity_api_fail(ENOMEM, "out of memory");
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

static int required_minor(const struct fv_vbmeta_request *in,
			  const struct fv_footer_request *fin, unsigned *minor)
{
	struct verity_range *changed = NULL;
	struct avb_footer_opts f;
	struct ht_error err;
	struct vb v;
	int r;

	NEED(minor);
	if (!in == !fin)
		return verity_api_fail(EINVAL,
				       "fv_avb_needs: one of a vbmeta and a "
				       "footer request");
	if ((r = fin ? footer_of(fin, NULL, &f, &v, &changed) : vb_of(in, &v)))
		return r;
	if ((r = verity_android_required_minor(&v.o, fin ? &f : NULL, minor,
					       &err)))
		r = verity_api_keep(r, &err);
	free(changed);
	vb_done(&v);
	return r;
}

API int fv_avb_make_vbmeta_image(const char *output,
				 const struct fv_vbmeta_request *in,
				 uint64_t padding)
{
	struct ht_error err;
	struct vb v;
	int r;

	NEED(output);
	NEED(in);
	if ((r = vb_of(in, &v)))
		return r;
	if ((r = not_an_input(output, &v.o))) {
		vb_done(&v);
		return r;
	}
	r = verity_api_keep(
		verity_avb_make_vbmeta_image(output, &v.o, padding, &err),
		&err);
	vb_done(&v);
	return r;
}

static int max_image_size(const struct fv_footer_request *in, uint64_t *max)
{
	struct verity_range *changed;
	struct avb_footer_opts o;
	struct vb v;
	int r;

	if ((r = footer_of(in, NULL, &o, &v, &changed)))
		return r;
	*max = verity_avb_max_image_size(&o, in->kind == FV_FOOTER_HASHTREE
						     ? AVB_FOOTER_HASHTREE
						     : AVB_FOOTER_HASH);
	free(changed);
	vb_done(&v);
	return 0;
}

API int fv_avb_add_footer(const char *image, const struct fv_footer_request *in,
			  const fv_options *opts)
{
	struct verity_range *changed;
	struct avb_footer_opts o;
	struct verity_outcome out;
	struct verity_run run;
	struct ht_error err;
	fv_options full;
	struct vb v;
	int r;

	NEED(image);
	if ((r = verity_api_options_in(__func__, opts, &full)) ||
	    (r = footer_of(in, image, &o, &v, &changed)))
		return r;
	if (in->kind == FV_FOOTER_HASH) {
		r = verity_api_keep(verity_avb_add_hash_footer(&o, &err), &err);
	} else {
		verity_api_run_of(&full, &run);
		r = verity_api_keep(
			verity_op_avb_hashtree_footer(&o, &run, &out, &err),
			&err);
	}
	free(changed);
	vb_done(&v);
	return r;
}

API int fv_avb_needs(const struct fv_vbmeta_request *v,
		     const struct fv_footer_request *f,
		     struct fv_avb_needs *out)
{
	struct fv_avb_needs full = {0};
	int r;

	NEED(out);
	if ((r = required_minor(v, f, &full.libavb_minor)) ||
	    (f && (r = max_image_size(f, &full.max_image_size))))
		return r;
	GIVE(out, full, max_image_size);
	return 0;
}

static int public_key(const char *key, uint8_t **blob, size_t *len)
{
	struct ht_error err;

	*blob = NULL;
	return verity_api_keep(verity_sigkey_file_blob(key, blob, len, &err),
			       &err);
}

static int public_key_digest(const char *key, char hex[65])
{
	struct ht_error err;

	return verity_api_keep(verity_android_key_digest(key, hex, &err),
			       &err);
}

static int generate_key(const char *algorithm, const char *output)
{
	struct ht_error err;

	return verity_api_keep(
		verity_android_key_generate(algorithm, output, &err), &err);
}

API int fv_avb_key(const struct fv_avb_key_request *req, uint8_t **out,
		   size_t *len)
{
	struct fv_avb_key_request q;
	char hex[65];
	int r;

	TAKE(q, req, output);
	if (q.op == FV_AVB_KEY_GENERATE) {
		NEED(q.algorithm);
		NEED(q.output);
		if (q.key || out || len)
			return verity_api_fail(EINVAL,
					       "fv_avb_key: generate takes "
					       "algorithm and output alone");
		return generate_key(q.algorithm, q.output);
	}
	if (q.op != FV_AVB_KEY_BLOB && q.op != FV_AVB_KEY_DIGEST)
		return verity_api_fail(EINVAL, "fv_avb_key: unknown op %d",
				       (int)q.op);
	NEED(q.key);
	NEED(out);
	NEED(len);
	*out = NULL;
	*len = 0;
	if (q.algorithm || q.output)
		return verity_api_fail(EINVAL,
				       "fv_avb_key: %s takes the key "
				       "alone",
				       q.op == FV_AVB_KEY_BLOB ? "blob"
							       : "digest");
	if (q.op == FV_AVB_KEY_BLOB)
		return public_key(q.key, out, len);
	if ((r = public_key_digest(q.key, hex)))
		return r;
	if (!(*out = (uint8_t *)strdup(hex)))
		return verity_api_fail(ENOMEM, "out of memory");
	*len = strlen(hex);
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

API int fv_avb_edit(const struct fv_avb_edit_request *req)
{
	static const char *const names[] = {NULL, "erase_footer",
					    "append_vbmeta_image",
					    "resize_image", "zero_hashtree"};
	struct fv_avb_edit_request e;
	struct ht_error err;
	const char *stray;
	int r;

	TAKE(e, req, partition_size);
	if ((unsigned)e.op < 1 || (unsigned)e.op > FV_AVB_EDIT_ZERO_HASHTREE)
		return verity_api_fail(EINVAL, "%s: no edit %d", __func__,
				       (int)e.op);
	if ((stray = edit_stray(&e)))
		return verity_api_fail(EINVAL, "%s: %s reads no %s", __func__,
				       names[e.op], stray);
	if (!e.image)
		return verity_api_fail(EINVAL, "%s: %s: no image", __func__,
				       names[e.op]);
	switch (e.op) {
	case FV_AVB_EDIT_ERASE_FOOTER:
		if (e.flags & ~(unsigned)FV_ERASE_KEEP_HASHTREE)
			return verity_api_fail(
				EINVAL, "unknown erase flags %#x", e.flags);
		r = verity_avb_erase_footer(
			e.image, !!(e.flags & FV_ERASE_KEEP_HASHTREE), &err);
		break;
	case FV_AVB_EDIT_APPEND_VBMETA_IMAGE:
		if (!e.vbmeta_image)
			return verity_api_fail(EINVAL,
					       "%s: %s: no vbmeta_image",
					       __func__, names[e.op]);
		r = verity_avb_append_vbmeta_image(e.image, e.vbmeta_image,
						   e.partition_size, &err);
		break;
	case FV_AVB_EDIT_RESIZE_IMAGE:
		r = verity_avb_resize_image(e.image, e.partition_size, &err);
		break;
	default:
		r = verity_avb_zero_hashtree(e.image, &err);
		break;
	}
	return verity_api_keep(r, &err);
}
