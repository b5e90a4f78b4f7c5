/* fastverity bench: the ways of hashing 4096-byte blocks, side by side,
 * on one core, and the kernels on every thread at once. */
#include <errno.h>
#include <linux/if_alg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "cli/cli.h"
#include "cli/params.h"
#include "include/fastverity.h"

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

/* (the fast path's note goes to the kernel the command picks) */
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
 * the kernels, and an AF_ALG socket. */
struct impl_start {
	const uint8_t *salt;
	fv_salted *st;
	int alg_fd;
};

/* One pass of IMPL_BLOCKS messages; returns 0 or a negative errno. */
static int impl_pass(enum impl k, const struct impl_start *is,
		     const uint8_t *buf, uint8_t *out)
{
	const fv_salted *st = is->st;
	const uint8_t *salt = is->salt;

	switch (k) {
	case IMPL_AVX512:
		return fv_kernel_hash(FV_KERNEL_AVX512, st, buf, IMPL_BLOCK,
				      IMPL_BLOCKS, out, 32);
	case IMPL_HW_3WAY:
		return fv_kernel_hash(FV_KERNEL_SHANI3, st, buf, IMPL_BLOCK,
				      IMPL_BLOCKS, out, 32);
	case IMPL_HW_2WAY:
		return fv_kernel_hash(fv_kernel_of_arch(), st, buf, IMPL_BLOCK,
				      IMPL_BLOCKS, out, 32);
	case IMPL_HW_1WAY:
		for (int i = 0; i < IMPL_BLOCKS; i++)
			if (fv_kernel_hash_one(fv_kernel_of_arch(), st,
					       buf + i * IMPL_BLOCK, IMPL_BLOCK,
					       out + i * 32))
				return -EINVAL;
		return 0;
	case IMPL_PORTABLE:
		return fv_kernel_hash(FV_KERNEL_PORTABLE, st, buf, IMPL_BLOCK,
				      IMPL_BLOCKS, out, 32);
	case IMPL_EVP_PER_BLOCK:
	case IMPL_EVP_PRESALTED:
		return fv_evp_hash(k == IMPL_EVP_PER_BLOCK, salt, IMPL_SALT,
				   buf, IMPL_BLOCK, IMPL_BLOCKS, out, 32);
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
		double t0 = cli_now(), t;

		for (long i = 0; i < n; i++)
			__asm__ volatile(ADDS20 : "+r"(x) : "r"(y));
		t = cli_now() - t0;
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
	} while (cli_now() < a->until);
	return NULL;
}

/* Kernel k on every thread at once, in BENCH_ROUNDS rounds of about
 * budget / BENCH_ROUNDS seconds: MB/s of all threads together into r.
 * Not measured (left < 0) with one thread, or when a thread cannot be
 * started. */
static void run_all_threads(struct bench_impl *r, enum impl k,
			    const struct impl_start *is, unsigned threads,
			    double budget)
{
	struct all_thread *a;
	pthread_t tid[FV_MAX_THREADS];
	double rates[BENCH_ROUNDS];

	r->all_mb_per_s = -1;
	if (threads < 2 || threads > FV_MAX_THREADS ||
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
		double t0 = cli_now(), t;
		uint64_t passes = 0;
		unsigned started = 0;
		int failed = 0;

		for (unsigned i = 0; i < threads; i++) {
			a[i].until = t0 + budget / BENCH_ROUNDS;
			a[i].passes = 0;
			a[i].failed = 0;
			if (pthread_create(&tid[i], NULL, all_thread_run,
					   &a[i]))
				break;
			started++;
		}
		for (unsigned i = 0; i < started; i++) {
			pthread_join(tid[i], NULL);
			passes += a[i].passes;
			failed |= a[i].failed;
		}
		t = cli_now() - t0;
		if (started < threads || failed || t <= 0) {
			free(a);
			return;
		}
		rates[round] = (double)passes * sizeof(a->buf) / t / 1e6;
	}
	free(a);
	bench_stats(rates, BENCH_ROUNDS, &r->all_mb_per_s, &r->all_lo,
		    &r->all_hi);
}

