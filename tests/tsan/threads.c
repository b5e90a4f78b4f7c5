/* The library from many threads at once (docs/library.md, "Threads"):
 * 8 threads each format an image of their own with parity, damage it,
 * verify it, repair it, verify it, change a block on purpose, update
 * tree and parity and verify it again, then fs-verity digests of its
 * files, several at once (one of them missing: its worker's message
 * said), through the public API alone. Built and run under ThreadSanitizer by make check-tsan: a data
 * race anywhere in the library fails it. Exit 0 when every thread's
 * image came back whole. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/fastverity.h"

#define THREADS 8
#define BLOCKS  600
#define BS      4096

struct job {
	int id;
	char dir[64];
	int ok;
	char why[256];
};

static int fill(const char *path, int seed)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	uint8_t block[BS];

	if (fd < 0)
		return -1;
	for (int b = 0; b < BLOCKS; b++) {
		for (int i = 0; i < BS; i++)
			block[i] = (uint8_t)(seed * 31 + b * 7 + i);
		if (write(fd, block, BS) != BS) {
			close(fd);
			return -1;
		}
	}
	return close(fd);
}

static int poke(const char *path, off_t at)
{
	int fd = open(path, O_RDWR);
	uint8_t c = 0;
	int ok = fd >= 0 && pread(fd, &c, 1, at) == 1;

	c ^= 0xff;
	ok = ok && pwrite(fd, &c, 1, at) == 1;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* What a result says (fv_result_report); zeros when it cannot. */
static struct fv_report rep_of(const fv_result *r)
{
	struct fv_report rep = {.size = sizeof(rep)};

	if (fv_result_report(r, &rep))
		memset(&rep, 0, sizeof(rep));
	return rep;
}

#define FAIL(...)                                              \
	do {                                                   \
		snprintf(j->why, sizeof(j->why), __VA_ARGS__); \
		goto out;                                      \
	} while (0)

