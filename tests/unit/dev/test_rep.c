/*
 * Representors of the default topology: filters, NOT_SUPPORTED on the host-side device,
 * properties, open/close and the dependencies they create.
 */
#include <string.h>

#include <doca_dev.h>

#include "dev_test.h"
#include "sd_dev.h"

static struct doca_dev *dpu, *host;

static void open_both_devices(void)
{
	dpu = dev_open_pci("03:00.0");
	host = dev_open_pci("b1:00.0");
	REQUIRE(dpu != NULL && host != NULL);
}

static uint32_t count_with_filter(int filter)
{
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 99;

	dev_log_start();
	CHECK_OK(doca_devinfo_rep_create_list(dpu, filter, &reps, &n));
	CHECK_LOG_QUIET();
	if (reps != NULL) {
		CHECK(reps[n] == NULL);
		CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	}
	return n;
}

static void dpu_device_lists_its_net_representor(void)
{
	CHECK(count_with_filter(DOCA_DEVINFO_REP_FILTER_NET) == 1);
	CHECK(count_with_filter(DOCA_DEVINFO_REP_FILTER_ALL) == 1);
}

static void kinds_the_device_cannot_list_are_not_supported(void)
{
	struct doca_devinfo_rep **reps = (struct doca_devinfo_rep **)0x1;
	uint32_t n = 99;

	dev_log_start();
	CHECK_ERR(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_EMULATED, &reps, &n),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	CHECK_ERR(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET | DOCA_DEVINFO_REP_FILTER_EMULATED,
					       &reps, &n),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	CHECK(n == 99 && reps == (struct doca_devinfo_rep **)0x1);
}

static void unknown_filter_bits_are_invalid(void)
{
	static const int bad[] = { 1, 8, 1 << 30, -1, DOCA_DEVINFO_REP_FILTER_NET | 1 };
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dev_log_start();
		CHECK_ERR(doca_devinfo_rep_create_list(dpu, bad[i], &reps, &n), DOCA_ERROR_INVALID_VALUE);
		CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	}
}

static void host_device_has_no_representors(void)
{
	static const int filters[] = { DOCA_DEVINFO_REP_FILTER_ALL, DOCA_DEVINFO_REP_FILTER_NET,
				       DOCA_DEVINFO_REP_FILTER_EMULATED };
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 99;

	for (size_t i = 0; i < 3; i++) {
		dev_log_start();
		CHECK_ERR(doca_devinfo_rep_create_list(host, filters[i], &reps, &n), DOCA_ERROR_NOT_SUPPORTED);
		CHECK(dev_log_has("0000:b1:00.0"));
		CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	}
	CHECK(n == 99 && reps == NULL);
}

