/* verity/container/ota/show.c on a payload made here (one partition,
 * boot, written by one REPLACE; tests/unit/container/ota/build.h): info's
 * facts as text and as one --json document; extract's images written
 * into the directory asked for, its verdict good, or bad (exit EPERM,
 * said) when the manifest's hash is not the image's; extract of one
 * partition; a visitor's failure handed back. */
#include <check.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "container/ota/build.h"
#include "hashtree/error.h"
#include "verity/container/ota/show.h"
#include "verity/show/show.h"

struct got {
	char text[8192];
	int n, json, fail;
};

static int got_fn(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	size_t at = strlen(g->text);

	g->n++;
	if (it->kind == FV_ITEM_TEXT)
		snprintf(g->text + at, sizeof(g->text) - at, "%.*s", (int)it->u,
			 it->text);
	else if (it->key)
		snprintf(g->text + at, sizeof(g->text) - at, "[%s=%s]", it->key,
			 it->text ? it->text : "");
	if (it->kind >= FV_ITEM_STRING && it->kind != FV_ITEM_ERROR)
		g->json++;
	return g->fail && g->n == g->fail ? -EPIPE : 0;
}

static uint8_t *payload;
static size_t plen;
static struct verity_ota_mem mem;
static struct verity_ota_src src;

/* The payload read, its manifest's hash of boot the image's (good) or
 * left wrong. */
static struct verity_ota *opened(int good)
{
	struct verity_ota *o = calloc(1, sizeof(*o));
	static struct ht_error err;

	ck_assert_ptr_nonnull(o);
	o->dev.fd = -1;
	verity_ota_mem_src(&src, &mem, payload, plen, "p.bin");
	ck_assert_int_eq(verity_ota_read(&src, o, &err), 0);
	if (good) {
		uint8_t blob[8192];

		for (int i = 0; i < 8192; i++)
			blob[i] = (uint8_t)(i * 7);
		EVP_Digest(blob, sizeof(blob),
			   o->payload.m->partitions[0]
				   ->new_partition_info->hash.data,
			   NULL, EVP_sha256(), NULL);
	}
	return o;
}

static int shown(struct verity_ota *o, enum fv_show_what what, int json,
		 const char *dir, const char *part, struct got *g,
		 struct ht_error *err)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .json = json,
				    .dir = dir,
				    .partition = part};
	struct show sh = {got_fn, g, json, 0};

	return verity_ota_show(o, NULL, &q, &sh, NULL, err);
}

static void osetup(void)
{
	payload = build_payload(NULL, &plen);
}

static void oteardown(void)
{
	free(payload);
}

START_TEST(info)
{
	struct verity_ota *o = opened(1);
	struct ht_error err;
	struct got g = {0};

	ck_assert_int_eq(shown(o, FV_SHOW_OTA_INFO, 0, NULL, NULL, &g, &err),
			 0);
	ck_assert_ptr_nonnull(strstr(g.text, "boot"));
	ck_assert_int_eq(g.json, 0);
	/* --json: one document, its members items, no text */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(shown(o, FV_SHOW_OTA_INFO, 1, NULL, NULL, &g, &err),
			 0);
	ck_assert_int_gt(g.json, 2);
	ck_assert_ptr_nonnull(strstr(g.text, "[kind=payload]"));
	/* the visitor's failure handed back */
	memset(&g, 0, sizeof(g));
	g.fail = 1;
	ck_assert_int_eq(shown(o, FV_SHOW_OTA_INFO, 0, NULL, NULL, &g, &err),
			 -EPIPE);
	verity_ota_free(o);
}
END_TEST

START_TEST(extract)
{
	char dir[] = "/tmp/fv-otashow-XXXXXX", img[64];
	struct verity_ota *o = opened(1);
	struct ht_error err;
	struct got g = {0};
	uint8_t buf[8193];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(shown(o, FV_SHOW_OTA_EXTRACT, 0, dir, NULL, &g, &err),
			 0);
	ck_assert_ptr_nonnull(strstr(g.text, "good"));
	snprintf(img, sizeof(img), "%s/boot.img", dir);
	ck_assert_ptr_nonnull(f = fopen(img, "rb"));
	ck_assert_uint_eq(fread(buf, 1, sizeof(buf), f), 8192);
	fclose(f);
	for (int i = 0; i < 8192; i++)
		ck_assert_uint_eq(buf[i], (uint8_t)(i * 7));
	unlink(img);
	/* one partition named that the payload lacks: refused */
	ck_assert_int_eq(
		shown(o, FV_SHOW_OTA_EXTRACT, 0, dir, "nope", &g, &err),
		-EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "p.bin: no partition nope in the payload");
	verity_ota_free(o);
	/* the manifest's hash not the image's: bad, said, EPERM */
	o = opened(0);
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(
		shown(o, FV_SHOW_OTA_EXTRACT, 0, dir, "boot", &g, &err), EPERM);
	ck_assert_ptr_nonnull(strstr(g.text, "new_partition_info.hash"));
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(
		shown(o, FV_SHOW_OTA_EXTRACT, 1, dir, "boot", &g, &err), EPERM);
	ck_assert_int_gt(g.json, 2);
	unlink(img);
	verity_ota_free(o);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "ota_show",
					    .timeout = 60,
					    .setup = osetup,
					    .teardown = oteardown};

	return run_unit(&u, UNIT_TESTS(info, extract));
}
