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

/* The command's options (q->options) read into q, its lists into t,
 * a "threads" given into *threads: 0, or -errno (err: the option named,
 * as fastverity bench says it). */
struct verity_bench_text {
	char hashes[16][32];
	const char *names[16];
	uint32_t salts[16], dbs[16], hbs[16];
	unsigned formats[16];
};
int verity_bench_options(struct fv_bench_request *q,
			 struct verity_bench_text *t, unsigned *threads,
			 struct ht_error *err);
/* q (its size checked) run with threads and sha256, its report on sh:
 * 0, sh's visitor's return, or -errno (err: a bad setting named). */
int verity_bench_request(const struct fv_bench_request *q, unsigned threads,
			 enum sha256_choice sha256, struct show *sh,
			 struct ht_error *err);

#endif
