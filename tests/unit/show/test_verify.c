/* verity/show/verify.c: a pair's verify and repair said as they go --
 * each failure (up to --max-failures, then how many more), the counts
 * and the verdict, the parity's roots and what it can do, the signer's
 * warnings; repair's lines; verify --json's stream (closed with the
 * error when the check refuses) and repair --json's document; the
 * refusals of a repair with no parity. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "verity/show/verify.h"

/* What the visitor was handed: stdout's text, stderr's, and the --json
 * items in a short form ("key:{" "}" "key=value"). */
struct got {
	char out[4096], err[4096], items[8192];
};

static void add(char *buf, size_t cap, const char *s)
{
	size_t at = strlen(buf);

	snprintf(buf + at, cap - at, "%s", s);
}

static int collect(void *ctx, const struct fv_item *it)
{
	struct got *g = ctx;
	char one[512];
	const char *k = it->key ? it->key : "";
	const char *sep = it->key ? ":" : "";

	switch (it->kind) {
	case FV_ITEM_TEXT:
		add(g->out, sizeof(g->out), it->text);
		return 0;
	case FV_ITEM_ERROR:
		add(g->err, sizeof(g->err), it->text);
		return 0;
	case FV_ITEM_STRING:
		snprintf(one, sizeof(one), "%s=%s ", k, it->text);
		break;
	case FV_ITEM_UINT:
	case FV_ITEM_BOOL:
		snprintf(one, sizeof(one), "%s=%llu ", k,
			 (unsigned long long)it->u);
		break;
	case FV_ITEM_NULL:
		snprintf(one, sizeof(one), "%s=null ", k);
		break;
	case FV_ITEM_OBJECT:
		snprintf(one, sizeof(one), "%s%s{ ", k, sep);
		break;
	case FV_ITEM_ARRAY:
		snprintf(one, sizeof(one), "%s%s[ ", k, sep);
		break;
	case FV_ITEM_END:
		snprintf(one, sizeof(one), "} ");
		break;
	default:
		snprintf(one, sizeof(one), "?%d ", (int)it->kind);
	}
	add(g->items, sizeof(g->items), one);
	return 0;
}

static struct got g;
static fv_params params;
static struct fv_image_pair_info pi;
static struct fv_report described;
static struct fv_options opts;
static struct fv_show_request q;
static struct show sh;

static void setup(void)
{
	memset(&g, 0, sizeof(g));
	memset(&params, 0, sizeof(params));
	params.size = sizeof(params);
	strcpy(params.hash, "sha256");
	params.hash_type = 1;
	params.data_block_size = params.hash_block_size = 4096;
	params.data_blocks = 16;
	pi = (struct fv_image_pair_info){.size = sizeof(pi),
					 .data = "d.img",
					 .hash = "h.img",
					 .params = &params,
					 .root_hex = "abcd"};
	described = (struct fv_report){.size = sizeof(described)};
	memset(&opts, 0, sizeof(opts));
	q = (struct fv_show_request){.size = sizeof(q),
				     .what = FV_SHOW_VERIFY,
				     .max = 2,
				     .o = &opts,
				     .args = "d.img h.img"};
	sh = (struct show){collect, &g, 0, 0};
}

static void begin(struct show_check *c, enum fv_trust trust)
{
	struct show_check_pair p = {&pi, trust, NULL, &described};

	verity_show_check_begin(c, &sh, &q, &p);
}

/* A report of a well pair (root matches). */
static struct fv_report well(void)
{
	return (struct fv_report){.size = sizeof(struct fv_report),
				  .intact = 1,
				  .root_matches = 1,
				  .hashing_path = "",
				  .signature_warning = "",
				  .signer = ""};
}

START_TEST(verify_well_says_nothing)
{
	struct show_check c;
	struct fv_report rep = well();

	begin(&c, FV_TRUST_UNSIGNED);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
	ck_assert_str_eq(g.items, "");
}
END_TEST

START_TEST(verify_failures_up_to_max)
{
	struct show_check c;
	struct fv_report rep = well();

	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	verity_show_check_failure(&c, FV_BAD_PADDING, 0, 100, 1);
	/* past --max-failures=2: counted, not listed */
	verity_show_check_failure(&c, FV_UNREADABLE_DATA_BLOCK, 3, 12288, 0);
	verity_show_check_failure(&c, FV_BAD_HASH_BLOCK, 0, 0, 0);
	rep.bad_data_blocks = 1;
	rep.bad_padding = 1;
	rep.unreadable = 1;
	rep.bad_hash_blocks = 1;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(
		g.err,
		"Verification failed at position 4096.\n"
		"Spare area is not zeroed at position 100.\n"
		"... and 2 more failures, not listed (--max-failures=2).\n"
		"Verification of data area failed: 1 bad data block, 1 bad "
		"hash block, 1 bad spare area.\n"
		"1 block could not be read.\n");
}
END_TEST

