/* Shared libraries opened when first needed (hashtree/dl.h). */
#include "hashtree/dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int ht_dl_open(const char *const *sonames, size_t nsonames,
	       const char *const *names, size_t n, void **fns, char *why,
	       size_t len)
{
	void *h = NULL;
	size_t at = 0;

	for (; !h && at < nsonames; at++)
		h = dlopen(sonames[at], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, len, "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!(fns[i] = dlsym(h, names[i]))) {
			/* the one opened named; none of its functions kept */
			snprintf(why, len, "%s has no %s", sonames[at - 1],
				 names[i]);
			dlclose(h);
			memset(fns, 0, n * sizeof(*fns));
			return -1;
		}
	return 0;
}
