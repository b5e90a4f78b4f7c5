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

#include "verity/tree/layout_internal.h"
#include "verity/verity.h"

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
	struct verity_params p;
	struct verity_layout l;
	struct verity_info info;
	struct fv_error err;
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
	verity_params_default(&p);
	p.salt_size = 4;
	memcpy(p.salt, "fuzz", 4);
	if (verity_format(&p, data_path, hash_path, NULL, NULL, root, &l, &info,
			  &err))
		abort();
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
	struct ht_options opt = {size % 3 ? 1 : 2, NULL, NULL, 0, 0};
	struct verity_params p;
	struct ht_verify_result res;
	struct verity_info info;
	struct fv_error err;
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
	verity_params_default(&p);
	r = verity_read_superblock(hash_path, &p, &err);
	if (r) {
		if (!changed)
			abort();
		return 0;
	}
	reports = 0;
	r = verity_verify(&p, data_path, hash_path, &opt, root, sizeof(root),
			  report, NULL, &res, &info, &err);
	if (r && r != -EINVAL && r != -EIO && r != -ENOMEM && r != -ENODEV &&
	    r != -EOVERFLOW)
		abort();
	if (!changed && (r || reports || !res.root_matches))
		abort();
	if (!r && reports != res.bad_data_blocks + res.bad_hash_blocks +
				     res.bad_padding)
		abort();
	return 0;
}
