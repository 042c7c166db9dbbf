/**
 * @file doca_buf_pool.h
 * @brief Buffer pools: equal-size buffers carved out of one memory map.
 *
 * A pool slices its map into `num_elements` equal elements at fixed places;
 * allocation hands out an empty buffer over a free element in O(1).
 */
#ifndef DOCA_BUF_POOL_H_
#define DOCA_BUF_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_mmap;
struct doca_buf;
/**
 * @struct doca_buf_pool
 * Equal-size buffers carved out of one memory map at fixed places: allocation
 * takes no address and costs O(1).  Created with doca_buf_pool_create(),
 * owned by the application, destroyed with doca_buf_pool_destroy().
 */
struct doca_buf_pool;

/**
 * @brief Creates an IDLE pool of @p num_elements buffers of @p element_size bytes over a map.
 *
 * The map must have a range; it must be started, and large enough, when the pool starts.
 *
 * @param num_elements how many buffers, 1 or more.
 * @param element_size the size of each, 1 or more.
 * @param mmap the map to carve; it must outlive the pool.
 * @param buf_pool receives the pool; the caller owns it.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when a pointer is NULL, a size is 0 or the map has no range;
 * DOCA_ERROR_NO_MEMORY when the pool cannot be allocated.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_create(size_t num_elements,
				  size_t element_size,
				  const struct doca_mmap *mmap,
				  struct doca_buf_pool **buf_pool);

/**
 * @brief Stops the pool if needed and frees it.
 *
 * @param buf_pool the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_IN_USE while any of its buffers is still held.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool);

/**
 * @brief Lays the elements out and enables allocation.
 *
 * While the pool is started its map can be neither stopped nor destroyed.
 *
 * @param buf_pool the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when the pool is already started or its map is not started;
 * DOCA_ERROR_INITIALIZATION when the elements (with their alignment) do not
 * fit in the map's range.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool);

/**
 * @brief Disables allocation.
 *
 * @param buf_pool the pool.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when it is NULL;
 * DOCA_ERROR_BAD_STATE when it is not started;
 * DOCA_ERROR_IN_USE while any of its buffers is still held.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool);

/**
 * @brief Takes a free element as an empty buffer (data section at its start, no data).
 *
 * The buffer starts with reference count 1 and returns to the pool through
 * doca_buf_dec_refcount().
 *
 * @param buf_pool a started pool.
 * @param buf receives the buffer.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the pool is not started;
 * DOCA_ERROR_EMPTY when every element is taken.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf);

/**
 * @brief Attaches a value to the pool; not while it is started.
 *
 * @param buf_pool the pool.
 * @param user_data the value.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf_pool is NULL;
 * DOCA_ERROR_BAD_STATE when it is started.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data);

/**
 * @brief Makes elements start at multiples of an alignment (default 1); not while started.
 *
 * @param buf_pool the pool.
 * @param element_alignment a power of two.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf_pool is NULL or
 * the alignment is not a power of two; DOCA_ERROR_BAD_STATE when the pool is started.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment);

/**
 * @brief How many buffers the pool has in all.
 *
 * @param buf_pool the pool.
 * @param num_of_elements receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements);

/**
 * @brief How many buffers are free to allocate.
 *
 * @param buf_pool the pool.
 * @param num_of_free_elements receives the count.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_free_elements);

/**
 * @brief The pool's user data (zero unless set).
 *
 * @param buf_pool the pool.
 * @param user_data receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data);

/**
 * @brief The alignment of the pool's elements.
 *
 * @param buf_pool the pool.
 * @param element_alignment receives it.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool, size_t *element_alignment);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_POOL_H_ */
