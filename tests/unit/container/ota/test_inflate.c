/* Unit tests of the raw inflate of an OTA zip's deflated entries
 * (verity/container/ota/inflate.c): a stream deflated here comes back
 * whole; one cut short, one of other bytes, and one of another length
 * than the entry says are refused with the entry named. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "check_main.h"
#include "hashtree/error.h"
#include "verity/container/ota/ota.h"

/* n bytes at in, raw-deflated into out (*len bytes). */
static void deflate_raw(const uint8_t *in, size_t n, uint8_t *out,
			size_t *len)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, -15, 8,
				      Z_DEFAULT_STRATEGY),
			 Z_OK);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)*len;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	*len = z.total_out;
	deflateEnd(&z);
}

START_TEST(round_trip)
{
	static uint8_t in[5000], d[6000], out[5001];
	struct ht_error err = {0};
	size_t n = sizeof(d);

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i % 251 < 100 ? 'a' : i);
	deflate_raw(in, sizeof(in), d, &n);
	ck_assert_int_eq(verity_ota_inflate(d, n, out, sizeof(in), "e", &err),
			 0);
	ck_assert_mem_eq(out, in, sizeof(in));
	/* another length than the entry's */
	ck_assert_int_eq(verity_ota_inflate(d, n, out, sizeof(in) - 1, "e",
					    &err),
			 -EINVAL);
	ck_assert_int_eq(verity_ota_inflate(d, n, out, sizeof(in) + 1, "e",
					    &err),
			 -EINVAL);
	/* cut short */
	ck_assert_int_eq(verity_ota_inflate(d, n / 2, out, sizeof(in), "e",
					    &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "e: its deflated data"));
	/* other bytes */
	memset(d, 0xff, n);
	ck_assert_int_eq(verity_ota_inflate(d, n, out, sizeof(in), "e", &err),
			 -EINVAL);
	ck_assert_int_eq(verity_ota_inflate(d, 0, out, 0, "e", &err), -EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "inflate"};

	return run_unit(&u, UNIT_TESTS(round_trip));
}
