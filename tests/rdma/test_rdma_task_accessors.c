/*
 * test_rdma_task_accessors.c - every field accessor of the eleven RDMA task
 * types, given something that is not a live task: a getter yields zero, a
 * setter changes nothing, and each says so in exactly one ERROR record; on
 * a live task of its type, each setter's value reads back.
 */
#include "../unit/log/log_capture.h"
#include "rdma_test.h"

static struct capture *log_;

/* The call just made left exactly one ERROR record, and nothing else. */
#define ONE_RECORD()                                                                                        \
	do {                                                                                                \
		CHECK(log_count_errors() == 1);                                                            \
		capture_reset(log_);                                                                       \
	} while (0)

static int log_count_errors(void)
{
	int n = 0;

	for (const char *p = log_->text; (p = strstr(p, "[DOCA][ERR]")) != NULL; p++)
		n++;
	return n;
}

static void accessors_refuse_what_is_not_a_live_task(void)
{
	capture_reset(log_);
	CHECK(doca_rdma_task_receive_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_receive_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_receive_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_receive_get_result_opcode(NULL) == (enum doca_rdma_opcode)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_receive_get_result_len(NULL) == (uint32_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_receive_get_result_immediate_data(NULL) == (doca_be32_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_send_set_src_buf(NULL, (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_get_src_buf(NULL) == (const struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_send_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_imm_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_send_imm_set_src_buf(NULL, (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_imm_get_src_buf(NULL) == (const struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_send_imm_set_immediate_data(NULL, (doca_be32_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_imm_get_immediate_data(NULL) == (doca_be32_t)0);
	ONE_RECORD();
	doca_rdma_task_send_imm_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_send_imm_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_read_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_read_set_src_buf(NULL, (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_read_get_src_buf(NULL) == (const struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_read_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_read_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_read_get_result_len(NULL) == (uint32_t)0);
	ONE_RECORD();
	doca_rdma_task_read_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_read_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_write_set_src_buf(NULL, (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_get_src_buf(NULL) == (const struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_write_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_write_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_imm_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_write_imm_set_src_buf(NULL, (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_imm_get_src_buf(NULL) == (const struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_write_imm_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_imm_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_write_imm_set_immediate_data(NULL, (doca_be32_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_imm_get_immediate_data(NULL) == (doca_be32_t)0);
	ONE_RECORD();
	doca_rdma_task_write_imm_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_write_imm_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_cmp_swp_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_atomic_cmp_swp_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_cmp_swp_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_atomic_cmp_swp_set_result_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_cmp_swp_get_result_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_atomic_cmp_swp_set_cmp_data(NULL, (uint64_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_cmp_swp_get_cmp_data(NULL) == (uint64_t)0);
	ONE_RECORD();
	doca_rdma_task_atomic_cmp_swp_set_swap_data(NULL, (uint64_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_cmp_swp_get_swap_data(NULL) == (uint64_t)0);
	ONE_RECORD();
	doca_rdma_task_atomic_cmp_swp_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_cmp_swp_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_fetch_add_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_atomic_fetch_add_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_fetch_add_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_atomic_fetch_add_set_result_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_fetch_add_get_result_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_atomic_fetch_add_set_add_data(NULL, (uint64_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_fetch_add_get_add_data(NULL) == (uint64_t)0);
	ONE_RECORD();
	doca_rdma_task_atomic_fetch_add_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_atomic_fetch_add_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_get_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_get_set_sync_event(NULL, (const struct doca_sync_event_remote_net *)NULL);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_sync_event(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_get_set_dst_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_dst_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_result_len(NULL) == (uint32_t)0);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_get_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_set_set_sync_event(NULL, (struct doca_sync_event_remote_net *)NULL);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_get_sync_event(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_set_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_set_set_src_buf(NULL, (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_get_src_buf(NULL) == (const struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_as_task(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_add_set_sync_event(NULL, (struct doca_sync_event_remote_net *)NULL);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_get_sync_event(NULL) == NULL);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_add_set_result_buf(NULL, (struct doca_buf *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_get_result_buf(NULL) == (struct doca_buf *)0);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_add_set_add_data(NULL, (uint64_t)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_get_add_data(NULL) == (uint64_t)0);
	ONE_RECORD();
	doca_rdma_task_remote_net_sync_event_notify_add_set_rdma_connection(NULL, (struct doca_rdma_connection *)0);
	ONE_RECORD();
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_get_rdma_connection(NULL) == (const struct doca_rdma_connection *)0);
	ONE_RECORD();
}

/* On a live task of its type, each setter's value is what its getter reads back, with no record. */
static void accessors_set_and_read_back_fields_of_live_tasks(void)
{
	static uint8_t mem[256] __attribute__((aligned(64)));
	struct rt_side a, b;
	struct doca_mmap *m;
	struct doca_buf *buf = NULL;
	union doca_data ud = {.u64 = 0};
	uint32_t perms = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE;

	REQUIRE(rt_pair(&a, &b, perms, perms));
	m = rt_mmap(a.dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	REQUIRE(doca_buf_inventory_buf_get_by_addr(a.inv, m, mem, sizeof(mem), &buf) == DOCA_SUCCESS);
	capture_reset(log_);
	struct doca_rdma_task_receive *t_receive = NULL;
	REQUIRE(doca_rdma_task_receive_allocate_init(a.rdma, NULL, ud, &t_receive) == DOCA_SUCCESS);
	doca_rdma_task_receive_set_dst_buf(t_receive, buf);
	CHECK(doca_rdma_task_receive_get_dst_buf(t_receive) == buf);
	doca_task_free(doca_rdma_task_receive_as_task(t_receive));
	struct doca_rdma_task_send *t_send = NULL;
	REQUIRE(doca_rdma_task_send_allocate_init(a.rdma, a.conn, NULL, ud, &t_send) == DOCA_SUCCESS);
	doca_rdma_task_send_set_src_buf(t_send, buf);
	CHECK(doca_rdma_task_send_get_src_buf(t_send) == buf);
	doca_rdma_task_send_set_rdma_connection(t_send, a.conn);
	CHECK(doca_rdma_task_send_get_rdma_connection(t_send) == a.conn);
	doca_task_free(doca_rdma_task_send_as_task(t_send));
	struct doca_rdma_task_send_imm *t_send_imm = NULL;
	REQUIRE(doca_rdma_task_send_imm_allocate_init(a.rdma, a.conn, NULL, 0, ud, &t_send_imm) == DOCA_SUCCESS);
	doca_rdma_task_send_imm_set_src_buf(t_send_imm, buf);
	CHECK(doca_rdma_task_send_imm_get_src_buf(t_send_imm) == buf);
	doca_rdma_task_send_imm_set_immediate_data(t_send_imm, 0xa1b2c3d4u);
	CHECK(doca_rdma_task_send_imm_get_immediate_data(t_send_imm) == 0xa1b2c3d4u);
	doca_rdma_task_send_imm_set_rdma_connection(t_send_imm, a.conn);
	CHECK(doca_rdma_task_send_imm_get_rdma_connection(t_send_imm) == a.conn);
	doca_task_free(doca_rdma_task_send_imm_as_task(t_send_imm));
	struct doca_rdma_task_read *t_read = NULL;
	REQUIRE(doca_rdma_task_read_allocate_init(a.rdma, a.conn, NULL, NULL, ud, &t_read) == DOCA_SUCCESS);
	doca_rdma_task_read_set_src_buf(t_read, buf);
	CHECK(doca_rdma_task_read_get_src_buf(t_read) == buf);
	doca_rdma_task_read_set_dst_buf(t_read, buf);
	CHECK(doca_rdma_task_read_get_dst_buf(t_read) == buf);
	doca_rdma_task_read_set_rdma_connection(t_read, a.conn);
	CHECK(doca_rdma_task_read_get_rdma_connection(t_read) == a.conn);
	doca_task_free(doca_rdma_task_read_as_task(t_read));
	struct doca_rdma_task_write *t_write = NULL;
	REQUIRE(doca_rdma_task_write_allocate_init(a.rdma, a.conn, NULL, NULL, ud, &t_write) == DOCA_SUCCESS);
	doca_rdma_task_write_set_src_buf(t_write, buf);
	CHECK(doca_rdma_task_write_get_src_buf(t_write) == buf);
	doca_rdma_task_write_set_dst_buf(t_write, buf);
	CHECK(doca_rdma_task_write_get_dst_buf(t_write) == buf);
	doca_rdma_task_write_set_rdma_connection(t_write, a.conn);
	CHECK(doca_rdma_task_write_get_rdma_connection(t_write) == a.conn);
	doca_task_free(doca_rdma_task_write_as_task(t_write));
	struct doca_rdma_task_write_imm *t_write_imm = NULL;
	REQUIRE(doca_rdma_task_write_imm_allocate_init(a.rdma, a.conn, NULL, NULL, 0, ud, &t_write_imm) == DOCA_SUCCESS);
	doca_rdma_task_write_imm_set_src_buf(t_write_imm, buf);
	CHECK(doca_rdma_task_write_imm_get_src_buf(t_write_imm) == buf);
	doca_rdma_task_write_imm_set_dst_buf(t_write_imm, buf);
	CHECK(doca_rdma_task_write_imm_get_dst_buf(t_write_imm) == buf);
	doca_rdma_task_write_imm_set_immediate_data(t_write_imm, 0xa1b2c3d4u);
	CHECK(doca_rdma_task_write_imm_get_immediate_data(t_write_imm) == 0xa1b2c3d4u);
	doca_rdma_task_write_imm_set_rdma_connection(t_write_imm, a.conn);
	CHECK(doca_rdma_task_write_imm_get_rdma_connection(t_write_imm) == a.conn);
	doca_task_free(doca_rdma_task_write_imm_as_task(t_write_imm));
	struct doca_rdma_task_atomic_cmp_swp *t_atomic_cmp_swp = NULL;
	REQUIRE(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, NULL, NULL, 0, 0, ud, &t_atomic_cmp_swp) == DOCA_SUCCESS);
	doca_rdma_task_atomic_cmp_swp_set_dst_buf(t_atomic_cmp_swp, buf);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_dst_buf(t_atomic_cmp_swp) == buf);
	doca_rdma_task_atomic_cmp_swp_set_result_buf(t_atomic_cmp_swp, buf);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_result_buf(t_atomic_cmp_swp) == buf);
	doca_rdma_task_atomic_cmp_swp_set_cmp_data(t_atomic_cmp_swp, 0x1122334455667788ull);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_cmp_data(t_atomic_cmp_swp) == 0x1122334455667788ull);
	doca_rdma_task_atomic_cmp_swp_set_swap_data(t_atomic_cmp_swp, 0x1122334455667788ull);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_swap_data(t_atomic_cmp_swp) == 0x1122334455667788ull);
	doca_rdma_task_atomic_cmp_swp_set_rdma_connection(t_atomic_cmp_swp, a.conn);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_rdma_connection(t_atomic_cmp_swp) == a.conn);
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(t_atomic_cmp_swp));
	struct doca_rdma_task_atomic_fetch_add *t_atomic_fetch_add = NULL;
	REQUIRE(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, NULL, NULL, 0, ud, &t_atomic_fetch_add) == DOCA_SUCCESS);
	doca_rdma_task_atomic_fetch_add_set_dst_buf(t_atomic_fetch_add, buf);
	CHECK(doca_rdma_task_atomic_fetch_add_get_dst_buf(t_atomic_fetch_add) == buf);
	doca_rdma_task_atomic_fetch_add_set_result_buf(t_atomic_fetch_add, buf);
	CHECK(doca_rdma_task_atomic_fetch_add_get_result_buf(t_atomic_fetch_add) == buf);
	doca_rdma_task_atomic_fetch_add_set_add_data(t_atomic_fetch_add, 0x1122334455667788ull);
	CHECK(doca_rdma_task_atomic_fetch_add_get_add_data(t_atomic_fetch_add) == 0x1122334455667788ull);
	doca_rdma_task_atomic_fetch_add_set_rdma_connection(t_atomic_fetch_add, a.conn);
	CHECK(doca_rdma_task_atomic_fetch_add_get_rdma_connection(t_atomic_fetch_add) == a.conn);
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(t_atomic_fetch_add));
	CHECK(log_count_errors() == 0);
	doca_buf_dec_refcount(buf, NULL);
	rt_stop(&a);
	rt_stop(&b);
	doca_mmap_destroy(m);
	rt_destroy(&a);
	rt_destroy(&b);
}

int main(void)
{
	log_ = capture_new(true);
	if (log_ == NULL || doca_log_backend_set_sdk_level(log_->backend, DOCA_LOG_LEVEL_ERROR) != DOCA_SUCCESS)
		return 1;
	SD_RUN(accessors_refuse_what_is_not_a_live_task);
	SD_RUN(accessors_set_and_read_back_fields_of_live_tasks);
	return sd_test_done();
}
