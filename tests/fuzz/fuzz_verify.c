/* libFuzzer: verify a fixed 40-block image (512-byte blocks, sha256, 4
 * tree blocks) against its correct tree with the fuzzer's bytes XORed in,
 * with 1 or 3 threads. Any tree must be checked without crashing, the
 * counts must add up, and an unchanged tree must check out. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/tree.h"

#define BLOCKS 40
#define BS     512
#define TREE   (4 * BS)

static uint8_t image[BLOCKS * BS];
static uint8_t good[TREE], tree[TREE];
static uint64_t reported;

static int rd(void *c, uint64_t off, void *buf, size_t len, struct ht_error *e)
{
	(void)c;
	(void)e;
	memcpy(buf, image + off, len);
	return 0;
}

static int rt(void *c, uint64_t off, void *buf, size_t len, struct ht_error *e)
{
	(void)e;
	memcpy(buf, (c ? good : tree) + off, len);
	return 0;
}

static int wt(void *c, uint64_t off, const void *buf, size_t len,
	      struct ht_error *e)
{
	if (!c)
		return ht_fail(e, 1, "verify must not write");
	memcpy(good + off, buf, len);
	return 0;
}

static void report(void *c, const struct ht_failure *f)
{
	(void)c;
	(void)f;
	reported++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ht_hasher h;
	static struct ht_geometry g;
	static uint8_t root[32];
	static int ready;
	struct ht_io io = {.ctx = NULL,
			   .read_data = rd,
			   .read_tree = rt,
			   .write_tree = wt};
	struct ht_options opt = {.threads = size % 2 ? 3 : 1};
	struct ht_verify_result res;
	struct ht_error err;
	int changed = 0;

	if (!ready) {
		struct ht_io build = io;

		build.ctx = good;
		for (size_t i = 0; i < sizeof(image); i++)
			image[i] = (uint8_t)(i * 7 + i / 512);
		if (ht_hasher_init(&h, "sha256", 1, (const uint8_t *)"s", 1,
				   &err) ||
		    ht_geometry_init(&g, BLOCKS, BS, BS, 32, 1, &err) ||
		    g.tree_blocks * BS != TREE ||
		    ht_build(&g, &h, &build, NULL, root, &err))
			abort();
		ready = 1;
	}
	memcpy(tree, good, TREE);
	for (size_t i = 0; i < size && i < TREE; i++) {
		tree[i] ^= data[i];
		changed |= data[i];
	}
	reported = 0;
	opt.report = report;
	if (ht_verify(&g, &h, &io, &opt, root, &res, &err))
		abort();
	if (reported !=
	    res.bad_data_blocks + res.bad_hash_blocks + res.bad_padding)
		abort();
	if (!changed && (reported || !res.root_matches))
		abort();
	if (changed && !reported && res.root_matches)
		abort(); /* a change anywhere in the tree must show */
	return 0;
}
