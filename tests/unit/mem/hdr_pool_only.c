/* Compiles with doca_buf_pool.h alone. */
#include <doca_buf_pool.h>

int hdr_pool_only(void);

int hdr_pool_only(void)
{
	union doca_data ud = {.u64 = 0};
	return ud.u64 == 0 && doca_buf_pool_destroy(NULL) == DOCA_ERROR_INVALID_VALUE;
}
