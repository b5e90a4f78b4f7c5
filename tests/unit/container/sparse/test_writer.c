/* The sparse image writer (verity/container/sparse/writer.c): its cut,
 * appends, commit and close, read back by the reader. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "container/sparse/sparse_image.h"

/* The writer, avbtool's way: a cut inside a FILL chunk keeps its first
 * blocks, chunks appended after it are counted at commit; appended and
 * not committed, they are cut off on close; bytes after the last
 * counted chunk (an interrupted run) are refused by the reader and cut
 * by the next writer. */
START_TEST(writer)
{
	uint8_t r1[3 * BS], r2[2 * BS], *out;
	static const uint8_t pat[4] = {0x11, 0x22, 0x33, 0x44};
	struct verity_sparse_writer w;
	struct verity_sparse s;
	struct verity_device d;
	struct ht_error err;
	struct made m, want;
	long before;
	FILE *f;

	for (size_t i = 0; i < sizeof(r1); i++)
		r1[i] = (uint8_t)(i * 5 + 1);
	for (size_t i = 0; i < sizeof(r2); i++)
		r2[i] = (uint8_t)(i * 9 + 2);
	start(&m, 28, 12);
	add(&m, 0xcac1, 3, r1, sizeof(r1), 0);
	add(&m, 0xcac2, 4, pat, 4, 0);
	finish(&m, 0, 0);
	/* what the cut and the appends make: RAW 3, FILL 1, RAW 2, DONT_CARE 3 */
	start(&want, 28, 12);
	add(&want, 0xcac1, 3, r1, sizeof(r1), 0);
	add(&want, 0xcac2, 1, pat, 4, 0);
	add(&want, 0xcac1, 2, r2, sizeof(r2), 0);
	add(&want, 0xcac3, 3, NULL, 0, 0);

	ck_assert_int_eq(verity_sparse_writer_open(&w, path, &err), 0);
	ck_assert_int_eq(verity_sparse_cut(&w, 4 * BS + 100, &err), -EINVAL);
	ck_assert_int_eq(verity_sparse_cut(&w, 4 * BS, &err), 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_RAW,
					      sizeof(r2), r2, 0, &err),
			 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_DONT_CARE,
					      3 * BS, NULL, 0, &err),
			 0);
	ck_assert_int_eq(verity_sparse_commit(&w, &err), 0);
	verity_sparse_writer_close(&w);
	ck_assert_int_eq(read_image(&s, &err), 0);
	ck_assert_uint_eq(s.blocks, 9);
	ck_assert_uint_eq(s.chunks, 4);
	ck_assert_uint_eq(s.x.size, want.rlen);
	out = malloc(want.rlen);
	ck_assert_int_eq(verity_device_open(&d, path, VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_extents_read(&s.x, &d, 0, out, want.rlen, &err),
			 0);
	ck_assert(!memcmp(out, want.raw, want.rlen));
	verity_device_close(&d);
	verity_sparse_free(&s);

	/* appended, not committed: cut off on close */
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	before = ftell(f);
	fclose(f);
	ck_assert_int_eq(verity_sparse_writer_open(&w, path, &err), 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_RAW,
					      sizeof(r2), r2, 0, &err),
			 0);
	verity_sparse_writer_close(&w);
	ck_assert_int_eq(read_image(&s, &err), 0);
	ck_assert_uint_eq(s.chunks, 4);
	verity_sparse_free(&s);
	ck_assert_ptr_nonnull(f = fopen(path, "ab"));
	ck_assert_int_eq(ftell(f), before);
	/* bytes after the last chunk: refused, then cut by a writer */
	ck_assert_uint_eq(fwrite(r2, 1, 100, f), 100);
	fclose(f);
	ck_assert_int_eq(read_image(&s, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "100 bytes follow the last"));
	ck_assert_int_eq(verity_sparse_writer_open(&w, path, &err), 0);
	ck_assert_int_eq(verity_sparse_append(&w, VERITY_SPARSE_FILL, BS, NULL,
					      0x01020304, &err),
			 0);
	ck_assert_int_eq(verity_sparse_commit(&w, &err), 0);
	verity_sparse_writer_close(&w);
	ck_assert_int_eq(read_image(&s, &err), 0);
	ck_assert_uint_eq(s.chunks, 5);
	ck_assert_uint_eq(s.blocks, 10);
	verity_sparse_free(&s);
	free(out);
	free(m.file), free(m.raw);
	free(want.file), free(want.raw);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "sparse_writer", .setup = setup, .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(writer));
}
