/* verity/pairs/held.c on pairs of files made here: a pair made with the
 * defaults, its root (bytes, hex, a root hash file), parity and
 * signature set and checked, a copy that outlives its original, an
 * opened image's pair, a sidecar image's files, a request (parameters
 * from the superblock, an update's block count, a root needed), and
 * format, verify, update and repair run on the held pair. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/fec/rs.h"
#include "verity/pairs/held.h"
#include "verity/tree/params.h"

#define BS     4096u
#define BLOCKS 64u

static char dir[32], data[64], hash[64], fec[64];
static const struct verity_run run = {.ht = {.threads = 1}};

static void put_file(const char *p, const void *b, size_t n)
{
	FILE *f = fopen(p, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

static void put_at(const char *p, size_t off, const void *b, size_t n)
{
	FILE *f = fopen(p, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

static void hsetup(void)
{
	uint8_t *b = malloc((size_t)BLOCKS * BS);

	strcpy(dir, "/tmp/fv-held-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(data, sizeof(data), "%s/data.raw", dir);
	snprintf(hash, sizeof(hash), "%s/data.verity", dir);
	snprintf(fec, sizeof(fec), "%s/data.fec", dir);
	for (size_t i = 0; i < (size_t)BLOCKS * BS; i++)
		b[i] = (uint8_t)(i * 13 + i / 4093);
	put_file(data, b, (size_t)BLOCKS * BS);
	free(b);
}

static void hteardown(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct verity_held *held(void)
{
	struct verity_held *pr;
	struct ht_error err;

	ck_assert_int_eq(verity_held_new(data, hash, &pr, &err), 0);
	return pr;
}

static int clean(const struct verity_outcome *o)
{
	const struct ht_verify_result *r = &o->res;

	return r->root_matches && !r->bad_data_blocks && !r->bad_hash_blocks &&
	       !r->unreadable_blocks;
}

START_TEST(new_defaults)
{
	struct verity_held *a = held(), *b = held();
	char *s = NULL;
	struct ht_error err;

	ck_assert_str_eq(a->pair.data.path, data);
	ck_assert_ptr_eq(a->pair.data.path, a->data);
	ck_assert_ptr_eq(a->pair.hash.path, a->hash);
	ck_assert_str_eq(a->params.hash_name, "sha256");
	ck_assert_uint_eq(a->params.data_block_size, BS);
	ck_assert_uint_eq(a->params.hash_block_size, BS);
	ck_assert_uint_eq(a->params.hash_type, 1);
	ck_assert_uint_eq(a->params.salt_size, 32);
	/* a salt and UUID of each pair's own */
	ck_assert_mem_ne(a->params.salt, b->params.salt, 32);
	ck_assert_mem_ne(a->params.uuid, b->params.uuid, 16);
	ck_assert_uint_eq(a->pair.root_size, 0);
	ck_assert_ptr_null(a->fec);
	verity_held_free(b);
	/* a hash path of NULL stays NULL */
	ck_assert_int_eq(verity_held_new(data, NULL, &b, &err), 0);
	ck_assert_ptr_null(b->hash);
	verity_held_free(b);
	/* strings: copied, replaced, cleared */
	ck_assert_int_eq(verity_held_string(&s, "x", &err), 0);
	ck_assert_str_eq(s, "x");
	ck_assert_int_eq(verity_held_string(&s, "yz", &err), 0);
	ck_assert_str_eq(s, "yz");
	ck_assert_int_eq(verity_held_string(&s, NULL, &err), 0);
	ck_assert_ptr_null(s);
	verity_held_free(a);
	verity_held_free(NULL);
}
END_TEST

