/*
 * advise_task.c - the invalidate-cache task: configuration, allocation,
 * accessors, and its execution as a validated no-op.
 *
 * The CPU engine writes destination bytes with ordinary stores, so there is
 * never a stale cache line to drop.  Executing the task checks the buffer
 * (the same rules doca_task_try_submit applies), issues a full fence so the
 * progress thread observes everything written before, and succeeds.  The
 * buffer's bytes, data pointer and length are never touched.  A failure is
 * reported through the error callback and does not stop the context.
 */
#include <stdatomic.h>

#include <doca_mmap_advise.h>

#include "advise_priv.h"
#include "sd_log.h"
#include "sd_mem.h"

/* ---- the task type seen by the framework ---- */

static inline bool sd_advise_mmap_started(const struct doca_mmap *mmap)
{
	if (mmap == NULL || mmap->magic != SD_MMAP_MAGIC)
		return false;
	return mmap->state == SD_MMAP_STARTED; /* imports start started; a stopped one takes nothing */
}

/*
 * Rules shared by execution and doca_task_try_submit.  A broken rule is
 * reported through the framework's task-rule logger: one ERROR record on
 * behalf of doca_task_try_submit when that call refuses the task, DEBUG
 * when the task is executing (the error callback reports it then).
 */
static doca_error_t sd_advise_validate(struct doca_task *task)
{
	const struct doca_mmap_advise_task_invalidate_cache *t = (const void *)task;
	const struct doca_mmap_advise *advise = (const struct doca_mmap_advise *)task->ctx;
	const struct doca_buf *buf = t->buf;

	if (buf == NULL)
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "invalidate-cache task %p has no buffer; set one with "
					 "doca_mmap_advise_task_invalidate_cache_set_buf",
					 (const void *)task);
	if (!sd_buf_is_live(buf))
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "invalidate-cache task %p names buffer %p, which was already released",
					 (const void *)task, (const void *)buf);
	if (!sd_advise_mmap_started(buf->mmap))
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "invalidate-cache task %p: the mmap of buffer %p is not started",
					 (const void *)task, (const void *)buf);
	if ((uint64_t)buf->len > advise->max_buf_size)
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "invalidate-cache task %p: buffer %p of %zu bytes exceeds the device maximum "
					 "of %llu bytes",
					 (const void *)task, (const void *)buf, buf->len,
					 (unsigned long long)advise->max_buf_size);
	return DOCA_SUCCESS;
}

static doca_error_t sd_advise_execute(struct doca_task *task)
{
	doca_error_t err = sd_advise_validate(task);

	if (err == DOCA_SUCCESS)
		atomic_thread_fence(memory_order_seq_cst); /* every earlier store is visible from here on */
	return err;
}

static void sd_advise_invoke(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud,
			     void (*cb)(void))
{
	doca_mmap_advise_task_invalidate_cache_completion_cb_t typed =
		(doca_mmap_advise_task_invalidate_cache_completion_cb_t)cb;

	typed((struct doca_mmap_advise_task_invalidate_cache *)task, task_ud, ctx_ud);
}

const struct sd_task_ops sd_advise_invalidate_ops = {
	.name = "invalidate-cache",
	.task_size = sizeof(struct doca_mmap_advise_task_invalidate_cache),
	.validate = sd_advise_validate,
	.execute = sd_advise_execute,
	.invoke = sd_advise_invoke,
	.failure_is_fatal = false, /* only DMA failures stop their context */
};

/* ---- public API ---- */

doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
	struct doca_mmap_advise *mmap_advise,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb,
	uint32_t num_tasks)
{
	if (mmap_advise == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "mmap_advise is NULL");
	if (!sd_advise_is_valid(mmap_advise))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live mmap advise instance", (void *)mmap_advise);
	if (mmap_advise->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "context is %s, tasks can be configured only while IDLE (mmap_advise %p)",
				 sd_ctx_state_name(mmap_advise->ctx.state), (void *)mmap_advise);
	if (completion_cb == NULL || error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (mmap_advise %p)",
				 completion_cb == NULL ? "completion" : "error", (void *)mmap_advise);
	if (num_tasks == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_tasks is 0, at least one task is needed (mmap_advise %p)",
				 (void *)mmap_advise);
	if (num_tasks > mmap_advise->max_tasks)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_tasks %u exceeds the device maximum %u (mmap_advise %p)",
				 num_tasks, mmap_advise->max_tasks, (void *)mmap_advise);
	priv_doca_ctx_conf_task_type(&mmap_advise->ctx, SD_ADVISE_INVALIDATE_TYPE, (void (*)(void))completion_cb,
				     (void (*)(void))error_cb, num_tasks);
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(struct doca_mmap_advise *mmap_advise,
							       struct doca_buf *buf,
							       union doca_data user_data,
							       struct doca_mmap_advise_task_invalidate_cache **task)
{
	struct doca_task *base;
	doca_error_t err;

	if (mmap_advise == NULL || task == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%s is NULL",
				 mmap_advise == NULL ? "mmap_advise" : "output pointer task");
	if (!sd_advise_is_valid(mmap_advise))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "%p is not a live mmap advise instance", (void *)mmap_advise);
	/* RUNNING and pool checks, with their diagnostics, are the framework's. */
	err = priv_doca_task_alloc(&mmap_advise->ctx, SD_ADVISE_INVALIDATE_TYPE, user_data, &base, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	/* The buffer is checked when the task runs, like every task rule. */
	((struct doca_mmap_advise_task_invalidate_cache *)base)->buf = buf;
	*task = (struct doca_mmap_advise_task_invalidate_cache *)base;
	return DOCA_SUCCESS;
}

/* `task` is an invalidate-cache task; one ERROR record naming `func` otherwise. */
static bool sd_advise_task_known(const struct doca_mmap_advise_task_invalidate_cache *task, const char *func)
{
	if (sd_task_of_ctx_type((const struct doca_task *)task, &sd_advise_ctx_ops))
		return true;
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func,
			     "task %p is NULL or not an invalidate-cache task", (const void *)task);
	return false;
}

struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
	struct doca_mmap_advise_task_invalidate_cache *task)
{
	if (!sd_advise_task_known(task, __func__))
		return NULL;
	return &task->base;
}

void doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
						    struct doca_buf *buf)
{
	if (!sd_advise_task_known(task, __func__))
		return;
	if (task->base.own == SD_TASK_FREE) {
		SD_LOG_ERR("task %p was freed; ignored", (void *)task);
		return;
	}
	if (task->base.own == SD_TASK_IN_FLIGHT) {
		SD_LOG_ERR("task %p is in flight, its buffer cannot change until it is reported; ignored",
			   (void *)task);
		return;
	}
	task->buf = buf;
}

struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
	const struct doca_mmap_advise_task_invalidate_cache *task)
{
	return sd_advise_task_known(task, __func__) ? task->buf : NULL;
}
