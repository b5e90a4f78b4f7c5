/* The containers' parsers on bytes made here: AVB footers, vbmeta blobs
 * and descriptors (encoded and parsed back, then damaged), GPT headers
 * and entries (CRCs, ranges, overlaps), and a disk image's signature
 * JSON (made and parsed back, then malformed). */
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
#include "verity/api/registry.h"
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

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* A GPT header over entries: 4 entries of 128 bytes at sector 2. */
static void header(uint8_t h[512], const uint8_t *entries)
{
	memset(h, 0, 512);
	memcpy(h, "EFI PART", 8);
	put32(h + 8, 0x00010000);
	put32(h + 12, 92);
	put64(h + 24, 1);
	put64(h + 40, 34);
	put64(h + 48, 2000);
	put64(h + 72, 2);
	put32(h + 80, 4);
	put32(h + 84, 128);
	put32(h + 88, (uint32_t)crc32(0, entries, 4 * 128));
	put32(h + 16, (uint32_t)crc32(0, h, 92));
}

static void entry(uint8_t *e, uint8_t tag, uint64_t first, uint64_t last)
{
	memset(e, 0, 128);
	e[0] = tag;
	e[16] = tag;
	put64(e + 32, first);
	put64(e + 40, last);
	e[56] = 'p';
}

START_TEST(gpt_checks)
{
	uint8_t h[512], entries[4 * 128];
	struct gpt_header gh;
	struct gpt g;
	struct ht_error err;

	memset(entries, 0, sizeof(entries));
	entry(entries, 1, 34, 99);
	entry(entries + 2 * 128, 2, 100, 199);
	header(h, entries);
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err), 0);
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 0);
	ck_assert_uint_eq(g.nparts, 2);
	ck_assert_uint_eq(g.part[1].index, 3);
	ck_assert_uint_eq(g.part[1].offset, 100 * 512);
	ck_assert_uint_eq(g.part[1].size, 100 * 512);
	ck_assert_str_eq(g.part[0].label, "p");
	verity_gpt_free(&g);
	/* the image ends before the usable sectors do */
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 1000 * 512, "t", &gh, &err),
		-EINVAL);
	/* a header CRC that does not match */
	h[60] ^= 1;
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "GPT header: CRC"));
	/* overlapping partitions */
	entry(entries + 2 * 128, 2, 99, 199);
	header(h, entries);
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err), 0);
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "partitions 1 and 3 overlap"));
	/* past the usable sectors; and an entry CRC that does not match */
	entry(entries + 2 * 128, 2, 100, 2001);
	header(h, entries);
	ck_assert_int_eq(
		verity_gpt_header_parse(h, 512, 2048 * 512, "t", &gh, &err), 0);
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "partition 3: sectors 100"));
	entries[200] ^= 1;
	ck_assert_int_eq(verity_gpt_entries_parse(&gh, entries, "t", &g, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "GPT entries: CRC"));
}
END_TEST

START_TEST(ddi_signature_json)
{
	static const uint8_t der[5] = {0x30, 3, 2, 1, 7};
	char root[129], fp[65], *json, hex[65];
	uint8_t *back, buf[4096];
	size_t len;
	struct ht_error err;

	memset(hex, 'a', 64);
	hex[64] = 0;
	ck_assert_int_eq(verity_ddi_sig_json_make(hex, hex, der, sizeof(der),
						  &json, &err),
			 0);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, json, strlen(json));
	ck_assert_int_eq(verity_ddi_sig_json_parse(buf, sizeof(buf), "t", root,
						   &back, &len, fp, &err),
			 0);
	ck_assert_str_eq(root, hex);
	ck_assert_str_eq(fp, hex);
	ck_assert_uint_eq(len, sizeof(der));
	ck_assert_mem_eq(back, der, sizeof(der));
	free(back);
	free(json);
	/* not NUL-padded; a rootHash too short; upper case; no signature */
	memcpy(buf + 3000, "x", 1);
	ck_assert_int_eq(verity_ddi_sig_json_parse(buf, sizeof(buf), "t", root,
						   &back, &len, fp, &err),
			 -EINVAL);
	static const char *bad[] = {
		"{\"rootHash\":\"abcd\",\"signature\":\"MAMCAQc=\"}",
		"{\"rootHash\":"
		"\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAA\",\"signature\":\"MAMCAQc=\"}",
		"{\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\"}",
		"[1,2]",
		"{\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\",\"signature\":\"M!MCAQc=\"}",
		/* a key given twice, also spelled with an escape: json-c
		 * keeps the last, so the first would be read elsewhere */
		"{\"rootHash\":"
		"\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		"bbbbbbbbbbbbbb\",\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\",\"signature\":\"MAMCAQc=\"}",
		"{\"root\\u0048ash\":"
		"\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		"bbbbbbbbbbbbbb\",\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\",\"signature\":\"MAMCAQc=\"}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, bad[i], strlen(bad[i]));
		ck_assert_msg(verity_ddi_sig_json_parse(buf, sizeof(buf), "t",
							root, &back, &len, fp,
							&err) == -EINVAL,
			      "%s", bad[i]);
	}
}
END_TEST