START_TEST(verify_max_zero_lists_none)
{
	struct show_check c;
	struct fv_report rep = well();

	q.max = 0;
	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	rep.bad_data_blocks = 1;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_str_eq(g.err,
			 "... and 1 more failures, not listed "
			 "(--max-failures=0).\n"
			 "Verification of data area failed: 1 bad data "
			 "block, 0 bad hash blocks, 0 bad spare areas.\n");
}
END_TEST

START_TEST(verify_root_mismatch)
{
	struct show_check c;
	struct fv_report rep = well();

	begin(&c, FV_TRUST_UNSIGNED);
	rep.intact = rep.root_matches = 0;
	rep.root_first = 1;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 1);
	ck_assert_str_eq(g.err,
			 "Verification of root hash failed.\n"
			 "fastverity: the top of the tree does not match the "
			 "root hash, so no block was checked: the root hash, "
			 "or a parameter (salt, block sizes, hash algorithm, "
			 "data blocks, hash offset), is likely wrong\n");
}
END_TEST

START_TEST(verify_fec_words)
{
	struct show_check c;
	struct fv_report rep = well();

	pi.fec = "f.fec";
	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_block(&c, 1, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	verity_show_check_block(&c, 0, FV_BAD_DATA_BLOCK, 2, 8192, 0);
	rep.has = FV_REPORT_FEC;
	rep.bad_data_blocks = 2;
	rep.layout.fec_roots = 8;
	rep.layout.fec_roots_from = FV_ROOTS_INFERRED;
	rep.fec.bad_blocks = 2;
	rep.fec.repaired = 1;
	rep.fec.stale_codewords = 1;
	rep.fec.stale_rounds = 1;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_str_eq(
		g.err,
		"FEC cannot repair position 8192.\n"
		"Verification of data area failed: 2 bad data blocks, 0 bad "
		"hash blocks, 0 bad spare areas.\n"
		"FEC: parity of 8 roots, told from the size of f.fec.\n"
		"FEC can repair 1 of 2 bad blocks (fastverity repair, d.img "
		"h.img).\n"
		"FEC parity: 1 codeword in 1 round disagree with the verified "
		"data (stale or damaged); fastverity repair --rewrite-parity, "
		"d.img h.img, rewrites them.\n");
}
END_TEST

/* The parity's roots, each way they were found; said when the check is
 * well only with --all */
START_TEST(verify_fec_roots_from)
{
	static const struct {
		enum fv_roots_from from;
		const char *words;
	} t[] = {
		{FV_ROOTS_GIVEN, "FEC: parity of 2 roots (--fec-roots).\n"},
		{FV_ROOTS_INFERRED,
		 "FEC: parity of 2 roots, told from the size of f.fec.\n"},
		{FV_ROOTS_DESCRIBED,
		 "FEC: parity of 2 roots, as f.fec describes it.\n"},
		{FV_ROOTS_DEFAULT,
		 "FEC: parity of 2 roots, the default (the size of f.fec "
		 "does not tell; give --fec-roots).\n"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct show_check c;
		struct fv_report rep = well();

		setup();
		pi.fec = "f.fec";
		q.all = 1;
		begin(&c, FV_TRUST_UNSIGNED);
		rep.has = FV_REPORT_FEC;
		rep.layout.fec_roots = 2;
		rep.layout.fec_roots_from = t[i].from;
		ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
		ck_assert_str_eq(g.err, t[i].words);
	}
	/* without --all a well parity is not said */
	{
		struct show_check c;
		struct fv_report rep = well();

		setup();
		pi.fec = "f.fec";
		begin(&c, FV_TRUST_UNSIGNED);
		rep.has = FV_REPORT_FEC;
		rep.layout.fec_roots = 2;
		ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
		ck_assert_str_eq(g.err, "");
	}
}
END_TEST

START_TEST(verify_signer_words)
{
	struct show_check c;
	struct fv_report rep = well();

	pi.signature = "r.p7s";
	begin(&c, FV_TRUST_UNCHECKED);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.err,
			 "fastverity: r.p7s: warning: the root hash is "
			 "signed, and its signer was not checked (give "
			 "--trusted-cert=<cert.pem> to check it): the image "
			 "matches its root hash, but nothing proves who made "
			 "it\n");
	/* a damaged image: no "matches" */
	setup();
	pi.signature = "r.p7s";
	begin(&c, FV_TRUST_UNCHECKED);
	rep.intact = 0;
	rep.bad_data_blocks = 1;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_ptr_nonnull(strstr(g.err,
				     "(give --trusted-cert=<cert.pem> to check "
				     "it)\nVerification of data area failed"));
	/* checked, with the check's warning */
	setup();
	pi.signature = "r.p7s";
	begin(&c, FV_TRUST_CHECK);
	rep = well();
	rep.trust = FV_TRUST_CHECK;
	rep.signature_warning = "the certificate expired";
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.err, "fastverity: r.p7s: warning: the certificate "
				"expired\n");
}
END_TEST

