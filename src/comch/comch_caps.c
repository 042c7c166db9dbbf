/*
 * comch_caps.c - Comch capability queries.
 *
 * Every answer comes from the device's capability profile in the topology: a
 * server on DPU-side devices, a client on host-side devices,
 * and the numeric limits of the profile.  A "not supported" answer is a
 * normal answer and logs nothing.
 */
#include "comch_priv.h"
#include "sd_log.h"

/* The record behind `devinfo`, or NULL after logging why not (on behalf of `func`). */
static const struct sd_device *sd_comch_caps_node(const struct doca_devinfo *devinfo, const void *out,
						  const char *out_name, const char *func)
{
	const struct sd_device *node;

	if (devinfo == NULL) {
		SD_LOG_ERR_AS(func, "devinfo is NULL");
		return NULL;
	}
	if (out_name != NULL && out == NULL) {
		SD_LOG_ERR_AS(func, "%s is NULL (devinfo %p)", out_name, (const void *)devinfo);
		return NULL;
	}
	node = priv_doca_devinfo_node(devinfo);
	if (node == NULL)
		SD_LOG_ERR_AS(func, "devinfo %p is not a device info of this process", (const void *)devinfo);
	return node;
}

#define SD_COMCH_CAP_U32(fn, param, field)                                                         \
	doca_error_t fn(const struct doca_devinfo *devinfo, uint32_t *param)                       \
	{                                                                                          \
		const struct sd_device *node = sd_comch_caps_node(devinfo, param, #param, __func__); \
                                                                                                   \
		if (node == NULL)                                                                  \
			return DOCA_ERROR_INVALID_VALUE;                                           \
		*param = node->caps.field;                                                         \
		return DOCA_SUCCESS;                                                               \
	}

SD_COMCH_CAP_U32(doca_comch_cap_get_max_name_len, max_name_len, comch_max_name_len)
SD_COMCH_CAP_U32(doca_comch_cap_get_max_msg_size, size, comch_max_msg_size)
SD_COMCH_CAP_U32(doca_comch_cap_get_max_recv_queue_size, size, comch_max_recv_queue)
SD_COMCH_CAP_U32(doca_comch_cap_get_max_clients, num_clients, comch_max_clients)
SD_COMCH_CAP_U32(doca_comch_cap_get_max_send_tasks, max_send_tasks, comch_max_send_tasks)

doca_error_t doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo)
{
	const struct sd_device *node = sd_comch_caps_node(devinfo, NULL, NULL, __func__);

	if (node == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return node->caps.comch_server ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo)
{
	const struct sd_device *node = sd_comch_caps_node(devinfo, NULL, NULL, __func__);

	if (node == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return node->caps.comch_client ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}
