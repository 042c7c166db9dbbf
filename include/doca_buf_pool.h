/*
 * doca_buf_pool.h - fixed-size buffers carved out of one memory map
 * (softdoca).
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
struct doca_buf_pool;

DOCA_STABLE
doca_error_t doca_buf_pool_create(size_t num_elements,
				  size_t element_size,
				  const struct doca_mmap *mmap,
				  struct doca_buf_pool **buf_pool);

/* Refused while buffers are out. */
DOCA_STABLE
doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool);

/* Lays the elements out; the map must be started and large enough. */
DOCA_STABLE
doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool);

DOCA_STABLE
doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool);

/* Empty buffer (data at the element start, no data) on a free element. */
DOCA_STABLE
doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf);

DOCA_STABLE
doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data);

/* Power of two; elements start at multiples of it. */
DOCA_STABLE
doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment);

DOCA_STABLE
doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements);

DOCA_STABLE
doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_free_elements);

DOCA_STABLE
doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data);

DOCA_STABLE
doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool, size_t *element_alignment);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_POOL_H_ */
