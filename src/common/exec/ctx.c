/*
 * ctx.c - the generic context: lifecycle, state callbacks, configuration.
 *
 * Implements the state machine of docs/decisions.md (T1..T8).  Library specifics come in through
 * struct sd_ctx_ops; nothing here knows which library a context belongs to.
 */
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"
#include "sd_debug.h"
#include "sd_dev.h"
#include "sd_log.h"

bool sd_ctx_idle_eligible(struct doca_ctx *ctx)
{
	if (ctx->state != DOCA_CTX_STATE_STOPPING || ctx->inflight != 0 || ctx->allocated != 0)
		return false;
	return ctx->ops->has_outstanding == NULL || !ctx->ops->has_outstanding(ctx);
}

void sd_ctx_transition(struct doca_ctx *ctx, enum doca_ctx_states next)
{
	enum doca_ctx_states prev = ctx->state;
	doca_ctx_state_changed_callback_t cb = ctx->state_cb;
	union doca_data user_data = ctx->user_data;

	if (next == DOCA_CTX_STATE_STOPPING && ctx->pe != NULL)
		ctx->pe->stopping++;
	if (prev == DOCA_CTX_STATE_STOPPING && ctx->pe != NULL)
		ctx->pe->stopping--;
	ctx->state = next;
	sd_debug_ctx_state(ctx, prev, next); /* issue 12: trace, stop reasons */
	/* Last action: the callback may destroy the context when next is IDLE. */
	if (cb != NULL)
		cb(user_data, ctx, prev, next);
}

void sd_ctx_enter_stopping(struct doca_ctx *ctx)
{
	/*
	 * Tasks still in flight are flushed lazily: doca_pe_progress reports
	 * every task whose context is no longer RUNNING with
	 * DOCA_ERROR_SHUTDOWN, which keeps the FIFO in submission order.
	 */
	if (ctx->ops->on_stopping != NULL)
		ctx->ops->on_stopping(ctx);
	sd_ctx_transition(ctx, DOCA_CTX_STATE_STOPPING);
}

void sd_ctx_finish_stop(struct doca_ctx *ctx)
{
	sd_ctx_pools_destroy(ctx);
	if (ctx->ops->release != NULL)
		ctx->ops->release(ctx);
	sd_ctx_transition(ctx, DOCA_CTX_STATE_IDLE);
}

/* ---- framework side used by the libraries ---- */

void priv_doca_ctx_init(struct doca_ctx *ctx, const struct sd_ctx_ops *ops, struct doca_dev *dev)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->magic = SD_CTX_MAGIC;
	ctx->state = DOCA_CTX_STATE_IDLE;
	ctx->ops = ops;
	ctx->dev = dev;
	if (dev != NULL)
		priv_doca_dev_dep_get(dev);
	sd_debug_ctx_created(ctx); /* issue 12: registry */
}

static void sd_pe_unlink_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	struct doca_ctx **link = &pe->ctxs;

	while (*link != NULL && *link != ctx)
		link = &(*link)->pe_next;
	if (*link == NULL)
		return;
	*link = ctx->pe_next;
	pe->num_ctxs--;
	if (ctx->ops->event_pending != NULL || ctx->ops->start_complete != NULL)
		pe->event_ctxs--;
}

doca_error_t priv_doca_ctx_fini(struct doca_ctx *ctx, const char *func)
{
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SD_LOG_ERR_AS(func, "context is %s, an instance can be destroyed only while IDLE (%s %p)%s",
				  sd_ctx_state_name(ctx->state), ctx->ops->type_name, (void *)ctx,
				  sd_debug_ctx_note(ctx)); /* issue 12: why, and what to do */
		return DOCA_ERROR_BAD_STATE;
	}
	sd_debug_ctx_destroyed(ctx); /* issue 12 */
	if (ctx->pe != NULL)
		sd_pe_unlink_ctx(ctx->pe, ctx);
	if (ctx->dev != NULL)
		priv_doca_dev_dep_put(ctx->dev);
	ctx->magic = 0;
	ctx->pe = NULL;
	return DOCA_SUCCESS;
}

int priv_doca_ctx_add_task_type(struct doca_ctx *ctx, const struct sd_task_ops *ops)
{
	if (ctx->num_task_types >= SD_CTX_MAX_TASK_TYPES)
		return -1;
	ctx->task_types[ctx->num_task_types].ops = ops;
	return (int)ctx->num_task_types++;
}

void priv_doca_ctx_conf_task_type(struct doca_ctx *ctx, int idx, void (*success_cb)(void), void (*error_cb)(void),
				  uint32_t num_tasks)
{
	struct sd_task_conf *conf = &ctx->task_types[idx];

	conf->success_cb = success_cb;
	conf->error_cb = error_cb;
	conf->num_tasks = num_tasks;
	conf->configured = true;
}

void priv_doca_ctx_fatal_stop(struct doca_ctx *ctx)
{
	if (ctx->state != DOCA_CTX_STATE_RUNNING && ctx->state != DOCA_CTX_STATE_STARTING)
		return;
	sd_ctx_enter_stopping(ctx);
	sd_pe_notify(ctx->pe);
}

/* ---- public API ---- */

