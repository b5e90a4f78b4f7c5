/* fastverity bench: the figures one run collects, and their output. */
#ifndef FV_BENCH_H
#define FV_BENCH_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_LIST 16

struct bench_impl {
	const char *name;
	const char *note;
	char name_buf[64]; /* name, when made at run time */
	double mb_per_s;   /* median of the rounds; < 0: not measured */
	double lo, hi;     /* slowest and fastest round */
	double ratio;      /* to the fastest */
	/* a kernel's rate on every thread at once, each on its own
	 * messages (MB/s, all threads together; < 0: not measured) */
	double all_mb_per_s, all_lo, all_hi;
	char why[160];
};

struct bench_setting {
	char hash[32];
	uint32_t salt_size;
	uint32_t data_block_size;
	uint32_t hash_block_size;
	int format;
	int valid;
	char why[520];    /* invalid: the reason */
	double mb_per_s;  /* median of the rounds */
	double lo, hi;    /* slowest and fastest round */
	const char *path; /* "fast" or "generic" */
	const char *path_reason;
	uint32_t levels;
	uint64_t data_bytes;
	uint64_t tree_bytes;
	double overhead_percent;
	unsigned runs;
};

/* FEC parity encoders, one core: MB/s of message. */
#define BENCH_FEC_ROWS 10
struct bench_fec {
	unsigned roots;
	int scalar; /* libfec's encoder, the reference for the ratio */
	const char *name;
	const char *note;
	char name_buf[64]; /* name, when made at run time */
	double mb_per_s;   /* median of the rounds; < 0: not measured */
	double lo, hi;
	char why[160];
};

/* What a number of roots means for the image measured (4096-byte blocks,
 * sha256 tree): the parity, its encoding on this machine, and the
 * longest run of consecutive bad blocks it corrects, when the tree names
 * them (erasures: roots per codeword) and when nothing does (errors:
 * roots / 2). */
#define BENCH_FEC_ADVICE 5
struct bench_fec_advice {
	unsigned roots;
	uint64_t parity_bytes;
	double share;                    /* of the data */
	double encode_seconds;           /* < 0: not measured */
	uint64_t run_named, run_unnamed; /* bytes */
};

struct bench_report {
	char cpu[128];
	unsigned cpus;
	char cpu_flags[128]; /* the ones the kernels use */
	const char *sha256_kernel;
	/* the core's clock, measured by a chain of dependent adds (one a
	 * cycle); 0: not measured (another architecture) */
	double clock_mhz;
	unsigned threads;
	uint64_t size;
	const char *device;
	struct bench_impl impls[10];
	size_t nimpls;
	struct bench_setting *settings;
	size_t nsettings;
	struct bench_fec fec[BENCH_FEC_ROWS];
	size_t nfec;
	struct bench_fec_advice advice[BENCH_FEC_ADVICE];
	size_t nadvice;
	uint64_t advice_data_bytes;
	/* --device: what bounds a tree built from it (MB/s; 0: not
	 * measured): its reads with its cache dropped, the SHA unit on the
	 * threads, and the first setting built from it cold */
	double dev_read_mbps, cpu_mbps, cold_mbps;
};

/* 1 when two spreads (slowest to fastest round) overlap, or either is
 * one round's (no spread): no measurable difference
 * (cli/bench_rank.c). */
int bench_spreads_overlap(double alo, double ahi, double blo, double bhi);
/* The setting to recommend among the safe ones (a salt, 4096-byte data
 * blocks, sha256 or stronger): the fastest, unless its lead over the
 * default (sha256, 32-byte salt, 4096/4096, format 1) is inside the
 * noise: then the default, and *measurable 0. NULL: none measured. */
const struct bench_setting *bench_recommend(const struct bench_setting *s,
					    size_t n, int *measurable);
/* The SHA-256 kernel that measured faster than the one this CPU takes
 * (*preferred), or NULL: when not NULL, the machine was noisy. */
const struct bench_impl *
bench_noisy_kernel(const struct bench_impl *impls, size_t n,
		   const struct bench_impl **preferred);

/* Measures every implementation, in about total seconds. */
void bench_run_impls(struct bench_report *r, double total);
/* Measures the FEC encoders for 2, 4, 8, 16 and 24 roots, the same way. */
void bench_run_fec(struct bench_report *r, double total);
/* The advice for those roots on r->size bytes of data (after
 * bench_run_fec: the encode times from its rates and r->threads). */
void bench_fec_advise(struct bench_report *r);

/* Rounds each figure is measured in: the median is shown, with the
 * slowest and the fastest round as its spread. */
#define BENCH_ROUNDS 5

/* Sorts the n rates and gives their median, minimum and maximum. */
void bench_stats(double *rates, unsigned n, double *median, double *lo,
		 double *hi);

void bench_print_table(const struct bench_report *r);
void bench_print_json(const struct bench_report *r);
void bench_print_csv(const struct bench_report *r);

#endif