START_TEST(repair_text_lines)
{
	struct show_check c;
	struct fv_report rep = well();

	q.what = FV_SHOW_REPAIR;
	pi.fec = "f.fec";
	begin(&c, FV_TRUST_UNSIGNED);
	/* repair lists no failure as found, only what it rebuilt */
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	verity_show_check_block(&c, 1, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	verity_show_check_block(&c, 1, FV_UNREADABLE_DATA_BLOCK, 5, 20480, 0);
	verity_show_check_block(&c, 0, FV_BAD_HASH_BLOCK, 2, 8192, 1);
	rep.has = FV_REPORT_FEC;
	rep.layout.fec_roots = 2;
	rep.layout.fec_roots_from = FV_ROOTS_GIVEN;
	rep.fec.bad_blocks = 3;
	rep.fec.repaired = 2;
	rep.bad_hash_blocks = 1;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_str_eq(g.out, "Repaired position 4096 (data block 1).\n"
				"Repaired position 20480 (data block 5).\n"
				"2 of 3 bad blocks repaired.\n");
	ck_assert_str_eq(g.err, "Cannot repair position 8192 (hash block 2, "
				"level 1).\n");
}
END_TEST

START_TEST(repair_dry_run_and_parity)
{
	struct show_check c;
	struct fv_report rep = well();

	q.what = FV_SHOW_REPAIR;
	opts.repair = FV_REPAIR_DRY_RUN;
	pi.fec = "f.fec";
	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_block(&c, 1, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	rep.has = FV_REPORT_FEC;
	rep.layout.fec_roots = 4;
	rep.layout.fec_roots_from = FV_ROOTS_DESCRIBED;
	rep.fec.bad_blocks = 1;
	rep.fec.repaired = 1;
	rep.fec.stale_codewords = 2;
	rep.fec.stale_rounds = 1;
	rep.fec.rewrite_limit = 2;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.out,
			 "Can repair position 4096 (data block 1).\n"
			 "FEC: parity of 4 roots, as f.fec describes it.\n"
			 "1 of 1 bad block can be repaired.\n"
			 "Parity: 2 codewords in 1 round disagree with the "
			 "verified data; not rewritten (repair "
			 "--rewrite-parity rewrites them).\n");
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* The stale parity: at the limit rewritten (or would be), past it left */
START_TEST(repair_parity_limit)
{
	static const struct {
		unsigned flags;
		uint64_t stale, limit;
		const char *line;
	} t[] = {
		{FV_REPAIR_REWRITE_PARITY, 3, 3,
		 "Parity: 3 codewords in 2 rounds disagree with the verified "
		 "data; rewritten.\n"},
		{FV_REPAIR_REWRITE_PARITY | FV_REPAIR_DRY_RUN, 1, 3,
		 "Parity: 1 codeword in 2 rounds disagree with the verified "
		 "data; repair --rewrite-parity would rewrite them.\n"},
		{0, 4, 3,
		 "Parity: 4 codewords in 2 rounds disagree with the verified "
		 "data, more than the 3 that damage explains: not this "
		 "image's parity, or the roots or offset are wrong; left as "
		 "it is.\n"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct show_check c;
		struct fv_report rep = well();

		setup();
		q.what = FV_SHOW_REPAIR;
		opts.repair = t[i].flags;
		pi.fec = "f.fec";
		begin(&c, FV_TRUST_UNSIGNED);
		rep.has = FV_REPORT_FEC;
		rep.layout.fec_roots = 2;
		rep.layout.fec_roots_from = FV_ROOTS_GIVEN;
		rep.fec.stale_codewords = t[i].stale;
		rep.fec.stale_rounds = 2;
		rep.fec.rewrite_limit = t[i].limit;
		ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
		ck_assert_str_eq(g.out, t[i].line);
	}
}
END_TEST

START_TEST(repair_root_still_wrong)
{
	struct show_check c;
	struct fv_report rep = well();

	q.what = FV_SHOW_REPAIR;
	q.o = NULL; /* no options: not a dry run */
	pi.fec = "f.fec";
	begin(&c, FV_TRUST_UNSIGNED);
	rep.root_matches = rep.intact = 0;
	rep.has = FV_REPORT_FEC;
	rep.layout.fec_roots_from = FV_ROOTS_GIVEN;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 1);
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "Verification of root hash failed.\n");
}
END_TEST

START_TEST(verify_json_stream)
{
	struct show_check c;
	struct fv_report rep = well();

	sh.json = 1;
	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	/* the stream opens with the first failure, before the end */
	ck_assert_ptr_nonnull(strstr(g.items, "signature=null failures:[ { "
					      "type=data position=4096 "
					      "block=1 } "));
	ck_assert_ptr_nonnull(strstr(g.items, "{ device=h.img uuid=null "));
	ck_assert_ptr_nonnull(strstr(g.items, "root_hash=abcd "
					      "data_device=d.img "));
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 2, 8192, 0);
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 3, 12288, 0);
	rep.bad_data_blocks = 3;
	rep.hashing_path = "sha-ni";
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_ptr_nonnull(strstr(
		g.items,
		"block=2 } } result=corrupted root_hash_matches=1 "
		"bad_data_blocks=3 bad_hash_blocks=0 bad_spare_areas=0 "
		"unreadable_blocks=0 unchecked_data_blocks=0 "
		"unchecked_hash_blocks=0 failures_not_listed=1 root_first=0 "
		"hint=null hashing_path=sha-ni } "));
	ck_assert_str_eq(g.err, "");
	ck_assert_str_eq(g.out, "");
}
END_TEST

