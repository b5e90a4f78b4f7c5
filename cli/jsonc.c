/* json-c opened when the command first writes JSON (cli/jsonc.h). */
#include "cli/jsonc.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"

static const char *const names[CLI_JSONC_COUNT] = {
#define CLI_JSONC_NAME(f) #f,
	CLI_JSONC_FUNCTIONS(CLI_JSONC_NAME)
#undef CLI_JSONC_NAME
};

static void *fns[CLI_JSONC_COUNT];
static int state; /* 0: not tried; 1: loaded; -1: cannot be */

int cli_jsonc_load(void)
{
	/* the soname this was built against (json-c 0.15 to 0.17) */
	void *h;
	size_t i;

	if (state)
		return state > 0 ? 0 : -1;
	state = -1;
	if (!(h = dlopen("libjson-c.so.5", RTLD_NOW | RTLD_LOCAL))) {
		cli_error(-ENOSYS,
			  "writing JSON needs json-c, which cannot be loaded "
			  "(%s)",
			  dlerror());
		return -1;
	}
	for (i = 0; i < CLI_JSONC_COUNT; i++)
		if (!(fns[i] = dlsym(h, names[i]))) {
			cli_error(-ENOSYS,
				  "writing JSON needs json-c, whose "
				  "libjson-c.so.5 has no %s",
				  names[i]);
			return -1;
		}
	state = 1;
	return 0;
}

void *cli_jsonc_fn(enum cli_jsonc_fn i)
{
	if (state <= 0 && cli_jsonc_load())
		exit(cli_exit_code(-ENOSYS));
	return fns[i];
}
