/**
 * @file doca_pe.h
 * @brief Progress engines and the generic task API.
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
/**
 * @struct doca_pe
 * A progress engine: drives the contexts connected to it and runs their
 * callbacks, on the thread that calls doca_pe_progress().  Created with
 * doca_pe_create(), owned by the application, destroyed with
 * doca_pe_destroy() once no context is connected.
 */
struct doca_pe;
/**
 * @struct doca_task
 * The generic view of any task, obtained from a library's *_as_task() call.
 * A task belongs to its context's pool; it is owned by the application from
 * its allocation until submission and again from its callback on, and by the
 * library while in flight.
 */
struct doca_task;
/**
 * @struct doca_task_batch
 * A group of same-type tasks submitted and completed as one.  softdoca has no library that allocates task batches, so no valid batch exists.
 */
struct doca_task_batch;
struct doca_devinfo;

/**
 * How many tasks a task batch may hold (libraries with batch allocators only).
 */
enum doca_task_batch_max_tasks_number {
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16, /**< up to 16 tasks */
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32, /**< up to 32 tasks */
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64, /**< up to 64 tasks */
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128, /**< up to 128 tasks */
};

/**
 * How many events an event batch may hold (libraries with event batches only).
 */
enum doca_event_batch_events_number {
	DOCA_EVENT_BATCH_EVENTS_NUMBER_1, /**< one event */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_2, /**< up to 2 events */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_4, /**< up to 4 events */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_8, /**< up to 8 events */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_16, /**< up to 16 events */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_32, /**< up to 32 events */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_64, /**< up to 64 events */
	DOCA_EVENT_BATCH_EVENTS_NUMBER_128, /**< up to 128 events */
};

/**
 * Flags of doca_task_submit_ex(), OR-ed together.
 */
enum doca_task_submit_flag {
	DOCA_TASK_SUBMIT_FLAG_NONE = 0U, /**< no flag: the context may hold the task back until a flush */
	DOCA_TASK_SUBMIT_FLAG_FLUSH = (1U << 0), /**< hand this task and every earlier one to the device now */
	DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS = (1U << 1), /**< completions may be reported together */
};

/**
 * What doca_pe_request_notification() does with a wake-up that is still pending.
 */
enum doca_pe_event_mode {
	DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE, /**< a request keeps a wake-up not yet cleared (default) */
	DOCA_PE_EVENT_MODE_PROGRESS_ALL /**< a request first empties the handle */
};

/**
 * @brief Generic shape of a task callback; success and error callbacks share it.
 *
 * Called only from doca_pe_progress(), with the task back in the
 * application's hands: it may be resubmitted, freed or kept.  In an error
 * callback, doca_task_get_status() says why the task failed.
 *
 * @param task the task being reported.
 * @param task_user_data the task's user data, read at the time of the call.
 * @param ctx_user_data the user data of the task's context, read at the time of the call.
 */
typedef void (*doca_task_completion_cb_t)(struct doca_task *task,
					  union doca_data task_user_data,
					  union doca_data ctx_user_data);

/**
 * @brief Creates an empty progress engine.
 *
 * It has no context, event mode DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE and a
 * notification handle (an eventfd) owned by the engine.
 *
 * @param pe receives the engine; unchanged on failure.  The caller owns it
 * and destroys it with doca_pe_destroy().
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p pe is NULL;
 * DOCA_ERROR_NO_MEMORY when the engine or its descriptor cannot be created.
 */
DOCA_STABLE
doca_error_t doca_pe_create(struct doca_pe **pe);

/**
 * @brief Destroys a progress engine and closes its notification handle.
 *
 * Destroy every connected context first (there is no disconnect); buffers,
 * mmaps and inventories need not be released before.
 *
 * @param pe the engine.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p pe is NULL;
 * DOCA_ERROR_IN_USE when a context or graph is still connected, or when called
 * from inside one of the engine's own callbacks.
 */
DOCA_STABLE
doca_error_t doca_pe_destroy(struct doca_pe *pe);

