/* Unit tests of the OTA payload reader (verity/container/ota/payload.c):
 * a payload made here (header, manifest, metadata signature, blobs,
 * payload signature) read back field by field, then each field made
 * wrong refused with the field named. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "container/ota/pb.h"
#include "hashtree/error.h"
#include "verity/container/ota/payload.h"

#define BS 4096u

/* What the payload is made of; a test changes one thing. */
struct spec {
	uint64_t major;
	uint32_t block_size;
	uint64_t part_size; /* new_partition_info.size */
	size_t hash_len;    /* new_partition_info.hash */
	uint64_t data_len;  /* the one operation's blob */
	uint64_t op_offset; /* its data_offset */
	uint64_t dst_start, dst_blocks;
	uint32_t type;
	uint64_t sig_size; /* the payload signature (0: none) */
	int delta;
	int garbage_manifest;
	int64_t manifest_size_delta; /* added to the header's */
};

static struct spec good(void)
{
	return (struct spec){.major = 2, .block_size = BS,
			     .part_size = 3 * BS, .hash_len = 32,
			     .data_len = 100, .op_offset = 0,
			     .dst_start = 0, .dst_blocks = 3, .type = 8,
			     .sig_size = 256};
}

/* The payload of s (*len bytes). */
static uint8_t *make(const struct spec *s, size_t *len)
{
	struct pb man = {0}, part = {0}, info = {0}, op = {0}, ext = {0};
	struct pb meta = {0}, psig = {0}, out = {0};
	uint8_t hash[64], hdr[24];
	uint8_t *blob = calloc(1, s->data_len);

	ck_assert_ptr_nonnull(blob);
	memset(hash, 0xab, sizeof(hash));
	pb_signatures(&meta, 256, 0x11);
	if (s->sig_size)
		pb_signatures(&psig, s->sig_size, 0x22);
	pb_u(&man, 3, s->block_size);
	pb_u(&man, 4, s->data_len);
	pb_u(&man, 5, psig.n);
	pb_u(&man, 12, s->delta ? 4 : 0);
	pb_ld(&part, 1, "system", 6);
	pb_u(&info, 1, s->part_size);
	pb_ld(&info, 2, hash, s->hash_len);
	if (s->delta) {
		struct pb old = {0};

		pb_u(&old, 1, s->part_size);
		pb_ld(&old, 2, hash, 32);
		pb_msg(&part, 6, &old);
	}
	pb_msg(&part, 7, &info);
	pb_u(&op, 1, s->type);
	pb_u(&op, 2, s->op_offset);
	pb_u(&op, 3, s->data_len);
	pb_u(&ext, 1, s->dst_start);
	pb_u(&ext, 2, s->dst_blocks);
	pb_msg(&op, 6, &ext);
	pb_ld(&op, 8, hash, 32);
	pb_msg(&part, 8, &op);
	pb_msg(&man, 13, &part);
	pb_u(&man, 14, 1788220800);
	if (s->garbage_manifest)
		memset(man.p, 0xff, man.n);
	memcpy(hdr, "CrAU", 4);
	for (int i = 0; i < 8; i++) {
		hdr[4 + i] = (uint8_t)(s->major >> (56 - 8 * i));
		hdr[12 + i] = (uint8_t)((man.n + (uint64_t)s->manifest_size_delta) >>
					(56 - 8 * i));
	}
	for (int i = 0; i < 4; i++)
		hdr[20 + i] = (uint8_t)(meta.n >> (24 - 8 * i));
	pb_bytes(&out, hdr, 24);
	pb_bytes(&out, man.p, man.n);
	pb_bytes(&out, meta.p, meta.n);
	pb_bytes(&out, blob, s->data_len);
	if (psig.n)
		pb_bytes(&out, psig.p, psig.n);
	free(man.p);
	free(meta.p);
	free(psig.p);
	free(blob);
	*len = out.n;
	return out.p;
}

/* s's payload read: 0 or the error, its message in msg. */
static int read_spec(const struct spec *s, struct verity_payload *p,
		     const char **msg)
{
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct ht_error err = {0};
	size_t len;
	uint8_t *b = make(s, &len);
	int r;

	verity_ota_mem_src(&src, &mem, b, len, "p.bin");
	r = verity_payload_read(&src, 0, len, p, &err);
	*msg = ht_msg(&err);
	free(b);
	return r;
}