START_TEST(roots)
{
	static const uint8_t r32[32] = {0xab, 1, 2, 3};
	uint8_t big[HT_MAX_DIGEST_SIZE + 1] = {0};
	struct verity_held *pr = held();
	struct ht_error err;
	char hex[2 * HT_MAX_DIGEST_SIZE + 2], path[80];

	ck_assert_int_eq(verity_held_set_root(pr, r32, 32, &err), 0);
	ck_assert_uint_eq(pr->pair.root_size, 32);
	ck_assert_mem_eq(pr->pair.root, r32, 32);
	ck_assert_int_eq(strncmp(pr->root_hex, "ab010203", 8), 0);
	ck_assert_uint_eq(strlen(pr->root_hex), 64);
	/* none, or more than the largest digest */
	ck_assert_int_eq(verity_held_set_root(pr, r32, 0, &err), -EINVAL);
	ck_assert_int_eq(verity_held_set_root(pr, big, sizeof(big), &err),
			 -EINVAL);
	ck_assert_uint_eq(pr->pair.root_size, 32); /* left as it was */
	/* as hex: any length of whole bytes; odd, empty, not hex, too long
	 * refused */
	ck_assert_int_eq(verity_held_set_root_hex(pr, "00ff", &err), 0);
	ck_assert_uint_eq(pr->pair.root_size, 2);
	ck_assert_str_eq(pr->root_hex, "00ff");
	ck_assert_int_eq(verity_held_set_root_hex(pr, "abc", &err), -EINVAL);
	ck_assert_int_eq(verity_held_set_root_hex(pr, "", &err), -EINVAL);
	ck_assert_int_eq(verity_held_set_root_hex(pr, "zz", &err), -EINVAL);
	memset(hex, 'a', sizeof(hex) - 1);
	hex[sizeof(hex) - 1] = '\0';
	ck_assert_int_eq(verity_held_set_root_hex(pr, hex, &err), -EINVAL);
	ck_assert_uint_eq(pr->pair.root_size, 2);

	/* open_root: checked against the digest's size (sha256: 64
	 * digits), as text or in a file, not both */
	memset(hex, '1', 64);
	hex[64] = '\0';
	ck_assert_int_eq(verity_held_open_root(pr, NULL, NULL, &err), 0);
	ck_assert_uint_eq(pr->pair.root_size, 2);
	ck_assert_int_eq(verity_held_open_root(pr, hex, NULL, &err), 0);
	ck_assert_uint_eq(pr->pair.root_size, 32);
	ck_assert_int_eq(verity_held_open_root(pr, "00ff", NULL, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "'00ff'"));
	hex[10] = 'g';
	ck_assert_int_eq(verity_held_open_root(pr, hex, NULL, &err), -EINVAL);
	hex[10] = '1';
	snprintf(path, sizeof(path), "%s/root", dir);
	put_file(path, "22\n", 3);
	ck_assert_int_eq(verity_held_open_root(pr, NULL, path, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), path));
	ck_assert_int_eq(verity_held_open_root(pr, hex, path, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "give one"));
	put_file(path, "", 0);
	ck_assert_int_eq(verity_held_open_root(pr, NULL, path, &err), -EINVAL);
	hex[0] = '3';
	put_file(path, hex, 64);
	ck_assert_int_eq(verity_held_open_root(pr, NULL, path, &err), 0);
	ck_assert_str_eq(pr->root_hex, hex);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(verity_held_open_root(pr, NULL, path, &err), -EINVAL);
	/* sha512: 128 digits */
	strcpy(pr->params.hash_name, "sha512");
	ck_assert_int_eq(verity_held_open_root(pr, hex, NULL, &err), -EINVAL);
	verity_held_free(pr);
}
END_TEST

START_TEST(parity_and_signature)
{
	static const uint8_t der[3] = {0x30, 1, 0};
	struct verity_held *pr = held();
	struct ht_error err;

	ck_assert_int_eq(verity_held_set_fec(pr, fec, 4096, 2, &err), 0);
	ck_assert_str_eq(pr->pair.fec.region.path, fec);
	ck_assert_ptr_eq(pr->pair.fec.region.path, pr->fec);
	ck_assert_uint_eq(pr->pair.fec.offset, 4096);
	ck_assert_uint_eq(pr->pair.fec.roots, 2);
	/* roots past the code's; 0 (told from the size) taken */
	ck_assert_int_eq(verity_held_set_fec(pr, fec, 0, FEC_MIN_ROOTS - 1,
					     &err),
			 -EINVAL);
	ck_assert_int_eq(verity_held_set_fec(pr, fec, 0, FEC_MAX_ROOTS + 1,
					     &err),
			 -EINVAL);
	ck_assert_uint_eq(pr->pair.fec.roots, 2);
	ck_assert_int_eq(verity_held_set_fec(pr, fec, 0, 0, &err), 0);
	ck_assert_uint_eq(pr->pair.fec.roots, 0);
	/* none: offset and roots cleared (any roots then taken) */
	ck_assert_int_eq(verity_held_set_fec(pr, NULL, 8192, 99, &err), 0);
	ck_assert_ptr_null(pr->pair.fec.region.path);
	ck_assert_ptr_null(pr->fec);
	ck_assert_uint_eq(pr->pair.fec.offset, 0);
	ck_assert_uint_eq(pr->pair.fec.roots, 0);

	ck_assert_int_eq(verity_held_set_signature(pr, der, 0, "s", &err),
			 -EINVAL);
	ck_assert_int_eq(verity_held_set_signature(pr, der, 3, "sig.p7s", &err),
			 0);
	ck_assert_ptr_ne(pr->signature, der); /* copied */
	ck_assert_ptr_eq(pr->pair.signature, pr->signature);
	ck_assert_uint_eq(pr->pair.signature_size, 3);
	ck_assert_str_eq(pr->pair.signature_name, "sig.p7s");
	ck_assert_int_eq(pr->pair.signature_found, 0);
	/* none: the name goes too */
	ck_assert_int_eq(verity_held_set_signature(pr, NULL, 5, "x", &err), 0);
	ck_assert_ptr_null(pr->pair.signature);
	ck_assert_uint_eq(pr->pair.signature_size, 0);
	ck_assert_ptr_null(pr->pair.signature_name);
	verity_held_free(pr);
}
END_TEST

