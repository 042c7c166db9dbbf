/*
 * task.c - task pools and the generic task API.
 *
 * Pools are sized at context start (exactly the configured count) and
 * released when the context reaches IDLE.  Allocation, submission and free
 * are O(1), with no allocation, lock or system call (the one exception is
 * the eventfd write that wakes an armed PE).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"
#include "sd_debug.h"
#include "sd_log.h"

/* ---- pools ---- */

/*
 * Slots start on cache lines (sd_lines.h): a task then spans as few lines
 * as its size allows, whatever its index, and its first line holds the
 * framework's fields.
 */
static size_t sd_task_stride(size_t task_size)
{
	return (task_size + SD_LINE - 1) / SD_LINE * SD_LINE;
}

static doca_error_t sd_pool_create(struct doca_ctx *ctx, struct sd_task_conf *conf)
{
	struct sd_task_pool *pool = &conf->pool;

	pool->stride = sd_task_stride(conf->ops->task_size);
	pool->capacity = conf->num_tasks;
	pool->slab = sd_lines_calloc(pool->capacity, pool->stride);
	pool->free_stack = calloc(pool->capacity, sizeof(*pool->free_stack));
	if (pool->slab == NULL || pool->free_stack == NULL) {
		free(pool->slab);
		free(pool->free_stack);
		memset(pool, 0, sizeof(*pool));
		return DOCA_ERROR_NO_MEMORY;
	}
	/* Stack the slots so the first allocation returns slot 0. */
	for (uint32_t i = 0; i < pool->capacity; i++) {
		struct doca_task *task = (struct doca_task *)(pool->slab + (size_t)i * pool->stride);

		task->magic = SD_TASK_MAGIC;
		task->ctx = ctx;
		task->conf = conf;
		task->slot = i;
		task->own = SD_TASK_FREE;
		/* issue 12: while debugging, every task takes the paths with the hooks. */
		task->early = conf->ops->on_submit != NULL || priv_doca_debug_flags != 0;
		pool->free_stack[pool->capacity - 1 - i] = task;
	}
	pool->nfree = pool->capacity;
	return DOCA_SUCCESS;
}

static void sd_pool_destroy(struct sd_task_pool *pool)
{
	free(pool->slab);
	free(pool->free_stack);
	memset(pool, 0, sizeof(*pool));
}

