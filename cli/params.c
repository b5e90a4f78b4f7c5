/* Option values to the library's parameters (cli/params.h). */
#include "cli/files.h"
#include "cli/params.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/errors.h"
#include "cli/progress.h"

#define MAX_THREADS FV_MAX_THREADS

/* One number of option name (with its dashes), as the library reads it. */
int cli_parse_count(const char *name, const char *s, uint64_t *out)
{
	int r = fv_option_number(name + 2, s, out);

	return r ? cli_lib_error(r) : 0;
}

int cli_parse_hash_offset(const struct cli_opts *o, uint64_t *off)
{
	*off = 0;
	return o->hash_offset
		       ? cli_parse_count("--hash-offset", o->hash_offset, off)
		       : 0;
}

int cli_fec_params(const struct cli_opts *o, struct cli_fec *fp)
{
	uint64_t v;

	/* roots 0: format's default, or, for parity that exists, the one
	 * value its size fits */
	memset(fp, 0, sizeof(*fp));
	if (!o->fec_device) {
		if (o->fec_offset || o->fec_roots)
			return cli_error(-EINVAL,
					 "--fec-offset and --fec-roots "
					 "go with --fec-device");
		return 0;
	}
	if (!*o->fec_device)
		return cli_error(-EINVAL, "--fec-device: empty path");
	fp->path = o->fec_device;
	if (o->fec_offset &&
	    cli_parse_count("--fec-offset", o->fec_offset, &fp->offset))
		return EXIT_PARAMS;
	if (o->fec_roots && cli_parse_count("--fec-roots", o->fec_roots, &v))
		return EXIT_PARAMS;
	fp->roots = o->fec_roots ? (unsigned)v : 0;
	return 0;
}

int cli_params_from_opts(const struct cli_opts *o, fv_params **p,
			 int for_format)
{
	const char *opts[][2] = {
		{"hash", o->hash},
		{"format", o->format},
		{"data-block-size", o->data_block_size},
		{"hash-block-size", o->hash_block_size},
		{"data-blocks", o->data_blocks},
		{"hash-offset", o->hash_offset},
		{"salt", o->salt},
		{"uuid", o->uuid},
		{"no-superblock", o->no_superblock ? "1" : NULL}};
	int r;

	/* fv_params_init: a random salt and UUID, format's defaults (the
	 * salt kept by format alone) */
	if (!(*p = malloc(sizeof(**p))))
		return cli_error(-ENOMEM, "out of memory");
	(*p)->size = sizeof(**p);
	if (!(r = fv_params_init(*p))) {
		if (!for_format)
			(*p)->salt_len = 0;
		r = fv_params_parse(*p, opts[0],
				    sizeof(opts) / sizeof(opts[0]));
	}
	if (r) {
		free(*p);
		*p = NULL;
		return cli_lib_error(r);
	}
	return 0;
}

/* --threads (0 without it: one per online CPU). */
static int parse_threads(const struct cli_opts *o, unsigned *threads)
{
	uint64_t n = 0;

	if (o->threads && cli_parse_count("--threads", o->threads, &n))
		return EXIT_PARAMS;
	*threads = (unsigned)n;
	return 0;
}

void cli_threads_said(const struct cli_opts *o)
{
	unsigned threads = 0;
	long cpus;

	if (!o->debug || parse_threads(o, &threads))
		return;
	if (!threads) {
		/* the library's default: one per online CPU */
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cpus < 1             ? 1
			  : cpus > MAX_THREADS ? MAX_THREADS
					       : (unsigned)cpus;
	}
	cli_debug(o, "Threads: %u.", threads);
}

enum fv_sha256_kernel cli_sha256_choice(void)
{
	static const char *const names[] = {[FV_SHA256_PORTABLE] = "portable",
					    [FV_SHA256_TWO_WAY] = "two-way",
					    [FV_SHA256_THREE_WAY] = "three-way",
					    [FV_SHA256_AVX512] = "avx512"};
	const char *force = getenv("FASTVERITY_SHA256");

	for (size_t k = 0; force && k < sizeof(names) / sizeof(names[0]); k++)
		if (names[k] && !strcmp(force, names[k]))
			return (enum fv_sha256_kernel)k;
	return FV_SHA256_FASTEST;
}

int cli_run_options(const struct cli_opts *o, fv_options *opts,
		    struct cli_progress *pr)
{
	unsigned threads;

	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
	if (parse_threads(o, &threads))
		return EXIT_PARAMS;
	/* the library's words for the same refusal (fv_options) */
	if (o->ntrusted > FV_MAX_TRUSTED_CERTS)
		return cli_error(-EINVAL, "%zu certificate files (at most %d)",
				 o->ntrusted, FV_MAX_TRUSTED_CERTS);
	/* the data is read, never mapped (the library's default): no faster
	 * mapped here with the image cached in large folios, 40% slower
	 * with it cached in 4 KiB pages (1 GiB: format 0.31 s read,
	 * 0.58-0.62 s mapped), and a file that shrinks is then an error
	 * returned, not a signal */
	opts->threads = threads;
	opts->sha256 = cli_sha256_choice();
	/* (the trust anchor is the open's: cli_open) */
	if (pr) {
		cli_progress_init(pr, o);
		opts->progress = cli_progress_update;
		opts->progress_ctx = pr;
		opts->pass = cli_progress_pass;
	}
	return 0;
}

int cli_check_output(const char *out, const char *what,
		     const char *const *inputs, size_t n)
{
	for (size_t i = 0; out && i < n; i++) {
		const char *via =
			inputs[i] ? cli_same_storage(out, inputs[i]) : NULL;

		if (via)
			return cli_error(-EINVAL,
					 "%s: refusing to write the %s there: "
					 "it is %s, an input of this command%s",
					 out, what, inputs[i], via);
	}
	return 0;
}
