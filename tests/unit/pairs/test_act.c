/* verity/pairs/act.c: the actions on a held pair as the public API asks
 * them, on files made here: format and update into results (none made
 * when none is asked for); verify handing each failure to the options'
 * callback as the public kinds, block and offset; repair handing each
 * block rebuilt to the block callback, and its dry run writing nothing;
 * the signature checked without a block read; dump's layout; the
 * request of fv_format and fv_update read. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/pairs/act.h"
#include "verity/show/result.h"

#define BLOCKS 300u
#define BS     4096u

static char dir[64];
static char *data, *hash, *fec;

struct seen {
	unsigned failures, blocks, repaired;
	enum fv_failure_kind kind;
	uint64_t block, offset;
};

static void on_failure(void *ctx, enum fv_failure_kind kind, uint64_t block,
		       uint64_t offset, unsigned level)
{
	struct seen *s = ctx;

	(void)level;
	if (!s->failures++) {
		s->kind = kind;
		s->block = block;
		s->offset = offset;
	}
}

static void on_block(void *ctx, int repaired, enum fv_failure_kind kind,
		     uint64_t block, uint64_t offset, unsigned level)
{
	struct seen *s = ctx;

	(void)kind;
	(void)block;
	(void)offset;
	(void)level;
	s->blocks++;
	s->repaired += repaired != 0;
}

static void poke(uint64_t off, uint8_t v)
{
	FILE *f = fopen(data, "r+b");

	fseek(f, (long)off, SEEK_SET);
	fputc(v, f);
	fclose(f);
}

static void asetup(void)
{
	uint8_t *b = malloc((size_t)BLOCKS * BS);
	FILE *f;

	data = unit_path(dir, "/tmp/fv-act.XXXXXX", "data");
	hash = unit_path(dir, "/tmp/fv-act.XXXXXX", "hash");
	fec = unit_path(dir, "/tmp/fv-act.XXXXXX", "fec");
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 29 + i / BS);
	f = fopen(data, "wb");
	ck_assert_uint_eq(fwrite(b, 1, (size_t)BLOCKS * BS, f),
			  (size_t)BLOCKS * BS);
	fclose(f);
	free(b);
}

static void ateardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	dir[0] = '\0'; /* the next test's setup makes another */
	free(data);
	free(hash);
	free(fec);
}

