/* verity/container/avb/vbmeta.c on bytes made here: AVB footers, vbmeta
 * blobs and descriptors (encoded and parsed back, then damaged), ML-DSA
 * signed ones included. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "check_main.h"
#include "verity/container/avb/image.h"
#include "verity/container/ddi/ddi.h"
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/policy/trust.h"

START_TEST(avb_descriptors_round_trip)
{
	static const uint8_t salt[4] = {1, 2, 3, 4}, digest[32] = {9};
	struct avb_descriptor d[3], *back;
	struct avb_buf b = {0};
	struct ht_error err;
	size_t n;

	memset(d, 0, sizeof(d));
	d[0].tag = AVB_TAG_HASHTREE;
	d[0].hashtree.dm_verity_version = 1;
	d[0].hashtree.p.image_size = 8192;
	d[0].hashtree.tree_offset = 8192;
	d[0].hashtree.data_block_size = d[0].hashtree.hash_block_size = 4096;
	strcpy(d[0].hashtree.p.hash_algorithm, "sha256");
	d[0].hashtree.p.name = (const uint8_t *)"system";
	d[0].hashtree.p.name_len = 6;
	d[0].hashtree.p.salt = salt;
	d[0].hashtree.p.salt_len = 4;
	d[0].hashtree.p.digest = digest;
	d[0].hashtree.p.digest_len = 32;
	d[1].tag = AVB_TAG_PROPERTY;
	d[1].property.key = (const uint8_t *)"k";
	d[1].property.key_len = 1;
	d[1].property.value = (const uint8_t *)"value";
	d[1].property.value_len = 5;
	d[2].tag = AVB_TAG_KERNEL_CMDLINE;
	d[2].cmdline.value = (const uint8_t *)"root=x";
	d[2].cmdline.value_len = 6;
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(verity_avb_descriptor_encode(&d[i], &b), 0);
	/* each padded to 8 bytes, as avbtool writes them */
	ck_assert_uint_eq(b.len % 8, 0);
	ck_assert_int_eq(
		verity_avb_descriptors_parse(b.p, b.len, "t", &back, &n, &err),
		0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(back[0].hashtree.p.image_size, 8192);
	ck_assert_uint_eq(back[0].hashtree.p.salt_len, 4);
	ck_assert_mem_eq(back[0].hashtree.p.digest, digest, 32);
	ck_assert_mem_eq(back[1].property.value, "value", 5);
	ck_assert_mem_eq(back[2].cmdline.value, "root=x", 6);
	free(back);
	/* a length past the end, then one not a multiple of 8 */
	b.p[14] = 0xff;
	ck_assert_int_eq(
		verity_avb_descriptors_parse(b.p, b.len, "t", &back, &n, &err),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "past the descriptors' end"));
	b.p[14] = 0;
	b.p[15] = 0xa3;
	ck_assert_int_eq(
		verity_avb_descriptors_parse(b.p, b.len, "t", &back, &n, &err),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not a multiple of 8"));
	verity_avb_buf_free(&b);
}
END_TEST

