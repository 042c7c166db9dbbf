/*
 * Argument and state checks of export and import.
 *
 * What a descriptor holds and how imports of it behave is tested in
 * tests/xproc; here only the argument and state rules of the calls.
 */
#include <stdbool.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "mem_test.h"

static char mem[256];
static struct doca_dev *dev;
static struct doca_dev *other_dev;

static struct doca_mmap *new_mmap(uint32_t mask, bool start)
{
	struct doca_mmap *m = NULL;
	CHECK_QUIET_OK(doca_mmap_create(&m));
	CHECK_QUIET_OK(doca_mmap_add_dev(m, dev));
	CHECK_QUIET_OK(doca_mmap_set_permissions(m, mask));
	CHECK_QUIET_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	if (start)
		CHECK_QUIET_OK(doca_mmap_start(m));
	return m;
}

static void export_pci_rejects_null_arguments(void)
{
	struct doca_mmap *m = new_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, true);
	const void *d;
	size_t n;
	CHECK_REJECT(doca_mmap_export_pci(NULL, dev, &d, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_pci(m, NULL, &d, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_pci(m, dev, NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_pci(m, dev, &d, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void export_pci_needs_a_started_map(void)
{
	struct doca_mmap *m = new_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, false);
	const void *d;
	size_t n;
	CHECK_REJECT(doca_mmap_export_pci(m, dev, &d, &n), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_REJECT(doca_mmap_export_pci(m, dev, &d, &n), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void export_pci_needs_a_pci_access_flag(void)
{
	const uint32_t refused[] = {
		DOCA_ACCESS_FLAG_LOCAL_READ_ONLY,
		DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, /* the default mask allows no export */
		DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC,
		DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING,
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct doca_mmap *m = new_mmap(refused[i], true);
		const void *d;
		size_t n;
		CHECK_REJECT(doca_mmap_export_pci(m, dev, &d, &n), DOCA_ERROR_NOT_PERMITTED);
		CHECK_QUIET_OK(doca_mmap_destroy(m));
	}
}

static void export_pci_needs_a_registered_device(void)
{
	struct doca_mmap *m = new_mmap(DOCA_ACCESS_FLAG_PCI_READ_WRITE, true);
	const void *d;
	size_t n;
	CHECK_REJECT(doca_mmap_export_pci(m, other_dev, &d, &n), DOCA_ERROR_NOT_FOUND);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void export_pci_past_every_check_succeeds_and_freezes_the_map(void)
{
	struct doca_mmap *m = new_mmap(DOCA_ACCESS_FLAG_PCI_READ_ONLY, true);
	const void *d = NULL;
	size_t n = 0;
	uint8_t exported = 9;
	CHECK_QUIET_OK(doca_mmap_export_pci(m, dev, &d, &n));
	CHECK(d != NULL && n > 0 && n <= 256); /* at most 256 bytes */
	CHECK_QUIET_OK(doca_mmap_get_exported(m, &exported));
	CHECK_EQ_U64(exported, 1);
	/* Exported is sticky: after stop the map can only be queried or destroyed. */
	CHECK_QUIET_OK(doca_mmap_stop(m));
	CHECK_QUIET_OK(doca_mmap_get_exported(m, &exported));
	CHECK_EQ_U64(exported, 1);
	CHECK_REJECT(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_ERROR_NOT_PERMITTED);
	CHECK_REJECT(doca_mmap_start(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void export_rdma_checks(void)
{
	const void *d;
	size_t n;
	struct doca_mmap *m = new_mmap(DOCA_ACCESS_FLAG_PCI_READ_WRITE | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, true);
	CHECK_REJECT(doca_mmap_export_rdma(NULL, dev, &d, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_rdma(m, NULL, &d, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_rdma(m, dev, NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_rdma(m, dev, &d, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_export_rdma(m, dev, &d, &n), DOCA_ERROR_NOT_PERMITTED); /* no RDMA flag */
	CHECK_QUIET_OK(doca_mmap_destroy(m));

	m = new_mmap(DOCA_ACCESS_FLAG_RDMA_READ, false);
	CHECK_REJECT(doca_mmap_export_rdma(m, dev, &d, &n), DOCA_ERROR_NOT_PERMITTED); /* not started */
	CHECK_QUIET_OK(doca_mmap_start(m));
	CHECK_REJECT(doca_mmap_export_rdma(m, other_dev, &d, &n), DOCA_ERROR_NOT_FOUND);
	d = NULL;
	n = 0;
	CHECK_QUIET_OK(doca_mmap_export_rdma(m, dev, &d, &n)); /* issue 20: DOCA RDMA exports are real */
	CHECK(d != NULL && n > 0);
	CHECK_QUIET_OK(doca_mmap_destroy(m));
}

static void create_from_export_rejects_bad_arguments(void)
{
	static const uint8_t garbage[64] = {1, 2, 3, 4};
	struct doca_mmap *m = (struct doca_mmap *)0x1;
	union doca_data ud = {.u64 = 1};
	CHECK_REJECT(doca_mmap_create_from_export(&ud, NULL, sizeof(garbage), dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_create_from_export(&ud, garbage, sizeof(garbage), NULL, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_create_from_export(&ud, garbage, sizeof(garbage), dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_create_from_export(&ud, garbage, 0, dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_create_from_export(NULL, garbage, sizeof(garbage), dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_REJECT(doca_mmap_create_from_export(NULL, garbage, 1, dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK(m == (struct doca_mmap *)0x1); /* never written on failure */
}

int main(void)
{
	mem_test_capture_sdk_log();
	dev = mem_test_open_dev(MEM_TEST_DPU_PCI);
	other_dev = mem_test_open_dev(MEM_TEST_HOST_PCI);
	if (dev == NULL || other_dev == NULL) {
		fprintf(stderr, "the default topology's two devices cannot be opened\n");
		return 1;
	}
	SD_RUN(export_pci_rejects_null_arguments);
	SD_RUN(export_pci_needs_a_started_map);
	SD_RUN(export_pci_needs_a_pci_access_flag);
	SD_RUN(export_pci_needs_a_registered_device);
	SD_RUN(export_pci_past_every_check_succeeds_and_freezes_the_map);
	SD_RUN(export_rdma_checks);
	SD_RUN(create_from_export_rejects_bad_arguments);
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_dev_close(other_dev));
	return sd_test_done();
}