START_TEST(copy_outlives)
{
	static const uint8_t der[4] = {0x30, 2, 5, 0};
	struct verity_held *pr = held(), *c;
	struct ht_error err;

	ck_assert_int_eq(verity_held_set_root_hex(pr, "0102", &err), 0);
	ck_assert_int_eq(verity_held_set_fec(pr, fec, 0, 2, &err), 0);
	ck_assert_int_eq(verity_held_set_signature(pr, der, 4, "sig", &err),
			 0);
	pr->pair.signature_found = 1;
	pr->params.data_blocks = 9;
	ck_assert_int_eq(verity_held_copy(pr, &c, &err), 0);
	/* the same, in memory of its own */
	ck_assert_ptr_ne(c->data, pr->data);
	ck_assert_ptr_eq(c->pair.data.path, c->data);
	ck_assert_ptr_eq(c->pair.hash.path, c->hash);
	ck_assert_ptr_eq(c->pair.fec.region.path, c->fec);
	ck_assert_ptr_eq(c->pair.signature, c->signature);
	ck_assert_ptr_eq(c->pair.signature_name, c->signature_name);
	ck_assert_mem_eq(c->params.salt, pr->params.salt, 32);
	ck_assert_uint_eq(c->params.data_blocks, 9);
	ck_assert_uint_eq(c->pair.fec.roots, 2);
	ck_assert_int_eq(c->pair.signature_found, 1);
	verity_held_free(pr);
	ck_assert_str_eq(c->pair.data.path, data);
	ck_assert_str_eq(c->pair.hash.path, hash);
	ck_assert_str_eq(c->pair.fec.region.path, fec);
	ck_assert_str_eq(c->root_hex, "0102");
	ck_assert_mem_eq(c->pair.signature, der, 4);
	ck_assert_str_eq(c->pair.signature_name, "sig");
	verity_held_free(c);
}
END_TEST

START_TEST(of_an_image)
{
	static const uint8_t der[2] = {0x30, 0};
	struct ddi_verity v;
	struct gpt_partition sig;
	struct verity_pair src;
	struct verity_held *pr;
	struct verity_held_image img = {"img.raw", VERITY_CONTAINER_SUPER,
					VERITY_TRUST_CHECK,
					VERITY_SIGNATURE_FOUND, 1, NULL};
	struct ht_error err;

	memset(&src, 0, sizeof(src));
	verity_params_default(&src.params);
	src.data = (struct verity_region){"img.raw", 4096, 8192, NULL};
	src.hash = (struct verity_region){"img.raw", 12288, 0, NULL};
	src.fec.region.path = "img.raw";
	src.fec.offset = 65536;
	src.root[0] = 0xee;
	src.root_size = 32;
	src.signature = der;
	src.signature_size = 2;
	src.signature_name = "embedded";
	ck_assert_int_eq(verity_held_of_image(&src, &img, &pr, &err), 0);
	ck_assert_int_eq(pr->of_image, 1);
	ck_assert_str_eq(pr->image, "img.raw");
	ck_assert_ptr_eq(pr->pair.data.path, pr->data);
	ck_assert_uint_eq(pr->pair.data.offset, 4096);
	ck_assert_uint_eq(pr->pair.hash.offset, 12288);
	ck_assert_ptr_eq(pr->pair.fec.region.path, pr->fec);
	ck_assert_uint_eq(pr->pair.fec.offset, 65536);
	ck_assert_ptr_eq(pr->pair.signature, pr->signature);
	ck_assert_ptr_ne(pr->pair.signature, der);
	ck_assert_int_eq(strncmp(pr->root_hex, "ee00", 4), 0);
	ck_assert_int_eq(pr->pair.data_blocks_given, 1);
	/* a super image's pair is an Android image's */
	ck_assert_int_eq(pr->pair.container, VERITY_CONTAINER_AVB);
	ck_assert_int_eq(pr->opened, VERITY_TRUST_CHECK);
	ck_assert_int_eq(pr->writes, 1);
	ck_assert_int_eq(pr->pair.signature_found, 1);
	ck_assert_str_eq(pr->fingerprint, "");
	verity_held_free(pr);
	/* a disk image's: its fingerprint and signature partition kept;
	 * no signature found */
	memset(&v, 0, sizeof(v));
	memset(&sig, 0, sizeof(sig));
	sig.index = 7;
	v.sig = &sig;
	snprintf(v.fingerprint, sizeof(v.fingerprint), "%064d", 5);
	img.kind = VERITY_CONTAINER_DDI;
	img.from = VERITY_SIGNATURE_NONE;
	img.ddi = &v;
	src.signature = NULL;
	src.fec.region.path = NULL;
	ck_assert_int_eq(verity_held_of_image(&src, &img, &pr, &err), 0);
	ck_assert_int_eq(pr->pair.container, VERITY_CONTAINER_DDI);
	ck_assert_str_eq(pr->fingerprint, v.fingerprint);
	ck_assert_uint_eq(pr->fingerprint_at, 7);
	ck_assert_int_eq(pr->pair.signature_found, 0);
	ck_assert_ptr_null(pr->pair.fec.region.path);
	verity_held_free(pr);
}
END_TEST