doca_error_t sd_ctx_pools_create(struct doca_ctx *ctx)
{
	for (uint32_t i = 0; i < ctx->num_task_types; i++) {
		struct sd_task_conf *conf = &ctx->task_types[i];

		if (!conf->configured || conf->num_tasks == 0)
			continue;
		if (sd_pool_create(ctx, conf) != DOCA_SUCCESS) {
			sd_ctx_pools_destroy(ctx);
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	return DOCA_SUCCESS;
}

void sd_ctx_pools_destroy(struct doca_ctx *ctx)
{
	for (uint32_t i = 0; i < ctx->num_task_types; i++)
		sd_pool_destroy(&ctx->task_types[i].pool);
}

doca_error_t priv_doca_task_alloc(struct doca_ctx *ctx, int idx, union doca_data user_data, struct doca_task **task,
				  const char *func)
{
	struct sd_task_conf *conf = &ctx->task_types[idx];
	struct sd_task_pool *pool = &conf->pool;
	struct doca_task *t;

	if (ctx->state != DOCA_CTX_STATE_RUNNING) {
		SD_LOG_ERR_AS(func, "context is %s, tasks can be allocated only while RUNNING (%s %p)",
				  sd_ctx_state_name(ctx->state), ctx->ops->type_name, (void *)ctx);
		return DOCA_ERROR_BAD_STATE;
	}
	if (pool->nfree == 0) {
		SD_LOG_ERR_AS(func, "all %u %s tasks are allocated; free one or configure a larger pool (%s %p)",
				  pool->capacity, conf->ops->name, ctx->ops->type_name, (void *)ctx);
		return DOCA_ERROR_NO_MEMORY;
	}
	t = pool->free_stack[--pool->nfree];
	t->own = SD_TASK_APP;
	t->status = DOCA_SUCCESS;
	t->user_data = user_data;
	t->next = NULL;
	t->graph_node = NULL;
	ctx->allocated++;
	*task = t;
	return DOCA_SUCCESS;
}

/* ---- submission ---- */

/*
 * The first checks of every submit path (a task, not free, not in flight,
 * its context RUNNING); logs nothing.  A slot with the task magic lies in a
 * live pool, whose context is alive, so the magic stands in for a check of
 * the context.
 */
static inline __attribute__((always_inline)) doca_error_t sd_task_submit_rule(const struct doca_task *task)
{
	if (!sd_task_is_task(task) || task->own == SD_TASK_FREE)
		return DOCA_ERROR_INVALID_VALUE;
	if (task->own == SD_TASK_IN_FLIGHT)
		return DOCA_ERROR_IN_USE;
	if (task->ctx->state != DOCA_CTX_STATE_RUNNING)
		return DOCA_ERROR_BAD_STATE;
	return DOCA_SUCCESS;
}

/* Log the refusal `err` of a public submit call once (kept out of the submit path). */
static __attribute__((noinline, cold)) doca_error_t sd_task_submit_refuse(struct doca_task *task, doca_error_t err,
									  const char *func)
{
	struct doca_ctx *ctx;

	if (task == NULL) {
		SD_LOG_ERR_AS(func, "task is NULL");
		return err;
	}
	if (err == DOCA_ERROR_INVALID_VALUE) {
		SD_LOG_ERR_AS(func, "task %p was freed, or is not a task at all", (void *)task);
		return err;
	}
	ctx = task->ctx;
	if (err == DOCA_ERROR_IN_USE) {
		SD_LOG_ERR_AS(func, "task %p is already in flight; wait for its callback before resubmitting (%s %p)",
			      (void *)task, ctx->ops->type_name, (void *)ctx);
		return err;
	}
	SD_LOG_ERR_AS(func, "context is %s, tasks can be submitted only while RUNNING (task %p, %s %p)",
		      sd_ctx_state_name(ctx->state), (void *)task, ctx->ops->type_name, (void *)ctx);
	task->status = err; /* an application-owned task records the refusal */
	return err;
}

/* The same checks for a public submit call: the refusal is logged once. */
static inline doca_error_t sd_task_submit_check(struct doca_task *task, const char *func)
{
	doca_error_t err = sd_task_submit_rule(task);

	if (err == DOCA_SUCCESS)
		return DOCA_SUCCESS;
	return sd_task_submit_refuse(task, err, func);
}

/*
 * The rest of queueing for an early engine or an armed PE: start the job,
 * then notify.  A PE armed before this submit must also hear about this
 * task's end when its engine has no thread of its own to say so (arm hook).
 */
static __attribute__((noinline)) void sd_task_enqueue_rest(struct doca_task *task, struct doca_pe *pe)
{
	const struct sd_task_ops *ops = task->conf->ops;

	if (ops->on_submit != NULL) {
		atomic_store_explicit(&task->ready, 0, memory_order_relaxed);
		if (priv_doca_debug_flags == 0 || !sd_debug_engine_fault(task)) /* issue 12: injected fault */
			ops->on_submit(task);
	}
	sd_pe_notify(pe);
	if (ops->arm != NULL && atomic_load_explicit(&pe->armed, memory_order_relaxed) &&
	    atomic_load_explicit(&task->ready, memory_order_acquire) == 0)
		ops->arm(task);
}

/* Append an application-owned task of a RUNNING context to its PE's FIFO. */
static inline __attribute__((always_inline)) void sd_task_link(struct doca_task *task, struct doca_ctx *ctx,
							       struct doca_pe *pe)
{
	task->status = DOCA_ERROR_IN_PROGRESS;
	task->own = SD_TASK_IN_FLIGHT;
	task->next = NULL;
	if (pe->fifo_tail != NULL)
		pe->fifo_tail->next = task;
	else
		pe->fifo_head = task;
	pe->fifo_tail = task;
	ctx->inflight++;
}

/*
 * Queueing for an early engine (or while debugging): the debug hook may
 * refuse the submit (issue 12: fault injection) before anything changes.
 */
static __attribute__((noinline)) doca_error_t sd_task_enqueue_early(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;
	doca_error_t err;

	if (priv_doca_debug_flags != 0 && (err = sd_debug_submit(task)) != DOCA_SUCCESS) /* issue 12 */
		return err;
	if (task->conf->ops->admit != NULL && (err = task->conf->ops->admit(task)) != DOCA_SUCCESS) {
		task->status = err; /* refused by the library: the task stays application-owned */
		return err;
	}
	sd_task_link(task, ctx, ctx->pe);
	task->ready_counted = 0;
	if (sd_task_ops_waiting(task->conf->ops))
		ctx->waiting_queued++;
	sd_task_enqueue_rest(task, ctx->pe);
	return DOCA_SUCCESS;
}

/*
 * Queue an application-owned task of a RUNNING context.  Inlined into the
 * submit calls; with the default engine and a PE that nobody armed it
 * makes no call at all (and cannot fail).
 */
static inline __attribute__((always_inline)) doca_error_t sd_task_enqueue(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;
	struct doca_pe *pe = ctx->pe;

	if (task->early)
		return sd_task_enqueue_early(task);
	sd_task_link(task, ctx, pe);
	if (atomic_load_explicit(&pe->armed, memory_order_relaxed))
		sd_task_enqueue_rest(task, pe);
	return DOCA_SUCCESS;
}

doca_error_t priv_doca_task_submit_internal(struct doca_task *task)
{
	doca_error_t err = sd_task_submit_rule(task);

	if (err == DOCA_SUCCESS)
		err = sd_task_enqueue(task);
	return err;
}

doca_error_t doca_task_submit(struct doca_task *task)
{
	doca_error_t err = sd_task_submit_check(task, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	return sd_task_enqueue(task);
}

doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags)
{
	const uint32_t known = DOCA_TASK_SUBMIT_FLAG_FLUSH | DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS;
	doca_error_t err;

	if (!sd_task_is_task(task))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "task %p is NULL or not a task", (void *)task);
	if ((flags & ~known) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "unknown submit flag bits 0x%x (task %p)", flags & ~known,
				 (void *)task);
	err = sd_task_submit_check(task, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	/* Every task is eligible at once and reported on its own: flags are hints. */
	return sd_task_enqueue(task);
}

/* Set while doca_task_try_submit runs a validate hook on this thread. */
static _Thread_local const char *sd_validating_for;

void priv_doca_task_rule_log(const char *file, int line, const char *fmt, ...)
{
	char text[768];
	va_list ap;

	va_start(ap, fmt);
	if (sd_validating_for == NULL) {
		sd_debug_rule_vlog(file, line, fmt, ap); /* issue 12: the failed task's ERROR record */
		va_end(ap);
		return;
	}
	if (!priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_ERROR)) {
		va_end(ap);
		return;
	}
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, file, line, sd_validating_for, "%s", text);
}

