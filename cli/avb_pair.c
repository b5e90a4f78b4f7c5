/* An Android image given to verify, repair, open or dump alone: its
 * vbmeta checked (the library's fv_avb), its hashtree descriptor made the
 * pair; dump prints what the library shows of it (fv_show). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"

/* An Android image's fv_avb_info, whole (zeros for NULL). */
static struct fv_avb_info cli_avb_facts(const fv_avb *a)
{
	struct fv_avb_info in = {.size = sizeof(in)};

	if (!a || fv_avb_info(a, &in))
		memset(&in, 0, sizeof(in));
	return in;
}

const char *cli_avb_parameter(const struct cli_opts *o)
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
 * has one; what the action cannot do with it refused there. 0 and
 * *img, or the exit code (printed). */
static int open_avb(const struct cli_opts *o, const char *image, fv_image **img)
{
	struct fv_open_request rq = {
		.image = image, .container = "avb", .action = o->action};
	int r = cli_open(o, &rq, (const char *const *)o->trusted_certs,
			 o->ntrusted, img);

	return r < 0 ? cli_lib_error(r) : r;
}

/* The pair of an opened Android image (img, cp's from here on): its
 * hashtree descriptor's, the library having refused one without. */
static int pair_of(const struct cli_opts *o, const char *image, fv_image *img,
		   struct cli_pair *cp)
{
	enum fv_trust trust = cli_image_info(img).trust;
	struct fv_avb_info in = cli_avb_facts(cli_image_info(img).avb);

	cli_pair_take(cp, img, 0);
	cp->avb = 1;
	cp->trust = trust;
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
			image, in.header.algorithm, in.header.public_key_sha1);
	return 0;
}

/* Options that set what the image's descriptor says: refused. */
static int refuse_parameters(const struct cli_opts *o, const char *image)
{
	const char *opt = cli_avb_parameter(o);

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
