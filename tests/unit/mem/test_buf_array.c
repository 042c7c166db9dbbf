/*
 * Buffer arrays: softdoca has no GPU or DPA, so an array can be
 * created and configured but never gets a target and never starts.
 */
#include <stdint.h>

#include <doca_buf_array.h>
#include <doca_mmap.h>

#include "mem_test.h"

static char mem[256];

static void array_without_target_never_starts(void)
{
	struct doca_buf_arr *arr = NULL;
	struct doca_mmap *m = NULL;
	struct doca_mmap *no_range = NULL;
	struct doca_gpu_buf_arr *gpu_arr = NULL;
	doca_dpa_dev_buf_arr_t dpa_arr = 0;

	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_create(&no_range));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_buf_arr_create(4, &arr));

	CHECK_REJECT(doca_buf_arr_set_target_gpu(arr, (struct doca_gpu *)mem), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_REJECT(doca_buf_arr_set_target_dpa(arr, (struct doca_dpa *)mem), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_REJECT(doca_buf_arr_set_params(arr, no_range, 16, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_set_params(arr, m, 0, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_arr_set_params(arr, m, 16, 0));
	CHECK_REJECT(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_buf_arr_stop(arr), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_buf_arr_get_gpu_handle(arr, &gpu_arr), DOCA_ERROR_BAD_STATE);
	CHECK_REJECT(doca_buf_arr_get_dpa_handle(arr, &dpa_arr), DOCA_ERROR_BAD_STATE);
	CHECK(gpu_arr == NULL && dpa_arr == 0);
	CHECK_QUIET_OK(doca_buf_arr_destroy(arr));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
	CHECK_QUIET_OK(doca_mmap_destroy(no_range));
}

static void null_and_bad_arguments_are_rejected(void)
{
	static uint64_t not_an_array[16];
	struct doca_buf_arr *bogus = (struct doca_buf_arr *)not_an_array;
	struct doca_buf_arr *arr = NULL;
	struct doca_gpu_buf_arr *gpu_arr;
	doca_dpa_dev_buf_arr_t dpa_arr;
	CHECK_REJECT(doca_buf_arr_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_create(0, &arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_arr_create(1, &arr));
	CHECK_REJECT(doca_buf_arr_set_target_gpu(NULL, (struct doca_gpu *)arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_set_target_gpu(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_set_target_dpa(NULL, (struct doca_dpa *)arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_set_target_dpa(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_set_params(NULL, NULL, 1, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_set_params(arr, NULL, 1, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_start(bogus), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_destroy(bogus), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_get_gpu_handle(NULL, &gpu_arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_get_gpu_handle(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_get_dpa_handle(NULL, &dpa_arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_buf_arr_get_dpa_handle(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_buf_arr_destroy(arr));
}

int main(void)
{
	mem_test_capture_sdk_log();
	SD_RUN(array_without_target_never_starts);
	SD_RUN(null_and_bad_arguments_are_rejected);
	return sd_test_done();
}
