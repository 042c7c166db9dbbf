/*
 * inventory_reuse.c - re-pointing a handed-out inventory buffer (the DOCA
 * 3.2 calls doca_buf_inventory_buf_reuse_by_addr / _by_data).
 *
 * A program that keeps one buffer per in-flight task re-aims it at the next
 * piece of its mmap before resubmitting, without a trip back to the
 * inventory.  The new window obeys the rules of doca_buf_inventory_buf_get_*
 * for the buffer's own mmap; the element keeps its mmap, reference count,
 * list links and user data, so a buffer that is part of a list can be
 * re-aimed element by element.  Buffers of a doca_buf_pool have a fixed
 * slot of the pool's memory and are refused.  No allocation, lock or system
 * call: this runs once per task in such programs.
 */
#include <doca_buf_inventory.h>

#include "mem_priv.h"

static doca_error_t sd_inventory_buf_reuse(const char *func, struct doca_buf *buf, uint8_t *addr, size_t len,
					   uint8_t *data, size_t data_len)
{
	const char *problem;

	if (buf == NULL || buf->magic != SD_BUF_MAGIC)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "buf %p is NULL or not a doca_buf",
					(const void *)buf);
	if (buf->owner == SD_BUF_FREE)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
					"buf %p was already released (refcount reached 0)", (const void *)buf);
	if (buf->owner != SD_BUF_INVENTORY)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
					"buf %p comes from a doca_buf_pool; only inventory buffers can be reused",
					(const void *)buf);
	if (!sd_mmap_accepts_bufs(buf->mmap))
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_BAD_STATE, "the mmap %p of buf %p is not started",
					(const void *)buf->mmap, (const void *)buf);
	problem = sd_buf_window_problem(buf->mmap, (uintptr_t)addr, len, (uintptr_t)data, data_len);
	if (problem != NULL)
		return SD_MEM_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
					"%s (buffer [%p, +%zu), data [%p, +%zu), buf %p, mmap %p range [%p, +%zu))",
					problem, (void *)addr, len, (void *)data, data_len, (const void *)buf,
					(const void *)buf->mmap, (const void *)buf->mmap->addr, buf->mmap->len);
	buf->head = addr;
	buf->len = len;
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len)
{
	return sd_inventory_buf_reuse(__func__, buf, addr, len, addr, 0);
}

doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len)
{
	return sd_inventory_buf_reuse(__func__, buf, data, data_len, data, data_len);
}
