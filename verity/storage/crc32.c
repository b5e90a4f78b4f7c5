/* zlib's CRC-32, zlib opened when first needed (crc32.h). */
#include "verity/storage/crc32.h"

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

/* a times b modulo the CRC's polynomial, each a polynomial of degree
 * below 32 as the CRC holds it (bit 31 the coefficient of x^0) */
static uint32_t mulmod(uint32_t a, uint32_t b)
{
	uint32_t p = 0;

	for (uint32_t m = 1u << 31; m; m >>= 1) {
		if (a & m)
			p ^= b;
		/* b times x, reduced */
		b = b & 1 ? b >> 1 ^ 0xedb88320u : b >> 1;
	}
	return p;
}

uint32_t verity_crc32_shift(uint64_t n)
{
	uint32_t p = 1u << 31, sq = 1u << 23; /* 1 and x^8 */

	for (; n; n >>= 1) {
		if (n & 1)
			p = mulmod(sq, p);
		sq = mulmod(sq, sq);
	}
	return p;
}

uint32_t verity_crc32_repeat(uint32_t crc, uint32_t unit, uint32_t shift,
			     uint64_t count)
{
	/* runs of 1, 2, 4, ... units (all alike, so their order is no
	 * matter), one appended for each bit of count */
	while (count) {
		if (count & 1)
			crc = mulmod(shift, crc) ^ unit;
		count >>= 1;
		if (count) {
			unit = mulmod(shift, unit) ^ unit;
			shift = mulmod(shift, shift);
		}
	}
	return crc;
}