/**
 * @brief Does at most one unit of work on the engine.
 *
 * A unit is one task report (success, error or flush), one library event (a
 * Comch message or connection change), one graph step or one context state
 * change, so one call runs at most one application callback (preceded, for a
 * task that fails, by the state callback of its context).  With the default
 * engine the copy of a DMA task happens inside the call that reports it.
 * Call it from one thread at a time; a call from inside one of the engine's
 * own callbacks does nothing and returns 0.
 *
 * @param pe the engine; NULL or a destroyed engine does nothing (logged).
 * @return 1 when it did something (call it again), 0 when there was nothing to do.
 */
DOCA_STABLE
uint8_t doca_pe_progress(struct doca_pe *pe);

/**
 * @brief The descriptor to wait on for work (EPOLLIN).
 *
 * The same descriptor for the engine's whole life; it stays owned by the
 * engine: add it to your epoll set, never read, write or close it.
 *
 * @param pe the engine.
 * @param handle receives the descriptor.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle);

/**
 * @brief Empties the notification handle after a wake-up and disarms the engine.
 *
 * Call it after the wait returned, then progress until 0 and request the next
 * notification.  Optional in DOCA_PE_EVENT_MODE_PROGRESS_ALL.
 *
 * @param pe the engine.
 * @param handle ignored on Linux (programs pass 0).
 * @return DOCA_SUCCESS (also when there was nothing to clear);
 * DOCA_ERROR_INVALID_VALUE when @p pe is NULL;
 * DOCA_ERROR_OPERATING_SYSTEM when reading the descriptor fails.
 */
DOCA_STABLE
doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle);

/**
 * @brief Arms the engine: its handle becomes readable as soon as there is work.
 *
 * When work is already pending the handle is made readable at once, so no
 * wake-up is lost between the last progress call and the wait.  One wake-up
 * per request.
 *
 * @param pe the engine.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when @p pe is NULL.
 */
DOCA_STABLE
doca_error_t doca_pe_request_notification(struct doca_pe *pe);

/**
 * @brief How many tasks of all contexts connected to the engine are in flight.
 *
 * @param pe the engine.
 * @param num_inflight_tasks receives the sum of doca_ctx_get_num_inflight_tasks() of its contexts.
 * @return DOCA_SUCCESS; DOCA_ERROR_INVALID_VALUE when an argument is NULL.
 */
DOCA_STABLE
doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks);

/**
 * @brief Attaches an IDLE context to the engine for the rest of the context's life.
 *
 * Before or after the library's configuration calls, before doca_ctx_start().
 *
 * @param pe the engine.
 * @param ctx the context (from the library's *_as_ctx() call).
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when an argument is NULL;
 * DOCA_ERROR_BAD_STATE when the context is not IDLE;
 * DOCA_ERROR_NOT_PERMITTED when it is already connected to an engine;
 * DOCA_ERROR_NO_MEMORY when the connection cannot be recorded.
 */
DOCA_STABLE
doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);

/**
 * @brief Chooses what a notification request does with a pending wake-up.
 *
 * Both modes progress every connected context; in PROGRESS_ALL a request
 * first empties the handle, so doca_pe_clear_notification() is optional.
 *
 * @param pe the engine.
 * @param event_mode one of enum doca_pe_event_mode.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p pe is NULL or the mode is unknown;
 * DOCA_ERROR_BAD_STATE when called from inside one of the engine's callbacks.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode);

/**
 * @brief Hands an application-owned task to its context for execution.
 *
 * The task's buffers are not examined here: a malformed task is reported
 * later through its error callback (use doca_task_try_submit() to check
 * first).  On success the library owns the task until its callback, and
 * doca_task_get_status() answers DOCA_ERROR_IN_PROGRESS.  On failure the task
 * stays the application's (resubmit or free it).  Allowed inside task
 * callbacks and in a state callback entering RUNNING.
 *
 * @param task the task.
 * @return DOCA_SUCCESS;
 * DOCA_ERROR_INVALID_VALUE when @p task is NULL or was freed;
 * DOCA_ERROR_IN_USE when it is already in flight;
 * DOCA_ERROR_BAD_STATE when its context is not RUNNING (STOPPING after a stop or a failed task);
 * DOCA_ERROR_AGAIN when the context's queue is full: let completions drain
 * (progress outside callbacks) and submit again.
 */
DOCA_STABLE
doca_error_t doca_task_submit(struct doca_task *task);

