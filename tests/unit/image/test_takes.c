/* verity/image/takes.c: what each walk of an image given alone takes of
 * the caller's options, by name: a container that carries its own
 * signatures, parameters or partitions refuses the options that would
 * replace them, each refusal naming the option; the caller's own walk
 * (a super image's logical partition) handed back; the open request, a
 * set's request and the options each walk runs with finished (an image
 * with sidecar files': its files found beside it). */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "verity/image/takes.h"

static const char *const certs[] = {"c.pem"};

/* The walk of container c (walk w) for action what with options kv
 * (n pairs) and o: takes' return, t kept. */
static int take(const char *c, enum verity_alone_walk w, enum fv_show_what what,
		const char *const *kv, size_t n, const fv_options *o,
		struct verity_alone_takes *t, struct ht_error *err)
{
	struct fv_open_request rq = {.size = sizeof(rq), .action = "verify"};
	struct fv_show_request q = {.size = sizeof(q),
				    .what = what,
				    .image = "x.img",
				    .o = o,
				    .options = kv,
				    .noptions = n,
				    .open = &rq,
				    .max = 9};
	struct verity_alone a = {c, w};

	rq.action = what == FV_SHOW_REPAIR ? "repair"
		    : what == FV_SHOW_OPEN ? "open"
		    : what == FV_SHOW_PAIR ? "dump"
					   : "verify";
	return verity_image_alone_takes(&q, &a, t, err);
}

#define REFUSED(words)                                              \
	do {                                                        \
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), words)); \
		verity_image_alone_takes_free(&t);                  \
	} while (0)

