/* Salted SHA-256: the fast path of the hash tree.
 *
 * The salt is absorbed once into a sha256_salted_state; every block is then
 * hashed by copying that state and finishing it over the block (import +
 * finup). Kernels: portable C everywhere; x86-64 SHA-NI (from cpuid) and
 * Armv8 Cryptography Extensions (from HWCAP_SHA2), each with one or two
 * interleaved streams; the fastest the CPU has is chosen once. Callers
 * name kernels by the enum and never call a CPU-specific function. */
#ifndef FV_SHA256_H
#define FV_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32
#define SHA256_BLOCK_SIZE  64

struct sha256_salted_state {
	uint32_t h[8];  /* chaining value after the whole 64-byte blocks */
	uint64_t bytes; /* bytes absorbed, including the buffered ones */
	uint8_t buf[SHA256_BLOCK_SIZE]; /* the bytes % 64 not yet compressed */
};

enum sha256_kernel {
	SHA256_KERNEL_PORTABLE = 0,
	SHA256_KERNEL_SHANI = 1,  /* x86-64; two streams where possible */
	SHA256_KERNEL_ARMV8 = 2,  /* aarch64; two streams where possible */
	SHA256_KERNEL_SHANI3 = 3, /* x86-64; three streams where possible */
	SHA256_KERNEL_COUNT
};

void sha256_salted_init(struct sha256_salted_state *st, const uint8_t *salt,
			size_t salt_len);

/* The fastest kernel this CPU runs: on x86-64, SHA-NI three-way where
 * that was measured faster than two-way (AMD family 1Ah), two-way
 * elsewhere. FASTVERITY_SHA256=portable, =two-way or =three-way in the
 * environment forces one (for tests and comparisons; a kernel the CPU
 * lacks is not forced). */
enum sha256_kernel sha256_kernel_select(void);
/* True when the CPU has SHA-NI, SSE4.1 and SSSE3 (x86-64). */
int sha256_cpu_has_shani(void);
/* True when the CPU has the Armv8 SHA-256 instructions (aarch64). */
int sha256_cpu_has_armv8(void);
/* The kernel of the architecture this was built for (SHA-NI on x86-64,
 * Armv8 CE on aarch64; the CPU may lack it), or the portable kernel
 * where fastverity has none. */
enum sha256_kernel sha256_arch_kernel(void);
/* The SHA-256 instructions this CPU has, as the bench prints them. */
const char *sha256_cpu_features(void);
/* "sha-ni (two-way)"; and the short form, "SHA-NI". */
const char *sha256_kernel_name(enum sha256_kernel k);
const char *sha256_kernel_label(enum sha256_kernel k);

/* Hashes count messages of msg_len bytes, laid out one after the other at
 * msgs; digest i = SHA-256(salt || message i) goes to out + i * out_stride. */
void sha256_finup_many(enum sha256_kernel k,
		       const struct sha256_salted_state *st,
		       const uint8_t *msgs, size_t msg_len, size_t count,
		       uint8_t *out, size_t out_stride);

/* One message, or two of equal length hashed together (the kernel's
 * interleaved streams where it has them), with kernel k; any kernel is
 * accepted, one this CPU lacks runs as the portable code. For tests and
 * the benchmark, which ask sha256_kernel_available() first. */
int sha256_kernel_available(enum sha256_kernel k);
void sha256_finup_one(enum sha256_kernel k,
		      const struct sha256_salted_state *st, const uint8_t *msg,
		      size_t len, uint8_t *out);
void sha256_finup_two(enum sha256_kernel k,
		      const struct sha256_salted_state *st, const uint8_t *msg1,
		      const uint8_t *msg2, size_t len, uint8_t *out1,
		      uint8_t *out2);

#endif
