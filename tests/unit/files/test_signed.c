/* verity/files/signed.c: a signature as sign hands it on: written whole
 * to the file named (nothing on stdout), or its bytes as stdout's text
 * for "-"; with --json the one document (result, root hash, format, file
 * or null, bytes, base64 of what went to stdout, exit code) and no raw
 * bytes; a file that cannot be written said as -EIO, nothing shown; a
 * visitor's failure handed back. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/files/signed.h"

struct got {
	char log[2048];
	char bytes[64];
	size_t nbytes;
	int n, fail;
};

static int got_fn(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	size_t at = strlen(g->log);

	g->n++;
	if (it->kind == FV_ITEM_TEXT) {
		g->nbytes = it->u < sizeof(g->bytes) ? (size_t)it->u : 0;
		memcpy(g->bytes, it->text, g->nbytes);
		snprintf(g->log + at, sizeof(g->log) - at, "TEXT %zu|",
			 g->nbytes);
	} else {
		snprintf(g->log + at, sizeof(g->log) - at, "%d %s %s %llu|",
			 (int)it->kind, it->key ? it->key : "-",
			 it->text ? it->text : "-", (unsigned long long)it->u);
	}
	return g->fail && g->n == g->fail ? -EPIPE : 0;
}

static const uint8_t der[] = {0x30, 0x03, 0x02, 0x01, 0x00};
static const char root[] = "ab";

static int hand_on(const char *to, int json, unsigned flags, struct got *g,
		   struct ht_error *err)
{
	struct fv_sign_request sign = {.size = sizeof(sign), .flags = flags};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_SIGN,
				    .image = to,
				    .json = json,
				    .args = root,
				    .sign = &sign};
	struct show sh = {got_fn, g, json, 0};

	return verity_files_signed(&q, der, sizeof(der), &sh, err);
}

START_TEST(to_a_file)
{
	char dir[] = "/tmp/fv-signed-XXXXXX", path[64], buf[16];
	struct got g = {0};
	struct ht_error err;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/root.p7s", dir);
	ck_assert_int_eq(hand_on(path, 0, 0, &g, &err), 0);
	ck_assert_int_eq(g.n, 0); /* nothing on stdout */
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	ck_assert_uint_eq(fread(buf, 1, sizeof(buf), f), sizeof(der));
	fclose(f);
	ck_assert_mem_eq(buf, der, sizeof(der));
	/* --json: the document names the file, no base64 */
	ck_assert_int_eq(hand_on(path, 1, 0, &g, &err), 0);
	ck_assert_ptr_nonnull(strstr(g.log, "2 result ok"));
	ck_assert_ptr_nonnull(strstr(g.log, "root_hash ab"));
	ck_assert_ptr_nonnull(strstr(g.log, "format pkcs7"));
	ck_assert_ptr_nonnull(strstr(g.log, path));
	ck_assert_ptr_nonnull(strstr(g.log, "bytes - 5|"));
	ck_assert_ptr_null(strstr(g.log, "TEXT"));
	unlink(path);
	/* a file that cannot be written: -EIO, its message, nothing shown */
	memset(&g, 0, sizeof(g));
	snprintf(path, sizeof(path), "%s/no/such/dir.p7s", dir);
	ck_assert_int_eq(hand_on(path, 1, 0, &g, &err), -EIO);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no/such/dir.p7s"));
	ck_assert_int_eq(g.n, 0);
	rmdir(dir);
}
END_TEST

START_TEST(to_stdout)
{
	struct got g = {0};
	struct ht_error err;

	/* the bytes as stdout's text, whole */
	ck_assert_int_eq(hand_on("-", 0, 0, &g, &err), 0);
	ck_assert_int_eq(g.n, 1);
	ck_assert_uint_eq(g.nbytes, sizeof(der));
	ck_assert_mem_eq(g.bytes, der, sizeof(der));
	/* --json: no raw bytes, the document with their base64 and no
	 * file; systemd's JSON format named */
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(hand_on("-", 1, FV_SIGN_DDI_JSON, &g, &err), 0);
	ck_assert_ptr_null(strstr(g.log, "TEXT"));
	ck_assert_ptr_nonnull(strstr(g.log, "format ddi-json"));
	ck_assert_ptr_nonnull(strstr(g.log, "file -"));
	ck_assert_ptr_nonnull(strstr(g.log, "base64 MAMCAQA="));
	ck_assert_ptr_nonnull(strstr(g.log, "exit_code - 0|"));
	/* the visitor's failure handed back */
	memset(&g, 0, sizeof(g));
	g.fail = 1;
	ck_assert_int_eq(hand_on("-", 0, 0, &g, &err), -EPIPE);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "files_signed"};

	return run_unit(&u, UNIT_TESTS(to_a_file, to_stdout));
}
