/* OpenSSL's libcrypto opened when first needed (hashtree/libcrypto.h). */
#include "hashtree/libcrypto.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hashtree/dl.h"

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
	static const char *const soname[] = {"libcrypto.so.3"};

	loaded = !ht_dl_open(soname, 1, fn_names, HT_LC_COUNT, fns, why,
			     sizeof(why));
	for (size_t i = 0; !loaded && i < HT_LC_COUNT; i++) {
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
