/*
 * Device lists of the default topology and every property and capability
 * getter of its two devices (docs/decisions.md, "Devices and topology").
 */
#include <string.h>

#include <doca_dev.h>

#include "dev_test.h"

static struct doca_devinfo **list;
static uint32_t nb;

static void list_has_both_default_devices_sorted(void)
{
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	dev_log_start();
	REQUIRE(doca_devinfo_create_list(&list, &nb) == DOCA_SUCCESS);
	CHECK_LOG_QUIET();
	REQUIRE(nb == 2);
	CHECK(list[2] == NULL);
	CHECK_OK(doca_devinfo_get_pci_addr_str(list[0], pci));
	CHECK(strcmp(pci, "0000:03:00.0") == 0);
	CHECK_OK(doca_devinfo_get_pci_addr_str(list[1], pci));
	CHECK(strcmp(pci, "0000:b1:00.0") == 0);
}

static void each_list_has_its_own_elements(void)
{
	struct doca_devinfo **other = NULL;
	uint32_t n = 0;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	REQUIRE(doca_devinfo_create_list(&other, &n) == DOCA_SUCCESS);
	CHECK(n == nb);
	CHECK(other != list);
	CHECK(other[0] != list[0]);
	CHECK_OK(doca_devinfo_destroy_list(other));
	/* the first list is untouched by the second one's destruction */
	CHECK_OK(doca_devinfo_get_pci_addr_str(list[0], pci));
	CHECK(strcmp(pci, "0000:03:00.0") == 0);
}

