/* verity/android/request.c: avbtool's options (name/value pairs) read
 * into a footer's and its vbmeta's options -- numbers avbtool's way (0x,
 * 0o, 0b; the largest taken, one more refused; not a number EDOM, a
 * chain's location EINVAL), the last of an option given winning, chains
 * with A/B first, properties from text then from files, the footer's
 * defaults and flags; the refusals of a footer request (kind, hash,
 * flags, salt, lists NULL, a size too small, an output over the image)
 * and of fv_avb_needs's pairing; avb's fv_show options (padding_size,
 * hash_algorithm, expected_chain_partition and its key read); an edit
 * request's refusals; avbtool's usage errors (an option required
 * missing, a file argparse opens that cannot be). test_table.c and
 * test_run.c hold table.c's and run.c's. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/android/request.h"

static struct ht_error err;
static struct verity_android_footer f;
static char dir[64];

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	memset(&f, 0, sizeof(f));
	strcpy(dir, "/tmp/fvrequestXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* n option pairs of a hashtree footer's vbmeta read into f: 0 or the
 * refusal (f freed on it). */
static int read_opts(const char *const *o, size_t n)
{
	struct fv_vbmeta_request v = {
		.size = sizeof(v), .options = o, .noptions = n};
	struct fv_footer_request q = {
		.size = sizeof(q), .kind = FV_FOOTER_HASHTREE, .vbmeta = &v};

	memset(&f, 0, sizeof(f));
	return verity_android_footer_of(&q, NULL, &f, &err);
}

/* One option: 0, or the refusal, its words checked. */
static int one(const char *name, const char *value, const char *says)
{
	const char *o[] = {name, value};
	int r = read_opts(o, 1);

	if (says)
		ck_assert_str_eq(ht_msg(&err), says);
	if (!r)
		verity_android_footer_done(&f);
	return r;
}

START_TEST(numbers)
{
	static const struct {
		const char *value;
		uint64_t is;
	} ok[] = {
		{"0", 0},
		{"12", 12},
		{"0x1f", 31},
		{"0X1F", 31},
		{"0o17", 15},
		{"0O17", 15},
		{"0b101", 5},
		{"0B11", 3},
		{"007", 7}, /* decimal, as int() reads it */
		{"18446744073709551615", UINT64_MAX},
	};
	const char *o[] = {"rollback_index", NULL};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		o[1] = ok[i].value;
		ck_assert_msg(read_opts(o, 1) == 0, "%s: %s", ok[i].value,
			      ht_msg(&err));
		ck_assert_uint_eq(f.o.vb.rollback_index, ok[i].is);
		verity_android_footer_done(&f);
	}
	/* not a number: argparse's usage error, EDOM */
	static const char *const bad[] = {"",   "x",   "-1",    "+1",  " 1",
					  "0x", "0b2", "12abc", "1.5", "0o8"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char says[96];

		snprintf(says, sizeof(says),
			 "--rollback_index: '%s' is not a number", bad[i]);
		ck_assert_int_eq(one("rollback_index", bad[i], says), -EDOM);
	}
	ck_assert_int_eq(one("rollback_index", "18446744073709551616",
			     "--rollback_index: 18446744073709551616 is "
			     "larger than 18446744073709551615"),
			 -EINVAL);
}
END_TEST

