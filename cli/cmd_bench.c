/* fastverity bench: what hashing costs on this CPU, and what each choice
 * of hash, salt, block sizes and format does to whole-tree throughput.
 * The library measures and says it (fv_bench_run); this parses and
 * prints. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/files.h"
#include "cli/errors.h"
#include "cli/params.h"
#include "cli/cli.h"
#include "cli/json.h"

#define BENCH_MAX_LIST 16

static int parse_list(const char *opt, const char *text, char out[][32],
		      size_t *n)
{
	char buf[512], *save = NULL;

	*n = 0;
	if (strlen(text) >= sizeof(buf))
		return cli_error(-EINVAL, "%s: list too long", opt);
	strcpy(buf, text);
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == BENCH_MAX_LIST || strlen(tok) >= 32)
			return cli_error(
				-EINVAL,
				"%s: at most %d items of 31 characters", opt,
				BENCH_MAX_LIST);
		strcpy(out[(*n)++], tok);
	}
	if (!*n)
		return cli_error(-EINVAL, "%s: empty list", opt);
	return 0;
}

static int parse_num_list(const char *opt, const char *text, const char *dflt,
			  uint32_t *out, size_t *n)
{
	char items[BENCH_MAX_LIST][32];

	if (parse_list(opt, text ? text : dflt, items, n))
		return EXIT_PARAMS;
	for (size_t i = 0; i < *n; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(items[i], &end, 10);
		if (errno || *end || items[i][0] < '0' || items[i][0] > '9' ||
		    v > UINT32_MAX)
			return cli_error(-EINVAL, "%s: '%s' is not a number",
					 opt, items[i]);
		out[i] = (uint32_t)v;
	}
	return 0;
}

/* Bytes of memory available for new allocations (MemAvailable), or 0
 * when the kernel does not say. */
static uint64_t available_memory(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	if (!kib) {
		long pages = sysconf(_SC_AVPHYS_PAGES),
		     page = sysconf(_SC_PAGESIZE);

		return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page
					     : 0;
	}
	return (uint64_t)kib << 10;
}

int cmd_bench(struct cli_opts *o)
{
	char hashes[BENCH_MAX_LIST][32];
	const char *hash_names[BENCH_MAX_LIST];
	uint32_t salts[BENCH_MAX_LIST], dbs[BENCH_MAX_LIST],
		hbs[BENCH_MAX_LIST], formats[BENCH_MAX_LIST];
	size_t nh, ns, nd, nhb, nf;
	struct fv_bench_request req = {
		.size = sizeof(req),
		.output = o->json  ? FV_BENCH_JSON
			  : o->csv ? FV_BENCH_CSV
				   : FV_BENCH_TABLE,
	};
	uint64_t size = 64ULL << 20;
	double seconds;
	unsigned threads;
	fv_options fo;
	int r;

	if (o->nargs)
		return cli_error(-EINVAL,
				 "bench: takes no arguments (see --device)");
	if (parse_list("--hash", o->hash ? o->hash : "sha256", hashes, &nh) ||
	    parse_num_list("--salt-size", o->salt_size, "0,32,64,256", salts,
			   &ns) ||
	    parse_num_list("--data-block-size", o->data_block_size, "4096", dbs,
			   &nd) ||
	    parse_num_list("--hash-block-size", o->hash_block_size, "4096", hbs,
			   &nhb) ||
	    parse_num_list("--format", o->format, "1", formats, &nf) ||
	    cli_parse_threads(o, &threads))
		return EXIT_PARAMS;
	if (o->size && cli_parse_size(o->size, &size))
		return EXIT_PARAMS;
	if (o->device) {
		uint64_t dev_size;

		/* opened as every action opens a device: a missing one is
		 * said before anything runs */
		if ((r = cli_device_size(o->device, &dev_size)))
			return cli_lib_error(r);
		if (!o->size || size > dev_size)
			size = dev_size;
	} else {
		uint64_t avail = available_memory();

		/* the data and its tree live in memory: never a size that
		 * would push the machine into swap or the OOM killer */
		if (size > SIZE_MAX / 2 || (avail && size > avail / 2))
			return cli_error(
				-EINVAL,
				"--size: %llu bytes is more than half of the "
				"memory available (%llu MiB); bench keeps the "
				"data in memory: give a smaller --size, or "
				"--device=PATH to read an image",
				(unsigned long long)size,
				(unsigned long long)(avail >> 20));
	}
	/* About ten seconds in all (FASTVERITY_BENCH_SECONDS); a small
	 * --size measures small: the time shrinks with it (64 MiB: the
	 * full time), down to a second */
	seconds = getenv("FASTVERITY_BENCH_SECONDS")
			  ? atof(getenv("FASTVERITY_BENCH_SECONDS"))
			  : 10;
	if (!(seconds > 0))
		seconds = 10;
	if (o->size && !o->bench_time && !getenv("FASTVERITY_BENCH_SECONDS") &&
	    size < (64ULL << 20))
		seconds = seconds * (double)size / (64ULL << 20) < 1
				  ? 1
				  : seconds * (double)size / (64ULL << 20);
	if (o->bench_time) {
		char *end;

		seconds = strtod(o->bench_time, &end);
		if (*end || !(seconds >= 0.1 && seconds <= 3600))
			return cli_error(-EINVAL,
					 "--time: '%s' is not a number of "
					 "seconds from 0.1 to 3600",
					 o->bench_time);
	}
	for (size_t i = 0; i < nh; i++)
		hash_names[i] = hashes[i];
	req.hashes = hash_names;
	req.nhashes = nh;
	req.formats = formats;
	req.nformats = nf;
	req.data_block_sizes = dbs;
	req.ndata_block_sizes = nd;
	req.hash_block_sizes = hbs;
	req.nhash_block_sizes = nhb;
	req.salt_sizes = salts;
	req.nsalt_sizes = ns;
	req.device = o->device;
	req.bytes = size;
	req.seconds = seconds;
	if ((r = cli_run_options(o, &fo, NULL)))
		return r;
	r = cli_show_bench(&req, &fo);
	if (r < 0)
		return cli_error(r, "bench: %s", fv_last_error());
	return r ? r : EXIT_OK;
}
