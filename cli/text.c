/* veritysetup's text output (cli/text.h). */
#include "cli/text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/errors.h"
#include "cli/params.h"

void cli_report(const fv_result *r, struct fv_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->size = sizeof(*rep);
	if (r)
		fv_result_report(r, rep);
}

const char *cli_name(char *buf, size_t len, const void *name, size_t n)
{
	return fv_name_shown(name, n, buf, len);
}
