/* fastverity avb info_image, print_partition_digests and
 * calculate_kernel_cmdline: avbtool's text, line for line, and --json
 * (docs/android.md), made by the library (fv_show) and written here to
 * stdout or --output; verify_image is cli/avb_verify.c. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/errors.h"
#include "cli/json.h"

int cli_avb_write(const char *output, const char *what, const void *buf,
		  size_t len, const char *const *inputs, size_t ninputs)
{
	int r;

	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i] && cli_same_storage(output, inputs[i]))
			return cli_error(-EINVAL,
					 "--output %s: is the input %s: an "
					 "output is never written over what "
					 "is read",
					 output, inputs[i]);
	if ((r = cli_output_write(output, what, buf, len)))
		return cli_write_error(r);
	return EXIT_OK;
}

/* A big-endian 64-bit number at p. */
static uint64_t be64_at(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* info_image --output_pubkey: the vbmeta's public key blob, as avbtool
 * writes it (an image with no key: an empty file, the one argparse
 * made). The blob is where the header says: after the header and the
 * authentication block, at the auxiliary block's key offset. */
static int write_pubkey(const struct cli_avb_args *a, const fv_avb *av)
{
	struct fv_avb_info in = cli_avb_facts(av);
	uint64_t auth, off, len, at;

	if (!in.vbmeta || in.vbmeta_size < 256)
		return cli_error(-EINVAL, "%s: no vbmeta header", a->image);
	auth = be64_at(in.vbmeta + 12);
	off = be64_at(in.vbmeta + 64);
	len = be64_at(in.vbmeta + 72);
	if (auth > in.vbmeta_size || off > in.vbmeta_size ||
	    len > in.vbmeta_size || (at = 256 + auth + off) > in.vbmeta_size ||
	    len > in.vbmeta_size - at)
		return cli_error(-EINVAL,
				 "%s: the vbmeta's public key is out of its "
				 "blob",
				 a->image);
	return cli_avb_write(a->output_pubkey, "public key file",
			     in.vbmeta + at, (size_t)len, &a->image, 1);
}

/* What the library shows of a->image (fv_show what), written whole to
 * --output (what it is: what), else printed as it comes; nothing when
 * it fails. After it, info_image's key blob. */
static int show(const struct cli_avb_args *a, enum fv_show_what what,
		const char *words)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .image = a->image,
				    .json = a->json,
				    .hashtree_disabled = a->hashtree_disabled};
	const fv_avb *av;
	fv_image *img;
	char *text = NULL;
	size_t len = 0;
	FILE *f = stdout;
	int r;

	if (a->output && !(f = open_memstream(&text, &len)))
		return cli_error(-ENOMEM, "out of memory");
	if ((r = cli_show_to(&q, f)))
		r = cli_lib_error(r);
	else if (a->output_pubkey && (r = cli_avb_shown(a->image, &img, &av)))
		r = cli_lib_error(r);
	else if (a->output_pubkey) {
		r = write_pubkey(a, av);
		fv_image_free(img);
	}
	if (f != stdout) {
		if (r)
			fclose(f);
		else if (fclose(f))
			r = cli_error(-ENOMEM, "out of memory");
		else
			r = cli_avb_write(a->output, words, text, len,
					  &a->image, 1);
		free(text);
	}
	return r;
}

int cli_avb_info(const struct cli_avb_args *a)
{
	if (!a->image)
		return cli_error(-EINVAL,
				 "avb info_image: --image is required");
	return show(a, FV_SHOW_AVB_INFO, "image information");
}

int cli_avb_digests(const struct cli_avb_args *a)
{
	if (!a->image)
		return cli_error(-EINVAL, "avb print_partition_digests: "
					  "--image is required");
	return show(a, FV_SHOW_AVB_DIGESTS, "partition digests");
}

int cli_avb_cmdline(const struct cli_avb_args *a)
{
	if (!a->image)
		return cli_error(-EINVAL, "avb calculate_kernel_cmdline: "
					  "--image is required");
	return show(a, FV_SHOW_AVB_CMDLINE, "kernel command line");
}
