/* Portable SHA-256 (FIPS 180-4), the salted state, and kernel selection. */
#include "sha256.h"

#include <stdlib.h>
#include <string.h>

#include "sha256_finup.h"

const uint32_t ht_sha256_round_constants[64] __attribute__((
	aligned(16), visibility("hidden"))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void sha256_portable_blocks(uint32_t h[8], const uint8_t *p,
				   size_t nblocks)
{
	uint32_t w[64];

	for (; nblocks; nblocks--, p += SHA256_BLOCK_SIZE) {
		uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
		uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];

		for (int i = 0; i < 16; i++)
			w[i] = get_be32(p + 4 * i);
		for (int i = 16; i < 64; i++) {
			uint32_t s0 = ror32(w[i - 15], 7) ^
				      ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = ror32(w[i - 2], 17) ^
				      ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		for (int i = 0; i < 64; i++) {
			uint32_t s1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);
			uint32_t ch = (e & f) ^ (~e & g);
			uint32_t t1 = hh + s1 + ch +
				      ht_sha256_round_constants[i] + w[i];
			uint32_t s0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);
			uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
			uint32_t t2 = s0 + maj;

			hh = g;
			g = f;
			f = e;
			e = d + t1;
			d = c;
			c = b;
			b = a;
			a = t1 + t2;
		}
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
		h[5] += f;
		h[6] += g;
		h[7] += hh;
	}
}

void ht_sha256_salted_init(struct sha256_salted_state *st, const uint8_t *salt,
			   size_t salt_len)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	size_t whole = salt_len / SHA256_BLOCK_SIZE;

	memcpy(st->h, iv, sizeof(iv));
	sha256_portable_blocks(st->h, salt, whole);
	memset(st->buf, 0, sizeof(st->buf));
	memcpy(st->buf, salt + whole * SHA256_BLOCK_SIZE,
	       salt_len % SHA256_BLOCK_SIZE);
	st->bytes = salt_len;
}

void ht_sha256(const uint8_t *msg, size_t len, uint8_t out[32])
{
	static const uint8_t no_salt[1];
	struct sha256_salted_state st;

	ht_sha256_salted_init(&st, no_salt, 0);
	ht_sha256_kernel_ops(ht_sha256_kernel_choose(SHA256_CHOOSE_FASTEST))
		->finup_one(&st, msg, len, out);
}

void ht_sha256_portable_finup(const struct sha256_salted_state *st,
			      const uint8_t *msg, size_t len, uint8_t *out)
{
	sha256_finup_tmpl(sha256_portable_blocks, st, msg, len, out);
}

void ht_sha256_portable_finup_many(const struct sha256_salted_state *st,
				   const uint8_t *msgs, size_t msg_len,
				   size_t count, uint8_t *out,
				   size_t out_stride)
{
	for (size_t i = 0; i < count; i++)
		sha256_finup_tmpl(sha256_portable_blocks, st,
				  msgs + i * msg_len, msg_len,
				  out + i * out_stride);
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <stdatomic.h>

static int cpu_has_shani(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) ||
	    !(c & bit_SSSE3))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b & bit_SHA) != 0;
}

/* cpuid once: in a virtual machine each one traps to the hypervisor */
int ht_sha256_cpu_has_shani(void)
{
	static atomic_int known = -1;
	int v = atomic_load_explicit(&known, memory_order_relaxed);

	if (v < 0) {
		v = cpu_has_shani();
		atomic_store_explicit(&known, v, memory_order_relaxed);
	}
	return v;
}

/* AVX-512F and BW in the CPU (cpuid 7: ebx bits 16, 30) and their state
 * saved by the kernel (XCR0: SSE, AVX, opmask and both halves of the
 * ZMM registers). */
static int cpu_has_avx512(void)
{
	unsigned a, b, c, d, lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	if ((lo & 0xe6) != 0xe6)
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b & (1u << 16)) && (b & (1u << 30));
}

int ht_sha256_cpu_has_avx512(void)
{
	static atomic_int known = -1;
	int v = atomic_load_explicit(&known, memory_order_relaxed);

	if (v < 0) {
		v = cpu_has_avx512();
		atomic_store_explicit(&known, v, memory_order_relaxed);
	}
	return v;
}

/* Three SHA-NI streams beat two on AMD family 1Ah (Zen 5: 2650 against
 * 2300 MB/s per core, 4 KiB blocks, measured on this project's machine);
 * on family 19h (Zen 4) four streams were slower than two (2.3 against
 * 3.3 GB/s), and three were not measured there, nor on Intel: two-way
 * stays the choice where it was not shown slower. */
static int shani_prefers_three(void)
{
	static atomic_int known = -1;
	int v = atomic_load_explicit(&known, memory_order_relaxed);

	if (v < 0) {
		unsigned a, b, c, d, family;

		v = 0;
		if (__get_cpuid(0, &a, &b, &c, &d) &&
		    b == 0x68747541 /* "Auth" */ &&
		    d == 0x69746e65 /* "enti" */ &&
		    c == 0x444d4163 /* "cAMD" */ &&
		    __get_cpuid(1, &a, &b, &c, &d)) {
			family = (a >> 8) & 0xf;
			if (family == 0xf)
				family += (a >> 20) & 0xff;
			v = family >= 0x1a;
		}
		atomic_store_explicit(&known, v, memory_order_relaxed);
	}
	return v;
}
#else
int ht_sha256_cpu_has_shani(void)
{
	return 0;
}

int ht_sha256_cpu_has_avx512(void)
{
	return 0;
}

static int shani_prefers_three(void)
{
	return 0;
}
#endif

#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>