START_TEST(sidecar_image)
{
	struct verity_held *pr;
	struct ht_error err;
	char p[80], hex[65];

	/* the image alone: its tree named, nothing else */
	ck_assert_int_eq(verity_held_sidecar(data, &pr, &err), 0);
	ck_assert_str_eq(pr->pair.hash.path, hash);
	ck_assert_ptr_null(pr->pair.fec.region.path);
	ck_assert_ptr_null(pr->pair.signature);
	ck_assert_uint_eq(pr->pair.root_size, 0);
	ck_assert_int_eq(pr->pair.container, VERITY_CONTAINER_SIDECAR);
	verity_held_free(pr);
	/* with its root hash, parity and signature */
	memset(hex, 'c', 64);
	hex[64] = '\0';
	snprintf(p, sizeof(p), "%s/data.roothash", dir);
	put_file(p, hex, 64);
	put_file(fec, "f", 1);
	snprintf(p, sizeof(p), "%s/data.roothash.p7s", dir);
	put_file(p, "\x30\x03\x02\x01\x00", 5);
	ck_assert_int_eq(verity_held_sidecar(data, &pr, &err), 0);
	ck_assert_str_eq(pr->pair.fec.region.path, fec);
	ck_assert_uint_eq(pr->pair.fec.roots, 0);
	ck_assert_str_eq(pr->root_hex, hex);
	ck_assert_uint_eq(pr->pair.root_size, 32);
	ck_assert_uint_eq(pr->pair.signature_size, 5);
	ck_assert_str_eq(pr->pair.signature_name, p);
	ck_assert_int_eq(pr->pair.signature_found, 1);
	verity_held_free(pr);
	/* a signature file that is empty, a root hash file not hex:
	 * refused, nothing made */
	put_file(p, "", 0);
	pr = (struct verity_held *)1;
	ck_assert_int_lt(verity_held_sidecar(data, &pr, &err), 0);
	ck_assert_ptr_null(pr);
	unlink(p);
	snprintf(p, sizeof(p), "%s/data.roothash", dir);
	put_file(p, "xyz", 3);
	ck_assert_int_eq(verity_held_sidecar(data, &pr, &err), -EINVAL);
	ck_assert_ptr_null(pr);
}
END_TEST

