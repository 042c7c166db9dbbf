/*
 * mkey.c - doca_mmap_get_mkey (DOCA 3.2): memory keys of a started mmap.
 *
 * On a card, starting a map registers its memory with every device of the
 * map, and the registration's memory key is what GPU or NIC queues put in
 * their work requests.  softdoca's engines reach memory directly and no
 * softdoca library takes a key, so there is no meaningful value to return:
 * a well-formed request on a started map and one of its devices is
 * answered with DOCA_ERROR_NOT_SUPPORTED and one record saying so, after
 * the same argument and state checks as the card's (NULL pointers and a
 * device the map does not hold: DOCA_ERROR_INVALID_VALUE; a map that is not
 * started: DOCA_ERROR_BAD_STATE).
 */
#include <doca_mmap.h>

#include "mem_priv.h"
#include "sd_dev.h"

/* The device through which `mmap` reaches memory: one of its own, or the importer's. */
static bool sd_mmap_reaches_through(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	if (mmap->from_export)
		return mmap->import_dev == dev;
	return sd_mmap_has_dev(mmap, dev);
}

doca_error_t doca_mmap_get_mkey(struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey)
{
	SD_MEM_REQUIRE_MMAP(mmap);
	SD_MEM_REQUIRE_ARG(mkey, "mkey");
	if (!priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open doca_dev (mmap %p)",
				 (const void *)dev, (void *)mmap);
	if (!mmap->from_export && mmap->state != SD_MMAP_STARTED)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "mmap %p is not started; memory keys exist only once started",
				 (void *)mmap);
	if (!sd_mmap_reaches_through(mmap, dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %s is not a device of mmap %p",
				 sd_dev_node(dev)->pci_addr, (void *)mmap);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED,
			 "softdoca devices have no memory keys: nothing here consumes one (mmap %p, dev %s)",
			 (void *)mmap, sd_dev_node(dev)->pci_addr);
}
