/* An Android image given to verify, repair, open or dump alone: its
 * footer's vbmeta checked, its hashtree descriptor made the pair
 * (verity/container/avb/image.h); dump shows the descriptor. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/text.h"
#include "verity/container/avb/rsa.h"
#include "verity/container/registry.h"
#include "verity/ops.h"
#include "verity/trust.h"

/* Options that set what the image's descriptor says. */
static const char *parameter_option(const struct cli_opts *o)
{
	return o->hash                  ? "--hash"
	       : o->data_block_size     ? "--data-block-size"
	       : o->hash_block_size     ? "--hash-block-size"
	       : o->data_blocks         ? "--data-blocks"
	       : o->hash_offset         ? "--hash-offset"
	       : o->salt                ? "--salt"
	       : o->format              ? "--format"
	       : o->no_superblock       ? "--no-superblock"
	       : o->root_hash_file      ? "--root-hash-file"
	       : o->fec_device          ? "--fec-device"
	       : o->fec_offset          ? "--fec-offset"
	       : o->fec_roots           ? "--fec-roots"
	       : o->root_hash_signature ? "--root-hash-signature"
					: NULL;
}

/* The vbmeta judged (avb_vbmeta_judge): with --key, that key must be
 * the signer's; without, the signer is said not to be checked, and
 * nothing is written. */
static int check_vbmeta(const struct cli_opts *o, const char *image,
			const struct avb_image *img, enum verity_trust *trust)
{
	enum fv_anchor anchor;
	enum avb_judgement why;
	struct ht_error err;
	uint8_t *blob = NULL;
	size_t len = 0;
	char sha1[41] = "";
	int r;

	if ((r = cli_anchor(o, &anchor)))
		return r;
	if (o->key && (r = avb_key_file_blob(o->key, &blob, &len, &err)))
		return cli_inside_error(r, &err);
	r = avb_vbmeta_judge(&img->vbmeta, image, (enum verity_anchor)anchor,
			     blob, len,
			     cli_writes(o), trust, &why, &err);
	free(blob);
	if (r && why == AVB_OTHER_KEY) {
		if (cli_avb_sha1_hex(img->vbmeta.public_key,
				     (size_t)img->vbmeta.h.public_key_size,
				     sha1))
			sha1[0] = 0;
		return cli_error(r,
				 "%s: the vbmeta is signed by another key "
				 "(public key sha1 %s), not by %s",
				 image, sha1, o->key);
	}
	return r ? cli_inside_error(r, &err) : 0;
}

/* The pair of an Android image read (img): its vbmeta judged, its
 * hashtree descriptor made the pair (the library's, fv_image_pair). */
static int pair_of(const struct cli_opts *o, const char *image,
		   const struct avb_image *img, struct cli_pair *cp)
{
	const struct avb_descriptor *d;
	enum verity_trust trust;
	fv_options *opts = NULL;
	fv_image *im = NULL;
	int r;

	if ((r = check_vbmeta(o, image, img, &trust)))
		return r;
	if (!img->has_footer)
		return cli_error(-EINVAL,
				 "%s: a vbmeta image (no footer): its "
				 "descriptors describe other partitions' "
				 "images, which fastverity avb verify_image "
				 "--image %s checks",
				 image, image);
	if (!(d = avb_image_hashtree(img)))
		return cli_error(-EINVAL,
				 "%s: the vbmeta has no hashtree descriptor "
				 "(fastverity avb verify_image checks hash "
				 "descriptors)",
				 image);
	/* the pair as the library makes it, judged by the same key */
	if (!(opts = fv_options_new()) ||
	    (r = fv_options_set_key(opts, o->key)) ||
	    (r = fv_image_open(image, "avb", opts, &im)) ||
	    (r = fv_image_pair(im, 0, &cp->fp)))
		r = cli_lib_error(opts ? r : -ENOMEM);
	fv_image_free(im);
	fv_options_free(opts);
	if (r)
		return r;
	cp->avb = 1;
	cp->trust = (enum fv_trust)trust;
	snprintf(cp->avb_algorithm, sizeof(cp->avb_algorithm), "%s",
		 avb_algorithm(img->vbmeta.h.algorithm)->name);
	if (!img->vbmeta.h.public_key_size ||
	    cli_avb_sha1_hex(img->vbmeta.public_key,
			     (size_t)img->vbmeta.h.public_key_size,
			     cp->avb_key_sha1))
		cp->avb_key_sha1[0] = 0;
	/* messages about the parity name the image */
	if (fv_pair_fec_path(cp->fp))
		cp->fec_name = image;
	else if (d->fec_num_roots)
		fprintf(stderr,
			"fastverity: %s: the parity uses 4096-byte blocks "
			"under a tree of %u-byte blocks (avbtool's way), which "
			"the kernel cannot use: left out\n",
			image, d->data_block_size);
	if (trust == VERITY_TRUST_UNCHECKED && strcmp(o->action, "dump"))
		fprintf(stderr,
			"fastverity: %s: warning: the vbmeta is signed (%s, "
			"public key sha1 %s) and checks out against the key "
			"it carries, but its signer was not checked (give "
			"--key=<key.pem>): nothing proves who made it\n",
			image, cp->avb_algorithm, cp->avb_key_sha1);
	return 0;
}

