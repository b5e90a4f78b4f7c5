/* fastverity dump <hash_device> */
#include <errno.h>

#include "cli/errors.h"
#include "cli/pair.h"
#include "cli/cli.h"

int cmd_dump(struct cli_opts *o)
{
	int r;

	if (o->nargs != 1)
		return cli_error(-EINVAL,
				 "dump: requires <hash_device> as argument");
	/* a hash device alone is dumped as it is, an image with sidecar
	 * files as its tree, an image in a container as the registry reads
	 * it: the library's walk */
	if ((r = cli_check_crc(o)))
		return r;
	return cli_alone(o, NULL);
}