/* each number's largest taken, one more refused */
START_TEST(number_limits)
{
	const char *o[] = {"rollback_index_location",
			   "4294967295",
			   "flags",
			   "0xffffffff",
			   "partition_size",
			   "9223372036854775807",
			   "fec_num_roots",
			   "255",
			   "block_size",
			   "4294967295"};

	ck_assert_msg(read_opts(o, 5) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(f.o.vb.rollback_index_location, UINT32_MAX);
	ck_assert_uint_eq(f.o.vb.flags, UINT32_MAX);
	ck_assert_uint_eq(f.o.partition_size, INT64_MAX);
	ck_assert_uint_eq(f.o.roots, 255);
	ck_assert_uint_eq(f.o.block_size, UINT32_MAX);
	verity_android_footer_done(&f);
	ck_assert_int_eq(one("rollback_index_location", "4294967296",
			     "--rollback_index_location: 4294967296 is "
			     "larger than 4294967295"),
			 -EINVAL);
	ck_assert_int_eq(one("flags", "0x100000000",
			     "--flags: 0x100000000 is larger than 4294967295"),
			 -EINVAL);
	ck_assert_int_eq(one("partition_size", "9223372036854775808",
			     "--partition_size: 9223372036854775808 is "
			     "larger than 9223372036854775807"),
			 -EINVAL);
	ck_assert_int_eq(one("fec_num_roots", "256",
			     "--fec_num_roots: 256 is larger than 255"),
			 -EINVAL);
	ck_assert_int_eq(one("block_size", "0b",
			     "--block_size: '0b' is not a "
			     "number"),
			 -EDOM);
}
END_TEST

START_TEST(vbmeta_values)
{
	const char *o[] = {"algorithm",
			   "SHA256_RSA4096",
			   "key",
			   "k.pem",
			   "rollback_index",
			   "1",
			   "rollback_index",
			   "0x20", /* the last one given */
			   "flags",
			   "4",
			   "set_hashtree_disabled_flag",
			   "1",
			   "set_verification_disabled_flag",
			   "1",
			   "deterministic",
			   "1",
			   "internal_release_string",
			   "rel",
			   "append_to_release_string",
			   "more",
			   "kernel_cmdline",
			   "a=1",
			   "kernel_cmdline",
			   "b=2",
			   "signing_helper_with_files",
			   "/bin/helper"};

	ck_assert_msg(read_opts(o, sizeof(o) / sizeof(o[0]) / 2) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(f.o.vb.key_path, "k.pem");
	ck_assert_uint_eq(f.o.vb.rollback_index, 32);
	ck_assert_uint_eq(f.o.vb.flags, 4 | 1 | 2);
	ck_assert_int_eq(f.o.vb.deterministic, 1);
	ck_assert_str_eq(f.o.vb.release, "rel");
	ck_assert_str_eq(f.o.vb.append_release, "more");
	ck_assert_uint_eq(f.o.vb.ncmdlines, 2);
	ck_assert_str_eq(f.o.vb.cmdlines[0], "a=1");
	ck_assert_str_eq(f.o.vb.cmdlines[1], "b=2");
	ck_assert_str_eq(f.o.vb.signing_helper, "/bin/helper");
	ck_assert_int_eq(f.o.vb.helper_files, 1);
	verity_android_footer_done(&f);
	ck_assert_int_eq(one("algorithm", "SHA1_RSA1024",
			     "Algorithm with name SHA1_RSA1024 is not "
			     "supported (NONE, SHA256_RSA2048, "
			     "SHA256_RSA4096, SHA256_RSA8192, SHA512_RSA2048, "
			     "SHA512_RSA4096, SHA512_RSA8192, MLDSA65, "
			     "MLDSA87)"),
			 -EINVAL);
	ck_assert_int_eq(one("partition", "x", "no footer option partition"),
			 -EINVAL);
	/* padding_size is a vbmeta image's alone */
	ck_assert_int_eq(
		one("padding_size", "4096", "no footer option padding_size"),
		-EINVAL);
	/* a value NULL */
	ck_assert_int_eq(one("key", NULL, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "is NULL"));
}
END_TEST

/* chains: those with A/B first, whatever the order given */
START_TEST(chains)
{
	const char *o[] = {"chain_partition_do_not_use_ab", "vendor:0x2:v.key",
			   "chain_partition", "boot:1:b.key"};

	ck_assert_msg(read_opts(o, 2) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(f.o.vb.nchains, 2);
	ck_assert_str_eq(f.o.vb.chains[0].name, "boot");
	ck_assert_uint_eq(f.o.vb.chains[0].rollback_index_location, 1);
	ck_assert_str_eq(f.o.vb.chains[0].key_path, "b.key");
	ck_assert_uint_eq(f.o.vb.chains[0].flags, 0);
	ck_assert_str_eq(f.o.vb.chains[1].name, "vendor");
	ck_assert_uint_eq(f.o.vb.chains[1].rollback_index_location, 2);
	ck_assert_str_eq(f.o.vb.chains[1].key_path, "v.key");
	ck_assert_uint_eq(f.o.vb.chains[1].flags, AVB_CHAIN_DO_NOT_USE_AB);
	verity_android_footer_done(&f);
	/* an empty name and key are avbtool's to judge */
	ck_assert_int_eq(one("chain_partition", "::", NULL), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "--chain_partition: '' is not a number");
	ck_assert_int_eq(one("chain_partition", "a:b",
			     "Malformed chained partition \"a:b\"."),
			 -EINVAL);
	ck_assert_int_eq(one("chain_partition", "a:1:k:x",
			     "Malformed chained partition \"a:1:k:x\"."),
			 -EINVAL);
	ck_assert_int_eq(one("chain_partition_do_not_use_ab", "a",
			     "Malformed chained partition \"a\"."),
			 -EINVAL);
	/* the location: avbtool's int() fails in the run, EINVAL */
	ck_assert_int_eq(one("chain_partition", "a:x:k",
			     "--chain_partition: 'x' is not a number"),
			 -EINVAL);
	ck_assert_int_eq(one("chain_partition", "a:4294967296:k",
			     "--chain_partition: 4294967296 is larger than "
			     "4294967295"),
			 -EINVAL);
	ck_assert_int_eq(one("chain_partition", "a:4294967295:k", NULL), 0);
}
END_TEST

/* properties: --prop's first, then --prop_from_file's bytes */
START_TEST(properties)
{
	char path[96], missing[96];
	const char *o[4];
	FILE *w;

	snprintf(path, sizeof(path), "%s/value", dir);
	snprintf(missing, sizeof(missing), "pf:%s/none", dir);
	ck_assert_ptr_nonnull(w = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite("a\0b", 1, 3, w), 3);
	fclose(w);
	{
		char spec[128];

		snprintf(spec, sizeof(spec), "file:%s", path);
		o[0] = "prop_from_file";
		o[1] = spec;
		o[2] = "prop";
		o[3] = "k:v:w"; /* the first colon splits */
		ck_assert_msg(read_opts(o, 2) == 0, "%s", ht_msg(&err));
	}
	ck_assert_uint_eq(f.o.vb.nprops, 2);
	ck_assert_str_eq(f.o.vb.props[0].key, "k");
	ck_assert_uint_eq(f.o.vb.props[0].value_len, 3);
	ck_assert_mem_eq(f.o.vb.props[0].value, "v:w", 3);
	ck_assert_str_eq(f.o.vb.props[1].key, "file");
	ck_assert_uint_eq(f.o.vb.props[1].value_len, 3);
	ck_assert_mem_eq(f.o.vb.props[1].value, "a\0b", 3);
	verity_android_footer_done(&f);
	/* an empty value is one */
	ck_assert_int_eq(one("prop", "k:", NULL), 0);
	ck_assert_int_eq(
		one("prop", "nocolon", "Malformed property \"nocolon\"."),
		-EINVAL);
	ck_assert_int_eq(one("prop_from_file", "nocolon",
			     "Malformed property \"nocolon\"."),
			 -EINVAL);
	/* a file not there: EINVAL (avbtool's usage error) */
	ck_assert_int_eq(one("prop_from_file", missing, NULL), -EINVAL);
}
END_TEST

START_TEST(footer_values)
{
	const char *o[] = {"partition_name",
			   "system",
			   "partition_size",
			   "0x100000",
			   "hash_algorithm",
			   "sha256",
			   "salt",
			   "00ff",
			   "fec_num_roots",
			   "0",
			   "do_not_use_ab",
			   "1",
			   "check_at_most_once",
			   "1",
			   "do_not_append_vbmeta_image",
			   "1",
			   "use_persistent_digest",
			   "1"};
	static const uint8_t salt[] = {0, 0xff};

	ck_assert_msg(read_opts(o, sizeof(o) / sizeof(o[0]) / 2) == 0, "%s",
		      ht_msg(&err));
	ck_assert_str_eq(f.o.partition_name, "system");
	ck_assert_uint_eq(f.o.partition_size, 1u << 20);
	ck_assert_str_eq(f.o.hash_algorithm, "sha256");
	ck_assert_int_eq(f.o.salt_given, 1);
	ck_assert_uint_eq(f.o.salt_len, 2);
	ck_assert_mem_eq(f.o.salt, salt, 2);
	/* --fec_num_roots 0: no parity */
	ck_assert_int_eq(f.o.fec, 0);
	ck_assert_uint_eq(f.o.descriptor_flags,
			  AVB_HASHTREE_DO_NOT_USE_AB |
				  AVB_HASHTREE_CHECK_AT_MOST_ONCE);
	ck_assert_int_eq(f.o.do_not_append, 1);
	ck_assert_int_eq(f.o.persistent_digest, 1);
	verity_android_footer_done(&f);
	/* the defaults: sha1, 4096, parity of 2 roots, a random salt */
	ck_assert_int_eq(read_opts(NULL, 0), 0);
	ck_assert_str_eq(f.o.hash_algorithm, "sha1");
	ck_assert_str_eq(f.o.partition_name, "");
	ck_assert_uint_eq(f.o.block_size, 4096);
	ck_assert_int_eq(f.o.fec, 1);
	ck_assert_uint_eq(f.o.roots, 2);
	ck_assert_ptr_null(f.o.salt);
	ck_assert_int_eq(f.o.salt_given, 0);
	ck_assert_int_eq(f.o.vb.algorithm, AVB_ALG_NONE);
	verity_android_footer_done(&f);
	/* --salt '': given, empty */
	{
		const char *e[] = {"salt", ""};

		ck_assert_int_eq(read_opts(e, 1), 0);
		ck_assert_int_eq(f.o.salt_given, 1);
		ck_assert_uint_eq(f.o.salt_len, 0);
		verity_android_footer_done(&f);
	}
	ck_assert_int_eq(one("salt", "0g",
			     "--salt: '0g' is not hex of at "
			     "most 256 bytes"),
			 -EINVAL);
	ck_assert_int_eq(one("hash_algorithm", "md5",
			     "hash algorithm 'md5' is not supported (sha1, "
			     "sha256, sha512)"),
			 -EINVAL);
}
END_TEST

/* A salt of 256 bytes (the most) taken; 257 refused */
START_TEST(salt_limit)
{
	static char hex[2 * 257 + 1];
	const char *o[] = {"salt", hex};

	memset(hex, 'a', 2 * 256);
	hex[2 * 256] = 0;
	ck_assert_msg(read_opts(o, 1) == 0, "%s", ht_msg(&err));
	ck_assert_uint_eq(f.o.salt_len, 256);
	verity_android_footer_done(&f);
	memset(hex, 'a', 2 * 257);
	hex[2 * 257] = 0;
	ck_assert_int_eq(read_opts(o, 1), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(ht_msg(&err), "is not hex of at most 256 bytes"));
}
END_TEST

/* A footer request's own refusals, without options */
START_TEST(footer_refused)
{
	static const uint64_t changed[2] = {0, 4096};
	struct fv_footer_request q = {.size = sizeof(q),
				      .kind = FV_FOOTER_HASH};

	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), 0);
	ck_assert_str_eq(f.o.hash_algorithm, "sha256");
	ck_assert_int_eq(f.o.fec, 0);
	verity_android_footer_done(&f);
	q.kind = (enum fv_footer_kind)2;
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "no footer of kind 2");
	q.kind = FV_FOOTER_HASHTREE;
	q.flags = 1u << 8;
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "unknown footer flags 0x100");
	q.flags = 0;
	q.salt_len = 257;
	q.salt = (const uint8_t *)"x";
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "salt of 257 bytes is too long (at most 256)");
	q.salt = NULL;
	q.salt_len = 1;
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "footer_check: salt is NULL");
	q.salt_len = 0;
	q.nchanged = 1;
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "footer_check: changed is NULL");
	/* the ranges given are the footer's */
	q.changed = changed;
	q.flags = FV_FOOTER_CHANGED_GIVEN;
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), 0);
	ck_assert_uint_eq(f.o.nchanged, 1);
	ck_assert_uint_eq(f.o.changed[0].length, 4096);
	verity_android_footer_done(&f);
	/* a caller's request older than the fields read */
	q.size = offsetof(struct fv_footer_request, vbmeta);
	ck_assert_int_eq(verity_android_footer_of(&q, NULL, &f, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "is too small"));
	ck_assert_int_eq(verity_android_footer_of(NULL, NULL, &f, &err),
			 -EINVAL);
}
END_TEST

