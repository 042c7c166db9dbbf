/*
 * test_comch_caps.c - Comch capabilities per side:
 * the server role only on the DPU-side device, the client role only on the
 * host-side device, the profile's limits on both, NULL and foreign handles
 * refused, and "not supported" answered without any SDK record.
 */
#include "comch_test.h"

static struct doca_devinfo **list;
static uint32_t nlist;

static struct doca_devinfo *find(const char *pci)
{
	for (uint32_t i = 0; i < nlist; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			return list[i];
	}
	return NULL;
}

static void server_role_only_on_the_dpu_side(void)
{
	struct doca_devinfo *dpu = find(CT_DPU_PCI), *host = find(CT_HOST_PCI);

	REQUIRE(dpu != NULL && host != NULL);
	ct_log_start();
	CHECK_OK(doca_comch_cap_server_is_supported(dpu));
	CHECK_ERR(doca_comch_cap_server_is_supported(host), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_QUIET();
}

static void client_role_only_on_the_host_side(void)
{
	struct doca_devinfo *dpu = find(CT_DPU_PCI), *host = find(CT_HOST_PCI);

	REQUIRE(dpu != NULL && host != NULL);
	ct_log_start();
	CHECK_OK(doca_comch_cap_client_is_supported(host));
	CHECK_ERR(doca_comch_cap_client_is_supported(dpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_QUIET();
}

static void limits_are_the_profile_defaults_on_both_sides(void)
{
	const char *pcis[] = {CT_DPU_PCI, CT_HOST_PCI};

	for (int i = 0; i < 2; i++) {
		struct doca_devinfo *info = find(pcis[i]);
		uint32_t v = 0;

		REQUIRE(info != NULL);
		ct_log_start();
		CHECK_OK(doca_comch_cap_get_max_name_len(info, &v));
		CHECK_EQ_U64(v, 120);
		CHECK_OK(doca_comch_cap_get_max_msg_size(info, &v));
		CHECK_EQ_U64(v, 4080);
		CHECK_OK(doca_comch_cap_get_max_recv_queue_size(info, &v));
		CHECK_EQ_U64(v, 1024);
		CHECK_OK(doca_comch_cap_get_max_send_tasks(info, &v));
		CHECK_EQ_U64(v, 8192);
		CHECK_OK(doca_comch_cap_get_max_clients(info, &v));
		CHECK_EQ_U64(v, 16);
		CHECK_LOG_QUIET();
	}
}

static void caps_work_through_an_open_device(void)
{
	struct doca_dev *dev = ct_open_dev(CT_DPU_PCI);
	uint32_t v = 0;

	REQUIRE(dev != NULL);
	CHECK_OK(doca_comch_cap_server_is_supported(doca_dev_as_devinfo(dev)));
	CHECK_OK(doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(dev), &v));
	CHECK_EQ_U64(v, 4080);
	CHECK_OK(doca_dev_close(dev));
}

static void null_arguments_are_refused(void)
{
	struct doca_devinfo *dpu = find(CT_DPU_PCI);
	uint32_t v = 7;

	REQUIRE(dpu != NULL);
	CHECK_REJECT(doca_comch_cap_get_max_name_len(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_name_len");
	CHECK_REJECT(doca_comch_cap_get_max_name_len(dpu, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_name_len");
	CHECK_REJECT(doca_comch_cap_get_max_msg_size(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_msg_size");
	CHECK_REJECT(doca_comch_cap_get_max_msg_size(dpu, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_msg_size");
	CHECK_REJECT(doca_comch_cap_get_max_recv_queue_size(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_recv_queue_size");
	CHECK_REJECT(doca_comch_cap_get_max_recv_queue_size(dpu, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_recv_queue_size");
	CHECK_REJECT(doca_comch_cap_get_max_clients(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_clients");
	CHECK_REJECT(doca_comch_cap_get_max_clients(dpu, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_clients");
	CHECK_REJECT(doca_comch_cap_get_max_send_tasks(NULL, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_send_tasks");
	CHECK_REJECT(doca_comch_cap_get_max_send_tasks(dpu, NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_send_tasks");
	CHECK_REJECT(doca_comch_cap_server_is_supported(NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_server_is_supported");
	CHECK_REJECT(doca_comch_cap_client_is_supported(NULL), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_client_is_supported");
	CHECK_EQ_U64(v, 7); /* never written by a refused call */
}

static void a_foreign_devinfo_is_refused(void)
{
	uint32_t junk[16] = {0};
	uint32_t v = 0;

	CHECK_REJECT(doca_comch_cap_get_max_msg_size((const struct doca_devinfo *)junk, &v), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_get_max_msg_size");
	CHECK_REJECT(doca_comch_cap_server_is_supported((const struct doca_devinfo *)junk), DOCA_ERROR_INVALID_VALUE,
		     "doca_comch_cap_server_is_supported");
}

int main(void)
{
	if (doca_devinfo_create_list(&list, &nlist) != DOCA_SUCCESS) {
		fprintf(stderr, "no device list\n");
		return 1;
	}
	SD_RUN(server_role_only_on_the_dpu_side);
	SD_RUN(client_role_only_on_the_host_side);
	SD_RUN(limits_are_the_profile_defaults_on_both_sides);
	SD_RUN(caps_work_through_an_open_device);
	SD_RUN(null_arguments_are_refused);
	SD_RUN(a_foreign_devinfo_is_refused);
	doca_devinfo_destroy_list(list);
	return sd_test_done();
}
