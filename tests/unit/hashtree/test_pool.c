/* hashtree/pool.c: the workers over a level's windows, through ht_build
 * and ht_verify on 8 MiB in memory (512-byte blocks: level 0 of 1024
 * blocks, some sixty windows): a worker's error stops the level and its
 * message reaches the caller; progress comes one call at a time, never
 * backwards, ending at the total; every data block is seen once, by a
 * worker of the run, and a refusal there stops the build; failures are
 * reported in block order whatever the threads; the output is the same
 * for 1 to 8 threads. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/tree.h"

#define BS     512u
#define BLOCKS 16384u

struct mem {
	uint8_t *data, *tree;
	size_t tree_size;
	uint64_t fail_at; /* a data read touching this offset fails */
	int fail_errno;
	/* progress */
	atomic_int in_progress;
	uint64_t last_done, last_total, calls;
	int backwards, overlapped;
	/* data seen */
	uint8_t *seen;
	atomic_int twice, bad_worker;
	unsigned threads;
	uint64_t refuse_at; /* data_seen refuses the run holding it */
	/* reports */
	uint64_t blocks[64];
	unsigned nreports;
};

static struct mem m;
static struct ht_geometry g;
static struct ht_hasher h;

static int read_data(void *c, uint64_t off, void *buf, size_t len,
		     struct ht_error *err)
{
	struct mem *x = c;

	if (x->fail_errno && off <= x->fail_at && x->fail_at < off + len)
		return ht_fail(err, x->fail_errno, "boom at %llu",
			       (unsigned long long)x->fail_at);
	memcpy(buf, x->data + off, len);
	return 0;
}

static int read_tree(void *c, uint64_t off, void *buf, size_t len,
		     struct ht_error *err)
{
	struct mem *x = c;

	(void)err;
	memcpy(buf, x->tree + off, len);
	return 0;
}

static int write_tree(void *c, uint64_t off, const void *buf, size_t len,
		      struct ht_error *err)
{
	struct mem *x = c;

	(void)err;
	memcpy(x->tree + off, buf, len);
	return 0;
}

static void progress(void *c, uint64_t done, uint64_t total)
{
	struct mem *x = c;

	if (atomic_fetch_add(&x->in_progress, 1))
		x->overlapped = 1;
	if (done < x->last_done && total == x->last_total)
		x->backwards = 1;
	x->last_done = done;
	x->last_total = total;
	x->calls++;
	atomic_fetch_sub(&x->in_progress, 1);
}

static int data_seen(void *c, unsigned worker, uint64_t first,
		     const uint8_t *blocks, size_t n, struct ht_error *err)
{
	struct mem *x = c;

	if (worker >= (x->threads ? x->threads : 1))
		atomic_store(&x->bad_worker, 1);
	for (size_t i = 0; i < n; i++) {
		if (x->seen[first + i]++)
			atomic_store(&x->twice, 1);
		if (memcmp(blocks + i * BS, x->data + (first + i) * BS, BS))
			atomic_store(&x->twice, 2);
	}
	if (x->refuse_at && first <= x->refuse_at && x->refuse_at < first + n)
		return ht_fail(err, ECANCELED, "refused at block %llu",
			       (unsigned long long)x->refuse_at);
	return 0;
}

static void report(void *c, const struct ht_failure *f)
{
	struct mem *x = c;

	if (x->nreports < 64)
		x->blocks[x->nreports] = f->block;
	x->nreports++;
}

static struct ht_io io_of(void)
{
	return (struct ht_io){.ctx = &m,
			      .read_data = read_data,
			      .read_tree = read_tree,
			      .write_tree = write_tree};
}

static void psetup(void)
{
	static const uint8_t salt[4] = {1, 2, 3, 4};
	struct ht_error err = {0};

	memset(&m, 0, sizeof(m));
	m.data = malloc((size_t)BLOCKS * BS);
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		m.data[i] = (uint8_t)(i * 31 + i / BS);
	ck_assert_int_eq(ht_hasher_init(&h, "sha256", 1, salt, 4, &err), 0);
	ck_assert_int_eq(ht_geometry_init(&g, BLOCKS, BS, BS, 32, 1, &err), 0);
	m.tree_size = g.tree_blocks * BS;
	m.tree = calloc(1, m.tree_size);
	m.seen = calloc(1, BLOCKS);
}

static void pteardown(void)
{
	ht_hasher_free(&h);
	free(m.data);
	free(m.tree);
	free(m.seen);
}

