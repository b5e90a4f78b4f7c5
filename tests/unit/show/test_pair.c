/* verity/show/pair.c: veritysetup's header of a pair, as text and as the
 * --json members, with parity on the hash device and on its own, with no
 * salt and no root hash, and a tree at an offset (no hash device size). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "verity/show/pair.h"

struct got {
	char text[4096], items[4096];
};

static int collect(void *ctx, const struct fv_item *it)
{
	static const char *const kinds[] = {"T", "W", "S", "U", "B",
					    "N", "O", "A", "E"};
	struct got *g = ctx;
	size_t at = strlen(g->items);

	if (it->kind == FV_ITEM_TEXT) {
		strncat(g->text, it->text,
			sizeof(g->text) - strlen(g->text) - 1);
		return 0;
	}
	snprintf(g->items + at, sizeof(g->items) - at, "%s%s%s",
		 kinds[it->kind], it->key ? ":" : "", it->key ? it->key : "");
	at = strlen(g->items);
	if (it->kind == FV_ITEM_STRING)
		snprintf(g->items + at, sizeof(g->items) - at, "=%s", it->text);
	else if (it->kind == FV_ITEM_UINT || it->kind == FV_ITEM_BOOL)
		snprintf(g->items + at, sizeof(g->items) - at, "=%llu",
			 (unsigned long long)it->u);
	strncat(g->items, " ", sizeof(g->items) - strlen(g->items) - 1);
	return 0;
}

static fv_params params = {.size = sizeof(fv_params),
			   .hash = "sha1",
			   .hash_type = 0,
			   .data_block_size = 512,
			   .hash_block_size = 1024,
			   .data_blocks = 100,
			   .uuid = "",
			   .superblock = 0};

START_TEST(parity_on_hash_device)
{
	struct fv_layout l = {.size = sizeof(l),
			      .tree_offset = 0,
			      .tree_blocks = 3,
			      .levels = 2,
			      .fec_roots = 2,
			      .fec_rounds = 5,
			      .fec_blocks = 103,
			      .fec_offset = 3072,
			      .fec_parity_bytes = 10240,
			      .fec_on_hash_device = 1};
	static struct got g;
	struct show sh = {collect, &g, 0, 0};

	memset(&g, 0, sizeof(g));
	verity_show_pair_header(&sh, "h.img", &params, "-", &l, NULL);
	ck_assert_str_eq(g.text, "VERITY header information for h.img\n"
				 "UUID:            \t-\n"
				 "Hash type:       \t0\n"
				 "Data blocks:     \t100\n"
				 "Data block size: \t512\n"
				 "Hash blocks:     \t3\n"
				 "Hash block size: \t1024\n"
				 "Hash algorithm:  \tsha1\n"
				 "FEC RS roots:   \t2\n"
				 "FEC blocks:     \t10\n"
				 "Salt:            \t-\n"
				 "Hash device size: \t13312 [bytes]\n");
	sh.json = 1;
	verity_show_pair_header(&sh, "h.img", &params, "-", &l, NULL);
	ck_assert_str_eq(
		g.items,
		"S:device=h.img N:uuid B:superblock=0 U:hash_type=0 "
		"U:data_blocks=100 U:data_block_size=512 U:hash_blocks=3 "
		"U:hash_block_size=1024 S:hash_algorithm=sha1 S:salt= "
		"U:hash_offset=0 U:tree_offset=0 U:levels=2 "
		"U:hash_device_size=3072 O:fec U:roots=2 U:offset=3072 "
		"U:parity_blocks=10 U:parity_bytes=10240 U:covered_blocks=103 "
		"U:rounds=5 B:on_hash_device=1 E ");
}
END_TEST

START_TEST(parity_apart)
{
	struct fv_layout l = {.size = sizeof(l),
			      .tree_blocks = 3,
			      .fec_roots = 2,
			      .fec_rounds = 5,
			      .fec_parity_bytes = 10240};
	fv_params p = params;
	static struct got g;
	struct show sh = {collect, &g, 0, 0};

	memset(&g, 0, sizeof(g));
	verity_show_pair_header(&sh, "h.img", &p, "-", &l, "ab");
	ck_assert_ptr_nonnull(strstr(g.text,
				     "Root hash:      \tab\n"
				     "Hash device size: \t3072 [bytes]\n"
				     "FEC device size: \t10240 "
				     "[bytes]\n"));
	/* the tree at an offset: veritysetup says no device size */
	memset(&g, 0, sizeof(g));
	p.hash_offset = 4096;
	verity_show_pair_header(&sh, "h.img", &p, "-", &l, "ab");
	ck_assert_ptr_null(strstr(g.text, "Hash device size"));
	ck_assert_ptr_nonnull(strstr(g.text, "FEC device size"));
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"show_pair", 0, NULL,
					    NULL,        0, NULL};

	return run_unit(&u, UNIT_TESTS(parity_on_hash_device, parity_apart));
}
