/* ML-DSA-65 and ML-DSA-87 (FIPS 204, August 2024), written here from the
 * standard: KeyGen_internal from a 32-byte seed, Sign (pure ML-DSA,
 * hedged or deterministic, and from an external mu), Verify, and the
 * streaming mu of verity/sign/mldsa.h.
 *
 * Why by hand. Android 17 signs vbmeta with ML-DSA-65/87 (AVB
 * algorithms 7 and 8). Debian 12's OpenSSL is 3.0, which has no ML-DSA
 * (it came in 3.5), and Debian 12 packages no well-kept C library of it
 * (no liboqs, no mldsa-native; its BoringSSL, android-libboringssl
 * 13.0.0, is Android 13's, from before BoringSSL had ML-DSA): the
 * choice was this file or no ML-DSA on the hosts the project builds
 * for. It is small (the
 * standard's algorithms, no assembly) and checked against AOSP's test
 * keys and two vbmeta images signed with them, Wycheproof's vectors
 * (tests/unit/sign/test_mldsa.c) and, both ways, @noble/post-quantum
 * (tests/cli/t_mldsa.sh).
 *
 * Why its own Keccak, not OpenSSL's SHAKE. OpenSSL 3.0 squeezes a XOF
 * once (EVP_DigestFinalXOF; EVP_DigestSqueeze is 3.3+), while ML-DSA's
 * rejection samplers read SHAKE output until they have enough: on 3.0
 * they would guess a length and start again when it is short. Measured
 * here (AMD EPYC, gcc 12 -O2, best of 5): the Keccak-f[1600] below
 * takes 0.37-0.40 us a permutation, OpenSSL 3.0's (assembly) 0.30 us,
 * and one EVP_DigestInit_ex2/Update/FinalXOF round adds about 0.2 us
 * (a verify makes 34 of them for ML-DSA-65, 60 for ML-DSA-87): OpenSSL
 * would save some 20 us of a 150 us verify. But the first use of
 * OpenSSL in a process (opening libcrypto, its provider, the fetch:
 * hashtree/libcrypto.h) costs 6 ms here, twelve times the whole budget
 * of a verify (0.5 ms). With its own Keccak, checking an ML-DSA
 * signature needs no OpenSSL at all, and the constant-time test under
 * valgrind sees every instruction that touches a secret.
 * tests/unit/sign/test_mldsa.c checks SHAKE128/256 here against OpenSSL's,
 * for many lengths and pieces.
 *
 * Constant time. Key generation and signing handle the secret key (the
 * seed xi, K, s1, s2, t0, the per-signature rho'' and y) with no
 * branch and no memory index that depends on it: arithmetic with masks
 * and shifts, norms and hint counts summed over every coefficient,
 * packing by fixed bit counts. What does steer a branch is public or
 * ephemeral, and each such value is marked so where it is computed
 * (PUBLIC() below; valgrind's VALGRIND_MAKE_MEM_DEFINED in the test
 * build), with the reason:
 * - rho: part of the public key, so ExpandA's rejection sampling is on
 *   public bytes;
 * - which half-bytes ExpandS rejects: the sampler keeps or drops each
 *   half-byte of a SHAKE256 stream by its own value; a dropped one is
 *   never used, so the count and places of the drops say nothing about
 *   the coefficients kept (FIPS 204 accepts this variable-time
 *   rejection sampling);
 * - the challenge seed c~ of each attempt, even a rejected one: a
 *   SHAKE256 output, modelled as a random oracle, that shows nothing of
 *   the key (CRYSTALS-Dilithium round-3 specification, section 5.5);
 * - whether an attempt is rejected (the norm checks of z, r0, ct0 and
 *   the hint count): a rejected attempt is thrown away, and FIPS 204's
 *   loop count is public by design;
 * - z and h once an attempt is accepted: they are the signature.
 * tests/ct/mldsa_ct.c runs keygen and signing under valgrind's memcheck
 * with the seed, the secret key and rnd marked undefined: any branch or
 * index on them is an error there (make check-ct).
 *
 * Secrets are wiped (explicit_bzero) before their memory is given back:
 * the seed's expansion, the decoded secret key, y, z, w and every SHAKE
 * state that absorbed a secret. */
#include "verity/sign/mldsa.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#ifdef FV_MLDSA_CT_TEST
/* the constant-time test's build (tests/ct/mldsa_ct.c): what is public
 * is said so to valgrind; rnd from getrandom() is marked secret */
#include <valgrind/memcheck.h>
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#else
#define PUBLIC(p, n) ((void)(p), (void)(n))
#define SECRET(p, n) ((void)(p), (void)(n))
#endif

/* ---- Keccak-f[1600], SHAKE128, SHAKE256 (FIPS 202) ---- */

#define ROL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

