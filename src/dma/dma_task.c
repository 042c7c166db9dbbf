/*
 * dma_task.c - configuring, allocating and inspecting memcpy tasks.
 *
 * The pool, ownership and counters belong to the context framework; this
 * file adds the DMA-specific checks and the two buffer pointers.
 */
#include <doca_dma.h>

#include "dma_priv.h"
#include "sd_log.h"

doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
					   doca_dma_task_memcpy_completion_cb_t task_completion_cb,
					   doca_dma_task_memcpy_completion_cb_t task_error_cb,
					   uint32_t num_memcpy_tasks)
{
	if (dma == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "dma is NULL");
	if (!sd_dma_is_valid(dma))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live DMA instance", (void *)dma);
	if (dma->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "context is %s, tasks can be configured only while IDLE (dma %p)",
				 sd_ctx_state_name(dma->ctx.state), (void *)dma);
	if (task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (dma %p)",
				 task_completion_cb == NULL ? "completion" : "error", (void *)dma);
	if (num_memcpy_tasks == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_memcpy_tasks is 0, at least one task is needed (dma %p)",
				 (void *)dma);
	if (num_memcpy_tasks > dma->max_tasks)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE,
				 "num_memcpy_tasks %u exceeds the device maximum %u (dma %p)", num_memcpy_tasks,
				 dma->max_tasks, (void *)dma);

	priv_doca_ctx_conf_task_type(&dma->ctx, SD_DMA_MEMCPY_TYPE, (void (*)(void))task_completion_cb,
				     (void (*)(void))task_error_cb, num_memcpy_tasks);
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma,
					     const struct doca_buf *src,
					     struct doca_buf *dst,
					     union doca_data user_data,
					     struct doca_dma_task_memcpy **task)
{
	struct doca_task *base;
	struct doca_dma_task_memcpy *t;
	doca_error_t err;

	if (dma == NULL || task == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL", dma == NULL ? "dma" : "output pointer task");
	if (!sd_dma_is_valid(dma))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live DMA instance", (void *)dma);

	/* RUNNING and pool checks, with their diagnostics, are the framework's. */
	err = priv_doca_task_alloc(&dma->ctx, SD_DMA_MEMCPY_TYPE, user_data, &base, __func__);
	if (err != DOCA_SUCCESS)
		return err;

	t = (struct doca_dma_task_memcpy *)base;
	t->src = src;
	t->dst = dst;
	*task = t;
	return DOCA_SUCCESS;
}

/* `task` is a memcpy task of a DMA context; one ERROR record naming `func` otherwise. */
static inline bool sd_dma_task_known(const struct doca_dma_task_memcpy *task, const char *func)
{
	if (__builtin_expect(sd_task_of_ctx_type((const struct doca_task *)task, &sd_dma_ctx_ops), 1))
		return true;
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func,
			     "task %p is NULL or not a DMA memcpy task", (const void *)task);
	return false;
}

/* doca_dma_task_memcpy_as_task on something that is no task (kept off the submit path). */
static __attribute__((noinline, cold)) struct doca_task *sd_dma_as_task_refuse(const void *task)
{
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "doca_dma_task_memcpy_as_task",
			     "task %p is NULL or not a task", task);
	return NULL;
}

/*
 * Called once per task on the submit path: only the framework's task magic
 * is checked (the view is the same pointer; the call that takes it checks
 * the rest).  The typed accessors below also check the task's type.
 */
struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task)
{
	if (__builtin_expect(!sd_task_is_task((const struct doca_task *)task), 0))
		return sd_dma_as_task_refuse(task);
	return &task->base;
}

/*
 * Whether a setter may change `task` now; logs the misuse otherwise.  `func`
 * is the public setter, named in the diagnostic.
 */
static bool sd_dma_task_settable(const struct doca_dma_task_memcpy *task, const char *func)
{
	if (task->base.own == SD_TASK_IN_FLIGHT) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func,
				     "task %p is in flight, its buffers cannot change until its callback runs; ignored",
				     (const void *)task);
		return false;
	}
	if (task->base.own == SD_TASK_FREE) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func, "task %p was freed; ignored",
				     (const void *)task);
		return false;
	}
	return true;
}

void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src)
{
	if (sd_dma_task_known(task, __func__) && sd_dma_task_settable(task, __func__))
		task->src = src;
}

const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task)
{
	return sd_dma_task_known(task, __func__) ? task->src : NULL;
}

void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst)
{
	if (sd_dma_task_known(task, __func__) && sd_dma_task_settable(task, __func__))
		task->dst = dst;
}

struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task)
{
	return sd_dma_task_known(task, __func__) ? task->dst : NULL;
}
