/* ML-DSA of the library over hex lines, for tests/cli/t_mldsa.sh to set
 * against @noble/post-quantum (tests/cli/mldsa_noble.mjs answers the
 * same lines). One command a line on stdin, one answer a line on stdout;
 * LEVEL is 65 or 87, "-" an empty message:
 *   pk LEVEL SEED               the public key of KeyGen(SEED)
 *   sign LEVEL SEED MSG MODE    a signature of MSG (empty context) by
 *                               KeyGen(SEED); MODE det or hedged
 *   verify LEVEL PK MSG SIG [CTX]
 *                               "ok" or "bad" (CTX: the context, empty
 *                               when left out)
 *   sk LEVEL SEED               the expanded secret key of KeyGen(SEED)
 *   signsk LEVEL SK MSG CTX MODE
 *                               a signature of MSG with context CTX by
 *                               the expanded secret key SK; MODE det or
 *                               hedged
 *                               (sk, signsk and CTX: for t_mldsa_kat.sh's
 *                               ACVP known answers; noble's side has none)
 *   bench LEVEL RUNS            the median CPU time of keygen, sign
 *                               (hedged) and verify of a 2304-byte
 *                               message, each timed RUNS times
 *   avb IMAGE KEY RUNS          for make bench, beside RSA: the median
 *                               CPU time of checking the vbmeta image
 *                               IMAGE as every reader does (parsed, its
 *                               signature checked) and of signing its
 *                               header and auxiliary block with the
 *                               private key KEY (ML-DSA hedged), each
 *                               timed RUNS times
 * Exit status 0, or 2 for a line it cannot read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verity/container/avb/vbmeta.h"
#include "verity/sign/mldsa.h"
#include "verity/sign/scheme.h"

static int unhex(const char *s, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(s);

	*len = 0;
	if (!strcmp(s, "-"))
		return 0;
	if (n % 2 || n / 2 > max)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

static void put_hex(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		putchar(digits[p[i] >> 4]);
		putchar(digits[p[i] & 15]);
	}
	putchar('\n');
}

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *t, unsigned n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* bench LEVEL RUNS: medians in microseconds */
static int bench(int level, unsigned runs)
{
	struct verity_mldsa_sizes s;
	static uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES], sk[VERITY_MLDSA_MAX_SK_BYTES];
	static uint8_t sig[VERITY_MLDSA_MAX_SIG_BYTES], msg[2304];
	uint8_t seed[32] = {1};
	double *t[3], t0;

	verity_mldsa_sizes(level, &s);
	memset(msg, 0xa5, sizeof(msg));
	for (int k = 0; k < 3; k++)
		if (!(t[k] = malloc(runs * sizeof(double))))
			return 3;
	for (unsigned i = 0; i < runs; i++) {
		seed[1] = (uint8_t)i;
		t0 = cpu_now();
		if (verity_mldsa_keygen(level, seed, pk, sk))
			return 1;
		t[0][i] = cpu_now() - t0;
		t0 = cpu_now();
		if (verity_mldsa_sign(level, sk, msg, sizeof(msg), NULL, 0, VERITY_MLDSA_HEDGED,
				      NULL, sig))
			return 1;
		t[1][i] = cpu_now() - t0;
		t0 = cpu_now();
		if (verity_mldsa_verify(level, pk, s.pk, msg, sizeof(msg), NULL, 0, sig, s.sig))
			return 1;
		t[2][i] = cpu_now() - t0;
	}
	printf("ML-DSA-%d: keygen %.1f us, sign %.1f us, verify %.1f us (medians of %u, CPU "
	       "time)\n",
	       level, median(t[0], runs) * 1e6, median(t[1], runs) * 1e6,
	       median(t[2], runs) * 1e6, runs);
	for (int k = 0; k < 3; k++)
		free(t[k]);
	return 0;
}

/* avb IMAGE KEY RUNS: medians in microseconds */
static int bench_avb(const char *image, const char *key, unsigned runs)
{
	static uint8_t blob[1 << 16];
	uint8_t sig[VERITY_SCHEME_MAX_SIG], digest[VERITY_SCHEME_MAX_HASH];
	const struct verity_scheme *alg;
	struct verity_sigkey k;
	struct avb_vbmeta v;
	struct ht_error err;
	double *t[2], t0;
	size_t len;
	FILE *f = fopen(image, "rb");

	if (!f)
		return 1;
	len = fread(blob, 1, sizeof(blob), f);
	fclose(f);
	if (verity_avb_vbmeta_parse(blob, len, image, &v, &err) ||
	    !(alg = verity_avb_algorithm(v.h.algorithm)) || !alg->sig_size ||
	    verity_sigkey_read(key, alg, 1, &k, &err)) {
		fprintf(stderr, "mldsa-tool: %s\n", ht_msg(&err));
		return 1;
	}
	for (int i = 0; i < 2; i++)
		if (!(t[i] = malloc(runs * sizeof(double))))
			return 3;
	for (unsigned i = 0; i < runs; i++) {
		const struct verity_msg m[2] = {
			{blob, AVB_HEADER_SIZE},
			{blob + AVB_HEADER_SIZE + v.h.auth_size, (size_t)v.h.aux_size}};
		struct avb_vbmeta w;

		t0 = cpu_now();
		if (verity_avb_vbmeta_parse(blob, len, image, &w, &err) ||
		    verity_avb_vbmeta_check(&w, image, &err))
			return 1;
		t[0][i] = cpu_now() - t0;
		verity_avb_vbmeta_free(&w);
		t0 = cpu_now();
		if (verity_scheme_sign(alg, &k, m, 2, VERITY_MLDSA_HEDGED, digest, sig, &err))
			return 1;
		t[1][i] = cpu_now() - t0;
	}
	printf("%s: verify %.1f us, sign %.1f us (medians of %u, CPU time)\n", alg->name,
	       median(t[0], runs) * 1e6, median(t[1], runs) * 1e6, runs);
	verity_sigkey_free(&k);
	verity_avb_vbmeta_free(&v);
	for (int i = 0; i < 2; i++)
		free(t[i]);
	return 0;
}

