/*
 * se_caps.c - what a device can do with sync events, and the DPA and GPU
 * entry points.
 *
 * Every emulated device supports the CPU, remote-PCI and remote-net paths
 * (they need nothing of the device).  No device here has a DPA, and the
 * sync event has no GPU datapath, so those answer NOT_SUPPORTED with one
 * log record, as a device without the capability does.
 */
#include "sd_dev.h"
#include "sd_log.h"
#include "se_priv.h"

/* `devinfo` is a live device description; one ERROR record naming `func` otherwise. */
static doca_error_t sd_se_devinfo_check(const struct doca_devinfo *devinfo, const char *func)
{
	if (devinfo == NULL || priv_doca_devinfo_node(devinfo) == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "devinfo %p is NULL or not a device",
				    (const void *)devinfo);
	return DOCA_SUCCESS;
}

/* A capability every emulated device has. */
static doca_error_t sd_se_cap_yes(const struct doca_devinfo *devinfo, const char *func)
{
	return sd_se_devinfo_check(devinfo, func);
}

/* A capability no emulated device has (DPA, GPU). */
static doca_error_t sd_se_cap_no(const struct doca_devinfo *devinfo, const char *what, const char *func)
{
	doca_error_t err = sd_se_devinfo_check(devinfo, func);

	if (err != DOCA_SUCCESS)
		return err;
	return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
			    "device %s has no %s; softdoca's sync events live in host memory (CPU, remote PCI, "
			    "remote net)",
			    priv_doca_devinfo_node(devinfo)->pci_addr, what);
}

doca_error_t doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_yes(devinfo, __func__);
}

doca_error_t doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_no(devinfo, "DPA", __func__);
}

doca_error_t doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_no(devinfo, "GPU datapath for sync events", __func__);
}

doca_error_t doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_no(devinfo, "DPA", __func__);
}

doca_error_t doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	return sd_se_cap_no(devinfo, "GPU datapath for sync events", __func__);
}

/* The DPA and GPU calls on an event: argument checks, then NOT_SUPPORTED. */
static doca_error_t sd_se_no_accel(const void *ev, bool ev_ok, const void *accel, const void *out, const char *what,
				   const char *func)
{
	if (!ev_ok)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "event %p is NULL or not a live sync event", ev);
	if (accel == NULL || out == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "%s is NULL", accel == NULL ? what : "output handle");
	return SD_REJECT_AS(func, DOCA_ERROR_NOT_SUPPORTED,
			    "no device here has a %s for sync events; use the CPU calls or tasks instead", what);
}

static doca_error_t sd_se_no_location(struct doca_sync_event *ev, const void *accel, const char *what,
				      const char *func)
{
	return sd_se_no_accel(ev, sd_se_is_valid(ev), accel, accel, what, func);
}

doca_error_t doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	return sd_se_no_location(event, dpa, "DPA", __func__);
}

doca_error_t doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	return sd_se_no_location(event, gpu, "GPU", __func__);
}

doca_error_t doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	return sd_se_no_location(event, dpa, "DPA", __func__);
}

doca_error_t doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	return sd_se_no_location(event, gpu, "GPU", __func__);
}

doca_error_t doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
					    doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	return sd_se_no_accel(event, sd_se_is_valid(event), dpa, dpa_dev_se_handle, "DPA", __func__);
}

doca_error_t doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
					    doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	return sd_se_no_accel(event, sd_se_is_valid(event), gpu, gpu_dev_se, "GPU", __func__);
}

doca_error_t doca_sync_event_remote_net_get_dpa_handle(struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
						       doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	return sd_se_no_accel(event, event != NULL && event->magic == SD_SE_NET_MAGIC, dpa, dpa_remote_event, "DPA",
			      __func__);
}

doca_error_t doca_sync_event_remote_net_get_gpu_handle(struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
						       doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	return sd_se_no_accel(event, event != NULL && event->magic == SD_SE_NET_MAGIC, gpu, gpu_remote_event, "GPU",
			      __func__);
}