START_TEST(format_check_update_repair)
{
	struct verity_held *pr = held(), *back;
	struct verity_held_request q = {0};
	struct verity_outcome out;
	struct verity_update_result u;
	struct verity_layout layout;
	struct verity_run dry = run;
	struct ht_error err;
	char root[2 * HT_MAX_DIGEST_SIZE + 1], first[2 * HT_MAX_DIGEST_SIZE + 1];
	const uint64_t range[2] = {5 * BS, BS}; /* bytes */
	uint8_t junk[16];

	/* no root yet: nothing to check against */
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no root hash"));
	ck_assert_int_eq(verity_held_set_fec(pr, fec, 0, 2, &err), 0);
	ck_assert_int_eq(verity_held_format(pr, &run, &out, &err), 0);
	ck_assert_uint_eq(pr->params.data_blocks, BLOCKS);
	ck_assert_uint_eq(pr->pair.root_size, 32);
	ck_assert_mem_eq(pr->pair.root, out.root, 32);
	strcpy(first, pr->root_hex);
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), 0);
	ck_assert(clean(&out));

	/* another held pair made of the files: parameters from the
	 * superblock, the root from text, the parity given */
	ck_assert_int_eq(verity_held_new(data, hash, &back, &err), 0);
	q.root_hex = first;
	q.fec_path = fec;
	q.fec_roots = 2;
	ck_assert_int_eq(verity_held_request(back, &q, &err), 0);
	ck_assert_uint_eq(back->params.data_blocks, BLOCKS);
	ck_assert_mem_eq(back->params.salt, pr->params.salt, 32);
	ck_assert_str_eq(back->root_hex, first);
	ck_assert_str_eq(back->pair.fec.region.path, fec);
	ck_assert_int_eq(verity_held_check(back, &run, 0, &out, &err), 0);
	ck_assert(clean(&out));
	/* update: another block count than the tree's refused; a root
	 * needed and none given refused */
	q.update = 1;
	q.data_blocks = BLOCKS + 1;
	ck_assert_int_eq(verity_held_request(back, &q, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "a tree's size"));
	q.data_blocks = BLOCKS;
	ck_assert_int_eq(verity_held_request(back, &q, &err), 0);
	ck_assert_int_eq(back->pair.data_blocks_given, 1);
	q.root_hex = NULL;
	q.root_needed = 1;
	ck_assert_int_eq(verity_held_request(back, &q, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no root hash to update"));
	/* a signature file that is not there */
	q.root_needed = 0;
	q.signature_path = "/nonexistent/sig";
	ck_assert_int_lt(verity_held_request(back, &q, &err), 0);
	verity_held_free(back);

	/* block 5 changed: the update rewrites what it reaches, the new
	 * root checks */
	memset(junk, 0x77, sizeof(junk));
	put_at(data, 5 * BS + 100, junk, sizeof(junk));
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), 0);
	ck_assert(!clean(&out));
	ck_assert_uint_eq(out.res.bad_data_blocks, 1);
	ck_assert_int_eq(verity_held_update(pr, range, 1, &run, &u, &layout,
					    &err),
			 0);
	ck_assert_uint_eq(u.changed_blocks, 1);
	ck_assert_str_ne(pr->root_hex, first);
	ck_assert_mem_eq(pr->pair.root, u.root, 32);
	strcpy(root, pr->root_hex);
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), 0);
	ck_assert(clean(&out));
	/* nothing changed (ranges given, none): the same root */
	ck_assert_int_eq(verity_held_update(pr, range, 0, &run, &u, &layout,
					    &err),
			 0);
	ck_assert_str_eq(pr->root_hex, root);

	/* repair: block 9 damaged, rebuilt from the parity */
	put_at(data, 9 * BS, junk, sizeof(junk));
	dry.flags = VERITY_RUN_DRY_RUN;
	ck_assert_int_eq(verity_held_check(pr, &dry, 1, &out, &err), 0);
	ck_assert_uint_eq(out.fec.repaired, 1);
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), 0);
	ck_assert(!clean(&out));
	ck_assert_int_eq(verity_held_check(pr, &run, 1, &out, &err), 0);
	ck_assert_uint_eq(out.fec.repaired, 1);
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), 0);
	ck_assert(clean(&out));
	/* an image's pair opened to be read: no repair that writes (a dry
	 * run may); none without parity */
	pr->of_image = 1;
	ck_assert_int_eq(verity_held_check(pr, &run, 1, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "opened to be read"));
	ck_assert_int_eq(verity_held_check(pr, &dry, 1, &out, &err), 0);
	pr->writes = 1;
	ck_assert_int_eq(verity_held_check(pr, &run, 1, &out, &err), 0);
	ck_assert_int_eq(verity_held_set_fec(pr, NULL, 0, 0, &err), 0);
	ck_assert_int_eq(verity_held_check(pr, &run, 1, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "repair needs FEC"));
	/* a disk image's pair: its trust as verify says; an Android
	 * image's: the open's verdict */
	pr->pair.container = VERITY_CONTAINER_AVB;
	pr->opened = VERITY_TRUST_UNCHECKED;
	ck_assert_int_eq(verity_held_check(pr, &run, 0, &out, &err), 0);
	ck_assert_int_eq(out.trust, VERITY_TRUST_UNCHECKED);
	verity_held_free(pr);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"held", 0, hsetup, hteardown, 0,
					    NULL};

	return run_unit(&u, UNIT_TESTS(new_defaults, roots,
				       parity_and_signature, copy_outlives,
				       of_an_image, sidecar_image,
				       format_check_update_repair));
}
