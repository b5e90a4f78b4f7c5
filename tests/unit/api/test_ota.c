/* verity/api/ota.c through <fastverity.h> alone (as a program sees it):
 * an OTA payload shown (fv_show's FV_SHOW_OTA_*) as text or as a JSON
 * document's items, which nest; a package that cannot be read refused
 * with the file named. */
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

/* Items counted: objects, arrays and values seen by key. */
struct ota_seen {
	int depth, bad, kind, block_size, major, extract, ok, images;
	char text[4096];
};

static int seen_item(void *ctx, const struct fv_item *it)
{
	struct ota_seen *s = ctx;
	const char *k = it->key ? it->key : "", *t = it->text ? it->text : "";

	if (it->kind == FV_ITEM_TEXT)
		strncat(s->text, it->text,
			sizeof(s->text) - strlen(s->text) - 1);
	if (it->kind == FV_ITEM_OBJECT || it->kind == FV_ITEM_ARRAY)
		s->depth++;
	if (it->kind == FV_ITEM_END)
		s->bad += --s->depth < 0;
	s->kind += !strcmp(k, "kind") && !strcmp(t, "payload");
	s->block_size += !strcmp(k, "block_size") && it->u == 4096;
	s->major += !strcmp(k, "major") && it->kind == FV_ITEM_UINT;
	s->extract += !strcmp(k, "extract") && it->kind == FV_ITEM_OBJECT;
	s->ok += !strcmp(k, "result") && !strcmp(t, "ok");
	s->images += !strcmp(k, "images") && it->kind == FV_ITEM_ARRAY;
	return 0;
}

static int show(enum fv_show_what what, const char *path, int json,
		const char *names, struct ota_seen *s)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .image = path,
				    .json = json,
				    .partition = names,
				    .dir = dir};

	memset(s, 0, sizeof(*s));
	return fv_show(&q, seen_item, s);
}

START_TEST(facts)
{
	char path[128];
	struct ota_seen s;
	fv_image *p;

	snprintf(path, sizeof(path), "%s/payload.bin", dir);
	write_file(path, empty_payload, sizeof(empty_payload));
	ck_assert_int_eq(show(FV_SHOW_OTA_INFO, path, 1, NULL, &s), 0);
	ck_assert_int_eq(s.depth + s.bad, 0);
	ck_assert_int_eq(s.kind + s.block_size + s.major, 3);
	ck_assert_int_eq(show(FV_SHOW_OTA_INFO, path, 0, NULL, &s), 0);
	ck_assert_ptr_nonnull(strstr(s.text, "kind: payload\n"));

	/* extract: a name not in the payload refused; none asked, no
	 * partition: an extract object, result ok, no image */
	ck_assert_int_eq(show(FV_SHOW_OTA_EXTRACT, path, 1, "system", &s),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no partition system"));
	ck_assert_int_eq(show(FV_SHOW_OTA_EXTRACT, path, 1, NULL, &s), 0);
	ck_assert_int_eq(s.extract + s.images, 2);
	ck_assert_int_eq(s.ok, 2); /* the extract's, the document's */
	ck_assert_int_eq(show(FV_SHOW_OTA_INFO, NULL, 1, NULL, &s), -EINVAL);

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
