/*
 * dev.c - opening and closing local devices.
 *
 * Each topology device owns one permanent handle slot.  Opening a device
 * that is already open returns that slot with one more reference, whichever
 * list the devinfo came from; the last close retires it.  Because slots are
 * never freed, a handle is checked by its address (is it a slot, is the slot
 * open) before anything behind it is read.
 *
 * Dependents (mmaps that registered the device, contexts and imported mmaps
 * created on it, representors opened through it) do not hold references;
 * they only block the close that would drop the last one.
 */
#include <pthread.h>

#include <doca_dev.h>

#include "dev_internal.h"
#include "sd_debug.h"
#include "sd_log.h"

static pthread_mutex_t sd_devices_lock = PTHREAD_MUTEX_INITIALIZER;

void sd_dev_lock(void)
{
	pthread_mutex_lock(&sd_devices_lock);
}

void sd_dev_unlock(void)
{
	pthread_mutex_unlock(&sd_devices_lock);
}

/* Caller holds the lock. */
static bool sd_dev_is_open_locked(const struct doca_dev *dev)
{
	return dev != NULL && sd_topology_is_handle_slot(dev) && dev->open_count > 0 && dev->magic == SD_DEV_MAGIC;
}

SD_PRIV bool priv_doca_dev_is_valid(const struct doca_dev *dev)
{
	bool ok;

	if (dev == NULL)
		return false;
	sd_dev_lock();
	ok = sd_dev_is_open_locked(dev);
	sd_dev_unlock();
	return ok;
}

SD_PRIV void priv_doca_dev_dep_get(struct doca_dev *dev)
{
	sd_dev_lock();
	if (sd_dev_is_open_locked(dev))
		dev->dependents++;
	sd_dev_unlock();
}

SD_PRIV void priv_doca_dev_dep_put(struct doca_dev *dev)
{
	sd_dev_lock();
	if (sd_dev_is_open_locked(dev) && dev->dependents > 0)
		dev->dependents--;
	sd_dev_unlock();
}

doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	const struct sd_device *node = priv_doca_devinfo_node(devinfo);
	struct doca_dev *slot;

	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is NULL or not a live device description",
				 (void *)devinfo);
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer dev must not be NULL (device %s)",
				 node->pci_addr);
	slot = sd_topology_handle_of(node);
	if (slot == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p does not describe a device of this process",
				 (void *)devinfo);
	sd_dev_lock();
	if (slot->open_count == UINT32_MAX) {
		sd_dev_unlock();
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, "device %s is already open %u times", node->pci_addr,
				 UINT32_MAX);
	}
	if (slot->open_count == 0) {
		slot->node = node;
		slot->info.node = node;
		slot->info.magic = SD_DEVINFO_MAGIC;
		slot->dependents = 0;
		slot->magic = SD_DEV_MAGIC;
	}
	slot->open_count++;
	sd_dev_unlock();
	sd_alive_add(SD_ALIVE_DEV, slot); /* issue 12: what is alive (one entry while open) */
	*dev = slot;
	return DOCA_SUCCESS;
}

doca_error_t doca_dev_close(struct doca_dev *dev)
{
	bool last;

	if (dev == NULL)
		return DOCA_SUCCESS; /* tolerated, silent */
	sd_dev_lock();
	if (!sd_dev_is_open_locked(dev)) {
		sd_dev_unlock();
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is not an open device (closed already?)",
				 (void *)dev);
	}
	if (dev->open_count == 1 && dev->dependents > 0) {
		uint32_t deps = dev->dependents;
		sd_dev_unlock();
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "last reference of device %s cannot be dropped: %u mmap(s), context(s) or "
				 "representor(s) still depend on it; destroy them first%s",
				 dev->node->pci_addr, deps, sd_debug_dev_note(dev)); /* issue 12: which ones */
	}
	last = --dev->open_count == 0;
	if (last) {
		dev->magic = 0;
		dev->info.magic = 0;
	}
	sd_dev_unlock();
	if (last)
		sd_alive_remove(dev); /* issue 12 */
	return DOCA_SUCCESS;
}

struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev)
{
	struct doca_devinfo *info = NULL;

	sd_dev_lock();
	if (sd_dev_is_open_locked(dev))
		info = (struct doca_devinfo *)&dev->info;
	sd_dev_unlock();
	if (info == NULL)
		SD_LOG_ERR("dev %p is NULL or not an open device; no devinfo to return", (const void *)dev);
	return info;
}

doca_error_t doca_dev_accelerate_resource_reclaim(struct doca_dev *dev)
{
	if (!priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open device", (void *)dev);
	if (!dev->node->caps.accelerate_reclaim)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED,
				 "device %s does not support accelerated resource reclaim (see "
				 "doca_devinfo_cap_is_accelerate_resource_reclaim_supported)",
				 dev->node->pci_addr);
	return DOCA_SUCCESS;
}
