/* verity/fsverity/request.c: fs-verity's requests read and computed, on
 * files made here, against fsverity-utils' digests of the same bytes
 * (an empty file, 10000 'a's; sha256 and 4096-byte blocks, and sha512,
 * 1024-byte blocks with a salt): the parameters read as far as their
 * size says, bad ones refused; one file from a path or a reader, its
 * tree kept; many files at once, the first that fails named; what is
 * shown of a digest (its hex, what a built-in signature signs). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/fsverity/request.h"

#define EMPTY_SHA256 \
	"3d248ca542a24fc62d1c43b916eae5016878e2533c88238480b26128a1f1af95"
#define A10K_SHA256 \
	"94176b4d6a6edcc136ca792563b49fda1a39855842ed419194136dda51c5d6de"
#define A10K_SHA512_1K_SALT                                                \
	"8c13e41fb2f56d6b65c545934f40b3d35a52aaf7a64c42df157e4452f65e0712" \
	"e6e887ebb6c5660bd4d2c34f897cc39d7f9d4e0cc9c560e774d7f536e00ac6d5"

static char dir[64];
static char *empty, *a10k;
static const struct ht_options one = {.threads = 1};

static void rsetup(void)
{
	FILE *f;

	empty = unit_path(dir, "/tmp/fv-fsvreq.XXXXXX", "empty");
	a10k = unit_path(dir, "/tmp/fv-fsvreq.XXXXXX", "a10k");
	f = fopen(empty, "wb");
	fclose(f);
	f = fopen(a10k, "wb");
	for (int i = 0; i < 10000; i++)
		fputc('a', f);
	fclose(f);
}

static void rteardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(empty);
	free(a10k);
}

START_TEST(params)
{
	static const uint8_t salt[2] = {1, 2};
	struct fv_fsverity_params in = {.size = sizeof(in)};
	struct fsv_params p;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_fsv_params_of(NULL, &p, &err), 0);
	ck_assert_int_eq(p.alg, FSV_SHA256);
	ck_assert_uint_eq(p.block_size, 4096);
	ck_assert_uint_eq(p.salt_size, 0);
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), 0);
	ck_assert_uint_eq(p.block_size, 4096);
	in.hash = "sha512";
	in.block_size = 1024;
	in.salt = salt;
	in.salt_len = 2;
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), 0);
	ck_assert_int_eq(p.alg, FSV_SHA512);
	ck_assert_uint_eq(p.block_size, 1024);
	ck_assert_uint_eq(p.salt_size, 2);
	/* read only as far as size says: the salt not seen */
	in.size = offsetof(struct fv_fsverity_params, hash) + sizeof(in.hash);
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), 0);
	ck_assert_uint_eq(p.salt_size, 0);
	ck_assert_uint_eq(p.block_size, 4096);
	in.size = sizeof(size_t);
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fs-verity parameters: size 8 is too "
				       "small");
	in.size = sizeof(in);
	in.salt = NULL;
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fs-verity parameters: salt is NULL");
	/* an unknown hash is said before the salt */
	in.hash = "md5";
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), -EINVAL);
	ck_assert_ptr_null(strstr(ht_msg(&err), "salt is NULL"));
	in.hash = "sha256";
	in.salt = salt;
	in.block_size = 512;
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), -EINVAL);
	in.block_size = 4096;
	in.salt_len = 33;
	ck_assert_int_eq(verity_fsv_params_of(&in, &p, &err), -EINVAL);
}
END_TEST

struct src {
	const char *bytes;
	uint64_t at, n;
};

static int reader(void *ctx, void *buf, size_t count)
{
	struct src *s = ctx;

	for (size_t i = 0; i < count; i++)
		((char *)buf)[i] = s->at + i < s->n ? 'a' : 0;
	s->at += count;
	return 0;
}

