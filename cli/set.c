/* verify of an Android firmware set given alone (docs/android.md,
 * "Firmware sets"): a vbmeta image and what it chains and describes, an
 * image with a hash footer, or a super image's logical partitions. The
 * library walks the set and says what each step found (fv_show,
 * FV_SHOW_SET_VERIFY: the one walk, its trust rules and bounds; one
 * verdict a partition, bad blocks named by partition, and by their
 * bytes in a super image, refusals on stderr, or one --json document);
 * this builds the request, prints the items and picks the exit code. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/super.h"

int cli_set_verify(struct cli_opts *o, const char *image, int super)
{
	struct fv_slot_request req = {.size = sizeof(req)};
	const char **names = NULL, **files = NULL;
	const char *one[1] = {o->partition};
	struct cli_progress pr;
	fv_options opts;
	int r;

	if (o->slot && strcmp(o->slot, "a") && strcmp(o->slot, "b"))
		return cli_error(-EINVAL, "--slot: '%s' is not a or b",
				 o->slot);
	if (o->root_hash_signature)
		return cli_error(-EINVAL,
				 "%s: an Android image carries its own "
				 "signatures; --root-hash-signature does not "
				 "apply",
				 image);
	if ((r = cli_block_devices(o, &names, &files)))
		goto out;
	req.image = image;
	req.container = o->container;
	req.key = o->key;
	req.slot = o->slot;
	req.partitions = o->partition ? one : NULL;
	req.npartitions = o->partition ? 1 : 0;
	req.device_names = names;
	req.device_files = files;
	req.ndevices = o->nblock_devices;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW;
	if (cli_run_options(o, &opts, &pr)) {
		r = EXIT_PARAMS;
		goto out;
	}
	/* a set's anchor is --key: --trusted-cert is the wrong kind, which
	 * the walk refuses (docs/trust.md) */
	opts.trusted_certs = (const char *const *)o->trusted_certs;
	opts.ntrusted_certs = o->ntrusted;
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_SET_VERIFY,
		.image = image,
		.json = o->json,
		.set = &req,
		.o = &opts});
	cli_progress_end(&pr);
	if (r > 0) { /* what the steps found, said */
		r = cli_exit_code(-r);
	} else if (r) {
		int split = r == -ENODEV && super && o->nblock_devices == 0 &&
			    strstr(fv_last_error(), "split super");

		r = cli_lib_error(r);
		if (split)
			fprintf(stderr, "fastverity: give it: --block-device "
					"NAME=FILE\n");
	}
out:
	cli_block_devices_free(o, names, files);
	return r;
}

int cli_avb_is_set(const char *image)
{
	const fv_avb *av;
	fv_image *img;
	int yes;

	if (cli_avb_shown(image, &img, &av))
		return 0;
	yes = !cli_avb_facts(av).has_footer || !cli_avb_facts(av).has_hashtree;
	fv_image_free(img);
	return yes;
}
