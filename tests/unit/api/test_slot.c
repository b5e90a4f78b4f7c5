/* verity/api/slot.c through <fastverity.h> alone (as a program sees
 * it): firmware sets, RSA and ML-DSA signed. */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "include/fastverity.h"

#include "api_test.h"

/* Firmware sets walked once (fv_slot_verify): a vbmeta chaining a
 * signed system image and including a hash footer's descriptor; each
 * step in order, its verdict and signer; bad data found and the walk
 * gone on; a chain below the top refused as libavb refuses it; the
 * same walk without
 * checks for the print commands; a super image's partition named
 * without its slot suffix. */
/* What fv_show said: stdout's text and stderr's. */
struct said {
	char out[4096], err[4096];
};

static int said_item(void *ctx, const struct fv_item *it)
{
	struct said *t = ctx;
	char *to = it->kind == FV_ITEM_TEXT    ? t->out
		   : it->kind == FV_ITEM_ERROR ? t->err
					       : NULL;

	if (to)
		snprintf(to + strlen(to), 4096 - strlen(to), "%s", it->text);
	return 0;
}

static struct fv_slot_info slot_info_of(const fv_slot *s)
{
	struct fv_slot_info in = {.size = sizeof(in)};

	ck_assert_int_eq(fv_slot_info(s, &in), 0);
	return in;
}

struct walked {
	size_t begun, ended;
};

static void on_step(void *c, const fv_slot *s, size_t i, int done)
{
	struct walked *w = c;

	ck_assert_uint_lt(i, slot_info_of(s).steps);
	if (done)
		w->ended++;
	else
		w->begun++;
}

static struct fv_slot_step step_of(const fv_slot *s, size_t i)
{
	struct fv_slot_step st = {.size = sizeof(st)};

	ck_assert_int_eq(fv_slot_step(s, i, &st), 0);
	return st;
}

