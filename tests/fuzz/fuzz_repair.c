/* libFuzzer: repair a small image (40 blocks of 512 bytes, roots 4) whose
 * data, tree and parity the fuzzer's bytes damage. Whatever the damage,
 * repair must never make a good block bad, and when it reports the image
 * good, data and tree must be the originals byte for byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verity/fec/repair.h"
#include "verity/tree/format.h"
#include "verity/tree/superblock.h"

#define BS     512
#define BLOCKS 40

static char dir[] = "/tmp/fastverity-fuzz-XXXXXX";
static char dpath[64], hpath[64], fpath[64];
static uint8_t data0[BLOCKS * BS], *hash0, *fec0;
static size_t hash_len, fec_len;
static uint8_t root[HT_MAX_DIGEST_SIZE];

static void put(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		abort();
}

static uint8_t *get(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(1 << 20);

	if (!f || !buf)
		abort();
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void cleanup(void)
{
	unlink(dpath);
	unlink(hpath);
	unlink(fpath);
	rmdir(dir);
}

static void setup(void)
{
	struct verity_pair pair;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err;

	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	snprintf(dpath, sizeof(dpath), "%s/d", dir);
	snprintf(hpath, sizeof(hpath), "%s/h", dir);
	snprintf(fpath, sizeof(fpath), "%s/f", dir);
	for (size_t i = 0; i < sizeof(data0); i++)
		data0[i] = (uint8_t)(i * 131 + (i >> 9));
	put(dpath, data0, sizeof(data0));
	memset(&pair, 0, sizeof(pair));
	verity_params_default(&pair.params);
	pair.params.data_block_size = pair.params.hash_block_size = BS;
	pair.data.path = dpath;
	pair.hash.path = hpath;
	pair.fec.region.path = fpath;
	pair.fec.roots = 4;
	if (verity_format(&pair, &run, &out, &err))
		abort();
	memcpy(root, out.root, sizeof(root));
	hash0 = get(hpath, &hash_len);
	fec0 = get(fpath, &fec_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t n)
{
	static int ready;
	uint8_t data[BLOCKS * BS], *hash, *fec, *after;
	size_t len, total = sizeof(data0) + hash_len;
	struct verity_pair pair;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	const struct ht_verify_result *after_res = &out.fec.after;
	struct ht_error err;

	if (!ready) {
		setup();
		ready = 1;
		total = sizeof(data0) + hash_len;
	}
	memcpy(data, data0, sizeof(data));
	hash = malloc(hash_len);
	fec = malloc(fec_len);
	memcpy(hash, hash0, hash_len);
	memcpy(fec, fec0, fec_len);
	/* each 3 bytes: a position over data, tree (not the superblock) and
	 * parity, and a byte to XOR there */
	for (size_t k = 0; k + 3 <= n; k += 3) {
		size_t at = ((size_t)in[k] << 8 | in[k + 1]) * 7 %
			    (total + fec_len - 512);

		if (at < sizeof(data))
			data[at] ^= in[k + 2];
		else if (at < total - 512)
			hash[512 + at - sizeof(data)] ^= in[k + 2];
		else
			fec[at - (total - 512)] ^= in[k + 2];
	}
	put(dpath, data, sizeof(data));
	put(hpath, hash, hash_len);
	put(fpath, fec, fec_len);
	memset(&pair, 0, sizeof(pair));
	verity_params_default(&pair.params);
	pair.data.path = dpath;
	pair.hash.path = hpath;
	pair.fec.region.path = fpath;
	pair.fec.roots = 4;
	memcpy(pair.root, root, 32);
	pair.root_size = 32;
	if (verity_read_superblock(&pair.hash, &pair.params, &err))
		abort();
	if (verity_fec_repair(&pair, &run, &out, &err))
		abort();
	after = get(dpath, &len);
	for (size_t b = 0; b < BLOCKS; b++)
		if (!memcmp(data + b * BS, data0 + b * BS, BS) &&
		    memcmp(after + b * BS, data0 + b * BS, BS))
			abort(); /* a good block made bad */
	if (after_res->root_matches && !after_res->bad_data_blocks &&
	    !after_res->bad_hash_blocks && !after_res->bad_padding &&
	    !after_res->unreadable_blocks) {
		uint8_t *h = get(hpath, &len);

		if (memcmp(after, data0, sizeof(data0)) ||
		    memcmp(h + 512, hash0 + 512, hash_len - 512))
			abort(); /* reported good, but not the original */
		free(h);
	}
	free(after);
	free(hash);
	free(fec);
	return 0;
}
