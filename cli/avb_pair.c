/* An Android image given to verify, repair, open or dump alone: its
 * vbmeta checked (the library's fv_avb), its hashtree descriptor made the
 * pair; dump shows the descriptor. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/text.h"

struct fv_avb_info cli_avb_facts(const fv_avb *a)
{
	struct fv_avb_info in = {.size = sizeof(in)};

	if (!a || fv_avb_info(a, &in))
		memset(&in, 0, sizeof(in));
	return in;
}

struct fv_avb_descriptor cli_avb_descriptor(const fv_avb *a, size_t i)
{
	struct fv_avb_descriptor d = {.size = sizeof(d)};

	if (!a || fv_avb_descriptor(a, i, &d)) {
		memset(&d, 0, sizeof(d));
		d.tag = UINT64_MAX;
	}
	return d;
}

int cli_avb_shown(const char *image, fv_image **img, const fv_avb **a)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = image, .show = 1};
	struct fv_image_info in = {.size = sizeof(in)};
	int r;

	*a = NULL;
	if ((r = fv_open(&rq, NULL, img)))
		return r;
	fv_image_info(*img, &in);
	*a = in.avb;
	return 0;
}

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

/* The image through the door (fv_open): judged, and its pair when it
 * has one. 0 and *img, or the exit code (printed). */
static int open_avb(const struct cli_opts *o, const char *image, fv_image **img)
{
	struct fv_open_request rq = {.image = image, .container = "avb"};
	int r = cli_open(o, &rq, (const char *const *)o->trusted_certs,
			 o->ntrusted, img);

	return r < 0 ? cli_lib_error(r) : r;
}

/* The pair of an opened Android image (img, cp's from here on, freed
 * here on failure): its hashtree descriptor's. */
static int pair_of(const struct cli_opts *o, const char *image, fv_image *img,
		   struct cli_pair *cp)
{
	const fv_avb *a = cli_image_info(img).avb;
	enum fv_trust trust = cli_image_info(img).trust;
	struct fv_avb_info in = cli_avb_facts(a);

	if (!in.has_footer || !in.has_hashtree)
		fv_image_free(img);
	else if (cli_image_info(img).pairs)
		cli_pair_take(cp, img, 0);

	if (!in.has_footer)
		return cli_error(-EINVAL,
				 "%s: a vbmeta image (no footer): its "
				 "descriptors describe other partitions' "
				 "images, which fastverity avb verify_image "
				 "--image %s checks",
				 image, image);
	if (!in.has_hashtree)
		return cli_error(-EINVAL,
				 "%s: the vbmeta has no hashtree descriptor, "
				 "no tree to %s (verify checks its hash "
				 "descriptor)",
				 image, o->action);
	if (!cp->img) {
		/* the library says why the descriptor makes no pair */
		fv_result *res = NULL;
		int r = fv_describe(img, 0, NULL, &res);

		fv_result_free(res);
		fv_image_free(img);
		return r ? cli_lib_error(r)
			 : cli_error(-EINVAL, "%s: no pair to %s", image,
				     o->action);
	}
	cp->avb = 1;
	cp->trust = trust;
	snprintf(cp->avb_algorithm, sizeof(cp->avb_algorithm), "%s",
		 in.header.algorithm);
	snprintf(cp->avb_key_sha1, sizeof(cp->avb_key_sha1), "%s",
		 in.header.public_key_sha1);
	cp->avb_rollback_index = in.header.rollback_index;
	/* messages about the parity name the image */
	if (cp->pi.fec)
		cp->fec_name = image;
	if (in.parity_unusable)
		fprintf(stderr,
			"fastverity: %s: the parity uses 4096-byte blocks "
			"under a tree of %u-byte blocks (avbtool's way), which "
			"the kernel cannot use: left out\n",
			image, cp->pi.params->data_block_size);
	if (trust == FV_TRUST_UNCHECKED && strcmp(o->action, "dump"))
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
	fv_image *img;
	int r;

	if ((r = refuse_parameters(o, image)) || (r = open_avb(o, image, &img)))
		return r;
	return pair_of(o, image, img, cp);
}

int cli_pair_avb_of(struct cli_opts *o, const char *image, fv_image *img,
		    struct cli_pair *cp)
{
	int r = refuse_parameters(o, image);

	if (r) {
		fv_image_free(img);
		return r;
	}
	return pair_of(o, image, img, cp);
}

static void dump_text(const char *image, const fv_avb *a,
		      const struct cli_pair *cp, const struct fv_layout *l)
{
	struct fv_avb_info in = cli_avb_facts(a);
	const char *name = in.partition_name, *sha1 = in.header.public_key_sha1;

	cli_print_header(image, cp->pi.params, "-", l, cp->pi.root_hex);
	printf("Android image:   \tpartition %s, data %" PRIu64
	       " bytes, tree at %" PRIu64 " (%" PRIu64 " bytes)\n",
	       CLI_NAME(name, strlen(name)), in.image_size, in.tree_offset,
	       in.tree_size);
	if (in.fec_roots)
		printf("Android parity:  \t%u roots at %" PRIu64 " (%" PRIu64
		       " bytes)%s\n",
		       in.fec_roots, in.fec_offset, in.fec_size,
		       cp->pi.fec ? ""
				  : ", 4096-byte blocks the kernel cannot use");
	printf("Vbmeta:          \t%s%s%s, rollback index %" PRIu64
	       ", release '%s'\n",
	       in.header.algorithm, sha1[0] ? ", key sha1 " : "", sha1,
	       in.header.rollback_index, in.header.release);
}

