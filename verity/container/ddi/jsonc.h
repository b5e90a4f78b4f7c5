/* json-c, opened when a DDI's signature JSON is first read, as
 * libcrypto, libfec, libdevmapper and zlib are (hashtree/dl.h): linked,
 * it cost every run of the command its loading, though only DDIs' JSON
 * calls it.
 *
 * ddi.c includes <json-c/json.h>, then this, last: each function below
 * is then called through the pointer dlsym gave, with the type its
 * declaration has. The library is not linked with json-c, so a function
 * used and not named here fails to link. */
#ifndef FV_DDI_JSONC_H
#define FV_DDI_JSONC_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"

#define VERITY_JSONC_FUNCTIONS(X)     \
	X(json_object_get_string)     \
	X(json_object_is_type)        \
	X(json_object_object_get_ex)  \
	X(json_object_put)            \
	X(json_tokener_free)          \
	X(json_tokener_get_error)     \
	X(json_tokener_get_parse_end) \
	X(json_tokener_new)           \
	X(json_tokener_parse)         \
	X(json_tokener_parse_ex)      \
	X(json_tokener_set_flags)

enum verity_jsonc_fn {
#define VERITY_JSONC_ENUM(f) VERITY_JSONC_##f,
	VERITY_JSONC_FUNCTIONS(VERITY_JSONC_ENUM)
#undef VERITY_JSONC_ENUM
		VERITY_JSONC_COUNT
};

/* json-c opened (once): 0, or why it cannot be, what (a phrase) needing
 * it. */
int verity_jsonc_load(const char *what, struct ht_error *err);
/* Function i; verity_jsonc_load succeeded first. */
void *verity_jsonc_fn(enum verity_jsonc_fn i);

#define VERITY_JSONC(f)            (*(__typeof__(&f))verity_jsonc_fn(VERITY_JSONC_##f))
#define json_object_get_string     VERITY_JSONC(json_object_get_string)
#define json_object_is_type        VERITY_JSONC(json_object_is_type)
#define json_object_object_get_ex  VERITY_JSONC(json_object_object_get_ex)
#define json_object_put            VERITY_JSONC(json_object_put)
#define json_tokener_free          VERITY_JSONC(json_tokener_free)
#define json_tokener_get_error     VERITY_JSONC(json_tokener_get_error)
#define json_tokener_get_parse_end VERITY_JSONC(json_tokener_get_parse_end)
#define json_tokener_new           VERITY_JSONC(json_tokener_new)
#define json_tokener_parse         VERITY_JSONC(json_tokener_parse)
#define json_tokener_parse_ex      VERITY_JSONC(json_tokener_parse_ex)
#define json_tokener_set_flags     VERITY_JSONC(json_tokener_set_flags)

#endif
