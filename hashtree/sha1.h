/* Salted SHA-1 for old Android trees (docs/android.md): the salt absorbed
 * once, each block finished from that state, two blocks at a time with
 * interleaved x86 SHA-NI rounds. Hand-written because no package offers
 * SHA-1 over two messages at once; OpenSSL's one stream was measured at
 * about half the SHA unit's rate here. Only on x86-64 CPUs with SHA-NI:
 * elsewhere the hasher takes OpenSSL's generic path. */
#ifndef FV_SHA1_H
#define FV_SHA1_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_SIZE 20

struct sha1_salted_state {
	uint32_t h[5];
	uint64_t bytes; /* bytes absorbed, including the buffered ones */
	uint8_t buf[64];
};

/* 1 when this CPU runs the SHA-1 kernel (x86-64 with SHA-NI). */
int ht_sha1_kernel_available(void);
/* Absorbs the salt (call only when ht_sha1_kernel_available()). */
void ht_sha1_salted_init(struct sha1_salted_state *st, const uint8_t *salt,
			 size_t salt_len);
/* count messages of msg_len bytes one after the other at msgs: digest i
 * = SHA-1(salt || message i) to out + i * out_stride. */
void ht_sha1_finup_many(const struct sha1_salted_state *st, const uint8_t *msgs,
			size_t msg_len, size_t count, uint8_t *out,
			size_t out_stride);

#endif
