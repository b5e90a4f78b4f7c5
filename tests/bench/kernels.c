/* SHA-256 kernel throughput on 4096-byte blocks with a 32-byte salt,
 * data resident in cache: portable, SHA-NI one-way, SHA-NI two-way.
 * Prints "name MB/s" lines, the median of seven runs each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../hashtree/sha256.h"

#define BLOCKS 64 /* 256 KiB: stays in L2 */
#define RUNS   7

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

enum way { PORTABLE, ONE_WAY, TWO_WAY };

static double measure(enum way way, const struct sha256_salted_state *st,
		      const uint8_t *buf, uint8_t *out, int reps)
{
	double t = now();

	for (int r = 0; r < reps; r++) {
		if (way == PORTABLE)
			sha256_portable_finup_many(st, buf, 4096, BLOCKS, out,
						   32);
		else if (way == TWO_WAY)
			sha256_shani_finup_many(st, buf, 4096, BLOCKS, out, 32);
		else
			for (int i = 0; i < BLOCKS; i++)
				sha256_shani_finup(st, buf + i * 4096, 4096,
						   out + i * 32);
	}
	return (double)reps * BLOCKS * 4096 / (now() - t) / 1e6;
}

int main(void)
{
	static const char *names[] = {"portable", "sha-ni-1way", "sha-ni-2way"};
	static uint8_t buf[BLOCKS * 4096], out[BLOCKS * 32];
	struct sha256_salted_state st;
	uint8_t salt[32];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	memset(salt, 0xab, sizeof(salt));
	sha256_salted_init(&st, salt, sizeof(salt));
	for (int way = 0; way < 3; way++) {
		double runs[RUNS];

		if (way != PORTABLE && !sha256_cpu_has_shani())
			continue;
		for (int r = 0; r < RUNS; r++)
			runs[r] = measure(way, &st, buf, out,
					  way == PORTABLE ? 40 : 200);
		qsort(runs, RUNS, sizeof(runs[0]), cmp_double);
		printf("%s %.0f\n", names[way], runs[RUNS / 2]);
	}
	return 0;
}
