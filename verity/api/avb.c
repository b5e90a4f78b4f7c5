/* The public API of Android images (include/fastverity.h): reading,
 * judging, describing (one type per descriptor tag), verify_image's
 * steps and avbtool's writers, each handed over to
 * verity/container/avb/. */
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/api/internal.h"
#include "verity/android/request.h"
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

API int fv_avb_make_vbmeta_image(const char *output,
				 const struct fv_vbmeta_request *in,
				 uint64_t padding)
{
	struct ht_error err;

	NEED(output);
	NEED(in);
	return verity_api_keep(
		verity_android_make_vbmeta(output, in, padding, &err), &err);
}

API int fv_avb_add_footer(const char *image, const struct fv_footer_request *in,
			  const fv_options *opts)
{
	struct verity_android_footer f;
	struct verity_outcome out;
	struct verity_run run;
	struct ht_error err;
	fv_options full;
	int r;

	NEED(image);
	if ((r = verity_api_options_in(__func__, opts, &full)))
		return r;
	if ((r = verity_android_footer_of(in, image, &f, &err)))
		return verity_api_keep(r, &err);
	if (in->kind == FV_FOOTER_HASH) {
		r = verity_avb_add_hash_footer(&f.o, &err);
	} else {
		verity_api_run_of(&full, &run);
		r = verity_op_avb_hashtree_footer(&f.o, &run, &out, &err);
	}
	verity_android_footer_done(&f);
	return verity_api_keep(r, &err);
}

API int fv_avb_needs(const struct fv_vbmeta_request *v,
		     const struct fv_footer_request *f,
		     struct fv_avb_needs *out)
{
	struct fv_avb_needs full = {0};
	struct ht_error err;
	int r;

	NEED(out);
	if ((r = verity_android_needs(v, f, &full.libavb_minor,
				      &full.max_image_size, &err)))
		return verity_api_keep(r, &err);
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

	return verity_api_keep(verity_android_key_digest(key, hex, &err), &err);
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