static void dump_json(const char *image, const fv_avb *a,
		      const struct cli_pair *cp, const struct fv_layout *l)
{
	struct fv_avb_info in = cli_avb_facts(a);
	json_object *j =
		cli_json_header(image, cp->pi.params, l, cp->pi.root_hex);
	json_object *d = json_object_new_object();
	const char *sha1 = in.header.public_key_sha1;

	cli_jstr(d, "partition_name", in.partition_name);
	cli_ju64(d, "image_size", in.image_size);
	cli_ju64(d, "tree_offset", in.tree_offset);
	cli_ju64(d, "tree_size", in.tree_size);
	cli_ju64(d, "fec_num_roots", in.fec_roots);
	cli_ju64(d, "fec_offset", in.fec_offset);
	cli_ju64(d, "fec_size", in.fec_size);
	cli_jbool(d, "fec_usable_by_kernel", cp->pi.fec != NULL);
	cli_jstr(d, "algorithm", in.header.algorithm);
	cli_jset(d, "public_key_sha1", sha1[0] ? cli_json_str(sha1) : NULL);
	cli_ju64(d, "rollback_index", in.header.rollback_index);
	cli_jstr(d, "release_string", in.header.release);
	cli_jset(j, "android", d);
	cli_json_print(j);
}

/* dump of an image with a hash footer: its hash descriptor (no tree to
 * show), and the vbmeta. */
static int dump_hash(const struct cli_opts *o, const char *image,
		     const fv_avb *a)
{
	struct fv_avb_info in = cli_avb_facts(a);
	const char *sha1 = in.header.public_key_sha1;
	struct fv_avb_descriptor desc = {.tag = UINT64_MAX};
	char hex[2 * 64 + 1] = "";
	struct fv_avb_hash h;
	size_t i;

	for (i = 0; i < in.descriptors &&
		    (desc = cli_avb_descriptor(a, i)).tag != FV_AVB_HASH;
	     i++)
		;
	h = desc.hash;
	if (desc.tag != FV_AVB_HASH)
		return cli_error(-EINVAL,
				 "%s: the vbmeta has neither a hashtree nor a "
				 "hash descriptor",
				 image);
	for (size_t k = 0; k < h.digest_len && k < 64; k++)
		snprintf(hex + 2 * k, 3, "%02x", h.digest[k]);
	if (o->json) {
		json_object *j = json_object_new_object(), *list, *p, *d;

		cli_jstr(j, "image", image);
		cli_jstr(j, "container", "avb");
		p = json_object_new_object();
		cli_jstr(p, "name",
			 CLI_NAME(h.partition_name, h.partition_name_len));
		cli_jstr(p, "descriptor", "hash");
		cli_jstr(p, "path", image);
		d = json_object_new_object();
		cli_jstr(d, "partition_name",
			 CLI_NAME(h.partition_name, h.partition_name_len));
		cli_ju64(d, "image_size", h.image_size);
		cli_jstr(d, "hash_algorithm", h.hash_algorithm);
		cli_jstr(d, "digest", hex);
		cli_jstr(d, "algorithm", in.header.algorithm);
		cli_jset(d, "public_key_sha1",
			 sha1[0] ? cli_json_str(sha1) : NULL);
		cli_ju64(d, "rollback_index", in.header.rollback_index);
		cli_jstr(d, "release_string", in.header.release);
		cli_jset(p, "android", d);
		list = json_object_new_array();
		json_object_array_add(list, p);
		cli_jset(j, "partitions", list);
		cli_json_print(j);
		return EXIT_OK;
	}
	printf("Android image:   \tpartition %s, data %" PRIu64
	       " bytes, hash footer: %s digest %s\n",
	       CLI_NAME(h.partition_name, h.partition_name_len), h.image_size,
	       h.hash_algorithm, hex[0] ? hex : "(persistent)");
	printf("Vbmeta:          \t%s%s%s, rollback index %" PRIu64
	       ", release '%s'\n",
	       in.header.algorithm, sha1[0] ? ", key sha1 " : "", sha1,
	       in.header.rollback_index, in.header.release);
	return EXIT_OK;
}

int cli_avb_dump(struct cli_opts *o, const char *image)
{
	struct fv_report rep;
	struct cli_pair cp;
	fv_result *out = NULL;
	const fv_avb *a;
	fv_image *img;
	int r;

	memset(&cp, 0, sizeof(cp));
	if ((r = refuse_parameters(o, image)) || (r = open_avb(o, image, &img)))
		return r;
	a = cli_image_info(img).avb;
	if (cli_avb_facts(a).has_footer && !cli_avb_facts(a).has_hashtree) {
		r = dump_hash(o, image, a);
		fv_image_free(img);
		return r;
	}
	/* the layout of tree and parity as dump gives every pair's (cp
	 * holds img from here) */
	if (!(r = pair_of(o, image, img, &cp)) &&
	    (r = fv_describe(cp.img, cp.at, NULL, &out)))
		r = cli_lib_error(r);
	if (!r) {
		cli_report(out, &rep);
		if (o->json)
			dump_json(image, a, &cp, &rep.layout);
		else
			dump_text(image, a, &cp, &rep.layout);
	}
	fv_result_free(out);
	cli_pair_free(&cp);
	return r;
}
