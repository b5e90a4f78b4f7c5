/* CRC-32 (zlib's: GPT headers and entries, sparse images' checksums),
 * zlib opened when a container first needs it, as libcrypto, libfec and
 * libdevmapper are (hashtree/dl.h): linked, it cost every run of the
 * command its loading (0.1-0.3 ms here), though only those containers
 * call it. */
#ifndef FV_CRC32_H
#define FV_CRC32_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

/* zlib opened (once): 0, or why it cannot be, what (a phrase: "checking
 * a GPT") needing it. */
int verity_crc32_load(const char *what, struct ht_error *err);
/* crc (0 to start) carried over len bytes at buf; zlib loaded. */
uint32_t verity_crc32(uint32_t crc, const void *buf, size_t len);
/* Runs of one content summed without their bytes (an Android sparse
 * image's DONT_CARE and FILL chunks: terabytes declared in a few bytes):
 * the sum of A then B is the sum of A times x^(8 |B|) modulo the CRC's
 * polynomial, plus the sum of B (zlib's crc32_combine). The factor of n
 * bytes, x^(8n): */
uint32_t verity_crc32_shift(uint64_t n);
/* crc carried over count copies of a unit whose sum (from 0) is unit and
 * whose factor (verity_crc32_shift of its length) is shift: O(log count)
 * products of 32-bit polynomials, no byte read. No zlib needed. */
uint32_t verity_crc32_repeat(uint32_t crc, uint32_t unit, uint32_t shift,
			     uint64_t count);

#endif
