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
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

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
	SHA256_KERNEL_AVX512 = 4, /* x86-64; sixteen streams in vector lanes
				   * (the fastest on AMD family 1Ah, where
				   * it was measured) */
	SHA256_KERNEL_COUNT
};

void ht_sha256_salted_init(struct sha256_salted_state *st, const uint8_t *salt,
			   size_t salt_len);
/* SHA-256 of len bytes at msg, unsalted, on the fastest kernel (a
 * checksum of metadata: OpenSSL is not opened for it). */
void ht_sha256(const uint8_t *msg, size_t len, uint8_t out[32]);

/* Which kernel to run: the fastest this CPU has (on x86-64, SHA-NI
 * three-way where that was measured faster than two-way: AMD family
 * 1Ah; two-way elsewhere), or one forced (for tests and comparisons; a
 * kernel the CPU lacks is not forced). 0 is the fastest. */
enum sha256_choice {
	SHA256_CHOOSE_FASTEST = 0,
	SHA256_CHOOSE_PORTABLE,
	SHA256_CHOOSE_TWO_WAY,
	SHA256_CHOOSE_THREE_WAY,
	SHA256_CHOOSE_AVX512, /* the 16-lane kernel where the CPU has it */
};
enum sha256_kernel ht_sha256_kernel_choose(enum sha256_choice choice);
/* True when the CPU has SHA-NI, SSE4.1 and SSSE3 (x86-64). */
int ht_sha256_cpu_has_shani(void);
/* True when the CPU and the kernel run AVX-512F and AVX-512BW
 * (x86-64). */
int ht_sha256_cpu_has_avx512(void);
/* True when the CPU has the Armv8 SHA-256 instructions (aarch64). */
int ht_sha256_cpu_has_armv8(void);
/* The kernel of the architecture this was built for (SHA-NI on x86-64,
 * Armv8 CE on aarch64; the CPU may lack it), or the portable kernel
 * where fastverity has none. */
enum sha256_kernel ht_sha256_arch_kernel(void);
/* The SHA-256 instructions this CPU has, as the bench prints them. */
const char *ht_sha256_cpu_features(void);
/* "sha-ni (two-way)"; and the short form, "SHA-NI". */
const char *ht_sha256_kernel_name(enum sha256_kernel k);
const char *ht_sha256_kernel_label(enum sha256_kernel k);
/* 1 when this CPU runs kernel k (the portable one always). */
int ht_sha256_kernel_available(enum sha256_kernel k);

/* A kernel's entry points; the table of them is the one place the CPU
 * kernels are named (hashtree/sha256.c). */
struct ht_sha256_kernel_ops {
	const char *name, *label;
	int (*available)(void);
	/* count messages of msg_len bytes, one after the other at msgs;
	 * digest i = SHA-256(salt || message i) to out + i * out_stride,
	 * two or three at a time where the kernel interleaves */
	void (*finup_many)(const struct sha256_salted_state *st,
			   const uint8_t *msgs, size_t msg_len, size_t count,
			   uint8_t *out, size_t out_stride);
	void (*finup_one)(const struct sha256_salted_state *st,
			  const uint8_t *msg, size_t len, uint8_t *out);
	void (*finup_two)(const struct sha256_salted_state *st,
			  const uint8_t *msg1, const uint8_t *msg2, size_t len,
			  uint8_t *out1, uint8_t *out2);
};
/* Kernel k's entry points, or the portable ones where this CPU lacks
 * it. */
const struct ht_sha256_kernel_ops *ht_sha256_kernel_ops(enum sha256_kernel k);

/* The same as calls (tests and the benchmark). */
static inline void sha256_finup_many(enum sha256_kernel k,
				     const struct sha256_salted_state *st,
				     const uint8_t *msgs, size_t msg_len,
				     size_t count, uint8_t *out,
				     size_t out_stride)
{
	ht_sha256_kernel_ops(k)->finup_many(st, msgs, msg_len, count, out,
					    out_stride);
}

static inline void sha256_finup_one(enum sha256_kernel k,
				    const struct sha256_salted_state *st,
				    const uint8_t *msg, size_t len,
				    uint8_t *out)
{
	ht_sha256_kernel_ops(k)->finup_one(st, msg, len, out);
}

static inline void sha256_finup_two(enum sha256_kernel k,
				    const struct sha256_salted_state *st,
				    const uint8_t *msg1, const uint8_t *msg2,
				    size_t len, uint8_t *out1, uint8_t *out2)
{
	ht_sha256_kernel_ops(k)->finup_two(st, msg1, msg2, len, out1, out2);
}

#endif
