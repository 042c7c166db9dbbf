/*
 * rep.c - representors: listing, opening, closing and their properties.
 *
 * Only DPU-side devices have representors; on a host-side device listing
 * fails with DOCA_ERROR_NOT_SUPPORTED.  An open representor counts as a
 * dependent of the device it was listed through, so that
 * device's last close is refused until the representor is closed.  Open
 * representor handles are kept in a registry so a close or a dependency
 * call recognises a stale or foreign handle by address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>

#include "dev_internal.h"
#include "sd_log.h"

#define SD_REP_FILTER_KNOWN (DOCA_DEVINFO_REP_FILTER_NET | DOCA_DEVINFO_REP_FILTER_EMULATED)

/* Open representors; guarded by the device lock (dev.c). */
static struct doca_dev_rep *sd_open_reps;

/* Caller holds the device lock. */
static bool sd_rep_is_open_locked(const struct doca_dev_rep *rep)
{
	for (const struct doca_dev_rep *r = sd_open_reps; r != NULL; r = r->next) {
		if (r == rep)
			return true;
	}
	return false;
}

SD_PRIV bool priv_doca_dev_rep_is_valid(const struct doca_dev_rep *rep)
{
	bool ok;

	if (rep == NULL)
		return false;
	sd_dev_lock();
	ok = sd_rep_is_open_locked(rep);
	sd_dev_unlock();
	return ok;
}

SD_PRIV void priv_doca_dev_rep_dep_get(struct doca_dev_rep *rep)
{
	sd_dev_lock();
	if (sd_rep_is_open_locked(rep))
		rep->dependents++;
	sd_dev_unlock();
}

SD_PRIV void priv_doca_dev_rep_dep_put(struct doca_dev_rep *rep)
{
	sd_dev_lock();
	if (sd_rep_is_open_locked(rep) && rep->dependents > 0)
		rep->dependents--;
	sd_dev_unlock();
}

SD_PRIV const struct sd_rep *priv_doca_devinfo_rep_node(const struct doca_devinfo_rep *devinfo_rep)
{
	if (devinfo_rep == NULL || devinfo_rep->magic != SD_DEVINFO_REP_MAGIC)
		return NULL;
	return devinfo_rep->rep;
}

/* ---- lists ------------------------------------------------------------ */

static bool sd_rep_matches(const struct sd_rep *rep, int filter)
{
	if (filter == DOCA_DEVINFO_REP_FILTER_ALL)
		return true;
	if (rep->emulated)
		return (filter & DOCA_DEVINFO_REP_FILTER_EMULATED) != 0;
	return (filter & DOCA_DEVINFO_REP_FILTER_NET) != 0;
}

/* NULL when the device can list every kind `filter` asks for, else the kind it cannot. */
static const char *sd_rep_filter_refused(const struct sd_caps *caps, int filter)
{
	if (filter == DOCA_DEVINFO_REP_FILTER_ALL)
		return caps->rep_filter_all ? NULL : "ALL";
	if ((filter & DOCA_DEVINFO_REP_FILTER_NET) && !caps->rep_filter_net)
		return "NET";
	if ((filter & DOCA_DEVINFO_REP_FILTER_EMULATED) && !caps->rep_filter_emulated)
		return "EMULATED";
	return NULL;
}

/*
 * Check everything doca_devinfo_rep_create_list refuses; on refusal describe
 * the rule in `why` (the caller logs it under its own name).
 */
