/* fastverity bench: what hashing costs on this CPU, and what each choice
 * of hash, salt, block sizes and format does to whole-tree throughput. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/jsonc.h"

#include "bench.h"
#include "cli/errors.h"
#include "cli/params.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/cli.h"

/* --- whole trees ------------------------------------------------------ */

#define ROUNDS BENCH_ROUNDS

/* A valid setting ready to be measured: its tree in memory. */
struct prepared {
	fv_memtree *mt;
	double rate[ROUNDS];
	unsigned rounds;
};

/* The data: in memory, or read from --device. */
struct bench_data {
	const uint8_t *data;
	const char *dev; /* the device's path */
	int fd;          /* open on it, for reading it plain */
	uint64_t size;   /* its bytes */
};

static int prepare_setting(struct bench_setting *s, struct prepared *pp,
			   uint64_t size, const struct bench_data *b)
{
	uint8_t salt[FV_MAX_SALT_SIZE];
	fv_params *p = fv_params_new();
	fv_options *o = fv_options_new();
	int r = -ENOMEM;

	if (!p || !o)
		goto out;
	if (strlen(s->hash) > FV_MAX_HASH_NAME) {
		snprintf(s->why, sizeof(s->why),
			 "hash algorithm %s not supported", s->hash);
		r = -EINVAL;
		goto done;
	}
	memset(salt, 0x5a, sizeof(salt));
	if ((r = fv_params_set_hash(p, s->hash)) ||
	    (r = fv_params_set_hash_type(p, (unsigned)s->format)) ||
	    (r = fv_params_set_block_sizes(p, s->data_block_size,
					   s->hash_block_size)) ||
	    (r = fv_params_set_salt(p, salt, s->salt_size)) ||
	    (r = fv_params_set_superblock(p, 1)) || (r = fv_params_check(p)))
		goto out;
	if (!(size / s->data_block_size)) {
		snprintf(s->why, sizeof(s->why),
			 "the data is smaller than one %u-byte block",
			 s->data_block_size);
		r = -EINVAL;
		goto done;
	}
	fv_params_set_data_blocks(p, size / s->data_block_size);
	fv_options_set_sha256(o, cli_sha256_choice());
	if ((r = fv_memtree_new(p, b->data, b->data ? NULL : b->dev, o,
				&pp->mt)))
		goto out;
	s->path = fv_memtree_hashing_path(pp->mt);
	s->path_reason = fv_memtree_hashing_reason(pp->mt);
	s->levels = fv_memtree_levels(pp->mt);
	s->data_bytes = fv_memtree_data_bytes(pp->mt);
	s->tree_bytes = fv_memtree_tree_bytes(pp->mt);
	s->overhead_percent =
		100.0 * (double)s->tree_bytes / (double)s->data_bytes;
	s->valid = 1;
	r = 0;
out:
	if (r)
		snprintf(s->why, sizeof(s->why), "%.511s", fv_last_error());
done:
	fv_options_free(o);
	fv_params_free(p);
	return r ? -1 : 0;
}

/* One round: builds the tree until the budget is spent, at least once. */
static void measure_round(struct bench_setting *s, struct prepared *pp,
			  unsigned threads, double budget)
{
	uint8_t root[FV_MAX_DIGEST_SIZE];
	unsigned runs = 0;
	double t0 = cli_now(), t;

	do {
		if (fv_memtree_build(pp->mt, threads, root, sizeof(root))) {
			snprintf(s->why, sizeof(s->why), "%.511s",
				 fv_last_error());
			s->valid = 0;
			return;
		}
		runs++;
		t = cli_now() - t0;
	} while (t < budget);
	s->runs += runs;
	pp->rate[pp->rounds++] = (double)s->data_bytes * runs / t / 1e6;
}

/* The device's pages dropped from the cache (clean ones: what a read
 * left), so that the next read goes to the disk. */
static void drop_cache(const struct bench_data *dev)
{
	posix_fadvise(dev->fd, 0, (off_t)dev->size, POSIX_FADV_DONTNEED);
}

/* MB/s of a plain sequential read of the first size bytes, cold. */
static double read_rate(const struct bench_data *dev, uint64_t size)
{
	size_t chunk = 1u << 20;
	uint8_t *buf = malloc(chunk);
	double t0, t;
	uint64_t off;

	if (!buf)
		return 0;
	drop_cache(dev);
	t0 = cli_now();
	for (off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		if (pread(dev->fd, buf, n, (off_t)off) != (ssize_t)n)
			break;
	}
	t = cli_now() - t0;
	free(buf);
	return off && t > 0 ? (double)off / t / 1e6 : 0;
}

/* --device: the disk's rate, the SHA unit's, and one tree built cold:
 * which bounds it, and how near it runs. */