/* A held pair formatted with parity: its root in hex into root. */
static struct verity_held *formatted(struct seen *s, fv_options *o, char *root)
{
	struct fv_format_request req = {.size = sizeof(req)};
	struct verity_params q;
	struct verity_held *pr;
	fv_result *res = NULL;
	struct ht_error err = {0};

	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->threads = 2;
	o->failure = on_failure;
	o->failure_ctx = s;
	o->block = on_block;
	o->block_ctx = s;
	verity_params_default(&q);
	q.salt_size = 4;
	memcpy(q.salt, "acts", 4);
	req.data = data;
	req.hash = hash;
	req.fec_path = fec;
	req.fec_roots = 2;
	ck_assert_int_eq(verity_held_new(data, hash, &pr, &err), 0);
	ck_assert_msg(verity_pairs_request(pr, &req, &q, 0, &err) == 0, "%s",
		      ht_msg(&err));
	/* no result asked for */
	ck_assert_msg(verity_pairs_format(pr, o, NULL, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_msg(verity_pairs_format(pr, o, &res, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(res->root_size, 32);
	ck_assert_int_eq(res->has_layout, 1);
	ck_assert_uint_eq(res->layout.geo.data_blocks, BLOCKS);
	ck_assert_uint_eq(res->layout.fec.roots, 2);
	strcpy(root, res->root_hex);
	ck_assert_str_eq(root, pr->root_hex);
	fv_result_free(res);
	return pr;
}

START_TEST(verify_said)
{
	struct seen s = {0};
	fv_options o;
	char root[129];
	struct verity_held *pr = formatted(&s, &o, root);
	fv_result *res = NULL;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_pairs_check(pr, &o, 0, &res, &err), 0);
	ck_assert_int_eq(res->checked, 1);
	ck_assert_int_eq(res->res.root_matches, 1);
	ck_assert_uint_eq(s.failures, 0);
	fv_result_free(res);
	/* a bad data block: the callback's kind, block, offset */
	poke(77 * BS + 3, 0xee);
	ck_assert_int_eq(verity_pairs_check(pr, &o, 0, &res, &err), 0);
	ck_assert_uint_eq(res->res.bad_data_blocks, 1);
	ck_assert_uint_eq(s.failures, 1);
	ck_assert_int_eq(s.kind, FV_BAD_DATA_BLOCK);
	ck_assert_uint_eq(s.block, 77);
	ck_assert_uint_eq(s.offset, 77 * BS);
	fv_result_free(res);
	/* repair, a dry run first: said, nothing written */
	memset(&s, 0, sizeof(s));
	o.repair = FV_REPAIR_DRY_RUN;
	ck_assert_msg(verity_pairs_check(pr, &o, 1, &res, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_ge(s.blocks, 1);
	fv_result_free(res);
	o.repair = 0;
	ck_assert_int_eq(verity_pairs_check(pr, &o, 0, &res, &err), 0);
	ck_assert_uint_eq(res->res.bad_data_blocks, 1);
	fv_result_free(res);
	/* for real: the block rebuilt, said, and the pair clean */
	memset(&s, 0, sizeof(s));
	ck_assert_msg(verity_pairs_check(pr, &o, 1, &res, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(s.repaired, 1);
	ck_assert_int_eq(res->has_fec, 1);
	ck_assert_uint_eq(res->fec.repaired, 1);
	fv_result_free(res);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(verity_pairs_check(pr, &o, 0, &res, &err), 0);
	ck_assert_uint_eq(res->res.bad_data_blocks, 0);
	ck_assert_uint_eq(s.failures, 0);
	fv_result_free(res);
	verity_held_free(pr);
}
END_TEST

START_TEST(signature_dump_update)
{
	struct seen s = {0};
	fv_options o;
	char root[129];
	struct verity_held *pr = formatted(&s, &o, root);
	fv_result *res = NULL;
	struct ht_error err = {0};
	const uint64_t range[2] = {10 * BS, 1};

	/* unsigned: no block read, the verdict said */
	ck_assert_int_eq(verity_pairs_check_signature(pr, &o, &res, &err), 0);
	ck_assert_int_eq(res->trust, VERITY_TRUST_UNSIGNED);
	ck_assert_int_eq(res->checked, 0);
	fv_result_free(res);
	ck_assert_int_eq(verity_pairs_dump(pr, &res, &err), 0);
	ck_assert_int_eq(res->has_layout, 1);
	ck_assert_uint_eq(res->layout.tree_offset, BS);
	ck_assert_str_eq(res->root_hex, root);
	fv_result_free(res);
	/* update of one changed block: a new root, the counts */
	poke(10 * BS, 0x01);
	ck_assert_msg(verity_pairs_update(pr, range, 1, &o, &res, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(res->has_update, 1);
	ck_assert_uint_eq(res->update.changed_blocks, 1);
	ck_assert_uint_gt(res->update.parity_rounds, 0);
	ck_assert_str_ne(res->root_hex, root);
	fv_result_free(res);
	/* no result asked for */
	poke(11 * BS, 0x02);
	{
		const uint64_t r2[2] = {11 * BS, 1};

		ck_assert_int_eq(verity_pairs_update(pr, r2, 1, &o, NULL, &err),
				 0);
	}
	ck_assert_int_eq(verity_pairs_check(pr, &o, 0, &res, &err), 0);
	ck_assert_int_eq(res->res.root_matches, 1);
	fv_result_free(res);
	verity_held_free(pr);
}
END_TEST

/* fv_update's request: the root needed (none given refused), the
 * tree's block count again checked. */
START_TEST(update_request)
{
	struct seen s = {0};
	fv_options o;
	char root[129];
	struct verity_held *pr = formatted(&s, &o, root), *up;
	struct fv_format_request req = {.size = sizeof(req)};
	struct ht_error err = {0};

	verity_held_free(pr);
	req.data = data;
	req.hash = hash;
	req.fec_path = fec;
	req.fec_roots = 2;
	ck_assert_int_eq(verity_held_new(data, hash, &up, &err), 0);
	ck_assert_int_eq(verity_pairs_request(up, &req, NULL, 1, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no root hash"));
	req.root_hex = root;
	req.data_blocks = BLOCKS + 1;
	ck_assert_int_eq(verity_pairs_request(up, &req, NULL, 1, &err),
			 -EINVAL);
	req.data_blocks = BLOCKS;
	ck_assert_msg(verity_pairs_request(up, &req, NULL, 1, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(up->params.data_blocks, BLOCKS);
	ck_assert_str_eq(up->root_hex, root);
	verity_held_free(up);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"act",     0, asetup,
					    ateardown, 0, NULL};

	return run_unit(&u, UNIT_TESTS(verify_said, signature_dump_update,
				       update_request));
}
