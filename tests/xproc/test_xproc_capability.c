/*
 * A device without the create-from-export capability cannot import a PCI
 * descriptor, and one without the export capability cannot export
 * (the cx7 profile reports neither).  Run with
 * SOFTDOCA_TOPOLOGY naming cx7_topology.ini.
 */
#include "xproc_test.h"

#define CX7_PCI "0000:82:00.0"

static void capabilities_decide_export_and_import(void)
{
	struct doca_dev *dpu = sd_test_open_dev_at(XT_DPU_PCI), *cx7 = sd_test_open_dev_at(CX7_PCI);
	uint8_t *mem = aligned_alloc(4096, 4096);
	struct doca_mmap *m = NULL, *imp = (void *)0x1;
	const void *d;
	size_t n;
	uint8_t can_export = 9, can_import = 9;

	REQUIRE(dpu != NULL && cx7 != NULL && mem != NULL);
	XT_QUIET_OK(doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(cx7), &can_export));
	XT_QUIET_OK(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(cx7), &can_import));
	CHECK(can_export == 0 && can_import == 0);
	XT_QUIET_OK(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(dpu), &can_import));
	CHECK(can_import == 1);

	REQUIRE(doca_mmap_create(&m) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_add_dev(m, dpu) == DOCA_SUCCESS && doca_mmap_add_dev(m, cx7) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_set_memrange(m, mem, 4096) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_ONLY) == DOCA_SUCCESS);
	REQUIRE(doca_mmap_start(m) == DOCA_SUCCESS);
	XT_REJECT(doca_mmap_export_pci(m, cx7, &d, &n), DOCA_ERROR_NOT_SUPPORTED, "doca_mmap_export_pci");
	XT_QUIET_OK(doca_mmap_export_pci(m, dpu, &d, &n));
	XT_REJECT(doca_mmap_create_from_export(NULL, d, n, cx7, &imp), DOCA_ERROR_NOT_SUPPORTED,
		  "doca_mmap_create_from_export");
	CHECK(imp == (void *)0x1);
	/* A malformed descriptor is malformed first, whatever the device. */
	XT_REJECT(doca_mmap_create_from_export(NULL, d, n - 1, cx7, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, d, n, dpu, &imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(dpu));
	CHECK_OK(doca_dev_close(cx7));
	free(mem);
}

int main(void)
{
	xt_capture_log();
	SD_RUN(capabilities_decide_export_and_import);
	return sd_test_done();
}
