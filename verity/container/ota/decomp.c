/* An OTA operation's blob decompressed (verity/container/ota/ota.h,
 * verity_ota_decompress): bzip2 (REPLACE_BZ), xz (REPLACE_XZ) and zstd
 * (REPLACE_ZSTD), each library opened when first needed, as zlib is
 * (inflate.c): few runs of the command apply an operation. */
#include "verity/container/ota/ota.h"

#include <brotli/decode.h>
#include <bzlib.h>
#include <errno.h>
#include <lzma.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "hashtree/dl.h"

#define OUT_CHUNK (1u << 20)

static struct {
	__typeof__(BZ2_bzDecompressInit) *init;
	__typeof__(BZ2_bzDecompress) *run;
	__typeof__(BZ2_bzDecompressEnd) *end;
	char why[256];
	pthread_once_t once;
} bz = {.once = PTHREAD_ONCE_INIT};

static struct {
	__typeof__(lzma_stream_decoder) *init;
	__typeof__(lzma_code) *run;
	__typeof__(lzma_end) *end;
	char why[256];
	pthread_once_t once;
} xz = {.once = PTHREAD_ONCE_INIT};

static struct {
	__typeof__(ZSTD_createDStream) *create;
	__typeof__(ZSTD_initDStream) *init;
	__typeof__(ZSTD_decompressStream) *run;
	__typeof__(ZSTD_freeDStream) *free;
	__typeof__(ZSTD_isError) *is_error;
	char why[256];
	pthread_once_t once;
} zs = {.once = PTHREAD_ONCE_INIT};

static struct {
	__typeof__(BrotliDecoderCreateInstance) *create;
	__typeof__(BrotliDecoderDecompressStream) *run;
	__typeof__(BrotliDecoderDestroyInstance) *destroy;
	char why[256];
	pthread_once_t once;
} br = {.once = PTHREAD_ONCE_INIT};

static void open_br(void)
{
	static const char *const so[] = {"libbrotlidec.so.1"};
	static const char *const names[] = {
		"BrotliDecoderCreateInstance", "BrotliDecoderDecompressStream",
		"BrotliDecoderDestroyInstance"};
	void *f[3];

	if (ht_dl_open(so, 1, names, 3, f, br.why, sizeof(br.why)))
		return;
	memcpy(&br.run, &f[1], sizeof(f[1]));
	memcpy(&br.destroy, &f[2], sizeof(f[2]));
	memcpy(&br.create, &f[0], sizeof(f[0]));
}

static void open_bz(void)
{
	static const char *const so[] = {"libbz2.so.1.0", "libbz2.so.1"};
	static const char *const names[] = {
		"BZ2_bzDecompressInit", "BZ2_bzDecompress",
		"BZ2_bzDecompressEnd"};
	void *f[3];

	if (ht_dl_open(so, 2, names, 3, f, bz.why, sizeof(bz.why)))
		return;
	memcpy(&bz.run, &f[1], sizeof(f[1]));
	memcpy(&bz.end, &f[2], sizeof(f[2]));
	memcpy(&bz.init, &f[0], sizeof(f[0]));
}

static void open_xz(void)
{
	static const char *const so[] = {"liblzma.so.5"};
	static const char *const names[] = {"lzma_stream_decoder",
					    "lzma_code", "lzma_end"};
	void *f[3];

	if (ht_dl_open(so, 1, names, 3, f, xz.why, sizeof(xz.why)))
		return;
	memcpy(&xz.run, &f[1], sizeof(f[1]));
	memcpy(&xz.end, &f[2], sizeof(f[2]));
	memcpy(&xz.init, &f[0], sizeof(f[0]));
}

static void open_zs(void)
{
	static const char *const so[] = {"libzstd.so.1"};
	static const char *const names[] = {
		"ZSTD_createDStream", "ZSTD_initDStream",
		"ZSTD_decompressStream", "ZSTD_freeDStream", "ZSTD_isError"};
	void *f[5];

	if (ht_dl_open(so, 1, names, 5, f, zs.why, sizeof(zs.why)))
		return;
	memcpy(&zs.init, &f[1], sizeof(f[1]));
	memcpy(&zs.run, &f[2], sizeof(f[2]));
	memcpy(&zs.free, &f[3], sizeof(f[3]));
	memcpy(&zs.is_error, &f[4], sizeof(f[4]));
	memcpy(&zs.create, &f[0], sizeof(f[0]));
}

struct out {
	uint8_t *buf;
	uint64_t done, max;
	verity_ota_put_fn put;
	void *ctx;
	const char *what;
};

/* n bytes of out->buf handed on: past max is an error. */
static int hand(struct out *o, size_t n, struct ht_error *err)
{
	if (!n)
		return 0;
	if (n > o->max - o->done)
		return ht_fail(err, EINVAL,
			       "%s: decompresses to more than the %llu "
			       "bytes it may fill",
			       o->what, (unsigned long long)o->max);
	o->done += n;
	return o->put(o->ctx, o->buf, n, err);
}

static int bad(const struct out *o, const char *kind, struct ht_error *err)
{
	return ht_fail(err, EINVAL, "%s: not a valid %s stream", o->what, kind);
}

static int run_bz(struct out *o, const uint8_t *in, size_t len,
		  struct ht_error *err)
{
	bz_stream s;
	int r = 0, z = BZ_OK;

