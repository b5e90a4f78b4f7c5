/* json-c, opened when the command first writes JSON (--json, and the
 * files some actions write), as the library opens libcrypto, libfec,
 * libdevmapper and zlib: linked, it cost every run its loading (0.2-0.4
 * ms here), though most runs write no JSON.
 *
 * A source file of the command includes this instead of <json-c/json.h>:
 * each function below is then called through the pointer dlsym gave,
 * with the type its declaration has. The command is not linked with
 * json-c, so a function used and not named here fails to link. */
#ifndef FV_CLI_JSONC_H
#define FV_CLI_JSONC_H

#include <json-c/json.h>

/* Every json-c function the command calls. */
#define CLI_JSONC_FUNCTIONS(X)      \
	X(json_object_array_add)    \
	X(json_object_new_array)    \
	X(json_object_new_boolean)  \
	X(json_object_new_double)   \
	X(json_object_new_double_s) \
	X(json_object_new_int)      \
	X(json_object_new_object)   \
	X(json_object_new_string)   \
	X(json_object_new_uint64)   \
	X(json_object_object_add)   \
	X(json_object_put)          \
	X(json_object_to_json_string_ext)

enum cli_jsonc_fn {
#define CLI_JSONC_ENUM(f) CLI_JSONC_##f,
	CLI_JSONC_FUNCTIONS(CLI_JSONC_ENUM)
#undef CLI_JSONC_ENUM
		CLI_JSONC_COUNT
};

/* json-c opened (once): 0, or -1 after saying why on stderr (one line). */
int cli_jsonc_load(void);
/* Function i; json-c opened first. Where it cannot be, the line is said
 * and the command exits: what was asked is done, its JSON cannot be
 * written. */
void *cli_jsonc_fn(enum cli_jsonc_fn i);

#define CLI_JSONC(f)             (*(__typeof__(&f))cli_jsonc_fn(CLI_JSONC_##f))
#define json_object_array_add    CLI_JSONC(json_object_array_add)
#define json_object_new_array    CLI_JSONC(json_object_new_array)
#define json_object_new_boolean  CLI_JSONC(json_object_new_boolean)
#define json_object_new_double   CLI_JSONC(json_object_new_double)
#define json_object_new_double_s CLI_JSONC(json_object_new_double_s)
#define json_object_new_int      CLI_JSONC(json_object_new_int)
#define json_object_new_object   CLI_JSONC(json_object_new_object)
#define json_object_new_string   CLI_JSONC(json_object_new_string)
#define json_object_new_uint64   CLI_JSONC(json_object_new_uint64)
#define json_object_object_add   CLI_JSONC(json_object_object_add)
/* a NULL object is no object: putting it needs no json-c (a run without
 * --json frees the NULL documents it never made) */
static inline int cli_jsonc_put(json_object *o)
{
	return o ? CLI_JSONC(json_object_put)(o) : 0;
}
#define json_object_put                cli_jsonc_put
#define json_object_to_json_string_ext CLI_JSONC(json_object_to_json_string_ext)

#endif