/* --output_vbmeta_image never written over the image */
START_TEST(output_over_image)
{
	char img[96], same[128], want[300];
	struct fv_footer_request q = {.size = sizeof(q),
				      .kind = FV_FOOTER_HASHTREE};
	FILE *w;

	snprintf(img, sizeof(img), "%s/img", dir);
	snprintf(same, sizeof(same), "%s/../%s/img", dir,
		 strrchr(dir, '/') + 1);
	ck_assert_ptr_nonnull(w = fopen(img, "wb"));
	fclose(w);
	q.output_vbmeta = same;
	ck_assert_int_eq(verity_android_footer_of(&q, img, &f, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: is the image %s: an output is never written over what "
		 "is read",
		 same, img);
	ck_assert_str_eq(ht_msg(&err), want);
	/* another file: taken */
	snprintf(same, sizeof(same), "%s/out", dir);
	ck_assert_int_eq(verity_android_footer_of(&q, img, &f, &err), 0);
	ck_assert_str_eq(f.o.output_vbmeta, same);
	verity_android_footer_done(&f);
}
END_TEST

START_TEST(needs_pairing)
{
	struct fv_vbmeta_request v = {.size = sizeof(v)};
	struct fv_footer_request q = {.size = sizeof(q),
				      .kind = FV_FOOTER_HASHTREE};
	const char *o[] = {"padding_size", "4096"};
	const char *big[] = {"padding_size", "1073741825"};

	ck_assert_int_eq(verity_android_needs(NULL, NULL, NULL, NULL, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "fv_avb_needs: one of a vbmeta and a footer request");
	ck_assert_int_eq(verity_android_needs(&v, &q, NULL, NULL, &err),
			 -EINVAL);
	/* read alone: a vbmeta image's padding_size is its own */
	v.options = o;
	v.noptions = 1;
	ck_assert_int_eq(verity_android_needs(&v, NULL, NULL, NULL, &err), 0);
	v.options = big;
	ck_assert_int_eq(verity_android_needs(&v, NULL, NULL, NULL, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "--padding_size: 1073741825 is larger "
				       "than 1073741824");
	/* a footer's options in a vbmeta image's request */
	v.options = (const char *const[]){"partition_size", "4096"};
	ck_assert_int_eq(verity_android_needs(&v, NULL, NULL, NULL, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "no vbmeta option partition_size");
}
END_TEST

/* How many times the file fd (inotify's) watches was opened since it
 * was last asked (its closes watched too: two opens one after the other
 * would be one event). */
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

/* What a footer needs, its libavb version and largest image: its
 * options, and the files they name, read once (the footer was read
 * again for the largest image: --changed's list read twice) */
START_TEST(needs_read_once)
{
	char list[96], at[100];
	const char *o[] = {"partition_size", "1048576", "changed", at};
	struct fv_vbmeta_request v = {
		.size = sizeof(v), .options = o, .noptions = 2};
	struct fv_footer_request q = {
		.size = sizeof(q), .kind = FV_FOOTER_HASHTREE, .vbmeta = &v};
	unsigned minor = 99;
	uint64_t max = 0;
	FILE *fl;
	int fd;

	snprintf(list, sizeof(list), "%s/changed", dir);
	snprintf(at, sizeof(at), "@%s", list);
	ck_assert_ptr_nonnull(fl = fopen(list, "w"));
	fputs("4096:10\n", fl);
	fclose(fl);
	ck_assert_int_ge(fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), 0);
	ck_assert_int_ge(
		inotify_add_watch(fd, list, IN_OPEN | IN_CLOSE_NOWRITE), 0);
	ck_assert_msg(verity_android_needs(NULL, &q, &minor, &max, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_uint_eq(minor, 0);
	ck_assert_uint_gt(max, 0);
	ck_assert_uint_lt(max, 1048576);
	ck_assert_int_eq(opens(fd), 1);
	close(fd);
}
END_TEST

/* avb's fv_show requests' own options */
START_TEST(shown_options)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_VBMETA};
	struct verity_android_shown sh;
	const char *o[2];

	q.options = o;
	q.noptions = 1;
	o[0] = "padding_size";
	o[1] = "0x40000000";
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), 0);
	ck_assert_uint_eq(sh.padding, 1u << 30);
	verity_android_shown_done(&sh);
	o[1] = "1073741825";
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "--padding_size: 1073741825 is larger "
				       "than 1073741824");
	verity_android_shown_done(&sh);
	o[1] = "4k";
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), -EDOM);
	verity_android_shown_done(&sh);
	/* each request its own option */
	q.what = FV_SHOW_AVB_VBMETA_DIGEST;
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_show: no option padding_size");
	verity_android_shown_done(&sh);
	o[0] = "hash_algorithm";
	o[1] = "sha512";
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), 0);
	ck_assert_str_eq(sh.hash, "sha512");
	verity_android_shown_done(&sh);
	q.what = FV_SHOW_AVB_INFO;
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "fv_show: no option hash_algorithm");
	verity_android_shown_done(&sh);
	q.noptions = 0;
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), 0);
	ck_assert_ptr_null(sh.hash);
	verity_android_shown_done(&sh);
}
END_TEST

