/*
 * rdma_instance.c - creating and destroying DOCA RDMA contexts, and what
 * the context framework needs to know about them.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_cm.h"
#include "rdma_priv.h"
#include "rdma_wake.h"
#include "sd_log.h"

doca_error_t sd_rdma_check(const struct doca_rdma *rdma, const char *func)
{
	if (rdma == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "rdma is NULL; pass a context from doca_rdma_create");
	if (!sd_rdma_is_valid(rdma))
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "%p is not a live RDMA context (doca_rdma_create)",
				    (const void *)rdma);
	return DOCA_SUCCESS;
}

doca_error_t sd_rdma_check_idle(const struct doca_rdma *rdma, const char *func)
{
	doca_error_t err = sd_rdma_check(rdma, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "rdma %p is %s; its configuration can change only while IDLE (stop it first)",
				    (const void *)rdma, sd_ctx_state_name(rdma->ctx.state));
	return DOCA_SUCCESS;
}

bool sd_rdma_task_known(const void *task, enum sd_rdma_type type, const char *func)
{
	if (__builtin_expect(sd_rdma_task_is(task, type), 1))
		return true;
	SD_LOG_ERR_AS(func, "task %p is NULL or not a live RDMA %s task", task, sd_rdma_task_ops[type].name);
	return false;
}

/* Library checks of doca_ctx_start; the framework creates the task pools after them. */
static doca_error_t sd_rdma_start(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = (struct doca_rdma *)ctx;
	uint32_t sends = 0;

	for (int t = SD_RDMA_SEND; t < SD_RDMA_NUM_TYPES; t++)
		if (ctx->task_types[t].configured)
			sends += ctx->task_types[t].num_tasks;
	if (ctx->task_types[SD_RDMA_RECEIVE].configured &&
	    ctx->task_types[SD_RDMA_RECEIVE].num_tasks > rdma->recv_queue_size)
		return SD_REJECT_AS("doca_ctx_start", DOCA_ERROR_INVALID_VALUE,
				    "rdma %p: %u receive tasks exceed the receive queue size %u; lower num_tasks or "
				    "raise doca_rdma_set_recv_queue_size",
				    (void *)rdma, ctx->task_types[SD_RDMA_RECEIVE].num_tasks, rdma->recv_queue_size);
	if (sends > rdma->send_queue_size)
		return SD_REJECT_AS("doca_ctx_start", DOCA_ERROR_INVALID_VALUE,
				    "rdma %p: %u tasks of the send-side types exceed the send queue size %u; lower "
				    "their num_tasks or raise doca_rdma_set_send_queue_size",
				    (void *)rdma, sends, rdma->send_queue_size);
	rdma->rq_head = rdma->rq_tail = NULL;
	return DOCA_SUCCESS;
}

static void sd_rdma_release(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = (struct doca_rdma *)ctx;

	if (rdma->cm != NULL)
		sd_rdma_cm_release(rdma);
	sd_rdma_net_release(rdma);
	sd_rdma_conns_release(rdma);
	sd_rdma_wake_release(rdma);
}

static void sd_rdma_on_stopping(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = (struct doca_rdma *)ctx;

	sd_rdma_net_stopping(rdma);
	sd_rdma_conns_stopping(rdma);
	if (rdma->cm != NULL)
		sd_rdma_cm_stopping(rdma);
}

static bool sd_rdma_event_pending(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = (struct doca_rdma *)ctx;

	if (ctx->state != DOCA_CTX_STATE_RUNNING)
		return false;
	/* Completes sends and fills receives in place: nothing to dispatch, but news for a PE being armed. */
	bool made_ready = sd_rdma_net_progress(rdma);
	if (sd_rdma_inbox_pending(rdma) || (rdma->cm != NULL && sd_rdma_cm_pending(rdma)))
		return true;
	if (!made_ready)
		sd_rdma_inbox_give_way(rdma);
	/* Nothing to report and the program is about to sleep on its handle: arrange to be woken. */
	return atomic_load_explicit(&ctx->pe->armed, memory_order_relaxed) && (made_ready || sd_rdma_wake_arm(rdma));
}

static void sd_rdma_event_dispatch(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = (struct doca_rdma *)ctx;

	if (rdma->cm != NULL && sd_rdma_cm_dispatch(rdma))
		return;
	sd_rdma_inbox_drain(rdma);
}

