/* What `fastverity bench` shows of a run (output.c): the report as rows
 * by kind (request.c makes them), and the rows as the table, the --json
 * document or CSV, handed on as items. Internal. */
#ifndef FV_VERITY_BENCH_OUTPUT_H
#define FV_VERITY_BENCH_OUTPUT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/bench/bench.h"
#include "verity/show/show.h"

/* A row: the machine, a way of hashing, an encoder, some roots, a tree. */
enum verity_bench_kind {
	VERITY_BENCH_MACHINE = 1,
	VERITY_BENCH_HASHING,
	VERITY_BENCH_FEC,
	VERITY_BENCH_ROOTS,
	VERITY_BENCH_TREE,
};

/* MB/s: the median round, the slowest, the fastest (median < 0: none). */
struct verity_bench_rate {
	double median, min, max;
};

/* One row; its kind says which members are set (flags: enum
 * bench_flag). */
struct verity_bench_row {
	enum verity_bench_kind kind;
	unsigned flags;
	const char *name, *note;
	struct verity_bench_rate rate, all; /* all: every thread at once */
	double ratio;
	unsigned roots;
	uint64_t parity_bytes;
	double encode_seconds;
	uint64_t run_named, run_unnamed;
	uint32_t salt_size, data_block_size, hash_block_size;
	unsigned format;
	int valid;
	const char *path, *path_reason;
	unsigned levels, runs;
	uint64_t tree_bytes, data_bytes;
	unsigned cpus, threads;
	const char *cpu_flags, *sha256_kernel, *device;
	double clock_mhz, device_read, sha_unit, cold_tree;
};

/* The rows by kind (each kind's rows come one after the other). */
struct verity_bench_view {
	const struct verity_bench_row *m; /* the machine */
	const struct verity_bench_row *impls, *fec, *roots, *trees;
	size_t nimpls, nfec, nroots, ntrees;
};

/* How the rows are shown (the public enum fv_bench_output's values). */
enum verity_bench_output {
	VERITY_BENCH_TABLE = 0,
	VERITY_BENCH_JSON = 1,
	VERITY_BENCH_CSV = 2,
};

/* rows[0, n) (the machine's first) shown as how says to sh: 0, or the
 * visitor's return, or -EINVAL (no machine row), -ENOMEM. */
int verity_bench_output(const struct verity_bench_row *rows, size_t n,
			enum verity_bench_output how, struct show *sh);

#endif
