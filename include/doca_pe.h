/*
 * doca_pe.h - progress engines and the generic task API.
 *
 * A progress engine (PE) drives the contexts connected to it: every call
 * to doca_pe_progress() does at most one unit of work (one task report, one
 * library event or one context state change) and returns 1 if it did any.
 * Programs either poll it, or wait on its notification handle:
 *
 *   progress until 0 -> doca_pe_request_notification -> epoll_wait(handle)
 *   -> doca_pe_clear_notification -> progress until 0 -> ...
 *
 * A task moves between the application and the library:
 *   alloc (library-specific) -> submit -> in flight -> callback -> free.
 * Inside its callback a task belongs to the application again and may be
 * resubmitted or freed.
 */
#ifndef DOCA_PE_H_
#define DOCA_PE_H_

#include <stdint.h>
#include <stdlib.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_pe;
struct doca_task;
struct doca_task_batch;
struct doca_devinfo;

/* Task batch sizes (libraries with batch allocators only). */
enum doca_task_batch_max_tasks_number {
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128,
};

/* Event batch sizes (libraries with event batches only). */
enum doca_event_batch_events_number {
	DOCA_EVENT_BATCH_EVENTS_NUMBER_1,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_2,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_4,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_8,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_16,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_32,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_64,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_128,
};

/* Flags of doca_task_submit_ex(). */
enum doca_task_submit_flag {
	DOCA_TASK_SUBMIT_FLAG_NONE = 0U,
	DOCA_TASK_SUBMIT_FLAG_FLUSH = (1U << 0),
	DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS = (1U << 1),
};

/* Which contexts a notification-driven progress call looks at. */
enum doca_pe_event_mode {
	DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE,
	DOCA_PE_EVENT_MODE_PROGRESS_ALL
};

/* Generic shape of a task completion callback (success and error alike). */
typedef void (*doca_task_completion_cb_t)(struct doca_task *task,
					  union doca_data task_user_data,
					  union doca_data ctx_user_data);

DOCA_STABLE
doca_error_t doca_pe_create(struct doca_pe **pe);

/* Fails with DOCA_ERROR_IN_USE while contexts are still connected. */
DOCA_STABLE
doca_error_t doca_pe_destroy(struct doca_pe *pe);

/* Do at most one unit of work; 1 if something was done, else 0. */
DOCA_STABLE
uint8_t doca_pe_progress(struct doca_pe *pe);

/* The descriptor to wait on (EPOLLIN); owned by the PE, never close it. */
DOCA_STABLE
doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle);

/* Make the handle readable again after a wake-up (the handle is ignored). */
DOCA_STABLE
doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle);

/* Arm the handle: it becomes readable once there is work to progress. */
DOCA_STABLE
doca_error_t doca_pe_request_notification(struct doca_pe *pe);

DOCA_STABLE
doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks);

/* Attach an IDLE context to this PE for the rest of its life. */
DOCA_STABLE
doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);

DOCA_EXPERIMENTAL
doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode);

/* Hand a task to its context; it is reported later by doca_pe_progress. */
DOCA_STABLE
doca_error_t doca_task_submit(struct doca_task *task);

/* doca_task_submit with enum doca_task_submit_flag bits. */
DOCA_EXPERIMENTAL
doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags);

/* doca_task_submit that first checks the task and refuses a bad one. */
DOCA_STABLE
doca_error_t doca_task_try_submit(struct doca_task *task);

/* Return an application-owned task to its context's pool. */
DOCA_STABLE
void doca_task_free(struct doca_task *task);

DOCA_STABLE
doca_error_t doca_task_get_status(const struct doca_task *task);

DOCA_STABLE
void doca_task_set_user_data(struct doca_task *task, union doca_data user_data);

DOCA_STABLE
union doca_data doca_task_get_user_data(const struct doca_task *task);

DOCA_STABLE
struct doca_ctx *doca_task_get_ctx(const struct doca_task *task);

/* Task batches: no library in softdoca allocates them. */
DOCA_EXPERIMENTAL
doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
void doca_task_batch_free(struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data);

DOCA_EXPERIMENTAL
union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch);

DOCA_EXPERIMENTAL
uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PE_H_ */