/* The trust policy against its table (docs/trust.md), row by row. */
START_TEST(trust_table)
{
	static const enum verity_container cs[] = {
		VERITY_CONTAINER_PLAIN, VERITY_CONTAINER_SIDECAR,
		VERITY_CONTAINER_AVB, VERITY_CONTAINER_DDI};
	struct ht_error err;

	for (size_t c = 0; c < 4; c++)
		for (int sig = 0; sig < 3; sig++)
			for (int an = 0; an < 3; an++)
				for (int w = 0; w < 3; w++) {
					/* w 2: opening (activates) */
					struct verity_trust_ask a = {
						cs[c], "img",
						(enum verity_signature_from)sig,
						(enum verity_anchor)an, w == 1,
						w == 2};
					enum verity_anchor right =
						cs[c] == VERITY_CONTAINER_AVB
							? VERITY_ANCHOR_KEY
							: VERITY_ANCHOR_CERT;
					enum verity_trust t = 99;
					int want, r = verity_trust_decide(
							  &a, &t, &err);

					if (an != VERITY_ANCHOR_NONE &&
					    (enum verity_anchor)an != right)
						want = -EINVAL;
					else if (sig == VERITY_SIGNATURE_NONE)
						want = an ? -EPERM : 0;
					else if (an)
						want = 0;
					else
						want = (sig == VERITY_SIGNATURE_FOUND &&
							w != 1) ||
								       w == 2
							       ? 0
							       : -EINVAL;
					ck_assert_msg(r == want,
						      "%zu %d %d %d: %d", c,
						      sig, an, w, r);
					if (r)
						ck_assert(strstr(ht_msg(&err),
								 "img: "));
					else
						ck_assert_int_eq(
							t,
							!sig ? VERITY_TRUST_UNSIGNED
							: an ? VERITY_TRUST_CHECK
							     : VERITY_TRUST_UNCHECKED);
				}
}
END_TEST

static void put_file(const char *path, const void *p, size_t n, off_t at)
{
	FILE *f = fopen(path, "r+b");

	if (!f)
		f = fopen(path, "w+b");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseeko(f, at, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

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

/* The registry: one order, an image that reads two ways refused with
 * both readings, --container's choice honoured only when it applies. */
START_TEST(registry_order)
{
	char dir[] = "/tmp/fv-registry.XXXXXX", img[64], side[72];
	static uint8_t zeros[8192];
	uint8_t foot[AVB_FOOTER_SIZE] = "AVBf";
	enum verity_container k;
	struct ht_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/os.raw", dir);
	snprintf(side, sizeof(side), "%s/os.verity", dir);
	put_file(img, zeros, sizeof(zeros), 0);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_SIDECAR); /* reads no way */
	put_file(img, "EFI PART", 8, 512);             /* a GPT header */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_DDI);
	put_file(img, foot, sizeof(foot), sizeof(zeros) - sizeof(foot));
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-EINVAL);
	ck_assert(strstr(ht_msg(&err), "reads two ways, as an Android image"));
	ck_assert(strstr(ht_msg(&err), "and as a systemd disk image"));
	ck_assert_int_eq(err.param, HT_PARAM_CONTAINER);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_DDI, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_DDI);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AVB, &k, &err),
		0);
	ck_assert_int_eq(verity_container_identify(
				 img, VERITY_CONTAINER_SIDECAR, &k, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_container_identify(img, VERITY_CONTAINER_PLAIN,
						   &k, &err),
			 -EINVAL);
	put_file(side, zeros, 512, 0); /* os.verity beside it: three ways */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-EINVAL);
	put_file(img, "\x3a\xff\x26\xed\x01\x00\x00\x00\x1c\x00\x0c\x00", 12,
		 0); /* a sparse header first: refused before the rest */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-EINVAL);
	ck_assert(strstr(ht_msg(&err), "sparse"));
	/* sidecar files asked for: the image as it is, its chunk list
	 * never read */
	ck_assert_int_eq(verity_container_identify(
				 img, VERITY_CONTAINER_SIDECAR, &k, &err),
			 0);
	ck_assert_int_eq(k, VERITY_CONTAINER_SIDECAR);
	unlink(side);
	unlink(img);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-ENODEV);
	rmdir(dir);
}
END_TEST

static void loops(TCase *tc)
{
	tcase_add_loop_test(tc, avb_mldsa_vbmeta, 0, 2);
}

int main(void)
{
	static const struct unit_suite u = {.name = "containers",
					    .loops = loops};

	return run_unit(&u, UNIT_TESTS(avb_descriptors_round_trip,
				       avb_footer_checks, gpt_checks,
				       ddi_signature_json, trust_table,
				       registry_order));
}