START_TEST(one_file)
{
	static const uint8_t salt[2] = {1, 2};
	struct fv_fsverity_params fp = {sizeof(fp), "sha512", 1024, salt, 2};
	struct fv_fsverity_request q = {.size = sizeof(q)};
	struct fv_fsverity_info info;
	fv_fsverity_digest *d = NULL;
	struct ht_error err = {0};
	struct src s = {NULL, 0, 10000};

	q.path = empty;
	ck_assert_msg(verity_fsv_request(&q, &one, &d, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(d->hex, EMPTY_SHA256);
	verity_fsv_shown_info(d, &info);
	ck_assert_str_eq(info.hash, "sha256");
	ck_assert_uint_eq(info.digest_len, 32);
	ck_assert_str_eq(info.digest_hex, EMPTY_SHA256);
	ck_assert_uint_eq(info.file_size, 0);
	ck_assert_ptr_null(info.tree);
	ck_assert_uint_eq(info.tree_len, 0);
	/* what a built-in signature signs: "FSVerity", le16 alg, le16
	 * size, the digest */
	ck_assert_uint_eq(info.signed_digest_len, 12 + 32);
	ck_assert_mem_eq(info.signed_digest, "FSVerity\x01\x00\x20\x00", 12);
	ck_assert_mem_eq(info.signed_digest + 12, info.digest, 32);
	verity_fsv_shown_free(d);
	verity_fsv_shown_free(NULL);
	/* 10000 bytes, sha512, 1 KiB blocks, a salt; the tree kept */
	q.path = a10k;
	q.params = &fp;
	q.flags = FV_FSVERITY_KEEP_TREE;
	ck_assert_int_eq(verity_fsv_request(&q, &one, &d, &err), 0);
	ck_assert_str_eq(d->hex, A10K_SHA512_1K_SALT);
	verity_fsv_shown_info(d, &info);
	ck_assert_ptr_nonnull(info.tree);
	ck_assert_uint_gt(info.tree_len, 0);
	ck_assert_uint_eq(info.file_size, 10000);
	verity_fsv_shown_free(d);
	/* the same bytes from a reader */
	q.path = NULL;
	q.params = NULL;
	q.flags = 0;
	q.read = reader;
	q.read_ctx = &s;
	q.read_size = 10000;
	q.name = "a reader";
	ck_assert_msg(verity_fsv_request(&q, &one, &d, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(d->hex, A10K_SHA256);
	verity_fsv_shown_free(d);
}
END_TEST

START_TEST(one_refused)
{
	struct fv_fsverity_request q = {.size = sizeof(q)};
	fv_fsverity_digest *d = NULL;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_fsv_request(&q, &one, &d, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_fsverity_compute: give one of "
				       "path and read");
	q.path = a10k;
	q.read = reader;
	ck_assert_int_eq(verity_fsv_request(&q, &one, &d, &err), -EINVAL);
	q.read = NULL;
	q.flags = 2;
	ck_assert_int_eq(verity_fsv_request(&q, &one, &d, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "unknown fs-verity flags 0x2");
	q.flags = 0;
	q.path = "/nonexistent/f";
	ck_assert_int_lt(verity_fsv_request(&q, &one, &d, &err), 0);
	ck_assert_ptr_null(d);
	q.path = dir;
	ck_assert_int_lt(verity_fsv_request(&q, &one, &d, &err), 0);
}
END_TEST

START_TEST(many_files)
{
	const char *paths[3] = {a10k, empty, a10k};
	fv_fsverity_digest *out[3];
	struct ht_options three = {.threads = 3};
	struct ht_error err = {0};
	size_t failed = 99;

	ck_assert_msg(verity_fsv_request_files(NULL, paths, 3, &three, 0, out,
					       &failed, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_str_eq(out[0]->hex, A10K_SHA256);
	ck_assert_str_eq(out[1]->hex, EMPTY_SHA256);
	ck_assert_str_eq(out[2]->hex, A10K_SHA256);
	for (int i = 0; i < 3; i++)
		verity_fsv_shown_free(out[i]);
	/* the second missing: the first kept, the first failure named */
	paths[1] = "/nonexistent/f";
	ck_assert_int_lt(verity_fsv_request_files(NULL, paths, 3, &three, 0,
						  out, &failed, &err),
			 0);
	ck_assert_uint_eq(failed, 1);
	ck_assert_ptr_nonnull(out[0]);
	ck_assert_str_eq(out[0]->hex, A10K_SHA256);
	ck_assert_ptr_null(out[1]);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "/nonexistent/f"));
	verity_fsv_shown_free(out[0]);
	verity_fsv_shown_free(out[2]);
	/* refused before any file is read */
	paths[1] = NULL;
	ck_assert_int_eq(verity_fsv_request_files(NULL, paths, 3, &three, 0,
						  out, &failed, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "fv_fsverity_compute_files: paths[1] is NULL");
	ck_assert_int_eq(verity_fsv_request_files(NULL, NULL, 2, &three, 0, out,
						  &failed, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_fsv_request_files(NULL, paths, 1, &three, 4,
						  out, &failed, &err),
			 -EINVAL);
	/* no files: the parameters checked alone */
	{
		struct fv_fsverity_params bad = {sizeof(bad), "md5", 0, NULL,
						 0};

		ck_assert_int_eq(verity_fsv_request_files(&bad, paths, 0,
							  &three, 0, out,
							  &failed, &err),
				 -EINVAL);
		ck_assert_int_eq(verity_fsv_request_files(NULL, paths, 0,
							  &three, 0, out,
							  &failed, &err),
				 0);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"fsverity_request", 0, rsetup,
					    rteardown,          1, NULL};

	return run_unit(&u,
			UNIT_TESTS(params, one_file, one_refused, many_files));
}
