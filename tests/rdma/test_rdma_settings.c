/*
 * test_rdma_settings.c - the settings of an RDMA context and their
 * refusals: every getter refuses a missing or foreign context and a NULL
 * output; every setter refuses a missing context, a value outside the
 * device's range, and any change once the context has started, and a
 * refused setter leaves the setting as it was.
 */
#include "rdma_test.h"

/* Something that is not an RDMA context but lives in memory. */
static uint64_t not_a_context[1024];
#define FOREIGN ((struct doca_rdma *)(void *)not_a_context)

/* Every getter with a NULL context, a foreign one, and a NULL output. */
#define CHECK_GETTER(get, type, r)                                                                        \
	do {                                                                                               \
		type v_;                                                                                   \
		CHECK_ERR(get(NULL, &v_), DOCA_ERROR_INVALID_VALUE);                                       \
		CHECK_ERR(get(FOREIGN, &v_), DOCA_ERROR_INVALID_VALUE);                                    \
		CHECK_ERR(get(r, NULL), DOCA_ERROR_INVALID_VALUE);                                         \
		CHECK_OK(get(r, &v_));                                                                     \
	} while (0)

static void getters_refuse_missing_contexts_and_outputs(void)
{
	struct rt_side s;

	REQUIRE(rt_configure(&s, RT_DPU_PCI, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_GETTER(doca_rdma_get_send_queue_size, uint32_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_recv_queue_size, uint32_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_max_send_buf_list_len, uint32_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_transport_type, enum doca_rdma_transport_type, s.rdma);
	CHECK_GETTER(doca_rdma_get_mtu, enum doca_mtu_size, s.rdma);
	CHECK_GETTER(doca_rdma_get_permissions, uint32_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_grh_enabled, uint8_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_gid_index, uint32_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_sl, uint32_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_connection_request_timeout, uint16_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_max_num_connections, uint16_t, s.rdma);
	CHECK_GETTER(doca_rdma_get_rnr_retry_count, uint8_t, s.rdma);
	CHECK_GETTER(doca_rdma_task_receive_get_dst_buf_list_len, uint32_t, s.rdma);
	rt_destroy(&s);
}

/* A setter refused with `err` leaves the value its getter reads unchanged. */
#define CHECK_SET_REFUSED(set, get, type, r, bad, err)                                                    \
	do {                                                                                               \
		type before_, after_;                                                                      \
		CHECK_OK(get(r, &before_));                                                                \
		CHECK_ERR(set(r, bad), err);                                                               \
		CHECK_OK(get(r, &after_));                                                                 \
		CHECK(before_ == after_);                                                                  \
	} while (0)

static void setters_refuse_values_outside_the_device_range(void)
{
	struct rt_side s;
	struct doca_rdma *r;
	uint32_t gids = 0, sq = 0, rq = 0, lists = 0;

	REQUIRE(rt_configure(&s, RT_DPU_PCI, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	r = s.rdma;
	CHECK_OK(doca_rdma_cap_get_gid_table_size(doca_dev_as_devinfo(s.dev), &gids));
	CHECK_OK(doca_rdma_cap_get_max_send_queue_size(doca_dev_as_devinfo(s.dev), &sq));
	CHECK_OK(doca_rdma_cap_get_max_recv_queue_size(doca_dev_as_devinfo(s.dev), &rq));
	CHECK_OK(doca_rdma_cap_get_max_send_buf_list_len(doca_dev_as_devinfo(s.dev), &lists));
	REQUIRE(gids > 0 && sq > 0 && rq > 0 && lists > 0);

	CHECK_SET_REFUSED(doca_rdma_set_send_queue_size, doca_rdma_get_send_queue_size, uint32_t, r, 0,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_send_queue_size, doca_rdma_get_send_queue_size, uint32_t, r, sq + 1,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_recv_queue_size, doca_rdma_get_recv_queue_size, uint32_t, r, rq + 1,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_max_send_buf_list_len, doca_rdma_get_max_send_buf_list_len, uint32_t, r,
			  lists + 1, DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_task_receive_set_dst_buf_list_len, doca_rdma_task_receive_get_dst_buf_list_len,
			  uint32_t, r, 0, DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_gid_index, doca_rdma_get_gid_index, uint32_t, r, gids,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_sl, doca_rdma_get_sl, uint32_t, r, 16, DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_transport_type, doca_rdma_get_transport_type, enum doca_rdma_transport_type,
			  r, DOCA_RDMA_TRANSPORT_TYPE_DC, DOCA_ERROR_NOT_SUPPORTED);
	CHECK_SET_REFUSED(doca_rdma_set_transport_type, doca_rdma_get_transport_type, enum doca_rdma_transport_type,
			  r, (enum doca_rdma_transport_type)7, DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_mtu, doca_rdma_get_mtu, enum doca_mtu_size, r, (enum doca_mtu_size)99,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_permissions, doca_rdma_get_permissions, uint32_t, r,
			  DOCA_ACCESS_FLAG_PCI_READ_WRITE, DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_grh_enabled, doca_rdma_get_grh_enabled, uint8_t, r, 2,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_connection_request_timeout, doca_rdma_get_connection_request_timeout,
			  uint16_t, r, 0, DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_max_num_connections, doca_rdma_get_max_num_connections, uint16_t, r, 0,
			  DOCA_ERROR_INVALID_VALUE);
	CHECK_SET_REFUSED(doca_rdma_set_rnr_retry_count, doca_rdma_get_rnr_retry_count, uint8_t, r, 8,
			  DOCA_ERROR_INVALID_VALUE);

	/* In range, each value reads back. */
	uint32_t v = 0;
	CHECK_OK(doca_rdma_set_send_queue_size(r, sq));
	CHECK_OK(doca_rdma_get_send_queue_size(r, &v));
	CHECK(v == sq);
	CHECK_OK(doca_rdma_set_gid_index(r, gids - 1));
	CHECK_OK(doca_rdma_get_gid_index(r, &v));
	CHECK(v == gids - 1);
	CHECK_OK(doca_rdma_set_sl(r, 15));
	CHECK_OK(doca_rdma_get_sl(r, &v));
	CHECK(v == 15);
	rt_destroy(&s);
}

static void connection_callbacks_need_all_but_the_request_one(void)
{
	struct rt_side s;

	REQUIRE(rt_configure(&s, RT_DPU_PCI, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_ERR(doca_rdma_set_connection_state_callbacks(NULL, NULL, NULL, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_set_connection_state_callbacks(s.rdma, NULL, NULL, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	rt_destroy(&s);
}

/* Every setter with a NULL context, a foreign one, and on a started context. */
static void setters_refuse_missing_and_started_contexts(void)
{
	struct rt_side s;
	struct doca_rdma *bad[] = {NULL, FOREIGN};

	for (unsigned i = 0; i < 2; i++) {
		struct doca_rdma *r = bad[i];

		CHECK_ERR(doca_rdma_set_send_queue_size(r, 8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_recv_queue_size(r, 8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_max_send_buf_list_len(r, 1), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_task_receive_set_dst_buf_list_len(r, 1), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_gid_index(r, 0), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_sl(r, 0), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_transport_type(r, DOCA_RDMA_TRANSPORT_TYPE_RC), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_mtu(r, DOCA_MTU_SIZE_1K_BYTES), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_permissions(r, 0), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_grh_enabled(r, 0), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_connection_request_timeout(r, 100), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_max_num_connections(r, 1), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_rdma_set_rnr_retry_count(r, 1), DOCA_ERROR_INVALID_VALUE);
	}
	REQUIRE(rt_configure(&s, RT_DPU_PCI, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	REQUIRE(doca_ctx_start(s.ctx) == DOCA_SUCCESS);
	CHECK_ERR(doca_rdma_set_send_queue_size(s.rdma, 8), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_transport_type(s.rdma, DOCA_RDMA_TRANSPORT_TYPE_RC), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_mtu(s.rdma, DOCA_MTU_SIZE_1K_BYTES), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_permissions(s.rdma, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_rnr_retry_count(s.rdma, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_connection_state_callbacks(s.rdma, NULL, NULL, NULL, NULL), DOCA_ERROR_BAD_STATE);
	rt_stop(&s);
	rt_destroy(&s);
}

int main(void)
{
	SD_RUN(getters_refuse_missing_contexts_and_outputs);
	SD_RUN(setters_refuse_values_outside_the_device_range);
	SD_RUN(connection_callbacks_need_all_but_the_request_one);
	SD_RUN(setters_refuse_missing_and_started_contexts);
	return sd_test_done();
}
