/* fastverity dump <hash_device> */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli/files.h"

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/hints.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/cli.h"

/* An image with systemd's sidecar files: IMAGE.verity beside it and no
 * superblock of its own where dump looks (or --container=sidecar). Its
 * tree is dumped, as dump IMAGE.verity would, with its parity IMAGE.fec
 * when there and no --fec-device names another. *tree stays NULL for a
 * hash device dumped as it is; the caller fv_free's *tree and
 * *side_fec. */
static int sidecar_tree(const struct cli_opts *o, uint64_t off,
			struct cli_fec *fec, char **tree, char **side_fec)
{
	const char *image = o->args[0];
	struct fv_file_answer a;
	int r;

	if (!o->container && cli_superblock_at(image, off))
		return 0;
	if ((r = cli_file(FV_FILE_SIDECAR_NAMES, image, &a)))
		return cli_lib_error(r);
	fv_free(a.roothash);
	fv_free(a.signature);
	*tree = a.tree;
	*side_fec = a.fec;
	if (!o->container && access(*tree, F_OK) != 0) {
		fv_free(*tree);
		*tree = NULL;
		return 0;
	}
	if (!fec->path && access(*side_fec, F_OK) == 0)
		fec->path = *side_fec;
	return 0;
}

int cmd_dump(struct cli_opts *o)
{
	struct cli_fec fec;
	fv_image *img = NULL;
	int own = 0;
	const char *hash;
	char *tree = NULL, *side_fec = NULL;
	uint64_t off;
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "dump: requires <hash_device> as argument");
	/* a hash device alone is dumped as it is; an image in a container
	 * as the registry reads it */
	if ((r = cli_check_crc(o)) ||
	    (r = cli_alone(o, NULL, &own, cmd_dump)) || !own)
		return r;
	if (cli_parse_hash_offset(o, &off) || cli_fec_params(o, &fec))
		return EXIT_PARAMS;
	/* (the registry calls an image it knows no other way a sidecar
	 * image, whether IMAGE.verity is there or not) */
	if ((r = sidecar_tree(o, off, &fec, &tree, &side_fec)))
		goto out;
	hash = tree ? tree : o->args[0];
	/* the tree alone, through the door: its superblock, the parity */
	if ((r = fv_open(
		     &(struct fv_open_request){
			     .size = sizeof(struct fv_open_request),
			     .data = hash,
			     .hash = hash,
			     .hash_offset = off,
			     .fec_path = fec.path,
			     .fec_offset = fec.offset,
			     .fec_roots = fec.roots},
		     NULL, &img))) {
		r = cli_superblock_at(hash, off)
			    ? cli_lib_error(r)
			    : cli_no_superblock(r, NULL, hash, off);
		goto out;
	}
	/* its header, as the library shows it */
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_PAIR,
		.json = o->json,
		.image = tree ? o->args[0] : NULL,
		.img = img});
	if (r) {
		r = cli_lib_error(r);
		goto out;
	}
	r = EXIT_OK;
out:
	fv_image_free(img);
	fv_free(tree);
	fv_free(side_fec);
	return r;
}