	memset(&s, 0, sizeof(s));
	if (len > UINT32_MAX)
		return bad(o, "bzip2", err);
	if (bz.init(&s, 0, 0) != BZ_OK)
		return ht_fail(err, ENOMEM, "%s: bzip2 cannot start", o->what);
	s.next_in = (char *)(uintptr_t)in;
	s.avail_in = (unsigned)len;
	while (!r && z != BZ_STREAM_END) {
		s.next_out = (char *)o->buf;
		s.avail_out = OUT_CHUNK;
		z = bz.run(&s);
		if (z != BZ_OK && z != BZ_STREAM_END)
			r = bad(o, "bzip2", err);
		else if (z == BZ_OK && s.avail_out == OUT_CHUNK &&
			 s.avail_in == 0)
			r = bad(o, "bzip2 (cut short)", err);
		else
			r = hand(o, OUT_CHUNK - s.avail_out, err);
	}
	if (!r && s.avail_in)
		r = ht_fail(err, EINVAL, "%s: %u bytes after the bzip2 stream",
			    o->what, s.avail_in);
	bz.end(&s);
	return r;
}

static int run_xz(struct out *o, const uint8_t *in, size_t len,
		  struct ht_error *err)
{
	lzma_stream s;
	lzma_ret z = LZMA_OK;
	int r = 0;

	memset(&s, 0, sizeof(s));
	if (xz.init(&s, UINT64_MAX, 0) != LZMA_OK)
		return ht_fail(err, ENOMEM, "%s: xz cannot start", o->what);
	s.next_in = in;
	s.avail_in = len;
	while (!r && z != LZMA_STREAM_END) {
		s.next_out = o->buf;
		s.avail_out = OUT_CHUNK;
		z = xz.run(&s, LZMA_FINISH);
		if (z != LZMA_OK && z != LZMA_STREAM_END)
			r = bad(o, "xz", err);
		else
			r = hand(o, OUT_CHUNK - s.avail_out, err);
	}
	if (!r && s.avail_in)
		r = ht_fail(err, EINVAL, "%s: %zu bytes after the xz stream",
			    o->what, s.avail_in);
	xz.end(&s);
	return r;
}

static int run_zs(struct out *o, const uint8_t *in, size_t len,
		  struct ht_error *err)
{
	ZSTD_DStream *s = zs.create();
	ZSTD_inBuffer ib = {in, len, 0};
	size_t z = 1;
	int r = 0;

	if (!s || zs.is_error(zs.init(s))) {
		if (s)
			zs.free(s);
		return ht_fail(err, ENOMEM, "%s: zstd cannot start", o->what);
	}
	/* z: 0 when a frame is whole; frames may follow one another */
	while (!r && (ib.pos < ib.size || z != 0)) {
		ZSTD_outBuffer ob = {o->buf, OUT_CHUNK, 0};
		size_t before = ib.pos;

		z = zs.run(s, &ob, &ib);
		if (zs.is_error(z))
			r = bad(o, "zstd", err);
		else if (ob.pos == 0 && ib.pos == before)
			r = bad(o, "zstd (cut short)", err);
		else
			r = hand(o, ob.pos, err);
	}
	zs.free(s);
	return r;
}

static int run_br(struct out *o, const uint8_t *in, size_t len,
		  struct ht_error *err)
{
	BrotliDecoderState *s = br.create(NULL, NULL, NULL);
	BrotliDecoderResult z = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
	const uint8_t *next = in;
	size_t avail = len;
	int r = 0;

	if (!s)
		return ht_fail(err, ENOMEM, "%s: brotli cannot start", o->what);
	while (!r && z == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
		uint8_t *out = o->buf;
		size_t room = OUT_CHUNK;

		z = br.run(s, &avail, &next, &room, &out, NULL);
		if (z == BROTLI_DECODER_RESULT_ERROR)
			r = bad(o, "brotli", err);
		else if (z == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
			r = bad(o, "brotli (cut short)", err);
		else
			r = hand(o, OUT_CHUNK - room, err);
	}
	if (!r && avail)
		r = ht_fail(err, EINVAL, "%s: %zu bytes after the brotli stream",
			    o->what, avail);
	br.destroy(s);
	return r;
}

int verity_ota_decompress(unsigned type, const uint8_t *in, size_t len,
			  uint64_t max, verity_ota_put_fn put, void *ctx,
			  uint64_t *produced, const char *what,
			  struct ht_error *err)
{
	struct out o = {NULL, 0, max, put, ctx, what};
	const char *lib;
	int r;

	if (type == 1) {
		pthread_once(&bz.once, open_bz);
		lib = bz.init ? NULL : bz.why;
	} else if (type == 8) {
		pthread_once(&xz.once, open_xz);
		lib = xz.init ? NULL : xz.why;
	} else if (type == 14) {
		pthread_once(&zs.once, open_zs);
		lib = zs.create ? NULL : zs.why;
	} else if (type == VERITY_OTA_BROTLI) {
		pthread_once(&br.once, open_br);
		lib = br.create ? NULL : br.why;
	} else {
		return ht_fail(err, EINVAL, "%s: operation type %u: not a "
					    "compressed REPLACE", what, type);
	}
	if (lib)
		return ht_fail(err, ENOSYS,
			       "%s: %s, and its library cannot be opened (%s)",
			       what,
			       type == VERITY_OTA_BROTLI
				       ? "brotli"
				       : verity_payload_op_name(type),
			       lib);
	if (!(o.buf = malloc(OUT_CHUNK)))
		return ht_fail(err, ENOMEM, "out of memory");
	r = type == 1    ? run_bz(&o, in, len, err)
	    : type == 8  ? run_xz(&o, in, len, err)
	    : type == 14 ? run_zs(&o, in, len, err)
			 : run_br(&o, in, len, err);
	free(o.buf);
	*produced = o.done;
	return r;
}