static int bad_line(unsigned n)
{
	fprintf(stderr, "mldsa-tool: line %u: cannot read it\n", n);
	return 2;
}

int main(void)
{
	static char line[1 << 17];
	static uint8_t msg[1 << 15], pk[VERITY_MLDSA_MAX_PK_BYTES + 8];
	static uint8_t sk[VERITY_MLDSA_MAX_SK_BYTES], sig[VERITY_MLDSA_MAX_SIG_BYTES + 8];
	static uint8_t ctx[255];
	unsigned n = 0;

	while (fgets(line, sizeof(line), stdin)) {
		char *tok[7];
		int nt = 0, level;
		struct verity_mldsa_sizes s;
		uint8_t seed[32];
		size_t len, msg_len, pk_len, sig_len, ctx_len = 0;

		n++;
		for (char *p = strtok(line, " \n"); p && nt < 7; p = strtok(NULL, " \n"))
			tok[nt++] = p;
		if (nt == 4 && !strcmp(tok[0], "avb")) {
			int r = bench_avb(tok[1], tok[2], (unsigned)atoi(tok[3]) ? (unsigned)atoi(tok[3]) : 1);

			if (r)
				return r;
			fflush(stdout);
			continue;
		}
		if (nt < 3 || verity_mldsa_sizes(level = atoi(tok[1]), &s))
			return bad_line(n);
		if (!strcmp(tok[0], "bench") && nt == 3) {
			int r = bench(level, (unsigned)atoi(tok[2]) ? (unsigned)atoi(tok[2]) : 1);

			if (r)
				return r;
		} else if (!strcmp(tok[0], "pk") && nt == 3) {
			if (unhex(tok[2], seed, 32, &len) || len != 32 ||
			    verity_mldsa_keygen(level, seed, pk, sk))
				return bad_line(n);
			put_hex(pk, s.pk);
		} else if (!strcmp(tok[0], "sk") && nt == 3) {
			if (unhex(tok[2], seed, 32, &len) || len != 32 ||
			    verity_mldsa_keygen(level, seed, pk, sk))
				return bad_line(n);
			put_hex(sk, s.sk);
		} else if (!strcmp(tok[0], "signsk") && nt == 6) {
			if (unhex(tok[2], sk, sizeof(sk), &len) || len != s.sk ||
			    unhex(tok[3], msg, sizeof(msg), &msg_len) ||
			    unhex(tok[4], ctx, sizeof(ctx), &ctx_len) ||
			    verity_mldsa_sign(level, sk, msg, msg_len, ctx, ctx_len,
					      strcmp(tok[5], "det") ? VERITY_MLDSA_HEDGED
								    : VERITY_MLDSA_DETERMINISTIC,
					      NULL, sig))
				return bad_line(n);
			put_hex(sig, s.sig);
		} else if (!strcmp(tok[0], "sign") && nt == 5) {
			if (unhex(tok[2], seed, 32, &len) || len != 32 ||
			    unhex(tok[3], msg, sizeof(msg), &msg_len) ||
			    verity_mldsa_keygen(level, seed, pk, sk) ||
			    verity_mldsa_sign(level, sk, msg, msg_len, NULL, 0,
					      strcmp(tok[4], "det") ? VERITY_MLDSA_HEDGED
								    : VERITY_MLDSA_DETERMINISTIC,
					      NULL, sig))
				return bad_line(n);
			put_hex(sig, s.sig);
		} else if (!strcmp(tok[0], "verify") && (nt == 5 || nt == 6)) {
			int r;

			if (unhex(tok[2], pk, sizeof(pk), &pk_len) ||
			    unhex(tok[3], msg, sizeof(msg), &msg_len) ||
			    unhex(tok[4], sig, sizeof(sig), &sig_len) ||
			    (nt == 6 && unhex(tok[5], ctx, sizeof(ctx), &ctx_len)))
				return bad_line(n);
			r = verity_mldsa_verify(level, pk, pk_len, msg, msg_len, ctx, ctx_len,
						sig, sig_len);
			if (r && r != -EBADMSG && r != -EINVAL)
				return bad_line(n);
			puts(r ? "bad" : "ok");
		} else {
			return bad_line(n);
		}
		fflush(stdout);
	}
	return 0;
}
