/*
 * comch_consumer.c - the consumer object and its context.
 *
 * Start (asynchronous, as in DOCA: doca_ctx_start answers IN_PROGRESS)
 * creates the post queue, exports the consumer's mmap and announces both to
 * the other side; the context turns RUNNING on the next progress call.
 * Over TCP (SOFTDOCA_PEER) the consumer is "framed": the other side cannot
 * map its queue, so posts and filled slots travel as frames on the
 * connection and the bytes through the import of the exported mmap (UCX
 * across namespaces).
 * Stopping closes the queue to producers and withdraws the announcement;
 * posted receives are flushed with DOCA_ERROR_SHUTDOWN.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_mmap.h>

#include "comch_fp_priv.h"
#include "sd_log.h"
#include "sd_mem.h"

/* Index of the post-receive task type in the context's task table. */
#define SD_FP_RECV_TYPE 0

doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection, struct doca_mmap *buf_mmap,
					struct doca_comch_consumer **consumer)
{
	struct sd_comch_ep *ep = sd_fp_conn_ep(comch_connection, __func__);
	struct sd_fp_table *t;
	struct doca_comch_consumer *c;

	if (ep == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_mmap == NULL || consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL", buf_mmap == NULL ? "buf_mmap" : "consumer");
	if (buf_mmap->magic != SD_MMAP_MAGIC || buf_mmap->from_export)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "buf_mmap %p is not a local mmap; a consumer lends buffers of its own memory",
				 (void *)buf_mmap);
	if (comch_connection->app != SD_APP_LIVE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "comch_connection %p is not established; create the consumer "
						       "after the connection callback (or client start) reported it",
				 (void *)comch_connection);
	t = sd_fp_table_of(ep);
	c = calloc(1, sizeof(*c));
	if (t == NULL || c == NULL) {
		free(c);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "out of memory for a Comch consumer");
	}
	priv_doca_ctx_init(&c->ctx, &sd_fp_consumer_ops, ep->ctx.dev);
	(void)priv_doca_ctx_add_task_type(&c->ctx, &sd_fp_post_recv_ops);
	c->magic = SD_FP_CONSUMER_MAGIC;
	c->ep = ep;
	c->conn = comch_connection;
	c->conn_gen = comch_connection->gen;
	c->mmap = buf_mmap;
	c->id = sd_fp_next_id(&t->next_consumer_id);
	c->qfd = -1;
	atomic_fetch_add(&ep->fp_users, 1);
	*consumer = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer)
{
	doca_error_t err;

	if (!sd_fp_consumer_valid(consumer))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "consumer %p is NULL or not a Comch consumer",
				 (void *)consumer);
	err = priv_doca_ctx_fini(&consumer->ctx, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	atomic_fetch_sub(&consumer->ep->fp_users, 1);
	consumer->magic = 0;
	free(consumer);
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id)
{
	if (!sd_fp_consumer_valid(consumer) || id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL or invalid (consumer %p)",
				 id == NULL ? "id" : "consumer", (const void *)consumer);
	*id = consumer->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer, uint32_t *imm_data_len)
{
	if (!sd_fp_consumer_valid(consumer) || imm_data_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL or invalid (consumer %p)",
				 imm_data_len == NULL ? "imm_data_len" : "consumer", (const void *)consumer);
	*imm_data_len = consumer->imm_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len)
{
	if (!sd_fp_consumer_valid(consumer))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "consumer %p is NULL or not a Comch consumer",
				 (void *)consumer);
	if (consumer->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "consumer %p is %s; its immediate-data length can be set only while IDLE",
				 (void *)consumer, sd_ctx_state_name(consumer->ctx.state));
	if (imm_data_len > SD_FP_MAX_IMM)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "imm_data_len %u is above the %u bytes a consumer supports; ask "
				 "doca_comch_consumer_cap_get_max_imm_data_len (consumer %p)",
				 imm_data_len, SD_FP_MAX_IMM, (void *)consumer);
	consumer->imm_len = imm_data_len;
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer)
{
	if (!sd_fp_consumer_valid(consumer)) {
		SD_LOG_ERR("consumer %p is NULL or not a Comch consumer", (void *)consumer);
		return NULL;
	}
	return &consumer->ctx;
}

