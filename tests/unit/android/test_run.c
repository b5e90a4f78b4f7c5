/* verity/android/run.c: avbtool's subcommands run whole on their
 * options as the command gives them (every one, the command's own
 * among them): version's line; make_vbmeta_image's image, its libavb
 * version, its refusals (a number that is none a usage error, -EDOM,
 * only while the options are read); the key files, never over the key;
 * generate_key never over a file; the editors' refusals; an unknown
 * subcommand refused. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/android/run.h"

static void rsetup(void)
{
	amk_dir("/tmp/fv-run-XXXXXX");
}

static void rteardown(void)
{
	amk_rmdir();
}

/* What a run printed, its lines joined. */
static int said(void *ctx, const struct fv_item *it)
{
	char *out = ctx;

	ck_assert_int_eq(it->kind, FV_ITEM_TEXT);
	strncat(out, it->text, (size_t)it->u);
	return 0;
}

static int refuse(void *ctx, const struct fv_item *it)
{
	(void)ctx;
	(void)it;
	return 9;
}

/* Subcommand sub on n option pairs; what it printed in out. */
static int run(const char *sub, const char *const *o, size_t n, char *out,
	       struct ht_error *err)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_RUN,
				    .args = sub,
				    .dir = "/tmp",
				    .options = o,
				    .noptions = n};

	out[0] = 0;
	return verity_android_run(&q, said, out, err);
}

START_TEST(version_and_unknown)
{
	struct fv_show_request q = {.size = sizeof(q), .args = "version"};
	struct ht_error err;
	char out[256];

	ck_assert_int_eq(run("version", NULL, 0, out, &err), 0);
	ck_assert_str_eq(out, FV_AVB_RELEASE "\n");
	/* the visitor's return handed back */
	ck_assert_int_eq(verity_android_run(&q, refuse, NULL, &err), 9);
	ck_assert_int_eq(run("set_ab_metadata", NULL, 0, out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "set_ab_metadata"));
	q.args = NULL;
	ck_assert_int_eq(verity_android_run(&q, said, out, &err), -EINVAL);
}
END_TEST

