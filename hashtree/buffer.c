#include "buffer.h"

#include <stdlib.h>
#include <sys/mman.h>

/* Below this, malloc's own pools serve the buffer (and it is mostly
 * reused memory, already faulted in). */
#define BUFFER_MAP_MIN (64u << 10)

void *ht_buffer_alloc(size_t size)
{
	void *p;

	if (size < BUFFER_MAP_MIN)
		return calloc(1, size ? size : 1);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void ht_buffer_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < BUFFER_MAP_MIN)
		free(p);
	else
		munmap(p, size);
}