START_TEST(signatures)
{
	static const char *const sig[] = {"root-hash-signature", "s.p7s"};
	struct verity_alone_takes t;
	struct ht_error err;

	ck_assert_int_eq(take("ddi", VERITY_ALONE_DDI, FV_SHOW_VERIFY, sig, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("x.img: a systemd disk image carries its own signatures; "
		"--root-hash-signature does not apply");
	ck_assert_int_eq(take("super", VERITY_ALONE_SET, FV_SHOW_PAIR, sig, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("an Android super image carries its own signatures");
	ck_assert_int_eq(take("avb", VERITY_ALONE_SET, FV_SHOW_VERIFY, sig, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("an Android image carries its own signatures");
	/* an Android image's pair: its parameters, the first one named */
	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_VERIFY, sig, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("carries its own parameters, tree, parity and root; "
		"--root-hash-signature does not apply");
}
END_TEST

START_TEST(ota)
{
	static const char *const slot[] = {"slot", "a"};
	fv_options o = {.size = sizeof(o), .key = "k.pem"};
	struct verity_alone_takes t;
	struct ht_error err;

	ck_assert_int_eq(take("ota", VERITY_ALONE_OTA, FV_SHOW_REPAIR, NULL, 0,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("read it with fastverity ota info x.img");
	ck_assert_int_eq(take("ota", VERITY_ALONE_OTA, FV_SHOW_VERIFY, slot, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("x.img: an Android OTA package: verify takes one "
		"--trusted-cert (its signer), --key (its images' AVB key), "
		"--json here (or fastverity ota verify x.img)");
	/* dump takes no key; verify its images' */
	ck_assert_int_eq(take("ota", VERITY_ALONE_OTA, FV_SHOW_PAIR, NULL, 0,
			      &o, &t, &err),
			 -EINVAL);
	REFUSED("dump takes --json here (or fastverity ota info x.img)");
	ck_assert_int_eq(take("ota", VERITY_ALONE_OTA, FV_SHOW_VERIFY, NULL, 0,
			      &o, &t, &err),
			 0);
	ck_assert_str_eq(t.o.key, "k.pem");
	verity_image_alone_takes_free(&t);
}
END_TEST

START_TEST(repair)
{
	static const char *const part[] = {"partition", "system_a"};
	static const char *const fec[] = {"fec-offset", "1"};
	fv_options dry = {.size = sizeof(dry), .repair = FV_REPAIR_DRY_RUN};
	struct verity_alone_takes t;
	struct ht_error err;

	ck_assert_int_eq(take("super", VERITY_ALONE_SET, FV_SHOW_REPAIR, NULL,
			      0, NULL, &t, &err),
			 -EINVAL);
	REFUSED("x.img: an Android super image: repair one logical "
		"partition, named as x.img/NAME or with --partition=NAME");
	/* the caller's own: by its path */
	ck_assert_int_eq(take("super", VERITY_ALONE_SET, FV_SHOW_REPAIR, part,
			      1, NULL, &t, &err),
			 0);
	ck_assert_int_eq(t.own, 2);
	/* an image with sidecar files: its pair of the files beside it,
	 * written but for a dry run */
	ck_assert_int_eq(take("sidecar", VERITY_ALONE_SIDECAR, FV_SHOW_REPAIR,
			      NULL, 0, NULL, &t, &err),
			 0);
	ck_assert_int_eq(t.own, 0);
	ck_assert_str_eq(t.tree, "x.img.verity");
	ck_assert_str_eq(t.rq.root_hash_file, "x.img.roothash");
	ck_assert_ptr_null(t.rq.params);
	ck_assert_int_eq(t.rq.writes, 1);
	verity_image_alone_takes_free(&t);
	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_REPAIR, part, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("x.img: --partition names a partition of a super image or a "
		"disk image");
	/* writes but for a dry run */
	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_REPAIR, NULL, 0,
			      NULL, &t, &err),
			 0);
	ck_assert_int_eq(t.rq.writes, 1);
	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_REPAIR, NULL, 0,
			      &dry, &t, &err),
			 0);
	ck_assert_int_eq(t.rq.writes, 0);
	/* a disk image's parity, given */
	ck_assert_int_eq(take("ddi", VERITY_ALONE_DDI, FV_SHOW_REPAIR, fec, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("--fec-offset and --fec-roots go with --fec-device");
}
END_TEST

START_TEST(open)
{
	static const char *const eac[] = {"error-as-corruption", "1"};
	static const char *const sup[] = {"partition",    "system_a",
					  "block-device", "b=b.img",
					  "hash",         "sha1"};
	static const char *const bad[] = {"partition", "system_a",
					  "block-device", "=b.img"};
	fv_options two = {.size = sizeof(two),
			  .flags = FV_IGNORE_CORRUPTION |
				   FV_PANIC_ON_CORRUPTION};
	fv_options panic = {.size = sizeof(panic),
			    .flags = FV_PANIC_ON_CORRUPTION};
	fv_options run;
	struct verity_alone_takes t;
	struct ht_error err;
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_OPEN,
				    .image = "x.img",
				    .options = sup,
				    .noptions = 3};

	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_OPEN, NULL, 0,
			      &two, &t, &err),
			 -EINVAL);
	REFUSED("choose one of --ignore-corruption");
	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_OPEN, eac, 1,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("Option --error-as-corruption must be used with");
	/* an I/O error as the corruption's policy says */
	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_OPEN, eac, 1,
			      &panic, &t, &err),
			 0);
	ck_assert_uint_eq(t.flags, FV_PANIC_ON_CORRUPTION | FV_PANIC_ON_ERROR);
	ck_assert_int_eq(
		verity_image_alone_runs(&q, &t, "x.img", 1, &run, &err), 0);
	ck_assert_uint_eq(run.flags, t.flags);
	verity_image_alone_takes_free(&t);
	ck_assert_int_eq(take("super", VERITY_ALONE_SET, FV_SHOW_OPEN, NULL, 0,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("name the logical partition to open (--partition=system_a)");
	ck_assert_int_eq(take("super", VERITY_ALONE_SET, FV_SHOW_OPEN, bad, 2,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("--block-device: '=b.img' is not NAME=FILE");
	/* a super image's partition: its devices split; its tree's options
	 * refused once its path is known */
	ck_assert_int_eq(take("super", VERITY_ALONE_SET, FV_SHOW_OPEN, sup, 3,
			      NULL, &t, &err),
			 0);
	ck_assert_uint_eq(t.rq.n, 1);
	ck_assert_str_eq(t.rq.names[0], "b");
	ck_assert_str_eq(t.rq.files[0], "b.img");
	ck_assert_ptr_null(t.rq.action);
	ck_assert_int_eq(verity_image_alone_runs(&q, &t, "x.img/system_a", 1,
						 &run, &err),
			 -EINVAL);
	REFUSED("x.img/system_a: an Android image carries its own parameters, "
		"tree, parity and root; --hash does not apply");
}
END_TEST

START_TEST(runs)
{
	static const char *const set[] = {"partition", "system_a", "slot",
					  "b",         "threads",  "x"};
	static const char *const bad_slot[] = {"slot", "c"};
	static const char *const max[] = {"max-failures", "y"};
	fv_options both = {.size = sizeof(both),
			   .key = "k.pem",
			   .trusted_certs = certs,
			   .ntrusted_certs = 1};
	fv_options run;
	struct verity_alone_takes t;
	struct ht_error err;
	struct fv_show_request q = {.size = sizeof(q),
				    .what = FV_SHOW_REPAIR,
				    .image = "x.img",
				    .options = max,
				    .noptions = 1};

	ck_assert_int_eq(take("avb", VERITY_ALONE_PAIR, FV_SHOW_VERIFY, NULL, 0,
			      &both, &t, &err),
			 -EINVAL);
	REFUSED("--key and --trusted-cert: give the one trust anchor");
	ck_assert_int_eq(take("avb", VERITY_ALONE_SET, FV_SHOW_VERIFY, bad_slot,
			      1, NULL, &t, &err),
			 -EINVAL);
	REFUSED("--slot: 'c' is not a or b");
	/* a set's request; its --threads read as the walk starts */
	ck_assert_int_eq(take("avb", VERITY_ALONE_SET, FV_SHOW_VERIFY, set, 2,
			      NULL, &t, &err),
			 0);
	ck_assert_str_eq(t.set.slot, "b");
	ck_assert_uint_eq(t.set.npartitions, 1);
	ck_assert_str_eq(t.set.partitions[0], "system_a");
	ck_assert_uint_eq(t.max, 9);
	verity_image_alone_takes_free(&t);
	ck_assert_int_eq(take("avb", VERITY_ALONE_SET, FV_SHOW_VERIFY, set, 3,
			      NULL, &t, &err),
			 -EINVAL);
	REFUSED("--threads: 'x' is not a number");
	/* a pair judged: repair of one of several refused; a count that is
	 * none refused once verify runs */
	ck_assert_int_eq(take("ddi", VERITY_ALONE_DDI, FV_SHOW_REPAIR, max, 1,
			      NULL, &t, &err),
			 0);
	ck_assert_uint_eq(t.max, UINT64_MAX);
	ck_assert_int_eq(
		verity_image_alone_runs(&q, &t, "x.img", 2, &run, &err),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "several protected"));
	ck_assert_int_eq(
		verity_image_alone_runs(&q, &t, "x.img", 1, &run, &err), 0);
	q.what = FV_SHOW_VERIFY;
	ck_assert_int_eq(
		verity_image_alone_runs(&q, &t, "x.img", 1, &run, &err),
		-EINVAL);
	REFUSED("--max-failures: 'y' is not a number");
}
END_TEST

/* A warning said and the path walked, kept. */
struct kept {
	char said[256], path[256];
	const char *partition; /* the walk's --partition */
};

static int kept(void *ctx, const struct fv_item *it)
{
	struct kept *k = ctx;

	if (it->kind == FV_ITEM_WARNING)
		snprintf(k->said, sizeof(k->said), "%s", it->text);
	return 0;
}

static struct kept k;

static int walked(const struct fv_show_request *q, struct show *sh)
{
	(void)sh;

	snprintf(k.path, sizeof(k.path), "%s", q->image);
	k.partition = "none";
	for (size_t i = 0; i < q->noptions; i++)
		if (!strcmp(q->options[2 * i], "partition"))
			k.partition = q->options[2 * i + 1];
	return 7;
}

START_TEST(partition)
{
	static const char *const twin[] = {"partition", "system"};
	static const char *const b[] = {"partition", "system", "slot", "b"};
	static const char *const none[] = {"partition", "nope"};
	struct fv_show_request q = {
		.size = sizeof(q), .options = twin, .noptions = 1};
	struct verity_alone_takes t = {0};
	uint8_t *part = calloc(1, 8 * AMK_BS);
	int r = 0;
	struct verity_alone_again again = {walked, NULL, &r};
	struct ht_error err;
	char sup[160];

	amk_dir("/tmp/fv-takes-XXXXXX");
	amk_super(amk_path(sup, "super.img"), part, 8 * AMK_BS);
	free(part);
	q.image = sup;
	/* an A/B image's twin: NAME_<slot>, said */
	ck_assert_msg(verity_image_alone_partition(&q, &t, kept, &k, &again,
						   &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(r, 7);
	ck_assert_ptr_nonnull(strstr(k.path, "super.img/system_a"));
	ck_assert_ptr_null(k.partition); /* walked without it */
	ck_assert_ptr_nonnull(strstr(k.said, "system is partition system_a "
					     "(slot a)"));
	verity_image_alone_takes_free(&t);
	q.options = b;
	q.noptions = 2;
	ck_assert_int_eq(
		verity_image_alone_partition(&q, &t, kept, &k, &again, &err),
		0);
	ck_assert_ptr_nonnull(strstr(k.path, "super.img/system_b"));
	verity_image_alone_takes_free(&t);
	q.options = none;
	q.noptions = 1;
	ck_assert_int_eq(
		verity_image_alone_partition(&q, &t, NULL, NULL, &again, &err),
		-ENOENT);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no logical partition nope "
						   "in slot a"));
	verity_image_alone_takes_free(&t);
	amk_rmdir();
}
END_TEST

/* An image with sidecar files: its pair made of the options and of the
 * files beside it, explicit options first; nothing fastverity knows
 * without its tree; dump: its tree, or the image itself when it is one;
 * open: takes a hash device. */
START_TEST(sidecar)
{
	static const char *const roots[] = {"fec-roots", "2"};
	static const char *const given[] = {
		"fec-roots",  "2",     "root-hash-file",      "r.txt",
		"fec-device", "x.fec", "root-hash-signature", "s.p7s"};
	static const char *const plain[] = {
		"no-superblock", "1", "salt", "ab", "hash-offset", "4096"};
	struct fv_open_request rq = {.size = sizeof(rq), .action = "verify"};
	struct fv_show_request q = {
		.size = sizeof(q), .what = FV_SHOW_VERIFY, .open = &rq};
	struct verity_alone a = {"sidecar", VERITY_ALONE_SIDECAR};
	struct verity_alone_takes t;
	struct ht_error err;
	char raw[160], tree[160], fec[160];

	amk_dir("/tmp/fv-takes-XXXXXX");
	amk_data(amk_path(raw, "os.raw"), 4, 1);
	q.image = raw;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), -ENODEV);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "os.verity beside it: give "
						   "its hash device and root "
						   "hash (verify "));
	verity_image_alone_takes_free(&t);
	/* asked for: the door says what is missing */
	rq.container = "sidecar";
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), 0);
	verity_image_alone_takes_free(&t);
	rq.container = NULL;
	/* the tree and parity beside it; --fec-roots for the parity found */
	amk_data(amk_path(tree, "os.verity"), 1, 2);
	amk_data(amk_path(fec, "os.fec"), 1, 3);
	q.options = roots;
	q.noptions = 1;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), 0);
	ck_assert_str_eq(t.tree, tree);
	ck_assert_str_eq(t.rq.fec_path, fec);
	ck_assert_uint_eq(t.rq.fec_roots, 2);
	ck_assert_ptr_nonnull(strstr(t.rq.root_hash_file, "os.roothash"));
	ck_assert_ptr_null(t.rq.params);
	ck_assert_int_eq(t.rq.writes, 0);
	verity_image_alone_takes_free(&t);
	/* explicit options win */
	q.options = given;
	q.noptions = 4;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), 0);
	ck_assert_str_eq(t.rq.fec_path, "x.fec");
	ck_assert_str_eq(t.rq.root_hash_file, "r.txt");
	ck_assert_str_eq(t.rq.signature_path, "s.p7s");
	verity_image_alone_takes_free(&t);
	/* the tree's parameters given: no superblock read */
	q.options = plain;
	q.noptions = 3;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), 0);
	ck_assert_ptr_eq(t.rq.params, &t.params);
	ck_assert_uint_eq(t.rq.hash_offset, 4096);
	ck_assert_uint_eq(t.params.salt_len, 1);
	verity_image_alone_takes_free(&t);
	/* dump: the tree alone, its parity; --fec-roots goes with
	 * --fec-device there */
	q.what = FV_SHOW_PAIR;
	q.noptions = 0;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), 0);
	ck_assert_str_eq(t.rq.data, tree);
	ck_assert_str_eq(t.rq.hash, tree);
	ck_assert_str_eq(t.rq.fec_path, fec);
	verity_image_alone_takes_free(&t);
	q.options = roots;
	q.noptions = 1;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), -EINVAL);
	REFUSED("--fec-offset and --fec-roots go with --fec-device");
	/* a hash device alone: dumped as it is */
	unlink(tree);
	q.noptions = 0;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), 0);
	ck_assert_str_eq(t.rq.data, raw);
	ck_assert_ptr_null(t.rq.fec_path);
	verity_image_alone_takes_free(&t);
	q.what = FV_SHOW_OPEN;
	ck_assert_int_eq(verity_image_alone_takes(&q, &a, &t, &err), -EINVAL);
	REFUSED("open: requires <data_device> <name> <hash_device>");
	unlink(fec);
	unlink(raw);
	amk_rmdir();
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"takes", 0, NULL, NULL, 1, NULL};

	return run_unit(&u, UNIT_TESTS(signatures, ota, repair, open, runs,
				       partition, sidecar));
}