const struct sd_ctx_ops sd_rdma_ctx_ops = {
	.type_name = "doca_rdma",
	.start = sd_rdma_start,
	.sync_start = true,
	.release = sd_rdma_release,
	.on_stopping = sd_rdma_on_stopping,
	.event_pending = sd_rdma_event_pending,
	.event_dispatch = sd_rdma_event_dispatch,
};

static _Atomic uint64_t sd_rdma_next_serial = 1;

/*
 * SOFTDOCA_RDMA_YIELD: 1 (the default), idle passes that wait on a peer
 * yield the CPU (docs/rdma.md); 0, they spin, for a program that owns its
 * cores.  Read at each doca_rdma_create, never on the progress path.
 */
static bool sd_rdma_give_way_wanted(void)
{
	const char *v = getenv("SOFTDOCA_RDMA_YIELD");

	if (v == NULL || strcmp(v, "1") == 0)
		return true;
	if (strcmp(v, "0") == 0)
		return false;
	static atomic_bool warned;
	if (!atomic_exchange(&warned, true))
		SD_LOG_WARN("SOFTDOCA_RDMA_YIELD=%s is neither 0 nor 1; using 1 (idle passes waiting on a peer "
			    "yield the CPU)",
			    v);
	return true;
}

static void sd_rdma_defaults(struct doca_rdma *rdma, const struct sd_device *node)
{
	rdma->node = node;
	rdma->serial = atomic_fetch_add(&sd_rdma_next_serial, 1);
	rdma->send_queue_size = node->caps.rdma_max_send_queue < 4096 ? node->caps.rdma_max_send_queue : 4096;
	rdma->recv_queue_size = node->caps.rdma_max_recv_queue < 4096 ? node->caps.rdma_max_recv_queue : 4096;
	rdma->max_send_list_len = 1;
	rdma->recv_list_len = 1;
	rdma->transport = DOCA_RDMA_TRANSPORT_TYPE_RC;
	rdma->mtu = DOCA_MTU_SIZE_1K_BYTES;
	rdma->permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	rdma->gid_index = 0;
	rdma->cm_timeout_ms = 5000;
	rdma->max_conns = 1;
	rdma->rnr_retry = 7;
	rdma->give_way = sd_rdma_give_way_wanted();
}

doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma)
{
	struct doca_rdma *inst;

	if (rdma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer rdma is NULL");
	if (dev == NULL || !priv_doca_dev_is_valid(dev))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dev %p is NULL or not an open device", (void *)dev);
	if (!dev->node->caps.rdma)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED,
				 "device %s has no RDMA capability in its profile; open a device whose profile has rdma",
				 dev->node->pci_addr);
	inst = calloc(1, sizeof(*inst));
	if (inst == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "cannot allocate an RDMA context on device %s",
				 dev->node->pci_addr);
	priv_doca_ctx_init(&inst->ctx, &sd_rdma_ctx_ops, dev);
	for (int t = 0; t < SD_RDMA_NUM_TYPES; t++) {
		if (priv_doca_ctx_add_task_type(&inst->ctx, &sd_rdma_task_ops[t]) != t) {
			(void)priv_doca_ctx_fini(&inst->ctx, __func__);
			free(inst);
			return SD_REJECT(DOCA_ERROR_INITIALIZATION, "cannot register the RDMA task types");
		}
	}
	sd_rdma_defaults(inst, dev->node);
	inst->magic = SD_RDMA_MAGIC;
	*rdma = inst;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_destroy(struct doca_rdma *rdma)
{
	doca_error_t err = sd_rdma_check(rdma, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	err = priv_doca_ctx_fini(&rdma->ctx, __func__); /* refuses a context that is not IDLE */
	if (err != DOCA_SUCCESS)
		return err;
	if (rdma->cm != NULL)
		sd_rdma_cm_release(rdma);
	sd_rdma_conns_release(rdma);
	sd_rdma_wake_release(rdma);
	rdma->magic = 0;
	free(rdma);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma)
{
	if (sd_rdma_check(rdma, __func__) != DOCA_SUCCESS)
		return NULL;
	return &rdma->ctx;
}
