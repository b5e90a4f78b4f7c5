/* fastverity dump <hash_device> */
#include <errno.h>

#include "cli.h"

int cmd_dump(struct cli_opts *o)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp;
	struct fv_error err;
	char uuid[37];
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "dump: requires <hash_device> as argument");
	verity_params_default(&p);
	if (cli_parse_hash_offset(o, &p.hash_offset) || cli_fec_params(o, &fp))
		return EXIT_PARAMS;
	r = verity_read_superblock(o->args[0], &p, &err);
	if (!r)
		r = verity_layout_compute(&p, &l, &err);
	if (!r && fp.device)
		r = verity_fec_describe(&p, &l, o->args[0], &fp, &err);
	if (r)
		return cli_error(r, "%s", err.msg);
	if (o->json) {
		cli_json_print(cli_json_header(o->args[0], &p, &l, NULL));
		return EXIT_OK;
	}
	verity_uuid_format(p.uuid, uuid);
	cli_print_header(o->args[0], &p, uuid, &l, NULL);
	return EXIT_OK;
}