/* The same tree and root for 1 to 8 threads. */
START_TEST(same_output)
{
	struct ht_io io = io_of();
	struct ht_error err = {0};
	uint8_t root[32], root1[32], *tree1 = malloc(m.tree_size);

	for (unsigned t = 1; t <= 8; t++) {
		struct ht_options opt = {.threads = t};

		memset(m.tree, 0, m.tree_size);
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		if (t == 1) {
			memcpy(root1, root, 32);
			memcpy(tree1, m.tree, m.tree_size);
		}
		ck_assert_mem_eq(root, root1, 32);
		ck_assert_msg(!memcmp(m.tree, tree1, m.tree_size), "%u threads",
			      t);
	}
	free(tree1);
}
END_TEST

/* A read that fails in a window in the middle: the build stops with the
 * worker's errno and message, whatever the threads. */
START_TEST(worker_error)
{
	struct ht_io io = io_of();
	struct ht_error err = {0};
	uint8_t root[32];

	m.fail_at = (uint64_t)BLOCKS * BS / 3 * 2 + 100;
	for (unsigned t = 1; t <= 8; t *= 2) {
		struct ht_options opt = {.threads = t};

		m.fail_errno = EINVAL;
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err), "boom at 5592504");
		/* verify: an error that is not the medium's (EIO) stops it
		 * too */
		{
			struct ht_verify_result res;

			m.fail_errno = 0;
			ck_assert_int_eq(
				ht_build(&g, &h, &io, &opt, root, &err), 0);
			m.fail_errno = ENOMEM;
			ck_assert_int_eq(
				ht_verify(&g, &h, &io, &opt, root, &res, &err),
				-ENOMEM);
			ck_assert_str_eq(ht_msg(&err), "boom at 5592504");
		}
	}
	m.fail_errno = 0;
}
END_TEST

START_TEST(progress_order)
{
	struct ht_io io = io_of();
	struct ht_error err = {0};
	struct ht_options opt = {
		.threads = 4, .progress = progress, .progress_ctx = &m};
	uint8_t root[32];

	ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
	ck_assert_uint_gt(m.calls, 8);
	ck_assert_int_eq(m.overlapped, 0);
	ck_assert_int_eq(m.backwards, 0);
	ck_assert_uint_eq(m.last_done, m.last_total);
	ck_assert_uint_gt(m.last_total, (uint64_t)BLOCKS * BS - 1);
}
END_TEST

/* data_seen: each block once, by a worker of the run; its refusal stops
 * the build with its message. */
START_TEST(seen_once)
{
	struct ht_io io = io_of();
	struct ht_error err = {0};
	uint8_t root[32];

	io.data_seen = data_seen;
	for (unsigned t = 1; t <= 6; t += 5) {
		struct ht_options opt = {.threads = t};

		m.threads = t;
		memset(m.seen, 0, BLOCKS);
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
		ck_assert_int_eq(m.twice, 0);
		ck_assert_int_eq(m.bad_worker, 0);
		for (unsigned i = 0; i < BLOCKS; i++)
			ck_assert_msg(m.seen[i] == 1, "block %u seen %u times",
				      i, m.seen[i]);
	}
	memset(m.seen, 0, BLOCKS);
	m.refuse_at = 9000;
	{
		struct ht_options opt = {.threads = 3};

		m.threads = 3;
		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err),
				 -ECANCELED);
		ck_assert_str_eq(ht_msg(&err), "refused at block 9000");
	}
	m.refuse_at = 0;
}
END_TEST

/* Bad data blocks in many windows: reported in block order, every one,
 * with 8 threads as with one. */
START_TEST(reports_in_order)
{
	static const unsigned bad[] = {3, 700, 701, 4000, 9999, 12000, 16383};
	struct ht_io io = io_of();
	struct ht_error err = {0};
	uint8_t root[32];
	struct ht_verify_result res;

	{
		struct ht_options opt = {.threads = 1};

		ck_assert_int_eq(ht_build(&g, &h, &io, &opt, root, &err), 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		m.data[(size_t)bad[i] * BS + 7] ^= 0x40;
	for (unsigned t = 1; t <= 8; t += 7) {
		struct ht_options opt = {
			.threads = t, .report = report, .report_ctx = &m};

		m.nreports = 0;
		ck_assert_int_eq(ht_verify(&g, &h, &io, &opt, root, &res, &err),
				 0);
		ck_assert_uint_eq(res.bad_data_blocks, 7);
		ck_assert_uint_eq(m.nreports, 7);
		for (size_t i = 0; i < 7; i++)
			ck_assert_uint_eq(m.blocks[i], bad[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		m.data[(size_t)bad[i] * BS + 7] ^= 0x40;
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"pool",    0, psetup,
					    pteardown, 0, NULL};

	return run_unit(&u,
			UNIT_TESTS(same_output, worker_error, progress_order,
				   seen_once, reports_in_order));
}
