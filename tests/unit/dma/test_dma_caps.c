/*
 * DOCA DMA capability queries: every query on every device
 * of the default topology, through list entries and through open devices,
 * and their NULL-argument rules.  Answers log nothing.
 */
#include "dma_fixture.h"

#define GIB (1024ull * 1024ull * 1024ull)

static void memcpy_supported_on_every_default_device(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS);
	CHECK(n >= 2);
	for (uint32_t i = 0; i < n; i++)
		CHECK_LOGS(0, CHECK_OK(doca_dma_cap_task_memcpy_is_supported(list[i])));
	doca_devinfo_destroy_list(list);
}

static void memcpy_supported_rejects_null(void)
{
	CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_task_memcpy_is_supported(NULL), DOCA_ERROR_INVALID_VALUE));
}

static void max_buf_list_len_is_64_by_default(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t len = 0;

		CHECK_LOGS(0, CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(list[i], &len)));
		CHECK_EQ_U64(len, 64);
	}
	CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_list_len(list[0], NULL),
				DOCA_ERROR_INVALID_VALUE));
	{
		uint32_t len = 5;

		CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_list_len(NULL, &len),
					DOCA_ERROR_INVALID_VALUE));
		CHECK_EQ_U64(len, 5);
	}
	doca_devinfo_destroy_list(list);
}

static void max_buf_size_is_2gib_by_default(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t size = 0;

		CHECK_LOGS(0, CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(list[i], &size)));
		CHECK_EQ_U64(size, 2 * GIB);
	}
	CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_size(list[0], NULL), DOCA_ERROR_INVALID_VALUE));
	{
		uint64_t size = 9;

		CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_task_memcpy_get_max_buf_size(NULL, &size), DOCA_ERROR_INVALID_VALUE));
		CHECK_EQ_U64(size, 9);
	}
	doca_devinfo_destroy_list(list);
}

static void caps_through_an_open_device_match_the_list(void)
{
	struct fx f;
	struct doca_devinfo *di;
	uint32_t len = 0;
	uint64_t size = 0;

	REQUIRE(fx_open_dev(&f, 0));
	di = doca_dev_as_devinfo(f.dev);
	CHECK_OK(doca_dma_cap_task_memcpy_is_supported(di));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(di, &len));
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(di, &size));
	CHECK_EQ_U64(len, 64);
	CHECK_EQ_U64(size, 2 * GIB);
	CHECK_OK(doca_dev_close(f.dev));
	doca_devinfo_destroy_list(f.list);
}

static void max_num_tasks_is_65536_and_needs_an_instance(void)
{
	struct fx f;
	uint32_t max = 0;

	REQUIRE(fx_setup(&f, 0));
	CHECK_LOGS(0, CHECK_OK(doca_dma_cap_get_max_num_tasks(f.dma, &max)));
	CHECK_EQ_U64(max, 65536);
	CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_get_max_num_tasks(NULL, &max), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_cap_get_max_num_tasks(f.dma, NULL), DOCA_ERROR_INVALID_VALUE));
	/* valid in every state */
	CHECK_OK(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 8));
	REQUIRE(fx_start(&f));
	max = 0;
	CHECK_OK(doca_dma_cap_get_max_num_tasks(f.dma, &max));
	CHECK_EQ_U64(max, 65536);
	fx_teardown(&f);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(memcpy_supported_on_every_default_device);
	SD_RUN(memcpy_supported_rejects_null);
	SD_RUN(max_buf_list_len_is_64_by_default);
	SD_RUN(max_buf_size_is_2gib_by_default);
	SD_RUN(caps_through_an_open_device_match_the_list);
	SD_RUN(max_num_tasks_is_65536_and_needs_an_instance);
	return sd_test_done();
}
