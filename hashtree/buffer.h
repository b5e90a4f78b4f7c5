/* Large working buffers with their pages in place from the start.
 *
 * A page of fresh anonymous memory costs a page fault when first touched.
 * On bare metal that is well under a microsecond; in some virtual
 * machines it is far more (13 us per 4 KiB page measured on the machine
 * this was written on, against about 0.8 us per page when the pages are
 * populated in one call), which is more than hashing the page costs. So
 * buffers of a few pages or more are mapped with their pages populated,
 * in one system call, instead of being faulted in one page at a time. */
#ifndef FV_BUFFER_H
#define FV_BUFFER_H

#include <stddef.h>

/* size bytes of zeros, or NULL. Free with ht_buffer_free and the same
 * size. */
void *ht_buffer_alloc(size_t size);
void ht_buffer_free(void *p, size_t size);

#endif
