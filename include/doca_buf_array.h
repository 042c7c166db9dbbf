/**
 * @file doca_buf_array.h
 * @brief Arrays of buffers used from a GPU or the DPA.
 *
 * softdoca has neither a GPU nor a DPA: an array can be created and
 * configured, but it never gets a target device, so it cannot start.
 */
#ifndef DOCA_BUF_ARRAY_H_
#define DOCA_BUF_ARRAY_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu;
struct doca_dpa;
struct doca_mmap;
/**
 * @struct doca_buf_arr
 * An array of equal buffers over one map, for use from a GPU or the DPA.
 * softdoca has neither GPU nor DPA, so an array never gets a target and cannot start.  Created with doca_buf_arr_create(), destroyed with doca_buf_arr_destroy().
 */
struct doca_buf_arr;
/**
 * @struct doca_gpu_buf_arr
 * The GPU-side handle of a buffer array; never handed out by softdoca.
 */
struct doca_gpu_buf_arr;

/**
 * The handle of a buffer array as code running on the DPA sees it (no DPA in softdoca).
 */
typedef uint64_t doca_dpa_dev_buf_arr_t;

/**
 * @brief Creates a buffer array of @p num_elem elements.
 *
 * @param num_elem how many elements, 1 or more.
 * @param buf_arr receives the array; the caller owns it (doca_buf_arr_destroy()).
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf_arr is NULL or @p num_elem is 0;
 * DOCA_ERROR_NO_MEMORY when it cannot be allocated.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr);

/**
 * @brief Would make a GPU the array's user.  softdoca has neither GPU nor DPA, so an array never gets a target and cannot start.
 *
 * @param buf_arr the array.
 * @param gpu_handler the GPU.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler);

/**
 * @brief Would make the DPA the array's user.  softdoca has neither GPU nor DPA, so an array never gets a target and cannot start.
 *
 * @param buf_arr the array.
 * @param dpa_handler the DPA.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr, struct doca_dpa *dpa_handler);

/**
 * @brief Sets the array's map, element size and the offset of its first element in the map.
 *
 * Before start.
 *
 * @param buf_arr the array.
 * @param mmap a map with a range.
 * @param elem_size bytes per element, 1 or more.
 * @param start_offset where the first element starts in the map.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when a pointer is NULL, the
 * size is 0 or the elements do not fit in the map's range;
 * DOCA_ERROR_BAD_STATE when the array is started.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr,
				     struct doca_mmap *mmap,
				     size_t elem_size,
				     uint64_t start_offset);

/**
 * @brief Would start the array for its target.  softdoca has neither GPU nor DPA, so an array never gets a target and cannot start.
 *
 * @param buf_arr the array.
 * @return DOCA_ERROR_INVALID_VALUE when @p buf_arr is NULL;
 * DOCA_ERROR_BAD_STATE otherwise (no target device was set).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr);

/**
 * @brief Stops a started array.
 *
 * @param buf_arr the array.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf_arr is NULL;
 * DOCA_ERROR_BAD_STATE when it is not started (always, in softdoca).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr);

/**
 * @brief Frees an array (in softdoca an array is never started).
 *
 * @param buf_arr the array.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p buf_arr is NULL or not an array.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr);

/**
 * @brief Would give the GPU-side handle of a started array.  softdoca has neither GPU nor DPA, so an array never gets a target and cannot start.
 *
 * @param buf_arr the array.
 * @param gpu_buf_arr receives the handle.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE otherwise (not started).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr, struct doca_gpu_buf_arr **gpu_buf_arr);

/**
 * @brief Would give the DPA-side handle of a started array.  softdoca has neither GPU nor DPA, so an array never gets a target and cannot start.
 *
 * @param buf_arr the array.
 * @param dpa_buf_arr receives the handle.
 * @return DOCA_ERROR_INVALID_VALUE when an argument is NULL; DOCA_ERROR_BAD_STATE otherwise (not started).
 */
DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr, doca_dpa_dev_buf_arr_t *dpa_buf_arr);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_ARRAY_H_ */
