/**
 * @file doca_buf_inventory.h
 * @brief Buffer inventories: sets of buffer descriptors aimed at any started map.
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
/**
 * @struct doca_buf_inventory
 * A fixed (expandable) set of buffer descriptors.  Each allocation takes one
 * and aims it at a window of any started memory map; releasing the buffer
 * (reference count to 0) gives the descriptor back.  The inventory never owns
 * data memory.  Created with doca_buf_inventory_create(), owned by the
 * application, destroyed with doca_buf_inventory_destroy().
 */
struct doca_buf_inventory;

/**
 * @brief Creates an inventory of @p num_elements descriptors, allocated now (IDLE: start it before use).
 *
 * @param num_elements how many buffers it can hand out at once, 1 or more.
 * @param inventory receives the inventory; the caller owns it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p inventory is NULL or @p num_elements is 0 or over UINT32_MAX;
 * DOCA_ERROR_NO_MEMORY when the descriptors cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory);

/**
 * @brief Stops and frees an inventory.
 *
 * Release every buffer it handed out first.
 *
 * @param inventory the inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_IN_USE while any of its buffers is still held.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);

/**
 * @brief Enables allocation from the inventory.
 *
 * @param inventory the inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when it is already started.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory);

/**
 * @brief Stops allocation; buffers already handed out stay valid.  Optional before destroy.
 *
 * @param inventory the inventory.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when it is not started.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory);

/**
 * @brief Takes a buffer with window [addr, addr + len) and data section [data, data + data_len).
 *
 * The buffer starts with reference count 1; release it with
 * doca_buf_dec_refcount().  The window must lie inside the map's range (for
 * a map created from an export, in the exporter's addresses).
 *
 * @param inventory a started inventory.
 * @param mmap a started map (or one created from an export).
 * @param addr start of the window.
 * @param len length of the window.
 * @param data start of the data section, inside the window.
 * @param data_len length of the data section.
 * @param buf receives the buffer.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, the window is not inside
 * the map's range or the data section not inside the window;
 * DOCA_ERROR_BAD_STATE when the inventory or the map is not started;
 * DOCA_ERROR_NO_MEMORY when every descriptor of the inventory is handed out.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory,
						struct doca_mmap *mmap,
						void *addr,
						size_t len,
						void *data,
						size_t data_len,
						struct doca_buf **buf);

/**
 * @brief softdoca's entry point behind doca_buf_inventory_buf_get_by_addr() and
 * doca_buf_inventory_buf_get_by_data(); not part of the DOCA API.
 *
 * The same as doca_buf_inventory_buf_get_by_args(), except that a refusal's
 * log record names @p caller, the helper the program called.  Programs call
 * the helpers, never this.
 *
 * @param caller name of the calling helper, for the log.
 * @param inventory a started inventory.
 * @param mmap a started map.
 * @param addr start of the window.
 * @param len length of the window.
 * @param data start of the data section.
 * @param data_len length of the data section.
 * @param buf receives the buffer.
 * @return as doca_buf_inventory_buf_get_by_args(): DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, the window is not inside
 * the map's range or the data section not inside the window;
 * DOCA_ERROR_BAD_STATE when the inventory or the map is not started;
 * DOCA_ERROR_NO_MEMORY when every descriptor of the inventory is handed out.
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

/**
 * @brief Takes an empty buffer over [addr, addr + len): data section at @p addr, no data yet.
 *
 * The usual destination of a copy.
 *
 * @param inventory a started inventory.
 * @param mmap a started map.
 * @param addr start of the window.
 * @param len its length.
 * @param buf receives the buffer (reference count 1).
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, the window is not inside
 * the map's range or the data section not inside the window;
 * DOCA_ERROR_BAD_STATE when the inventory or the map is not started;
 * DOCA_ERROR_NO_MEMORY when every descriptor of the inventory is handed out.
 */
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

/**
 * @brief Takes a full buffer over [data, data + data_len): the whole window is data.
 *
 * The usual source of a copy.
 *
 * @param inventory a started inventory.
 * @param mmap a started map.
 * @param data start of the window and of the data.
 * @param data_len their length.
 * @param buf receives the buffer (reference count 1).
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL, the window is not inside
 * the map's range or the data section not inside the window;
 * DOCA_ERROR_BAD_STATE when the inventory or the map is not started;
 * DOCA_ERROR_NO_MEMORY when every descriptor of the inventory is handed out.
 */
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

/**
 * @brief Re-aims a held inventory buffer at [addr, addr + len) of its own map, empty (DOCA 3.2).
 *
 * Saves releasing it and taking another.  The buffer keeps its map,
 * reference count, list links and user data.
 *
 * @param buf a held buffer from an inventory.
 * @param addr start of the new window, inside the map's range.
 * @param len its length.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p buf is NULL, comes from a pool, or the window leaves the map's range;
 * DOCA_ERROR_BAD_STATE when the buffer was released or its map is not started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len);

/**
 * @brief Re-aims a held inventory buffer at [data, data + data_len) of its own map, full (DOCA 3.2).
 *
 * @param buf a held buffer from an inventory.
 * @param data start of the new window and data.
 * @param data_len their length.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p buf is NULL, comes from a pool, or the window leaves the map's range;
 * DOCA_ERROR_BAD_STATE when the buffer was released or its map is not started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len);

/**
 * @brief Takes new descriptors that describe the same memory as a buffer (its whole list).
 *
 * @param inventory a started inventory, not necessarily the source's.
 * @param src_buf the head of a list, or a standalone buffer.
 * @param dst_buf receives the copy (reference count 1).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the inventory or a map of the list is not started;
 * DOCA_ERROR_NOT_PERMITTED when @p src_buf is an inner list element;
 * DOCA_ERROR_NO_MEMORY when the inventory lacks descriptors for the whole list (nothing is taken).
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory,
					const struct doca_buf *src_buf,
					struct doca_buf **dst_buf);

/**
 * @brief How many descriptors the inventory has in all.
 *
 * @param inventory the inventory.
 * @param num_of_elements receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory, uint32_t *num_of_elements);

/**
 * @brief How many descriptors are free to hand out.
 *
 * @param inventory the inventory.
 * @param num_of_free_elements receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
						      uint32_t *num_of_free_elements);

/**
 * @brief Attaches a value to the inventory.
 *
 * @param inventory the inventory.
 * @param user_data the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p inventory is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory, union doca_data user_data);

/**
 * @brief The inventory's user data (zero unless set).
 *
 * @param inventory the inventory.
 * @param user_data receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_inventory_get_user_data(const struct doca_buf_inventory *inventory, union doca_data *user_data);

/**
 * @brief Adds descriptors to a started inventory; buffers already out are unaffected.
 *
 * @param inventory a started inventory.
 * @param num_elements how many to add, 1 or more.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p inventory is NULL, @p num_elements is 0 or the total would pass UINT32_MAX;
 * DOCA_ERROR_BAD_STATE when it is not started;
 * DOCA_ERROR_NO_MEMORY when the descriptors cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory, uint32_t num_elements);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_INVENTORY_H_ */
