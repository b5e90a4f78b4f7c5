/* fv_bench_run's request (include/fastverity.h, "Measuring") read into
 * a run of verity/bench/, and its report shown (output.c). */
#ifndef FV_BENCH_REQUEST_H
#define FV_BENCH_REQUEST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/bench/bench.h"
#include "verity/bench/output.h"

/* q (its size checked) run with threads and sha256, its report on sh:
 * 0, sh's visitor's return, or -errno (err: a bad setting named). */
int verity_bench_request(const struct fv_bench_request *q, unsigned threads,
			 enum sha256_choice sha256, struct show *sh,
			 struct ht_error *err);

#endif
