/*
 * bench_common.c - device and mmap set-up shared by the bench programs.
 */
#include <string.h>

#include <doca_error.h>

#include "bench_common.h"

struct doca_dev *bench_open_dev(const char *pci)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		char addr[DOCA_DEVINFO_PCI_ADDR_SIZE];

		if (doca_devinfo_get_pci_addr_str(list[i], addr) == DOCA_SUCCESS && strcmp(addr, pci) == 0 &&
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

struct doca_mmap *bench_local_mmap(struct doca_dev *dev, void *mem, size_t len, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_add_dev(m, dev) != DOCA_SUCCESS || doca_mmap_set_memrange(m, mem, len) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m, perms) != DOCA_SUCCESS || doca_mmap_start(m) != DOCA_SUCCESS) {
		(void)doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}
