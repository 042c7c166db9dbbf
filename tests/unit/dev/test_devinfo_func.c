/*
 * The PCI function identity of a local device (DOCA 3.1 additions):
 * doca_devinfo_get_pci_func_type answers PF for the default emulated
 * functions and what a topology file says otherwise; doca_devinfo_get_sf_index
 * answers only for a sub-function and refuses every other function with
 * DOCA_ERROR_NOT_SUPPORTED and one ERROR record.  The SF search that the
 * DOCA 3.1+ samples compile in (open_doca_device_with_sf_index) is replayed
 * on both topologies.
 */
#include <doca_dev.h>

#include "dev_test.h"
#include "sd_devices.h"

/* The samples' SF search: skip what is known not to be an SF, match the index. */
static bool is_sf_with_index(struct doca_devinfo *info, const void *want)
{
	enum doca_pci_func_type type;
	uint32_t idx;

	if (doca_devinfo_get_pci_func_type(info, &type) == DOCA_SUCCESS && type != DOCA_PCI_FUNC_TYPE_SF)
		return false;
	return doca_devinfo_get_sf_index(info, &idx) == DOCA_SUCCESS && idx == *(const uint32_t *)want;
}

static struct doca_dev *open_by_sf_index(uint32_t want)
{
	return sd_test_open_first_dev(is_sf_with_index, &want);
}

static void default_functions_are_pfs_without_sf_index(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	dev_log_start();
	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS && n == 2);
	for (uint32_t i = 0; i < n; i++) {
		enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_SF;
		uint32_t idx = 1234;
		CHECK_OK(doca_devinfo_get_pci_func_type(list[i], &type));
		CHECK(type == DOCA_PCI_FUNC_TYPE_PF);
		CHECK_LOG_QUIET();
		CHECK_ERR(doca_devinfo_get_sf_index(list[i], &idx), DOCA_ERROR_NOT_SUPPORTED);
		CHECK(idx == 1234);
		CHECK(dev_log_has("not a sub-function"));
		CHECK_LOG_ONE_ERR("doca_devinfo_get_sf_index");
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void bad_arguments_are_refused_with_one_record(void)
{
	static _Alignas(64) uint8_t not_a_devinfo[256];
	struct doca_devinfo **list = NULL;
	enum doca_pci_func_type type;
	uint32_t n = 0, idx;

	dev_log_start();
	CHECK_ERR(doca_devinfo_get_pci_func_type(NULL, &type), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_pci_func_type");
	CHECK_ERR(doca_devinfo_get_sf_index(NULL, &idx), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_sf_index");
	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS && n > 0);
	CHECK_ERR(doca_devinfo_get_pci_func_type(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_pci_func_type");
	CHECK_ERR(doca_devinfo_get_sf_index(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_sf_index");
	/* A handle that is not a devinfo at all (zeroed memory: no devinfo magic). */
	CHECK_ERR(doca_devinfo_get_pci_func_type((const struct doca_devinfo *)not_a_devinfo, &type),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_pci_func_type");
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void open_device_answers_through_its_devinfo(void)
{
	struct doca_dev *dev = dev_open_pci("b1:00.0");
	enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_VF;

	REQUIRE(dev != NULL);
	CHECK_OK(doca_devinfo_get_pci_func_type(doca_dev_as_devinfo(dev), &type));
	CHECK(type == DOCA_PCI_FUNC_TYPE_PF);
	CHECK_OK(doca_dev_close(dev));
}

static void sf_search_finds_nothing_in_the_default_topology(void)
{
	dev_log_start();
	CHECK(open_by_sf_index(0) == NULL);
	/* Skipped on the PF answer: the search never asks a PF for its SF index. */
	CHECK_LOG_QUIET();
}

/* ---- a topology with a VF and two SFs ---------------------------------- */

static const char functions_file[] = "[device 03:00.0]\n"
				     "side = dpu\n"
				     "[device 03:00.2]\n"
				     "side = dpu\n"
				     "func_type = vf\n"
				     "[device 03:00.4]\n"
				     "side = dpu\n"
				     "func_type = sf\n"
				     "sf_index = 3\n"
				     "[device 0000:03:00.5]\n"
				     "side = dpu\n"
				     "sf_index = 4294967295\n"
				     "func_type = sf\n";

static void check_functions(void)
{
	static const struct {
		const char *pci;
		enum doca_pci_func_type type;
		uint32_t sf_index; /* UINT32_MAX - 1: not an SF */
	} want[] = {
		{ "03:00.0", DOCA_PCI_FUNC_TYPE_PF, UINT32_MAX - 1 },
		{ "03:00.2", DOCA_PCI_FUNC_TYPE_VF, UINT32_MAX - 1 },
		{ "03:00.4", DOCA_PCI_FUNC_TYPE_SF, 3 },
		{ "03:00.5", DOCA_PCI_FUNC_TYPE_SF, UINT32_MAX },
	};
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev;
	uint32_t n = 0;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n != 4)
		fprintf(stderr, "  %u devices: %s\n", n, dev_log_text);
	REQUIRE(list != NULL && n == 4);
	CHECK_LOG_QUIET();
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct doca_devinfo *info = dev_find(list, n, want[i].pci);
		enum doca_pci_func_type type;
		uint32_t idx = 0;
		REQUIRE(info != NULL);
		CHECK_OK(doca_devinfo_get_pci_func_type(info, &type));
		CHECK(type == want[i].type);
		if (want[i].sf_index == UINT32_MAX - 1) {
			CHECK_ERR(doca_devinfo_get_sf_index(info, &idx), DOCA_ERROR_NOT_SUPPORTED);
			CHECK(dev_log_has(type == DOCA_PCI_FUNC_TYPE_VF ? "is a VF" : "is a PF"));
			CHECK_LOG_ONE_ERR("doca_devinfo_get_sf_index");
		} else {
			CHECK_OK(doca_devinfo_get_sf_index(info, &idx));
			CHECK(idx == want[i].sf_index);
			CHECK_LOG_QUIET();
		}
	}
	CHECK_OK(doca_devinfo_destroy_list(list));

	dev = open_by_sf_index(3);
	REQUIRE(dev != NULL);
	CHECK_OK(doca_devinfo_get_pci_addr_str(doca_dev_as_devinfo(dev), pci));
	CHECK(strcmp(pci, "0000:03:00.4") == 0);
	CHECK_OK(doca_dev_close(dev));
	CHECK(open_by_sf_index(5) == NULL);
	/* the SF at index 3 and the one at UINT32_MAX were asked; neither refused */
	CHECK_LOG_QUIET();
}

static void topology_file_declares_vfs_and_sfs(void)
{
	dev_topo_run(functions_file, NULL, check_functions);
}

int main(void)
{
	/* First: the topology is read once per process, and the child must read the file. */
	SD_RUN(topology_file_declares_vfs_and_sfs);
	SD_RUN(default_functions_are_pfs_without_sf_index);
	SD_RUN(bad_arguments_are_refused_with_one_record);
	SD_RUN(open_device_answers_through_its_devinfo);
	SD_RUN(sf_search_finds_nothing_in_the_default_topology);
	return sd_test_done();
}
