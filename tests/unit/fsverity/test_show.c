/* verity/fsverity/show.c: the tree's parameters judged alone, in
 * fsverity-utils' words and exit codes (an unknown hash, a block size
 * that is no power of two, a salt that is not hex, one too long), and
 * digest's lines for files written here: HASH:HEX FILE, the hex alone
 * with --compact, the same digest for the same bytes; the command's
 * --threads and outputs apart from the inputs. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "hashtree/tree.h"
#include "verity/fsverity/show.h"
#include "verity/show/show.h"

struct got {
	char out[4096], err[4096];
};

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	char *to = it->kind == FV_ITEM_ERROR ? g->err : g->out;

	if (it->kind == FV_ITEM_TEXT || it->kind == FV_ITEM_ERROR)
		strncat(to, it->text, sizeof(g->out) - strlen(to) - 1);
	return 0;
}

/* q's digest request run, its lines into g: the return. */
static int run(struct fv_show_request *q, struct got *g)
{
	struct ht_options ho = {.threads = 1};
	struct show sh = {collect, g, 0, 0};
	struct ht_error err;
	int r;

	memset(g, 0, sizeof(*g));
	q->size = sizeof(*q);
	q->what = FV_SHOW_FSVERITY_DIGEST;
	r = verity_fsv_show(q, &ho, NULL, &sh, &err);
	if (r < 0)
		snprintf(g->err, sizeof(g->err), "%s", ht_msg(&err));
	return r;
}

START_TEST(judged_alone)
{
	struct fv_show_request q = {.hash = "md5"};
	static struct got g;

	ck_assert_int_eq(run(&q, &g), 2);
	ck_assert_str_eq(g.err, "fastverity: fsverity digest: --hash-alg=md5: "
				"unknown hash algorithm (available: sha256 "
				"sha512)\n");
	q = (struct fv_show_request){.block_size = "3000"};
	ck_assert_int_eq(run(&q, &g), 2);
	ck_assert_ptr_nonnull(
		strstr(g.err, "--block-size=3000: a power of two"));
	q = (struct fv_show_request){.block_size = "0x1000"};
	ck_assert_int_eq(run(&q, &g), 2);
	q = (struct fv_show_request){.salt = "abc"};
	ck_assert_int_eq(run(&q, &g), 2);
	ck_assert_ptr_nonnull(strstr(g.err, "--salt=abc: not a valid hex"));
	q = (struct fv_show_request){
		.salt = "00112233445566778899aabbccddeeff"
			"00112233445566778899aabbccddeeff00"};
	ck_assert_int_eq(run(&q, &g), 1);
	ck_assert_ptr_nonnull(strstr(g.err, "unsupported salt size (33)"));
	/* good ones, alone: nothing said */
	q = (struct fv_show_request){
		.hash = "sha512", .block_size = "1024", .salt = "0102"};
	ck_assert_int_eq(run(&q, &g), 0);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
}
END_TEST

START_TEST(digest_lines)
{
	char dir[] = "/tmp/fv-fsvshow-XXXXXX", a[64], b[64], line[512];
	const char *names[2] = {a, b};
	struct fv_show_request q = {.names = names, .n = 2};
	static struct got g;
	char *hex;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	for (int i = 0; i < 2; i++) {
		ck_assert_ptr_nonnull(f = fopen(names[i], "w"));
		fputs("the same bytes\n", f);
		fclose(f);
	}
	ck_assert_int_eq(run(&q, &g), 0);
	ck_assert_str_eq(g.err, "");
	/* sha256:HEX a, then the same HEX for b */
	ck_assert_int_eq(strncmp(g.out, "sha256:", 7), 0);
	hex = g.out + 7;
	ck_assert_ptr_nonnull(strchr(hex, ' '));
	ck_assert_int_eq(strchr(hex, ' ') - hex, 64);
	snprintf(line, sizeof(line), "sha256:%.64s %s\nsha256:%.64s %s\n", hex,
		 a, hex, b);
	ck_assert_str_eq(g.out, line);
	/* --compact: the hex alone */
	q.flags = 1;
	q.n = 1;
	snprintf(line, sizeof(line), "%.64s\n", g.out + 7);
	ck_assert_int_eq(run(&q, &g), 0);
	ck_assert_str_eq(g.out, line);
	unlink(a);
	unlink(b);
	rmdir(dir);
}
END_TEST

