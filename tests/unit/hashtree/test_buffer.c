/* hashtree/buffer.c: large working buffers: zeroed and writable to the
 * last byte on each side of the sizes where the way they are made
 * changes (malloc below 64 KiB, a populated mapping from there, whole
 * 2 MiB pages aligned to 2 MiB from 1 MiB on), and freed with the size
 * they were asked with. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/buffer.h"

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 4093)
		if (p[i])
			return 0;
	return !p[n - 1];
}

START_TEST(each_size)
{
	static const size_t sizes[] = {
		1,
		4096,
		(64u << 10) - 1,
		64u << 10,
		(64u << 10) + 1,
		(1u << 20) - 1,
		1u << 20,
		(2u << 20) + 1,
		5u << 20,
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		uint8_t *p = ht_buffer_alloc(n);

		ck_assert_ptr_nonnull(p);
		ck_assert(all_zero(p, n));
		p[0] = 1;
		p[n - 1] = 2;
		memset(p, 0xa5, n);
		if (n >= 1u << 20)
			ck_assert_uint_eq((uintptr_t)p % (2u << 20), 0);
		ht_buffer_free(p, n);
	}
}
END_TEST

/* A buffer of 0 bytes is one to free, not NULL; NULL frees nothing. */
START_TEST(edges)
{
	void *p = ht_buffer_alloc(0);

	ck_assert_ptr_nonnull(p);
	ht_buffer_free(p, 0);
	ht_buffer_free(NULL, 0);
	ht_buffer_free(NULL, 8u << 20);
}
END_TEST

/* Memory freed is given back: buffers of each kind made and freed in
 * turn do not accumulate (an unmapped tail, a wrong size freed, would
 * leak address space or fail). */
START_TEST(reuse)
{
	for (int k = 0; k < 8; k++) {
		uint8_t *a = ht_buffer_alloc(3u << 20);
		uint8_t *b = ht_buffer_alloc(100u << 10);

		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_nonnull(b);
		ck_assert_uint_eq(a[(3u << 20) - 1], 0);
		ck_assert_uint_eq(b[(100u << 10) - 1], 0);
		a[k] = b[k] = 1;
		ht_buffer_free(a, 3u << 20);
		ht_buffer_free(b, 100u << 10);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "buffer"};

	return run_unit(&u, UNIT_TESTS(each_size, edges, reuse));
}
