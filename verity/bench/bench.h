/* What `fastverity bench` measures (fv_bench_run): the ways of hashing
 * 4096-byte blocks on one core and on every thread (hashing.c), the FEC
 * parity encoders and what their roots mean for the data (fec.c), whole
 * trees of each setting (trees.c), and what the figures allow to
 * conclude where noise can mislead (rank.c). Each figure is the median of
 * BENCH_ROUNDS rounds, with the slowest and the fastest round as its
 * spread. Nothing here prints. Internal. */
#ifndef FV_VERITY_BENCH_H
#define FV_VERITY_BENCH_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "hashtree/sha256.h"
#include "verity/tree/params.h"

#define BENCH_ROUNDS     5
#define BENCH_IMPLS      10
#define BENCH_FEC_ROWS   10
#define BENCH_FEC_ADVICE 5

/* What the figures say of a row (the public enum fv_bench_flag's
 * values, verity/api/measure.c). */
enum bench_flag {
	BENCH_FAST_PATH = 1 << 0,     /* the kernel the fast path takes here */
	BENCH_REFERENCE = 1 << 1,     /* how veritysetup does it */
	BENCH_NOISE = 1 << 2,         /* a kernel faster than the fast path's */
	BENCH_RECOMMENDED = 1 << 3,   /* the setting to take */
	BENCH_DEFAULT_KEPT = 1 << 4,  /* ... the default: no lead measurable */
	BENCH_NO_DIFFERENCE = 1 << 5, /* within the noise of the recommended */
	BENCH_SALT_SAME = 1 << 6, /* within the noise of its smallest salt */
};

/* A way of hashing 4096-byte messages with a 32-byte salt. */
struct bench_impl {
	const char *name;
	const char *note;
	char name_buf[64]; /* name, when made at run time */
	unsigned flags;    /* enum bench_flag */
	double mb_per_s;   /* median of the rounds; < 0: not measured */
	double lo, hi;     /* slowest and fastest round */
	double ratio;      /* to the fastest; < 0: none */
	/* a kernel's rate on every thread at once, each on its own
	 * messages (MB/s, all threads together; < 0: not measured) */
	double all_mb_per_s, all_lo, all_hi;
	char why[160];
};

/* A whole tree of one setting. */
struct bench_setting {
	struct verity_params p; /* validated; data_blocks set by the run */
	unsigned flags;         /* enum bench_flag */
	int valid;
	char why[520];    /* invalid: the reason */
	double mb_per_s;  /* median of the rounds */
	double lo, hi;    /* slowest and fastest round */
	const char *path; /* "fast" or "generic" */
	const char *path_reason;
	unsigned levels;
	uint64_t data_bytes;
	uint64_t tree_bytes;
	unsigned runs;
};

/* An FEC parity encoder, one core: MB/s of message. */
struct bench_fec {
	unsigned roots;
	int scalar; /* libfec's encoder, the reference for the ratio */
	const char *name;
	const char *note;
	double mb_per_s; /* median of the rounds; < 0: not measured */
	double lo, hi;
	double ratio; /* to libfec's for the same roots; < 0: none */
	char why[160];
};

/* What a number of roots means for the data measured (4096-byte
 * blocks, sha256 tree): the parity, its encoding on this machine, and
 * the longest run of consecutive bad blocks it corrects when the tree
 * names them (erasures: roots per codeword) and when nothing does
 * (errors: roots / 2). */
struct bench_fec_advice {
	unsigned roots;
	uint64_t parity_bytes;
	double encode_seconds;           /* < 0: not measured */
	uint64_t run_named, run_unnamed; /* bytes */
};

/* What to measure. */
struct bench_plan {
	const char *device; /* the data read from it; NULL: synthetic */
	uint64_t size;      /* bytes of data (a device: 0, all of it) */
	unsigned threads;   /* 0: one per CPU */
	enum sha256_choice sha256;
	double seconds; /* about how long it all takes */
};

struct bench_report {
	char cpu[128];
	unsigned cpus;
	const char *cpu_flags; /* the ones the kernels use */
	const char *sha256_kernel;
	/* the core's clock, measured by a chain of dependent adds (one a
	 * cycle); 0: not measured (another architecture) */
	double clock_mhz;
	unsigned threads;
	uint64_t size;
	const char *device;
	struct bench_impl impls[BENCH_IMPLS];
	size_t nimpls;
	struct bench_setting *settings; /* the caller's, parameters set */
	size_t nsettings;
	struct bench_fec fec[BENCH_FEC_ROWS];
	size_t nfec;
	struct bench_fec_advice advice[BENCH_FEC_ADVICE];
	size_t nadvice;
	uint64_t advice_data_bytes;
	/* a device: what bounds a tree built from it (MB/s; 0: not
	 * measured): its reads with its cache dropped, the SHA unit on the
	 * threads, and the first setting built from it cold */
	double dev_read_mbps, cpu_mbps, cold_mbps;
};

/* Measures everything plan says into rep, whose settings (nsettings of
 * them) hold validated parameters: each tree is prepared first, so
 * that a setting that cannot make one fails the run (-EINVAL, the
 * message naming it) before anything is measured. Errors: EINVAL,
 * ENODEV, ENOTBLK, EIO, ENOMEM. */
int verity_bench_run(struct bench_report *rep, const struct bench_plan *plan,
		     struct ht_error *err);

/* hashing.c: every way of hashing, in about total seconds; the
 * kernels on rep->threads too. */
void verity_bench_hashing(struct bench_report *rep, enum sha256_choice choice,
			  double total);
/* fec.c: the FEC encoders for 2, 4, 8, 16 and 24 roots the same way,
 * then what those roots mean for rep->size bytes of data (the encode
 * times from the rates and rep->threads). */
void verity_bench_fec(struct bench_report *rep, double total);
void verity_bench_fec_advise(struct bench_report *rep);

/* The monotonic clock, in seconds. */
double verity_bench_now(void);

/* rank.c. Sorts the n rates and gives their median, minimum and
 * maximum. */
void verity_bench_stats(double *rates, unsigned n, double *median, double *lo,
			double *hi);
/* 1 when two spreads (slowest to fastest round) overlap, or either is
 * one round's (no spread): no measurable difference. */
int verity_bench_spreads_overlap(double alo, double ahi, double blo,
				 double bhi);
/* The setting to recommend among the safe ones (a salt, 4096-byte data
 * blocks, sha256 or stronger): the fastest, unless its lead over the
 * default (sha256, 32-byte salt, 4096/4096, format 1) is inside the
 * noise: then the default, and *measurable 0. NULL: none measured. */
const struct bench_setting *
verity_bench_recommend(const struct bench_setting *s, size_t n,
		       int *measurable);
/* The SHA-256 kernel (n-way) that measured faster than the one this CPU
 * takes (*preferred, BENCH_FAST_PATH), or NULL: when not NULL, the
 * machine was noisy. */
const struct bench_impl *
verity_bench_noisy_kernel(const struct bench_impl *impls, size_t n,
			  const struct bench_impl **preferred);
/* The flags of the conclusions: the noisy kernel, the recommended
 * setting and those within its noise. */
void verity_bench_conclude(struct bench_report *rep);

#endif
