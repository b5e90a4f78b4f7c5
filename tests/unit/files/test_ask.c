/* verity/files/ask.c: fv_file's ops on files made here: each op handed
 * to its reader or writer; a request missing what its op needs (what,
 * text, buf, other) or with unknown bits or op refused before a file is
 * touched; a missing file read said as EINVAL; and an answer's memory
 * freed when the caller wants none, or on failure. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/files/ask.h"

static char dir[64];

static struct fv_file_request req(enum fv_file_op op, const char *path)
{
	struct fv_file_request q;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.op = op;
	q.path = path;
	return q;
}

static void answer_free(struct fv_file_answer *a)
{
	free(a->data);
	free(a->tree);
	free(a->roothash);
	free(a->signature);
	free(a->fec);
	memset(a, 0, sizeof(*a));
}

START_TEST(refused)
{
	struct fv_file_request q = req(FV_FILE_READ, "/nonexistent");
	struct fv_file_answer a;
	struct ht_error err = {0};

	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: q.what is NULL");
	q = req(FV_FILE_ROOT_HASH, "/nonexistent");
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: q.text is NULL");
	q = req(FV_FILE_WRITE, "/nonexistent/x");
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: q.what is NULL");
	q.what = "root hash file";
	q.len = 3;
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: buf is NULL");
	q = req(FV_FILE_SIDECAR_PRUNE, "/nonexistent/img.raw");
	q.keep = 4;
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: unknown sidecar files 0x4");
	q = req(FV_FILE_SUPER_EXTRACT, "/nonexistent");
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: q.what is NULL");
	q.what = "system_a";
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: q.other is NULL");
	q = req((enum fv_file_op)0, "/x");
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: unknown op 0");
	q = req((enum fv_file_op)15, "/x");
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_file: unknown op 15");
	/* a file to read that is not there: EINVAL, as a bad value */
	q = req(FV_FILE_READ, "/nonexistent/key");
	q.what = "key";
	q.max = 100;
	ck_assert_int_eq(verity_files_ask(&q, &a, &err), -EINVAL);
	ck_assert_ptr_null(a.data);
}
END_TEST

/* A file written whole, then read back, its size, and the same storage
 * by two names. */
START_TEST(write_read)
{
	char *path = unit_path(dir, "/tmp/fv-ask.XXXXXX", "root");
	char *other = unit_path(dir, "/tmp/fv-ask.XXXXXX", "other");
	char *hard = unit_path(dir, "/tmp/fv-ask.XXXXXX", "link");
	static const char hex[] = "00112233445566778899aabbccddeeff"
				  "00112233445566778899aabbccddeeff\n";
	struct fv_file_request q = req(FV_FILE_WRITE, path);
	struct fv_file_answer a;
	struct ht_error err = {0};
	char text[80];

	q.what = "root hash file";
	q.buf = hex;
	q.len = strlen(hex);
	memset(&a, 0, sizeof(a));
	ck_assert_msg(verity_files_answer(&q, &a, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(a.size, sizeof(a));
	q = req(FV_FILE_READ, path);
	q.what = "root hash file";
	q.max = 1000;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_uint_eq(a.len, strlen(hex));
	ck_assert_mem_eq(a.data, hex, a.len);
	answer_free(&a);
	/* the limit passed down */
	q.max = 10;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), -EINVAL);
	ck_assert_ptr_null(a.data);
	q = req(FV_FILE_ROOT_HASH, path);
	q.text = text;
	q.text_size = sizeof(text);
	ck_assert_msg(verity_files_answer(&q, NULL, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(text, "00112233445566778899aabbccddeeff"
			       "00112233445566778899aabbccddeeff");
	q = req(FV_FILE_SIZE, path);
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_uint_eq(a.bytes, strlen(hex));
	/* an empty write: buf may be NULL */
	q = req(FV_FILE_WRITE, other);
	q.what = "empty";
	ck_assert_int_eq(verity_files_answer(&q, NULL, &err), 0);
	q = req(FV_FILE_SIZE, other);
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_uint_eq(a.bytes, 0);
	/* the same storage: a hard link is, another file is not, and no
	 * other path asks nothing */
	ck_assert_int_eq(link(path, hard), 0);
	q = req(FV_FILE_SAME_STORAGE, path);
	q.other = hard;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_ptr_nonnull(a.same);
	q.other = other;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_ptr_null(a.same);
	q.other = NULL;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_ptr_null(a.same);
	unlink(hard);
	unlink(other);
	unlink(path);
	free(hard);
	free(other);
	free(path);
}
END_TEST

/* The sidecar names, each the caller's to free; with no answer wanted,
 * freed here (the leak check sees it). */
START_TEST(sidecars)
{
	char *image = unit_path(dir, "/tmp/fv-ask.XXXXXX", "img.raw");
	char *fec;
	struct fv_file_request q = req(FV_FILE_SIDECAR_NAMES, image);
	struct fv_file_answer a;
	struct ht_error err = {0};
	FILE *f;

	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_ptr_nonnull(strstr(a.tree, "/img.verity"));
	ck_assert_ptr_nonnull(strstr(a.roothash, "/img.roothash"));
	ck_assert_ptr_nonnull(strstr(a.signature, "/img.roothash.p7s"));
	ck_assert_ptr_nonnull(strstr(a.fec, "/img.fec"));
	fec = strdup(a.fec);
	answer_free(&a);
	ck_assert_int_eq(verity_files_answer(&q, NULL, &err), 0);
	/* prune: the parity kept when asked, removed when not */
	f = fopen(fec, "wb");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	q = req(FV_FILE_SIDECAR_PRUNE, image);
	q.keep = FV_SIDECAR_SIGNATURE | FV_SIDECAR_FEC;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_uint_eq(a.removed, 0);
	ck_assert_int_eq(access(fec, F_OK), 0);
	q.keep = FV_SIDECAR_SIGNATURE;
	ck_assert_int_eq(verity_files_answer(&q, &a, &err), 0);
	ck_assert_uint_eq(a.removed, FV_SIDECAR_FEC);
	ck_assert_int_ne(access(fec, F_OK), 0);
	free(fec);
	free(image);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "files_ask"};

	return run_unit(&u, UNIT_TESTS(refused, write_read, sidecars));
}
