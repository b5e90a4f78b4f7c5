/* bench: the ways of hashing 4096-byte blocks, side by side, on one
 * core, and the library's SHA-256 kernels on every thread at once. */
#include <errno.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hashtree/hasher.h"
#include "hashtree/thread.h"
#include "verity/bench/bench.h"

#define IMPL_BLOCK  4096
#define IMPL_SALT   32
#define IMPL_BLOCKS 64 /* 256 KiB of messages, resident in cache */

/* --- one core, 4096-byte messages ------------------------------------ */

enum impl {
	IMPL_AVX512,  /* 16 lanes of AVX-512, where the CPU has it */
	IMPL_HW_3WAY, /* SHA-NI three-way, where the CPU has SHA-NI */
	IMPL_HW_2WAY, /* this architecture's SHA-256 instructions */
	IMPL_HW_1WAY,
	IMPL_PORTABLE,
	IMPL_EVP_PER_BLOCK,
	IMPL_EVP_PRESALTED,
	IMPL_AF_ALG,
	IMPL_COUNT,
};

static const char *const impl_names[IMPL_COUNT] = {
	"SHA-256 AVX-512 16-lane",
	"SHA-256 SHA-NI three-way",
	"SHA-256 instructions two-way", /* named after the kernel */
	"SHA-256 instructions one-way",
	"SHA-256 portable C",
	"OpenSSL EVP, new context per block",
	"OpenSSL EVP, pre-salted context copied",
	"Kernel crypto API (AF_ALG)",
};

/* (the fast path's note goes to the kernel the library picks) */
static const char *const impl_notes[IMPL_COUNT] = {
	"",
	"",
	"",
	"",
	"fastverity without them",
	"how veritysetup hashes",
	"fastverity's generic path",
	"",
};

/* What the ways of hashing start from: the salt, its salted state for
 * the kernels, the architecture's kernel, and an AF_ALG socket. */
struct impl_start {
	const uint8_t *salt;
	struct sha256_salted_state st;
	enum sha256_kernel hw;
	int alg_fd;
};