/* --expected_chain_partition NAME:LOCATION:KEY_PATH, the key's bytes
 * read */
START_TEST(expected_chains)
{
	static const char *const bad[] = {
		"a",      "a:1",     "a::k",          "a:x:k",
		"a:1x:k", "a:1:k:z", "a:4294967296:k"};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_VERIFY};
	struct verity_android_shown sh;
	char key[96], spec[2][160], missing[160];
	const char *o[4];
	FILE *w;

	snprintf(key, sizeof(key), "%s/key.bin", dir);
	ck_assert_ptr_nonnull(w = fopen(key, "wb"));
	ck_assert_uint_eq(fwrite("KEY\0", 1, 4, w), 4);
	fclose(w);
	snprintf(spec[0], sizeof(spec[0]), "vbmeta_system:1:%s", key);
	snprintf(spec[1], sizeof(spec[1]), "boot:4294967295:%s", key);
	o[0] = o[2] = "expected_chain_partition";
	o[1] = spec[0];
	o[3] = spec[1];
	q.options = o;
	q.noptions = 2;
	ck_assert_msg(verity_android_shown_of(&q, &sh, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(sh.nexpected, 2);
	ck_assert_str_eq(sh.expected[0].name, "vbmeta_system");
	ck_assert_uint_eq(sh.expected[0].rollback_index_location, 1);
	ck_assert_uint_eq(sh.expected[0].public_key_len, 4);
	ck_assert_mem_eq(sh.expected[0].public_key, "KEY\0", 4);
	ck_assert_str_eq(sh.expected[1].name, "boot");
	ck_assert_uint_eq(sh.expected[1].rollback_index_location, UINT32_MAX);
	verity_android_shown_done(&sh);
	ck_assert_uint_eq(sh.nexpected, 0);
	q.noptions = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[96];

		o[1] = bad[i];
		ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err),
				 -EINVAL);
		snprintf(want, sizeof(want),
			 "malformed chained partition \"%s\"", bad[i]);
		ck_assert_str_eq(ht_msg(&err), want);
		verity_android_shown_done(&sh);
	}
	/* a key file not there: EINVAL */
	snprintf(missing, sizeof(missing), "a:1:%s/none", dir);
	o[1] = missing;
	ck_assert_int_eq(verity_android_shown_of(&q, &sh, &err), -EINVAL);
	verity_android_shown_done(&sh);
}
END_TEST

