/*
 * rdma_buf.h - walking the buffers of an RDMA task: lengths of lists, and
 * a cursor over the free space after the data of a destination list.
 */
#ifndef SD_RDMA_BUF_H
#define SD_RDMA_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "sd_mem.h"

/* Total data bytes of a list, and its element count. */
static inline uint64_t sd_rdma_list_bytes(const struct doca_buf *b, uint32_t *count)
{
	uint64_t total = 0;
	uint32_t n = 0;

	for (; b != NULL; b = b->next, n++)
		total += b->data_len;
	*count = n;
	return total;
}

/* Free bytes after the data of every element of a list. */
static inline uint64_t sd_rdma_list_room(const struct doca_buf *b)
{
	uint64_t room = 0;

	for (; b != NULL; b = b->next)
		room += (uint64_t)(b->head + b->len - (b->data + b->data_len));
	return room;
}

/* Position in the free space of a destination list. */
struct sd_rdma_cursor {
	struct doca_buf *b;
	size_t off; /* bytes already placed after b's data */
};

/* The next contiguous free span (address and length, at most `want`); 0 at the end. */
static inline size_t sd_rdma_cursor_span(struct sd_rdma_cursor *c, uint64_t want, uint8_t **at)
{
	while (c->b != NULL) {
		uint8_t *start = c->b->data + c->b->data_len + c->off;
		size_t room = (size_t)(c->b->head + c->b->len - start);
		if (room != 0) {
			size_t n = want < room ? (size_t)want : room;
			*at = start;
			c->off += n;
			return n;
		}
		c->b = c->b->next;
		c->off = 0;
	}
	return 0;
}

/* Apply `total` placed bytes to the data lengths of the list, in order. */
static inline void sd_rdma_list_grow(struct doca_buf *b, uint64_t total)
{
	for (; b != NULL && total != 0; b = b->next) {
		uint64_t room = (uint64_t)(b->head + b->len - (b->data + b->data_len));
		uint64_t n = total < room ? total : room;
		b->data_len += n;
		total -= n;
	}
}

#endif /* SD_RDMA_BUF_H */
