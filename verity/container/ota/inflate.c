/* zlib's raw inflate for an OTA zip's small deflated entries
 * (verity/container/ota/ota.h), zlib opened when first needed, as for
 * CRC-32 (verity/storage/crc32.h). */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <zlib.h>

#include "hashtree/dl.h"

static __typeof__(inflateInit2_) *z_init;
static __typeof__(inflate) *z_inflate;
static __typeof__(inflateEnd) *z_end;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_zlib(void)
{
	static const char *const soname[] = {"libz.so.1"};
	static const char *const names[] = {"inflateInit2_", "inflate",
					    "inflateEnd"};
	void *fns[3];

	if (ht_dl_open(soname, 1, names, 3, fns, why, sizeof(why)))
		return;
	memcpy(&z_init, &fns[0], sizeof(fns[0]));
	memcpy(&z_inflate, &fns[1], sizeof(fns[1]));
	memcpy(&z_end, &fns[2], sizeof(fns[2]));
}

int verity_ota_inflate(const uint8_t *in, size_t inlen, uint8_t *out,
		       size_t outlen, const char *what, struct ht_error *err)
{
	z_stream z;
	int r;

	pthread_once(&once, open_zlib);
	if (!z_init)
		return ht_fail(err, ENOSYS,
			       "%s: deflated, and zlib cannot be opened (%s)",
			       what, why);
	memset(&z, 0, sizeof(z));
	if (z_init(&z, -15, ZLIB_VERSION, (int)sizeof(z)) != Z_OK)
		return ht_fail(err, ENOMEM, "%s: zlib cannot start", what);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)inlen;
	z.next_out = out;
	z.avail_out = (uInt)outlen;
	r = z_inflate(&z, Z_FINISH);
	z_end(&z);
	if (r != Z_STREAM_END || z.total_out != outlen)
		return ht_fail(err, EINVAL,
			       "%s: its deflated data does not inflate to its "
			       "%zu bytes",
			       what, outlen);
	return 0;
}