/* One pass of IMPL_BLOCKS messages; returns 0 or a negative errno. */
static int impl_pass(enum impl k, const struct impl_start *is,
		     const uint8_t *buf, uint8_t *out)
{
	const struct sha256_salted_state *st = &is->st;
	const uint8_t *salt = is->salt;

	switch (k) {
	case IMPL_AVX512:
		sha256_finup_many(SHA256_KERNEL_AVX512, st, buf, IMPL_BLOCK,
				  IMPL_BLOCKS, out, 32);
		return 0;
	case IMPL_HW_3WAY:
		sha256_finup_many(SHA256_KERNEL_SHANI3, st, buf, IMPL_BLOCK,
				  IMPL_BLOCKS, out, 32);
		return 0;
	case IMPL_HW_2WAY:
		sha256_finup_many(is->hw, st, buf, IMPL_BLOCK, IMPL_BLOCKS, out,
				  32);
		return 0;
	case IMPL_HW_1WAY:
		/* the kernel's single stream: one message a call is what
		 * this row measures */
		for (int i = 0; i < IMPL_BLOCKS; i++)
			sha256_finup_one(is->hw, st, buf + i * IMPL_BLOCK,
					 IMPL_BLOCK, out + i * 32);
		return 0;
	case IMPL_PORTABLE:
		sha256_finup_many(SHA256_KERNEL_PORTABLE, st, buf, IMPL_BLOCK,
				  IMPL_BLOCKS, out, 32);
		return 0;
	case IMPL_EVP_PER_BLOCK:
	case IMPL_EVP_PRESALTED:
		return ht_evp_sha256_blocks(k == IMPL_EVP_PER_BLOCK, salt,
					    IMPL_SALT, buf, IMPL_BLOCK,
					    IMPL_BLOCKS, out, 32, NULL);
	case IMPL_AF_ALG:
		for (int i = 0; i < IMPL_BLOCKS; i++) {
			if (send(is->alg_fd, salt, IMPL_SALT, MSG_MORE) !=
				    IMPL_SALT ||
			    send(is->alg_fd, buf + i * IMPL_BLOCK, IMPL_BLOCK,
				 0) != IMPL_BLOCK ||
			    read(is->alg_fd, out + i * 32, 32) != 32)
				return -errno;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/* An AF_ALG sha256 operation socket, or -errno with why in *why. */
static int af_alg_open(char *why, size_t len)
{
	struct sockaddr_alg sa = {.salg_family = AF_ALG};
	int tfm, op;

	strcpy((char *)sa.salg_type, "hash");
	strcpy((char *)sa.salg_name, "sha256");
	tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (tfm < 0) {
		snprintf(why, len, "this kernel offers no AF_ALG sockets (%s)",
			 strerror(errno));
		return -errno;
	}
	if (bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(why, len, "the kernel has no sha256 for AF_ALG (%s)",
			 strerror(errno));
		close(tfm);
		return -errno;
	}
	op = accept(tfm, NULL, 0);
	if (op < 0)
		snprintf(why, len, "AF_ALG accept failed (%s)",
			 strerror(errno));
	close(tfm);
	return op < 0 ? -errno : op;
}

/* --- the clock ------------------------------------------------------- */

/* The core's clock in MHz from a chain of dependent integer adds, one a
 * cycle on every x86-64 and Armv8 core (the virtual machines this runs in
 * often have no cycle counter, and /proc/cpuinfo's "cpu MHz" is then the
 * nominal clock, not the one the kernels ran at); the fastest of a few
 * short runs. 0 elsewhere. */
#if defined(__x86_64__)
#define ADD1 "add %1,%0\n\t"
#elif defined(__aarch64__)
#define ADD1 "add %0,%0,%1\n\t"
#endif
#ifdef ADD1
#define ADDS5  ADD1 ADD1 ADD1 ADD1 ADD1
#define ADDS20 ADDS5 ADDS5 ADDS5 ADDS5
#endif

static double clock_mhz(void)
{
#ifdef ADD1
	double best = 0;

	for (int run = 0; run < 5; run++) {
		const long n = 2000000; /* 20 adds each: 40 M cycles */
		unsigned long x = 1, y = 3;
		double t0 = verity_bench_now(), t;

		for (long i = 0; i < n; i++)
			__asm__ volatile(ADDS20 : "+r"(x) : "r"(y));
		t = verity_bench_now() - t0;
		if (t > 0 && 20.0 * n / t / 1e6 > best)
			best = 20.0 * n / t / 1e6;
	}
	return best;
#else
	return 0;
#endif
}

/* --- every thread at once --------------------------------------------- */

/* One thread of a kernel's all-threads round: its own messages, hashed
 * until the round's end; how many passes it made. */
struct all_thread {
	enum impl k;
	const struct impl_start *is;
	double until;
	uint64_t passes;
	int failed;
	/* aligned as the tree's buffers are (unaligned, the lanes'
	 * two-thread rate measured 9.2 GB/s here against 10.5) */
	_Alignas(64) uint8_t buf[IMPL_BLOCKS * IMPL_BLOCK];
	uint8_t out[IMPL_BLOCKS * 32];
};

static void *all_thread_run(void *arg)
{
	struct all_thread *a = arg;

	do {
		if (impl_pass(a->k, a->is, a->buf, a->out)) {
			a->failed = 1;
			break;
		}
		a->passes++;
	} while (verity_bench_now() < a->until);
	return NULL;
}

/* Kernel k on every thread at once (the library's one fan-out), in
 * BENCH_ROUNDS rounds of about budget / BENCH_ROUNDS seconds: MB/s of
 * all threads together into r. Not measured (left < 0) with one thread,
 * or when a thread cannot be started. */
static void run_all_threads(struct bench_impl *r, enum impl k,
			    const struct impl_start *is, unsigned threads,
			    double budget)
{
	struct all_thread *a;
	double rates[BENCH_ROUNDS];

	r->all_mb_per_s = -1;
	if (threads < 2 || threads > VERITY_MAX_THREADS ||
	    !(a = aligned_alloc(64, threads * sizeof(*a))))
		return;
	/* each thread its own messages, made once, outside the rounds */
	for (unsigned i = 0; i < threads; i++) {
		a[i].k = k;
		a[i].is = is;
		for (size_t b = 0; b < sizeof(a[i].buf); b++)
			a[i].buf[b] = (uint8_t)(b * 131 + (b >> 12) + i);
	}
	for (unsigned round = 0; round < BENCH_ROUNDS; round++) {
		double t0 = verity_bench_now(), t;
		uint64_t passes = 0;
		unsigned ran;
		int failed = 0;

		for (unsigned i = 0; i < threads; i++) {
			a[i].until = t0 + budget / BENCH_ROUNDS;
			a[i].passes = 0;
			a[i].failed = 0;
		}
		ran = ht_fan_out(threads, all_thread_run, a, sizeof(*a), NULL);
		for (unsigned i = 0; i < threads; i++) {
			passes += a[i].passes;
			failed |= a[i].failed;
		}
		t = verity_bench_now() - t0;
		if (ran < threads || failed || t <= 0) {
			free(a);
			return;
		}
		rates[round] = (double)passes * sizeof(a->buf) / t / 1e6;
	}
	free(a);
	verity_bench_stats(rates, BENCH_ROUNDS, &r->all_mb_per_s, &r->all_lo,
			   &r->all_hi);
}

void verity_bench_hashing(struct bench_report *rep, enum sha256_choice choice,
			  double total)
{
	/* the five kernels' rows are measured twice: one core, then
	 * every thread */
	double budget = total / (IMPL_COUNT + 5);
	const size_t size = IMPL_BLOCKS * IMPL_BLOCK;
	uint8_t *buf = aligned_alloc(64, size), *out = malloc(IMPL_BLOCKS * 32);
	uint8_t salt[IMPL_SALT];
	struct ht_error err;
	struct impl_start is = {
		.salt = salt,
		.hw = ht_sha256_arch_kernel(),
		.alg_fd = -1,
	};
	enum sha256_kernel fast = ht_sha256_kernel_choose(choice);
	double best = 0;

	rep->clock_mhz = clock_mhz();
	if (!buf || !out) {
		free(buf);
		free(out);
		return; /* out of memory: no rows */
	}
	for (size_t i = 0; i < size; i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 12));
	memset(salt, 0x5a, sizeof(salt));
	ht_sha256_salted_init(&is.st, salt, sizeof(salt));
	for (int k = 0; k < IMPL_COUNT; k++) {
		struct bench_impl *r = &rep->impls[rep->nimpls++];
		int ok = 1;
		uint64_t passes = 0;
		double t0, t = 0, rates[BENCH_ROUNDS];

		memset(r, 0, sizeof(*r));
		r->name = impl_names[k];
		r->note = impl_notes[k];
		r->mb_per_s = -1;
		r->all_mb_per_s = -1;
		r->ratio = -1;
		if (k == IMPL_EVP_PER_BLOCK)
			r->flags |= BENCH_REFERENCE;
		if ((k == IMPL_AVX512 && fast == SHA256_KERNEL_AVX512) ||
		    (k == IMPL_HW_3WAY && fast == SHA256_KERNEL_SHANI3) ||
		    (k == IMPL_HW_2WAY && fast != SHA256_KERNEL_SHANI3 &&
		     fast != SHA256_KERNEL_AVX512 &&
		     fast != SHA256_KERNEL_PORTABLE)) {
			r->note = "fastverity's fast path";
			r->flags |= BENCH_FAST_PATH;
		}
		if ((k == IMPL_HW_3WAY &&
		     !ht_sha256_kernel_available(SHA256_KERNEL_SHANI3)) ||
		    (k == IMPL_AVX512 &&
		     !ht_sha256_kernel_available(SHA256_KERNEL_AVX512))) {
			rep->nimpls--; /* no row off x86-64 or without SHA-NI */
			continue;
		}
		if (k == IMPL_HW_1WAY || k == IMPL_HW_2WAY) {
			snprintf(r->name_buf, sizeof(r->name_buf),
				 "SHA-256 %s %s-way",
				 is.hw == SHA256_KERNEL_PORTABLE
					 ? "instructions"
					 : ht_sha256_kernel_label(is.hw),
				 k == IMPL_HW_2WAY ? "two" : "one");
			r->name = r->name_buf;
			if (is.hw == SHA256_KERNEL_PORTABLE) {
				snprintf(r->why, sizeof(r->why),
					 "fastverity has no SHA-256 kernel "
					 "for this architecture");
				continue;
			}
			if (!ht_sha256_kernel_available(is.hw)) {
				snprintf(r->why, sizeof(r->why),
					 "this CPU has no %s",
					 ht_sha256_kernel_label(is.hw));
				continue;
			}
		}
		/* (OpenSSL opened here, by the first of them) */
		if ((k == IMPL_EVP_PER_BLOCK || k == IMPL_EVP_PRESALTED) &&
		    ht_evp_sha256_blocks(k == IMPL_EVP_PER_BLOCK, salt,
					 IMPL_SALT, buf, IMPL_BLOCK, 1, out, 32,
					 &err)) {
			snprintf(r->why, sizeof(r->why), "%.159s", ht_msg(&err));
			continue;
		}
		if (k == IMPL_AF_ALG) {
			is.alg_fd = af_alg_open(r->why, sizeof(r->why));
			if (is.alg_fd < 0)
				continue;
		}
		for (unsigned round = 0; ok && round < BENCH_ROUNDS; round++) {
			passes = 0;
			t0 = verity_bench_now();
			do {
				if (impl_pass(k, &is, buf, out)) {
					snprintf(r->why, sizeof(r->why),
						 "hashing failed: %s",
						 strerror(errno));
					ok = 0;
					break;
				}
				passes++;
				t = verity_bench_now() - t0;
			} while (t < budget / BENCH_ROUNDS);
			rates[round] = (double)passes * size / t / 1e6;
		}
		if (is.alg_fd >= 0)
			close(is.alg_fd);
		is.alg_fd = -1;
		if (!ok)
			continue;
		verity_bench_stats(rates, BENCH_ROUNDS, &r->mb_per_s, &r->lo,
				   &r->hi);
		/* the library's SHA-256 kernels (the instructions', the
		 * lanes', C) on every thread too: whether the cores share
		 * what they run on */
		if (k <= IMPL_PORTABLE)
			run_all_threads(r, (enum impl)k, &is, rep->threads,
					budget);
		if (r->mb_per_s > best)
			best = r->mb_per_s;
	}
	for (size_t i = 0; i < rep->nimpls; i++)
		rep->impls[i].ratio = rep->impls[i].mb_per_s > 0 && best > 0
					      ? rep->impls[i].mb_per_s / best
					      : -1;
	free(buf);
	free(out);
}
