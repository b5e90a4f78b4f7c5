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

#endif
