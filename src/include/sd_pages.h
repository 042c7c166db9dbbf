/*
 * sd_pages.h - buffers on pages of their own, for the bytes the kernel
 * writes into on softdoca's behalf (socket receive buffers).
 *
 * Starting or stopping an mmap with a PCI export right moves the whole pages
 * of its range onto (or off) a memfd, write-protecting them for the moment
 * of the move (src/common/mem/mmap_share.c).  A store into such a page
 * waits in the move's fault handler, but a system call that writes there
 * fails with EFAULT, and a datagram socket drops the message it was
 * delivering.  A receive buffer that came from malloc may share a page with
 * a program's buffer being registered; one from these helpers never does.
 */
#ifndef SD_PAGES_H
#define SD_PAGES_H

#include <stddef.h>
#include <sys/mman.h>

/* `len` bytes (at least one) on private pages nobody else's data shares; NULL when out of memory. */
static inline void *sd_pages_alloc(size_t len)
{
	void *p = mmap(NULL, len != 0 ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Give back what sd_pages_alloc(len) returned; NULL is ignored. */
static inline void sd_pages_free(void *p, size_t len)
{
	if (p != NULL)
		munmap(p, len != 0 ? len : 1);
}

#endif /* SD_PAGES_H */
