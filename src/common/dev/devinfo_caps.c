/*
 * devinfo_caps.c - capability queries on a local device.
 *
 * Answers come from the device's capability record (profile plus topology
 * overrides).  "Not supported" is an answer, not a failure: those paths log
 * nothing, including the NOT_SUPPORTED that the representor
 * filter queries return on host-side devices.
 */
#include <doca_dev.h>

#include "dev_internal.h"
#include "sd_log.h"

doca_error_t doca_devinfo_cap_is_hotplug_manager_supported(const struct doca_devinfo *devinfo,
							   uint8_t *is_hotplug_manager)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, is_hotplug_manager);
	*is_hotplug_manager = node->caps.hotplug_manager;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_cap_is_notification_moderation_supported(const struct doca_devinfo *devinfo,
								   uint8_t *is_notification_moderation_supported)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, is_notification_moderation_supported);
	*is_notification_moderation_supported = node->caps.notification_moderation;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_cap_is_accelerate_resource_reclaim_supported(const struct doca_devinfo *devinfo,
								       uint8_t *is_accelerate_resource_reclaim)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, is_accelerate_resource_reclaim);
	*is_accelerate_resource_reclaim = node->caps.accelerate_reclaim;
	return DOCA_SUCCESS;
}

/* Host-side devices expose no representors at all: the query itself fails. */
static doca_error_t sd_rep_filter_answer(const struct sd_device *node, bool supported, uint8_t *out)
{
	if (node->side != SD_SIDE_DPU)
		return DOCA_ERROR_NOT_SUPPORTED;
	*out = supported;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_cap_is_filter_all_supported(const struct doca_devinfo *devinfo,
							  uint8_t *filter_all_supported)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, filter_all_supported);
	return sd_rep_filter_answer(node, node->caps.rep_filter_all, filter_all_supported);
}

doca_error_t doca_devinfo_rep_cap_is_filter_net_supported(const struct doca_devinfo *devinfo,
							  uint8_t *filter_net_supported)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, filter_net_supported);
	return sd_rep_filter_answer(node, node->caps.rep_filter_net, filter_net_supported);
}

doca_error_t doca_devinfo_rep_cap_is_filter_emulated_supported(const struct doca_devinfo *devinfo,
							       uint8_t *filter_emulated_supported)
{
	const struct sd_device *node;

	SD_DEVINFO_OR_REJECT(node, devinfo, filter_emulated_supported);
	return sd_rep_filter_answer(node, node->caps.rep_filter_emulated, filter_emulated_supported);
}
