#include "buffer.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Below this, malloc's own pools serve the buffer (and it is mostly
 * reused memory, already touched). */
#define BUFFER_MAP_MIN (64u << 10)
/* From half of it on, a buffer is made of whole transparent huge pages. */
#define HUGE_PAGE (2u << 20)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

static size_t huge_size(size_t size)
{
	return size >= HUGE_PAGE / 2
		       ? (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE
		       : 0;
}

/* len bytes (a multiple of HUGE_PAGE) aligned to HUGE_PAGE, asked to be
 * huge pages and populated; NULL if they cannot be mapped. */
static void *map_huge(size_t len)
{
	uint8_t *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *at;

	if (p == MAP_FAILED)
		return NULL;
	at = (uint8_t *)(((uintptr_t)p + HUGE_PAGE - 1) &
			 ~(uintptr_t)(HUGE_PAGE - 1));
	if (at > p)
		munmap(p, (size_t)(at - p));
	munmap(at + len, (size_t)(p + HUGE_PAGE - at));
	/* either may fail (no THP, an older kernel): the pages then come
	 * one at a time, as from malloc */
	madvise(at, len, MADV_HUGEPAGE);
	madvise(at, len, MADV_POPULATE_WRITE);
	return at;
}

void *ht_buffer_alloc(size_t size)
{
	void *p;

	if (size < BUFFER_MAP_MIN)
		return calloc(1, size ? size : 1);
	if (huge_size(size))
		return map_huge(huge_size(size));
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
		munmap(p, huge_size(size) ? huge_size(size) : size);
}
