/* verity/ops/ops.c: the operations on a pair, on files made here: the
 * signature checked before any block as the door's verdict says (none,
 * never judged, not checked, checked, and one that does not hold: no
 * block read); verify root first, with parity a dry-run repair; dump's
 * parameters from the superblock, or as given without one, the parity
 * described; format and dump through an Android sparse image's
 * unsparsed bytes; open refusing a sparse image the kernel cannot map,
 * before any device-mapper call. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "check_main.h"
#include "unit_files.h" /* (before sparse_image.h: its global path) */
#include "container/sparse/sparse_image.h"
#include "verity/ops/ops.h"
#include "verity/sign/signature.h"

#define BLOCKS 64u

static char dir[64];
static char *data, *hash, *fec, *key, *cert;
static uint8_t root[HT_MAX_DIGEST_SIZE];

static char *p(const char *name)
{
	return unit_path(dir, "/tmp/fv-ops.XXXXXX", name);
}

static void make_signer(void)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *n;
	FILE *f;

	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 3);
	X509_gmtime_adj(X509_getm_notBefore(x), -60);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, k);
	n = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
				   (const unsigned char *)"fv ops", -1, -1, 0);
	X509_set_issuer_name(x, n);
	ck_assert_int_gt(X509_sign(x, k, EVP_sha256()), 0);
	f = fopen(key, "w");
	PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	fclose(f);
	f = fopen(cert, "w");
	PEM_write_X509(f, x);
	fclose(f);
	X509_free(x);
	EVP_PKEY_free(k);
}

static void pair_of(struct verity_pair *pr, int with_fec)
{
	memset(pr, 0, sizeof(*pr));
	verity_params_default(&pr->params);
	pr->data.path = data;
	pr->hash.path = hash;
	if (with_fec) {
		pr->fec.region.path = fec;
		pr->fec.roots = 2;
	}
}

