/*
 * rdma_caps.c - DOCA RDMA capability queries, answered from the device's
 * capability profile (softdoca values; docs/rdma.md lists them).  A "not
 * supported" answer of an _is_supported query is not an error and logs
 * nothing.
 */
#include <string.h>

#include "rdma_priv.h"
#include "sd_log.h"

/* The device behind `devinfo`, or NULL after one ERROR record on behalf of `func`. */
static const struct sd_device *sd_rdma_devinfo(const struct doca_devinfo *devinfo, const void *out, const char *func)
{
	const struct sd_device *node = priv_doca_devinfo_node(devinfo);

	if (node == NULL) {
		SD_LOG_ERR_AS(func, "devinfo %p is not a valid device information handle", (const void *)devinfo);
		return NULL;
	}
	if (out == NULL) {
		SD_LOG_ERR_AS(func, "output pointer is NULL (device %s)", node->pci_addr);
		return NULL;
	}
	return node;
}

/* A value query: the device must offer RDMA at all. */
#define SD_RDMA_CAP_VALUE(name, field)                                                                     \
	doca_error_t doca_rdma_cap_get_##name(const struct doca_devinfo *devinfo, uint32_t *out)            \
	{                                                                                                   \
		const struct sd_device *node = sd_rdma_devinfo(devinfo, out, __func__);                     \
		if (node == NULL)                                                                           \
			return DOCA_ERROR_INVALID_VALUE;                                                    \
		if (!node->caps.rdma)                                                                       \
			return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot run RDMA",             \
					 node->pci_addr);                                                   \
		*out = node->caps.field;                                                                    \
		return DOCA_SUCCESS;                                                                        \
	}

SD_RDMA_CAP_VALUE(max_recv_queue_size, rdma_max_recv_queue)
SD_RDMA_CAP_VALUE(max_send_queue_size, rdma_max_send_queue)
SD_RDMA_CAP_VALUE(max_send_buf_list_len, rdma_max_list_len)
SD_RDMA_CAP_VALUE(max_message_size, rdma_max_msg_size)
SD_RDMA_CAP_VALUE(gid_table_size, rdma_gid_table_size)

/* Whether the device runs tasks of `type`: every type runs where RDMA does. */
static bool sd_rdma_type_supported(const struct sd_device *node, enum sd_rdma_type type)
{
	(void)type;
	return node->caps.rdma;
}

static doca_error_t sd_rdma_cap_type(const struct doca_devinfo *devinfo, enum sd_rdma_type type, const char *func)
{
	const struct sd_device *node = priv_doca_devinfo_node(devinfo);

	if (node == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				    (const void *)devinfo);
	return sd_rdma_type_supported(node, type) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

#define SD_RDMA_CAP_TYPE(name, type)                                                                       \
	doca_error_t doca_rdma_cap_task_##name##_is_supported(const struct doca_devinfo *devinfo)           \
	{                                                                                                   \
		return sd_rdma_cap_type(devinfo, type, __func__);                                           \
	}

SD_RDMA_CAP_TYPE(receive, SD_RDMA_RECEIVE)
SD_RDMA_CAP_TYPE(send, SD_RDMA_SEND)
SD_RDMA_CAP_TYPE(send_imm, SD_RDMA_SEND_IMM)
SD_RDMA_CAP_TYPE(read, SD_RDMA_READ)
SD_RDMA_CAP_TYPE(write, SD_RDMA_WRITE)
SD_RDMA_CAP_TYPE(write_imm, SD_RDMA_WRITE_IMM)
SD_RDMA_CAP_TYPE(atomic_cmp_swp, SD_RDMA_CMP_SWP)
SD_RDMA_CAP_TYPE(atomic_fetch_add, SD_RDMA_FETCH_ADD)
SD_RDMA_CAP_TYPE(remote_net_sync_event_get, SD_RDMA_SE_GET)
SD_RDMA_CAP_TYPE(remote_net_sync_event_notify_set, SD_RDMA_SE_SET)
SD_RDMA_CAP_TYPE(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD)

doca_error_t doca_rdma_cap_transport_type_is_supported(const struct doca_devinfo *devinfo,
						       enum doca_rdma_transport_type transport_type)
{
	const struct sd_device *node = priv_doca_devinfo_node(devinfo);

	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a valid device information handle",
				 (const void *)devinfo);
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC && transport_type != DOCA_RDMA_TRANSPORT_TYPE_DC)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "transport_type %d is not a doca_rdma_transport_type",
				 (int)transport_type);
	return node->caps.rdma && transport_type == DOCA_RDMA_TRANSPORT_TYPE_RC ? DOCA_SUCCESS
										  : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_task_receive_get_max_dst_buf_list_len(const struct doca_devinfo *devinfo,
								 enum doca_rdma_transport_type transport_type,
								 uint32_t *max_buf_list_len)
{
	const struct sd_device *node = sd_rdma_devinfo(devinfo, max_buf_list_len, __func__);

	if (node == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC && transport_type != DOCA_RDMA_TRANSPORT_TYPE_DC)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "transport_type %d is not a doca_rdma_transport_type",
				 (int)transport_type);
	if (!node->caps.rdma || transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s offers no %s transport", node->pci_addr,
				 transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC ? "DC" : "RDMA");
	*max_buf_list_len = node->caps.rdma_max_list_len;
	return DOCA_SUCCESS;
}

/*
 * GID table entry `index`: RoCE v2 style, the device's IPv4 address mapped
 * into IPv6 (::ffff:a.b.c.d) at index 0, its IPv6 address at index 1, and
 * the link-local form of its MAC at index 2; an entry without an address
 * stays zero.
 */
static void sd_rdma_gid_entry(const struct sd_device *node, uint32_t index, struct doca_rdma_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (index == 0 && node->has_ipv4) {
		gid->raw[10] = 0xff;
		gid->raw[11] = 0xff;
		memcpy(&gid->raw[12], node->ipv4, 4);
	} else if (index == 1 && node->has_ipv6) {
		memcpy(gid->raw, node->ipv6, 16);
	} else if (index == 2) {
		gid->raw[0] = 0xfe;
		gid->raw[1] = 0x80;
		gid->raw[8] = node->mac[0] ^ 0x02;
		gid->raw[9] = node->mac[1];
		gid->raw[10] = node->mac[2];
		gid->raw[11] = 0xff;
		gid->raw[12] = 0xfe;
		gid->raw[13] = node->mac[3];
		gid->raw[14] = node->mac[4];
		gid->raw[15] = node->mac[5];
	}
}

doca_error_t doca_rdma_cap_get_gid(const struct doca_devinfo *devinfo, uint32_t start_index, uint32_t num_entries,
				   struct doca_rdma_gid *gid_array)
{
	const struct sd_device *node = sd_rdma_devinfo(devinfo, gid_array, __func__);

	if (node == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!node->caps.rdma)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s cannot run RDMA", node->pci_addr);
	if (num_entries == 0 || start_index >= node->caps.rdma_gid_table_size ||
	    num_entries > node->caps.rdma_gid_table_size - start_index)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "entries %u..%u+%u are not inside the GID table of %u entries of device %s",
				 start_index, start_index, num_entries, node->caps.rdma_gid_table_size, node->pci_addr);
	for (uint32_t i = 0; i < num_entries; i++)
		sd_rdma_gid_entry(node, start_index + i, &gid_array[i]);
	return DOCA_SUCCESS;
}
