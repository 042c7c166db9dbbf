/*
 * doca_buf_inventory.h - pools of buffer descriptors (softdoca).
 *
 * An inventory owns a fixed (expandable) number of doca_buf descriptors.
 * Each allocation takes one and aims it at a window of any started memory
 * map; releasing the buffer (refcount to zero) gives the descriptor back.
 * The inventory never owns data memory.
 */
#ifndef DOCA_BUF_INVENTORY_H_
#define DOCA_BUF_INVENTORY_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>
/* Kept for programs written against DOCA 2.x, which relied on these. */
#include <doca_buf.h>
#include <doca_mmap.h>
#include <doca_ctx.h>
#include <doca_pe.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_mmap;
struct doca_buf_inventory;

/* Inventory with `num_elements` descriptors, allocated now. */
DOCA_STABLE
doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory);

/* Refused while any of its descriptors is handed out. */
DOCA_STABLE
doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);

DOCA_STABLE
doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory);

/* Stops allocation; buffers already out stay valid. */
DOCA_STABLE
doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory);

/*
 * One buffer with head `addr`, length `len`, data section
 * [data, data + data_len), refcount 1.  The window must lie inside the
 * map's range and the data section inside the window.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory,
						struct doca_mmap *mmap,
						void *addr,
						size_t len,
						void *data,
						size_t data_len,
						struct doca_buf **buf);

/*
 * softdoca's own entry point behind the two inline helpers below: the same
 * as doca_buf_inventory_buf_get_by_args, except that a refusal's log record
 * names `caller`, the helper the program called.  Not part of the DOCA API;
 * programs call the helpers, never this.
 */
__attribute__((visibility("default")))
doca_error_t priv_doca_buf_inventory_buf_get_as(const char *caller,
						struct doca_buf_inventory *inventory,
						struct doca_mmap *mmap,
						void *addr,
						size_t len,
						void *data,
						size_t data_len,
						struct doca_buf **buf);

/* An empty buffer over [addr, addr + len): data at addr, no data yet. */
static inline doca_error_t doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory,
							       struct doca_mmap *mmap,
							       void *addr,
							       size_t len,
							       struct doca_buf **buf)
{
	void *empty_data_start = addr;

	return priv_doca_buf_inventory_buf_get_as("doca_buf_inventory_buf_get_by_addr", inventory, mmap, addr, len,
						  empty_data_start, 0, buf);
}

/* A full buffer over [data, data + data_len): the data is the whole buffer. */
static inline doca_error_t doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory,
							       struct doca_mmap *mmap,
							       void *data,
							       size_t data_len,
							       struct doca_buf **buf)
{
	void *whole_buffer = data;
	size_t whole_len = data_len;

	return priv_doca_buf_inventory_buf_get_as("doca_buf_inventory_buf_get_by_data", inventory, mmap, whole_buffer,
						  whole_len, data, data_len, buf);
}

/*
 * Point an inventory buffer that is already handed out at another part of
 * its own mmap, instead of releasing it and getting a new one (DOCA 3.2).
 * reuse_by_addr makes it an empty buffer over [addr, addr + len);
 * reuse_by_data a full one over [data, data + data_len).  The buffer keeps
 * its mmap, reference count, list links and user data.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len);

DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len);

/* New descriptor(s) describing the same memory as `src_buf` (whole list). */
DOCA_STABLE
doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory,
					const struct doca_buf *src_buf,
					struct doca_buf **dst_buf);

DOCA_STABLE
doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory, uint32_t *num_of_elements);

DOCA_STABLE
doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
						      uint32_t *num_of_free_elements);

DOCA_STABLE
doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory, union doca_data user_data);

DOCA_STABLE
doca_error_t doca_buf_inventory_get_user_data(const struct doca_buf_inventory *inventory, union doca_data *user_data);

/* Adds `num_elements` descriptors to a started inventory. */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory, uint32_t num_elements);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_INVENTORY_H_ */
