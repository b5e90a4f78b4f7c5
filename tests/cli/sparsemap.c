/* The extents fastverity's Android sparse reader makes of an image
 * (verity/container/sparse/), a line each, for tests/cli/t_sparse.sh to
 * compare with simg_dump's chunk list: "raw DATA_OFFSET BLOCK COUNT",
 * "fill PATTERN BLOCK COUNT", "zero BLOCK COUNT" (DONT_CARE chunks and
 * zero FILL chunks alike). Usage: sparsemap IMAGE */
#include <inttypes.h>
#include <stdio.h>

#include "verity/container/sparse/sparse.h"

int main(int argc, char **argv)
{
	struct verity_sparse s;
	struct verity_device d;
	struct ht_error err;

	if (argc != 2)
		return 2;
	if (verity_device_open(&d, argv[1], VERITY_OPEN_READ, &err) ||
	    verity_sparse_read(&d, argv[1], &s, &err)) {
		fprintf(stderr, "%s\n", ht_msg(&err));
		return 1;
	}
	printf("blocks %u chunks %u crc %u\n", s.blocks, s.chunks,
	       s.crc_chunks);
	for (size_t i = 0; i < s.x.n; i++) {
		const struct verity_extent *e = &s.x.e[i];
		uint64_t block = e->logical / s.block_size,
			 count = e->length / s.block_size;

		if (e->kind == VERITY_EXTENT_FILE)
			printf("raw %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			       e->file_offset, block, count);
		else if (e->kind == VERITY_EXTENT_FILL)
			printf("fill 0x%08X %" PRIu64 " %" PRIu64 "\n",
			       e->pattern, block, count);
		else
			printf("zero %" PRIu64 " %" PRIu64 "\n", block, count);
	}
	verity_sparse_free(&s);
	verity_device_close(&d);
	return 0;
}