/**
 * @brief doca_task_submit() with flags.
 *
 * softdoca makes every submitted task eligible at once and reports each one by
 * its own callback, so both flags are accepted and change nothing.
 *
 * @param task the task.
 * @param flags OR of enum doca_task_submit_flag.
 * @return as doca_task_submit(), and DOCA_ERROR_INVALID_VALUE for an unknown flag bit.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags);

/**
 * @brief doca_task_submit() that first checks the task and refuses a bad one.
 *
 * Runs the task type's checks (buffers, sizes, permissions) before queuing;
 * a refused task is not submitted, stays the application's, and the
 * context's state does not change.  Meant for development.
 *
 * @param task the task.
 * @return as doca_task_submit(), and the error the task would have failed with:
 * DOCA_ERROR_INVALID_VALUE for a malformed task (a missing buffer, a
 * destination too small...), DOCA_ERROR_NOT_PERMITTED for an access-right
 * violation.
 */
DOCA_STABLE
doca_error_t doca_task_try_submit(struct doca_task *task);

/**
 * @brief Returns an application-owned task to its context's pool.
 *
 * Allowed while the context is RUNNING or STOPPING, inside or outside
 * callbacks.  The task's buffers are not released.  Freeing a task in flight
 * or freeing it twice is a programming error: ignored and logged.  If the
 * free lets a STOPPING context reach IDLE, the next doca_pe_progress() does it.
 *
 * @param task the task; NULL is ignored.  Never use it after this call.
 */
DOCA_STABLE
void doca_task_free(struct doca_task *task);

/**
 * @brief The outcome of a task.
 *
 * @param task the task.
 * @return DOCA_SUCCESS before its first submission and after a success;
 * the code a failed submit returned; DOCA_ERROR_IN_PROGRESS while in flight;
 * in and after the error callback, why it failed (DOCA_ERROR_SHUTDOWN for a
 * task flushed by a stop); DOCA_ERROR_INVALID_VALUE when @p task is NULL.
 */
DOCA_STABLE
doca_error_t doca_task_get_status(const struct doca_task *task);

/**
 * @brief Replaces the value handed to the task's callbacks.
 *
 * It is read when the callback runs, so it may change between submissions.
 *
 * @param task an application-owned task; NULL is ignored.
 * @param user_data the value.
 */
DOCA_STABLE
void doca_task_set_user_data(struct doca_task *task, union doca_data user_data);

/**
 * @brief The task's user data.
 *
 * @param task the task.
 * @return the value given at allocation or by doca_task_set_user_data(); all zero for NULL.
 */
DOCA_STABLE
union doca_data doca_task_get_user_data(const struct doca_task *task);

/**
 * @brief The context that allocated the task.
 *
 * @param task the task.
 * @return the context (owned by its library instance); NULL for NULL.
 */
DOCA_STABLE
struct doca_ctx *doca_task_get_ctx(const struct doca_task *task);

/**
 * @brief Would submit a task batch. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return DOCA_ERROR_INVALID_VALUE when NULL, DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch);

/**
 * @brief Would check and submit a task batch. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return DOCA_ERROR_INVALID_VALUE when NULL, DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch);

/**
 * @brief Would return a task batch to its pool; does nothing. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 */
DOCA_EXPERIMENTAL
void doca_task_batch_free(struct doca_task_batch *task_batch);

/**
 * @brief Would report a task batch's outcome. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return DOCA_ERROR_INVALID_VALUE when NULL, DOCA_ERROR_NOT_SUPPORTED otherwise.
 */
DOCA_EXPERIMENTAL
doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch);

/**
 * @brief Would set a task batch's user data; does nothing. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @param user_data the value.
 */
DOCA_EXPERIMENTAL
void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data);

/**
 * @brief Would read a task batch's user data. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return all zero.
 */
DOCA_EXPERIMENTAL
union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch);

/**
 * @brief Would name a task batch's context. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return NULL.
 */
DOCA_EXPERIMENTAL
struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch);

/**
 * @brief Would read the user data of a task batch's context. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return all zero.
 */
DOCA_EXPERIMENTAL
union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch);

/**
 * @brief Would count the tasks of a batch. softdoca has no library that allocates task batches, so no valid batch exists.
 * @param task_batch the batch.
 * @return 0.
 */
DOCA_EXPERIMENTAL
uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PE_H_ */
