/* Makes reproducible image contents for the samples and the tests.
 *   mkimage random SEED BYTES   pseudo-random bytes (xorshift64*)
 *   mkimage firmware SEED BYTES random bytes with a zero-filled middle
 *                               third, like a firmware image with an
 *                               erased region
 *   mkimage labels LABEL BYTES  SHA-256("LABEL:0") || SHA-256("LABEL:1")
 *                               || ..., the data rule of the golden
 *                               Android images (docs/android.md)
 * Output goes to stdout. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* SHA-256 of "LABEL:i" for i = 0, 1, ..., cut to size bytes. */
static int labels(const char *label, uint64_t size)
{
	uint8_t d[32];
	char text[4200];

	if (strlen(label) > 4096)
		return 1;
	for (uint64_t i = 0, done = 0; done < size; i++, done += 32) {
		int n = snprintf(text, sizeof(text), "%s:%" PRIu64, label, i);
		size_t k = size - done < 32 ? (size_t)(size - done) : 32;

		if (!EVP_Digest(text, (size_t)n, d, NULL, EVP_sha256(), NULL) ||
		    fwrite(d, 1, k, stdout) != k)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	uint64_t seed, size, done = 0;
	int zero_mid;

	if (argc == 4 && !strcmp(argv[1], "labels"))
		return labels(argv[2], strtoull(argv[3], NULL, 0));
	if (argc != 4 ||
	    (strcmp(argv[1], "random") && strcmp(argv[1], "firmware"))) {
		fprintf(stderr, "usage: mkimage random|firmware SEED BYTES\n"
				"       mkimage labels LABEL BYTES\n");
		return 1;
	}
	zero_mid = !strcmp(argv[1], "firmware");
	seed = strtoull(argv[2], NULL, 0) * 2654435761ULL + 1;
	size = strtoull(argv[3], NULL, 0);
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? (size_t)(size - done)
						     : sizeof(buf);

		for (size_t i = 0; i < n; i += 8) {
			uint64_t v = next(&seed);
			for (size_t k = 0; k < 8 && i + k < n; k++)
				buf[i + k] = (unsigned char)(v >> (8 * k));
		}
		if (zero_mid)
			for (size_t i = 0; i < n; i++) {
				uint64_t at = done + i;
				if (at >= size / 3 && at < 2 * (size / 3))
					buf[i] = 0;
			}
		if (fwrite(buf, 1, n, stdout) != n)
			return 1;
		done += n;
	}
	return 0;
}