START_TEST(firmware_sets)
{
	char sys[96], boot[96], key[96], pub[96], vb[96], vb2[96], sup[96];
	struct fv_vbmeta_chain chains[2] = {{"system", 1, pub, 0},
					    {"vbmeta_system", 2, pub, 0}};
	const char *include = boot, *cmdline = "quiet";
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .algorithm = "SHA256_RSA2048",
				      .key = key},
				 top = {.size = sizeof(top),
					.algorithm = "SHA256_RSA2048",
					.key = key,
					.chains = chains,
					.nchains = 1,
					.includes = &include,
					.nincludes = 1,
					.cmdlines = &cmdline,
					.ncmdlines = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system",
				      .hash = "sha256",
				      .block_size = BS,
				      .vbmeta = &v},
				 h = {.size = sizeof(h),
				      .kind = FV_FOOTER_HASH,
				      .partition_name = "boot",
				      .partition_size = 1 << 20};
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_slot_step st;
	struct walked w = {0, 0};
	const char *names[1] = {"system"};
	uint8_t *pk;
	size_t pklen, n;
	fv_slot *s;
	FILE *fp;

	snprintf(sys, sizeof(sys), "%s/system.img", dir);
	snprintf(boot, sizeof(boot), "%s/boot.img", dir);
	snprintf(key, sizeof(key), "%s/k.pem", dir);
	snprintf(pub, sizeof(pub), "%s/k.avbpubkey", dir);
	snprintf(vb, sizeof(vb), "%s/vbmeta.img", dir);
	snprintf(vb2, sizeof(vb2), "%s/vbmeta_system.img", dir);
	snprintf(sup, sizeof(sup), "%s/super.img", dir);
	write_file(sys, image, (size_t)BLOCKS * BS);
	write_file(boot, image, 64 * BS);
	make_key(key, 2048);
	ck_assert_int_eq(key_blob(key, &pk, &pklen), 0);
	ck_assert_ptr_nonnull(fp = fopen(pub, "wb"));
	ck_assert_uint_eq(fwrite(pk, 1, pklen, fp), pklen);
	fclose(fp);
	fv_free(pk);
	/* system signed by k (chained, pinned), boot unsigned (included) */
	ck_assert_int_eq(fv_avb_add_footer(sys, &f, NULL), 0);
	ck_assert_int_eq(fv_avb_add_footer(boot, &h, NULL), 0);
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &top, 0), 0);

	ck_assert_int_eq(fv_slot_verify(NULL, NULL, NULL, NULL, &s), -EINVAL);
	req.image = vb;
	req.key = key;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW;
	ck_assert_msg(fv_slot_verify(&req, NULL, on_step, &w, &s) == 0, "%s",
		      fv_last_error());
	/* vbmeta, chain system, its vbmeta, its tree, the command line,
	 * boot's hash (avbtool's order: chains, command lines, included) */
	n = slot_info_of(s).steps;
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(w.begun, n);
	ck_assert_uint_eq(w.ended, n);
	st = step_of(s, 0);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.signer, key);
	ck_assert_uint_eq(st.parent, SIZE_MAX);
	st = step_of(s, 1);
	ck_assert_int_eq(st.kind, FV_SLOT_CHAIN);
	ck_assert_str_eq(st.name, "system");
	ck_assert_str_eq(st.path, sys);
	ck_assert_int_eq(st.followed, 1);
	st = step_of(s, 2);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_uint_eq(st.depth, 1);
	ck_assert_uint_eq(st.parent, 1);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.signer, vb); /* the vbmeta that pins its key */
	st = step_of(s, 3);
	ck_assert_int_eq(st.kind, FV_SLOT_HASHTREE);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_ptr_nonnull(st.result_of);
	ck_assert_uint_eq(rpt(st.result_of).bad_data_blocks, 0);
	ck_assert_int_eq(step_of(s, 4).kind, FV_SLOT_CMDLINE);
	st = step_of(s, 5);
	ck_assert_int_eq(st.kind, FV_SLOT_HASH);
	ck_assert_str_eq(st.path, boot);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(fv_slot_step(s, 6, &st), -EINVAL);
	ck_assert_ptr_null(slot_info_of(s).super);
	ck_assert_str_eq(slot_info_of(s).slot, "");
	fv_slot_free(s);

	/* boot's data changed: its step BAD, the rest still walked */
	poke(boot, 10);
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	st = step_of(s, 5);
	ck_assert_int_eq(st.result, FV_SLOT_BAD);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_DIGEST);
	ck_assert_ptr_nonnull(strstr(st.message, "does not match"));
	ck_assert_int_eq(step_of(s, 3).result, FV_SLOT_OK);
	fv_slot_free(s);
	/* the same walk said (fv_show): boot's verdict on stdout, why on
	 * stderr, EPERM for what was found; avbtool's words stop there */
	{
		struct said t = {0};
		struct fv_show_request q = {.size = sizeof(q),
					    .what = FV_SHOW_SET_VERIFY,
					    .set = &req};

		ck_assert_int_eq(fv_show(&q, said_item, &t), EPERM);
		ck_assert_ptr_nonnull(strstr(t.out, "boot: hash of "));
		ck_assert_ptr_nonnull(strstr(t.out, ": FAILED.\n"));
		ck_assert_ptr_nonnull(strstr(t.err, "does not match"));
		memset(&t, 0, sizeof(t));
		q.what = FV_SHOW_AVB_VERIFY;
		ck_assert_int_eq(fv_show(&q, said_item, &t), EPERM);
		ck_assert_ptr_nonnull(strstr(t.out, "Verifying image "));
		ck_assert_ptr_nonnull(
			strstr(t.err, "Error verifying descriptor"));
		q.set = NULL;
		ck_assert_int_eq(fv_show(&q, said_item, &t), -EINVAL);
	}
	poke(boot, 10);

	/* another key given: the top refused, nothing under it checked */
	req.key = NULL;
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	ck_assert_int_eq(step_of(s, 0).trust, FV_TRUST_UNCHECKED);
	ck_assert_int_eq(step_of(s, 2).trust, FV_TRUST_UNCHECKED);
	fv_slot_free(s);

	/* a vbmeta that chains from a chained one: refused as libavb
	 * refuses it (a chain named twice: tests/cli/t_sets.sh) */
	req.key = key;
	v.chains = chains + 1;
	v.nchains = 1;
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb2, &v, 0), 0);
	top.nchains = 2;
	ck_assert_int_eq(fv_avb_make_vbmeta_image(vb, &top, 0), 0);
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	{
		size_t nested = 0;

		for (size_t i = 0; i < slot_info_of(s).steps; i++) {
			st = step_of(s, i);
			if (st.result != FV_SLOT_REFUSED)
				continue;
			ck_assert_int_eq(st.kind, FV_SLOT_CHAIN);
			ck_assert_int_eq(st.why, FV_SLOT_WHY_NESTED);
			ck_assert_uint_eq(st.depth, 1);
			nested++;
		}
		ck_assert_uint_eq(nested, 1);
	}
	fv_slot_free(s);
	/* without checks (the print commands): every chain followed once,
	 * nothing refused */
	req.flags = FV_SLOT_FOLLOW | FV_SLOT_FOLLOW_NESTED;
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	for (size_t i = 0; i < slot_info_of(s).steps; i++)
		ck_assert_int_ne(step_of(s, i).result, FV_SLOT_REFUSED);
	fv_slot_free(s);

	/* a super image: "system" is the slot's system_a */
	{
		long len;
		uint8_t *bytes;

		ck_assert_ptr_nonnull(fp = fopen(sys, "rb"));
		fseek(fp, 0, SEEK_END);
		len = ftell(fp);
		rewind(fp);
		bytes = malloc((size_t)len);
		ck_assert_uint_eq(fread(bytes, 1, (size_t)len, fp),
				  (size_t)len);
		fclose(fp);
		make_super(sup, bytes, (size_t)len);
		free(bytes);
	}
	memset(&req, 0, sizeof(req));
	req.size = sizeof(req);
	req.image = sup;
	req.key = key;
	req.partitions = names;
	req.npartitions = 1;
	req.flags = FV_SLOT_CHECK;
	ck_assert_msg(fv_slot_verify(&req, NULL, NULL, NULL, &s) == 0, "%s",
		      fv_last_error());
	ck_assert_ptr_nonnull(slot_info_of(s).super);
	ck_assert_str_eq(slot_info_of(s).slot, "a");
	ck_assert_uint_eq(slot_info_of(s).notes, 1);
	{
		/* a caller of a smaller structure gets what fits */
		struct fv_slot_info in = {
			.size = offsetof(struct fv_slot_info, super)};

		ck_assert_int_eq(fv_slot_info(s, &in), 0);
		ck_assert_uint_eq(in.size,
				  offsetof(struct fv_slot_info, super));
		ck_assert_uint_eq(in.notes, 1);
		ck_assert_ptr_null(in.super);
		in.size = sizeof(size_t);
		ck_assert_int_eq(fv_slot_info(s, &in), -EINVAL);
	}
	ck_assert_ptr_nonnull(strstr(slot_info_of(s).note[0],
				     "system is partition system_a"));
	st = step_of(s, 0);
	ck_assert_int_eq(st.kind, FV_SLOT_PARTITION);
	ck_assert_str_eq(st.name, "system_a");
	ck_assert_uint_eq(st.partition, 0);
	ck_assert_int_eq(step_of(s, 2).kind, FV_SLOT_HASHTREE);
	ck_assert_int_eq(step_of(s, 2).result, FV_SLOT_OK);
	fv_slot_free(s);
	/* slot b: its partition is empty, and named with a key: refused */
	req.slot = "b";
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	st = step_of(s, 0);
	ck_assert_str_eq(st.name, "system_b");
	ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_EMPTY);
	fv_slot_free(s);
	req.slot = "c";
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), -EINVAL);
	fv_slot_free(s);
	fv_slot_free(NULL);
	{
		struct fv_slot_info in = {.size = sizeof(in)};

		ck_assert_int_eq(fv_slot_info(NULL, &in), -EINVAL);
	}
}
END_TEST