/* The command's options: --threads read, then no output over an input,
 * each in the command's words; flags 4: checked, nothing written. */
START_TEST(command_checked)
{
	char dir[] = "/tmp/fv-fsvcmd-XXXXXX", a[64], t[64];
	const char *names[1] = {a};
	const char *opts[][2] = {{"threads", "0"}, {"key", NULL}};
	struct fv_show_request q = {
		.names = names, .n = 1, .options = opts[0], .noptions = 2};
	static struct got g;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(t, sizeof(t), "%s/t", dir);
	ck_assert_ptr_nonnull(f = fopen(a, "w"));
	fputs("bytes\n", f);
	fclose(f);
	ck_assert_int_eq(run(&q, &g), 2);
	ck_assert_str_eq(g.err, "fastverity: --threads: at least 1\n");
	/* an option without a name: refused, not compared */
	opts[1][0] = NULL;
	ck_assert_int_eq(run(&q, &g), -EINVAL);
	ck_assert_str_eq(g.err, "fv_show: options[2] is NULL");
	opts[1][0] = "key";
	opts[0][1] = "1";
	q.tree = a;
	ck_assert_int_eq(run(&q, &g), 1);
	ck_assert_ptr_nonnull(
		strstr(g.err, "refusing to write the Merkle tree"));
	q.tree = t;
	q.flags = 4;
	ck_assert_int_eq(run(&q, &g), 0);
	ck_assert_str_eq(g.out, "");
	ck_assert_int_eq(access(t, F_OK), -1);
	q.flags = 0;
	ck_assert_int_eq(run(&q, &g), 0);
	ck_assert_int_eq(access(t, F_OK), 0);
	unlink(t);
	unlink(a);
	rmdir(dir);
}
END_TEST

/* dump_metadata: the type's name and the numbers judged in
 * fsverity-utils' words and exit code, before the file is read. */
static int dump(const char *type, const char *file, const char *offset,
		const char *length, struct got *g)
{
	const char *opts[][2] = {{"offset", offset}, {"length", length}};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_FSVERITY_DUMP,
				    .args = type,
				    .image = file,
				    .options = opts[0],
				    .noptions = 2};
	struct ht_options ho = {.threads = 1};
	struct show sh = {collect, g, 0, 0};
	struct ht_error err;

	memset(g, 0, sizeof(*g));
	return verity_fsv_show(&q, &ho, NULL, &sh, &err);
}

START_TEST(dump_judged)
{
	static struct got g;

	ck_assert_int_eq(dump("tree", "f", NULL, NULL, &g), 2);
	ck_assert_str_eq(g.err, "fastverity: fsverity dump_metadata: unknown "
				"metadata type 'tree' (merkle_tree, "
				"descriptor or signature)\n");
	ck_assert_int_eq(dump("descriptor", "f", "-1", NULL, &g), 2);
	ck_assert_str_eq(g.err, "fastverity: fsverity dump_metadata: "
				"--offset=-1: not a number of bytes\n");
	ck_assert_int_eq(dump("signature", "f", "1", "2x", &g), 2);
	ck_assert_ptr_nonnull(strstr(g.err, "--length=2x: not a number"));
	/* nothing asked for: no file read */
	ck_assert_int_eq(dump("merkle_tree", "/nonexistent/f", "7", "0", &g),
			 0);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
	ck_assert_int_eq(dump("merkle_tree", "/nonexistent/f", NULL, "1", &g),
			 1);
	ck_assert_ptr_nonnull(strstr(g.err, "/nonexistent/f"));
	ck_assert_int_eq(dump(NULL, "f", NULL, NULL, &g), -EINVAL);
	ck_assert_int_eq(dump("descriptor", NULL, NULL, NULL, &g), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		"fsverity_show", 0, NULL, NULL, 0, NULL};

	return run_unit(&u, UNIT_TESTS(judged_alone, digest_lines,
				       command_checked, dump_judged));
}