/* Options that set what the image's descriptor says: refused. */
static int refuse_parameters(const struct cli_opts *o, const char *image)
{
	const char *opt = parameter_option(o);

	if (!opt)
		return 0;
	return cli_error(-EINVAL,
			 "%s: an Android image carries its own parameters, "
			 "tree, parity and root; %s does not apply",
			 image, opt);
}

int cli_pair_avb(struct cli_opts *o, const char *image, struct cli_pair *cp)
{
	struct avb_image img;
	struct ht_error err;
	int r;

	if ((r = refuse_parameters(o, image)))
		return r;
	if ((r = avb_image_read(image, &img, &err)))
		return cli_inside_error(r, &err);
	r = pair_of(o, image, &img, cp);
	avb_image_free(&img);
	return r;
}

static void dump_text(const char *image, const struct avb_image *img,
		      const struct avb_descriptor *d, const struct cli_pair *cp,
		      const struct fv_layout *l)
{
	const struct avb_header *h = &img->vbmeta.h;
	char sha1[41] = "";

	cli_print_header(image, fv_pair_params(cp->fp), "-", l,
			 fv_pair_root_hex(cp->fp));
	printf("Android image:   \tpartition %s, data %" PRIu64
	       " bytes, tree at %" PRIu64 " (%" PRIu64 " bytes)\n",
	       CLI_NAME(d->name, d->name_len), d->image_size,
	       d->tree_offset, d->tree_size);
	if (d->fec_num_roots)
		printf("Android parity:  \t%u roots at %" PRIu64 " (%" PRIu64
		       " bytes)%s\n",
		       d->fec_num_roots, d->fec_offset, d->fec_size,
		       fv_pair_fec_path(cp->fp)
			       ? ""
			       : ", 4096-byte blocks the kernel cannot use");
	if (h->public_key_size)
		(void)cli_avb_sha1_hex(img->vbmeta.public_key,
				       (size_t)h->public_key_size, sha1);
	printf("Vbmeta:          \t%s%s%s, rollback index %" PRIu64
	       ", release '%s'\n",
	       avb_algorithm(h->algorithm)->name, sha1[0] ? ", key sha1 " : "",
	       sha1, h->rollback_index, h->release);
}

int cli_avb_dump(struct cli_opts *o, const char *image)
{
	struct cli_pair cp;
	struct avb_image img;
	struct fv_layout l = {.size = sizeof(l)};
	fv_result *out = NULL;
	struct ht_error err;
	const struct avb_descriptor *d;
	int r;

	memset(&cp, 0, sizeof(cp));
	if ((r = refuse_parameters(o, image)))
		return r;
	/* read once: the pair, then the descriptor and vbmeta shown */
	if ((r = avb_image_read(image, &img, &err)))
		return cli_inside_error(r, &err);
	d = avb_image_hashtree(&img);
	/* the layout of tree and parity as dump gives every pair's */
	if (!(r = pair_of(o, image, &img, &cp)) &&
	    (r = fv_pair_dump(cp.fp, NULL, &out)))
		r = cli_lib_error(r);
	if (r) {
		avb_image_free(&img);
		cli_pair_free(&cp);
		return r;
	}
	fv_result_layout(out, &l);
	fv_result_free(out);
	if (o->json) {
		json_object *j = cli_json_header(image, fv_pair_params(cp.fp),
						 &l, fv_pair_root_hex(cp.fp));
		json_object *a = json_object_new_object();
		char sha1[41] = "";

		json_object_object_add(
			a, "partition_name",
			json_object_new_string_len((const char *)d->name,
						   (int)d->name_len));
		json_object_object_add(a, "image_size",
				       json_object_new_uint64(d->image_size));
		json_object_object_add(a, "tree_offset",
				       json_object_new_uint64(d->tree_offset));
		json_object_object_add(a, "tree_size",
				       json_object_new_uint64(d->tree_size));
		json_object_object_add(
			a, "fec_num_roots",
			json_object_new_uint64(d->fec_num_roots));
		json_object_object_add(a, "fec_offset",
				       json_object_new_uint64(d->fec_offset));
		json_object_object_add(a, "fec_size",
				       json_object_new_uint64(d->fec_size));
		json_object_object_add(
			a, "fec_usable_by_kernel",
			json_object_new_boolean(fv_pair_fec_path(cp.fp) !=
						NULL));
		json_object_object_add(
			a, "algorithm",
			cli_json_str(
				avb_algorithm(img.vbmeta.h.algorithm)->name));
		if (img.vbmeta.h.public_key_size)
			(void)cli_avb_sha1_hex(
				img.vbmeta.public_key,
				(size_t)img.vbmeta.h.public_key_size, sha1);
		json_object_object_add(a, "public_key_sha1",
				       sha1[0] ? cli_json_str(sha1) : NULL);
		json_object_object_add(
			a, "rollback_index",
			json_object_new_uint64(img.vbmeta.h.rollback_index));
		json_object_object_add(a, "release_string",
				       cli_json_str(img.vbmeta.h.release));
		json_object_object_add(j, "android", a);
		cli_json_print(j);
	} else {
		dump_text(image, &img, d, &cp, &l);
	}
	avb_image_free(&img);
	cli_pair_free(&cp);
	return EXIT_OK;
}
