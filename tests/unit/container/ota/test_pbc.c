/* verity/container/ota/pbc.c: libprotobuf-c opened when a manifest is
 * first read, its messages unpacked through a counting allocator: an
 * Extent and an InstallOperation with repeated extents read (the
 * blocks freed through the same allocator: the leak check sees them);
 * a required field missing, a field cut short, a wire type that is not
 * the field's refused naming the message; freeing nothing is no work;
 * the packing calls the generated code names, never used, say nothing
 * was packed. */
#include "verity/container/ota/pbc.h"

#include "update_metadata.pb-c.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_main.h"
#include "container/ota/pb.h"

size_t verity_pbc_packed_size(const ProtobufCMessage *m);
size_t verity_pbc_pack(const ProtobufCMessage *m, uint8_t *out);

START_TEST(read_messages)
{
	struct pb b = {0}, e = {0};
	ProtobufCMessage *m;
	ChromeosUpdateEngine__Extent *x;
	ChromeosUpdateEngine__InstallOperation *op;
	struct ht_error err = {0};

	pb_u(&b, 1, 7);
	pb_u(&b, 2, (uint64_t)1 << 40);
	ck_assert_int_eq(
		verity_pbc_read(&chromeos_update_engine__extent__descriptor,
				b.p, b.n, "extent", &m, &err),
		0);
	x = (ChromeosUpdateEngine__Extent *)m;
	ck_assert(x->has_start_block);
	ck_assert_uint_eq(x->start_block, 7);
	ck_assert_uint_eq(x->num_blocks, (uint64_t)1 << 40);
	verity_pbc_free(m);
	free(b.p);
	memset(&b, 0, sizeof(b));
	/* an operation: its type, 300 source extents */
	pb_u(&b, 1, 1);
	pb_u(&b, 3, 4096);
	for (int i = 0; i < 300; i++) {
		pb_u(&e, 1, (uint64_t)i);
		pb_u(&e, 2, 1);
		pb_msg(&b, 4, &e);
	}
	ck_assert_int_eq(
		verity_pbc_read(
			&chromeos_update_engine__install_operation__descriptor,
			b.p, b.n, "operation 0", &m, &err),
		0);
	op = (ChromeosUpdateEngine__InstallOperation *)m;
	ck_assert_int_eq(op->type, 1);
	ck_assert_uint_eq(op->data_length, 4096);
	ck_assert_uint_eq(op->n_src_extents, 300);
	ck_assert_uint_eq(op->src_extents[299]->start_block, 299);
	verity_pbc_free(m);
	verity_pbc_free(NULL);
	free(b.p);
}
END_TEST

START_TEST(refused)
{
	static const char want[] =
		"manifest: not a valid protobuf message (a field of the wrong "
		"type, cut short, or a required one missing)";
	struct pb b = {0};
	ProtobufCMessage *m = (ProtobufCMessage *)1;
	struct ht_error err = {0};

	/* the required type missing */
	pb_u(&b, 3, 4096);
	ck_assert_int_eq(
		verity_pbc_read(
			&chromeos_update_engine__install_operation__descriptor,
			b.p, b.n, "manifest", &m, &err),
		-EINVAL);
	ck_assert_str_eq(ht_msg(&err), want);
	ck_assert_ptr_null(m);
	free(b.p);
	memset(&b, 0, sizeof(b));
	/* a length past the end */
	pb_u(&b, 1, 0);
	pb_ld(&b, 4, "\x08\x01", 2);
	b.p[b.n - 3] = 9; /* the extent's length: 9, 2 bytes there */
	ck_assert_int_eq(
		verity_pbc_read(
			&chromeos_update_engine__install_operation__descriptor,
			b.p, b.n, "manifest", &m, &err),
		-EINVAL);
	ck_assert_str_eq(ht_msg(&err), want);
	free(b.p);
	memset(&b, 0, sizeof(b));
	/* a varint field sent length-delimited */
	pb_ld(&b, 1, "abc", 3);
	ck_assert_int_eq(
		verity_pbc_read(&chromeos_update_engine__extent__descriptor,
				b.p, b.n, "manifest", &m, &err),
		-EINVAL);
	/* a varint that never ends */
	free(b.p);
	memset(&b, 0, sizeof(b));
	pb_bytes(&b, "\x08\xff\xff", 3);
	ck_assert_int_eq(
		verity_pbc_read(&chromeos_update_engine__extent__descriptor,
				b.p, b.n, "manifest", &m, &err),
		-EINVAL);
	free(b.p);
}
END_TEST

START_TEST(no_packing)
{
	ChromeosUpdateEngine__Extent x = CHROMEOS_UPDATE_ENGINE__EXTENT__INIT;
	uint8_t out[16] = {0};

	ck_assert_uint_eq(verity_pbc_packed_size(&x.base), 0);
	ck_assert_uint_eq(verity_pbc_pack(&x.base, out), 0);
	ck_assert_uint_eq(out[0], 0);
	ck_assert_str_eq(verity_pbc_empty_string, "");
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "pbc"};

	return run_unit(&u, UNIT_TESTS(read_messages, refused, no_packing));
}
