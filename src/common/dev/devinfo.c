/*
 * devinfo.c - device lists and the properties of a local device.
 *
 * A devinfo is a small handle pointing at an immutable topology record; the
 * values it reports never change for the life of the process.  Outputs are
 * written only on success.
 */
#include <string.h>

#include <doca_dev.h>

#include "dev_internal.h"
#include "sd_log.h"

/* Every emulated port is Ethernet. */
#define SD_GBPS 1000000000ull

void sd_copy_string(char *dst, const char *src)
{
	memcpy(dst, src, strlen(src) + 1);
}

SD_PRIV const struct sd_device *priv_doca_devinfo_node(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL || devinfo->magic != SD_DEVINFO_MAGIC)
		return NULL;
	return devinfo->node;
}

/* ---- lists ------------------------------------------------------------ */

doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs)
{
	struct sd_topology *topo;
	void **array;

	if (dev_list == NULL || nb_devs == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev_list (%p) and nb_devs (%p) must not be NULL",
				 (void *)dev_list, (void *)nb_devs);
	topo = sd_topology_get();
	if (topo->status != DOCA_SUCCESS)
		return SD_REJECT(topo->status, "no devices: %s", topo->error);
	array = sd_list_create(SD_LIST_DEVINFO, topo->ndev, sizeof(struct doca_devinfo));
	if (array == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a list of %u devices", topo->ndev);
	for (uint32_t i = 0; i < topo->ndev; i++) {
		struct doca_devinfo *info = array[i];
		info->node = &topo->devs[i];
		info->magic = SD_DEVINFO_MAGIC;
	}
	*dev_list = (struct doca_devinfo **)array;
	*nb_devs = topo->ndev;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	if (dev_list == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev_list must not be NULL");
	if (!sd_list_destroy(SD_LIST_DEVINFO, (void **)dev_list))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "%p is not a live list from doca_devinfo_create_list (already destroyed?)",
				 (void *)dev_list);
	return DOCA_SUCCESS;
}

/* ---- PCI address ------------------------------------------------------ */

doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, pci_addr_str);
	memcpy(pci_addr_str, node->pci_addr, SD_PCI_STR_LEN + 1);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo,
					    const char *pci_addr_str,
					    uint8_t *is_equal)
{
	const struct sd_device *node;
	struct sd_pci want, have;

	SD_DEVINFO_OR_REJECT(node, devinfo, is_equal);
	if (pci_addr_str == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pci_addr_str must not be NULL (devinfo %p)",
				 (const void *)devinfo);
	if (!sd_pci_parse(pci_addr_str, &want))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "'%.32s' is not a PCI address (expected dddd:bb:dd.f or bb:dd.f; devinfo %s)",
				 pci_addr_str, node->pci_addr);
	have = sd_pci_of_device(node);
	*is_equal = sd_pci_compare(&want, &have) == 0;
	return DOCA_SUCCESS;
}

/* ---- addresses and names ---------------------------------------------- */

doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo, uint8_t *ipv4_addr, uint32_t size)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, ipv4_addr);
	if (size < DOCA_DEVINFO_IPV4_ADDR_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u is below DOCA_DEVINFO_IPV4_ADDR_SIZE (%d)", size,
				 DOCA_DEVINFO_IPV4_ADDR_SIZE);
	if (!node->has_ipv4)
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, "device %s has no IPv4 address", node->pci_addr);
	memcpy(ipv4_addr, node->ipv4, DOCA_DEVINFO_IPV4_ADDR_SIZE);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_ipv6_addr(const struct doca_devinfo *devinfo, uint8_t *ipv6_addr, uint32_t size)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, ipv6_addr);
	if (size < DOCA_DEVINFO_IPV6_ADDR_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u is below DOCA_DEVINFO_IPV6_ADDR_SIZE (%d)", size,
				 DOCA_DEVINFO_IPV6_ADDR_SIZE);
	if (!node->has_ipv6)
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, "device %s has no IPv6 address", node->pci_addr);
	memcpy(ipv6_addr, node->ipv6, DOCA_DEVINFO_IPV6_ADDR_SIZE);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, mac_addr);
	if (size < DOCA_DEVINFO_MAC_ADDR_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u is below DOCA_DEVINFO_MAC_ADDR_SIZE (%d)", size,
				 DOCA_DEVINFO_MAC_ADDR_SIZE);
	memcpy(mac_addr, node->mac, DOCA_DEVINFO_MAC_ADDR_SIZE);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, iface_name);
	if (size < DOCA_DEVINFO_IFACE_NAME_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u is below DOCA_DEVINFO_IFACE_NAME_SIZE (%d)",
				 size, DOCA_DEVINFO_IFACE_NAME_SIZE);
	sd_copy_string(iface_name, node->iface_name);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, ibdev_name);
	if (size < DOCA_DEVINFO_IBDEV_NAME_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u is below DOCA_DEVINFO_IBDEV_NAME_SIZE (%d)",
				 size, DOCA_DEVINFO_IBDEV_NAME_SIZE);
	sd_copy_string(ibdev_name, node->ibdev_name);
	return DOCA_SUCCESS;
}

/* ---- port ------------------------------------------------------------- */

doca_error_t doca_devinfo_get_lid(const struct doca_devinfo *devinfo, uint16_t *lid)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, lid);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s has an Ethernet port; only InfiniBand ports have a LID",
			 node->pci_addr);
}

doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo, uint64_t *active_rate)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, active_rate);
	*active_rate = (uint64_t)node->caps.active_rate_gbps * SD_GBPS;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_vhca_id(const struct doca_devinfo *devinfo, uint16_t *vhca_id)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, vhca_id);
	*vhca_id = (uint16_t)node->vhca_id;
	return DOCA_SUCCESS;
}