doca_error_t doca_comch_consumer_task_post_recv_set_conf(
	struct doca_comch_consumer *consumer, doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
	doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb, uint32_t num_post_recv_tasks)
{
	if (!sd_fp_consumer_valid(consumer))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "consumer %p is NULL or not a Comch consumer",
				 (void *)consumer);
	if (consumer->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "consumer %p is %s; post-receive tasks are configured while IDLE",
				 (void *)consumer, sd_ctx_state_name(consumer->ctx.state));
	if (task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (consumer %p)",
				 task_completion_cb == NULL ? "completion" : "error", (void *)consumer);
	if (num_post_recv_tasks == 0 || num_post_recv_tasks > SD_FP_MAX_TASKS)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_post_recv_tasks %u is out of range 1..%u (consumer %p)",
				 num_post_recv_tasks, SD_FP_MAX_TASKS, (void *)consumer);
	priv_doca_ctx_conf_task_type(&consumer->ctx, SD_FP_RECV_TYPE, (void (*)(void))task_completion_cb,
				     (void (*)(void))task_error_cb, num_post_recv_tasks);
	return DOCA_SUCCESS;
}

/* ---- context hooks ---- */

static struct doca_comch_consumer *sd_fp_consumer_of(struct doca_ctx *ctx)
{
	return (struct doca_comch_consumer *)ctx;
}

/* A refusal of the start hook is the result of doca_ctx_start. */
#define SD_FP_START_REJECT(err, ...) SD_REJECT_AS("doca_ctx_start", err, __VA_ARGS__)

/* The rules a start checks before touching anything. */
static doca_error_t sd_fp_consumer_start_rules(struct doca_comch_consumer *c)
{
	if (!c->ctx.task_types[SD_FP_RECV_TYPE].configured)
		return SD_FP_START_REJECT(DOCA_ERROR_BAD_STATE, "consumer %p: configure post-receive tasks "
						       "(doca_comch_consumer_task_post_recv_set_conf) before the start",
				 (void *)c);
	if (!sd_fp_conn_current(c->conn, c->conn_gen))
		return SD_FP_START_REJECT(DOCA_ERROR_NOT_CONNECTED,
				 "consumer %p: its connection %p is closed; create a new consumer on a live connection",
				 (void *)c, (void *)c->conn);
	return DOCA_SUCCESS;
}

static void sd_fp_consumer_close_queue(struct doca_comch_consumer *c)
{
	if (c->q != NULL)
		atomic_store_explicit(&c->q->closed, 1, memory_order_release);
	sd_fp_wire_withdraw(c);
}

static void sd_fp_consumer_release(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *c = sd_fp_consumer_of(ctx);

	sd_fp_wake_stop(c);
	sd_fp_consumer_close_queue(c);
	sd_fp_local_remove(c->ep, c);
	sd_fp_queue_unmap(c->q, c->q_len);
	c->q = NULL;
	if (c->qfd >= 0)
		close(c->qfd);
	c->qfd = -1;
}

static doca_error_t sd_fp_consumer_start(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *c = sd_fp_consumer_of(ctx);
	const void *desc;
	size_t desc_len;
	doca_error_t err = sd_fp_consumer_start_rules(c);

	if (err != DOCA_SUCCESS)
		return err;
	c->nslots = ctx->task_types[SD_FP_RECV_TYPE].num_tasks;
	/* Over TCP the other side may be in another namespace or machine: no shared queue then. */
	c->framed = c->ep->io.tcp;
	c->posts_sent = 0;
	err = sd_fp_queue_create(c->nslots, c->imm_len, &c->qfd, &c->q, &c->q_len, "doca_ctx_start");
	if (err != DOCA_SUCCESS)
		return err;
	if (!sd_fp_local_add(c->ep, c)) {
		sd_fp_consumer_release(ctx);
		return SD_FP_START_REJECT(DOCA_ERROR_FULL, "consumer %p: %u consumers of this endpoint are started "
							   "already; stop one first",
					  (void *)c, SD_FP_MAX_PEERS);
	}
	err = doca_mmap_export_pci(c->mmap, ctx->dev, &desc, &desc_len);
	if (err == DOCA_SUCCESS)
		err = sd_fp_wire_announce(c, desc, desc_len, "doca_ctx_start");
	if (err != DOCA_SUCCESS)
		sd_fp_consumer_release(ctx);
	return err;
}

static bool sd_fp_consumer_start_complete(struct doca_ctx *ctx)
{
	(void)ctx;
	return true; /* the announcement is on its way; receives may be posted */
}

static void sd_fp_consumer_on_stopping(struct doca_ctx *ctx)
{
	sd_fp_consumer_close_queue(sd_fp_consumer_of(ctx));
}

const struct sd_ctx_ops sd_fp_consumer_ops = {
	.type_name = "doca_comch_consumer",
	.start = sd_fp_consumer_start,
	.sync_start = false,
	.release = sd_fp_consumer_release,
	.on_stopping = sd_fp_consumer_on_stopping,
	.start_complete = sd_fp_consumer_start_complete,
};
