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

/* One setting's parameters, checked as the caller checks parameters:
 * 0, or -errno with err's message naming the setting. */
typedef int (*verity_bench_setting_fn)(const char *hash, unsigned format,
				       uint32_t dbs, uint32_t hbs,
				       uint32_t salt_size,
				       struct verity_params *out,
				       struct ht_error *err);

/* q (its sizes checked) run on threads with the kernel sha256, each
 * combination of its lists a setting (fn), and the report shown to sh
 * as q->output says: 0, -errno with err's message, or sh's non-zero
 * return (sh->r) as it is. */
int verity_bench_request(const struct fv_bench_request *q, unsigned threads,
			 enum sha256_choice sha256, verity_bench_setting_fn fn,
			 struct show *sh, struct ht_error *err);

#endif