START_TEST(avb_footer_checks)
{
	struct avb_footer f = {1, 0, 4096, 8192, 512}, back;
	uint8_t buf[AVB_FOOTER_SIZE];
	struct ht_error err;

	verity_avb_footer_encode(&f, buf);
	ck_assert_int_eq(verity_avb_footer_parse(buf, 16384, "t", &back, &err),
			 0);
	ck_assert_uint_eq(back.vbmeta_offset, 8192);
	/* the vbmeta past the footer, the data larger than the file */
	ck_assert_int_eq(
		verity_avb_footer_parse(buf, 8192 + 64, "t", &back, &err),
		-EINVAL);
	f.original_image_size = 1 << 20;
	verity_avb_footer_encode(&f, buf);
	ck_assert_int_eq(verity_avb_footer_parse(buf, 16384, "t", &back, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "original image size"));
	/* the data reaching over the vbmeta (inside the file): refused,
	 * naming both fields; up to the vbmeta's offset it is taken */
	f.original_image_size = 8192 + 1;
	verity_avb_footer_encode(&f, buf);
	ck_assert_int_eq(verity_avb_footer_parse(buf, 16384, "t", &back, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(ht_msg(&err), "original image size 8193 reaches past the "
				"vbmeta offset 8192"));
	f.original_image_size = 8192;
	verity_avb_footer_encode(&f, buf);
	ck_assert_int_eq(verity_avb_footer_parse(buf, 16384, "t", &back, &err),
			 0);
	/* a vbmeta whose end wraps */
	f = (struct avb_footer){1, 0, 0, UINT64_MAX - 100, 512};
	verity_avb_footer_encode(&f, buf);
	ck_assert_int_eq(verity_avb_footer_parse(buf, 16384, "t", &back, &err),
			 -EINVAL);
	f = (struct avb_footer){2, 0, 0, 0, 256};
	verity_avb_footer_encode(&f, buf);
	ck_assert_int_eq(verity_avb_footer_parse(buf, 16384, "t", &back, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "version 2.0"));
}
END_TEST

/* ML-DSA vbmetas (types 7, 8: tests/avb/mldsa's images) validated as
 * libavb validates them: hash_size 0, the exact signature size, the key
 * blob's key_num_bytes and length; the signature over header and
 * auxiliary block, the padding after it not covered; an unknown type
 * refused by number. Run from the top of the tree. */
static uint8_t *slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(1 << 16);

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

static void put_be(uint8_t *p, int bytes, uint64_t v)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* The image with a change, parsed and checked: parse's code, and
 * check's (1 when parse failed); the message contains says. */
static void damaged(const uint8_t *img, size_t len, size_t at, int bytes,
		    uint64_t value, int want_parse, int want_check,
		    const char *says)
{
	uint8_t *copy = malloc(len);
	struct avb_vbmeta v;
	struct ht_error err = {0};
	int r;

	memcpy(copy, img, len);
	if (bytes)
		put_be(copy + at, bytes, value);
	else
		copy[at] ^= (uint8_t)value;
	r = verity_avb_vbmeta_parse(copy, len, "t", &v, &err);
	ck_assert_int_eq(r, want_parse);
	if (!r) {
		ck_assert_int_eq(verity_avb_vbmeta_check(&v, "t", &err),
				 want_check);
		verity_avb_vbmeta_free(&v);
	}
	if (says)
		ck_assert_msg(strstr(ht_msg(&err), says), "'%s' lacks '%s'",
			      ht_msg(&err), says);
	free(copy);
}

START_TEST(avb_mldsa_vbmeta)
{
	static const struct {
		const char *path, *name;
		unsigned type, sig, pk;
	} m[2] = {{"tests/avb/mldsa/vbmeta_mldsa65.img", "MLDSA65", 7, 3309,
		   1952},
		  {"tests/avb/mldsa/vbmeta_mldsa87.img", "MLDSA87", 8, 4627,
		   2592}};
	size_t len, aux, key;
	uint8_t *img = slurp_file(m[_i].path, &len);
	const struct verity_scheme *alg;
	struct avb_vbmeta v;
	struct ht_error err;
	char says[96];

	ck_assert_int_eq(verity_avb_vbmeta_parse(img, len, "t", &v, &err), 0);
	alg = verity_avb_algorithm(v.h.algorithm);
	ck_assert_str_eq(alg->name, m[_i].name);
	ck_assert_int_eq(verity_avb_algorithm_by_name(m[_i].name),
			 (int)m[_i].type);
	ck_assert_uint_eq(v.h.hash_size, 0);
	ck_assert_uint_eq(v.h.signature_size, m[_i].sig);
	ck_assert_uint_eq(v.h.public_key_size, 4 + m[_i].pk);
	ck_assert_uint_eq(v.h.auth_size, (m[_i].sig + 63) / 64 * 64);
	ck_assert_int_eq(verity_avb_vbmeta_check(&v, "t", &err), 0);
	aux = 256 + (size_t)v.h.auth_size;
	key = aux + (size_t)v.h.public_key_offset;
	verity_avb_vbmeta_free(&v);

	/* header fields: a hash, a signature size off by one, another type */
	damaged(img, len, 40, 8, 32, -EINVAL, 1, "do not fit");
	damaged(img, len, 56, 8, m[_i].sig - 1, -EINVAL, 1, "do not fit");
	damaged(img, len, 28, 4, 9, -EINVAL, 1, "vbmeta algorithm 9 is unknown");
	damaged(img, len, 28, 4, 15 - m[_i].type, -EINVAL, 1, "do not fit");
	/* the key blob: its length one short, key_num_bytes another's */
	damaged(img, len, 72, 8, 3 + m[_i].pk, 0, -EINVAL,
		"not 4 + ");
	snprintf(says, sizeof(says), "of %u key bytes", m[_i].pk - 1);
	damaged(img, len, key, 4, m[_i].pk - 1, 0, -EINVAL, says);
	damaged(img, len, key, 4, m[_i].pk == 1952 ? 2592 : 1952, 0, -EINVAL,
		"not 4 + ");
	/* a bit of the header, of the key, of the signature, of the
	 * auxiliary block's end: refused; the padding after the signature
	 * is not signed */
	damaged(img, len, 130, 0, 1, 0, -EPERM, "signature does not match");
	damaged(img, len, key + 100, 0, 0x10, 0, -EPERM,
		"signature does not match");
	damaged(img, len, 256 + 1000, 0, 0x80, 0, -EPERM,
		"signature does not match");
	damaged(img, len, len - 1, 0, 1, 0, -EPERM,
		"signature does not match");
	damaged(img, len, 256 + m[_i].sig, 0, 0xff, 0, 0, NULL);
	free(img);
}
END_TEST

static void loops(TCase *tc)
{
	tcase_add_loop_test(tc, avb_mldsa_vbmeta, 0, 2);
}

int main(void)
{
	static const struct unit_suite u = {.name = "vbmeta",
					    .loops = loops};

	return run_unit(&u, UNIT_TESTS(avb_descriptors_round_trip,
				       avb_footer_checks));
}
