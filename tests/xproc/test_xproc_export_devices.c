/*
 * One mmap exported through several devices: every descriptor stays where
 * it was handed out, with the same bytes, until the mmap stops, however
 * many devices come after it (a third export once reallocated the slots
 * under the first descriptor: a heap use-after-free).  Each descriptor
 * names its own device and imports on the DPU side.
 *
 * Runs with four_hosts_topology.ini (four host devices).
 */
#include "xproc_test.h"

#define NDEV 4

static const char *const host_pci[NDEV] = {"0000:b1:00.0", "0000:b2:00.0", "0000:b3:00.0", "0000:b4:00.0"};

static uint8_t mem[64 << 10] __attribute__((aligned(4096)));

struct exported {
	struct doca_dev *dev[NDEV];
	struct doca_mmap *mmap;
	const void *desc[NDEV];
	size_t len[NDEV];
	uint8_t copy[NDEV][512];
};

static bool export_all(struct exported *e)
{
	memset(e, 0, sizeof(*e));
	CHECK_OK(doca_mmap_create(&e->mmap));
	for (int i = 0; i < NDEV; i++) {
		e->dev[i] = sd_test_open_dev_at(host_pci[i]);
		if (e->dev[i] == NULL)
			return false;
		CHECK_OK(doca_mmap_add_dev(e->mmap, e->dev[i]));
	}
	CHECK_OK(doca_mmap_set_memrange(e->mmap, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_set_permissions(e->mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_start(e->mmap));
	for (int i = 0; i < NDEV; i++) {
		XT_QUIET_OK(doca_mmap_export_pci(e->mmap, e->dev[i], &e->desc[i], &e->len[i]));
		if (e->desc[i] == NULL || e->len[i] == 0 || e->len[i] > sizeof(e->copy[i]))
			return false;
		memcpy(e->copy[i], e->desc[i], e->len[i]);
	}
	return true;
}

static void unexport_all(struct exported *e)
{
	if (e->mmap != NULL)
		CHECK_OK(doca_mmap_destroy(e->mmap));
	for (int i = 0; i < NDEV; i++)
		if (e->dev[i] != NULL)
			CHECK_OK(doca_dev_close(e->dev[i]));
}

/* The first descriptor is still readable and unchanged after three more devices. */
static void first_descriptor_survives_more_devices(void)
{
	struct exported e;

	REQUIRE(export_all(&e));
	for (int i = 0; i < NDEV; i++)
		CHECK(memcmp(e.desc[i], e.copy[i], e.len[i]) == 0);
	unexport_all(&e);
}

/* Asking again through the same device hands out the same pointer and bytes. */
static void same_device_gets_the_same_descriptor_again(void)
{
	struct exported e;

	REQUIRE(export_all(&e));
	for (int i = 0; i < NDEV; i++) {
		const void *again = NULL;
		size_t len = 0;

		XT_QUIET_OK(doca_mmap_export_pci(e.mmap, e.dev[i], &again, &len));
		CHECK(again == e.desc[i]);
		CHECK_EQ_U64(len, e.len[i]);
	}
	unexport_all(&e);
}

/* Each device's descriptor differs (it names its device) and imports on the DPU. */
static void every_descriptor_imports(void)
{
	struct exported e;
	struct doca_dev *dpu = sd_test_open_dev_at(XT_DPU_PCI);

	REQUIRE(dpu != NULL);
	REQUIRE(export_all(&e));
	for (int i = 0; i < NDEV; i++) {
		struct doca_mmap *imp = NULL;
		void *addr = NULL;
		size_t len = 0;

		for (int j = 0; j < i; j++)
			CHECK(e.len[i] != e.len[j] || memcmp(e.desc[i], e.desc[j], e.len[i]) != 0);
		XT_QUIET_OK(doca_mmap_create_from_export(NULL, e.desc[i], e.len[i], dpu, &imp));
		REQUIRE(imp != NULL);
		CHECK_OK(doca_mmap_get_memrange(imp, &addr, &len));
		CHECK(addr == (void *)mem);
		CHECK_EQ_U64(len, sizeof(mem));
		CHECK_OK(doca_mmap_destroy(imp));
	}
	unexport_all(&e);
	CHECK_OK(doca_dev_close(dpu));
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	xt_capture_log();
	SD_RUN(first_descriptor_survives_more_devices);
	SD_RUN(same_device_gets_the_same_descriptor_again);
	SD_RUN(every_descriptor_imports);
	return sd_test_done();
}
