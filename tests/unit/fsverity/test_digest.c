/* verity/fsverity/digest.c: fs-verity file digests against
 * fsverity-utils' of the same bytes (byte i: i * 7 + i / 4096; sizes
 * around one block and one level of the tree), with sha256 and 4096-byte
 * blocks and with sha512, 1 KiB blocks and a salt; from memory, a file
 * and a reader, on one thread or three; the tree kept as the kernel
 * stores it, or written to a file; the parameters' bounds. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fsverity/digest.h"
#include "verity/tree/params.h"

static const struct {
	uint64_t size;
	const char *sha256, *sha512;
} known[] = {
	{1, "b803429503d95915829b29fdbc8bbad142f3abfd11b1cadf5526582e685c0551",
	 "efa5a4be034257e96ec9853e5859b4fe7284e0c5f11acd8ff8432a9a32de2ca9"
	 "ca4757a8c69bdf75a263c49a4e59a385af105d4659165d247fd519136956d922"},
	{4095,
	 "b37a93497ff6ed2821409ced1dc20f4c1002cc361adf2f22ec444a22c06fe857",
	 "d0e3000c83d074e033115ee51b77ddcf08bc92b5740c27a35548eab82daaa49c"
	 "7738dcd8b61bcbef1f568fb5d397b0869c65543a633f38fa56397560a1b8a690"},
	{4096,
	 "87a706bdba32be89a173dc11d6a91c08165b4dcfcf743988c94595e82934a41a",
	 "0dbd5eecabdb20144301e936dc287c4b65ce0a334e1dd433b9a765b983e14c40"
	 "7b48ddbb239f090e0cc73db3665c20bc1c022ebb5e83ca70e4ba61cd8be0b439"},
	{4097,
	 "5c6077f10edc31c27b2a65cbaa199e2cfd36998bf104ccd2f7395eb509682064",
	 "8ea1100f3f8f30db339569cb7558b4a91d25002d621c70e3b5d4e8dae87272a1"
	 "c4d67a3a7d9d4a48a4000e832fed46a47cdb202656a94df1cc01b85c06722360"},
	{524288,
	 "9613b285b37589320574d16f1447444fb68289259e661f4418dc6374ef3c5b9f",
	 "3f6ff696c366a34a6590f9f81ffedeabf4bd2a147879c4d0a4b61986d7ca7f6d"
	 "b65fcb4dd2e933ae0a80eb99df264382cb1726b2f557d36b662ad6a59c693f36"},
	{524289,
	 "355acec90f25617bed6ee0e57380add05b4abb6855b8c7a9224c142cf027a98a",
	 "a8d18eabd5303fb35bbd169edf275ae9d6337eae63f1858a0e6235da266666ac"
	 "0c7452662cce5befc71e5c3fbec3a5caf8d14476a9f668922c2797f7c9ae0bba"},
};

#define MAXSZ 524289u

static uint8_t *bytes; /* MAXSZ of them (and 64 KiB of room) */
static char dir[64];

static void dsetup(void)
{
	bytes = calloc(1, MAXSZ + 65536);
	for (size_t i = 0; i < MAXSZ; i++)
		bytes[i] = (uint8_t)(i * 7 + i / 4096);
}

static void dteardown(void)
{
	free(bytes);
	rmdir(dir);
}

static void params(int big, struct fsv_params *p)
{
	static const uint8_t salt[2] = {0xab, 0xcd};
	struct ht_error err = {0};

	ck_assert_int_eq(
		big ? verity_fsv_params_make("sha512", 1024, salt, 2, p, &err)
		    : verity_fsv_params_make(NULL, 0, NULL, 0, p, &err),
		0);
}

static void hex_is(const struct fsv_digest *d, const char *want)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];

	verity_hex_encode(d->digest, d->digest_size, hex);
	ck_assert_str_eq(hex, want);
}

/* From memory: zeros past the size up to whole blocks (hashed in
 * place), and the size alone (the last block read, padded). */
