/*
 * buf_array.c - buffer arrays for GPU or DPA code.
 *
 * softdoca has neither, so an array can be created and configured but can
 * never get a target device: setting one answers NOT_SUPPORTED, start
 * answers BAD_STATE (no target) and the handle getters BAD_STATE (not
 * started).  The array never dereferences its mmap after set_params.
 */
#include <stdlib.h>

#include <doca_buf_array.h>

#include "mem_priv.h"
#include "sd_log.h"
#include "sd_mem.h"

#define SD_BUF_ARR_MAGIC 0x42415230u /* "BAR0" */

struct doca_buf_arr {
	uint32_t magic;
	bool started; /* never true: no target device can be set */
	size_t num_elem;
	const struct doca_mmap *mmap;
	size_t elem_size;
	uint64_t start_offset;
};

#define SD_ARR_REQUIRE(a)                                                                          \
	do {                                                                                       \
		if ((a) == NULL || (a)->magic != SD_BUF_ARR_MAGIC)                                 \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "buf_arr %p is NULL or not a live doca_buf_arr",          \
					 (const void *)(a));                                       \
	} while (0)

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr)
{
	SD_MEM_REQUIRE_ARG(buf_arr, "buf_arr");
	if (num_elem == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_elem is 0");
	struct doca_buf_arr *arr = calloc(1, sizeof(*arr));
	if (arr == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a doca_buf_arr");
	arr->magic = SD_BUF_ARR_MAGIC;
	arr->num_elem = num_elem;
	*buf_arr = arr;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler)
{
	SD_ARR_REQUIRE(buf_arr);
	SD_MEM_REQUIRE_ARG(gpu_handler, "gpu_handler");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "softdoca has no GPU target for buf_arr %p", (void *)buf_arr);
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr, struct doca_dpa *dpa_handler)
{
	SD_ARR_REQUIRE(buf_arr);
	SD_MEM_REQUIRE_ARG(dpa_handler, "dpa_handler");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "softdoca has no DPA target for buf_arr %p", (void *)buf_arr);
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, struct doca_mmap *mmap, size_t elem_size,
				     uint64_t start_offset)
{
	SD_ARR_REQUIRE(buf_arr);
	SD_MEM_REQUIRE_MMAP(mmap);
	if (buf_arr->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_arr %p is started", (void *)buf_arr);
	if (!mmap->range_set)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "mmap %p has no memory range (buf_arr %p)", (void *)mmap,
				 (void *)buf_arr);
	if (elem_size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "elem_size is 0 (buf_arr %p)", (void *)buf_arr);
	buf_arr->mmap = mmap;
	buf_arr->elem_size = elem_size;
	buf_arr->start_offset = start_offset;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr)
{
	SD_ARR_REQUIRE(buf_arr);
	return SD_REJECT(DOCA_ERROR_BAD_STATE,
			 "buf_arr %p has no target device (softdoca has no GPU or DPA), so it cannot start",
			 (void *)buf_arr);
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr)
{
	SD_ARR_REQUIRE(buf_arr);
	if (!buf_arr->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_arr %p is not started", (void *)buf_arr);
	buf_arr->started = false;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr)
{
	SD_ARR_REQUIRE(buf_arr);
	buf_arr->magic = 0;
	free(buf_arr);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr, struct doca_gpu_buf_arr **gpu_buf_arr)
{
	SD_ARR_REQUIRE(buf_arr);
	SD_MEM_REQUIRE_ARG(gpu_buf_arr, "gpu_buf_arr");
	return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_arr %p is not started; it has no GPU handle",
			 (const void *)buf_arr);
}

DOCA_EXPERIMENTAL
doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr, doca_dpa_dev_buf_arr_t *dpa_buf_arr)
{
	SD_ARR_REQUIRE(buf_arr);
	SD_MEM_REQUIRE_ARG(dpa_buf_arr, "dpa_buf_arr");
	return SD_REJECT(DOCA_ERROR_BAD_STATE, "buf_arr %p is not started; it has no DPA handle",
			 (const void *)buf_arr);
}
