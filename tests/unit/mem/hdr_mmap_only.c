/* Compiles with doca_mmap.h alone. */
#include <doca_mmap.h>

int hdr_mmap_only(void);

int hdr_mmap_only(void)
{
	doca_mmap_memrange_free_cb_t *cb = NULL;
	doca_dpa_dev_mmap_t handle = 0;
	union doca_data ud = {.u64 = 0};
	size_t len = 0;
	uint8_t flag = 0;
	(void)cb;
	return handle == 0 && ud.u64 == 0 && len == 0 && flag == 0 &&
	       doca_mmap_create(NULL) == DOCA_ERROR_INVALID_VALUE &&
	       DOCA_ACCESS_FLAG_PCI_READ_WRITE == (1 << 5);
}