static const uint64_t keccak_rc[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* The permutation: lane (x, y) is a[x + 5y]; each round theta, rho and
 * pi (into b), chi, iota, written out for the compiler to keep the
 * lanes in registers. */
static void keccak_f1600(uint64_t s[25])
{
	uint64_t a[25], b[25], c[5], d[5];

	memcpy(a, s, sizeof(a));
	for (int round = 0; round < 24; round++) {
		c[0] = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
		c[1] = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
		c[2] = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
		c[3] = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
		c[4] = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
		d[0] = c[4] ^ ROL64(c[1], 1);
		d[1] = c[0] ^ ROL64(c[2], 1);
		d[2] = c[1] ^ ROL64(c[3], 1);
		d[3] = c[2] ^ ROL64(c[4], 1);
		d[4] = c[3] ^ ROL64(c[0], 1);
		b[0] = a[0] ^ d[0];
		b[16] = ROL64(a[5] ^ d[0], 36);
		b[7] = ROL64(a[10] ^ d[0], 3);
		b[23] = ROL64(a[15] ^ d[0], 41);
		b[14] = ROL64(a[20] ^ d[0], 18);
		b[10] = ROL64(a[1] ^ d[1], 1);
		b[1] = ROL64(a[6] ^ d[1], 44);
		b[17] = ROL64(a[11] ^ d[1], 10);
		b[8] = ROL64(a[16] ^ d[1], 45);
		b[24] = ROL64(a[21] ^ d[1], 2);
		b[20] = ROL64(a[2] ^ d[2], 62);
		b[11] = ROL64(a[7] ^ d[2], 6);
		b[2] = ROL64(a[12] ^ d[2], 43);
		b[18] = ROL64(a[17] ^ d[2], 15);
		b[9] = ROL64(a[22] ^ d[2], 61);
		b[5] = ROL64(a[3] ^ d[3], 28);
		b[21] = ROL64(a[8] ^ d[3], 55);
		b[12] = ROL64(a[13] ^ d[3], 25);
		b[3] = ROL64(a[18] ^ d[3], 21);
		b[19] = ROL64(a[23] ^ d[3], 56);
		b[15] = ROL64(a[4] ^ d[4], 27);
		b[6] = ROL64(a[9] ^ d[4], 20);
		b[22] = ROL64(a[14] ^ d[4], 39);
		b[13] = ROL64(a[19] ^ d[4], 8);
		b[4] = ROL64(a[24] ^ d[4], 14);
		a[0] = b[0] ^ (~b[1] & b[2]);
		a[1] = b[1] ^ (~b[2] & b[3]);
		a[2] = b[2] ^ (~b[3] & b[4]);
		a[3] = b[3] ^ (~b[4] & b[0]);
		a[4] = b[4] ^ (~b[0] & b[1]);
		a[5] = b[5] ^ (~b[6] & b[7]);
		a[6] = b[6] ^ (~b[7] & b[8]);
		a[7] = b[7] ^ (~b[8] & b[9]);
		a[8] = b[8] ^ (~b[9] & b[5]);
		a[9] = b[9] ^ (~b[5] & b[6]);
		a[10] = b[10] ^ (~b[11] & b[12]);
		a[11] = b[11] ^ (~b[12] & b[13]);
		a[12] = b[12] ^ (~b[13] & b[14]);
		a[13] = b[13] ^ (~b[14] & b[10]);
		a[14] = b[14] ^ (~b[10] & b[11]);
		a[15] = b[15] ^ (~b[16] & b[17]);
		a[16] = b[16] ^ (~b[17] & b[18]);
		a[17] = b[17] ^ (~b[18] & b[19]);
		a[18] = b[18] ^ (~b[19] & b[15]);
		a[19] = b[19] ^ (~b[15] & b[16]);
		a[20] = b[20] ^ (~b[21] & b[22]);
		a[21] = b[21] ^ (~b[22] & b[23]);
		a[22] = b[22] ^ (~b[23] & b[24]);
		a[23] = b[23] ^ (~b[24] & b[20]);
		a[24] = b[24] ^ (~b[20] & b[21]);
		a[0] ^= keccak_rc[round];
	}
	memcpy(s, a, sizeof(a));
}

static uint64_t load64_le(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	       (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

static void store64_le(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void keccak_init(struct verity_keccak *k, unsigned rate)
{
	memset(k, 0, sizeof(*k));
	k->rate = rate;
}

void verity_shake128_init(struct verity_keccak *k)
{
	keccak_init(k, 168);
}

void verity_shake256_init(struct verity_keccak *k)
{
	keccak_init(k, 136);
}

void verity_keccak_absorb(struct verity_keccak *k, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		if (k->pos == 0 && len >= k->rate) {
			/* whole blocks, a lane at a time */
			for (unsigned i = 0; i < k->rate / 8; i++)
				k->s[i] ^= load64_le(p + 8 * i);
			keccak_f1600(k->s);
			p += k->rate;
			len -= k->rate;
			continue;
		}
		k->s[k->pos / 8] ^= (uint64_t)*p++ << (8 * (k->pos % 8));
		len--;
		if (++k->pos == k->rate) {
			keccak_f1600(k->s);
			k->pos = 0;
		}
	}
}

void verity_keccak_finalize(struct verity_keccak *k)
{
	/* SHAKE's domain bits 1111 and the pad10*1 */
	k->s[k->pos / 8] ^= (uint64_t)0x1f << (8 * (k->pos % 8));
	k->s[(k->rate - 1) / 8] ^= (uint64_t)0x80 << 56;
	keccak_f1600(k->s);
	k->pos = 0;
	k->squeezing = 1;
}

void verity_keccak_squeeze(struct verity_keccak *k, void *out, size_t len)
{
	uint8_t *p = out;

	while (len) {
		if (k->pos == k->rate) {
			keccak_f1600(k->s);
			k->pos = 0;
		}
		if (k->pos == 0 && len >= k->rate) {
			for (unsigned i = 0; i < k->rate / 8; i++)
				store64_le(p + 8 * i, k->s[i]);
			p += k->rate;
			len -= k->rate;
			k->pos = k->rate;
			continue;
		}
		*p++ = (uint8_t)(k->s[k->pos / 8] >> (8 * (k->pos % 8)));
		k->pos++;
		len--;
	}
}

void verity_shake256(void *out, size_t out_len, const void *in, size_t in_len)
{
	struct verity_keccak k;

	verity_shake256_init(&k);
	verity_keccak_absorb(&k, in, in_len);
	verity_keccak_finalize(&k);
	verity_keccak_squeeze(&k, out, out_len);
	explicit_bzero(&k, sizeof(k));
}

/* ---- Parameters (FIPS 204, Table 1) ---- */

#define N      256
#define Q      8380417
#define QINV   58728449 /* q^-1 mod 2^32 */
#define D      13
#define GAMMA1 (1 << 19)
#define GAMMA2 ((Q - 1) / 32)
#define K_MAX  8
#define L_MAX  7
/* FIPS 204 Appendix C: a bound on the attempts of a signature that is
 * reached with probability below 2^-256 */
#define MAX_ATTEMPTS 814

struct params {
	int level;
	unsigned k, l;        /* A is k x l */
	unsigned eta;         /* s1, s2 in [-eta, eta] */
	unsigned eta_bits;    /* bitlen(2 eta) */
	unsigned tau;         /* nonzero coefficients of c */
	unsigned beta;        /* tau * eta */
	unsigned omega;       /* hints at most */
	unsigned ctilde;      /* lambda / 4 bytes of c~ */
	size_t pk, sk, sig;   /* encoded sizes */
};

static const struct params p65 = {65, 6, 5, 4, 4, 49, 196, 55, 48,
				  VERITY_MLDSA65_PK_BYTES,
				  VERITY_MLDSA65_SK_BYTES,
				  VERITY_MLDSA65_SIG_BYTES};
static const struct params p87 = {87, 8, 7, 2, 3, 60, 120, 75, 64,
				  VERITY_MLDSA87_PK_BYTES,
				  VERITY_MLDSA87_SK_BYTES,
				  VERITY_MLDSA87_SIG_BYTES};

static const struct params *params_of(int level)
{
	return level == 65 ? &p65 : level == 87 ? &p87 : NULL;
}

int verity_mldsa_sizes(int level, struct verity_mldsa_sizes *sizes)
{
	const struct params *p = params_of(level);

	if (!p)
		return -EINVAL;
	sizes->pk = p->pk;
	sizes->sk = p->sk;
	sizes->sig = p->sig;
	return 0;
}

const char *verity_mldsa_name(int level)
{
	return level == 65 ? "ML-DSA-65" : level == 87 ? "ML-DSA-87" : NULL;
}

int verity_mldsa_ct_differ(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= x[i] ^ y[i];
	return (int)((0u - (unsigned)acc) >> 31);
}

/* ---- Arithmetic mod q ---- */

typedef struct {
	int32_t c[N];
} poly;

/* a * 2^-32 mod q, in (-q, q), for |a| < 2^31 q */
static int32_t mont_reduce(int64_t a)
{
	int32_t t = (int32_t)(uint32_t)((uint64_t)a * QINV);

	return (int32_t)((a - (int64_t)t * Q) >> 32);
}

/* a mod q in [-6283008, 6283008], for a <= 2^31 - 2^22 - 1 */
static int32_t reduce32(int32_t a)
{
	int32_t t = (a + (1 << 22)) >> 23;

	return a - t * Q;
}

/* a + q when a is negative */
static int32_t caddq(int32_t a)
{
	return a + ((a >> 31) & Q);
}

/* a mod q in [0, q) */
static int32_t freeze(int32_t a)
{
	return caddq(reduce32(a));
}

/* zeta^brv8(i) * 2^32 mod q, zeta = 1753 (a 512th root of unity), each
 * as its representative of least absolute value: the NTT's twiddles in
 * the order they are used (index 0 is not) */
static const int32_t zetas[N] = {
	-4186625, 25847, -2608894, -518909, 237124, -777960, -876248, 466468,
	1826347, 2353451, -359251, -2091905, 3119733, -2884855, 3111497, 2680103,
	2725464, 1024112, -1079900, 3585928, -549488, -1119584, 2619752, -2108549,
	-2118186, -3859737, -1399561, -3277672, 1757237, -19422, 4010497, 280005,
	2706023, 95776, 3077325, 3530437, -1661693, -3592148, -2537516, 3915439,
	-3861115, -3043716, 3574422, -2867647, 3539968, -300467, 2348700, -539299,
	-1699267, -1643818, 3505694, -3821735, 3507263, -2140649, -1600420, 3699596,
	811944, 531354, 954230, 3881043, 3900724, -2556880, 2071892, -2797779,
	-3930395, -1528703, -3677745, -3041255, -1452451, 3475950, 2176455, -1585221,
	-1257611, 1939314, -4083598, -1000202, -3190144, -3157330, -3632928, 126922,
	3412210, -983419, 2147896, 2715295, -2967645, -3693493, -411027, -2477047,
	-671102, -1228525, -22981, -1308169, -381987, 1349076, 1852771, -1430430,
	-3343383, 264944, 508951, 3097992, 44288, -1100098, 904516, 3958618,
	-3724342, -8578, 1653064, -3249728, 2389356, -210977, 759969, -1316856,
	189548, -3553272, 3159746, -1851402, -2409325, -177440, 1315589, 1341330,
	1285669, -1584928, -812732, -1439742, -3019102, -3881060, -3628969, 3839961,
	2091667, 3407706, 2316500, 3817976, -3342478, 2244091, -2446433, -3562462,
	266997, 2434439, -1235728, 3513181, -3520352, -3759364, -1197226, -3193378,
	900702, 1859098, 909542, 819034, 495491, -1613174, -43260, -522500,
	-655327, -3122442, 2031748, 3207046, -3556995, -525098, -768622, -3595838,
	342297, 286988, -2437823, 4108315, 3437287, -3342277, 1735879, 203044,
	2842341, 2691481, -2590150, 1265009, 4055324, 1247620, 2486353, 1595974,
	-3767016, 1250494, 2635921, -3548272, -2994039, 1869119, 1903435, -1050970,
	-1333058, 1237275, -3318210, -1430225, -451100, 1312455, 3306115, -1962642,
	-1279661, 1917081, -2546312, -1374803, 1500165, 777191, 2235880, 3406031,
	-542412, -2831860, -1671176, -1846953, -2584293, -3724270, 594136, -3776993,
	-2013608, 2432395, 2454455, -164721, 1957272, 3369112, 185531, -1207385,
	-3183426, 162844, 1616392, 3014001, 810149, 1652634, -3694233, -1799107,
	-3038916, 3523897, 3866901, 269760, 2213111, -975884, 1717735, 472078,
	-426683, 1723600, -1803090, 1910376, -1667432, -1104333, -260646, -3833893,
	-2939036, -2235985, -420899, -2286327, 183443, -976891, 1612842, -3545687,
	-554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782,
};

/* NTT in place (FIPS 204 Algorithm 41, Cooley-Tukey butterflies with
 * Montgomery products): coefficients of absolute value below q in,
 * below 9q out, in bit-reversed order. */
static void ntt(poly *a)
{
	unsigned k = 0;

	for (unsigned len = 128; len > 0; len >>= 1)
		for (unsigned start = 0; start < N; start += 2 * len) {
			int32_t zeta = zetas[++k];

			for (unsigned j = start; j < start + len; j++) {
				int32_t t = mont_reduce((int64_t)zeta *
							a->c[j + len]);

				a->c[j + len] = a->c[j] - t;
				a->c[j] = a->c[j] + t;
			}
		}
}

/* The inverse (Algorithm 42, Gentleman-Sande), times 2^32: after a
 * Montgomery product (times 2^-32) it gives the plain product.
 * Coefficients below q in absolute value in, and out. */
static void invntt_tomont(poly *a)
{
	/* 2^64 / 256 mod q: the 2^32 out, and the division by 256 */
	const int32_t f = 41978;
	unsigned k = N;

	for (unsigned len = 1; len < N; len <<= 1)
		for (unsigned start = 0; start < N; start += 2 * len) {
			int32_t zeta = -zetas[--k];

			for (unsigned j = start; j < start + len; j++) {
				int32_t t = a->c[j];

				a->c[j] = t + a->c[j + len];
				a->c[j + len] = mont_reduce(
					(int64_t)zeta * (t - a->c[j + len]));
			}
		}
	for (unsigned j = 0; j < N; j++)
		a->c[j] = mont_reduce((int64_t)f * a->c[j]);
}

/* c = a o b * 2^-32 (NTT domain) */
static void poly_pointwise(poly *c, const poly *a, const poly *b)
{
	for (unsigned i = 0; i < N; i++)
		c->c[i] = mont_reduce((int64_t)a->c[i] * b->c[i]);
}

/* c += a o b * 2^-32 */
static void poly_pointwise_acc(poly *c, const poly *a, const poly *b)
{
	for (unsigned i = 0; i < N; i++)
		c->c[i] += mont_reduce((int64_t)a->c[i] * b->c[i]);
}

static void poly_reduce(poly *a)
{
	for (unsigned i = 0; i < N; i++)
		a->c[i] = reduce32(a->c[i]);
}

static void poly_freeze(poly *a)
{
	for (unsigned i = 0; i < N; i++)
		a->c[i] = freeze(a->c[i]);
}

/* a mod q as its representative in (-(q-1)/2, (q-1)/2], from any
 * a <= 2^31 - 2^22 - 1 */
static int32_t centered(int32_t a)
{
	a = freeze(a);
	return a - ((((Q - 1) / 2) - a) >> 31 & Q);
}

/* 1 when some |a_i mod+- q| >= bound, with no branch on a: every
 * coefficient is looked at */
static uint32_t poly_exceeds(const poly *a, int32_t bound)
{
	uint32_t bad = 0;

	for (unsigned i = 0; i < N; i++) {
		int32_t t = centered(a->c[i]);
		int32_t m = t >> 31;

		t = (t ^ m) - m;                          /* |t| */
		bad |= (uint32_t)((bound - 1) - t) >> 31; /* t >= bound */
	}
	return bad;
}

/* ---- Rounding (FIPS 204 section 7.4) ---- */

/* Power2Round: r = r1 * 2^13 + r0, r0 in (-2^12, 2^12]; r in [0, q) */
static void power2round(int32_t r, int32_t *r1, int32_t *r0)
{
	*r1 = (r + (1 << (D - 1)) - 1) >> D;
	*r0 = r - (*r1 << D);
}

/* Decompose for gamma2 = (q-1)/32: r = r1 * 2 gamma2 + r0, r0 in
 * (-gamma2, gamma2], with r1 = 16 folded to r1 = 0, r0 - 1; r in
 * [0, q). The division by a constant is a multiplication: no branch. */
static void decompose(int32_t r, int32_t *r1, int32_t *r0)
{
	uint32_t h = ((uint32_t)r + GAMMA2 - 1) / (2 * GAMMA2);
	/* all ones when h == 16, the top band that wraps round to 0 */
	uint32_t top = (uint32_t)((int32_t)(15 - h) >> 31);

	*r0 = r - (int32_t)h * 2 * GAMMA2 - (int32_t)(top & 1);
	*r1 = (int32_t)(h & 15);
}

void verity_mldsa_decompose(int32_t r, int32_t *r1, int32_t *r0)
{
	decompose(r, r1, r0);
}

/* UseHint (verification: public data) */
static int32_t use_hint(int32_t r, int hint)
{
	int32_t r1, r0;

	decompose(r, &r1, &r0);
	if (!hint)
		return r1;
	return r0 > 0 ? (r1 + 1) & 15 : (r1 - 1) & 15;
}

/* ---- Sampling (FIPS 204 section 7.3) ---- */

/* RejNTTPoly(rho || j || i): the entry (i, j) of A, already in the NTT
 * domain, from SHAKE128 three bytes at a time (rho is public) */
static void expand_a_entry(poly *a, const uint8_t rho[32], unsigned i,
			   unsigned j)
{
	struct verity_keccak k;
	uint8_t buf[5 * 168], ij[2] = {(uint8_t)j, (uint8_t)i};
	unsigned n = 0, pos = 0, len = sizeof(buf);

	verity_shake128_init(&k);
	verity_keccak_absorb(&k, rho, 32);
	verity_keccak_absorb(&k, ij, 2);
	verity_keccak_finalize(&k);
	/* 280 candidates: 256 are accepted but for 1 time in about 2^100 */
	verity_keccak_squeeze(&k, buf, len);
	while (n < N) {
		uint32_t t;

		if (len - pos < 3) {
			verity_keccak_squeeze(&k, buf, 168);
			len = 168;
			pos = 0;
		}
		t = buf[pos] | (uint32_t)buf[pos + 1] << 8 |
		    (uint32_t)(buf[pos + 2] & 0x7f) << 16;
		pos += 3;
		if (t < Q)
			a->c[n++] = (int32_t)t;
	}
}

/* RejBoundedPoly(rho' || r, as two bytes): a polynomial of s1 or s2,
 * coefficients in [-eta, eta], from the half-bytes of SHAKE256(rho' ||
 * r). rho' is secret; whether a half-byte is kept is not (see the head
 * of the file), so it alone is declassified for the branch. */
static void expand_s_entry(poly *a, const uint8_t rhop[64], unsigned r,
			   unsigned eta)
{
	struct verity_keccak k;
	uint8_t buf[136], rr[2] = {(uint8_t)r, (uint8_t)(r >> 8)};
	unsigned n = 0;

	verity_shake256_init(&k);
	verity_keccak_absorb(&k, rhop, 64);
	verity_keccak_absorb(&k, rr, 2);
	verity_keccak_finalize(&k);
	while (n < N) {
		verity_keccak_squeeze(&k, buf, sizeof(buf));
		for (unsigned i = 0; i < sizeof(buf) && n < N; i++)
			for (unsigned half = 0; half < 2 && n < N; half++) {
				uint32_t z = (buf[i] >> (4 * half)) & 15;
				/* eta 2: z < 15, coefficient 2 - z mod 5;
				 * eta 4: z < 9, coefficient 4 - z */
				uint32_t keep = eta == 2 ? (z - 15) >> 31
							 : (z - 9) >> 31;
				int32_t v = eta == 2
					? 2 - (int32_t)(z - 5 * ((z * 205) >> 10))
					: 4 - (int32_t)z;

				PUBLIC(&keep, sizeof(keep));
				if (keep)
					a->c[n++] = v;
			}
	}
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(&k, sizeof(k));
}

/* ExpandMask(rho'', kappa + r): a polynomial of y, coefficients in
 * (-gamma1, gamma1], 20 bits each from SHAKE256 (a fixed count of
 * bytes: no rejection) */
static void expand_mask_entry(poly *y, const uint8_t rhopp[64], unsigned nonce)
{
	struct verity_keccak k;
	uint8_t buf[640], nn[2] = {(uint8_t)nonce, (uint8_t)(nonce >> 8)};

	verity_shake256_init(&k);
	verity_keccak_absorb(&k, rhopp, 64);
	verity_keccak_absorb(&k, nn, 2);
	verity_keccak_finalize(&k);
	verity_keccak_squeeze(&k, buf, sizeof(buf));
	for (unsigned i = 0; i < N / 2; i++) {
		const uint8_t *b = buf + 5 * i;
		uint32_t t0 = b[0] | (uint32_t)b[1] << 8 |
			      (uint32_t)(b[2] & 15) << 16;
		uint32_t t1 = b[2] >> 4 | (uint32_t)b[3] << 4 |
			      (uint32_t)b[4] << 12;

		y->c[2 * i] = GAMMA1 - (int32_t)t0;
		y->c[2 * i + 1] = GAMMA1 - (int32_t)t1;
	}
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(&k, sizeof(k));
}

/* SampleInBall(c~): tau coefficients +-1, the others 0. c~ is public
 * (see the head of the file). */
static void sample_in_ball(poly *c, const uint8_t *ctilde, unsigned len,
			   unsigned tau)
{
	struct verity_keccak k;
	uint8_t buf[136];
	uint64_t signs;
	unsigned pos = 8;

	verity_shake256_init(&k);
	verity_keccak_absorb(&k, ctilde, len);
	verity_keccak_finalize(&k);
	verity_keccak_squeeze(&k, buf, sizeof(buf));
	signs = load64_le(buf);
	memset(c, 0, sizeof(*c));
	for (unsigned i = N - tau; i < N; i++) {
		unsigned j;

		do {
			if (pos == sizeof(buf)) {
				verity_keccak_squeeze(&k, buf, sizeof(buf));
				pos = 0;
			}
			j = buf[pos++];
		} while (j > i);
		c->c[i] = c->c[j];
		c->c[j] = 1 - 2 * (int32_t)(signs & 1);
		signs >>= 1;
	}
}

/* ---- Encodings (FIPS 204 section 7.1-7.2) ---- */

/* Packs 256 values of bits bits each, the first value in the low bits
 * of the first byte: v_i = base - a_i (BitPack with b = base) when neg,
 * else a_i (SimpleBitPack). Time depends on bits alone. */
static void pack_poly(uint8_t *out, const poly *a, unsigned bits, int32_t base,
		      int neg)
{
	uint64_t acc = 0;
	unsigned have = 0;

	for (unsigned i = 0; i < N; i++) {
		uint32_t v = (uint32_t)(neg ? base - a->c[i] : a->c[i]);

		acc |= (uint64_t)(v & ((1u << bits) - 1)) << have;
		for (have += bits; have >= 8; have -= 8) {
			*out++ = (uint8_t)acc;
			acc >>= 8;
		}
	}
}

/* The reverse: a_i = base - v_i when neg, else v_i. */
static void unpack_poly(poly *a, const uint8_t *in, unsigned bits,
			int32_t base, int neg)
{
	uint64_t acc = 0;
	unsigned have = 0;

	for (unsigned i = 0; i < N; i++) {
		uint32_t v;

		for (; have < bits; have += 8)
			acc |= (uint64_t)*in++ << have;
		v = (uint32_t)acc & ((1u << bits) - 1);
		acc >>= bits;
		have -= bits;
		a->c[i] = neg ? base - (int32_t)v : (int32_t)v;
	}
}

#define T1_BYTES 320 /* 10 bits a coefficient */
#define T0_BYTES 416 /* 13 bits */
#define Z_BYTES  640 /* 20 bits */
#define W1_BYTES 128 /* 4 bits */

static size_t eta_bytes(const struct params *p)
{
	return 32 * p->eta_bits;
}

/* skDecode: rho, K, tr point into sk; s1, s2, t0 decoded. 0, or -EINVAL
 * when a coefficient of s1 or s2 is out of [-eta, eta] (checked over
 * every coefficient; only the verdict is declassified: a malformed key
 * is refused whatever its values). */
static int sk_decode(const struct params *p, const uint8_t *sk, poly *s1,
		     poly *s2, poly *t0)
{
	const uint8_t *q = sk + 128;
	uint32_t bad = 0;

	for (unsigned i = 0; i < p->l + p->k; i++) {
		poly *s = i < p->l ? &s1[i] : &s2[i - p->l];

		unpack_poly(s, q, p->eta_bits, (int32_t)p->eta, 1);
		q += eta_bytes(p);
		/* eta - v with v <= 2 eta: the coefficient >= -eta */
		for (unsigned j = 0; j < N; j++)
			bad |= (uint32_t)(s->c[j] + (int32_t)p->eta) >> 31;
	}
	for (unsigned i = 0; i < p->k; i++) {
		unpack_poly(&t0[i], q, D, 1 << (D - 1), 1);
		q += T0_BYTES;
	}
	PUBLIC(&bad, sizeof(bad));
	return bad ? -EINVAL : 0;
}

/* w1Encode of k polynomials (coefficients in [0, 15]) */
static void w1_encode(const struct params *p, uint8_t *out, const poly *w1)
{
	for (unsigned i = 0; i < p->k; i++)
		pack_poly(out + i * W1_BYTES, &w1[i], 4, 0, 0);
}

/* HintBitUnpack (Algorithm 21) with each of its checks: per row, an
 * end index that does not go back and stays within omega, positions
 * strictly increasing within a row, and zeros after the last. 0, or
 * -EBADMSG. */
static int hint_decode(const struct params *p, const uint8_t *y, poly *h)
{
	unsigned index = 0;

	for (unsigned i = 0; i < p->k; i++) {
		unsigned end = y[p->omega + i], first = index;

		memset(&h[i], 0, sizeof(h[i]));
		if (end < index || end > p->omega)
			return -EBADMSG;
		for (; index < end; index++) {
			if (index > first && y[index - 1] >= y[index])
				return -EBADMSG;
			h[i].c[y[index]] = 1;
		}
	}
	for (; index < p->omega; index++)
		if (y[index])
			return -EBADMSG;
	return 0;
}

/* ---- Key generation (Algorithm 6) ---- */

struct keygen_work {
	poly a, s1[L_MAX], s1hat[L_MAX], s2[K_MAX], t, t1[K_MAX], t0[K_MAX];
	uint8_t expanded[128]; /* rho || rho' || K */
};

/* t = A s1 + s2, row by row, A's entries made as they are used */
static void compute_t(const struct params *p, const uint8_t rho[32],
		      struct keygen_work *w, unsigned i, poly *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned j = 0; j < p->l; j++) {
		expand_a_entry(&w->a, rho, i, j);
		poly_pointwise_acc(t, &w->a, &w->s1hat[j]);
	}
	poly_reduce(t);
	invntt_tomont(t);
	for (unsigned n = 0; n < N; n++)
		t->c[n] = freeze(t->c[n] + w->s2[i].c[n]);
}

static void pk_encode(const struct params *p, uint8_t *pk, const uint8_t rho[32],
		      const poly *t1)
{
	memcpy(pk, rho, 32);
	for (unsigned i = 0; i < p->k; i++)
		pack_poly(pk + 32 + i * T1_BYTES, &t1[i], 10, 0, 0);
}

int verity_mldsa_keygen(int level, const uint8_t seed[VERITY_MLDSA_SEED_BYTES],
			uint8_t *pk, uint8_t *sk)
{
	const struct params *p = params_of(level);
	struct keygen_work *w;
	uint8_t in[34], tr[64], *q;

	if (!p)
		return -EINVAL;
	if (!(w = malloc(sizeof(*w))))
		return -ENOMEM;
	/* (rho, rho', K) = H(xi || k || l, 128) */
	memcpy(in, seed, 32);
	in[32] = (uint8_t)p->k;
	in[33] = (uint8_t)p->l;
	verity_shake256(w->expanded, 128, in, sizeof(in));
	explicit_bzero(in, sizeof(in));
	/* rho is the public key's first 32 bytes */
	PUBLIC(w->expanded, 32);
	for (unsigned i = 0; i < p->l; i++) {
		expand_s_entry(&w->s1[i], w->expanded + 32, i, p->eta);
		w->s1hat[i] = w->s1[i];
		ntt(&w->s1hat[i]);
	}
	for (unsigned i = 0; i < p->k; i++)
		expand_s_entry(&w->s2[i], w->expanded + 32, p->l + i, p->eta);
	for (unsigned i = 0; i < p->k; i++) {
		compute_t(p, w->expanded, w, i, &w->t);
		for (unsigned n = 0; n < N; n++)
			power2round(w->t.c[n], &w->t1[i].c[n], &w->t0[i].c[n]);
	}
	pk_encode(p, pk, w->expanded, w->t1);
	/* t1 is the public key */
	PUBLIC(pk, p->pk);
	verity_shake256(tr, sizeof(tr), pk, p->pk);
	/* skEncode: rho || K || tr || s1 || s2 || t0 */
	memcpy(sk, w->expanded, 32);
	memcpy(sk + 32, w->expanded + 96, 32);
	memcpy(sk + 64, tr, 64);
	q = sk + 128;
	for (unsigned i = 0; i < p->l; i++, q += eta_bytes(p))
		pack_poly(q, &w->s1[i], p->eta_bits, (int32_t)p->eta, 1);
	for (unsigned i = 0; i < p->k; i++, q += eta_bytes(p))
		pack_poly(q, &w->s2[i], p->eta_bits, (int32_t)p->eta, 1);
	for (unsigned i = 0; i < p->k; i++, q += T0_BYTES)
		pack_poly(q, &w->t0[i], D, 1 << (D - 1), 1);
	explicit_bzero(w, sizeof(*w));
	free(w);
	return 0;
}

int verity_mldsa_sk_to_pk(int level, const uint8_t *sk, uint8_t *pk)
{
	const struct params *p = params_of(level);
	struct keygen_work *w;
	uint8_t tr[64];
	uint32_t bad = 0;
	int r;

	if (!p)
		return -EINVAL;
	if (!(w = malloc(sizeof(*w))))
		return -ENOMEM;
	memcpy(w->expanded, sk, 32);
	PUBLIC(w->expanded, 32);
	r = sk_decode(p, sk, w->s1, w->s2, w->t0);
	for (unsigned i = 0; !r && i < p->l; i++) {
		w->s1hat[i] = w->s1[i];
		ntt(&w->s1hat[i]);
	}
	for (unsigned i = 0; !r && i < p->k; i++) {
		compute_t(p, w->expanded, w, i, &w->t);
		for (unsigned n = 0; n < N; n++) {
			int32_t t1, t0;

			power2round(w->t.c[n], &t1, &t0);
			w->t1[i].c[n] = t1;
			bad |= (uint32_t)(t0 ^ w->t0[i].c[n]);
		}
	}
	if (!r) {
		pk_encode(p, pk, w->expanded, w->t1);
		PUBLIC(pk, p->pk);
		verity_shake256(tr, sizeof(tr), pk, p->pk);
		bad |= (uint32_t)verity_mldsa_ct_differ(tr, sk + 64, 64);
		/* whether the key holds together, not what it holds */
		PUBLIC(&bad, sizeof(bad));
		if (bad)
			r = -EINVAL;
	}
	explicit_bzero(w, sizeof(*w));
	free(w);
	return r;
}

/* ---- Signing (Algorithm 7) ---- */

struct sign_work {
	poly a[K_MAX * L_MAX];                      /* A, NTT domain */
	poly s1[L_MAX], s2[K_MAX], t0[K_MAX];       /* NTT domain */
	poly y[L_MAX], z[L_MAX], w[K_MAX], w1[K_MAX], h[K_MAX];
	poly c, tmp;
	uint8_t rho[32], rhopp[64], ctilde[64];
	uint8_t w1buf[K_MAX * W1_BYTES];
};

/* One attempt with y = ExpandMask(rho'', kappa): 0 and the signature,
 * or 1 when the attempt is rejected. */
static int sign_attempt(const struct params *p, struct sign_work *w,
			const uint8_t mu[64], unsigned kappa, uint8_t *sig)
{
	uint32_t bad = 0, count = 0;
	uint8_t *q;

	for (unsigned j = 0; j < p->l; j++) {
		expand_mask_entry(&w->y[j], w->rhopp, kappa + j);
		w->z[j] = w->y[j];
		ntt(&w->z[j]);
	}
	/* w = A y; w1 = HighBits(w) */
	for (unsigned i = 0; i < p->k; i++) {
		memset(&w->w[i], 0, sizeof(w->w[i]));
		for (unsigned j = 0; j < p->l; j++)
			poly_pointwise_acc(&w->w[i], &w->a[i * p->l + j],
					   &w->z[j]);
		poly_reduce(&w->w[i]);
		invntt_tomont(&w->w[i]);
		poly_freeze(&w->w[i]);
		for (unsigned n = 0; n < N; n++) {
			int32_t r0;

			decompose(w->w[i].c[n], &w->w1[i].c[n], &r0);
		}
	}
	/* c~ = H(mu || w1Encode(w1), lambda/4) */
	w1_encode(p, w->w1buf, w->w1);
	{
		struct verity_keccak k;

		verity_shake256_init(&k);
		verity_keccak_absorb(&k, mu, 64);
		verity_keccak_absorb(&k, w->w1buf, p->k * W1_BYTES);
		verity_keccak_finalize(&k);
		verity_keccak_squeeze(&k, w->ctilde, p->ctilde);
		explicit_bzero(&k, sizeof(k));
	}
	/* a hash output that shows nothing of the key, even when this
	 * attempt is rejected (head of the file) */
	PUBLIC(w->ctilde, p->ctilde);
	sample_in_ball(&w->c, w->ctilde, p->ctilde, p->tau);
	ntt(&w->c);
	/* z = y + c s1 */
	for (unsigned j = 0; j < p->l; j++) {
		poly_pointwise(&w->tmp, &w->c, &w->s1[j]);
		invntt_tomont(&w->tmp);
		for (unsigned n = 0; n < N; n++)
			w->z[j].c[n] = centered(w->y[j].c[n] + w->tmp.c[n]);
		bad |= poly_exceeds(&w->z[j], GAMMA1 - (int32_t)p->beta);
	}
	/* r0 = LowBits(w - c s2); w becomes w - c s2 */
	for (unsigned i = 0; i < p->k; i++) {
		poly_pointwise(&w->tmp, &w->c, &w->s2[i]);
		invntt_tomont(&w->tmp);
		for (unsigned n = 0; n < N; n++) {
			int32_t r1, r0, m;

			w->w[i].c[n] = freeze(w->w[i].c[n] - w->tmp.c[n]);
			decompose(w->w[i].c[n], &r1, &r0);
			m = r0 >> 31;
			r0 = (r0 ^ m) - m;
			bad |= (uint32_t)((GAMMA2 - (int32_t)p->beta - 1) -
					  r0) >> 31;
		}
	}
	/* whether the attempt is rejected is public (head of the file) */
	PUBLIC(&bad, sizeof(bad));
	if (bad)
		return 1;
	/* ct0; h = MakeHint(-ct0, w - c s2 + ct0): whether adding ct0
	 * moves the high bits */
	for (unsigned i = 0; i < p->k; i++) {
		poly_pointwise(&w->tmp, &w->c, &w->t0[i]);
		invntt_tomont(&w->tmp);
		bad |= poly_exceeds(&w->tmp, GAMMA2);
		for (unsigned n = 0; n < N; n++) {
			int32_t hi_plus, hi, r0;
			uint32_t diff;

			decompose(freeze(w->w[i].c[n] + w->tmp.c[n]), &hi_plus,
				  &r0);
			decompose(w->w[i].c[n], &hi, &r0);
			diff = (uint32_t)(hi_plus ^ hi);
			diff = (diff | (0u - diff)) >> 31;
			w->h[i].c[n] = (int32_t)diff;
			count += diff;
		}
	}
	bad |= (p->omega - count) >> 31; /* more than omega hints */
	PUBLIC(&bad, sizeof(bad));
	if (bad)
		return 1;
	/* accepted: z and h are the signature */
	PUBLIC(w->z, sizeof(w->z));
	PUBLIC(w->h, sizeof(w->h));
	/* sigEncode: c~ || z (gamma1 - z, 20 bits) || HintBitPack(h) */
	memcpy(sig, w->ctilde, p->ctilde);
	q = sig + p->ctilde;
	for (unsigned j = 0; j < p->l; j++, q += Z_BYTES)
		pack_poly(q, &w->z[j], 20, GAMMA1, 1);
	memset(q, 0, p->omega + p->k);
	count = 0;
	for (unsigned i = 0; i < p->k; i++) {
		for (unsigned n = 0; n < N; n++)
			if (w->h[i].c[n])
				q[count++] = (uint8_t)n;
		q[p->omega + i] = (uint8_t)count;
	}
	return 0;
}

static int get_rnd(enum verity_mldsa_rnd how, const uint8_t *given,
		   uint8_t rnd[32])
{
	size_t got = 0;

	switch (how) {
	case VERITY_MLDSA_DETERMINISTIC:
		memset(rnd, 0, 32);
		return 0;
	case VERITY_MLDSA_RND_GIVEN:
		if (!given)
			return -EINVAL;
		memcpy(rnd, given, 32);
		return 0;
	case VERITY_MLDSA_HEDGED:
		while (got < 32) {
			ssize_t n = getrandom(rnd + got, 32 - got, 0);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return n < 0 ? -errno : -EIO;
			got += (size_t)n;
		}
		SECRET(rnd, 32);
		return 0;
	}
	return -EINVAL;
}

static int sign_mu(const struct params *p, const uint8_t *sk,
		   const uint8_t mu[64], enum verity_mldsa_rnd how,
		   const uint8_t *given, uint8_t *sig)
{
	struct sign_work *w;
	struct verity_keccak k;
	uint8_t rnd[32];
	int r;

	if ((r = get_rnd(how, given, rnd)))
		return r;
	if (!(w = malloc(sizeof(*w)))) {
		explicit_bzero(rnd, sizeof(rnd));
		return -ENOMEM;
	}
	if ((r = sk_decode(p, sk, w->s1, w->s2, w->t0)))
		goto out;
	/* rho'' = H(K || rnd || mu, 64) */
	verity_shake256_init(&k);
	verity_keccak_absorb(&k, sk + 32, 32);
	verity_keccak_absorb(&k, rnd, 32);
	verity_keccak_absorb(&k, mu, 64);
	verity_keccak_finalize(&k);
	verity_keccak_squeeze(&k, w->rhopp, 64);
	explicit_bzero(&k, sizeof(k));
	/* rho: the public key's */
	memcpy(w->rho, sk, 32);
	PUBLIC(w->rho, 32);
	for (unsigned i = 0; i < p->k; i++)
		for (unsigned j = 0; j < p->l; j++)
			expand_a_entry(&w->a[i * p->l + j], w->rho, i, j);
	for (unsigned j = 0; j < p->l; j++)
		ntt(&w->s1[j]);
	for (unsigned i = 0; i < p->k; i++) {
		ntt(&w->s2[i]);
		ntt(&w->t0[i]);
	}
	r = -EAGAIN;
	for (unsigned attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
		if (!sign_attempt(p, w, mu, attempt * p->l, sig)) {
			r = 0;
			break;
		}
out:
	explicit_bzero(rnd, sizeof(rnd));
	explicit_bzero(w, sizeof(*w));
	free(w);
	return r;
}

int verity_mldsa_sign_mu(int level, const uint8_t *sk,
			 const uint8_t mu[VERITY_MLDSA_MU_BYTES],
			 enum verity_mldsa_rnd how, const uint8_t *rnd,
			 uint8_t *sig)
{
	const struct params *p = params_of(level);

	if (!p)
		return -EINVAL;
	return sign_mu(p, sk, mu, how, rnd, sig);
}

int verity_mldsa_sign(int level, const uint8_t *sk, const uint8_t *msg,
		      size_t msg_len, const uint8_t *ctx, size_t ctx_len,
		      enum verity_mldsa_rnd how, const uint8_t *rnd,
		      uint8_t *sig)
{
	const struct params *p = params_of(level);
	struct verity_mldsa_mu m;
	uint8_t tr[64], mu[64];
	int r;

	if (!p)
		return -EINVAL;
	/* tr, the digest of the public key, is public */
	memcpy(tr, sk + 64, 64);
	PUBLIC(tr, sizeof(tr));
	if ((r = verity_mldsa_mu_init_tr(&m, tr, ctx, ctx_len)))
		return r;
	verity_mldsa_mu_update(&m, msg, msg_len);
	verity_mldsa_mu_final(&m, mu);
	return sign_mu(p, sk, mu, how, rnd, sig);
}

/* ---- Verification (Algorithm 8) ---- */

struct verify_work {
	poly z[L_MAX], h[K_MAX], w1[K_MAX], a, w, t1, c;
	uint8_t w1buf[K_MAX * W1_BYTES], ctilde[64];
};

static int verify_mu(const struct params *p, const uint8_t *pk,
		     const uint8_t mu[64], const uint8_t *sig)
{
	struct verify_work *w;
	struct verity_keccak k;
	const uint8_t *q = sig + p->ctilde;
	int r = -EBADMSG;

	if (!(w = malloc(sizeof(*w))))
		return -ENOMEM;
	/* sigDecode: z with each coefficient in (-gamma1, gamma1] by its
	 * 20 bits; ||z|| < gamma1 - beta below; the hints' checks */
	for (unsigned j = 0; j < p->l; j++, q += Z_BYTES)
		unpack_poly(&w->z[j], q, 20, GAMMA1, 1);
	if (hint_decode(p, q, w->h))
		goto out;
	for (unsigned j = 0; j < p->l; j++)
		if (poly_exceeds(&w->z[j], GAMMA1 - (int32_t)p->beta))
			goto out;
	sample_in_ball(&w->c, sig, p->ctilde, p->tau);
	ntt(&w->c);
	for (unsigned j = 0; j < p->l; j++)
		ntt(&w->z[j]);
	/* w'approx = A z - c t1 2^d, row by row; w1' = UseHint(h, w') */
	for (unsigned i = 0; i < p->k; i++) {
		memset(&w->w, 0, sizeof(w->w));
		for (unsigned j = 0; j < p->l; j++) {
			expand_a_entry(&w->a, pk, i, j);
			poly_pointwise_acc(&w->w, &w->a, &w->z[j]);
		}
		unpack_poly(&w->t1, pk + 32 + i * T1_BYTES, 10, 0, 0);
		for (unsigned n = 0; n < N; n++)
			w->t1.c[n] <<= D;
		ntt(&w->t1);
		for (unsigned n = 0; n < N; n++)
			w->w.c[n] -= mont_reduce((int64_t)w->c.c[n] *
						 w->t1.c[n]);
		poly_reduce(&w->w);
		invntt_tomont(&w->w);
		poly_freeze(&w->w);
		for (unsigned n = 0; n < N; n++)
			w->w1[i].c[n] = use_hint(w->w.c[n], w->h[i].c[n]);
	}
	w1_encode(p, w->w1buf, w->w1);
	verity_shake256_init(&k);
	verity_keccak_absorb(&k, mu, 64);
	verity_keccak_absorb(&k, w->w1buf, p->k * W1_BYTES);
	verity_keccak_finalize(&k);
	verity_keccak_squeeze(&k, w->ctilde, p->ctilde);
	if (!memcmp(w->ctilde, sig, p->ctilde))
		r = 0;
out:
	free(w);
	return r;
}

int verity_mldsa_verify_mu(int level, const uint8_t *pk, size_t pk_len,
			   const uint8_t mu[VERITY_MLDSA_MU_BYTES],
			   const uint8_t *sig, size_t sig_len)
{
	const struct params *p = params_of(level);

	if (!p || pk_len != p->pk)
		return -EINVAL;
	if (sig_len != p->sig)
		return -EBADMSG;
	return verify_mu(p, pk, mu, sig);
}

int verity_mldsa_verify(int level, const uint8_t *pk, size_t pk_len,
			const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
			size_t ctx_len, const uint8_t *sig, size_t sig_len)
{
	const struct params *p = params_of(level);
	struct verity_mldsa_mu m;
	uint8_t mu[64];
	int r;

	if (!p || pk_len != p->pk)
		return -EINVAL;
	if ((r = verity_mldsa_mu_init_pk(&m, level, pk, pk_len, ctx, ctx_len)))
		return r;
	verity_mldsa_mu_update(&m, msg, msg_len);
	verity_mldsa_mu_final(&m, mu);
	if (sig_len != p->sig)
		return -EBADMSG;
	return verify_mu(p, pk, mu, sig);
}

/* ---- mu, as the message arrives ---- */

void verity_mldsa_tr(const uint8_t *pk, size_t pk_len,
		     uint8_t tr[VERITY_MLDSA_TR_BYTES])
{
	verity_shake256(tr, VERITY_MLDSA_TR_BYTES, pk, pk_len);
}

int verity_mldsa_mu_init_tr(struct verity_mldsa_mu *m,
			    const uint8_t tr[VERITY_MLDSA_TR_BYTES],
			    const uint8_t *ctx, size_t ctx_len)
{
	uint8_t pre[2] = {0, (uint8_t)ctx_len};

	if (ctx_len > 255)
		return -EINVAL;
	verity_shake256_init(&m->k);
	verity_keccak_absorb(&m->k, tr, VERITY_MLDSA_TR_BYTES);
	verity_keccak_absorb(&m->k, pre, 2);
	if (ctx_len)
		verity_keccak_absorb(&m->k, ctx, ctx_len);
	return 0;
}

int verity_mldsa_mu_init_pk(struct verity_mldsa_mu *m, int level,
			    const uint8_t *pk, size_t pk_len,
			    const uint8_t *ctx, size_t ctx_len)
{
	const struct params *p = params_of(level);
	uint8_t tr[VERITY_MLDSA_TR_BYTES];

	if (!p || pk_len != p->pk || ctx_len > 255)
		return -EINVAL;
	verity_mldsa_tr(pk, pk_len, tr);
	return verity_mldsa_mu_init_tr(m, tr, ctx, ctx_len);
}

void verity_mldsa_mu_update(struct verity_mldsa_mu *m, const void *data,
			    size_t len)
{
	if (len)
		verity_keccak_absorb(&m->k, data, len);
}

void verity_mldsa_mu_final(struct verity_mldsa_mu *m,
			   uint8_t mu[VERITY_MLDSA_MU_BYTES])
{
	verity_keccak_finalize(&m->k);
	verity_keccak_squeeze(&m->k, mu, VERITY_MLDSA_MU_BYTES);
	explicit_bzero(m, sizeof(*m));
}