doca_error_t doca_task_try_submit(struct doca_task *task)
{
	doca_error_t err = sd_task_submit_check(task, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	sd_validating_for = __func__;
	err = task->conf->ops->validate(task);
	sd_validating_for = NULL;
	if (err != DOCA_SUCCESS) {
		task->status = err; /* the hook logged the broken rule */
		return err;
	}
	return sd_task_enqueue(task);
}

/* ---- release and accessors ---- */

/* Back to the pool: the allocated counter drops, and a STOPPING context may now go IDLE. */
static void sd_task_release(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;
	struct sd_task_pool *pool = &task->conf->pool;

	task->own = SD_TASK_FREE;
	task->free_pending = 0;
	pool->free_stack[pool->nfree++] = task;
	ctx->allocated--;
	/* The IDLE transition itself is left to the next progress call. */
	if (ctx->state == DOCA_CTX_STATE_STOPPING)
		sd_pe_notify(ctx->pe);
}

/*
 * A free of a task still in flight breaks DOCA's rule (a task is freed only
 * while not submitted), yet DOCA's own secure_channel application frees its
 * posted receives this way before it stops the consumer, and on a card the
 * context still reaches IDLE.  The free is therefore kept, not dropped: the
 * task is reported as usual and returns to its pool after that report
 * (docs/decisions.md, "free in flight").  The first such free of a run is
 * a warning; the rest are debug records, since a program that does it
 * does it for every task it holds.
 */
static __attribute__((noinline, cold)) void sd_task_free_in_flight(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;

	if (task->graph_node != NULL) {
		SD_LOG_ERR_AS("doca_task_free",
			      "task %p is in flight in a graph instance and cannot be freed before the instance "
			      "completes; ignored (%s %p)",
			      (void *)task, ctx->ops->type_name, (void *)ctx);
		return;
	}
	if (task->free_pending) {
		SD_LOG_ERR_AS("doca_task_free", "task %p was already freed while in flight; ignored (%s %p)",
			      (void *)task, ctx->ops->type_name, (void *)ctx);
		return;
	}
	task->free_pending = 1;
	if (ctx->freed_in_flight++ == 0)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "doca_task_free",
				     "task %p is in flight: a task may be freed only while not submitted; it will "
				     "return to its pool after its completion or flush callback (free tasks in "
				     "their callbacks, or after they were reported); further cases of this "
				     "context are logged at debug level (%s %p)",
				     (void *)task, ctx->ops->type_name, (void *)ctx);
	else
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_DEBUG, __FILE__, __LINE__, "doca_task_free",
				     "task %p is in flight; it returns to its pool after its callback (%s %p)",
				     (void *)task, ctx->ops->type_name, (void *)ctx);
}

