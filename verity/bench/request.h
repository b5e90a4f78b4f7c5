/* fv_bench_run's request (include/fastverity.h, "Measuring") read into
 * a run of verity/bench/, and its report as the caller's rows. */
#ifndef FV_BENCH_REQUEST_H
#define FV_BENCH_REQUEST_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/bench/bench.h"

/* One setting's parameters, checked as the caller checks parameters:
 * 0, or -errno with err's message naming the setting. */
typedef int (*verity_bench_setting_fn)(const char *hash, unsigned format,
				       uint32_t dbs, uint32_t hbs,
				       uint32_t salt_size,
				       struct verity_params *out,
				       struct ht_error *err);

/* The rows (n of them, q->row_size apart), pointing into rep. */
struct verity_bench_rows {
	struct bench_report *rep;
	uint8_t *rows;
	size_t n;
};

/* q (its sizes checked) run on threads with the kernel sha256, each
 * combination of its lists a setting (fn); *out freed by
 * verity_bench_rows_free (nothing to free on failure). */
int verity_bench_request(const struct fv_bench_request *q, unsigned threads,
			 enum sha256_choice sha256, verity_bench_setting_fn fn,
			 struct verity_bench_rows *out, struct ht_error *err);
void verity_bench_rows_free(struct verity_bench_rows *b);

#endif