static void create_list_rejects_bad_arguments(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev *closed = dev_open_pci("03:00.0");
	uint32_t n = 0;

	dev_log_start();
	CHECK_ERR(doca_devinfo_rep_create_list(NULL, 0, &reps, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	CHECK_ERR(doca_devinfo_rep_create_list(dpu, 0, NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	CHECK_ERR(doca_devinfo_rep_create_list(dpu, 0, &reps, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	REQUIRE(closed == dpu);
	CHECK_OK(doca_dev_close(closed)); /* dpu still holds one reference */
	CHECK_OK(doca_devinfo_rep_create_list(dpu, 0, &reps, &n));
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
}

static void destroy_list_rejects_null_foreign_and_twice(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_devinfo **devs = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, 0, &reps, &n) == DOCA_SUCCESS);
	REQUIRE(doca_devinfo_create_list(&devs, &n) == DOCA_SUCCESS);
	dev_log_start();
	CHECK_ERR(doca_devinfo_rep_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_destroy_list");
	/* a device list is not a representor list, and the other way round */
	CHECK_ERR(doca_devinfo_rep_destroy_list((struct doca_devinfo_rep **)devs), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_destroy_list");
	CHECK_ERR(doca_devinfo_destroy_list((struct doca_devinfo **)reps), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_destroy_list");
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_ERR(doca_devinfo_rep_destroy_list(reps), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_destroy_list");
	CHECK_OK(doca_devinfo_destroy_list(devs));
}

static void properties_of_the_default_representor(void)
{
	struct doca_devinfo_rep **reps = NULL;
	char vuid[DOCA_DEVINFO_REP_VUID_SIZE];
	char ifc[DOCA_DEVINFO_IFACE_NAME_SIZE];
	enum doca_pci_func_type ft = DOCA_PCI_FUNC_TYPE_SF;
	uint8_t hp = 9;
	uint16_t vhca = 99;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n) == DOCA_SUCCESS);
	REQUIRE(n == 1);
	dev_log_start();
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[0], vuid, sizeof(vuid)));
	CHECK(strcmp(vuid, "SD0000000001PF0") == 0);
	CHECK_OK(doca_devinfo_rep_get_pci_func_type(reps[0], &ft));
	CHECK(ft == DOCA_PCI_FUNC_TYPE_PF);
	CHECK_OK(doca_devinfo_rep_get_is_hotplug(reps[0], &hp));
	CHECK(hp == 0);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[0], ifc, sizeof(ifc)));
	CHECK(strcmp(ifc, "pf0hpf") == 0);
	CHECK_OK(doca_devinfo_rep_get_vhca_id(reps[0], &vhca));
	CHECK(vhca == 1);
	/* the VUID needs only its own length plus the NUL */
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[0], vuid, 16));
	CHECK_LOG_QUIET();
	CHECK_ERR(doca_devinfo_rep_get_vuid(reps[0], vuid, 15), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_vuid");
	CHECK_ERR(doca_devinfo_rep_get_iface_name(reps[0], ifc, DOCA_DEVINFO_IFACE_NAME_SIZE - 1),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_iface_name");
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
}

static void property_getters_reject_null_arguments(void)
{
	struct doca_devinfo_rep **reps = NULL;
	enum doca_pci_func_type ft;
	char s[256];
	uint8_t b;
	uint16_t u16;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, 0, &reps, &n) == DOCA_SUCCESS);
	dev_log_start();
	CHECK_ERR(doca_devinfo_rep_get_vuid(NULL, s, 128), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_vuid");
	CHECK_ERR(doca_devinfo_rep_get_vuid(reps[0], NULL, 128), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_vuid");
	CHECK_ERR(doca_devinfo_rep_get_pci_func_type(NULL, &ft), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_pci_func_type");
	CHECK_ERR(doca_devinfo_rep_get_pci_func_type(reps[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_pci_func_type");
	CHECK_ERR(doca_devinfo_rep_get_is_hotplug(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_is_hotplug");
	CHECK_ERR(doca_devinfo_rep_get_is_hotplug(reps[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_is_hotplug");
	CHECK_ERR(doca_devinfo_rep_get_iface_name(NULL, s, 256), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_iface_name");
	CHECK_ERR(doca_devinfo_rep_get_iface_name(reps[0], NULL, 256), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_iface_name");
	CHECK_ERR(doca_devinfo_rep_get_vhca_id(NULL, &u16), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_vhca_id");
	CHECK_ERR(doca_devinfo_rep_get_vhca_id(reps[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_vhca_id");
	/* a device description is not a representor description */
	CHECK_ERR(doca_devinfo_rep_get_vhca_id((struct doca_devinfo_rep *)doca_dev_as_devinfo(dpu), &u16),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_vhca_id");
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
}

static void open_rep_outlives_its_list_and_pins_the_device(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_devinfo_rep *info;
	char vuid[DOCA_DEVINFO_REP_VUID_SIZE];
	uint8_t eq = 0;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n) == DOCA_SUCCESS);
	dev_log_start();
	CHECK_OK(doca_dev_rep_open(reps[0], &rep));
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	REQUIRE(rep != NULL);
	CHECK(priv_doca_dev_rep_is_valid(rep));
	info = doca_dev_rep_as_devinfo(rep);
	REQUIRE(info != NULL);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(info, "b1:00.0", &eq));
	CHECK(eq == 1);
	CHECK_OK(doca_devinfo_rep_get_vuid(info, vuid, sizeof(vuid)));
	CHECK(strcmp(vuid, "SD0000000001PF0") == 0);
	CHECK_LOG_QUIET();
	/* the representor is a dependent of the device it was listed through */
	CHECK_ERR(doca_dev_close(dpu), DOCA_ERROR_IN_USE);
	CHECK_LOG_ONE_ERR("doca_dev_close");
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK(!priv_doca_dev_rep_is_valid(rep));
	CHECK_LOG_QUIET();
}

static void each_rep_open_is_a_new_handle(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev_rep *a = NULL, *b = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, 0, &reps, &n) == DOCA_SUCCESS);
	CHECK_OK(doca_dev_rep_open(reps[0], &a));
	CHECK_OK(doca_dev_rep_open(reps[0], &b));
	CHECK(a != NULL && b != NULL && a != b);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_OK(doca_dev_rep_close(a));
	CHECK_ERR(doca_dev_close(dpu), DOCA_ERROR_IN_USE); /* b still open */
	CHECK_OK(doca_dev_rep_close(b));
}

static void rep_close_with_dependents_is_in_use(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev_rep *rep = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, 0, &reps, &n) == DOCA_SUCCESS);
	REQUIRE(doca_dev_rep_open(reps[0], &rep) == DOCA_SUCCESS);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	priv_doca_dev_rep_dep_get(rep);
	dev_log_start();
	CHECK_ERR(doca_dev_rep_close(rep), DOCA_ERROR_IN_USE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_close");
	CHECK(priv_doca_dev_rep_is_valid(rep));
	priv_doca_dev_rep_dep_put(rep);
	priv_doca_dev_rep_dep_put(rep); /* extra put must not wrap around */
	CHECK_OK(doca_dev_rep_close(rep));
}

static void rep_open_and_close_reject_bad_arguments(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev_rep *rep = (struct doca_dev_rep *)0x1;
	uint64_t fake[16] = { 0 };
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, 0, &reps, &n) == DOCA_SUCCESS);
	dev_log_start();
	CHECK_ERR(doca_dev_rep_open(NULL, &rep), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_open");
	CHECK_ERR(doca_dev_rep_open(reps[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_open");
	CHECK_ERR(doca_dev_rep_open((struct doca_devinfo_rep *)fake, &rep), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_open");
	CHECK(rep == (struct doca_dev_rep *)0x1);
	CHECK_ERR(doca_dev_rep_close(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_close");
	CHECK_ERR(doca_dev_rep_close((struct doca_dev_rep *)fake), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_close");
	CHECK(doca_dev_rep_as_devinfo(NULL) == NULL);
	CHECK_LOG_ONE_ERR("doca_dev_rep_as_devinfo");
	CHECK(doca_dev_rep_as_devinfo((struct doca_dev_rep *)fake) == NULL);
	CHECK_LOG_ONE_ERR("doca_dev_rep_as_devinfo");
	REQUIRE(doca_dev_rep_open(reps[0], &rep) == DOCA_SUCCESS);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_ERR(doca_dev_rep_close(rep), DOCA_ERROR_INVALID_VALUE); /* twice */
	CHECK_LOG_ONE_ERR("doca_dev_rep_close");
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
}

static void rep_list_survives_its_device_but_cannot_open(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev_rep *rep = NULL;
	struct doca_dev *again;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_rep_create_list(dpu, 0, &reps, &n) == DOCA_SUCCESS);
	CHECK_OK(doca_dev_close(dpu));
	CHECK(!priv_doca_dev_is_valid(dpu));
	dev_log_start();
	CHECK_ERR(doca_dev_rep_open(reps[0], &rep), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_dev_rep_open");
	/* reopened, the device accepts the old list's representor again */
	again = dev_open_pci("03:00.0");
	REQUIRE(again != NULL);
	CHECK_OK(doca_dev_rep_open(reps[0], &rep));
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	dpu = again;
}

static void close_devices(void)
{
	CHECK_OK(doca_dev_close(dpu));
	CHECK_OK(doca_dev_close(host));
}

int main(void)
{
	SD_RUN(open_both_devices);
	if (dpu == NULL || host == NULL)
		return sd_test_done();
	SD_RUN(dpu_device_lists_its_net_representor);
	SD_RUN(kinds_the_device_cannot_list_are_not_supported);
	SD_RUN(unknown_filter_bits_are_invalid);
	SD_RUN(host_device_has_no_representors);
	SD_RUN(create_list_rejects_bad_arguments);
	SD_RUN(destroy_list_rejects_null_foreign_and_twice);
	SD_RUN(properties_of_the_default_representor);
	SD_RUN(property_getters_reject_null_arguments);
	SD_RUN(open_rep_outlives_its_list_and_pins_the_device);
	SD_RUN(each_rep_open_is_a_new_handle);
	SD_RUN(rep_close_with_dependents_is_in_use);
	SD_RUN(rep_open_and_close_reject_bad_arguments);
	SD_RUN(rep_list_survives_its_device_but_cannot_open);
	SD_RUN(close_devices);
	return sd_test_done();
}
