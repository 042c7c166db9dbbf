/*
 * comch_producer.c - the producer object and its context.
 *
 * A producer needs nothing from the other side to start (it starts at
 * once, as in DOCA); what it sends to is looked up per send by consumer id
 * among the consumers the other side announced on the same connection.
 */
#include <stdlib.h>

#include "comch_fp_priv.h"
#include "sd_log.h"

doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
					struct doca_comch_producer **producer)
{
	struct sd_comch_ep *ep = sd_fp_conn_ep(comch_connection, __func__);
	struct sd_fp_table *t;
	struct doca_comch_producer *p;

	if (ep == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (producer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "producer is NULL");
	if (comch_connection->app != SD_APP_LIVE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "comch_connection %p is not established; create the producer "
						       "after the connection callback (or client start) reported it",
				 (void *)comch_connection);
	t = sd_fp_table_of(ep);
	p = calloc(1, sizeof(*p));
	if (t == NULL || p == NULL) {
		free(p);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "out of memory for a Comch producer");
	}
	priv_doca_ctx_init(&p->ctx, &sd_fp_producer_ops, ep->ctx.dev);
	(void)priv_doca_ctx_add_task_type(&p->ctx, &sd_fp_send_ops);
	p->magic = SD_FP_PRODUCER_MAGIC;
	p->ep = ep;
	p->conn = comch_connection;
	p->conn_gen = comch_connection->gen;
	p->id = sd_fp_next_id(&t->next_producer_id);
	atomic_fetch_add(&ep->fp_users, 1);
	*producer = p;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer)
{
	doca_error_t err;

	if (!sd_fp_producer_valid(producer))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "producer %p is NULL or not a Comch producer",
				 (void *)producer);
	err = priv_doca_ctx_fini(&producer->ctx, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	atomic_fetch_sub(&producer->ep->fp_users, 1);
	producer->magic = 0;
	free(producer);
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id)
{
	if (!sd_fp_producer_valid(producer) || id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL or invalid (producer %p)",
				 id == NULL ? "id" : "producer", (const void *)producer);
	*id = producer->id;
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer)
{
	if (!sd_fp_producer_valid(producer)) {
		SD_LOG_ERR("producer %p is NULL or not a Comch producer", (void *)producer);
		return NULL;
	}
	return &producer->ctx;
}

doca_error_t doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer,
						    doca_comch_producer_task_send_completion_cb_t task_completion_cb,
						    doca_comch_producer_task_send_completion_cb_t task_error_cb,
						    uint32_t num_send_tasks)
{
	if (!sd_fp_producer_valid(producer))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "producer %p is NULL or not a Comch producer",
				 (void *)producer);
	if (producer->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "producer %p is %s; send tasks are configured while IDLE",
				 (void *)producer, sd_ctx_state_name(producer->ctx.state));
	if (task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (producer %p)",
				 task_completion_cb == NULL ? "completion" : "error", (void *)producer);
	if (num_send_tasks == 0 || num_send_tasks > SD_FP_MAX_TASKS)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_send_tasks %u is out of range 1..%u (producer %p)",
				 num_send_tasks, SD_FP_MAX_TASKS, (void *)producer);
	priv_doca_ctx_conf_task_type(&producer->ctx, 0, (void (*)(void))task_completion_cb,
				     (void (*)(void))task_error_cb, num_send_tasks);
	return DOCA_SUCCESS;
}

static doca_error_t sd_fp_producer_start(struct doca_ctx *ctx)
{
	struct doca_comch_producer *p = (struct doca_comch_producer *)ctx;

	if (!ctx->task_types[0].configured)
		return SD_REJECT_AS("doca_ctx_start", DOCA_ERROR_BAD_STATE, "producer %p: configure send tasks "
						       "(doca_comch_producer_task_send_set_conf) before the start",
				 (void *)p);
	if (!sd_fp_conn_current(p->conn, p->conn_gen))
		return SD_REJECT_AS("doca_ctx_start", DOCA_ERROR_NOT_CONNECTED,
				 "producer %p: its connection %p is closed; create a new producer on a live connection",
				 (void *)p, (void *)p->conn);
	return DOCA_SUCCESS;
}

const struct sd_ctx_ops sd_fp_producer_ops = {
	.type_name = "doca_comch_producer",
	.start = sd_fp_producer_start,
	.sync_start = true,
};
