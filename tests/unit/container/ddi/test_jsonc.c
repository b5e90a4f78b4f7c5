/* verity/container/ddi/jsonc.c: json-c opened when a disk image's
 * signature JSON is first read: loaded once, each function the reader
 * calls found, and calls through the header's macros json-c's own
 * (a document parsed, a member read, a bad one refused). */
#include <json-c/json.h>

#include "verity/container/ddi/jsonc.h"

#include <check.h>
#include <string.h>

#include "check_main.h"

START_TEST(loaded)
{
	struct ht_error err = {0};

	ck_assert_int_eq(verity_jsonc_load("a test", &err), 0);
	ck_assert_int_eq(verity_jsonc_load("a test again", &err), 0);
	ck_assert_str_eq(ht_msg(&err), "");
	for (int i = 0; i < VERITY_JSONC_COUNT; i++)
		ck_assert_msg(verity_jsonc_fn((enum verity_jsonc_fn)i),
			      "function %d not found", i);
}
END_TEST

START_TEST(called)
{
	static const char doc[] = "{\"rootHash\":\"00ff\",\"signature\":7}";
	struct ht_error err = {0};
	struct json_tokener *tok;
	struct json_object *o, *v;

	ck_assert_int_eq(verity_jsonc_load("a test", &err), 0);
	o = json_tokener_parse(doc);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_is_type(o, json_type_object));
	ck_assert(json_object_object_get_ex(o, "rootHash", &v));
	ck_assert(json_object_is_type(v, json_type_string));
	ck_assert_str_eq(json_object_get_string(v), "00ff");
	ck_assert(json_object_object_get_ex(o, "signature", &v));
	ck_assert(!json_object_is_type(v, json_type_string));
	ck_assert(!json_object_object_get_ex(o, "certificate", &v));
	json_object_put(o);
	/* a document cut short: the tokener says so, and where it stopped */
	tok = json_tokener_new();
	ck_assert_ptr_nonnull(tok);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, doc, 10);
	ck_assert_ptr_null(o);
	ck_assert_int_eq(json_tokener_get_error(tok), json_tokener_continue);
	ck_assert_uint_eq(json_tokener_get_parse_end(tok), 10);
	json_tokener_free(tok);
	ck_assert_ptr_null(json_tokener_parse("{\"a\":"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "jsonc"};

	return run_unit(&u, UNIT_TESTS(loaded, called));
}
