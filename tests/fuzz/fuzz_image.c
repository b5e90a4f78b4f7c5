/* libFuzzer: the whole path a user's files take, hash file -> superblock
 * -> verify, on a sparse data file read through mappings. The fuzzer's
 * bytes overwrite the start of a good hash image (superblock and tree);
 * reading the superblock and verifying must refuse or report, never
 * crash, and a hash image left unchanged must check out. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/tree/format.h"
#include "verity/tree/superblock.h"
#include "verity/tree/verify.h"

#define BLOCKS 96
#define BS     4096

static char dir[64], data_path[96], hash_path[96];
static uint8_t *good;
static size_t good_len;
static uint8_t root[32];

static void cleanup(void)
{
	unlink(data_path);
	unlink(hash_path);
	rmdir(dir);
}

static void setup(void)
{
	struct verity_pair pair;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err;
	uint8_t block[BS];
	FILE *f;
	int fd;

	strcpy(dir, "/tmp/fuzz-image.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(data_path, sizeof(data_path), "%s/data", dir);
	snprintf(hash_path, sizeof(hash_path), "%s/hash", dir);
	atexit(cleanup);
	/* sparse: holes with a few written blocks */
	fd = open(data_path, O_CREAT | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)BLOCKS * BS) < 0)
		abort();
	for (int b = 0; b < BLOCKS; b += 13) {
		memset(block, b + 1, sizeof(block));
		if (pwrite(fd, block, BS, (off_t)b * BS) != BS)
			abort();
	}
	close(fd);
	memset(&pair, 0, sizeof(pair));
	verity_params_default(&pair.params);
	pair.params.salt_size = 4;
	memcpy(pair.params.salt, "fuzz", 4);
	pair.data.path = data_path;
	pair.hash.path = hash_path;
	if (verity_format(&pair, &run, &out, &err))
		abort();
	memcpy(root, out.root, sizeof(root));
	f = fopen(hash_path, "rb");
	if (!f)
		abort();
	fseek(f, 0, SEEK_END);
	good_len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	good = malloc(good_len);
	if (fread(good, 1, good_len, f) != good_len)
		abort();
	fclose(f);
}

static uint64_t reports;

static void report(void *c, const struct verity_failure *f)
{
	(void)c;
	(void)f;
	reports++;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	struct verity_run run = {.ht = {.threads = size % 3 ? 1 : 2},
				 .report = report};
	struct verity_pair pair;
	struct verity_outcome out;
	struct ht_verify_result *res = &out.res;
	struct ht_error err;
	uint8_t *img;
	size_t len;
	int fd, r, changed = 0;

	if (!good)
		setup();
	/* the good image with the input over its start; a long input
	 * makes the file longer, the first byte can make it shorter */
	len = size > good_len ? size : good_len;
	if (size && in[0] == 0xff)
		len = size;
	img = malloc(len ? len : 1);
	memset(img, 0, len);
	memcpy(img, good, len < good_len ? len : good_len);
	for (size_t i = 0; i < size; i++) {
		changed |= img[i] != in[i];
		img[i] = in[i];
	}
	changed |= len != good_len;
	fd = open(hash_path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, img, len) != (ssize_t)len)
		abort();
	close(fd);
	free(img);
	memset(&pair, 0, sizeof(pair));
	verity_params_default(&pair.params);
	pair.data.path = data_path;
	pair.hash.path = hash_path;
	memcpy(pair.root, root, sizeof(root));
	pair.root_size = sizeof(root);
	r = verity_read_superblock(&pair.hash, &pair.params, &err);
	if (r) {
		if (!changed)
			abort();
		return 0;
	}
	reports = 0;
	r = verity_tree_verify(&pair, &run, &out, &err);
	if (r && r != -EINVAL && r != -EIO && r != -ENODATA && r != -ENOMEM &&
	    r != -ENODEV && r != -EOVERFLOW)
		abort();
	if (!changed && (r || reports || !res->root_matches))
		abort();
	if (!r && reports != res->bad_data_blocks + res->bad_hash_blocks +
				     res->bad_padding + res->unreadable_blocks)
		abort();
	return 0;
}
