/* zlib's CRC-32, zlib opened when first needed (crc32.h). */
#include "verity/container/crc32.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <zlib.h>

#include "hashtree/dl.h"

static __typeof__(crc32) *zcrc32;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char why[256];

static void open_zlib(void)
{
	static const char *const soname[] = {"libz.so.1"};
	static const char *const names[] = {"crc32"};
	void *fn;

	if (!ht_dl_open(soname, 1, names, 1, &fn, why, sizeof(why)))
		memcpy(&zcrc32, &fn, sizeof(fn));
}

int verity_crc32_load(const char *what, struct ht_error *err)
{
	pthread_once(&once, open_zlib);
	if (zcrc32)
		return 0;
	return ht_fail(err, ENOSYS,
		       "%s needs zlib, which cannot be loaded (%s)", what, why);
}

uint32_t verity_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	/* zlib takes at most UINT_MAX bytes a call */
	while (len) {
		uInt n = len > 1u << 30 ? 1u << 30 : (uInt)len;

		crc = (uint32_t)zcrc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}
