/* The public API of Android images (include/fastverity.h): reading,
 * judging, describing (one type per descriptor tag), verify_image's
 * steps and avbtool's writers, each handed over to verity/android/. */
#include "verity/api/internal.h"
#include "verity/android/request.h"
#include "verity/android/shown.h"
#include "verity/android/write.h"

/* --- Android images (read by verity/android/) --- */

/* The reason a's pair cannot be had, in the library's words. */
int verity_api_avb_unpaired(const fv_avb *a)
{
	struct ht_error err;

	return verity_api_keep(verity_android_unpaired(&a->in, &err), &err);
}

/* fv_show's verify_image with its avbtool options: the expected chains
 * (their keys read) and the key's blob read first, as avbtool does. */
int verity_api_avb_verify_show(const struct fv_show_request *q, struct show *sh)
{
	struct fv_show_request in = *q;
	struct fv_slot_request set;
	struct verity_android_shown x;
	struct ht_error err;
	int r;

	if (!q->set) /* (refused there, in the walk's words) */
		return verity_api_slot_show(q, sh);
	if (!(r = verity_api_keep(verity_android_shown_set(q, &x, &set, &err),
				  &err))) {
		in.set = &set;
		in.noptions = 0;
		r = verity_api_slot_show(&in, sh);
	}
	verity_android_shown_done(&x);
	return r;
}

/* --- Android images described ---------------------------------------- */

API int fv_avb_info(const fv_avb *a, struct fv_avb_info *out)
{
	struct fv_avb_info full;

	NEED(a);
	NEED(out);
	verity_android_shown_info(&a->in, &full);
	GIVE(out, full, has_footer);
	return 0;
}

/* Descriptor i of tag (any tag: tag UINT64_MAX), or NULL with the
 * message. */
static const struct avb_descriptor *descriptor(const fv_avb *a, size_t i,
					       uint64_t tag)
{
	struct ht_error err;
	const struct avb_descriptor *d =
		verity_android_descriptor(a ? &a->in : NULL, i, tag, &err);

	if (!d)
		verity_api_keep(-EINVAL, &err);
	return d;
}

API int fv_avb_descriptor(const fv_avb *a, size_t i,
			  struct fv_avb_descriptor *out)
{
	const struct avb_descriptor *d = descriptor(a, i, UINT64_MAX);
	struct fv_avb_descriptor full;

	NEED(out);
	if (!d)
		return -EINVAL;
	verity_android_shown_descriptor(d, &full);
	GIVE(out, full, tag);
	return 0;
}

/* --- verify_image's steps -------------------------------------------- */

API int fv_avb_described_image(const fv_avb *a, size_t i, char **path)
{
	const struct avb_descriptor *d = descriptor(a, i, UINT64_MAX);
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
	struct verity_run run;
	struct ht_error err;
	fv_options full;
	int r;

	NEED(image);
	if ((r = verity_api_options_in(__func__, opts, &full)))
		return r;
	verity_ops_run_of(&full, &run);
	return verity_api_keep(verity_android_add_footer(image, in, &run, &err),
			       &err);
}

API int fv_avb_needs(const struct fv_vbmeta_request *v,
		     const struct fv_footer_request *f,
		     struct fv_avb_needs *out)
{
	struct fv_avb_needs full = {0};
	struct ht_error err;
	int r;

	/* (out NULL: the options alone read) */
	if ((r = verity_android_needs(v, f, out ? &full.libavb_minor : NULL,
				      out ? &full.max_image_size : NULL,
				      &err)) ||
	    !out)
		return verity_api_keep(r, &err);
	GIVE(out, full, max_image_size);
	return 0;
}

API int fv_avb_key(const struct fv_avb_key_request *req, uint8_t **out,
		   size_t *len)
{
	struct fv_avb_key_request q;
	struct ht_error err;

	TAKE(q, req, output);
	if (q.op == FV_AVB_KEY_GENERATE) {
		NEED(q.algorithm);
		NEED(q.output);
	} else if (q.op == FV_AVB_KEY_BLOB || q.op == FV_AVB_KEY_DIGEST) {
		NEED(q.key);
		NEED(out);
		NEED(len);
	}
	return verity_api_keep(verity_android_key(&q, out, len, &err), &err);
}

API int fv_avb_edit(const struct fv_avb_edit_request *req)
{
	struct fv_avb_edit_request e;
	struct ht_error err;

	TAKE(e, req, partition_size);
	return verity_api_keep(verity_android_edit(&e, &err), &err);
}
