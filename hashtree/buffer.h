/* Large working buffers, zeroed, their pages in place from the start.
 *
 * The first touch of a page of fresh anonymous memory costs a fault. On
 * bare metal that is well under a microsecond; in the virtual machine this
 * was measured on it was 7-13 us per 4 KiB page, even after MAP_POPULATE
 * (the hypervisor's own page tables fill on first access), which is more
 * than hashing the page. 6 MiB of FEC parity planes cost 12 ms of first
 * touches in 4 KiB pages, 0.2-0.7 ms as transparent huge pages. So a
 * buffer of 1 MiB or more is made of whole 2 MiB huge pages (where the
 * kernel allows it: THP "madvise" or "always"), populated in one call;
 * smaller ones of 64 KiB or more are populated in one call. */
#ifndef FV_BUFFER_H
#define FV_BUFFER_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>

/* size bytes of zeros, or NULL. Free with ht_buffer_free and the same
 * size. */
void *ht_buffer_alloc(size_t size);
void ht_buffer_free(void *p, size_t size);

#endif
