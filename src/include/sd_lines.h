/*
 * sd_lines.h - objects laid out by cache line.
 *
 * A task's path reads a few fields of each object it meets (buffer, mmap,
 * import).  A large copy evicts all of them from the first-level cache, so
 * every line the next task touches is a miss; on a 64 KiB copy those misses
 * were most of what a task cost beyond the memcpy (issue 22).  The objects
 * on that path keep the fields it reads in their first line and are
 * allocated on a line boundary, so that first line is one line.
 */
#ifndef SD_LINES_H
#define SD_LINES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SD_LINE 64

/* Zeroed memory for `n` objects of `size` bytes, starting on a cache line; free() releases it. */
static inline void *sd_lines_calloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size != 0 && n > (SIZE_MAX - SD_LINE) / size)
		return NULL;
	bytes = (n * size + SD_LINE - 1) / SD_LINE * SD_LINE;
	if (bytes == 0)
		bytes = SD_LINE; /* a unique pointer, as calloc may give for zero bytes */
	p = aligned_alloc(SD_LINE, bytes);
	if (p != NULL)
		memset(p, 0, bytes);
	return p;
}

#endif /* SD_LINES_H */