static void create_list_rejects_null_outputs(void)
{
	struct doca_devinfo **l = (struct doca_devinfo **)0x1;
	uint32_t n = 77;

	dev_log_start();
	CHECK_ERR(doca_devinfo_create_list(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_create_list");
	CHECK(n == 77);
	CHECK_ERR(doca_devinfo_create_list(&l, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_create_list");
	CHECK(l == (struct doca_devinfo **)0x1);
}

static void destroy_list_rejects_null_foreign_and_twice(void)
{
	struct doca_devinfo **l = NULL;
	struct doca_devinfo *fake[2] = { NULL, NULL };
	uint32_t n = 0;

	dev_log_start();
	CHECK_ERR(doca_devinfo_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_destroy_list");
	CHECK_ERR(doca_devinfo_destroy_list(fake), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_destroy_list");
	REQUIRE(doca_devinfo_create_list(&l, &n) == DOCA_SUCCESS);
	/* an element is not a list */
	CHECK_ERR(doca_devinfo_destroy_list((struct doca_devinfo **)l[0]), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_destroy_list");
	CHECK_OK(doca_devinfo_destroy_list(l));
	CHECK_LOG_QUIET();
	CHECK_ERR(doca_devinfo_destroy_list(l), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_destroy_list");
}

static void names_of_the_default_devices(void)
{
	struct doca_devinfo *dpu = dev_find(list, nb, "03:00.0");
	struct doca_devinfo *host = dev_find(list, nb, "b1:00.0");
	char ib[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char ifc[DOCA_DEVINFO_IFACE_NAME_SIZE];

	REQUIRE(dpu != NULL && host != NULL);
	dev_log_start();
	CHECK_OK(doca_devinfo_get_ibdev_name(dpu, ib, sizeof(ib)));
	CHECK(strcmp(ib, "mlx5_0") == 0);
	CHECK_OK(doca_devinfo_get_iface_name(dpu, ifc, sizeof(ifc)));
	CHECK(strcmp(ifc, "p0") == 0);
	CHECK_OK(doca_devinfo_get_ibdev_name(host, ib, sizeof(ib)));
	CHECK(strcmp(ib, "mlx5_1") == 0);
	CHECK_OK(doca_devinfo_get_iface_name(host, ifc, sizeof(ifc)));
	CHECK(strcmp(ifc, "enp177s0f0np0") == 0);
	CHECK_LOG_QUIET();
}

static void name_getters_need_the_full_buffer_size(void)
{
	char ib[DOCA_DEVINFO_IBDEV_NAME_SIZE] = "untouched";
	char ifc[DOCA_DEVINFO_IFACE_NAME_SIZE] = "untouched";

	dev_log_start();
	CHECK_ERR(doca_devinfo_get_ibdev_name(list[0], ib, DOCA_DEVINFO_IBDEV_NAME_SIZE - 1),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ibdev_name");
	CHECK(strcmp(ib, "untouched") == 0);
	CHECK_ERR(doca_devinfo_get_iface_name(list[0], ifc, DOCA_DEVINFO_IFACE_NAME_SIZE - 1),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_iface_name");
	CHECK(strcmp(ifc, "untouched") == 0);
}

static void mac_addresses_and_size_check(void)
{
	static const uint8_t mac0[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const uint8_t mac1[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	uint8_t mac[6];

	CHECK_OK(doca_devinfo_get_mac_addr(list[0], mac, sizeof(mac)));
	CHECK(memcmp(mac, mac0, 6) == 0);
	CHECK_OK(doca_devinfo_get_mac_addr(list[1], mac, sizeof(mac)));
	CHECK(memcmp(mac, mac1, 6) == 0);
	dev_log_start();
	CHECK_ERR(doca_devinfo_get_mac_addr(list[0], mac, 5), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_mac_addr");
}

static void default_devices_have_no_ip_addresses(void)
{
	uint8_t v4[4] = { 9, 9, 9, 9 }, v6[16];

	for (uint32_t i = 0; i < nb; i++) {
		dev_log_start();
		CHECK_ERR(doca_devinfo_get_ipv4_addr(list[i], v4, sizeof(v4)), DOCA_ERROR_NOT_FOUND);
		CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv4_addr");
		CHECK(v4[0] == 9);
		CHECK_ERR(doca_devinfo_get_ipv6_addr(list[i], v6, sizeof(v6)), DOCA_ERROR_NOT_FOUND);
		CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv6_addr");
	}
	/* the size rule is checked before the address is looked up */
	CHECK_ERR(doca_devinfo_get_ipv4_addr(list[0], v4, 3), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv4_addr");
	CHECK_ERR(doca_devinfo_get_ipv6_addr(list[0], v6, 15), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv6_addr");
}

static void ethernet_ports_have_no_lid(void)
{
	uint16_t lid = 1234;

	dev_log_start();
	CHECK_ERR(doca_devinfo_get_lid(list[0], &lid), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_lid");
	CHECK(lid == 1234);
}

static void rate_and_vhca_ids(void)
{
	uint64_t rate = 0;
	uint16_t vhca = 99;

	CHECK_OK(doca_devinfo_get_active_rate(list[0], &rate));
	CHECK_EQ_U64(rate, 100000000000ull);
	CHECK_OK(doca_devinfo_get_active_rate(list[1], &rate));
	CHECK_EQ_U64(rate, 100000000000ull);
	CHECK_OK(doca_devinfo_get_vhca_id(list[0], &vhca));
	CHECK(vhca == 0);
	CHECK_OK(doca_devinfo_get_vhca_id(list[1], &vhca));
	CHECK(vhca == 1);
}

static void capability_defaults(void)
{
	uint8_t v;

	for (uint32_t i = 0; i < nb; i++) {
		v = 9;
		CHECK_OK(doca_devinfo_cap_is_hotplug_manager_supported(list[i], &v));
		CHECK(v == 0);
		v = 9;
		CHECK_OK(doca_devinfo_cap_is_notification_moderation_supported(list[i], &v));
		CHECK(v == 0);
		v = 9;
		CHECK_OK(doca_devinfo_cap_is_accelerate_resource_reclaim_supported(list[i], &v));
		CHECK(v == 0);
	}
}

static void representor_filters_on_the_dpu_device(void)
{
	uint8_t v;

	dev_log_start();
	v = 9;
	CHECK_OK(doca_devinfo_rep_cap_is_filter_all_supported(list[0], &v));
	CHECK(v == 1);
	v = 9;
	CHECK_OK(doca_devinfo_rep_cap_is_filter_net_supported(list[0], &v));
	CHECK(v == 1);
	v = 9;
	CHECK_OK(doca_devinfo_rep_cap_is_filter_emulated_supported(list[0], &v));
	CHECK(v == 0);
	CHECK_LOG_QUIET();
}

static void representor_filters_not_supported_on_the_host_device_silently(void)
{
	uint8_t v = 9;

	dev_log_start();
	CHECK_ERR(doca_devinfo_rep_cap_is_filter_all_supported(list[1], &v), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_devinfo_rep_cap_is_filter_net_supported(list[1], &v), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_devinfo_rep_cap_is_filter_emulated_supported(list[1], &v), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(v == 9);
	/* "not supported" is an answer, not a failure: nothing logged */
	CHECK_LOG_QUIET();
}

typedef doca_error_t (*u8_query)(const struct doca_devinfo *, uint8_t *);

static void every_getter_rejects_null_arguments(void)
{
	static const struct {
		const char *name;
		u8_query fn;
	} caps[] = {
		{ "doca_devinfo_cap_is_hotplug_manager_supported", doca_devinfo_cap_is_hotplug_manager_supported },
		{ "doca_devinfo_cap_is_notification_moderation_supported",
		  doca_devinfo_cap_is_notification_moderation_supported },
		{ "doca_devinfo_cap_is_accelerate_resource_reclaim_supported",
		  doca_devinfo_cap_is_accelerate_resource_reclaim_supported },
		{ "doca_devinfo_rep_cap_is_filter_all_supported", doca_devinfo_rep_cap_is_filter_all_supported },
		{ "doca_devinfo_rep_cap_is_filter_net_supported", doca_devinfo_rep_cap_is_filter_net_supported },
		{ "doca_devinfo_rep_cap_is_filter_emulated_supported",
		  doca_devinfo_rep_cap_is_filter_emulated_supported },
	};
	char s[256];
	uint8_t b[16];
	uint16_t u16;
	uint64_t u64;

	dev_log_start();
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		CHECK_ERR(caps[i].fn(NULL, b), DOCA_ERROR_INVALID_VALUE);
		CHECK_LOG_ONE_ERR(caps[i].name);
		CHECK_ERR(caps[i].fn(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_LOG_ONE_ERR(caps[i].name);
	}
	CHECK_ERR(doca_devinfo_get_pci_addr_str(NULL, s), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_pci_addr_str");
	CHECK_ERR(doca_devinfo_get_pci_addr_str(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_pci_addr_str");
	CHECK_ERR(doca_devinfo_get_ipv4_addr(NULL, b, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv4_addr");
	CHECK_ERR(doca_devinfo_get_ipv4_addr(list[0], NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv4_addr");
	CHECK_ERR(doca_devinfo_get_ipv6_addr(NULL, b, 16), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv6_addr");
	CHECK_ERR(doca_devinfo_get_ipv6_addr(list[0], NULL, 16), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv6_addr");
	CHECK_ERR(doca_devinfo_get_mac_addr(NULL, b, 6), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_mac_addr");
	CHECK_ERR(doca_devinfo_get_mac_addr(list[0], NULL, 6), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_mac_addr");
	CHECK_ERR(doca_devinfo_get_iface_name(NULL, s, 256), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_iface_name");
	CHECK_ERR(doca_devinfo_get_iface_name(list[0], NULL, 256), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_iface_name");
	CHECK_ERR(doca_devinfo_get_ibdev_name(NULL, s, 64), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ibdev_name");
	CHECK_ERR(doca_devinfo_get_ibdev_name(list[0], NULL, 64), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ibdev_name");
	CHECK_ERR(doca_devinfo_get_lid(NULL, &u16), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_lid");
	CHECK_ERR(doca_devinfo_get_lid(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_lid");
	CHECK_ERR(doca_devinfo_get_active_rate(NULL, &u64), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_active_rate");
	CHECK_ERR(doca_devinfo_get_active_rate(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_active_rate");
	CHECK_ERR(doca_devinfo_get_vhca_id(NULL, &u16), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_vhca_id");
	CHECK_ERR(doca_devinfo_get_vhca_id(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_vhca_id");
}

static void getters_reject_a_foreign_object(void)
{
	/* a zeroed block of the right size but never handed out by the library */
	uint64_t fake[8] = { 0 };
	char s[64];

	dev_log_start();
	CHECK_ERR(doca_devinfo_get_ibdev_name((const struct doca_devinfo *)fake, s, sizeof(s)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ibdev_name");
}

static void destroy_the_list(void)
{
	dev_log_start();
	CHECK_OK(doca_devinfo_destroy_list(list));
	CHECK_LOG_QUIET();
}

int main(void)
{
	SD_RUN(list_has_both_default_devices_sorted);
	if (list == NULL)
		return sd_test_done();
	SD_RUN(each_list_has_its_own_elements);
	SD_RUN(create_list_rejects_null_outputs);
	SD_RUN(destroy_list_rejects_null_foreign_and_twice);
	SD_RUN(names_of_the_default_devices);
	SD_RUN(name_getters_need_the_full_buffer_size);
	SD_RUN(mac_addresses_and_size_check);
	SD_RUN(default_devices_have_no_ip_addresses);
	SD_RUN(ethernet_ports_have_no_lid);
	SD_RUN(rate_and_vhca_ids);
	SD_RUN(capability_defaults);
	SD_RUN(representor_filters_on_the_dpu_device);
	SD_RUN(representor_filters_not_supported_on_the_host_device_silently);
	SD_RUN(every_getter_rejects_null_arguments);
	SD_RUN(getters_reject_a_foreign_object);
	SD_RUN(destroy_the_list);
	return sd_test_done();
}