static void osetup(void)
{
	struct verity_pair pr;
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t *b = malloc(BLOCKS * 4096);
	FILE *f;

	setup(); /* sparse_image.h's path */
	data = p("data");
	hash = p("hash");
	fec = p("fec");
	key = p("k.pem");
	cert = p("c.pem");
	for (size_t i = 0; i < BLOCKS * 4096; i++)
		b[i] = (uint8_t)(i * 19 + i / 4096);
	f = fopen(data, "wb");
	ck_assert_uint_eq(fwrite(b, 1, BLOCKS * 4096, f), BLOCKS * 4096);
	fclose(f);
	free(b);
	pair_of(&pr, 1);
	ck_assert_msg(verity_op_format(&pr, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	memcpy(root, pr.root, sizeof(root));
	make_signer();
}

static void oteardown(void)
{
	char cmd[96];

	teardown();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(data);
	free(hash);
	free(fec);
	free(key);
	free(cert);
}

static int reports;

static void count(void *ctx, const struct verity_failure *f)
{
	(void)ctx;
	(void)f;
	reports++;
}

START_TEST(signatures)
{
	struct verity_signer s = {key, cert, NULL, NULL, 0};
	const char *trusted[] = {cert};
	struct verity_run run = {
		.ht = {.threads = 1}, .trusted = trusted, .ntrusted = 1};
	struct verity_pair pr;
	struct verity_outcome out;
	struct ht_error err = {0};
	char hex[65];
	uint8_t *der;
	size_t len;

	pair_of(&pr, 0);
	memcpy(pr.root, root, 32);
	pr.root_size = 32;
	/* none */
	ck_assert_int_eq(verity_op_check_signature(&pr, &run, &out, &err), 0);
	ck_assert_int_eq(out.trust, VERITY_TRUST_UNSIGNED);
	ck_assert_int_eq(out.signature_checked, 0);
	verity_hex_encode(root, 32, hex);
	ck_assert_int_eq(verity_sign(&s, hex, &der, &len, &err), 0);
	pr.signature = der;
	pr.signature_size = len;
	pr.signature_name = "root.p7s";
	/* never judged: refused */
	ck_assert_int_eq(verity_op_check_signature(&pr, &run, &out, &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "root.p7s: the signature was not "
				       "judged by the trust policy");
	/* judged, not to be checked */
	pr.judged = 1;
	pr.trust = VERITY_TRUST_UNCHECKED;
	ck_assert_int_eq(verity_op_check_signature(&pr, &run, &out, &err), 0);
	ck_assert_int_eq(out.trust, VERITY_TRUST_UNCHECKED);
	ck_assert_int_eq(out.signature_checked, 0);
	/* checked */
	pr.trust = VERITY_TRUST_CHECK;
	ck_assert_msg(verity_op_check_signature(&pr, &run, &out, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(out.signature_checked, 1);
	ck_assert_ptr_nonnull(strstr(out.sig.signer, "fv ops"));
	/* verify: the verdict kept in the outcome */
	reports = 0;
	run.report = count;
	ck_assert_int_eq(verity_op_verify(&pr, &run, &out, &err), 0);
	ck_assert_int_eq(out.signature_checked, 1);
	ck_assert_int_eq(out.trust, VERITY_TRUST_CHECK);
	ck_assert_int_eq(out.res.root_matches, 1);
	/* a signature of another root: refused before any block */
	pr.root[0] ^= 1;
	ck_assert_int_eq(verity_op_verify(&pr, &run, &out, &err), -EPERM);
	ck_assert_int_eq(out.res.root_matches, 0);
	ck_assert_int_eq(reports, 0);
	/* no certificate to check it with */
	pr.root[0] ^= 1;
	run.ntrusted = 0;
	ck_assert_int_eq(verity_op_verify(&pr, &run, &out, &err), -EINVAL);
	free(der);
}
END_TEST

/* verify: root first (a wrong root stops before any block); with
 * parity a dry-run repair, its figures in the outcome. */
START_TEST(verify)
{
	struct verity_run run = {.ht = {.threads = 2}};
	struct verity_pair pr;
	struct verity_outcome out;
	struct ht_error err = {0};

	pair_of(&pr, 0);
	memcpy(pr.root, root, 32);
	pr.root_size = 32;
	ck_assert_int_eq(verity_op_verify(&pr, &run, &out, &err), 0);
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_int_eq(out.has_fec, 0);
	pr.root[5] ^= 1;
	reports = 0;
	run.report = count;
	ck_assert_int_eq(verity_op_verify(&pr, &run, &out, &err), 0);
	ck_assert_int_eq(out.res.root_first, 1);
	ck_assert_int_eq(reports, 0);
	/* with parity */
	pair_of(&pr, 1);
	memcpy(pr.root, root, 32);
	pr.root_size = 32;
	ck_assert_msg(verity_op_verify(&pr, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_int_eq(out.has_fec, 1);
	ck_assert_int_eq(out.res.root_matches, 1);
	ck_assert_uint_eq(out.fec.stale_codewords, 0);
	ck_assert_uint_eq(out.fec.repaired, 0);
}
END_TEST

START_TEST(dump)
{
	struct verity_pair pr;
	struct verity_outcome out;
	struct ht_error err = {0};

	pair_of(&pr, 1);
	pr.fec.roots = 0; /* told from the parity's size */
	ck_assert_msg(verity_op_dump(&pr, VERITY_DUMP_READ_SUPERBLOCK, &out,
				     &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_uint_eq(pr.params.data_blocks, BLOCKS);
	ck_assert_uint_eq(out.layout.geo.data_blocks, BLOCKS);
	ck_assert_uint_eq(out.layout.tree_offset, 4096);
	ck_assert_uint_eq(out.layout.fec.roots, 2);
	/* without a superblock: the parameters as given */
	pair_of(&pr, 0);
	pr.params.no_superblock = 1;
	pr.params.data_blocks = 10;
	ck_assert_int_eq(
		verity_op_dump(&pr, VERITY_DUMP_READ_SUPERBLOCK, &out, &err),
		0);
	ck_assert_uint_eq(out.layout.geo.data_blocks, 10);
	ck_assert_uint_eq(out.layout.tree_offset, 0);
	/* a superblock that is not there (the data's first block) */
	pair_of(&pr, 0);
	pr.hash.path = data;
	ck_assert_int_lt(
		verity_op_dump(&pr, VERITY_DUMP_READ_SUPERBLOCK, &out, &err),
		0);
	/* bad parameters given */
	pair_of(&pr, 0);
	pr.params.hash_block_size = 100;
	ck_assert_int_eq(verity_op_dump(&pr, 0, &out, &err), -EINVAL);
}
END_TEST

/* An Android sparse image as data: formatted and dumped through its
 * unsparsed bytes (the root of the raw bytes); open refuses it. */
START_TEST(sparse_data)
{
	uint8_t *raw = malloc(4 * 4096);
	char *rawp = p("raw"), *h1 = p("h1"), *h2 = p("h2");
	struct verity_run run = {.ht = {.threads = 1}};
	struct verity_pair pr;
	struct verity_outcome out;
	struct ht_error err = {0};
	uint8_t r1[32];
	struct made m;
	FILE *f;

	for (size_t i = 0; i < 4 * 4096; i++)
		raw[i] = (uint8_t)(i * 5 + 1);
	memset(raw + 2 * 4096, 0, 2 * 4096);
	start(&m, 28, 12);
	add(&m, 0xcac1, 2, raw, 2 * 4096, 0);
	add(&m, 0xcac3, 2, NULL, 0, 0);
	finish(&m, 0, 0);
	f = fopen(rawp, "wb");
	fwrite(raw, 1, 4 * 4096, f);
	fclose(f);
	memset(&pr, 0, sizeof(pr));
	verity_params_default(&pr.params);
	pr.data.path = rawp;
	pr.hash.path = h1;
	ck_assert_int_eq(verity_op_format(&pr, &run, &out, &err), 0);
	memcpy(r1, pr.root, 32);
	memset(&pr, 0, sizeof(pr));
	verity_params_default(&pr.params);
	pr.data.path = path;
	pr.hash.path = h2;
	ck_assert_msg(verity_op_format(&pr, &run, &out, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(pr.params.data_blocks, 4);
	ck_assert_mem_eq(pr.root, r1, 32);
	ck_assert_ptr_null(pr.data.extents);
	/* the same, read as a sidecar image's data: its file as it is (a
	 * sparse file's bytes are no whole blocks here) */
	memset(&pr, 0, sizeof(pr));
	verity_params_default(&pr.params);
	pr.data.path = path;
	pr.hash.path = h2;
	pr.container = VERITY_CONTAINER_SIDECAR;
	ck_assert_int_lt(verity_op_format(&pr, &run, &out, &err), 0);
	/* open: refused before device-mapper, naming simg2img */
	memset(&pr, 0, sizeof(pr));
	verity_params_default(&pr.params);
	pr.data.path = path;
	pr.hash.path = h1;
	ck_assert_int_eq(verity_op_open("fv-unit-never", &pr, &run, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "an Android sparse image, "
						   "which the kernel cannot "
						   "map"));
	free(m.file);
	free(m.raw);
	free(raw);
	free(rawp);
	free(h1);
	free(h2);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"ops",     0, osetup,
					    oteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(signatures, verify, dump, sparse_data));
}
