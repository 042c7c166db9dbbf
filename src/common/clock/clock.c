/*
 * clock.c - DOCA Clock objects and what a device's clocks are.
 *
 * Every emulated device has a free-running and a real-time clock (backed
 * by the system's, see doca_clock.h); none has a DPA timer.
 */
#include <stdlib.h>

#include <doca_dev.h>

#include "clock_priv.h"
#include "sd_dev.h"
#include "sd_log.h"

bool sd_clock_check(const struct doca_clock *clock, const char *func)
{
	if (clock != NULL && clock->magic == SD_CLOCK_MAGIC)
		return true;
	SD_LOG_ERR_AS(func, "clock %p is NULL or not a live DOCA clock", (const void *)clock);
	return false;
}

static doca_error_t sd_clock_devinfo_check(const struct doca_devinfo *devinfo, const char *func)
{
	if (devinfo == NULL || priv_doca_devinfo_node(devinfo) == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "devinfo %p is NULL or not a device",
				    (const void *)devinfo);
	return DOCA_SUCCESS;
}

doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_clock_devinfo_check(devinfo, __func__);
}

doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo)
{
	return sd_clock_devinfo_check(devinfo, __func__);
}

doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo)
{
	doca_error_t err = sd_clock_devinfo_check(devinfo, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, "device %s has no DPA, so no DPA timer; use the free-running or "
			 "real-time clock", priv_doca_devinfo_node(devinfo)->pci_addr);
}

doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock)
{
	struct doca_dev *d = (struct doca_dev *)dev; /* held, never changed */
	struct doca_clock *c;

	if (clock == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer clock is NULL");
	if (dev == NULL || !priv_doca_dev_is_valid(d))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open device", (const void *)dev);
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a DOCA clock");
	priv_doca_dev_dep_get(d);
	c->dev = d;
	c->magic = SD_CLOCK_MAGIC;
	*clock = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_clock_destroy(struct doca_clock *clock)
{
	if (!sd_clock_check(clock, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	priv_doca_dev_dep_put(clock->dev);
	clock->magic = 0;
	free(clock);
	return DOCA_SUCCESS;
}
