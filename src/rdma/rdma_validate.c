/*
 * rdma_validate.c - the validate hook of each RDMA task type: which rules
 * of rdma_rules.c apply to it, in the order a card would meet them.
 */
#include "rdma_buf.h"
#include "rdma_priv.h"

#define T(task) ((struct sd_rdma_task *)(task))
#define TRY(expr)                                                                                           \
	do {                                                                                                \
		doca_error_t e_ = (expr);                                                                   \
		if (e_ != DOCA_SUCCESS)                                                                     \
			return e_;                                                                          \
	} while (0)

static uint32_t sd_send_list_max(const struct sd_rdma_task *t)
{
	return sd_rdma_of_task(&t->base)->max_send_list_len;
}

doca_error_t sd_rdma_validate_receive(struct doca_task *task)
{
	const struct sd_rdma_task *t = T(task);

	/* No destination is allowed, as on a card: such a receive takes messages without bytes (a write
	 * with immediate, an empty send); a send with bytes fails both tasks with the length error. */
	if (t->dst == NULL)
		return DOCA_SUCCESS;
	return sd_rdma_rule_local(t, t->dst, "destination", sd_rdma_of_task(task)->recv_list_len);
}

doca_error_t sd_rdma_validate_send(struct doca_task *task)
{
	const struct sd_rdma_task *t = T(task);
	uint32_t n;

	TRY(sd_rdma_rule_conn(t, true));
	TRY(sd_rdma_rule_local(t, t->src, "source", sd_send_list_max(t)));
	return sd_rdma_rule_size(t, sd_rdma_list_bytes(t->src, &n), UINT64_MAX);
}

doca_error_t sd_rdma_validate_read(struct doca_task *task)
{
	const struct sd_rdma_task *t = T(task);
	uint32_t n;

	TRY(sd_rdma_rule_conn(t, false));
	TRY(sd_rdma_rule_remote(t, t->src, "source", DOCA_ACCESS_FLAG_RDMA_READ, "RDMA_READ"));
	TRY(sd_rdma_rule_local(t, t->dst, "destination", sd_send_list_max(t)));
	return sd_rdma_rule_size(t, sd_rdma_list_bytes(t->src, &n), sd_rdma_list_room(t->dst));
}

/* write and write with immediate (whose immediate is a message: not across namespaces yet). */
static doca_error_t sd_rdma_validate_write_common(const struct sd_rdma_task *t, bool imm)
{
	uint32_t n;

	TRY(sd_rdma_rule_conn(t, imm));
	TRY(sd_rdma_rule_local(t, t->src, "source", sd_send_list_max(t)));
	TRY(sd_rdma_rule_remote(t, t->dst, "destination", DOCA_ACCESS_FLAG_RDMA_WRITE, "RDMA_WRITE"));
	return sd_rdma_rule_size(t, sd_rdma_list_bytes(t->src, &n), sd_rdma_list_room(t->dst));
}

doca_error_t sd_rdma_validate_write(struct doca_task *task)
{
	return sd_rdma_validate_write_common(T(task), false);
}

doca_error_t sd_rdma_validate_write_imm(struct doca_task *task)
{
	return sd_rdma_validate_write_common(T(task), true);
}

doca_error_t sd_rdma_validate_atomic(struct doca_task *task)
{
	const struct sd_rdma_task *t = T(task);

	TRY(sd_rdma_rule_conn(t, false));
	TRY(sd_rdma_rule_remote(t, t->dst, "destination", DOCA_ACCESS_FLAG_RDMA_ATOMIC, "RDMA_ATOMIC"));
	TRY(sd_rdma_rule_atomic_target(t, t->dst));
	TRY(sd_rdma_rule_local(t, t->result, "result", 1));
	return sd_rdma_rule_size(t, 8, sd_rdma_list_room(t->result));
}

/* The sync event tasks: a connection, an event handle, and one local 8-byte buffer. */
doca_error_t sd_rdma_validate_sync_event(struct doca_task *task)
{
	const struct sd_rdma_task *t = T(task);
	enum sd_rdma_type type = (enum sd_rdma_type)(task->conf - task->ctx->task_types);
	const struct doca_buf *b = type == SD_RDMA_SE_SET ? t->src : type == SD_RDMA_SE_GET ? t->dst : t->result;

	TRY(sd_rdma_rule_conn(t, false));
	if (t->event == NULL)
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "task %p: the remote-net sync event is NULL; pass the handle made by "
					 "doca_sync_event_remote_net_create_from_export [R13]",
					 (const void *)t);
	TRY(sd_rdma_rule_local(t, b, type == SD_RDMA_SE_SET ? "source" : "destination", 1));
	if (type == SD_RDMA_SE_SET)
		return b->data_len >= 8 ? DOCA_SUCCESS
					: SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
							    "task %p: the source holds %zu data bytes; the value "
							    "to set needs 8 [R14]",
							    (const void *)t, b->data_len);
	return sd_rdma_rule_size(t, 8, sd_rdma_list_room(b));
}