/* A firmware set of both schemes (fv_slot_verify): an RSA vbmeta
 * pinning an ML-DSA-87 system image, an ML-DSA-65 vbmeta pinning an RSA
 * boot image; every signer judged, whichever its scheme; the top's key
 * given as its AVB blob; another key at the top, and a chained image
 * signed by another ML-DSA key than its pin, refused by name. */
static void write_blob(const char *key, const char *out)
{
	uint8_t *pk;
	size_t len;

	ck_assert_msg(key_blob(key, &pk, &len) == 0, "%s", fv_last_error());
	write_file(out, pk, len);
	fv_free(pk);
}

START_TEST(firmware_sets_mldsa)
{
	char rsa[96], rsapub[96], k65[96], k65pub[96], k87[96], k87pub[96],
		other[96], sys[96], boot[96], top[96];
	struct fv_vbmeta_chain chain = {"system", 1, k87pub, 0};
	struct fv_vbmeta_request v = {.size = sizeof(v),
				      .algorithm = "MLDSA87",
				      .key = k87},
				 vr = {.size = sizeof(vr),
				       .algorithm = "SHA256_RSA2048",
				       .key = rsa},
				 t = {.size = sizeof(t),
				      .algorithm = "SHA256_RSA2048",
				      .key = rsa,
				      .chains = &chain,
				      .nchains = 1};
	struct fv_footer_request f = {.size = sizeof(f),
				      .kind = FV_FOOTER_HASHTREE,
				      .partition_name = "system",
				      .hash = "sha256",
				      .block_size = BS,
				      .vbmeta = &v},
				 h = {.size = sizeof(h),
				      .kind = FV_FOOTER_HASH,
				      .partition_name = "boot",
				      .partition_size = 1 << 20,
				      .vbmeta = &vr};
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_slot_step st;
	fv_slot *s;

	snprintf(rsa, sizeof(rsa), "%s/rsa.pem", dir);
	snprintf(rsapub, sizeof(rsapub), "%s/rsa.avbpubkey", dir);
	snprintf(k65, sizeof(k65), "%s/k65.pem", dir);
	snprintf(k65pub, sizeof(k65pub), "%s/k65.avbpubkey", dir);
	snprintf(k87, sizeof(k87), "%s/k87.pem", dir);
	snprintf(k87pub, sizeof(k87pub), "%s/k87.avbpubkey", dir);
	snprintf(other, sizeof(other), "%s/other87.pem", dir);
	snprintf(sys, sizeof(sys), "%s/system.img", dir);
	snprintf(boot, sizeof(boot), "%s/boot.img", dir);
	snprintf(top, sizeof(top), "%s/vbmeta.img", dir);
	make_key(rsa, 2048);
	write_blob(rsa, rsapub);
	ck_assert_int_eq(key_generate("MLDSA65", k65), 0);
	ck_assert_int_eq(key_generate("MLDSA87", k87), 0);
	ck_assert_int_eq(key_generate("MLDSA87", other), 0);
	ck_assert_int_eq(key_generate("MLDSA87", other), -EEXIST);
	/* fv_avb_key's own checks: an op, and no member it does not read */
	{
		struct fv_avb_key_request q = {.size = sizeof(q), .key = k65};
		uint8_t *o;
		size_t n;

		ck_assert_int_eq(fv_avb_key(&q, &o, &n), -EINVAL);
		q.op = FV_AVB_KEY_BLOB;
		q.output = other;
		ck_assert_int_eq(fv_avb_key(&q, &o, &n), -EINVAL);
		q.op = FV_AVB_KEY_GENERATE;
		q.algorithm = "MLDSA65";
		ck_assert_int_eq(fv_avb_key(&q, NULL, NULL), -EINVAL);
		ck_assert_ptr_nonnull(strstr(fv_last_error(), "alone"));
	}
	write_blob(k65, k65pub);
	write_blob(k87, k87pub);
	write_file(sys, image, (size_t)BLOCKS * BS);
	write_file(boot, image, 64 * BS);

	/* system: ML-DSA-87; boot: RSA */
	ck_assert_msg(fv_avb_add_footer(sys, &f, NULL) == 0, "%s",
		      fv_last_error());
	ck_assert_int_eq(fv_avb_add_footer(boot, &h, NULL), 0);

	/* RSA at the top, pinning system's ML-DSA-87 key */
	ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0), 0);
	req.image = top;
	req.key = rsapub;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW;
	ck_assert_msg(fv_slot_verify(&req, NULL, NULL, NULL, &s) == 0, "%s",
		      fv_last_error());
	ck_assert_uint_eq(slot_info_of(s).steps, 4);
	st = step_of(s, 0);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(avb_info(st.avb).header.algorithm, "SHA256_RSA2048");
	st = step_of(s, 2);
	ck_assert_int_eq(st.kind, FV_SLOT_VBMETA);
	ck_assert_int_eq(st.result, FV_SLOT_OK);
	ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
	ck_assert_str_eq(st.signer, top);
	ck_assert_str_eq(avb_info(st.avb).header.algorithm, "MLDSA87");
	ck_assert_int_eq(step_of(s, 3).kind, FV_SLOT_HASHTREE);
	ck_assert_int_eq(step_of(s, 3).result, FV_SLOT_OK);
	fv_slot_free(s);

	/* system signed by another ML-DSA-87 key: refused, naming the pin */
	v.key = other;
	ck_assert_int_eq(fv_avb_add_footer(sys, &f, NULL), 0);
	ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
	st = step_of(s, 2);
	ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
	ck_assert_int_eq(st.why, FV_SLOT_WHY_PINNED_KEY);
	ck_assert_ptr_nonnull(strstr(st.message, "than the one"));
	fv_slot_free(s);

	/* ML-DSA-65 at the top, pinning boot's RSA key; its key given as
	 * the PEM key or the blob */
	chain = (struct fv_vbmeta_chain){"boot", 1, rsapub, 0};
	t.algorithm = "MLDSA65";
	t.key = k65;
	ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0), 0);
	for (int i = 0; i < 2; i++) {
		req.key = i ? k65pub : k65;
		ck_assert_msg(fv_slot_verify(&req, NULL, NULL, NULL, &s) == 0,
			      "%s", fv_last_error());
		st = step_of(s, 0);
		ck_assert_int_eq(st.result, FV_SLOT_OK);
		ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
		ck_assert_str_eq(avb_info(st.avb).header.algorithm, "MLDSA65");
		st = step_of(s, 2);
		ck_assert_int_eq(st.result, FV_SLOT_OK);
		ck_assert_int_eq(st.trust, FV_TRUST_CHECK);
		ck_assert_str_eq(avb_info(st.avb).header.algorithm,
				 "SHA256_RSA2048");
		ck_assert_int_eq(step_of(s, 3).kind, FV_SLOT_HASH);
		ck_assert_int_eq(step_of(s, 3).result, FV_SLOT_OK);
		fv_slot_free(s);
	}
	/* the key's digest (extract_public_key_digest): the same from the
	 * private key and its blob; deterministic signatures: the same
	 * image twice, hedged ones differ */
	{
		char d1[65], d2[65], again[96];
		uint8_t *bytes;
		size_t len;
		FILE *fp;

		ck_assert_int_eq(key_digest(k65, d1), 0);
		ck_assert_int_eq(key_digest(k65pub, d2), 0);
		ck_assert_str_eq(d1, d2);
		ck_assert_uint_eq(strlen(d1), 64);
		snprintf(again, sizeof(again), "%s/again.img", dir);
		t.sign_flags = 2;
		ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0), -EINVAL);
		for (int det = 0; det < 2; det++) {
			t.sign_flags = det ? FV_VBMETA_DETERMINISTIC : 0;
			ck_assert_int_eq(fv_avb_make_vbmeta_image(top, &t, 0),
					 0);
			ck_assert_int_eq(fv_avb_make_vbmeta_image(again, &t, 0),
					 0);
			ck_assert_ptr_nonnull(fp = fopen(top, "rb"));
			fseek(fp, 0, SEEK_END);
			len = (size_t)ftell(fp);
			rewind(fp);
			bytes = malloc(len);
			ck_assert_uint_eq(fread(bytes, 1, len, fp), len);
			fclose(fp);
			ck_assert_int_eq(same_file(again, bytes, len), det);
			free(bytes);
		}
	}
	/* another key at the top: ML-DSA-87's, RSA's */
	for (int i = 0; i < 2; i++) {
		req.key = i ? rsapub : k87pub;
		ck_assert_int_eq(fv_slot_verify(&req, NULL, NULL, NULL, &s), 0);
		st = step_of(s, 0);
		ck_assert_int_eq(st.result, FV_SLOT_REFUSED);
		ck_assert_int_eq(st.why, FV_SLOT_WHY_OTHER_KEY);
		fv_slot_free(s);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "api_slot",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(firmware_sets, firmware_sets_mldsa));
}