/* An edit request's refusals, before any file is touched */
START_TEST(edit_refused)
{
	static const struct {
		enum fv_avb_edit_op op;
		const char *image;
		unsigned flags;
		const char *vbmeta_image;
		uint64_t partition_size;
		const char *says;
	} t[] = {
		{0, "i", 0, NULL, 0, "fv_avb_edit: no edit 0"},
		{5, "i", 0, NULL, 0, "fv_avb_edit: no edit 5"},
		{FV_AVB_EDIT_RESIZE_IMAGE, "i", 1, NULL, 0,
		 "fv_avb_edit: resize_image reads no flags"},
		{FV_AVB_EDIT_ERASE_FOOTER, "i", 0, "v", 0,
		 "fv_avb_edit: erase_footer reads no vbmeta_image"},
		{FV_AVB_EDIT_ZERO_HASHTREE, "i", 0, NULL, 4096,
		 "fv_avb_edit: zero_hashtree reads no partition_size"},
		{FV_AVB_EDIT_ERASE_FOOTER, NULL, 0, NULL, 0,
		 "fv_avb_edit: erase_footer: no image"},
		{FV_AVB_EDIT_APPEND_VBMETA_IMAGE, "i", 0, NULL, 4096,
		 "fv_avb_edit: append_vbmeta_image: no vbmeta_image"},
		{FV_AVB_EDIT_ERASE_FOOTER, "i", 2, NULL, 0,
		 "unknown erase flags 0x2"},
	};
	const char *o[] = {"partition_size", "0x1000"};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct fv_avb_edit_request e = {
			.size = sizeof(e),
			.op = t[i].op,
			.image = t[i].image,
			.flags = t[i].flags,
			.vbmeta_image = t[i].vbmeta_image,
			.partition_size = t[i].partition_size};

		ck_assert_int_eq(verity_android_edit(&e, &err), -EINVAL);
		ck_assert_str_eq(ht_msg(&err), t[i].says);
	}
	/* its one avbtool option, read into it first */
	{
		struct fv_avb_edit_request e = {.size = sizeof(e),
						.op = FV_AVB_EDIT_ZERO_HASHTREE,
						.image = "i",
						.options = o,
						.noptions = 1};

		ck_assert_int_eq(verity_android_edit(&e, &err), -EINVAL);
		ck_assert_uint_eq(e.partition_size, 4096);
		ck_assert_str_eq(ht_msg(&err), "fv_avb_edit: zero_hashtree "
					       "reads no partition_size");
		o[1] = "x";
		ck_assert_int_eq(verity_android_edit(&e, &err), -EDOM);
		ck_assert_str_eq(ht_msg(&err),
				 "--partition_size: 'x' is not a number");
		o[0] = "size";
		ck_assert_int_eq(verity_android_edit(&e, &err), -EINVAL);
		ck_assert_str_eq(ht_msg(&err), "fv_avb_edit: no option size");
	}
}
END_TEST

