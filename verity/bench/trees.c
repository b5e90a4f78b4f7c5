/* bench: whole trees of each setting, built in memory from synthetic
 * data or read from a device (never written), and the run of it all:
 * the machine, the ways of hashing, the encoders, the trees. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verity/bench/bench.h"
#include "verity/storage/device.h"
#include "verity/tree/layout.h"
#include "verity/tree/memtree.h"

double verity_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A valid setting ready to be measured: its tree in memory. */
struct prepared {
	struct verity_memtree mt;
	struct verity_device dev; /* read from a device: its own handle */
	int has_mt, has_dev;
	double rate[BENCH_ROUNDS];
	unsigned rounds;
};

/* The data: in memory, or read from a device. */
struct bench_data {
	const uint8_t *data;
	const char *dev; /* the device's path */
	int fd;          /* open on it, for reading it plain */
	uint64_t size;   /* its bytes (the data measured: at most these) */
};

/* "sha256, 32-byte salt, 4096/4096-byte blocks, format 1: " before the
 * message of a setting that cannot make a tree. */
static int setting_fail(struct ht_error *err, int r,
			const struct bench_setting *s, const char *why)
{
	return ht_fail(
		err, -r,
		"%s, %zu-byte salt, %u/%u-byte blocks, format %d: %.511s",
		s->p.hash_name, s->p.salt_size, s->p.data_block_size,
		s->p.hash_block_size, s->p.hash_type, why);
}

static int prepare_setting(struct bench_setting *s, struct prepared *pp,
			   uint64_t size, const struct bench_data *b,
			   enum sha256_choice choice, struct ht_error *err)
{
	int r;

	if (!(size / s->p.data_block_size)) {
		ht_fail(err, EINVAL, "the data is smaller than one %u-byte block",
			s->p.data_block_size);
		return setting_fail(err, -EINVAL, s, ht_msg(err));
	}
	s->p.data_blocks = size / s->p.data_block_size;
	if (!b->data) {
		if ((r = verity_device_open(&pp->dev, b->dev, VERITY_OPEN_READ,
					    err)))
			return setting_fail(err, r, s, ht_msg(err));
		pp->has_dev = 1;
	}
	if ((r = verity_memtree_init(&pp->mt, &s->p, b->data,
				     pp->has_dev ? &pp->dev : NULL, err)))
		return setting_fail(err, r, s, ht_msg(err));
	pp->has_mt = 1;
	ht_hasher_use_kernel(&pp->mt.h, choice);
	verity_fill_info(&pp->mt.info, &pp->mt.h);
	s->path = pp->mt.info.hash_path ? pp->mt.info.hash_path : "";
	s->path_reason = pp->mt.info.path_reason ? pp->mt.info.path_reason : "";
	s->levels = pp->mt.g.levels;
	s->data_bytes = pp->mt.data_bytes;
	s->tree_bytes = pp->mt.tree_bytes;
	s->valid = 1;
	return 0;
}

/* One round: builds the tree until the budget is spent, at least once. */
static void measure_round(struct bench_setting *s, struct prepared *pp,
			  unsigned threads, double budget)
{
	uint8_t root[HT_MAX_DIGEST_SIZE];
	struct ht_error err;
	unsigned runs = 0;
	double t0 = verity_bench_now(), t;

	do {
		if (verity_memtree_build(&pp->mt, threads, root, &err)) {
			snprintf(s->why, sizeof(s->why), "%.511s", ht_msg(&err));
			s->valid = 0;
			return;
		}
		runs++;
		t = verity_bench_now() - t0;
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
	t0 = verity_bench_now();
	for (off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		if (pread(dev->fd, buf, n, (off_t)off) != (ssize_t)n)
			break;
	}
	t = verity_bench_now() - t0;
	free(buf);
	return off && t > 0 ? (double)off / t / 1e6 : 0;
}

/* A device: the disk's rate, the SHA unit's, and one tree built cold:
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
static void run_settings(struct bench_report *rep, struct prepared *pp,
			 const struct bench_data *b, unsigned threads,
			 double seconds)
{
	double budget = seconds / BENCH_ROUNDS / (double)rep->nsettings;
	double t0 = verity_bench_now();

	/* a device: one build a setting a round, as many rounds (up to
	 * BENCH_ROUNDS) as fit the time; one round alone says nothing of
	 * the noise, and the ranking then keeps the default */
	for (unsigned r = 0; r < BENCH_ROUNDS; r++) {
		for (size_t i = 0; i < rep->nsettings; i++)
			if (rep->settings[i].valid)
				measure_round(&rep->settings[i], &pp[i],
					      threads, b->dev ? 0 : budget);
		if (b->dev &&
		    (verity_bench_now() - t0) / (r + 1) * (r + 2) > seconds)
			break;
	}
	for (size_t i = 0; i < rep->nsettings; i++)
		if (pp[i].rounds)
			verity_bench_stats(pp[i].rate, pp[i].rounds,
					   &rep->settings[i].mb_per_s,
					   &rep->settings[i].lo,
					   &rep->settings[i].hi);
}