static void *run(void *arg)
{
	struct job *j = arg;
	char data[96], hash[96], fec[96], root[129];
	fv_options opts = {.size = sizeof(opts), .threads = 2}, *o = &opts;
	fv_result *res = NULL;
	fv_image *im = NULL;
	fv_params params = {.size = sizeof(params)};
	struct fv_format_request fq = {.size = sizeof(fq),
				       .data = data,
				       .hash = hash,
				       .params = &params,
				       .fec_path = fec,
				       .fec_roots = 4};
	/* the pair again, as its superblock says, its parity's roots told
	 * from its size; opened for a repair */
	struct fv_open_request rq = {.size = sizeof(rq),
				     .data = data,
				     .hash = hash,
				     .fec_path = fec,
				     .writes = 1,
				     .root_hex = root};

	snprintf(data, sizeof(data), "%s/data", j->dir);
	snprintf(hash, sizeof(hash), "%s/hash", j->dir);
	snprintf(fec, sizeof(fec), "%s/fec", j->dir);
	if (fill(data, j->id))
		FAIL("setup");
	if (fv_params_init(&params))
		FAIL("options: %s", fv_last_error());
	if (fv_format(&fq, o, &res))
		FAIL("format: %s", fv_last_error());
	snprintf(root, sizeof(root), "%s", rep_of(res).root_hex);
	fv_result_free(res);
	res = NULL;
	if (poke(data, (off_t)(j->id * 13 + 5) * BS + j->id))
		FAIL("damage");
	if (fv_open(&rq, o, &im))
		FAIL("superblock: %s", fv_last_error());
	if (fv_verify(im, 0, o, &res) || rep_of(res).intact ||
	    rep_of(res).bad_data_blocks != 1)
		FAIL("verify: %s", fv_last_error());
	fv_result_free(res);
	res = NULL;
	if (fv_repair(im, 0, o, &res) || rep_of(res).repaired != 1)
		FAIL("repair: %s", fv_last_error());
	fv_result_free(res);
	res = NULL;
	if (fv_verify(im, 0, o, &res) || !rep_of(res).intact)
		FAIL("verify after repair: %s", fv_last_error());
	fv_result_free(res);
	res = NULL;
	fv_image_free(im);
	im = NULL;
	/* a block changed on purpose, the tree and parity updated from the
	 * old root, the superblock's parameters */
	if (poke(data, (off_t)(j->id * 29 + 100) * BS + 7))
		FAIL("change");
	{
		const uint64_t changed[2] = {
			(uint64_t)(j->id * 29 + 100) * BS + 7, 1};
		int r;

		fq.params = NULL;
		fq.fec_roots = 0;
		fq.root_hex = root;
		if (!(r = fv_update(&fq, changed, 1, o, &res)))
			snprintf(root, sizeof(root), "%s",
				 rep_of(res).root_hex);
		if (r)
			FAIL("update: %s", fv_last_error());
	}
	fv_result_free(res);
	res = NULL;
	rq.writes = 0;
	if (fv_open(&rq, o, &im))
		FAIL("open after update: %s", fv_last_error());
	if (fv_verify(im, 0, o, &res) || !rep_of(res).intact ||
	    rep_of(res).stale_codewords)
		FAIL("verify after update: %s", fv_last_error());
	/* fs-verity digests of the three files at once (each on one of
	 * three workers), the data's again alone on two: the same */
	{
		const char *files[3] = {data, hash, fec};
		const struct fv_fsverity_request q = {
			.size = sizeof(q),
			.path = data,
			.flags = FV_FSVERITY_KEEP_TREE};
		struct fv_fsverity_info i1 = {.size = sizeof(i1)},
					i0 = {.size = sizeof(i0)};
		fv_fsverity_digest *d[3] = {NULL, NULL, NULL}, *one = NULL;
		fv_options o3 = {.size = sizeof(o3), .threads = 3};
		size_t failed = 3;
		int r = fv_fsverity_compute_files(NULL, files, 3, &o3, 0, d,
						  &failed);

		if (!r)
			r = fv_fsverity_compute(&q, o, &one);
		if (!r && (fv_fsverity_digest_info(one, &i1) ||
			   fv_fsverity_digest_info(d[0], &i0) ||
			   strcmp(i1.digest_hex, i0.digest_hex)))
			r = -1;
		for (int i = 0; i < 3; i++)
			fv_fsverity_digest_free(d[i]);
		fv_fsverity_digest_free(one);
		if (r)
			FAIL("fs-verity: %s", fv_last_error());
	}
	/* a file that is not there, among three on three workers: the
	 * worker's message, handed over, is this thread's last error */
	{
		char gone[96];
		const char *files[3] = {data, gone, fec};
		struct fv_fsverity_params fp = {.size = sizeof(fp)};
		fv_fsverity_digest *d[3] = {NULL, NULL, NULL};
		fv_options o3 = {.size = sizeof(o3), .threads = 3};
		size_t failed = 3;
		int r;

		snprintf(gone, sizeof(gone), "%s/gone", j->dir);
		r = fv_fsverity_compute_files(&fp, files, 3, &o3, 0, d, &failed);
		for (int i = 0; i < 3; i++)
			fv_fsverity_digest_free(d[i]);
		if (!r || failed != 1 || !strstr(fv_last_error(), gone))
			FAIL("fs-verity of a missing file: %d, %zu: %s", r,
			     failed, fv_last_error());
	}
	j->ok = 1;
out:
	fv_result_free(res);
	fv_image_free(im);
	return NULL;
}

int main(void)
{
	struct job jobs[THREADS];
	pthread_t t[THREADS];
	char cmd[128];
	int failed = 0;

	for (int i = 0; i < THREADS; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].id = i;
		strcpy(jobs[i].dir, "/tmp/fv-tsan-XXXXXX");
		if (!mkdtemp(jobs[i].dir))
			return 2;
	}
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, run, &jobs[i]))
			return 2;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++) {
		if (!jobs[i].ok) {
			fprintf(stderr, "thread %d: %s\n", i, jobs[i].why);
			failed = 1;
		}
		snprintf(cmd, sizeof(cmd), "rm -rf %s", jobs[i].dir);
		if (system(cmd))
			failed = 1;
	}
	printf("tsan: %d threads formatted, verified, repaired and updated at "
	       "once: "
	       "%s\n",
	       THREADS, failed ? "FAILED" : "ok");
	return failed;
}