/* FV_SHOW_AVB_USAGE's check of sub with n option pairs o: its return,
 * its words checked when says is not NULL */
static int usage(const char *sub, const char *const *o, size_t n,
		 const char *says)
{
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_AVB_USAGE,
				    .args = sub,
				    .options = o,
				    .noptions = n};
	int r = verity_android_usage(&q, &err);

	if (says)
		ck_assert_str_eq(ht_msg(&err), says);
	return r;
}

START_TEST(usage_required)
{
	const char *img[] = {"image", "x.img"};
	const char *append[] = {"image", "x.img", "partition_size", "4096"};

	ck_assert_int_eq(usage(NULL, NULL, 0, "fv_show: args is NULL"),
			 -EINVAL);
	ck_assert_int_eq(usage("info_image", NULL, 0,
			       "avb info_image: --image is required"),
			 -EDOM);
	ck_assert_int_eq(usage("zero_hashtree", NULL, 0,
			       "avb zero_hashtree: --image is required"),
			 -EDOM);
	ck_assert_int_eq(usage("extract_vbmeta_image", img, 1,
			       "avb extract_vbmeta_image: --image and "
			       "--output are required"),
			 -EDOM);
	ck_assert_int_eq(usage("extract_public_key", NULL, 0,
			       "avb extract_public_key: --key and --output "
			       "are required"),
			 -EDOM);
	ck_assert_int_eq(usage("generate_key", NULL, 0,
			       "avb generate_key: --algorithm (MLDSA65, "
			       "MLDSA87) and --output are required"),
			 -EDOM);
	ck_assert_int_eq(usage("append_vbmeta_image", img, 1,
			       "avb append_vbmeta_image: --partition_size is "
			       "required"),
			 -EDOM);
	ck_assert_int_eq(usage("append_vbmeta_image", append, 2,
			       "avb append_vbmeta_image: --vbmeta_image is "
			       "required"),
			 -EDOM);
	/* what needs nothing */
	ck_assert_int_eq(usage("make_vbmeta_image", NULL, 0, NULL), 0);
}
END_TEST