static void device_bound(struct bench_report *rep, struct prepared *pp,
			 const struct bench_data *dev, unsigned threads)
{
	double best = 0;

	for (size_t i = 0; i < rep->nimpls; i++)
		if (!strncmp(rep->impls[i].name, "SHA-256 ", 8) &&
		    (strstr(rep->impls[i].name, "-way") ||
		     strstr(rep->impls[i].name, "-lane")) &&
		    rep->impls[i].mb_per_s > best)
			best = rep->impls[i].mb_per_s;
	rep->cpu_mbps = best * threads;
	rep->dev_read_mbps = read_rate(dev, rep->size);
	for (size_t i = 0; i < rep->nsettings; i++) {
		struct bench_setting *s = &rep->settings[i];

		if (!s->valid)
			continue;
		drop_cache(dev);
		measure_round(s, &pp[i], threads, 0);
		/* the cold build stands apart from the settings' figures */
		if (pp[i].rounds) {
			rep->cold_mbps = pp[i].rate[--pp[i].rounds];
			s->runs--;
		}
		break;
	}
	/* the disk read once more, after the build: a shared disk slows
	 * down for a while now and then, and the quicker read is nearer
	 * to what the disk can do (one slow read made a build look 230%
	 * of the bound) */
	{
		double again = read_rate(dev, rep->size);

		if (again > rep->dev_read_mbps)
			rep->dev_read_mbps = again;
	}
}

/* Rounds go over every setting in turn, so that a noisy moment of a shared
 * machine spreads over all of them; each figure is its median round. */
/* Measures the settings prepared in pp (one each), then frees them. */
static void run_settings(struct bench_report *rep, struct prepared *pp,
			 const struct bench_data *b, unsigned threads,
			 double seconds)
{
	double budget = seconds / ROUNDS / (double)rep->nsettings;
	double t0 = cli_now();

	/* a device: one build a setting a round, as many rounds (up to
	 * ROUNDS) as fit the time; one round alone says nothing of the
	 * noise, and the ranking then keeps the default */
	for (unsigned r = 0; r < ROUNDS; r++) {
		for (size_t i = 0; i < rep->nsettings; i++)
			if (rep->settings[i].valid)
				measure_round(&rep->settings[i], &pp[i],
					      threads, b->dev ? 0 : budget);
		if (b->dev && (cli_now() - t0) / (r + 1) * (r + 2) > seconds)
			break;
	}
	for (size_t i = 0; i < rep->nsettings; i++)
		if (pp[i].rounds)
			bench_stats(pp[i].rate, pp[i].rounds,
				    &rep->settings[i].mb_per_s,
				    &rep->settings[i].lo, &rep->settings[i].hi);
}

static void free_prepared(struct prepared *pp, size_t n)
{
	for (size_t i = 0; pp && i < n; i++)
		fv_memtree_free(pp[i].mt);
	free(pp);
}

/* --- options ----------------------------------------------------------- */

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