static doca_error_t sd_rep_list_check(struct doca_dev *dev, int filter, void *out_list, void *out_count,
				      char *why, size_t why_len)
{
	const char *refused;

	if (!priv_doca_dev_is_valid(dev)) {
		snprintf(why, why_len, "dev %p is NULL or not an open device", (void *)dev);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (out_list == NULL || out_count == NULL) {
		snprintf(why, why_len, "dev_list_rep (%p) and nb_devs_rep (%p) must not be NULL (device %s)",
			 out_list, out_count, dev->node->pci_addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((filter & ~SD_REP_FILTER_KNOWN) != 0) {
		snprintf(why, why_len, "filter 0x%x has bits other than DOCA_DEVINFO_REP_FILTER_NET/EMULATED (device %s)",
			 (unsigned)filter, dev->node->pci_addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dev->node->side != SD_SIDE_DPU) {
		snprintf(why, why_len, "device %s is host-side; representors exist only on DPU-side devices",
			 dev->node->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	refused = sd_rep_filter_refused(&dev->node->caps, filter);
	if (refused != NULL) {
		snprintf(why, why_len, "device %s cannot list representors with filter %s", dev->node->pci_addr,
			 refused);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev,
					  int filter,
					  struct doca_devinfo_rep ***dev_list_rep,
					  uint32_t *nb_devs_rep)
{
	char why[256];
	doca_error_t err = sd_rep_list_check(dev, filter, (void *)dev_list_rep, (void *)nb_devs_rep, why, sizeof(why));
	const struct sd_device *node;
	uint32_t count = 0, n = 0;
	void **array;

	if (err != DOCA_SUCCESS)
		return SD_REJECT(err, "%s", why);
	node = dev->node;
	for (uint32_t i = 0; i < node->num_reps; i++)
		count += sd_rep_matches(&node->reps[i], filter);
	array = sd_list_create(SD_LIST_DEVINFO_REP, count, sizeof(struct doca_devinfo_rep));
	if (array == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a list of %u representors (device %s)",
				 count, node->pci_addr);
	for (uint32_t i = 0; i < node->num_reps; i++) {
		struct doca_devinfo_rep *info;
		if (!sd_rep_matches(&node->reps[i], filter))
			continue;
		info = array[n++];
		info->rep = &node->reps[i];
		info->node = node;
		info->parent = dev;
		info->magic = SD_DEVINFO_REP_MAGIC;
	}
	*dev_list_rep = (struct doca_devinfo_rep **)array;
	*nb_devs_rep = count;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep)
{
	if (dev_list_rep == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev_list_rep must not be NULL");
	if (!sd_list_destroy(SD_LIST_DEVINFO_REP, (void **)dev_list_rep))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "%p is not a live list from doca_devinfo_rep_create_list (already destroyed?)",
				 (void *)dev_list_rep);
	return DOCA_SUCCESS;
}

/* ---- open and close --------------------------------------------------- */

doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo, struct doca_dev_rep **dev_rep)
{
	const struct sd_rep *rep = priv_doca_devinfo_rep_node(devinfo);
	struct doca_dev_rep *handle;
	struct doca_dev *parent;

	if (rep == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is NULL or not a live representor description",
				 (void *)devinfo);
	if (dev_rep == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer dev_rep must not be NULL (representor %s)",
				 rep->pci_addr);
	handle = calloc(1, sizeof(*handle));
	if (handle == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate a handle for representor %s", rep->pci_addr);
	parent = devinfo->parent;
	sd_dev_lock();
	if (!sd_topology_is_handle_slot(parent) || parent->open_count == 0 || parent->node != devinfo->node) {
		sd_dev_unlock();
		free(handle);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "representor %s was listed through device %s, which is no longer open",
				 rep->pci_addr, devinfo->node->pci_addr);
	}
	parent->dependents++;
	handle->info = *devinfo;
	handle->parent = parent;
	handle->magic = SD_DEV_REP_MAGIC;
	handle->next = sd_open_reps;
	sd_open_reps = handle;
	sd_dev_unlock();
	*dev_rep = handle;
	return DOCA_SUCCESS;
}

/* Caller holds the device lock and checked that `rep` is open. */
static void sd_rep_unlink_locked(struct doca_dev_rep *rep)
{
	struct doca_dev_rep **pp = &sd_open_reps;

	while (*pp != rep)
		pp = &(*pp)->next;
	*pp = rep->next;
}

doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev)
{
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev_rep must not be NULL");
	sd_dev_lock();
	if (!sd_rep_is_open_locked(dev)) {
		sd_dev_unlock();
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev_rep %p is not an open representor (closed already?)",
				 (void *)dev);
	}
	if (dev->dependents > 0) {
		uint32_t deps = dev->dependents;
		sd_dev_unlock();
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "representor %s still has %u object(s) created on it (a Comch server?); destroy "
				 "them first",
				 dev->info.rep->pci_addr, deps);
	}
	sd_rep_unlink_locked(dev);
	if (dev->parent->dependents > 0)
		dev->parent->dependents--;
	dev->magic = 0;
	dev->info.magic = 0;
	sd_dev_unlock();
	free(dev);
	return DOCA_SUCCESS;
}

struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep)
{
	bool ok = priv_doca_dev_rep_is_valid(dev_rep);

	if (!ok) {
		SD_LOG_ERR("dev_rep %p is NULL or not an open representor; no devinfo to return", (void *)dev_rep);
		return NULL;
	}
	return &dev_rep->info;
}

/* ---- properties ------------------------------------------------------- */

/* Resolve `devinfo_rep` into `rep`, or reject it or a NULL output `out`. */
#define SD_REP_OR_REJECT(rep, devinfo_rep, out)                                                    \
	do {                                                                                       \
		(rep) = priv_doca_devinfo_rep_node(devinfo_rep);                                   \
		if ((rep) == NULL)                                                                 \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "devinfo_rep %p is NULL or not a live representor description", \
					 (const void *)(devinfo_rep));                             \
		if ((out) == NULL)                                                                 \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE,                                 \
					 "output pointer %s must not be NULL (representor %s)", #out, \
					 (rep)->pci_addr);                                         \
	} while (0)

doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid, uint32_t size)
{
	const struct sd_rep *rep;
	size_t need;

	SD_REP_OR_REJECT(rep, devinfo_rep, rep_vuid);
	need = strlen(rep->vuid) + 1;
	if (size < need)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u cannot hold the %zu-byte VUID of representor %s",
				 size, need, rep->pci_addr);
	sd_copy_string(rep_vuid, rep->vuid);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep, char *pci_addr_str)
{
	const struct sd_rep *rep;

	SD_REP_OR_REJECT(rep, devinfo_rep, pci_addr_str);
	memcpy(pci_addr_str, rep->pci_addr, SD_PCI_STR_LEN + 1);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_pci_func_type(const struct doca_devinfo_rep *devinfo_rep,
						enum doca_pci_func_type *pci_func_type)
{
	const struct sd_rep *rep;

	SD_REP_OR_REJECT(rep, devinfo_rep, pci_func_type);
	*pci_func_type = (enum doca_pci_func_type)rep->func_type;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_is_hotplug(const struct doca_devinfo_rep *devinfo_rep, uint8_t *is_hotplug)
{
	const struct sd_rep *rep;

	SD_REP_OR_REJECT(rep, devinfo_rep, is_hotplug);
	*is_hotplug = rep->hotplug;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_iface_name(const struct doca_devinfo_rep *devinfo_rep,
					     char *iface_name,
					     uint32_t size)
{
	const struct sd_rep *rep;

	SD_REP_OR_REJECT(rep, devinfo_rep, iface_name);
	if (size < DOCA_DEVINFO_IFACE_NAME_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "size %u is below DOCA_DEVINFO_IFACE_NAME_SIZE (%d)",
				 size, DOCA_DEVINFO_IFACE_NAME_SIZE);
	sd_copy_string(iface_name, rep->iface_name);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_vhca_id(const struct doca_devinfo_rep *devinfo_rep, uint16_t *vhca_id)
{
	const struct sd_rep *rep;

	SD_REP_OR_REJECT(rep, devinfo_rep, vhca_id);
	*vhca_id = (uint16_t)rep->vhca_id;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
						const char *pci_addr_str,
						uint8_t *is_equal)
{
	const struct sd_rep *rep;
	struct sd_pci want, have;

	SD_REP_OR_REJECT(rep, devinfo_rep, is_equal);
	if (pci_addr_str == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pci_addr_str must not be NULL (representor %s)",
				 rep->pci_addr);
	if (!sd_pci_parse(pci_addr_str, &want))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "'%.32s' is not a PCI address (expected dddd:bb:dd.f or bb:dd.f; representor %s)",
				 pci_addr_str, rep->pci_addr);
	sd_pci_parse(rep->pci_addr, &have);
	*is_equal = sd_pci_compare(&want, &have) == 0;
	return DOCA_SUCCESS;
}
