/* fastverity dump <hash_device> */
#include <errno.h>
#include <string.h>

#include "cli/avb.h"
#include "cli/ddi.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/hints.h"
#include "verity/container/ddi/ddi.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/text.h"
#include "cli/json.h"
#include "cli/cli.h"

int cmd_dump(struct cli_opts *o)
{
	struct verity_pair pair;
	struct verity_outcome out;
	struct ht_error err;
	char uuid[37];
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "dump: requires <hash_device> as argument");
	/* a hash device alone is dumped as it is; an image in a container
	 * as the registry reads it */
	{
		enum verity_container kind;

		if ((r = cli_image_kind(o, o->args[0], &kind)))
			return r;
		if (kind == VERITY_CONTAINER_AVB)
			return cli_avb_dump(o, o->args[0]);
		if (kind == VERITY_CONTAINER_DDI)
			return cli_ddi_dump(o, o->args[0]);
	}
	memset(&pair, 0, sizeof(pair));
	verity_params_default(&pair.params);
	pair.hash.path = o->args[0];
	if (cli_parse_hash_offset(o, &pair.params.hash_offset) ||
	    cli_fec_params(o, &pair.fec))
		return EXIT_PARAMS;
	r = verity_op_dump(&pair, VERITY_DUMP_READ_SUPERBLOCK, &out, &err);
	if (r)
		return cli_superblock_at(o->args[0], pair.params.hash_offset)
			       ? cli_inside_error(r, &err)
			       : cli_no_superblock(r, &err, NULL, o->args[0],
						   pair.params.hash_offset);
	if (o->json) {
		cli_json_print(cli_json_header(o->args[0], &pair.params,
					       &out.layout, NULL));
		return EXIT_OK;
	}
	verity_uuid_format(pair.params.uuid, uuid);
	cli_print_header(o->args[0], &pair.params, uuid, &out.layout, NULL);
	return EXIT_OK;
}
