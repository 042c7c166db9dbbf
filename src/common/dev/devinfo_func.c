/*
 * devinfo_func.c - what kind of PCI function a local device is (the DOCA
 * 3.1 additions doca_devinfo_get_pci_func_type and doca_devinfo_get_sf_index).
 *
 * Every emulated function is a physical function unless its topology entry
 * says otherwise (func_type / sf_index, docs/topology.md).  Only a
 * sub-function has an SF index; asking any other function for one is
 * refused with DOCA_ERROR_NOT_SUPPORTED, so a program that walks the
 * device list for an SF (the samples' open_doca_device_with_sf_index) skips
 * it.
 */
#include <doca_dev.h>

#include "dev_internal.h"
#include "sd_log.h"

doca_error_t doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
					    enum doca_pci_func_type *pci_func_type)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, pci_func_type);
	*pci_func_type = (enum doca_pci_func_type)node->func_type;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, sf_index);
	if (node->func_type != DOCA_PCI_FUNC_TYPE_SF)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s is a %s, not a sub-function: it has no SF index",
				 node->pci_addr, node->func_type == DOCA_PCI_FUNC_TYPE_VF ? "VF" : "PF");
	*sf_index = node->sf_index;
	return DOCA_SUCCESS;
}
