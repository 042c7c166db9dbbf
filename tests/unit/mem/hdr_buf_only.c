/* Compiles with doca_buf.h alone. */
#include <doca_buf.h>

int hdr_buf_only(void);

int hdr_buf_only(void)
{
	size_t len = 0;
	uint16_t rc = 0;
	return len == 0 && rc == 0 && doca_buf_get_len(NULL, &len) == DOCA_ERROR_INVALID_VALUE;
}
