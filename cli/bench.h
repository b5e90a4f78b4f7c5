/* fastverity bench: the rows fv_bench_run delivers, by kind, and their
 * output (cli/bench_output.c). */
#ifndef FV_CLI_BENCH_H
#define FV_CLI_BENCH_H

#include <stddef.h>

#include "include/fastverity.h"

struct bench_view {
	const struct fv_bench_row *m; /* the machine */
	const struct fv_bench_row *impls, *fec, *roots, *trees;
	size_t nimpls, nfec, nroots, ntrees;
};

void bench_print_table(const struct bench_view *v);
void bench_print_json(const struct bench_view *v);
void bench_print_csv(const struct bench_view *v);

#endif
