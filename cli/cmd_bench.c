/* fastverity bench: what hashing costs on this CPU, and what each choice
 * of hash, salt, block sizes and format does to whole-tree throughput.
 * The library reads the options, measures and says it (fv_bench_run);
 * this hands them over and prints. */
#include <errno.h>
#include <stdlib.h>

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/cli.h"
#include "cli/json.h"

int cmd_bench(struct cli_opts *o)
{
	/* FASTVERITY_BENCH_SECONDS: the time's default */
	const char *opts[][2] = {
		{"hash", o->hash},
		{"salt-size", o->salt_size},
		{"data-block-size", o->data_block_size},
		{"hash-block-size", o->hash_block_size},
		{"format", o->format},
		{"threads", o->threads},
		{"size", o->size},
		{"device", o->device},
		{"seconds", getenv("FASTVERITY_BENCH_SECONDS")},
		{"time", o->bench_time}};
	struct fv_bench_request req = {.size = sizeof(req),
				       .output = o->json  ? FV_BENCH_JSON
						 : o->csv ? FV_BENCH_CSV
							  : FV_BENCH_TABLE,
				       .options = opts[0],
				       .noptions =
					       sizeof(opts) / sizeof(opts[0])};
	fv_options fo = {.size = sizeof(fo), .sha256 = cli_sha256_choice()};
	int r;

	if (o->nargs)
		return cli_error(-EINVAL,
				 "bench: takes no arguments (see --device)");
	r = cli_show_bench(&req, &fo);
	return r < 0 ? cli_lib_error(r) : r;
}