static void free_prepared(struct prepared *pp, size_t n)
{
	for (size_t i = 0; pp && i < n; i++) {
		if (pp[i].has_mt)
			verity_memtree_free(&pp[i].mt);
		if (pp[i].has_dev)
			verity_device_close(&pp[i].dev);
	}
	free(pp);
}

/* The CPU's model, or on arm64 its implementer and part codes, from
 * /proc/cpuinfo. */
static void machine(struct bench_report *r, enum sha256_choice choice)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], implementer[32] = "", part[32] = "";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

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
	r->cpus = cpus > 0 ? (unsigned)cpus : 1;
	r->cpu_flags = ht_sha256_cpu_features();
	r->sha256_kernel =
		ht_sha256_kernel_name(ht_sha256_kernel_choose(choice));
}

/* Synthetic data: every byte differs from its neighbours', the same in
 * every run. */
static uint8_t *synthetic(uint64_t size)
{
	uint8_t *data = malloc(size ? (size_t)size : 1);

	for (uint64_t i = 0; data && i < size; i += 8) {
		uint64_t v = (i * 0x9e3779b97f4a7c15ULL) ^ (i >> 17);

		memcpy(data + i, &v, size - i < 8 ? size - i : 8);
	}
	return data;
}

int verity_bench_run(struct bench_report *rep, const struct bench_plan *plan,
		     struct ht_error *err)
{
	struct bench_data b = {.fd = -1};
	struct prepared *pp = NULL;
	uint8_t *data = NULL;
	double seconds = plan->seconds;
	int r = 0;

	machine(rep, plan->sha256);
	rep->threads = plan->threads ? plan->threads : verity_default_threads();
	rep->size = plan->size;
	if (plan->device) {
		struct verity_device d;

		/* opened as every action opens a device (a directory, a
		 * FIFO refused), then read here plain for the disk's own
		 * rate */
		if ((r = verity_device_open(&d, plan->device, VERITY_OPEN_READ,
					    err)))
			return r;
		b.size = d.size;
		verity_device_close(&d);
		if ((b.fd = open(plan->device, O_RDONLY | O_CLOEXEC)) < 0)
			return ht_fail(err, ENODEV, "%s: cannot be read (%s)",
				       plan->device, strerror(errno));
		b.dev = rep->device = plan->device;
		if (!rep->size || rep->size > b.size)
			rep->size = b.size;
	} else {
		if (rep->size > SIZE_MAX / 2 || !(data = synthetic(rep->size)))
			return ht_fail(err, ENOMEM,
				       "cannot allocate %llu bytes of data",
				       (unsigned long long)rep->size);
		b.data = data;
	}
	/* every setting prepared, so possible, before anything is
	 * measured */
	if (!(pp = calloc(rep->nsettings ? rep->nsettings : 1, sizeof(*pp)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < rep->nsettings; i++)
		if ((r = prepare_setting(&rep->settings[i], &pp[i], rep->size,
					 &b, plan->sha256, err)))
			goto out;
	/* a fifth of the time for the ways of hashing, a tenth for the
	 * FEC encoders, the rest for the trees; every tree is built at
	 * least once */
	verity_bench_hashing(rep, plan->sha256, seconds / 5);
	{
		const struct bench_impl *pref;

		/* the kernel cpuid prefers measured slower than another:
		 * noise; measure once more before saying anything */
		if (verity_bench_noisy_kernel(rep->impls, rep->nimpls, &pref)) {
			rep->nimpls = 0;
			verity_bench_hashing(rep, plan->sha256, seconds / 5);
		}
	}
	verity_bench_fec(rep, seconds / 10);
	verity_bench_fec_advise(rep);
	if (b.dev)
		device_bound(rep, pp, &b, rep->threads);
	run_settings(rep, pp, &b, rep->threads, seconds * 7 / 10);
	verity_bench_conclude(rep);
out:
	free_prepared(pp, rep->nsettings);
	if (b.fd >= 0)
		close(b.fd);
	free(data);
	return r;
}
