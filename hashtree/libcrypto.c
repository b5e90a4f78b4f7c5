/* OpenSSL's libcrypto opened when first needed (hashtree/libcrypto.h). */
#include "hashtree/libcrypto.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char *const fn_names[HT_LC_COUNT] = {
#define HT_LIBCRYPTO_NAME(f) #f,
	HT_LIBCRYPTO_FUNCTIONS(HT_LIBCRYPTO_NAME)
#undef HT_LIBCRYPTO_NAME
};

static void *fns[HT_LC_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char why[512];

/* What every function is when libcrypto cannot be opened: each returns
 * an int, a long or a pointer, and 0 is failure for all of them. Called
 * through a pointer of the function's own type, which on the ABIs
 * built for (x86-64, arm64) leaves the arguments unread and the 0 in
 * the return register. */
static long not_loaded(void)
{
	return 0;
}

static void open_libcrypto(void)
{
	/* the soname this was built against (OpenSSL 3) */
	void *h = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!h)
		snprintf(why, sizeof(why), "%s", dlerror());
	for (i = 0; h && i < HT_LC_COUNT; i++)
		if (!(fns[i] = dlsym(h, fn_names[i]))) {
			snprintf(why, sizeof(why), "libcrypto.so.3 has no %s",
				 fn_names[i]);
			break;
		}
	loaded = h && i == HT_LC_COUNT;
	if (loaded)
		return;
	for (i = 0; i < HT_LC_COUNT; i++) {
		long (*f)(void) = not_loaded;

		memcpy(&fns[i], &f, sizeof(f));
	}
}

int ht_libcrypto_load(const char *need, struct ht_error *err)
{
	pthread_once(&once, open_libcrypto);
	if (loaded)
		return 0;
	if (!need)
		return ht_fail(err, ENOSYS, "OpenSSL cannot be loaded (%s)",
			       why);
	return ht_fail(err, ENOSYS,
		       "%s needs OpenSSL, which cannot be loaded (%s)", need,
		       why);
}

void *ht_libcrypto_fn(enum ht_libcrypto_fn i)
{
	pthread_once(&once, open_libcrypto);
	return fns[i];
}
