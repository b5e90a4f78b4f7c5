/* fv_show's Android kinds through <fastverity.h> alone (as a program
 * sees it): info_image's text, print_partition_digests and
 * calculate_kernel_cmdline of a vbmeta image that includes a hashtree
 * footer's descriptor, the bytes of extract_vbmeta_image,
 * calculate_vbmeta_digest and info_image --output_pubkey with their
 * options, dump's --json items; the request refused (no
 * visitor, a kind that is none, a size too small), the visitor's
 * return handed back, an image that cannot be read (its message). */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/fastverity.h"

#include "api_test.h"

struct got {
	char text[16384];
	size_t len, items, json;
	int stop; /* the visitor's return from its first item on */
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;

	g->items++;
	if (it->kind == FV_ITEM_TEXT) {
		ck_assert_uint_lt(g->len + it->u, sizeof(g->text));
		memcpy(g->text + g->len, it->text, it->u);
		g->len += it->u;
		g->text[g->len] = '\0';
	} else if (it->kind != FV_ITEM_WARNING) {
		g->json++;
	}
	return g->stop;
}

static int show(enum fv_show_what what, const char *path, int json,
		struct got *g)
{
	struct fv_show_request q = {
		.size = sizeof(q), .what = what, .image = path, .json = json};

	memset(g, 0, sizeof(*g));
	return fv_show(&q, collect, g);
}

START_TEST(android_kinds)
{
	static struct got g;
	char img[96], vb[96];
	const char *cmdline = "quiet", *include = img;
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .cmdlines = &cmdline,
				      .ncmdlines = 1,
				      .includes = &include,
				      .nincludes = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system"};
	struct fv_show_request q = {
		.size = sizeof(q), .what = FV_SHOW_AVB_INFO, .image = vb};

	snprintf(img, sizeof(img), "%s/system.img", dir);
	snprintf(vb, sizeof(vb), "%s/vbmeta.img", dir);
	write_file(img, image, 64 * BS);
	ck_assert_int_eq(fv_avb_add_footer(img, &f, NULL), 0);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &v, 0), 0);
	/* info_image: avbtool's text, one item */
	ck_assert_int_eq(show(FV_SHOW_AVB_INFO, vb, 0, &g), 0);
	ck_assert_uint_eq(g.items, 1);
	ck_assert_ptr_eq(strstr(g.text, "Minimum libavb version:   1.0\n"),
			 g.text);
	ck_assert_ptr_nonnull(
		strstr(g.text, "Algorithm:                NONE\n"));
	ck_assert_ptr_nonnull(
		strstr(g.text, "      Partition Name:        system\n"));
	ck_assert_ptr_nonnull(strstr(g.text, "      Kernel Cmdline:        "
					     "'quiet'\n"));
	ck_assert_int_eq(show(FV_SHOW_AVB_INFO, img, 1, &g), 0);
	ck_assert_uint_eq(g.len, 0);
	ck_assert_uint_gt(g.json, 20);
	/* the set's digests and command line */
	ck_assert_int_eq(show(FV_SHOW_AVB_DIGESTS, vb, 0, &g), 0);
	ck_assert_ptr_eq(strstr(g.text, "system: "), g.text);
	ck_assert_uint_eq(g.len, strlen("system: ") + 40 + 1); /* sha1 */
	ck_assert_int_eq(show(FV_SHOW_AVB_CMDLINE, vb, 0, &g), 0);
	ck_assert_str_eq(g.text, "quiet");
	/* the bytes avbtool writes, its options read: the vbmeta blob
	 * padded, the set's vbmeta digest, an unsigned vbmeta's key blob */
	{
		const char *pad[] = {"padding_size", "0x1000"},
			   *notnum[] = {"padding_size", "x"},
			   *alg[] = {"hash_algorithm", "sha1"};

		q.what = FV_SHOW_AVB_VBMETA;
		q.image = img;
		q.options = pad;
		q.noptions = 1;
		memset(&g, 0, sizeof(g));
		ck_assert_int_eq(fv_show(&q, collect, &g), 0);
		ck_assert_uint_eq(g.len, 4096);
		ck_assert_int_eq(memcmp(g.text, "AVB0", 4), 0);
		q.options = notnum;
		ck_assert_int_eq(fv_show(&q, collect, &g), -EDOM);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "not a number"));
		q.image = vb; /* no footer */
		q.noptions = 0;
		ck_assert_int_eq(fv_show(&q, collect, &g), -EINVAL);
		q.what = FV_SHOW_AVB_VBMETA_DIGEST;
		q.options = alg;
		q.noptions = 1;
		memset(&g, 0, sizeof(g));
		ck_assert_int_eq(fv_show(&q, collect, &g), 0);
		ck_assert_uint_eq(g.len, 41);
		ck_assert_int_eq(g.text[40], '\n');
		q.what = FV_SHOW_AVB_PUBKEY; /* takes no option */
		ck_assert_int_eq(fv_show(&q, collect, &g), -EINVAL);
		q.noptions = 0;
		memset(&g, 0, sizeof(g));
		ck_assert_int_eq(fv_show(&q, collect, &g), 0);
		ck_assert_uint_eq(g.len, 0);
		q.what = FV_SHOW_AVB_INFO;
	}
	/* dump: the pair's members and android's */
	ck_assert_int_eq(show(FV_SHOW_AVB_DUMP, img, 1, &g), 0);
	ck_assert_uint_eq(g.len, 0);
	ck_assert_uint_gt(g.json, 20);
	ck_assert_int_eq(show(FV_SHOW_AVB_DUMP, img, 0, &g), 0);
	ck_assert_ptr_nonnull(strstr(g.text, "Android image:   \tpartition "
					     "system, data 262144 bytes"));
	/* a vbmeta image has no pair to dump */
	ck_assert_int_eq(show(FV_SHOW_AVB_DUMP, vb, 0, &g), -EINVAL);
	ck_assert_uint_eq(g.items, 0);
	/* the request refused */
	ck_assert_int_eq(fv_show(&q, NULL, &g), -EINVAL);
	q.what = (enum fv_show_what)99;
	ck_assert_int_eq(fv_show(&q, collect, &g), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "no kind 99"));
	q.what = FV_SHOW_AVB_INFO;
	q.size = 8;
	ck_assert_int_eq(fv_show(&q, collect, &g), -EINVAL);
	/* the visitor's return, as it is */
	memset(&g, 0, sizeof(g));
	g.stop = 5;
	q.size = sizeof(q);
	ck_assert_int_eq(fv_show(&q, collect, &g), 5);
	ck_assert_uint_eq(g.items, 1);
	/* an image that cannot be read: its message */
	ck_assert_int_lt(show(FV_SHOW_AVB_DIGESTS, "/nonexistent/v.img", 0, &g),
			 0);
	ck_assert_uint_eq(g.items, 0);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "/nonexistent/v.img"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_avbshow",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(android_kinds));
}
