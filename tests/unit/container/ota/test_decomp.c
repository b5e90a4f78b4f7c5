/* verity/container/ota/decomp.c: an OTA operation's blob decompressed,
 * on streams made here by bzip2, xz, zstd and brotli (its encoder opened
 * as the library opens its decoder): the bytes handed on in chunks, all
 * of them, up to the limit exactly and refused one byte past it; a
 * stream cut short, bytes after it, garbage refused naming the blob; an
 * empty stream; zstd frames one after another; a type that is none. */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <brotli/encode.h>
#include <bzlib.h>
#include <lzma.h>
#include <zstd.h>

#include "check_main.h"
#include "verity/container/ota/ota.h"

#define N (((size_t)1 << 20) + (1 << 18)) /* two of its 1 MiB chunks */

static uint8_t *plain;

struct sink {
	uint8_t *buf;
	size_t len, calls;
	int fail_at; /* put fails on this call (1-based) */
};

static int put(void *ctx, const uint8_t *p, size_t n, struct ht_error *err)
{
	struct sink *s = ctx;

	if (++s->calls == (size_t)s->fail_at)
		return ht_fail(err, EIO, "put fails");
	ck_assert_uint_le(s->len + n, N + 16);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

static void dsetup(void)
{
	plain = malloc(N);
	for (size_t i = 0; i < N; i++)
		plain[i] = (uint8_t)((i % 251) ^ (i / 4096));
}

static void dteardown(void)
{
	free(plain);
}

/* type's stream of n bytes of plain, malloc'd (*len); NULL when the
 * encoder is not here (brotli's, opened). */
static uint8_t *compress(unsigned type, size_t n, size_t *len)
{
	size_t cap = n + n / 2 + 4096;
	uint8_t *out = malloc(cap);

	if (type == 1) {
		unsigned l = (unsigned)cap;

		ck_assert_int_eq(BZ2_bzBuffToBuffCompress((char *)out, &l,
							  (char *)plain,
							  (unsigned)n, 1, 0, 0),
				 BZ_OK);
		*len = l;
	} else if (type == 8) {
		*len = 0;
		ck_assert_int_eq(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64,
							 NULL, plain, n, out,
							 len, cap),
				 LZMA_OK);
	} else if (type == 14) {
		*len = ZSTD_compress(out, cap, plain, n, 1);
		ck_assert(!ZSTD_isError(*len));
	} else {
		void *h = dlopen("libbrotlienc.so.1", RTLD_NOW | RTLD_LOCAL);
		__typeof__(BrotliEncoderCompress) *enc;
		void *f = h ? dlsym(h, "BrotliEncoderCompress") : NULL;

		if (!f) {
			free(out);
			if (h)
				dlclose(h);
			return NULL;
		}
		memcpy(&enc, &f, sizeof(enc));
		*len = cap;
		ck_assert(enc(1, 18, BROTLI_MODE_GENERIC, n, plain, len, out));
		dlclose(h);
	}
	return out;
}

static const unsigned types[] = {1, 8, 14, VERITY_OTA_BROTLI};

START_TEST(round_trips)
{
	struct sink s = {0};
	struct ht_error err = {0};
	uint64_t produced;

	s.buf = malloc(N + 16);
	for (size_t t = 0; t < 4; t++) {
		size_t len;
		uint8_t *c = compress(types[t], N, &len);

		if (!c)
			continue;
		s.len = s.calls = 0;
		ck_assert_msg(verity_ota_decompress(types[t], c, len, N, put,
						    &s, &produced, "blob 3",
						    &err) == 0,
			      "type %u: %s", types[t], ht_msg(&err));
		ck_assert_uint_eq(produced, N);
		ck_assert_uint_eq(s.len, N);
		ck_assert_uint_ge(s.calls, 2);
		ck_assert(!memcmp(s.buf, plain, N));
		/* one byte less may be filled: refused */
		s.len = s.calls = 0;
		ck_assert_int_eq(verity_ota_decompress(types[t], c, len, N - 1,
						       put, &s, &produced,
						       "blob 3", &err),
				 -EINVAL);
		ck_assert_str_eq(ht_msg(&err),
				 "blob 3: decompresses to more than the "
				 "1310719 bytes it may fill");
		ck_assert_uint_le(produced, N - 1);
		/* put's failure is the return */
		s.len = s.calls = 0;
		s.fail_at = 2;
		ck_assert_int_eq(verity_ota_decompress(types[t], c, len, N, put,
						       &s, &produced, "blob 3",
						       &err),
				 -EIO);
		s.fail_at = 0;
		free(c);
	}
	free(s.buf);
}
END_TEST