START_TEST(usage_files)
{
	char none[96], file[96], under[128], want[300];
	const char *o[4];
	FILE *w;

	snprintf(none, sizeof(none), "%s/none", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(under, sizeof(under), "%s/file/out", dir);
	ck_assert_ptr_nonnull(w = fopen(file, "wb"));
	ck_assert_uint_eq(fwrite("plain", 1, 5, w), 5);
	fclose(w);
	o[0] = "image";
	o[1] = none;
	snprintf(want, sizeof(want),
		 "avb info_image: argument --image: can't open '%s': %s", none,
		 strerror(ENOENT));
	ck_assert_int_eq(usage("info_image", o, 1, want), -EDOM);
	/* an output: a directory; under a file; in a directory not there */
	o[0] = "output";
	o[1] = dir;
	snprintf(want, sizeof(want),
		 "avb make_vbmeta_image: argument --output: can't open '%s': "
		 "%s",
		 dir, strerror(EISDIR));
	ck_assert_int_eq(usage("make_vbmeta_image", o, 1, want), -EDOM);
	o[1] = under;
	snprintf(want, sizeof(want),
		 "avb make_vbmeta_image: argument --output: can't open '%s': "
		 "%s",
		 under, strerror(ENOTDIR));
	ck_assert_int_eq(usage("make_vbmeta_image", o, 1, want), -EDOM);
	snprintf(under, sizeof(under), "%s/none/out", dir);
	o[1] = under;
	snprintf(want, sizeof(want),
		 "avb make_vbmeta_image: argument --output: can't open '%s': "
		 "%s",
		 under, strerror(ENOENT));
	ck_assert_int_eq(usage("make_vbmeta_image", o, 1, want), -EDOM);
	/* a new file in a directory there, or a file there: taken */
	o[1] = none;
	ck_assert_int_eq(usage("make_vbmeta_image", o, 1, NULL), 0);
	o[1] = file;
	ck_assert_int_eq(usage("make_vbmeta_image", o, 1, NULL), 0);
	/* generate_key never writes over a file: not checked */
	o[1] = dir;
	o[2] = "algorithm";
	o[3] = "MLDSA65";
	ck_assert_int_eq(usage("generate_key", o, 2, NULL), 0);
	/* an image that opens but is no Android image: the registry's */
	o[0] = "image";
	o[1] = file;
	ck_assert_int_lt(usage("info_image", o, 1, NULL), 0);
	ck_assert_int_ne(usage("info_image", o, 1, NULL), -EDOM);
	/* add_hashtree_footer's image is read, not judged */
	ck_assert_int_eq(usage("add_hashtree_footer", o, 1, NULL), 0);
}
END_TEST

/* resize_image of an Android image: its partition_size is run()'s */
START_TEST(usage_resize)
{
	char img[96];
	const char *o[] = {"image", img, "partition_size", "0x100000"};
	struct avb_footer_opts fo = {.image = img,
				     .partition_size = 1u << 20,
				     .hash_algorithm = "sha256"};
	FILE *w;

	snprintf(img, sizeof(img), "%s/img", dir);
	ck_assert_ptr_nonnull(w = fopen(img, "wb"));
	ck_assert_uint_eq(fwrite("data", 1, 4, w), 4);
	fclose(w);
	fo.vb.algorithm = AVB_ALG_NONE;
	ck_assert_msg(verity_avb_add_hash_footer(&fo, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(usage("resize_image", o, 1,
			       "avb resize_image: --partition_size is "
			       "required"),
			 -EINVAL);
	ck_assert_int_eq(usage("resize_image", o, 2, NULL), 0);
	ck_assert_int_eq(usage("info_image", o, 1, NULL), 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"android_request", 0, setup,
					    teardown,          0, NULL};

	return run_unit(
		&u, UNIT_TESTS(numbers, number_limits, vbmeta_values, chains,
			       properties, footer_values, salt_limit,
			       footer_refused, output_over_image, needs_pairing,
			       needs_read_once, shown_options, expected_chains,
			       edit_refused, usage_required, usage_files,
			       usage_resize));
}
