/* verity/api/ota.c through <fastverity.h> alone (as a program sees it):
 * an OTA payload opened by the door (fv_open, container "ota") into its
 * facts, which nest as a JSON document's events; a package that cannot
 * be read refused with the file named. */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "include/fastverity.h"

#include "api_test.h"

static int ota_open(const char *path, fv_image **p)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = path, .container = "ota"};

	return fv_open(&rq, NULL, p);
}

/* The smallest payload: the header, an empty manifest (block_size 4096
 * by default), no signature. */
static const uint8_t empty_payload[24] = {'C', 'r', 'A', 'U', 0, 0,
					  0,   0,   0,   0,   0, 2};

START_TEST(facts)
{
	char path[128];
	const char *kv[2];
	fv_image *p;
	int type, depth = 0, seen = 0;
	size_t i;

	snprintf(path, sizeof(path), "%s/payload.bin", dir);
	write_file(path, empty_payload, sizeof(empty_payload));
	ck_assert_int_eq(ota_open(path, &p), 0);
	for (i = 0; !fv_ota_fact(p, i, kv, &type); i++) {
		if (type == '{' || type == '[')
			depth++;
		if (type == '}' || type == ']')
			depth--;
		ck_assert_int_ge(depth, 0);
		if (!strcmp(kv[0], "kind")) {
			ck_assert_str_eq(kv[1], "payload");
			seen++;
		}
		if (!strcmp(kv[0], "block_size")) {
			ck_assert_str_eq(kv[1], "4096");
			seen++;
		}
		if (!strcmp(kv[0], "major")) {
			ck_assert_int_eq(type, 'n');
			seen++;
		}
	}
	ck_assert_int_eq(depth, 0);
	ck_assert_int_eq(seen, 3);
	ck_assert_int_eq(fv_ota_fact(p, i, kv, &type), -ENOENT);
	ck_assert_int_eq(fv_ota_fact(p, 0, NULL, &type), -EINVAL);
	fv_ota_fact(p, 0, kv, &type);
	ck_assert_int_eq(type, '{');

	/* extract: a name not in the payload refused; none asked, no
	 * partition: an extract object, result ok, no image */
	ck_assert_int_eq(fv_ota_check(p, 2, dir, NULL, "system"), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no partition system"));
	ck_assert_int_eq(fv_ota_check(p, 2, dir, NULL, NULL), 0);
	for (i = 0, seen = 0; !fv_ota_fact(p, i, kv, &type); i++)
		if (!strcmp(kv[0], "extract") ||
		    (!strcmp(kv[0], "result") && !strcmp(kv[1], "ok")) ||
		    (!strcmp(kv[0], "images") && type == '['))
			seen++;
	ck_assert_int_eq(seen, 3);
	ck_assert_int_eq(fv_ota_check(NULL, 2, dir, NULL, NULL), -EINVAL);
	ck_assert_int_eq(fv_ota_check(p, 4, NULL, NULL, NULL), -EINVAL);
	fv_image_free(p);

	/* cut short: refused, the file named */
	write_file(path, empty_payload, 20);
	ck_assert_int_eq(ota_open(path, &p), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), path));
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "shorter than its"));
	unlink(path);
	ck_assert_int_eq(ota_open(path, &p), -ENODEV);
	ck_assert_int_eq(ota_open(NULL, &p), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "api_ota", .setup = setup, .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(facts));
}
