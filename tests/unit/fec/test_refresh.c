/* verity/fec/refresh.c: parity checked against a verified image, on a
 * pair formatted here with parity in a file of its own: none stale when
 * it is the image's; a damaged parity byte counted, and with a rewrite
 * its round written again byte for byte; more than the limit refused
 * when a rewrite is asked or the parity must match (nothing written);
 * a block of a stale round that no longer proves stops the rewrite
 * (ESTALE, the round left as it was); the limit's bounds. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fec/refresh.h"
#include "verity/tree/format.h"

#define BS     4096u
#define BLOCKS 256u

static char dir[64];
static char *data_path, *hash_path, *fec_path;
static struct verity_layout lay;
static uint8_t root[HT_MAX_DIGEST_SIZE];
static uint8_t *parity0; /* the parity as format wrote it */
static size_t parity_len;

static void setup(void)
{
	struct verity_pair p;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b = malloc(BLOCKS * BS);
	FILE *f;

	data_path = unit_path(dir, "/tmp/fv-refresh.XXXXXX", "data");
	hash_path = unit_path(dir, "/tmp/fv-refresh.XXXXXX", "hash");
	fec_path = unit_path(dir, "/tmp/fv-refresh.XXXXXX", "fec");
	for (size_t i = 0; i < BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 5 + i / BS);
	f = fopen(data_path, "wb");
	ck_assert_uint_eq(fwrite(b, 1, BLOCKS * BS, f), BLOCKS * BS);
	fclose(f);
	free(b);
	memset(&p, 0, sizeof(p));
	verity_params_default(&p.params);
	p.data.path = data_path;
	p.hash.path = hash_path;
	p.fec.region.path = fec_path;
	p.fec.roots = 2;
	ck_assert_msg(verity_format(&p, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	lay = out.layout;
	memcpy(root, p.root, sizeof(root));
	parity0 = unit_slurp(fec_path, &parity_len);
	ck_assert_uint_eq(parity_len, lay.fec.parity_bytes);
}

static void teardown(void)
{
	unlink(data_path);
	unlink(hash_path);
	unlink(fec_path);
	rmdir(dir);
	free(data_path);
	free(hash_path);
	free(fec_path);
	free(parity0);
}

struct bench {
	struct verity_device data, hash, fec;
	struct fec_source src;
	struct fec_rs rs;
	struct ht_hasher h;
	struct fec_proof proof;
	struct verity_fec_refresh x;
};

static void open_bench(struct bench *b)
{
	static const uint8_t nosalt[1];
	struct ht_error err = {0};

	memset(b, 0, sizeof(*b));
	ck_assert_int_eq(
		verity_device_open(&b->data, data_path, VERITY_OPEN_READ, &err),
		0);
	ck_assert_int_eq(
		verity_device_open(&b->hash, hash_path, VERITY_OPEN_READ, &err),
		0);
	ck_assert_int_eq(
		verity_device_open(&b->fec, fec_path, VERITY_OPEN_WRITE, &err),
		0);
	b->src = (struct fec_source){&b->data, &b->hash, &b->fec, &lay.fec,
				     NULL};
	ck_assert_int_eq(verity_fec_rs_init_encoder(&b->rs, 2, &err), 0);
	ck_assert_int_eq(ht_hasher_init(&b->h, "sha256", 1, nosalt, 0, &err),
			 0);
	ck_assert_int_eq(verity_fec_proof_init(&b->proof, &lay.geo, &b->h,
					       &b->src, root, &err),
			 0);
	b->x = (struct verity_fec_refresh){&b->src, &b->rs, &b->proof, NULL, 1,
					   0,       0,      0,         NULL};
}

static void close_bench(struct bench *b)
{
	verity_fec_proof_free(&b->proof);
	ht_hasher_free(&b->h);
	verity_fec_rs_free(&b->rs);
	verity_device_close(&b->data);
	verity_device_close(&b->hash);
	verity_device_close(&b->fec);
}

static void put(const char *path, uint64_t off, const void *p, size_t n)
{
	FILE *f = fopen(path, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void parity_restored(void)
{
	put(fec_path, 0, parity0, parity_len);
}

START_TEST(matches)
{
	static struct bench b;
	struct verity_fec_result res;
	struct ht_error err = {0};

	open_bench(&b);
	memset(&res, 0, sizeof(res));
	b.x.must_match = 1;
	ck_assert_msg(verity_fec_refresh(&b.x, &res, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(res.stale_codewords, 0);
	ck_assert_uint_eq(res.stale_rounds, 0);
	ck_assert_uint_eq(res.parity_rewritten, 0);
	ck_assert_uint_eq(res.rewrite_limit,
			  verity_parity_rewrite_limit(&lay.fec));
	close_bench(&b);
}
END_TEST

/* One parity byte of round 1 changed: one stale codeword; counted only,
 * then written again as format wrote it. */
START_TEST(stale_rewritten)
{
	static struct bench b;
	struct verity_fec_result res;
	struct ht_error err = {0};
	uint64_t at = 1 * 2 * BS + 77; /* round 1: 2 roots of a block */
	uint8_t v = (uint8_t)~parity0[at];
	uint8_t *now;
	size_t len;

	ck_assert_uint_gt(lay.fec.rounds, 1);
	put(fec_path, at, &v, 1);
	open_bench(&b);
	memset(&res, 0, sizeof(res));
	ck_assert_int_eq(verity_fec_refresh(&b.x, &res, &err), 0);
	ck_assert_uint_eq(res.stale_codewords, 1);
	ck_assert_uint_eq(res.stale_rounds, 1);
	ck_assert_uint_eq(res.parity_rewritten, 0);
	b.x.rewrite = b.x.rewrite_asked = 1;
	memset(&res, 0, sizeof(res));
	ck_assert_msg(verity_fec_refresh(&b.x, &res, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(res.parity_rewritten, 1);
	close_bench(&b);
	now = unit_slurp(fec_path, &len);
	ck_assert_uint_eq(len, parity_len);
	ck_assert_mem_eq(now, parity0, len);
	free(now);
}
END_TEST

/* Every codeword of rounds 0 and 1 spoilt, past the limit of a parity this
 * small (one round's worth, 4096): refused when a rewrite is asked or
 * it must match, nothing written; only counted otherwise. */
START_TEST(past_limit)
{
	static struct bench b;
	struct verity_fec_result res;
	struct ht_error err = {0};
	uint8_t *junk = malloc(2 * 2 * BS), *now;
	size_t len;

	ck_assert_uint_eq(verity_parity_rewrite_limit(&lay.fec), BS);
	for (size_t i = 0; i < 2 * 2 * BS; i++)
		junk[i] = (uint8_t)(parity0[i] ^ 0x5a);
	put(fec_path, 0, junk, 2 * 2 * BS);
	open_bench(&b);
	memset(&res, 0, sizeof(res));
	ck_assert_int_eq(verity_fec_refresh(&b.x, &res, &err), 0);
	ck_assert_uint_eq(res.stale_codewords, 2 * BS);
	ck_assert_uint_eq(res.stale_rounds, 2);
	b.x.must_match = 1;
	ck_assert_int_eq(verity_fec_refresh(&b.x, &res, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "8192 of "));
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "it is not this image's "
						   "parity"));
	ck_assert_ptr_null(strstr(ht_msg(&err), "nothing rewritten"));
	b.x.must_match = 0;
	b.x.rewrite = b.x.rewrite_asked = 1;
	memset(&res, 0, sizeof(res));
	ck_assert_int_eq(verity_fec_refresh(&b.x, &res, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "; nothing rewritten"));
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), fec_path));
	ck_assert_uint_eq(res.parity_rewritten, 0);
	close_bench(&b);
	now = unit_slurp(fec_path, &len);
	ck_assert_mem_eq(now, junk, 2 * 2 * BS);
	free(now);
	free(junk);
	parity_restored();
}
END_TEST

/* A stale round one of whose blocks no longer proves: ESTALE naming
 * it, the round left as it was. */
START_TEST(changed_meanwhile)
{
	static struct bench b;
	struct verity_fec_result res;
	struct ht_error err = {0};
	uint8_t v = (uint8_t)~parity0[5], back, *now;
	size_t len;
	char want[300];

	put(fec_path, 5, &v, 1);
	/* data block 0 lies in round 0 */
	put(data_path, 100, "X", 1);
	open_bench(&b);
	b.x.rewrite = b.x.rewrite_asked = 1;
	memset(&res, 0, sizeof(res));
	ck_assert_int_eq(verity_fec_refresh(&b.x, &res, &err), -ESTALE);
	snprintf(want, sizeof(want),
		 "%s: data block 0 no longer matches the tree", data_path);
	ck_assert_msg(strstr(ht_msg(&err), want), "%s", ht_msg(&err));
	ck_assert_uint_eq(res.parity_rewritten, 0);
	close_bench(&b);
	now = unit_slurp(fec_path, &len);
	ck_assert_uint_eq(now[5], v);
	free(now);
	back = (uint8_t)(100 * 5 + 0);
	put(data_path, 100, &back, 1);
	parity_restored();
}
END_TEST

START_TEST(limit)
{
	struct verity_fec_layout fl = {.block_size = 4096, .rounds = 1};

	ck_assert_uint_eq(verity_parity_rewrite_limit(&fl), 4096);
	fl.rounds = 20;
	ck_assert_uint_eq(verity_parity_rewrite_limit(&fl), 4096);
	fl.rounds = 21;
	ck_assert_uint_eq(verity_parity_rewrite_limit(&fl),
			  21 * 4096 / 100 * 5);
	fl.rounds = 1000;
	ck_assert_uint_eq(verity_parity_rewrite_limit(&fl), 1000 * 4096 / 20);
	fl.rounds = (uint64_t)1 << 40;
	ck_assert_uint_eq(verity_parity_rewrite_limit(&fl),
			  ((uint64_t)1 << 52) / 100 * 5);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"fec_refresh", 0, setup,
					    teardown,      1, NULL};

	return run_unit(&u, UNIT_TESTS(matches, stale_rewritten, past_limit,
				       changed_meanwhile, limit));
}