void bench_run_impls(struct bench_report *rep, double total)
{
	/* the five kernels' rows are measured twice: one core, then
	 * every thread */
	double budget = total / (IMPL_COUNT + 5);
	static _Alignas(64) uint8_t buf[IMPL_BLOCKS * IMPL_BLOCK];
	static uint8_t out[IMPL_BLOCKS * 32];
	uint8_t salt[IMPL_SALT];
	struct impl_start is = {
		.salt = salt,
		.alg_fd = -1,
	};
	enum fv_kernel fast = fv_kernel_chosen(cli_sha256_choice());
	double best = 0;

	rep->clock_mhz = clock_mhz();
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 12));
	memset(salt, 0x5a, sizeof(salt));
	if (fv_salted_new(salt, sizeof(salt), &is.st))
		return; /* out of memory: no rows */
	for (int k = 0; k < IMPL_COUNT; k++) {
		struct bench_impl *r = &rep->impls[rep->nimpls++];
		int ok = 1;
		uint64_t passes = 0;
		double t0, t = 0, rates[BENCH_ROUNDS];

		r->name = impl_names[k];
		r->note = impl_notes[k];
		r->mb_per_s = -1;
		r->all_mb_per_s = -1;
		if ((k == IMPL_AVX512 && fast == FV_KERNEL_AVX512) ||
		    (k == IMPL_HW_3WAY && fast == FV_KERNEL_SHANI3) ||
		    (k == IMPL_HW_2WAY && fast != FV_KERNEL_SHANI3 &&
		     fast != FV_KERNEL_AVX512 && fast != FV_KERNEL_PORTABLE))
			r->note = "fastverity's fast path";
		if ((k == IMPL_HW_3WAY &&
		     !fv_kernel_available(FV_KERNEL_SHANI3)) ||
		    (k == IMPL_AVX512 &&
		     !fv_kernel_available(FV_KERNEL_AVX512))) {
			rep->nimpls--; /* no row off x86-64 or without SHA-NI */
			continue;
		}
		if (k == IMPL_HW_1WAY || k == IMPL_HW_2WAY) {
			enum fv_kernel hw = fv_kernel_of_arch();

			snprintf(r->name_buf, sizeof(r->name_buf),
				 "SHA-256 %s %s-way",
				 hw == FV_KERNEL_PORTABLE ? "instructions"
							  : fv_kernel_label(hw),
				 k == IMPL_HW_2WAY ? "two" : "one");
			r->name = r->name_buf;
			if (hw == FV_KERNEL_PORTABLE) {
				snprintf(r->why, sizeof(r->why),
					 "fastverity has no SHA-256 kernel "
					 "for this architecture");
				continue;
			}
			if (!fv_kernel_available(hw)) {
				snprintf(r->why, sizeof(r->why),
					 "this CPU has no %s",
					 fv_kernel_label(hw));
				continue;
			}
		}
		/* (OpenSSL opened here, by the first of them) */
		if ((k == IMPL_EVP_PER_BLOCK || k == IMPL_EVP_PRESALTED) &&
		    fv_evp_hash(k == IMPL_EVP_PER_BLOCK, salt, IMPL_SALT, buf,
				IMPL_BLOCK, 1, out, 32)) {
			snprintf(r->why, sizeof(r->why), "%s", fv_last_error());
			continue;
		}
		if (k == IMPL_AF_ALG) {
			is.alg_fd = af_alg_open(r->why, sizeof(r->why));
			if (is.alg_fd < 0)
				continue;
		}
		for (unsigned round = 0; ok && round < BENCH_ROUNDS; round++) {
			passes = 0;
			t0 = cli_now();
			do {
				if (impl_pass(k, &is, buf, out)) {
					snprintf(r->why, sizeof(r->why),
						 "hashing failed: %s",
						 strerror(errno));
					ok = 0;
					break;
				}
				passes++;
				t = cli_now() - t0;
			} while (t < budget / BENCH_ROUNDS);
			rates[round] = (double)passes * sizeof(buf) / t / 1e6;
		}
		if (is.alg_fd >= 0)
			close(is.alg_fd);
		is.alg_fd = -1;
		if (!ok)
			continue;
		bench_stats(rates, BENCH_ROUNDS, &r->mb_per_s, &r->lo, &r->hi);
		/* fastverity's SHA-256 kernels (the instructions', the lanes',
		 * C) on every thread too: whether the cores share what they run
		 * on */
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
	fv_salted_free(is.st);
}

static int cmp_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bench_stats(double *rates, unsigned n, double *median, double *lo,
		 double *hi)
{
	qsort(rates, n, sizeof(*rates), cmp_rate);
	*median = rates[n / 2];
	*lo = rates[0];
	*hi = rates[n - 1];
}
