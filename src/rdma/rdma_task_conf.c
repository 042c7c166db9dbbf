/*
 * rdma_task_conf.c - configuring the eleven RDMA task types and taking
 * tasks from their pools.
 *
 * The pools, ownership and counters belong to the context framework; this
 * file adds the RDMA checks and fills the task fields.  Buffer, connection
 * and size rules are checked at submit (rdma_exec.c), as on a card.
 */
#include "rdma_priv.h"
#include "sd_log.h"

static doca_error_t sd_rdma_set_conf(struct doca_rdma *rdma, enum sd_rdma_type type, void (*ok)(void),
				     void (*bad)(void), uint32_t num_tasks, const char *func)
{
	doca_error_t err = sd_rdma_check_idle(rdma, func);
	uint32_t cap;

	if (err != DOCA_SUCCESS)
		return err;
	if (ok == NULL || bad == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (rdma %p)",
				    ok == NULL ? "success" : "error", (void *)rdma);
	cap = type == SD_RDMA_RECEIVE ? rdma->node->caps.rdma_max_recv_queue : rdma->node->caps.rdma_max_send_queue;
	if (num_tasks == 0 || num_tasks > cap)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "num_tasks %u is outside 1..%u, the device's %s queue capacity (rdma %p)", num_tasks,
				    cap, type == SD_RDMA_RECEIVE ? "receive" : "send", (void *)rdma);
	priv_doca_ctx_conf_task_type(&rdma->ctx, type, ok, bad, num_tasks);
	return DOCA_SUCCESS;
}

#define SD_RDMA_SET_CONF(name, type)                                                                       \
	doca_error_t doca_rdma_task_##name##_set_conf(struct doca_rdma *rdma,                               \
						      doca_rdma_task_##name##_completion_cb_t ok,           \
						      doca_rdma_task_##name##_completion_cb_t bad,          \
						      uint32_t num_tasks)                                   \
	{                                                                                                   \
		return sd_rdma_set_conf(rdma, type, (void (*)(void))ok, (void (*)(void))bad, num_tasks,      \
					__func__);                                                          \
	}

SD_RDMA_SET_CONF(receive, SD_RDMA_RECEIVE)
SD_RDMA_SET_CONF(send, SD_RDMA_SEND)
SD_RDMA_SET_CONF(send_imm, SD_RDMA_SEND_IMM)
SD_RDMA_SET_CONF(read, SD_RDMA_READ)
SD_RDMA_SET_CONF(write, SD_RDMA_WRITE)
SD_RDMA_SET_CONF(write_imm, SD_RDMA_WRITE_IMM)
SD_RDMA_SET_CONF(atomic_cmp_swp, SD_RDMA_CMP_SWP)
SD_RDMA_SET_CONF(atomic_fetch_add, SD_RDMA_FETCH_ADD)
SD_RDMA_SET_CONF(remote_net_sync_event_get, SD_RDMA_SE_GET)
SD_RDMA_SET_CONF(remote_net_sync_event_notify_set, SD_RDMA_SE_SET)
SD_RDMA_SET_CONF(remote_net_sync_event_notify_add, SD_RDMA_SE_ADD)