/* Cut short, bytes after the stream, garbage, nothing at all. */
START_TEST(refused)
{
	static const uint8_t junk[64] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct sink s = {0};
	struct ht_error err = {0};
	uint64_t produced;

	s.buf = malloc(N + 16);
	for (size_t t = 0; t < 4; t++) {
		size_t len;
		uint8_t *c = compress(types[t], 100000, &len), *more;

		if (!c)
			continue;
		/* cut short */
		s.len = 0;
		ck_assert_msg(verity_ota_decompress(types[t], c, len - 1, N,
						    put, &s, &produced, "op 9",
						    &err) == -EINVAL,
			      "type %u", types[t]);
		ck_assert_ptr_nonnull(strstr(ht_msg(&err), "op 9: "));
		s.len = 0;
		ck_assert_int_eq(verity_ota_decompress(types[t], c, len / 2, N,
						       put, &s, &produced,
						       "op 9", &err),
				 -EINVAL);
		/* bytes after it (zstd: a frame must follow) */
		more = malloc(len + 5);
		memcpy(more, c, len);
		memcpy(more + len, "TRAIL", 5);
		s.len = 0;
		ck_assert_int_eq(verity_ota_decompress(types[t], more, len + 5,
						       N, put, &s, &produced,
						       "op 9", &err),
				 -EINVAL);
		if (types[t] != 14)
			ck_assert_msg(strstr(ht_msg(&err), "5 bytes after the"),
				      "%s", ht_msg(&err));
		free(more);
		/* garbage; nothing */
		s.len = 0;
		ck_assert_int_eq(verity_ota_decompress(types[t], junk,
						       sizeof(junk), N, put, &s,
						       &produced, "op 9", &err),
				 -EINVAL);
		ck_assert_ptr_nonnull(
			strstr(ht_msg(&err), "op 9: not a valid"));
		s.len = 0;
		ck_assert_int_eq(verity_ota_decompress(types[t], junk, 0, N,
						       put, &s, &produced,
						       "op 9", &err),
				 -EINVAL);
		free(c);
	}
	ck_assert_int_eq(verity_ota_decompress(0, junk, 8, N, put, &s,
					       &produced, "op 9", &err),
			 -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "op 9: operation type 0: not a compressed REPLACE");
	ck_assert_int_eq(verity_ota_decompress(2, junk, 8, N, put, &s,
					       &produced, "op 9", &err),
			 -EINVAL);
	free(s.buf);
}
END_TEST

/* zstd: two frames one after the other, and an empty one. */
START_TEST(zstd_frames)
{
	struct sink s = {0};
	struct ht_error err = {0};
	uint64_t produced;
	size_t cap = ZSTD_compressBound(5000) * 2 + 64, a, b, e;
	uint8_t *c = malloc(cap);

	s.buf = malloc(N + 16);
	a = ZSTD_compress(c, cap, plain, 3000, 3);
	b = ZSTD_compress(c + a, cap - a, plain + 3000, 2000, 3);
	e = ZSTD_compress(c + a + b, cap - a - b, plain, 0, 3);
	ck_assert(!ZSTD_isError(a) && !ZSTD_isError(b) && !ZSTD_isError(e));
	ck_assert_int_eq(verity_ota_decompress(14, c, a + b + e, 5000, put, &s,
					       &produced, "op", &err),
			 0);
	ck_assert_uint_eq(produced, 5000);
	ck_assert_mem_eq(s.buf, plain, 5000);
	/* the empty frame alone: nothing, and no call */
	s.len = s.calls = 0;
	ck_assert_int_eq(verity_ota_decompress(14, c + a + b, e, 0, put, &s,
					       &produced, "op", &err),
			 0);
	ck_assert_uint_eq(produced, 0);
	ck_assert_uint_eq(s.calls, 0);
	free(c);
	free(s.buf);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"decomp",  0, dsetup,
					    dteardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(round_trips, refused, zstd_frames));
}