START_TEST(from_memory)
{
	struct ht_error err = {0};
	uint8_t *padded = calloc(1, MAXSZ + 65536);

	for (int big = 0; big < 2; big++)
		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			for (unsigned t = 1; t <= 3; t += 2) {
				struct fsv_params p;
				struct fsv_source s = {0};
				struct ht_options o = {.threads = t};
				struct fsv_digest d;
				uint64_t n = known[k].size;

				params(big, &p);
				memset(padded, 0, MAXSZ + 65536);
				memcpy(padded, bytes, n);
				s.mem = padded;
				s.size = n;
				s.mem_bytes =
					t == 1 ? (n + 65535) / 65536 * 65536
					       : n;
				s.name = "memory";
				ck_assert_msg(verity_fsv_compute(&p, &s, &o,
								 NULL, 0, &d,
								 &err) == 0,
					      "%s", ht_msg(&err));
				hex_is(&d,
				       big ? known[k].sha512 : known[k].sha256);
				ck_assert_uint_eq(d.size, n);
				ck_assert_ptr_null(d.tree);
				verity_fsv_digest_free(&d);
			}
	free(padded);
}
END_TEST

struct reader {
	uint64_t at;
};

static int read_fn(void *ctx, void *buf, size_t count)
{
	struct reader *r = ctx;

	memcpy(buf, bytes + r->at, count);
	r->at += count;
	return 0;
}

static int failing(void *ctx, void *buf, size_t count)
{
	(void)ctx;
	(void)buf;
	(void)count;
	return -EIO;
}

/* A file and a reader; the tree kept, and written to a file. */
START_TEST(files_and_trees)
{
	char *path = unit_path(dir, "/tmp/fv-fsvd.XXXXXX", "f");
	char *tree = unit_path(dir, "/tmp/fv-fsvd.XXXXXX", "tree");
	struct ht_options o = {.threads = 2};
	struct ht_error err = {0};
	struct fsv_params p;
	struct fsv_digest d, d2;
	struct fsv_source s = {0};
	struct reader r = {0};
	uint8_t *t;
	size_t tl;
	FILE *f = fopen(path, "wb");

	ck_assert_uint_eq(fwrite(bytes, 1, 524289, f), 524289);
	fclose(f);
	params(0, &p);
	s.path = path;
	ck_assert_int_eq(verity_fsv_compute(&p, &s, &o, NULL, 1, &d, &err), 0);
	hex_is(&d, known[5].sha256);
	/* 129 data blocks: level 0 of two blocks, the top one: three */
	ck_assert_ptr_nonnull(d.tree);
	ck_assert_uint_eq(d.tree_bytes, 3 * 4096);
	/* written to a file instead: the same bytes */
	ck_assert_int_eq(verity_fsv_compute(&p, &s, &o, tree, 0, &d2, &err), 0);
	hex_is(&d2, known[5].sha256);
	ck_assert_ptr_null(d2.tree);
	t = unit_slurp(tree, &tl);
	ck_assert_uint_eq(tl, d.tree_bytes);
	ck_assert_mem_eq(t, d.tree, tl);
	free(t);
	verity_fsv_digest_free(&d2);
	verity_fsv_digest_free(&d);
	/* a reader, in order */
	memset(&s, 0, sizeof(s));
	s.read = read_fn;
	s.read_ctx = &r;
	s.size = 4097;
	s.name = "reader";
	ck_assert_int_eq(verity_fsv_compute(&p, &s, &o, NULL, 0, &d, &err), 0);
	hex_is(&d, known[3].sha256);
	ck_assert_uint_eq(r.at, 4097);
	verity_fsv_digest_free(&d);
	/* a reader that fails: its errno, the file named */
	s.read = failing;
	ck_assert_int_lt(verity_fsv_compute(&p, &s, &o, NULL, 0, &d, &err), 0);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "reader"));
	/* an empty file: no tree, a root of zeros */
	memset(&s, 0, sizeof(s));
	s.mem = bytes;
	s.size = 0;
	s.mem_bytes = 4096;
	s.name = "empty";
	ck_assert_int_eq(verity_fsv_compute(&p, &s, &o, NULL, 1, &d, &err), 0);
	hex_is(&d, "3d248ca542a24fc62d1c43b916eae5016878e2533c88238480b26128"
		   "a1f1af95");
	ck_assert_uint_eq(d.tree_bytes, 0);
	ck_assert_mem_eq(d.root, (uint8_t[32]){0}, 32);
	verity_fsv_digest_free(&d);
	/* a file not there */
	memset(&s, 0, sizeof(s));
	s.path = "/nonexistent/f";
	ck_assert_int_lt(verity_fsv_compute(&p, &s, &o, NULL, 0, &d, &err), 0);
	unlink(path);
	unlink(tree);
	free(path);
	free(tree);
}
END_TEST

