/*
 * dma_memcpy_async.c - memcpy tasks on an asynchronous engine (workers:
 * library threads of the cpu engine; cuda: a GPU's copy engines).
 *
 * The copy starts inside doca_task_submit: the rules V1..V9 are checked,
 * the copy is described and handed to the engine's queue of the context,
 * in the completion slot numbered like the task's place in its pool.
 * doca_pe_progress polls the slot; the report applies the destination
 * metadata, so nothing observable changes before the task is reported.
 * A task that breaks a rule or that the hardware refuses is ready at once
 * with its error, and no byte moves.
 *
 * Several tasks may be in flight on one destination.  Each appends after
 * the bytes of those submitted before it (as the cpu engine, which runs
 * them one after the other, would): the destination keeps the count of
 * bytes promised to tasks in flight (dma_reserved), a submit places its
 * copy after them, and the report turns them into data.
 */
#include <doca_dma.h>

#include "dma_priv.h"

/* The task's slot: its index in the pool, fixed for the life of the pool. */
static inline uint32_t sd_dma_async_slot(const struct doca_task *task)
{
	return task->slot;
}

static void sd_dma_async_finish_now(struct doca_task *task, doca_error_t status)
{
	task->early_status = status;
	atomic_store_explicit(&task->ready, 1, memory_order_relaxed);
}

/* Bytes of the task's destination already promised to tasks in flight. */
static inline uint64_t sd_dma_taken(const struct doca_dma_task_memcpy *t)
{
	return t->dst != NULL ? t->dst->dma_reserved : 0;
}

static inline void sd_dma_reserve(struct doca_dma_task_memcpy *t, uint64_t len)
{
	t->dst->dma_reserved += len;
	t->dst->dma_writers++;
	t->reserved = len;
}

/*
 * The engine may make a copy at once instead of queueing it (run_now): the
 * task is then ready with its outcome, its bytes reserved like a queued
 * copy's, so the report appends them as usual.
 */
static bool sd_dma_async_ran_now(struct doca_task *task, const struct sd_copy_job *job)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	const struct doca_dma *dma = sd_dma_of_task(task);
	doca_error_t status;

	if (dma->engine->async->run_now == NULL || !dma->engine->async->run_now(dma->queue, job, &status))
		return false;
	sd_dma_reserve(t, job->total);
	sd_dma_async_finish_now(task, status);
	return true;
}

/* The general case: describe the copy in full, then start it. */
static __attribute__((noinline)) void sd_dma_async_submit_described(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	const struct doca_dma *dma = sd_dma_of_task(task);
	struct sd_dma_segs segs;
	doca_error_t err = sd_dma_memcpy_describe(task, sd_dma_taken(t), &segs);

	if (err == DOCA_SUCCESS && sd_dma_async_ran_now(task, &segs.job))
		return;
	if (err == DOCA_SUCCESS)
		err = dma->engine->async->start(dma->queue, sd_dma_async_slot(task), &segs.job);
	if (err == DOCA_SUCCESS)
		sd_dma_reserve(t, segs.job.total); /* bookkeeping of this thread: the engine never reads it */
	else
		sd_dma_async_finish_now(task, err);
}

/* Start a one-range copy whose rules passed: its job is two segments on the stack. */
static void sd_dma_async_start_one(struct doca_task *task, const struct sd_seg *from, const struct sd_seg *to)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	const struct doca_dma *dma = sd_dma_of_task(task);
	const struct sd_engine_async *engine = dma->engine->async;
	struct sd_copy_job one = {.src = from, .nsrc = 1, .dst = to, .ndst = 1, .total = from->len};
	doca_error_t err;

	if (sd_dma_async_ran_now(task, &one))
		return;
	if (engine->start_one != NULL && sd_copy_job_is_one_local(&one)) {
		sd_dma_reserve(t, one.total);
		(void)engine->start_one(dma->queue, sd_dma_async_slot(task), to->addr, from->addr, to->len);
		return;
	}
	err = engine->start(dma->queue, sd_dma_async_slot(task), &one);
	if (err == DOCA_SUCCESS)
		sd_dma_reserve(t, one.total);
	else
		sd_dma_async_finish_now(task, err);
}

/* on_submit: check, describe and start the copy (one range each, on known maps: a few compares). */
static void sd_dma_async_submit(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	struct doca_dma *dma = sd_dma_of_task(task);
	struct sd_seg from, to;

	t->reserved = 0;
	if (sd_dma_memcpy_one(dma, t, sd_dma_taken(t), &from, &to)) {
		sd_dma_async_start_one(task, &from, &to);
		return;
	}
	sd_dma_async_submit_described(task);
}

/* poll: has the engine finished the slot? */
static bool sd_dma_async_poll(struct doca_task *task)
{
	const struct doca_dma *dma = sd_dma_of_task(task);
	doca_error_t status;

	if (!dma->engine->async->poll(dma->queue, sd_dma_async_slot(task), &status))
		return false;
	task->early_status = status;
	return true;
}

/*
 * cancel: the context stopped; the hardware may still be writing, so wait.
 * The framework cancels only tasks that are not ready, and a task is not
 * ready only while its copy is with the engine.
 */
static void sd_dma_async_cancel(struct doca_task *task)
{
	const struct doca_dma *dma = sd_dma_of_task(task);

	dma->engine->async->wait(dma->queue, sd_dma_async_slot(task));
	atomic_store_explicit(&task->ready, 1, memory_order_release);
}

/* Runs on an engine thread when an armed slot finishes. */
static void sd_dma_async_wake(void *arg)
{
	struct doca_pe *pe = arg;

	priv_doca_pe_kick(pe);
	sd_pe_release(pe);
}

/* arm: kick the PE when this task's copy finishes. */
static void sd_dma_async_arm(struct doca_task *task)
{
	const struct doca_dma *dma = sd_dma_of_task(task);
	struct doca_pe *pe = task->ctx->pe;

	sd_pe_hold(pe);
	if (!dma->engine->async->arm(dma->queue, sd_dma_async_slot(task), sd_dma_async_wake, pe)) {
		/* Cannot wait for the hardware: wake the program now so it polls. */
		sd_pe_release(pe);
		priv_doca_pe_kick(pe);
	}
}

const struct sd_task_ops sd_dma_memcpy_async_ops = {
	.name = "memcpy",
	.task_size = sizeof(struct doca_dma_task_memcpy),
	.validate = sd_dma_memcpy_validate, /* doca_task_try_submit: the cpu engine's rules */
	.on_submit = sd_dma_async_submit,
	.complete = sd_dma_memcpy_complete,
	.cancel = sd_dma_async_cancel,
	.poll = sd_dma_async_poll,
	.arm = sd_dma_async_arm,
	.invoke = sd_dma_memcpy_invoke,
	.failure_is_fatal = true,
};