/* Take a task of `type` and clear its fields; on failure one ERROR record names the rule. */
static doca_error_t sd_rdma_alloc(struct doca_rdma *rdma, enum sd_rdma_type type, union doca_data ud,
				  const void *out, const char *func, struct sd_rdma_task **tp)
{
	struct doca_task *base;
	doca_error_t err = sd_rdma_check(rdma, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (out == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "output pointer task is NULL (rdma %p)",
				    (void *)rdma);
	err = priv_doca_task_alloc(&rdma->ctx, type, ud, &base, func);
	if (err != DOCA_SUCCESS)
		return err;
	struct sd_rdma_task *t = (struct sd_rdma_task *)base;
	t->conn = NULL;
	t->src = NULL;
	t->dst = NULL;
	t->result = NULL;
	t->event = NULL;
	t->op1 = t->op2 = 0;
	t->imm = 0;
	t->result_len = 0;
	t->opcode = DOCA_RDMA_OPCODE_RECV_SEND;
	t->from = NULL;
	*tp = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_task_receive_allocate_init(struct doca_rdma *rdma, struct doca_buf *dst_buf,
						  union doca_data user_data, struct doca_rdma_task_receive **task)
{
	struct sd_rdma_task *t = NULL;
	doca_error_t err = sd_rdma_alloc(rdma, SD_RDMA_RECEIVE, user_data, task, __func__, &t);

	if (err != DOCA_SUCCESS)
		return err;
	t->dst = dst_buf;
	*task = (struct doca_rdma_task_receive *)t;
	return DOCA_SUCCESS;
}

/* send and send_imm share everything but the immediate. */
static doca_error_t sd_rdma_alloc_send(struct doca_rdma *rdma, enum sd_rdma_type type,
				       struct doca_rdma_connection *conn, const struct doca_buf *src, doca_be32_t imm,
				       union doca_data ud, void **task, const char *func)
{
	struct sd_rdma_task *t = NULL;
	doca_error_t err = sd_rdma_alloc(rdma, type, ud, task, func, &t);

	if (err != DOCA_SUCCESS)
		return err;
	t->conn = conn;
	t->src = src;
	t->imm = imm;
	*task = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
					       const struct doca_buf *src_buf, union doca_data user_data,
					       struct doca_rdma_task_send **task)
{
	return sd_rdma_alloc_send(rdma, SD_RDMA_SEND, rdma_connection, src_buf, 0, user_data, (void **)task,
				  __func__);
}

doca_error_t doca_rdma_task_send_imm_allocate_init(struct doca_rdma *rdma,
						   struct doca_rdma_connection *rdma_connection,
						   const struct doca_buf *src_buf, doca_be32_t immediate_data,
						   union doca_data user_data, struct doca_rdma_task_send_imm **task)
{
	return sd_rdma_alloc_send(rdma, SD_RDMA_SEND_IMM, rdma_connection, src_buf, immediate_data, user_data,
				  (void **)task, __func__);
}

/* read, write and write_imm: a source and a destination. */
static doca_error_t sd_rdma_alloc_copy(struct doca_rdma *rdma, enum sd_rdma_type type,
				       struct doca_rdma_connection *conn, const struct doca_buf *src,
				       struct doca_buf *dst, doca_be32_t imm, union doca_data ud, void **task,
				       const char *func)
{
	struct sd_rdma_task *t = NULL;
	doca_error_t err = sd_rdma_alloc(rdma, type, ud, task, func, &t);

	if (err != DOCA_SUCCESS)
		return err;
	t->conn = conn;
	t->src = src;
	t->dst = dst;
	t->imm = imm;
	*task = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_task_read_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
					       const struct doca_buf *src_buf, struct doca_buf *dst_buf,
					       union doca_data user_data, struct doca_rdma_task_read **task)
{
	return sd_rdma_alloc_copy(rdma, SD_RDMA_READ, rdma_connection, src_buf, dst_buf, 0, user_data,
				  (void **)task, __func__);
}

doca_error_t doca_rdma_task_write_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
						const struct doca_buf *src_buf, struct doca_buf *dst_buf,
						union doca_data user_data, struct doca_rdma_task_write **task)
{
	return sd_rdma_alloc_copy(rdma, SD_RDMA_WRITE, rdma_connection, src_buf, dst_buf, 0, user_data,
				  (void **)task, __func__);
}

doca_error_t doca_rdma_task_write_imm_allocate_init(struct doca_rdma *rdma,
						    struct doca_rdma_connection *rdma_connection,
						    const struct doca_buf *src_buf, struct doca_buf *dst_buf,
						    doca_be32_t immediate_data, union doca_data user_data,
						    struct doca_rdma_task_write_imm **task)
{
	return sd_rdma_alloc_copy(rdma, SD_RDMA_WRITE_IMM, rdma_connection, src_buf, dst_buf, immediate_data,
				  user_data, (void **)task, __func__);
}

/* The atomics and notify-add: 8 remote bytes (or an event) and a result buffer. */
static doca_error_t sd_rdma_alloc_atomic(struct doca_rdma *rdma, enum sd_rdma_type type,
					 struct doca_rdma_connection *conn, struct doca_buf *dst, void *event,
					 struct doca_buf *result, uint64_t op1, uint64_t op2, union doca_data ud,
					 void **task, const char *func)
{
	struct sd_rdma_task *t = NULL;
	doca_error_t err = sd_rdma_alloc(rdma, type, ud, task, func, &t);

	if (err != DOCA_SUCCESS)
		return err;
	t->conn = conn;
	t->dst = dst;
	t->event = event;
	t->result = result;
	t->op1 = op1;
	t->op2 = op2;
	*task = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(struct doca_rdma *rdma,
							 struct doca_rdma_connection *rdma_connection,
							 struct doca_buf *dst_buf, struct doca_buf *result_buf,
							 uint64_t cmp_data, uint64_t swap_data,
							 union doca_data user_data,
							 struct doca_rdma_task_atomic_cmp_swp **task)
{
	return sd_rdma_alloc_atomic(rdma, SD_RDMA_CMP_SWP, rdma_connection, dst_buf, NULL, result_buf, cmp_data,
				    swap_data, user_data, (void **)task, __func__);
}

doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(struct doca_rdma *rdma,
							   struct doca_rdma_connection *rdma_connection,
							   struct doca_buf *dst_buf, struct doca_buf *result_buf,
							   uint64_t add_data, union doca_data user_data,
							   struct doca_rdma_task_atomic_fetch_add **task)
{
	return sd_rdma_alloc_atomic(rdma, SD_RDMA_FETCH_ADD, rdma_connection, dst_buf, NULL, result_buf, add_data,
				    0, user_data, (void **)task, __func__);
}

doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(
	struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
	const struct doca_sync_event_remote_net *event, struct doca_buf *dst_buf, union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_get **task)
{
	return sd_rdma_alloc_atomic(rdma, SD_RDMA_SE_GET, rdma_connection, dst_buf, (void *)event, NULL, 0, 0,
				    user_data, (void **)task, __func__);
}

doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_sync_event_remote_net *event,
	const struct doca_buf *src_buf, union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_notify_set **task)
{
	doca_error_t err = sd_rdma_alloc_atomic(rdma, SD_RDMA_SE_SET, rdma_connection, NULL, event, NULL, 0, 0,
						user_data, (void **)task, __func__);

	if (err == DOCA_SUCCESS)
		((struct sd_rdma_task *)*task)->src = src_buf;
	return err;
}

doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_sync_event_remote_net *event,
	struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_notify_add **task)
{
	return sd_rdma_alloc_atomic(rdma, SD_RDMA_SE_ADD, rdma_connection, NULL, event, result_buf, add_data, 0,
				    user_data, (void **)task, __func__);
}