START_TEST(params_bounds)
{
	static const uint8_t salt[33] = {0};
	struct fsv_params p;
	struct ht_error err = {0};
	uint8_t sig[FSV_SIGNED_HEADER + HT_MAX_DIGEST_SIZE];
	struct fsv_digest d;

	ck_assert_str_eq(verity_fsv_alg_name(FSV_SHA256), "sha256");
	ck_assert_str_eq(verity_fsv_alg_name(FSV_SHA512), "sha512");
	ck_assert_ptr_null(verity_fsv_alg_name((enum fsv_alg)3));
	ck_assert_int_eq(verity_fsv_alg_of("sha512"), FSV_SHA512);
	ck_assert_int_eq(verity_fsv_alg_of("sha1"), 0);
	ck_assert_uint_eq(verity_fsv_digest_size(FSV_SHA256), 32);
	ck_assert_uint_eq(verity_fsv_digest_size(FSV_SHA512), 64);
	ck_assert_int_eq(verity_fsv_params_make(NULL, 0, NULL, 0, &p, &err), 0);
	ck_assert_int_eq(p.alg, FSV_SHA256);
	ck_assert_uint_eq(p.block_size, 4096);
	ck_assert_int_eq(
		verity_fsv_params_make("sha256", 1024, NULL, 0, &p, &err), 0);
	ck_assert_int_eq(
		verity_fsv_params_make("sha256", 65536, salt, 32, &p, &err), 0);
	ck_assert_uint_eq(p.salt_size, 32);
	ck_assert_int_eq(
		verity_fsv_params_make("sha256", 512, NULL, 0, &p, &err),
		-EINVAL);
	ck_assert_int_eq(
		verity_fsv_params_make("sha256", 131072, NULL, 0, &p, &err),
		-EINVAL);
	ck_assert_int_eq(
		verity_fsv_params_make("sha256", 3072, NULL, 0, &p, &err),
		-EINVAL);
	ck_assert_int_eq(
		verity_fsv_params_make("sha256", 4096, salt, 33, &p, &err),
		-EINVAL);
	ck_assert_int_eq(
		verity_fsv_params_make("sha1", 4096, NULL, 0, &p, &err),
		-EINVAL);
	p.alg = (enum fsv_alg)7;
	ck_assert_int_eq(verity_fsv_params_check(&p, &err), -EINVAL);
	/* what a built-in signature signs */
	memset(&d, 0, sizeof(d));
	d.alg = FSV_SHA512;
	d.digest_size = 64;
	memset(d.digest, 0x11, 64);
	ck_assert_uint_eq(verity_fsv_signed_digest(&d, sig), 12 + 64);
	ck_assert_mem_eq(sig, "FSVerity\x02\x00\x40\x00", 12);
	ck_assert_uint_eq(sig[12 + 63], 0x11);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"fsverity_digest", 0, dsetup,
					    dteardown,         1, NULL};

	return run_unit(
		&u, UNIT_TESTS(from_memory, files_and_trees, params_bounds));
}