doca_error_t doca_ctx_start(struct doca_ctx *ctx)
{
	doca_error_t err;

	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (void *)ctx);
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "context is %s, only an IDLE context can be started (%s %p)",
				 sd_ctx_state_name(ctx->state), ctx->ops->type_name, (void *)ctx);
	if (ctx->pe == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED,
				 "context is not connected to a progress engine, call doca_pe_connect_ctx first (%s %p)",
				 ctx->ops->type_name, (void *)ctx);
	if ((err = sd_debug_ctx_start(ctx)) != DOCA_SUCCESS) /* issue 12: watchdog, start faults */
		return err;
	if (ctx->ops->start != NULL) {
		err = ctx->ops->start(ctx);
		if (err != DOCA_SUCCESS)
			return err; /* the library logged the broken rule */
	}
	err = sd_ctx_pools_create(ctx);
	if (err != DOCA_SUCCESS) {
		if (ctx->ops->release != NULL)
			ctx->ops->release(ctx);
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, "could not allocate the task pools (%s %p)",
				 ctx->ops->type_name, (void *)ctx);
	}
	ctx->inflight = 0;
	ctx->allocated = 0;
	ctx->freed_in_flight = 0;
	if (ctx->ops->sync_start) {
		sd_ctx_transition(ctx, DOCA_CTX_STATE_RUNNING);
		return DOCA_SUCCESS;
	}
	sd_ctx_transition(ctx, DOCA_CTX_STATE_STARTING);
	return DOCA_ERROR_IN_PROGRESS;
}

doca_error_t doca_ctx_stop(struct doca_ctx *ctx)
{
	struct doca_pe *pe;

	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (void *)ctx);
	pe = ctx->pe;
	if (pe == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, "context was never connected to a progress engine (%s %p)",
				 ctx->ops->type_name, (void *)ctx);
	if (ctx->state == DOCA_CTX_STATE_IDLE)
		return DOCA_SUCCESS; /* a second stop is a silent success */
	if (ctx->state == DOCA_CTX_STATE_STOPPING)
		return sd_debug_ctx_stop_again(ctx); /* issue 12: IN_PROGRESS; after a failure, why (INFO) */

	sd_ctx_enter_stopping(ctx);
	/* A STOPPING context cannot be destroyed, so ctx is still valid here. */
	if (!pe->dispatching && sd_ctx_idle_eligible(ctx)) {
		sd_ctx_finish_stop(ctx);
		return DOCA_SUCCESS;
	}
	sd_pe_notify(pe);
	return DOCA_ERROR_IN_PROGRESS;
}

doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks)
{
	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (const void *)ctx);
	if (num_inflight_tasks == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_inflight_tasks is NULL (ctx %p)", (const void *)ctx);
	*num_inflight_tasks = (size_t)ctx->inflight;
	return DOCA_SUCCESS;
}

/* Common checks of the two data-path setters softdoca cannot honour. */
static doca_error_t sd_ctx_datapath_refuse(struct doca_ctx *ctx, const void *target, const char *what,
					   const char *func)
{
	if (!sd_ctx_valid(ctx) || target == NULL) {
		SD_LOG_ERR_AS(func, "ctx %p or %s %p is NULL or invalid", (void *)ctx, what,
				  target);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SD_LOG_ERR_AS(func, "context is %s, the data path can be chosen only while IDLE (%s %p)",
				  sd_ctx_state_name(ctx->state), ctx->ops->type_name, (void *)ctx);
		return DOCA_ERROR_BAD_STATE;
	}
	SD_LOG_ERR_AS(func, "softdoca has no %s data path; the context stays on the CPU (%s %p)",
			  what, ctx->ops->type_name, (void *)ctx);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev)
{
	return sd_ctx_datapath_refuse(ctx, gpu_dev, "GPU", __func__);
}

doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev)
{
	return sd_ctx_datapath_refuse(ctx, dpa_dev, "DPA", __func__);
}

doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data)
{
	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (void *)ctx);
	ctx->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data)
{
	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (const void *)ctx);
	if (user_data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "user_data is NULL (ctx %p)", (const void *)ctx);
	*user_data = ctx->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb)
{
	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (void *)ctx);
	if (cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "cb is NULL; a state callback cannot be removed (ctx %p)",
				 (void *)ctx);
	ctx->state_cb = cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state)
{
	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (const void *)ctx);
	if (state == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "state is NULL (ctx %p)", (const void *)ctx);
	*state = ctx->state;
	return DOCA_SUCCESS;
}

void doca_ctx_flush_tasks(struct doca_ctx *ctx)
{
	if (!sd_ctx_valid(ctx)) {
		SD_LOG_ERR("ctx %p is NULL or not a live context; nothing flushed", (void *)ctx);
		return;
	}
	if (ctx->state == DOCA_CTX_STATE_IDLE) {
		SD_LOG_ERR("context is IDLE, there is nothing to flush (%s %p)", ctx->ops->type_name, (void *)ctx);
		return;
	}
	/* Submitted tasks are always eligible at once: nothing to push. */
}

doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx, uint32_t comp_vector)
{
	uint32_t available;

	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (void *)ctx);
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE,
				 "context is %s, the completion vector can be set only while IDLE (%s %p)",
				 sd_ctx_state_name(ctx->state), ctx->ops->type_name, (void *)ctx);
	available = ctx->dev != NULL ? sd_dev_node(ctx->dev)->caps.num_comp_vectors : 1;
	if (comp_vector >= available)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "completion vector %u is out of range, the device has %u (%s %p)", comp_vector,
				 available, ctx->ops->type_name, (void *)ctx);
	ctx->comp_vector = comp_vector;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_cap_get_num_completion_vectors(const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors)
{
	const struct sd_device *node;

	if (devinfo == NULL || num_comp_vectors == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p or num_comp_vectors %p is NULL",
				 (const void *)devinfo, (void *)num_comp_vectors);
	node = priv_doca_devinfo_node(devinfo);
	if (node == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "devinfo %p is not a device info of this process",
				 (const void *)devinfo);
	*num_comp_vectors = node->caps.num_comp_vectors;
	return DOCA_SUCCESS;
}