/* The kernel says what the CPU has (HWCAP_SHA2: SHA256H and friends). */
int ht_sha256_cpu_has_armv8(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
}
#else
int ht_sha256_cpu_has_armv8(void)
{
	return 0;
}
#endif

enum sha256_kernel ht_sha256_arch_kernel(void)
{
#if defined(__x86_64__)
	return SHA256_KERNEL_SHANI;
#elif defined(__aarch64__)
	return SHA256_KERNEL_ARMV8;
#else
	return SHA256_KERNEL_PORTABLE;
#endif
}

const char *ht_sha256_cpu_features(void)
{
#if defined(__x86_64__)
	int shani = ht_sha256_cpu_has_shani(),
	    avx512 = ht_sha256_cpu_has_avx512();

	if (shani && avx512)
		return "sha_ni sse4_1 ssse3 avx512f avx512bw";
	if (avx512)
		return "avx512f avx512bw, none of sha_ni";
	return shani ? "sha_ni sse4_1 ssse3" : "none of sha_ni";
#elif defined(__aarch64__)
	return ht_sha256_cpu_has_armv8() ? "sha2 (Armv8 CE)" : "none of sha2";
#else
	return "no SHA-256 instructions known to fastverity";
#endif
}

static void portable_finup_two(const struct sha256_salted_state *st,
			       const uint8_t *msg1, const uint8_t *msg2,
			       size_t len, uint8_t *out1, uint8_t *out2)
{
	ht_sha256_portable_finup(st, msg1, len, out1);
	ht_sha256_portable_finup(st, msg2, len, out2);
}

static int always(void)
{
	return 1;
}

/* Every kernel, chosen once (the hasher keeps its entry): the portable C
 * code everywhere, the CPU's only where this was built for it. */
static const struct ht_sha256_kernel_ops kernels[SHA256_KERNEL_COUNT] = {
	[SHA256_KERNEL_PORTABLE] = {"portable C", "portable C", always,
				    ht_sha256_portable_finup_many,
				    ht_sha256_portable_finup,
				    portable_finup_two},
#if defined(__x86_64__)
	[SHA256_KERNEL_SHANI] = {"sha-ni (two-way)", "SHA-NI",
				 ht_sha256_cpu_has_shani,
				 ht_sha256_shani_finup_many,
				 ht_sha256_shani_finup,
				 ht_sha256_shani_finup2x},
	[SHA256_KERNEL_SHANI3] = {"sha-ni (three-way)", "SHA-NI",
				  ht_sha256_cpu_has_shani,
				  ht_sha256_shani_finup_many3,
				  ht_sha256_shani_finup,
				  ht_sha256_shani_finup2x},
	[SHA256_KERNEL_AVX512] = {"avx-512 (16-lane)", "AVX-512",
				  ht_sha256_cpu_has_avx512,
				  ht_sha256_avx512_finup_many,
				  ht_sha256_avx512_finup,
				  ht_sha256_avx512_finup2x},
#endif
#if defined(__aarch64__)
	[SHA256_KERNEL_ARMV8] = {"armv8-ce (two-way)", "Armv8 CE",
				 ht_sha256_cpu_has_armv8,
				 sha256_armv8_finup_many, sha256_armv8_finup,
				 sha256_armv8_finup2x},
#endif
};

int ht_sha256_kernel_available(enum sha256_kernel k)
{
	return (unsigned)k < SHA256_KERNEL_COUNT && kernels[k].available &&
	       kernels[k].available();
}

const struct ht_sha256_kernel_ops *ht_sha256_kernel_ops(enum sha256_kernel k)
{
	return ht_sha256_kernel_available(k) ? &kernels[k]
					     : &kernels[SHA256_KERNEL_PORTABLE];
}

enum sha256_kernel ht_sha256_kernel_choose(enum sha256_choice choice)
{
	if (choice == SHA256_CHOOSE_PORTABLE)
		return SHA256_KERNEL_PORTABLE;
	if (choice == SHA256_CHOOSE_AVX512 && ht_sha256_cpu_has_avx512())
		return SHA256_KERNEL_AVX512;
	if (ht_sha256_cpu_has_shani()) {
		if (choice == SHA256_CHOOSE_TWO_WAY)
			return SHA256_KERNEL_SHANI;
		if (choice == SHA256_CHOOSE_THREE_WAY)
			return SHA256_KERNEL_SHANI3;
		/* AMD family 1Ah (Zen 5, full-width AVX-512): the 16 lanes
		 * beat the SHA unit (4561 against 3297 MB/s per core in
		 * cache, format of 1 GiB cached 0.196 against 0.226 s on two
		 * cores; docs/performance.md); measured nowhere else */
		if (shani_prefers_three() && ht_sha256_cpu_has_avx512())
			return SHA256_KERNEL_AVX512;
		return shani_prefers_three() ? SHA256_KERNEL_SHANI3
					     : SHA256_KERNEL_SHANI;
	}
	if (ht_sha256_cpu_has_armv8())
		return SHA256_KERNEL_ARMV8;
	return SHA256_KERNEL_PORTABLE;
}

const char *ht_sha256_kernel_name(enum sha256_kernel k)
{
	return (unsigned)k < SHA256_KERNEL_COUNT && kernels[k].name
		       ? kernels[k].name
		       : kernels[SHA256_KERNEL_PORTABLE].name;
}

const char *ht_sha256_kernel_label(enum sha256_kernel k)
{
	switch (k) {
	case SHA256_KERNEL_SHANI:
	case SHA256_KERNEL_SHANI3:
		return "SHA-NI";
	case SHA256_KERNEL_ARMV8:
		return "Armv8 CE";
	case SHA256_KERNEL_AVX512:
		return "AVX-512";
	default:
		return "portable C";
	}
}
