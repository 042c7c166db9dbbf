/*
 * exec_internal.h - pieces shared by ctx.c, pe.c and task.c.
 *
 * These helpers implement the context state machine (T1..T8 of
 * docs/decisions.md) and the notification rule.  They are private to src/common/exec.
 */
#ifndef SD_EXEC_INTERNAL_H
#define SD_EXEC_INTERNAL_H

#include <stdbool.h>

#include "sd_exec.h"

static inline bool sd_ctx_valid(const struct doca_ctx *ctx)
{
	return ctx != NULL && ctx->magic == SD_CTX_MAGIC;
}

static inline bool sd_pe_valid(const struct doca_pe *pe)
{
	return pe != NULL && pe->magic == SD_PE_MAGIC;
}

/* A STOPPING context with nothing allocated and no library work left. */
bool sd_ctx_idle_eligible(struct doca_ctx *ctx);

/*
 * Move `ctx` to `next` and fire its state callback.  The callback may
 * destroy the context when `next` is IDLE: the caller must not touch `ctx`
 * afterwards in that case.
 */
void sd_ctx_transition(struct doca_ctx *ctx, enum doca_ctx_states next);

/* RUNNING/STARTING -> STOPPING with its callback (T4, T5, T6). */
void sd_ctx_enter_stopping(struct doca_ctx *ctx);

/* STOPPING -> IDLE: release run-time resources, then the callback (T7, T8). */
void sd_ctx_finish_stop(struct doca_ctx *ctx);

/* Task pools of every configured task type (context start / stop). */
doca_error_t sd_ctx_pools_create(struct doca_ctx *ctx);
void sd_ctx_pools_destroy(struct doca_ctx *ctx);

/*
 * After the report of a task that doca_task_free was called on while it was
 * in flight: back to its pool unless its callback resubmitted it.
 */
void sd_task_release_after_report(struct doca_task *task);

/* Work pending on `pe`: would doca_pe_progress() return 1 now? */
bool sd_pe_has_work(struct doca_pe *pe);

/* Write the eventfd (make the handle readable). */
void sd_pe_signal(struct doca_pe *pe);

/*
 * The notification rule: after a call that may have created work, wake an
 * armed PE once.  A PE that is not armed costs one relaxed load.
 */
static inline void sd_pe_notify(struct doca_pe *pe)
{
	if (pe != NULL && atomic_load_explicit(&pe->armed, memory_order_relaxed) && sd_pe_has_work(pe)) {
		if (atomic_exchange(&pe->armed, false))
			sd_pe_signal(pe);
	}
}

/*
 * Whether a queued task may be reported now: always with the default
 * engine; with an early engine once the engine is done with it (an engine
 * without threads is asked through the poll hook), and at once when it is
 * to be flushed (its copy no longer matters).
 */
static inline bool sd_task_ready(struct doca_task *task)
{
	const struct sd_task_ops *ops = task->conf->ops;

	if (ops->on_submit == NULL || atomic_load_explicit(&task->ready, memory_order_acquire) != 0)
		return true;
	if (task->ctx->state == DOCA_CTX_STATE_RUNNING) {
		if (ops->poll == NULL || !ops->poll(task))
			return false;
		atomic_store_explicit(&task->ready, 1, memory_order_relaxed);
		return true;
	}
	ops->cancel(task);
	return true;
}

#endif /* SD_EXEC_INTERNAL_H */