void doca_task_free(struct doca_task *task)
{
	if (task == NULL)
		return; /* like free(NULL) */
	if (!sd_task_is_task(task) || !sd_ctx_valid(task->ctx) || task->own == SD_TASK_FREE) {
		SD_LOG_ERR("task %p was already freed, or is not a task at all; ignored", (void *)task);
		return;
	}
	if (task->own == SD_TASK_IN_FLIGHT) {
		sd_task_free_in_flight(task);
		return;
	}
	sd_task_release(task);
}

void sd_task_release_after_report(struct doca_task *task)
{
	/* The callback may have freed it (released, mark gone) or resubmitted it (the mark waits on). */
	if (task->free_pending && task->own == SD_TASK_APP)
		sd_task_release(task);
}

#define SD_NOT_A_TASK "task %p is NULL or not a task"

doca_error_t doca_task_get_status(const struct doca_task *task)
{
	if (!sd_task_is_task(task))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, SD_NOT_A_TASK, (const void *)task);
	return task->status;
}

void doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	if (!sd_task_is_task(task)) {
		SD_LOG_ERR(SD_NOT_A_TASK "; user data not stored", (void *)task);
		return;
	}
	task->user_data = user_data;
}

union doca_data doca_task_get_user_data(const struct doca_task *task)
{
	union doca_data none = {.u64 = 0};

	if (!sd_task_is_task(task)) {
		SD_LOG_ERR(SD_NOT_A_TASK "; returning zero user data", (const void *)task);
		return none;
	}
	return task->user_data;
}

struct doca_ctx *doca_task_get_ctx(const struct doca_task *task)
{
	if (!sd_task_is_task(task)) {
		SD_LOG_ERR(SD_NOT_A_TASK, (const void *)task);
		return NULL;
	}
	return task->ctx;
}

/* ---- task batches: no library here allocates one ---- */

#define SD_NO_BATCHES "no softdoca library allocates task batches, so batch %p cannot be valid"

doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch)
{
	if (task_batch == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "task_batch is NULL");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, SD_NO_BATCHES, (void *)task_batch);
}

doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch)
{
	if (task_batch == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "task_batch is NULL");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, SD_NO_BATCHES, (void *)task_batch);
}

void doca_task_batch_free(struct doca_task_batch *task_batch)
{
	SD_LOG_ERR(SD_NO_BATCHES "; ignored", (void *)task_batch);
}

doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch)
{
	if (task_batch == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "task_batch is NULL");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, SD_NO_BATCHES, (const void *)task_batch);
}

void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data)
{
	(void)user_data;
	SD_LOG_ERR(SD_NO_BATCHES "; ignored", (void *)task_batch);
}

union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = {.u64 = 0};

	SD_LOG_ERR(SD_NO_BATCHES, (const void *)task_batch);
	return none;
}

struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch)
{
	SD_LOG_ERR(SD_NO_BATCHES, (const void *)task_batch);
	return NULL;
}

union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = {.u64 = 0};

	SD_LOG_ERR(SD_NO_BATCHES, (const void *)task_batch);
	return none;
}

uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch)
{
	SD_LOG_ERR(SD_NO_BATCHES, (void *)task_batch);
	return 0;
}