START_TEST(make_vbmeta)
{
	struct ht_error err;
	char out[256], vb[160], key[160], pub[160];
	struct stat st;
	const char *o[] = {"output",
			   amk_path(vb, "vbmeta.img"),
			   "rollback_index",
			   "7",
			   "print_required_libavb_version",
			   "1",
			   "rollback_index_location",
			   "2"};

	/* its libavb version: a rollback index location needs 1.2 */
	ck_assert_int_eq(run("make_vbmeta_image", o, 4, out, &err), 0);
	ck_assert_str_eq(out, "1.2\n");
	ck_assert_int_eq(stat(vb, &st), -1);
	/* made (the command's options not read as the request's) */
	ck_assert_msg(run("make_vbmeta_image", o, 2, out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(stat(vb, &st), 0);
	/* no output; a number that is none: a usage error */
	ck_assert_int_eq(run("make_vbmeta_image", o + 2, 1, out, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "No output file given");
	o[3] = "seven";
	ck_assert_int_eq(run("make_vbmeta_image", o, 2, out, &err), -EDOM);
	/* signed by a key of another size than its algorithm's */
	amk_key(amk_path(key, "k.pem"), amk_path(pub, "k.avbpubkey"));
	{
		const char *s[] = {"output", vb,          "key",
				   key,      "algorithm", "SHA256_RSA2048"};

		ck_assert_int_lt(run("make_vbmeta_image", s, 3, out, &err), 0);
	}
}
END_TEST

START_TEST(key_files)
{
	struct ht_error err;
	char out[256], key[160], pub[160], blob[160], hex[160];
	const char *o[] = {"key", amk_path(key, "k.pem"), "output",
			   amk_path(blob, "blob")};
	size_t n, m;
	uint8_t *want, *got;

	amk_key(key, amk_path(pub, "k.avbpubkey"));
	ck_assert_int_eq(run("extract_public_key", o, 2, out, &err), 0);
	want = amk_read(pub, &n);
	got = amk_read(blob, &m);
	ck_assert_uint_eq(n, m);
	ck_assert_mem_eq(want, got, n);
	free(want);
	free(got);
	o[3] = amk_path(hex, "digest");
	ck_assert_int_eq(run("extract_public_key_digest", o, 2, out, &err), 0);
	got = amk_read(hex, &m);
	ck_assert_uint_eq(m, 64);
	free(got);
	/* never over the key */
	o[3] = key;
	ck_assert_int_eq(run("extract_public_key", o, 2, out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "is the input"));
	/* generate_key: a new key, never over a file */
	{
		const char *g[] = {"algorithm", "MLDSA87", "output",
				   amk_path(hex, "new.pem")};

		ck_assert_int_eq(run("generate_key", g, 2, out, &err), 0);
		ck_assert_int_lt(run("generate_key", g, 2, out, &err), 0);
		ck_assert_int_ne(run("generate_key", g, 2, out, &err), -EDOM);
	}
}
END_TEST

START_TEST(editors)
{
	struct ht_error err;
	char out[256], img[160];
	const char *o[] = {"image", amk_path(img, "data.img"), "partition_size",
			   "x"};

	amk_data(img, 4, 1);
	/* no Android image to erase, zero or resize */
	ck_assert_int_lt(run("erase_footer", o, 1, out, &err), 0);
	ck_assert_int_lt(run("zero_hashtree", o, 1, out, &err), 0);
	/* a size that is no number: a usage error */
	ck_assert_int_eq(run("resize_image", o, 2, out, &err), -EDOM);
}
END_TEST

/* The footers: what they need printed before any image is asked for;
 * --image then required; --threads read when the tree is built (a bad
 * one then refused, not a usage error); a hash footer made. */
START_TEST(footers)
{
	struct ht_error err;
	char out[256], img[160];
	const char *o[] = {"rollback_index_location", "2",
			   "print_required_libavb_version", "1"};
	const char *t[] = {"threads", "0",     "salt",
			   "00",      "image", amk_path(img, "data.img")};
	const char *h[] = {"partition_size", "1048576", "salt", "00",
			   "image",          img};

	ck_assert_int_eq(run("add_hash_footer", o, 2, out, &err), 0);
	ck_assert_str_eq(out, "1.2\n");
	ck_assert_int_eq(run("add_hashtree_footer", o, 1, out, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "avb add_hashtree_footer: --image is required");
	amk_data(img, 4, 1);
	ck_assert_int_eq(run("add_hashtree_footer", t, 3, out, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "--threads: at least 1");
	ck_assert_msg(run("add_hash_footer", h, 3, out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(out, "");
}
END_TEST

/* How many times the file watched by fd (inotify's) was opened since
 * it was last asked. */
static int opens(int fd)
{
	char buf[4096] __attribute__((aligned(8)));
	int n = 0;
	ssize_t len;

	while ((len = read(fd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *e = (const void *)p;

			n += !!(e->mask & IN_OPEN);
			p += sizeof(*e) + e->len;
		}
	return n;
}

/* --changed=@FILE: its file read once by a footer's run, also when what
 * it needs is printed (it was read twice, three times then: the
 * options' reading, then the footer's, and max_image_size's own). */
START_TEST(changed_read_once)
{
	struct ht_error err;
	char out[256], img[160], list[160], at[170];
	const char *first[] = {"hash_algorithm", "sha256",
			       "salt",           "00",
			       "image",          amk_path(img, "data.img")};
	const char *again[] = {"hash_algorithm", "sha256", "salt",    "00",
			       "image",          img,      "changed", at};
	const char *calc[] = {
		"partition_size", "1048576", "hash_algorithm",      "sha256",
		"changed",        at,        "calc_max_image_size", "1"};
	const char *version[] = {"changed", at, "print_required_libavb_version",
				 "1"};
	int fd;

	amk_data(img, 16, 3);
	ck_assert_msg(run("add_hashtree_footer", first, 3, out, &err) == 0,
		      "%s", ht_msg(&err));
	amk_poke(img, 5000, "CHG", 3);
	amk_write(amk_path(list, "changed.txt"), "5000:3\n", 7);
	snprintf(at, sizeof(at), "@%s", list);
	ck_assert_int_ge(fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), 0);
	/* (its closes watched too: two opens one after the other would be
	 * one event) */
	ck_assert_int_ge(
		inotify_add_watch(fd, list, IN_OPEN | IN_CLOSE_NOWRITE), 0);
	ck_assert_msg(run("add_hashtree_footer", again, 4, out, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(opens(fd), 1);
	ck_assert_msg(run("add_hashtree_footer", calc, 4, out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(opens(fd), 1);
	ck_assert_msg(run("add_hash_footer", version, 2, out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(out, "1.0\n");
	ck_assert_int_eq(opens(fd), 1);
	/* a list that is none: refused as it was, read once */
	amk_write(list, "x\n", 2);
	ck_assert_int_eq(run("add_hashtree_footer", again, 4, out, &err),
			 -EINVAL);
	ck_assert_int_eq(opens(fd), 1);
	close(fd);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"run",     0, rsetup,
					    rteardown, 0, NULL};

	return run_unit(&u,
			UNIT_TESTS(version_and_unknown, make_vbmeta, key_files,
				   editors, footers, changed_read_once));
}
