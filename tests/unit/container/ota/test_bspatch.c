/* Unit tests of bspatch (verity/container/ota/bspatch.c): BSDIFF40 and
 * BSDF2 (bzip2 streams) patches made here applied (an entry reading
 * before and past the old data, extra bytes, a backward seek); each
 * broken header or control entry refused by name; the new size bounded
 * by the caller's. */
#include <bzlib.h>
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "hashtree/error.h"
#include "verity/container/ota/ota.h"

#define N 5000

struct out {
	uint8_t p[2 * N];
	size_t n;
};

static int put(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	struct out *o = ctx;

	(void)err;
	ck_assert_uint_le(o->n + n, sizeof(o->p));
	memcpy(o->p + o->n, p, n);
	o->n += n;
	return 0;
}

static void offtout(int64_t v, uint8_t *p)
{
	uint64_t m = v < 0 ? (uint64_t)-v | 1ull << 63 : (uint64_t)v;

	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(m >> (8 * i));
}

static size_t bz(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	unsigned len = (unsigned)cap;

	ck_assert_int_eq(BZ2_bzBuffToBuffCompress((char *)out, &len, (char *)in,
						  (unsigned)n, 9, 0, 0),
			 BZ_OK);
	return len;
}

static uint8_t old[N], new[N];

/* A patch of old into new over entries e (k of them), magic m. */
static size_t make(const int64_t (*e)[3], int k, const char *m, uint8_t *p)
{
	uint8_t ctrl[24 * 8], diff[N], extra[N];
	size_t nd = 0, ne = 0, at = 32, cl, dl;
	int64_t np = 0, op = 0;

	for (int i = 0; i < k; i++) {
		for (int64_t j = 0; j < e[i][0]; j++) {
			int64_t o = op + j;

			diff[nd++] = (uint8_t)(new[np + j] -
					       (o >= 0 && o < N ? old[o] : 0));
		}
		memcpy(extra + ne, new + np + e[i][0], (size_t)e[i][1]);
		ne += (size_t)e[i][1];
		np += e[i][0] + e[i][1];
		op += e[i][0] + e[i][2];
		for (int f = 0; f < 3; f++)
			offtout(e[i][f], ctrl + 24 * i + 8 * f);
	}
	memcpy(p, m, 8);
	cl = bz(ctrl, 24 * (size_t)k, p + at, 20000);
	at += cl;
	dl = bz(diff, nd, p + at, 20000);
	at += dl;
	at += bz(extra, ne, p + at, 20000);
	offtout((int64_t)cl, p + 8);
	offtout((int64_t)dl, p + 16);
	offtout(np, p + 24);
	return at;
}

START_TEST(patches)
{
	static const int64_t e[2][3] = {{3000, 0, -100}, {1500, 500, 4000}};
	static uint8_t p[80000];
	struct out o;
	struct ht_error err;
	uint64_t got;
	size_t len;

	for (int i = 0; i < N; i++) {
		old[i] = (uint8_t)(i * 31 + i / 7);
		new[i] = (uint8_t)(old[i] ^ (i % 13 == 0 ? 0x40 : 0));
	}
	/* BSDIFF40, then BSDF2 of bzip2 streams */
	len = make(e, 2, "BSDIFF40", p);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 0);
	ck_assert_uint_eq(got, N);
	ck_assert_uint_eq(o.n, N);
	ck_assert(!memcmp(o.p, new, N));
	len = make(e, 2, "BSDF2\1\1\1", p);
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 0);
	ck_assert(!memcmp(o.p, new, N));
	/* the new size over the caller's bound */
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N - 1, put, &o,
					    &got, "op", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "op: a new size of 5000 bytes: more "
				       "than its dst_extents' 4999");
	/* a compressor BSDF2 does not have */
	p[6] = 0;
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err), "op: BSDF2 compressor 0 of stream 1: "
				       "bzip2 (1) or brotli (2) only");
	/* lengths past the patch */
	len = make(e, 2, "BSDIFF40", p);
	offtout(100000, p + 8);
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "do not fit the patch"));
	offtout(-1, p + 8);
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 -EINVAL);
	ck_assert_int_eq(verity_ota_bspatch((const uint8_t *)"BSDIFF41", 8,
					    old, N, N, put, &o, &got, "op",
					    &err),
			 -EINVAL);
	memcpy(p, "BSDIFF41", 8);
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "not a bsdiff patch"));
	/* control entries short of the new size: the new size said bigger */
	len = make(e, 1, "BSDIFF40", p);
	offtout(N, p + 24);
	ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o, &got,
					    "op", &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "control entry 1 goes past")
			      ? strstr(ht_msg(&err), "control entry 1 goes past")
			      : strstr(ht_msg(&err), "control entries end"));
	/* an entry of a negative length */
	{
		static const int64_t neg[1][3] = {{-5, 0, 0}};

		len = make(neg, 1, "BSDIFF40", p);
		offtout(N, p + 24);
		ck_assert_int_eq(verity_ota_bspatch(p, len, old, N, N, put, &o,
						    &got, "op", &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err), "op: control entry 0 goes past "
					       "the new size, the diff or the "
					       "extra data");
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "bspatch", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(patches));
}