/* A well pair's document: opened at the end, with the signer checked
 * and the described parity's place */
START_TEST(verify_json_well)
{
	struct show_check c;
	struct fv_report rep = well();

	sh.json = 1;
	pi.signature = "r.p7s";
	described.layout.fec_roots = 2;
	described.layout.fec_offset = 65536;
	described.layout.fec_rounds = 3;
	begin(&c, FV_TRUST_CHECK);
	rep.trust = FV_TRUST_CHECK;
	rep.signer = "CN=me";
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_ptr_nonnull(strstr(g.items,
				     "signature:{ file=r.p7s checked=1 "
				     "trust=checked signer=CN=me "
				     "warning=null } failures:[ } result=ok "));
	ck_assert_ptr_nonnull(strstr(g.items, "hashing_path=null fec:{ "
					      "roots=2 offset=65536 "
					      "parity_blocks=6 "));
	ck_assert_str_eq(g.err, "");
}
END_TEST

/* An Android image's signature: its vbmeta's, checked or not; none
 * when unsigned. No warning of an unchecked signer in text: the vbmeta
 * says its own. */
START_TEST(verify_avb_signature)
{
	struct fv_avb_info avb = {.size = sizeof(avb)};
	struct show_check_pair p = {&pi, FV_TRUST_UNCHECKED, &avb, &described};
	struct show_check c;
	struct fv_report rep = well();

	avb.header = (struct fv_avb_header){sizeof(avb.header), "MLDSA65",
					    "00ab", 3};
	sh.json = 1;
	verity_show_check_begin(&c, &sh, &q, &p);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_ptr_nonnull(strstr(g.items,
				     "signature:{ algorithm=MLDSA65 "
				     "public_key_sha1=00ab rollback_index=3 "
				     "checked=0 trust=not checked "
				     "signer=null } "));
	ck_assert_str_eq(g.err, "");
	setup();
	sh.json = 1;
	p.trust = FV_TRUST_CHECK;
	q.key = "k.pem";
	verity_show_check_begin(&c, &sh, &q, &p);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_ptr_nonnull(
		strstr(g.items, "checked=1 trust=checked signer=k.pem } "));
	/* -v: what was checked, against which key, in the set walk's
	 * words; without -v nothing */
	setup();
	q.key = "k.pem";
	pi.name = "system";
	verity_show_check_begin(&c, &sh, &q, &p);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.out, "");
	setup();
	q.key = "k.pem";
	q.all = 1;
	pi.name = "system";
	verity_show_check_begin(&c, &sh, &q, &p);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.out, "system: hashtree of d.img, vbmeta d.img "
				"signed by k.pem: verified.\n");
	setup();
	sh.json = 1;
	p.trust = FV_TRUST_UNSIGNED;
	verity_show_check_begin(&c, &sh, &q, &p);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_ptr_nonnull(strstr(g.items, "signature=null failures:[ "));
	/* text: nothing said of the signer */
	setup();
	p.trust = FV_TRUST_UNCHECKED;
	verity_show_check_begin(&c, &sh, &q, &p);
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 0);
	ck_assert_str_eq(g.err, "");
	ck_assert_str_eq(g.out, "");
}
END_TEST