START_TEST(read_back)
{
	struct spec s = good();
	struct verity_payload p;
	const ChromeosUpdateEngine__PartitionUpdate *u;
	const char *msg;

	ck_assert_int_eq(read_spec(&s, &p, &msg), 0);
	ck_assert_uint_eq(p.major, 2);
	ck_assert_uint_eq(p.block_size, BS);
	ck_assert_uint_eq(p.metadata_size, 24 + p.manifest_size);
	ck_assert_uint_eq(p.blobs, p.metadata_size + 267);
	ck_assert_int_eq(p.ends_file, 1);
	ck_assert_uint_eq(p.m->n_partitions, 1);
	u = p.m->partitions[0];
	ck_assert_str_eq(u->partition_name, "system");
	ck_assert_uint_eq(u->new_partition_info->size, 3 * BS);
	ck_assert_uint_eq(u->n_operations, 1);
	ck_assert_uint_eq(u->operations[0]->type, 8);
	ck_assert_str_eq(verity_payload_op_name(8), "REPLACE_XZ");
	ck_assert_str_eq(verity_payload_op_name(14), "REPLACE_ZSTD");
	ck_assert_ptr_null(verity_payload_op_name(15));
	ck_assert_uint_eq(p.metadata_sig->n_signatures, 1);
	ck_assert_uint_eq(p.metadata_sig->signatures[0]->data.len, 256);
	ck_assert_uint_eq(p.payload_sig->signatures[0]->unpadded_signature_size,
			  256);
	ck_assert_int_eq(p.m->max_timestamp, 1788220800);
	verity_payload_free(&p);
	/* a delta's old partition, and no payload signature */
	s.delta = 1;
	s.sig_size = 0;
	ck_assert_int_eq(read_spec(&s, &p, &msg), 0);
	ck_assert_ptr_nonnull(p.m->partitions[0]->old_partition_info);
	ck_assert_ptr_null(p.payload_sig);
	verity_payload_free(&p);
}
END_TEST

/* s refused with a message holding want. */
static void refused(const struct spec *s, const char *want)
{
	struct verity_payload p;
	const char *msg;

	ck_assert_int_eq(read_spec(s, &p, &msg), -EINVAL);
	ck_assert_msg(strstr(msg, want), "'%s' lacks '%s'", msg, want);
	ck_assert_ptr_nonnull(strstr(msg, "p.bin"));
}

START_TEST(malformed)
{
	struct spec s;

	s = good(), s.major = 1;
	refused(&s, "major version 1");
	s = good(), s.block_size = 3000;
	refused(&s, "block_size 3000");
	s = good(), s.hash_len = 31;
	refused(&s, "new_partition_info.hash is 31 bytes");
	s = good(), s.op_offset = 1;
	refused(&s, "data_offset 1, data_length 100");
	s = good(), s.dst_blocks = 4;
	refused(&s, "dst_extents[0] (blocks 0+4)");
	s = good(), s.dst_start = UINT64_MAX - 1, s.dst_blocks = 4;
	refused(&s, "dst_extents[0]");
	s = good(), s.garbage_manifest = 1;
	refused(&s, "the manifest: not a valid protobuf");
	s = good(), s.manifest_size_delta = 1 << 24;
	refused(&s, "manifest_size");
	s = good(), s.manifest_size_delta = 10000;
	refused(&s, "past the payload's end");
}
END_TEST

START_TEST(short_and_foreign)
{
	static const uint8_t junk[40] = "CrAX";
	struct verity_ota_src src;
	struct verity_ota_mem mem;
	struct verity_payload p;
	struct ht_error err = {0};

	verity_ota_mem_src(&src, &mem, junk, sizeof(junk), "j");
	ck_assert_int_eq(verity_payload_probe(&src, 0), 0);
	ck_assert_int_eq(verity_payload_read(&src, 0, sizeof(junk), &p, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no magic CrAU"));
	verity_ota_mem_src(&src, &mem, "CrAU", 4, "j");
	ck_assert_int_eq(verity_payload_probe(&src, 0), 1);
	ck_assert_int_eq(verity_payload_read(&src, 0, 4, &p, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "shorter than its"));
	/* a payload said to go past its source */
	ck_assert_int_eq(verity_payload_read(&src, 2, 4, &p, &err), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "payload"};

	return run_unit(&u, UNIT_TESTS(read_back, malformed, short_and_foreign));
}
