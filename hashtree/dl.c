/* Shared libraries opened when first needed (hashtree/dl.h). */
#include "hashtree/dl.h"

#include <dlfcn.h>
#include <stdio.h>

int ht_dl_open(const char *const *sonames, size_t nsonames,
	       const char *const *names, size_t n, void **fns, char *why,
	       size_t len)
{
	void *h = NULL;

	for (size_t i = 0; !h && i < nsonames; i++)
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, len, "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!(fns[i] = dlsym(h, names[i]))) {
			snprintf(why, len, "%s has no %s", sonames[0],
				 names[i]);
			return -1;
		}
	return 0;
}
