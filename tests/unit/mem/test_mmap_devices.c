/*
 * Devices of an mmap:
 * registration rules, the device limit, the dependency that keeps a device
 * from being closed, and the capability queries.
 */
#include <stdint.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "mem_test.h"

static char mem[256];
static struct doca_dev *dpu_dev;  /* 0000:03:00.0 */
static struct doca_dev *host_dev; /* 0000:b1:00.0 */

static struct doca_mmap *new_mmap(void)
{
	struct doca_mmap *m = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&m));
	return m;
}

static void add_then_remove_a_device(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dpu_dev));
	CHECK_REJECT(doca_mmap_add_dev(m, dpu_dev), DOCA_ERROR_ALREADY_EXIST);
	CHECK_QUIET_OK(doca_mmap_rm_dev(m, dpu_dev));
	CHECK_REJECT(doca_mmap_rm_dev(m, dpu_dev), DOCA_ERROR_NOT_FOUND);
	CHECK_REJECT(doca_mmap_rm_dev(m, host_dev), DOCA_ERROR_NOT_FOUND);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void foreign_device_pointer_is_rejected(void)
{
	static uint64_t not_a_dev[32];
	struct doca_mmap *m = new_mmap();
	CHECK_REJECT(doca_mmap_add_dev(m, (struct doca_dev *)not_a_dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void devices_added_before_the_range_and_permissions(void)
{
	/* Create_core_objects adds the device first. */
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dpu_dev));
	CHECK_QUIET_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_ONLY));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void devices_change_only_while_not_started(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dpu_dev));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_REJECT(doca_mmap_add_dev(m, host_dev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_mmap_rm_dev(m, dpu_dev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_QUIET_OK(doca_mmap_add_dev(m, host_dev));
	CHECK_QUIET_OK(doca_mmap_rm_dev(m, dpu_dev));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void device_limit_gives_no_memory(void)
{
	struct doca_mmap *m = new_mmap();
	uint32_t v = 0;
	CHECK_QUIET_OK(doca_mmap_set_max_num_devices(m, 1));
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dpu_dev));
	CHECK_REJECT(doca_mmap_add_dev(m, host_dev), DOCA_ERROR_NO_MEMORY);
	CHECK_QUIET_OK(doca_mmap_set_max_num_devices(m, 2));
	CHECK_QUIET_OK(doca_mmap_add_dev(m, host_dev));
	CHECK_REJECT(doca_mmap_set_max_num_devices(m, 1), DOCA_ERROR_INVALID_VALUE); /* below the 2 registered */
	CHECK_QUIET_OK(doca_mmap_get_max_num_devices(m, &v));
	CHECK_EQ_U64(v, 2);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void registered_device_cannot_be_closed(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dpu_dev));
	CHECK_ERR(doca_dev_close(dpu_dev), DOCA_ERROR_IN_USE);
	/* Still usable: the refused close changed nothing. */
	CHECK_QUIET_OK(doca_mmap_rm_dev(m, dpu_dev));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void destroy_releases_the_device(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, host_dev));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_destroy(m));
	/* The last open reference can go now that no mmap depends on the device. */
	CHECK_OK(doca_dev_close(host_dev));
	host_dev = mem_test_open_dev(MEM_TEST_HOST_PCI);
	REQUIRE(host_dev != NULL);
}

static void rm_dev_releases_the_device(void)
{
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, host_dev));
	CHECK_QUIET_OK(doca_mmap_rm_dev(m, host_dev));
	CHECK_OK(doca_dev_close(host_dev));
	host_dev = mem_test_open_dev(MEM_TEST_HOST_PCI);
	REQUIRE(host_dev != NULL);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void close_of_a_shared_open_reference_succeeds(void)
{
	/* Only the close that would drop the last open reference is refused. */
	struct doca_dev *second = mem_test_open_dev(MEM_TEST_DPU_PCI);
	REQUIRE(second == dpu_dev);
	struct doca_mmap *m = new_mmap();
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dpu_dev));
	CHECK_OK(doca_dev_close(second));
	CHECK_ERR(doca_dev_close(dpu_dev), DOCA_ERROR_IN_USE);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void export_capabilities_answer_one_on_default_devices(void)
{
	uint8_t v = 7;
	CHECK_QUIET_OK(doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(dpu_dev), &v));
	CHECK_EQ_U64(v, 1);
	v = 7;
	CHECK_QUIET_OK(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(dpu_dev), &v));
	CHECK_EQ_U64(v, 1);
	v = 7;
	CHECK_QUIET_OK(doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(host_dev), &v));
	CHECK_EQ_U64(v, 1);
	v = 7;
	CHECK_QUIET_OK(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(host_dev), &v));
	CHECK_EQ_U64(v, 1);
}

static void capability_queries_reject_bad_arguments(void)
{
	static uint64_t not_a_devinfo[32];
	uint8_t v;
	CHECK_REJECT(doca_mmap_cap_is_export_pci_supported(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(dpu_dev), NULL),
		     DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_cap_is_export_pci_supported((struct doca_devinfo *)not_a_devinfo, &v),
		     DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_cap_is_create_from_export_pci_supported(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(dpu_dev), NULL),
		     DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	mem_test_capture_sdk_log();
	dpu_dev = mem_test_open_dev(MEM_TEST_DPU_PCI);
	host_dev = mem_test_open_dev(MEM_TEST_HOST_PCI);
	if (dpu_dev == NULL || host_dev == NULL) {
		fprintf(stderr, "the default topology's two devices cannot be opened\n");
		return 1;
	}
	SD_RUN(add_then_remove_a_device);
	SD_RUN(foreign_device_pointer_is_rejected);
	SD_RUN(devices_added_before_the_range_and_permissions);
	SD_RUN(devices_change_only_while_not_started);
	SD_RUN(device_limit_gives_no_memory);
	SD_RUN(registered_device_cannot_be_closed);
	SD_RUN(destroy_releases_the_device);
	SD_RUN(rm_dev_releases_the_device);
	SD_RUN(close_of_a_shared_open_reference_succeeds);
	SD_RUN(export_capabilities_answer_one_on_default_devices);
	SD_RUN(capability_queries_reject_bad_arguments);
	CHECK_OK(doca_dev_close(dpu_dev));
	CHECK_OK(doca_dev_close(host_dev));
	return sd_test_done();
}
