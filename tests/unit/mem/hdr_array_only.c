/* Compiles with doca_buf_array.h alone. */
#include <doca_buf_array.h>

int hdr_array_only(void);

int hdr_array_only(void)
{
	doca_dpa_dev_buf_arr_t handle = 0;
	struct doca_gpu_buf_arr *gpu = NULL;
	return handle == 0 && gpu == NULL && doca_buf_arr_destroy(NULL) == DOCA_ERROR_INVALID_VALUE;
}