START_TEST(verify_json_failed_closes)
{
	struct show_check c;

	sh.json = 1;
	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	verity_show_check_failed(&c, "read error");
	ck_assert_ptr_nonnull(strstr(g.items, "block=1 } } result=error "
					      "error=read error } "));
	/* nothing opened: nothing said (the command says the error) */
	setup();
	sh.json = 1;
	begin(&c, FV_TRUST_UNSIGNED);
	verity_show_check_failed(&c, "read error");
	ck_assert_str_eq(g.items, "");
}
END_TEST

START_TEST(repair_json_document)
{
	struct show_check c;
	struct fv_report rep = well();

	sh.json = 1;
	q.what = FV_SHOW_REPAIR;
	opts.repair = FV_REPAIR_DRY_RUN;
	pi.fec = "f.fec";
	begin(&c, FV_TRUST_UNSIGNED);
	/* failures as found are not repair's */
	verity_show_check_failure(&c, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	ck_assert_str_eq(g.items, "");
	verity_show_check_block(&c, 1, FV_BAD_DATA_BLOCK, 1, 4096, 0);
	verity_show_check_block(&c, 0, FV_BAD_HASH_BLOCK, 2, 8192, 0);
	/* kept for their place: nothing handed on yet */
	ck_assert_str_eq(g.items, "");
	rep.has = FV_REPORT_FEC;
	rep.bad_hash_blocks = 1;
	rep.fec.bad_blocks = 2;
	rep.fec.repaired = 1;
	rep.fec.before_bad_data_blocks = 1;
	rep.fec.before_bad_hash_blocks = 1;
	rep.fec.before_root_matches = 1;
	rep.layout.fec_roots_from = FV_ROOTS_INFERRED;
	ck_assert_int_eq(verity_show_check_end(&c, &rep), 2);
	ck_assert_ptr_nonnull(strstr(g.items, "dry_run=1 rewrite_parity=0 "
					      "signature=null before:{ "
					      "root_hash_matches=1 "
					      "bad_data_blocks=1 "
					      "bad_hash_blocks=1 "));
	ck_assert_ptr_nonnull(
		strstr(g.items, "repaired:[ { type=data position=4096 block=1 "
				"} } unrepaired:[ { type=hash position=8192 "
				"block=2 level=0 } } fec:{ roots=0 "
				"roots_from=size "));
	ck_assert_ptr_nonnull(strstr(g.items, "repairable_blocks=1 "
					      "unrepairable_blocks=1 "));
	ck_assert_ptr_nonnull(
		strstr(g.items, "result=corrupted exit_code=2 } "));
	ck_assert_str_eq(g.out, "");
	ck_assert_str_eq(g.err, "");
}
END_TEST

START_TEST(no_parity_refusals)
{
	struct ht_error err = {0};

	ck_assert_int_eq(verity_show_no_parity(1, "a.img", "avb", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "repair: a.img holds no parity it can use "
			 "(fastverity avb add_hashtree_footer makes "
			 "it, 4096-byte blocks)");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(verity_show_no_parity(0, NULL, "plain", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "repair: requires --fec-device");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(verity_show_no_parity(0, "x.img", "ddi", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "repair: x.img holds no parity: requires "
			 "--fec-device");
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(verity_show_no_parity(0, "dir/x.img", "sidecar", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "repair: requires --fec-device, or dir/x.img.fec");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"show_verify", 0, setup,
					    NULL,          0, NULL};

	return run_unit(
		&u,
		UNIT_TESTS(verify_well_says_nothing, verify_failures_up_to_max,
			   verify_max_zero_lists_none, verify_root_mismatch,
			   verify_fec_words, verify_fec_roots_from,
			   verify_signer_words, repair_text_lines,
			   repair_dry_run_and_parity, repair_parity_limit,
			   repair_root_still_wrong, verify_json_stream,
			   verify_json_well, verify_avb_signature,
			   verify_json_failed_closes, repair_json_document,
			   no_parity_refusals));
}
