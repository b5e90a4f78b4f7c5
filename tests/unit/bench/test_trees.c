/* verity/bench/trees.c, what is not timing: a run refused before
 * anything is measured -- a setting that cannot make a tree, named,
 * after those before it were prepared (their blocks, levels, tree and
 * hashing path filled in); a device that cannot be read -- the machine
 * said first, the data a device bounds, the threads' default. (A whole
 * run is not here: the FEC encoders' rounds, one pass each at least,
 * take over a second whatever the budget.) */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/bench/bench.h"

#define SIZE (64u << 10)

static struct bench_report rep;
static struct bench_setting set[2];
static struct ht_error err;

static void setting(struct bench_setting *s, const char *hash, uint32_t dbs,
		    size_t salt)
{
	memset(s, 0, sizeof(*s));
	verity_params_default(&s->p);
	snprintf(s->p.hash_name, sizeof(s->p.hash_name), "%s", hash);
	s->p.data_block_size = dbs;
	s->p.salt_size = salt;
	memset(s->p.salt, 0x11, salt);
}

static void setup(void)
{
	memset(&rep, 0, sizeof(rep));
	memset(&err, 0, sizeof(err));
	setting(&set[0], "sha256", 4096, 32);
	setting(&set[1], "sha1", 512, 0);
	rep.settings = set;
	rep.nsettings = 2;
}

static int run(const char *device, uint64_t size)
{
	struct bench_plan plan = {
		.device = device, .size = size, .threads = 1, .seconds = 0.001};

	return verity_bench_run(&rep, &plan, &err);
}

/* Nothing was measured; the machine was said. */
static void nothing_measured(void)
{
	ck_assert_uint_eq(rep.nimpls, 0);
	ck_assert_uint_eq(rep.nfec, 0);
	ck_assert_uint_eq(rep.nadvice, 0);
	ck_assert(rep.clock_mhz == 0);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_uint_eq(set[i].runs, 0);
		ck_assert(set[i].mb_per_s == 0);
		ck_assert_uint_eq(set[i].flags, 0);
	}
	ck_assert_str_ne(rep.cpu, "");
	ck_assert_uint_ge(rep.cpus, 1);
	ck_assert_ptr_nonnull(rep.sha256_kernel);
	ck_assert_uint_eq(rep.threads, 1);
}

/* setting 0 prepared: its blocks of size bytes, levels of tree_bytes */
static void prepared(uint64_t size, unsigned levels, uint64_t tree_bytes)
{
	const struct bench_setting *s = &set[0];

	ck_assert_int_eq(s->valid, 1);
	ck_assert_uint_eq(s->p.data_blocks, size / s->p.data_block_size);
	ck_assert_uint_eq(s->data_bytes,
			  s->p.data_blocks * s->p.data_block_size);
	ck_assert_uint_eq(s->levels, levels);
	ck_assert_uint_eq(s->tree_bytes, tree_bytes);
	ck_assert_ptr_nonnull(s->path);
	ck_assert_str_ne(s->path, "");
	ck_assert_ptr_nonnull(s->path_reason);
}

START_TEST(too_small_refused_first)
{
	/* 1000 bytes: the 512-byte blocks fit, the 4096-byte ones do not */
	set[1] = set[0];
	setting(&set[0], "sha1", 512, 0);
	ck_assert_int_eq(run(NULL, 1000), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "sha256, 32-byte salt, 4096/4096-byte blocks, format "
			 "1: the data is smaller than one 4096-byte block");
	nothing_measured();
	ck_assert_uint_eq(rep.size, 1000);
	ck_assert_ptr_null(rep.device);
	/* one block: no level, the root its digest (the kernel's rule) */
	prepared(1000, 0, 0);
	ck_assert_uint_eq(set[0].data_bytes, 512);
	ck_assert_int_eq(set[1].valid, 0);
}
END_TEST

START_TEST(no_tree_refused)
{
	setting(&set[1], "nohash", 4096, 0);
	ck_assert_int_eq(run(NULL, SIZE + 100), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err),
				     "nohash, 0-byte salt, 4096/4096-byte "
				     "blocks, format 1: "));
	nothing_measured();
	/* the whole blocks of the size asked */
	prepared(SIZE + 100, 1, 4096);
	ck_assert_uint_eq(set[0].data_bytes, SIZE);
	ck_assert_int_eq(set[1].valid, 0);
	/* the first setting refused: it is the one named */
	setup();
	setting(&set[0], "sha256", 4096, 0);
	set[0].p.data_block_size = 8192;
	set[1] = set[0];
	set[1].p.data_block_size = 4096;
	ck_assert_int_eq(run(NULL, 4096), -EINVAL);
	ck_assert_str_eq(ht_msg(&err),
			 "sha256, 0-byte salt, 8192/4096-byte blocks, format "
			 "1: the data is smaller than one 8192-byte block");
}
END_TEST

START_TEST(device_refused)
{
	char d[] = "/tmp/fvbenchXXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(d));
	ck_assert_int_lt(run(d, 0), 0);
	nothing_measured();
	ck_assert_int_eq(set[0].valid, 0);
	ck_assert_int_eq(rmdir(d), 0);
	ck_assert_int_lt(run(d, 0), 0);
	nothing_measured();
}
END_TEST

/* a file as the device: its size bounds the data asked (0: all of it) */
START_TEST(device_bounds)
{
	char d[] = "/tmp/fvbenchXXXXXX";
	char path[64];
	uint8_t *b = calloc(1, SIZE);
	FILE *f;

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(mkdtemp(d));
	snprintf(path, sizeof(path), "%s/data", d);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_uint_eq(fwrite(b, 1, SIZE, f), SIZE);
	fclose(f);
	free(b);
	setting(&set[1], "nohash", 4096, 0);
	for (int i = 0; i < 3; i++) {
		static const uint64_t asked[] = {4 * SIZE, 0, 8192};
		uint64_t got = asked[i] && asked[i] < SIZE ? asked[i] : SIZE;

		ck_assert_int_eq(run(path, asked[i]), -EINVAL);
		ck_assert_str_eq(rep.device, path);
		ck_assert_uint_eq(rep.size, got);
		prepared(got, got > 4096, got > 4096 ? 4096 : 0);
		nothing_measured();
	}
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(d), 0);
}
END_TEST

START_TEST(threads_default)
{
	struct bench_plan plan = {.size = 100, .seconds = 0.001};

	/* refused (too small), after the threads were said */
	ck_assert_int_eq(verity_bench_run(&rep, &plan, &err), -EINVAL);
	ck_assert_uint_ge(rep.threads, 1);
	ck_assert_uint_le(rep.threads, VERITY_MAX_THREADS);
}
END_TEST

START_TEST(clock_goes_on)
{
	double a = verity_bench_now(), b = verity_bench_now();

	ck_assert(a > 0);
	ck_assert(b >= a);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"bench_trees", 0, setup,
					    NULL,          0, NULL};

	return run_unit(&u, UNIT_TESTS(too_small_refused_first, no_tree_refused,
				       device_refused, device_bounds,
				       threads_default, clock_goes_on));
}
