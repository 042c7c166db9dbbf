/*
 * sd_devices.h - opening the device a test means: the first listed device
 * that fits a test's own predicate, most often the one at a PCI address.
 * Only the public DOCA API is used, as an application would.
 */
#ifndef SD_DEVICES_H
#define SD_DEVICES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <doca_dev.h>

/* Whether `info` is a device the test wants; `arg` is the test's. */
typedef bool (*sd_test_dev_fits)(struct doca_devinfo *info, const void *arg);

/*
 * Open the first listed device that fits; a fitting device that refuses to
 * open is passed over.  NULL when none fits and opens.
 */
static inline struct doca_dev *sd_test_open_first_dev(sd_test_dev_fits fits, const void *arg)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (fits(list[i], arg) && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

/* Any device, for a test that needs one and does not mind which. */
static inline bool sd_test_any_dev(struct doca_devinfo *info, const void *arg)
{
	return true;
}

/* Whether the PCI address of `info` reads exactly `pci` (a C string, the full form). */
static inline bool sd_test_dev_at_pci(struct doca_devinfo *info, const void *pci)
{
	char addr[DOCA_DEVINFO_PCI_ADDR_SIZE];

	return doca_devinfo_get_pci_addr_str(info, addr) == DOCA_SUCCESS && strcmp(addr, pci) == 0;
}

/* Open the device at `pci` ("0000:b1:00.0"); NULL when there is none. */
static inline struct doca_dev *sd_test_open_dev_at(const char *pci)
{
	return sd_test_open_first_dev(sd_test_dev_at_pci, pci);
}

#endif /* SD_DEVICES_H */