static void machine(struct bench_report *r)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], implementer[32] = "", part[32] = "";

	snprintf(r->cpu, sizeof(r->cpu), "unknown CPU");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		colon[strcspn(colon, "\n")] = '\0';
		if (!strncmp(line, "model name", 10)) {
			snprintf(r->cpu, sizeof(r->cpu), "%s", colon + 2);
			implementer[0] = '\0';
			break;
		}
		/* arm64 names no model: its implementer and part codes */
		if (!strncmp(line, "CPU implementer", 15) && !implementer[0])
			snprintf(implementer, sizeof(implementer), "%s",
				 colon + 2);
		if (!strncmp(line, "CPU part", 8) && !part[0])
			snprintf(part, sizeof(part), "%s", colon + 2);
	}
	if (implementer[0])
		snprintf(r->cpu, sizeof(r->cpu), "CPU implementer %s, part %s",
			 implementer, part[0] ? part : "unknown");
	if (f)
		fclose(f);
	r->cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(r->cpu_flags, sizeof(r->cpu_flags), "%s", fv_cpu_features());
	r->sha256_kernel = fv_sha256_kernel_name(cli_sha256_choice());
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
	uint32_t salts[BENCH_MAX_LIST], dbs[BENCH_MAX_LIST],
		hbs[BENCH_MAX_LIST], fmts[BENCH_MAX_LIST];
	size_t nh, ns, nd, nhb, nf;
	struct bench_report rep = {0};
	struct bench_data b = {.fd = -1};
	struct prepared *pp;
	unsigned threads;
	uint8_t *data = NULL;
	size_t k = 0;
	uint64_t size = 64ULL << 20;
	double seconds;
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
	    parse_num_list("--format", o->format, "1", fmts, &nf) ||
	    cli_parse_threads(o, &threads))
		return EXIT_PARAMS;
	if (!threads) {
		/* one per online CPU, as the library's default */
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		threads = cpus < 1                ? 1
			  : cpus > FV_MAX_THREADS ? FV_MAX_THREADS
						  : (unsigned)cpus;
	}
	if (o->size && cli_parse_size(o->size, &size))
		return EXIT_PARAMS;
	machine(&rep);
	rep.threads = threads;
	if (o->device) {
		/* opened as every action opens a device (a directory, a
		 * FIFO refused), then read here plain for the disk's own
		 * rate */
		if ((r = fv_device_size(o->device, &b.size)))
			return cli_lib_error(r);
		if ((b.fd = open(o->device, O_RDONLY | O_CLOEXEC)) < 0)
			return cli_error(-ENODEV, "%s: cannot be read (%s)",
					 o->device, strerror(errno));
		b.dev = o->device;
		rep.device = o->device;
		if (!o->size || size > b.size)
			size = b.size;
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
		data = malloc(size ? size : 1);
		if (!data)
			return cli_error(-ENOMEM,
					 "--size: cannot allocate %llu bytes",
					 (unsigned long long)size);
		for (uint64_t i = 0; i < size; i += 8) {
			uint64_t v = (i * 0x9e3779b97f4a7c15ULL) ^ (i >> 17);

			memcpy(data + i, &v, size - i < 8 ? size - i : 8);
		}
		b.data = data;
	}
	rep.size = size;
	rep.nsettings = nh * ns * nd * nhb * nf;
	rep.settings = calloc(rep.nsettings, sizeof(*rep.settings));
	if (!rep.settings) {
		free(data);
		return cli_error(-ENOMEM, "out of memory");
	}
	for (size_t a = 0; a < nh; a++)
		for (size_t f = 0; f < nf; f++)
			for (size_t d = 0; d < nd; d++)
				for (size_t hb = 0; hb < nhb; hb++)
					for (size_t s = 0; s < ns; s++, k++) {
						struct bench_setting *st =
							&rep.settings[k];

						snprintf(st->hash,
							 sizeof(st->hash),
							 "%.31s", hashes[a]);
						st->format = (int)fmts[f];
						st->data_block_size = dbs[d];
						st->hash_block_size = hbs[hb];
						st->salt_size = salts[s];
					}
	/* every combination prepared, so possible, before anything is
	 * measured */
	pp = calloc(k ? k : 1, sizeof(*pp));
	if (!pp) {
		free(rep.settings);
		free(data);
		if (b.dev)
			close(b.fd);
		return cli_error(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < k; i++) {
		struct bench_setting *st = &rep.settings[i];

		if (prepare_setting(st, &pp[i], size, &b)) {
			r = cli_error(-EINVAL,
				      "bench: %s, %u-byte salt, %u/%u-byte "
				      "blocks, format %d: %s",
				      st->hash, st->salt_size,
				      st->data_block_size, st->hash_block_size,
				      st->format, st->why);
			free_prepared(pp, k);
			free(rep.settings);
			free(data);
			if (b.dev)
				close(b.fd);
			return r;
		}
	}
	/* About ten seconds in all (FASTVERITY_BENCH_SECONDS), a fifth for
	 * the implementations, a tenth for the FEC encoders; every tree is
	 * built at least once. */
	seconds = getenv("FASTVERITY_BENCH_SECONDS")
			  ? atof(getenv("FASTVERITY_BENCH_SECONDS"))
			  : 10;
	if (!(seconds > 0))
		seconds = 10;
	/* a small --size measures small: the time shrinks with it (64 MiB:
	 * the full time), down to a second */
	if (o->size && !o->bench_time && !getenv("FASTVERITY_BENCH_SECONDS") &&
	    size < (64ULL << 20))
		seconds = seconds * (double)size / (64ULL << 20) < 1
				  ? 1
				  : seconds * (double)size / (64ULL << 20);
	if (o->bench_time) {
		char *end;

		seconds = strtod(o->bench_time, &end);
		if (*end || !(seconds >= 0.1 && seconds <= 3600)) {
			free_prepared(pp, k);
			free(rep.settings);
			free(data);
			if (b.dev)
				close(b.fd);
			return cli_error(-EINVAL,
					 "--time: '%s' is not a number of "
					 "seconds from 0.1 to 3600",
					 o->bench_time);
		}
	}
	bench_run_impls(&rep, seconds / 5);
	{
		const struct bench_impl *pref;

		/* the kernel cpuid prefers measured slower than another:
		 * noise; measure once more before saying anything */
		if (bench_noisy_kernel(rep.impls, rep.nimpls, &pref)) {
			rep.nimpls = 0;
			bench_run_impls(&rep, seconds / 5);
		}
	}
	bench_run_fec(&rep, seconds / 10);
	bench_fec_advise(&rep);

	if (b.dev)
		device_bound(&rep, pp, &b, threads);
	run_settings(&rep, pp, &b, threads, seconds * 7 / 10);
	free_prepared(pp, k);
	if (o->json)
		bench_print_json(&rep);
	else if (o->csv)
		bench_print_csv(&rep);
	else
		bench_print_table(&rep);
	if (b.dev)
		close(b.fd);
	free(rep.settings);
	free(data);
	return EXIT_OK;
}
