/* json-c opened when a DDI's signature JSON is first read
 * (verity/container/ddi/jsonc.h). */
#include <json-c/json.h>

#include "verity/container/ddi/jsonc.h"

#include <errno.h>
#include <pthread.h>

#include "hashtree/dl.h"

static const char *const names[VERITY_JSONC_COUNT] = {
#define VERITY_JSONC_NAME(f) #f,
	VERITY_JSONC_FUNCTIONS(VERITY_JSONC_NAME)
#undef VERITY_JSONC_NAME
};

static void *fns[VERITY_JSONC_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char why[256];

static void open_jsonc(void)
{
	/* the soname this was built against (json-c 0.15 to 0.17) */
	static const char *const soname[] = {"libjson-c.so.5"};

	loaded = !ht_dl_open(soname, 1, names, VERITY_JSONC_COUNT, fns, why,
			     sizeof(why));
}

int verity_jsonc_load(const char *what, struct ht_error *err)
{
	pthread_once(&once, open_jsonc);
	if (loaded)
		return 0;
	return ht_fail(err, ENOSYS,
		       "%s needs json-c, which cannot be loaded (%s)", what,
		       why);
}

void *verity_jsonc_fn(enum verity_jsonc_fn i)
{
	return fns[i];
}
