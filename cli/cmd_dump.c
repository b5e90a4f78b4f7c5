/* fastverity dump <hash_device> */
#include <errno.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/ddi.h"
#include "cli/super.h"
#include "cli/errors.h"
#include "cli/hints.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/cli.h"

int cmd_dump(struct cli_opts *o)
{
	struct fv_layout l = {.size = sizeof(l)};
	struct cli_fec fec;
	enum cli_container kind;
	fv_result *res = NULL;
	fv_pair *fp = NULL;
	uint64_t off;
	char uuid[37];
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "dump: requires <hash_device> as argument");
	/* a hash device alone is dumped as it is; an image in a container
	 * as the registry reads it */
	if ((r = cli_check_crc(o)) || (r = cli_image_kind(o, o->args[0], &kind)))
		return r;
	if (kind == CLI_AVB)
		return cli_avb_dump(o, o->args[0]);
	if (kind == CLI_DDI)
		return cli_ddi_dump(o, o->args[0]);
	if (kind == CLI_SUPER)
		return cli_super_dump(o, o->args[0]);
	if (cli_parse_hash_offset(o, &off) || cli_fec_params(o, &fec))
		return EXIT_PARAMS;
	if ((r = fv_pair_new(o->args[0], o->args[0], &fp)))
		return cli_lib_error(r);
	if ((r = fv_pair_read_superblock(fp, off))) {
		r = cli_superblock_at(o->args[0], off)
			    ? cli_lib_error(r)
			    : cli_no_superblock(r, NULL, o->args[0], off);
		goto out;
	}
	if ((r = fv_pair_set_fec(fp, fec.path, fec.offset, fec.roots)) ||
	    (r = fv_pair_dump(fp, NULL, &res))) {
		r = cli_lib_error(r);
		goto out;
	}
	fv_result_layout(res, &l);
	if (o->json) {
		cli_json_print(cli_json_header(o->args[0], fv_pair_params(fp),
					       &l, NULL));
	} else {
		fv_params_uuid(fv_pair_params(fp), uuid);
		cli_print_header(o->args[0], fv_pair_params(fp), uuid, &l,
				 NULL);
	}
	r = EXIT_OK;
out:
	fv_result_free(res);
	fv_pair_free(fp);
	return r;
}
