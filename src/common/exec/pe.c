/*
 * pe.c - the progress engine: one unit of work per doca_pe_progress call,
 * and an eventfd that wakes a waiting program.
 *
 * Tasks of all connected contexts share one FIFO in submission order.  A
 * progress call reports the first task that is ready and has no earlier
 * unreported task of its own context; with the default engine that is
 * always the head.  Otherwise it delivers one library event, or performs
 * one STOPPING -> IDLE transition.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "exec_internal.h"
#include "sd_debug.h"
#include "sd_log.h"

/* ---- the FIFO ---- */

/*
 * Nothing of `ctx` can be reported now: every task it has queued waits for
 * its library and the library settled none of them.  Decided from two
 * counts instead of a visit to each task.  Off while the context is not
 * RUNNING (flushed tasks become ready without being counted) and while
 * faults are injected (an injected outcome is not counted either).
 */
static inline bool sd_ctx_only_waits(const struct doca_ctx *ctx)
{
	return ctx->waiting_ready == 0 && ctx->waiting_queued != 0 && ctx->waiting_queued == ctx->inflight &&
	       ctx->state == DOCA_CTX_STATE_RUNNING && priv_doca_debug_flags == 0;
}

/*
 * The next reportable task and its predecessor in the FIFO (NULL for the
 * head).  Fast path: the head is ready.  Slow path (early engines only):
 * walk the FIFO; a task that is not ready blocks the later tasks of its own
 * context, not those of others.  The head may become ready during the
 * walk, so the task found can still be the head.  A context with nothing
 * to report (sd_ctx_only_waits) is passed at its first task.
 */
static struct doca_task *sd_pe_find_ready(struct doca_pe *pe, struct doca_task **prev_out)
{
	struct doca_task *prev = NULL;
	struct doca_task *task = pe->fifo_head;
	uint32_t unseen = pe->num_ctxs; /* contexts whose first waiting task is not found yet */
	uint32_t epoch;

	*prev_out = NULL;
	if (task == NULL || sd_task_ready(task))
		return task;
	epoch = ++pe->scan_epoch;
	for (; task != NULL; prev = task, task = task->next) {
		if (task->ctx->scan_mark == epoch)
			continue;
		if (sd_ctx_only_waits(task->ctx)) {
			task->ctx->scan_mark = epoch;
			if (--unseen == 0)
				break;
			continue;
		}
		if (sd_task_ready(task)) {
			*prev_out = prev;
			return task;
		}
		if (task->conf->ops->independent)
			continue; /* waits for a peer, not for its context's earlier work */
		task->ctx->scan_mark = epoch;
		/* Every context waits on an unfinished task: nothing later can be reported. */
		if (--unseen == 0)
			break;
	}
	return NULL;
}

/*
 * Unlink the ready task found by sd_pe_find_ready (early engines only).
 * Kept out of line so the default engine's progress path stays short.
 */
static __attribute__((noinline)) struct doca_task *sd_pe_take_ready_slow(struct doca_pe *pe)
{
	struct doca_task *prev;
	struct doca_task *task = sd_pe_find_ready(pe, &prev);

	if (task == NULL)
		return NULL;
	if (prev == NULL)
		pe->fifo_head = task->next;
	else
		prev->next = task->next;
	if (pe->fifo_tail == task)
		pe->fifo_tail = prev;
	return task;
}

/* Find and unlink the next reportable task; a ready head stays inline. */
static inline struct doca_task *sd_pe_take_ready(struct doca_pe *pe)
{
	struct doca_task *task = pe->fifo_head;

	if (task == NULL || !sd_task_ready(task))
		return task == NULL ? NULL : sd_pe_take_ready_slow(pe);
	pe->fifo_head = task->next;
	if (pe->fifo_head == NULL)
		pe->fifo_tail = NULL;
	return task;
}

static bool sd_pe_fifo_has_ready(struct doca_pe *pe)
{
	struct doca_task *prev;

	return sd_pe_find_ready(pe, &prev) != NULL;
}

/* ---- the three steps of a progress call ---- */

/*
 * The report of a task the application freed while it was in flight
 * (task.c, sd_task_free_in_flight): its callback runs as for any task, then
 * it goes back to its pool.  The slot is still there after the callback:
 * its pool lives until the context is IDLE, which no callback brings about
 * (a stop from inside a callback ends in a later progress call).
 */
static __attribute__((noinline, cold)) void sd_pe_deliver_freed(struct doca_pe *pe, struct doca_task *task,
								void (*cb)(void))
{
	task->conf->ops->invoke(task, task->user_data, task->ctx->user_data, cb);
	sd_task_release_after_report(task);
	pe->dispatching = false;
}

/*
 * The end of a report: the task goes back to the application with `status`
 * and its callback (or its graph) hears of it; the dispatching flag is set
 * on entry and cleared on exit.  ctx and conf are read here, after any
 * execute call, rather than kept in registers across it.
 */
static inline void sd_pe_deliver(struct doca_pe *pe, struct doca_task *task, doca_error_t status)
{
	struct doca_ctx *ctx = task->ctx;
	const struct sd_task_conf *conf = task->conf;
	void (*cb)(void);

	task->status = status;
	ctx->inflight--;
	task->own = SD_TASK_APP;
	if (task->graph_node != NULL) {
		/* A graph's task reports to its graph, not to callbacks. */
		pe->graph_task_report(pe, task);
		pe->dispatching = false;
		return;
	}
	cb = status == DOCA_SUCCESS ? conf->success_cb : conf->error_cb;
	if (__builtin_expect(task->free_pending, 0)) {
		sd_pe_deliver_freed(pe, task, cb);
		return;
	}
	/* Neither task nor ctx is touched once the callback returns. */
	conf->ops->invoke(task, task->user_data, ctx->user_data, cb);
	pe->dispatching = false;
}

/* T6: a failure of a task type that stops its context, before the error callback. */
static inline void sd_pe_stop_on_failure(struct doca_task *task, doca_error_t status)
{
	if (__builtin_expect(status != DOCA_SUCCESS, 0)) {
		sd_debug_task_failed(task, status); /* issue 12: one ERROR record with the reason */
		if (task->conf->ops->failure_is_fatal)
			sd_ctx_enter_stopping(task->ctx);
	}
}

/* Run a task of the default engine now, inside this call. */
static inline doca_error_t sd_pe_execute(struct doca_task *task)
{
	doca_error_t status = task->conf->ops->execute(task);

	sd_pe_stop_on_failure(task, status);
	return status;
}

static void sd_pe_report_task(struct doca_pe *pe, struct doca_task *task)
{
	const struct sd_task_ops *ops = task->conf->ops;
	doca_error_t status = DOCA_ERROR_SHUTDOWN; /* flushed: no byte is touched */

	if (sd_task_ops_waiting(ops))
		task->ctx->waiting_queued--;
	if (task->ready_counted) {
		task->ready_counted = 0;
		task->ctx->waiting_ready--;
	}

	pe->dispatching = true;
	if (ops->on_submit == NULL) {
		if (task->ctx->state == DOCA_CTX_STATE_RUNNING) {
			if (priv_doca_debug_flags != 0 && sd_debug_exec_fault(task, &status)) /* issue 12 */
				sd_pe_stop_on_failure(task, status);
			else
				status = sd_pe_execute(task);
		}
	} else {
		bool running = task->ctx->state == DOCA_CTX_STATE_RUNNING;

		/* An early engine's task (and an injected fault of one) was decided at submit. */
		if (running || ops->outcome_survives_stop)
			status = task->early_status;
		if (ops->complete != NULL)
			ops->complete(task, status);
		if (running)
			sd_pe_stop_on_failure(task, status);
	}
	if (priv_doca_debug_flags != 0)
		sd_debug_report(task, status); /* issue 12: the trace slice ends */
	sd_pe_deliver(pe, task, status);
}

/* An asynchronously starting context is ready to report RUNNING (T3). */
static bool sd_ctx_start_ready(struct doca_ctx *ctx)
{
	return ctx->state == DOCA_CTX_STATE_STARTING && ctx->ops->start_complete != NULL &&
	       ctx->ops->start_complete(ctx);
}

static bool sd_ctx_event_ready(struct doca_ctx *ctx)
{
	return ctx->ops->event_pending != NULL && ctx->ops->event_pending(ctx);
}

/* One library event or asynchronous start completion; false if none. */
static bool sd_pe_dispatch_event(struct doca_pe *pe)
{
	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next) {
		if (sd_ctx_start_ready(ctx)) {
			pe->dispatching = true;
			sd_ctx_transition(ctx, DOCA_CTX_STATE_RUNNING); /* T3 */
			pe->dispatching = false;
			return true;
		}
		if (sd_ctx_event_ready(ctx)) {
			pe->dispatching = true;
			ctx->ops->event_dispatch(ctx);
			pe->dispatching = false;
			return true;
		}
	}
	return false;
}

static bool sd_pe_dispatch_graph(struct doca_pe *pe)
{
	if (pe->graph_pending == NULL || !pe->graph_pending(pe))
		return false;
	pe->dispatching = true;
	pe->graph_dispatch(pe);
	pe->dispatching = false;
	return true;
}

/* T8: one STOPPING context with nothing left goes IDLE. */
static bool sd_pe_finish_one_stop(struct doca_pe *pe)
{
	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next) {
		if (sd_ctx_idle_eligible(ctx)) {
			pe->dispatching = true;
			sd_ctx_finish_stop(ctx); /* the IDLE callback may destroy ctx */
			pe->dispatching = false;
			return true;
		}
	}
	return false;
}

static bool sd_pe_events_pending(struct doca_pe *pe)
{
	if (pe->event_ctxs == 0)
		return false;
	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next)
		if (sd_ctx_start_ready(ctx) || sd_ctx_event_ready(ctx))
			return true;
	return false;
}

static bool sd_pe_stop_pending(struct doca_pe *pe)
{
	if (pe->stopping == 0)
		return false;
	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next)
		if (sd_ctx_idle_eligible(ctx))
			return true;
	return false;
}

bool sd_pe_has_work(struct doca_pe *pe)
{
	if (sd_pe_fifo_has_ready(pe) || sd_pe_events_pending(pe))
		return true;
	if (pe->graph_pending != NULL && pe->graph_pending(pe))
		return true;
	return sd_pe_stop_pending(pe);
}

/* Steps 3-6 of a progress call when the FIFO head is not a default-engine task. */
static __attribute__((noinline)) uint8_t sd_pe_progress_steps(struct doca_pe *pe)
{
	struct doca_task *task = sd_pe_take_ready(pe);

	if (task != NULL) {
		sd_pe_report_task(pe, task);
		return 1;
	}
	if (pe->event_ctxs != 0 && sd_pe_dispatch_event(pe))
		return 1;
	if (sd_pe_dispatch_graph(pe))
		return 1;
	if (pe->stopping != 0 && sd_pe_finish_one_stop(pe))
		return 1;
	return 0;
}

/*
 * The default engine's case of step 3, kept apart so that it needs few
 * registers: the FIFO head's type has no early engine, so it is ready; it
 * runs now (or is flushed) and is reported.
 */
static __attribute__((noinline)) uint8_t sd_pe_run_head(struct doca_pe *pe, struct doca_task *task)
{
	doca_error_t status = DOCA_ERROR_SHUTDOWN; /* flushed: no byte is touched */

	pe->fifo_head = task->next;
	if (pe->fifo_head == NULL)
		pe->fifo_tail = NULL;
	pe->dispatching = true;
	if (task->ctx->state == DOCA_CTX_STATE_RUNNING)
		status = sd_pe_execute(task);
	sd_pe_deliver(pe, task, status);
	return 1;
}

/* doca_pe_progress on something that is no progress engine (kept off the progress path). */
static __attribute__((noinline, cold)) uint8_t sd_pe_progress_refuse(const struct doca_pe *pe)
{
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "doca_pe_progress",
			     "pe %p is NULL or not a live progress engine; nothing to progress", (const void *)pe);
	return 0;
}

uint8_t doca_pe_progress(struct doca_pe *pe)
{
	struct doca_task *task;

	if (__builtin_expect(pe == NULL || pe->magic != SD_PE_MAGIC, 0))
		return sd_pe_progress_refuse(pe);
	if (pe->dispatching)
		return 0; /* called from one of this PE's callbacks: harmless no-op */
	pe->progress_calls++; /* issue 12: the watchdog's heartbeat */
	task = pe->fifo_head;
	if (task != NULL && !task->early)
		return sd_pe_run_head(pe, task);
	return sd_pe_progress_steps(pe);
}

/* ---- notification ---- */

void sd_pe_signal(struct doca_pe *pe)
{
	uint64_t one = 1;
	ssize_t n;

	do {
		n = write(pe->efd, &one, sizeof(one));
	} while (n < 0 && errno == EINTR);
	/* EAGAIN means the counter is saturated: the handle is readable anyway. */
}

/* Read the eventfd until it is empty; false on an unexpected error. */
static bool sd_pe_drain(struct doca_pe *pe)
{
	uint64_t value;

	for (;;) {
		ssize_t n = read(pe->efd, &value, sizeof(value));

		if (n == (ssize_t)sizeof(value))
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return true;
		return false;
	}
}

/*
 * Engines without threads (hardware queues) cannot make a task ready on
 * their own: ask the first unfinished task of each context to kick the PE
 * when it finishes.  The first one suffices per context, since its later
 * tasks are reported after it anyway.
 */
static void sd_pe_arm_engines(struct doca_pe *pe)
{
	uint32_t epoch = ++pe->scan_epoch;

	uint32_t unseen = pe->num_ctxs;

	for (struct doca_task *task = pe->fifo_head; task != NULL && unseen != 0; task = task->next) {
		const struct sd_task_ops *ops = task->conf->ops;

		if (task->ctx->scan_mark == epoch)
			continue;
		task->ctx->scan_mark = epoch;
		unseen--;
		if (ops->arm != NULL && atomic_load_explicit(&task->ready, memory_order_acquire) == 0)
			ops->arm(task);
	}
}

void priv_doca_pe_kick(struct doca_pe *pe)
{
	if (pe != NULL && atomic_exchange(&pe->armed, false))
		sd_pe_signal(pe);
}

doca_error_t doca_pe_request_notification(struct doca_pe *pe)
{
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine", (void *)pe);
	if (pe->event_mode == DOCA_PE_EVENT_MODE_PROGRESS_ALL && !sd_pe_drain(pe))
		return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, "reading the notification eventfd failed (pe %p)",
				 (void *)pe);
	/*
	 * Arm first, then look for work: an engine thread that makes a task
	 * ready in between either sees the PE armed and signals, or its
	 * work is found here.  Whoever disarms signals, so once only.
	 */
	atomic_store(&pe->armed, true);
	if (sd_pe_has_work(pe)) {
		if (atomic_exchange(&pe->armed, false))
			sd_pe_signal(pe);
		return DOCA_SUCCESS;
	}
	sd_pe_arm_engines(pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle)
{
	(void)handle; /* Linux: the PE knows its own descriptor */
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine", (void *)pe);
	atomic_store(&pe->armed, false);
	if (!sd_pe_drain(pe))
		return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, "reading the notification eventfd failed (pe %p)",
				 (void *)pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle)
{
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine",
				 (const void *)pe);
	if (handle == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "handle is NULL (pe %p)", (const void *)pe);
	*handle = pe->efd;
	return DOCA_SUCCESS;
}

/* ---- lifecycle and configuration ---- */

doca_error_t doca_pe_create(struct doca_pe **pe)
{
	struct doca_pe *new_pe;

	if (pe == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe output pointer is NULL");
	new_pe = sd_lines_calloc(1, sizeof(*new_pe));
	if (new_pe == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "out of memory for a progress engine");
	new_pe->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (new_pe->efd < 0) {
		free(new_pe);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, "could not create the notification eventfd (errno %d)", errno);
	}
	new_pe->magic = SD_PE_MAGIC;
	new_pe->event_mode = DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE;
	atomic_init(&new_pe->armed, false);
	sd_debug_pe_created(new_pe); /* issue 12: registry, trace track */
	*pe = new_pe;
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_destroy(struct doca_pe *pe)
{
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine", (void *)pe);
	if (pe->dispatching)
		return SD_REJECT(DOCA_ERROR_IN_USE, "a progress engine cannot be destroyed from its own callback (pe %p)",
				 (void *)pe);
	if (pe->num_ctxs != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "%u context(s) still connected; destroy them before the progress engine (pe %p)%s",
				 pe->num_ctxs, (void *)pe, sd_debug_pe_note(pe)); /* issue 12: what is alive */
	if (pe->bound_graphs != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE,
				 "%u graph(s) still bound; destroy them before the progress engine (pe %p)",
				 pe->bound_graphs, (void *)pe);
	/* A worker may still be waking this PE for a task already reported. */
	while (atomic_load(&pe->jobs_touching) != 0)
		sched_yield();
	close(pe->efd);
	sd_debug_pe_destroyed(pe); /* issue 12 */
	pe->magic = 0;
	free(pe);
	return DOCA_SUCCESS;
}

/*
 * Tasks in flight on the PE: the sum over its connected contexts, since
 * every queued task belongs to one of them (graph tasks included).
 * Summed here, on request, so that the per-task path keeps one counter.
 */
static uint64_t sd_pe_inflight(const struct doca_pe *pe)
{
	uint64_t n = 0;

	for (const struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next)
		n += ctx->inflight;
	return n;
}

doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks)
{
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine",
				 (const void *)pe);
	if (num_inflight_tasks == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "num_inflight_tasks is NULL (pe %p)", (const void *)pe);
	*num_inflight_tasks = (size_t)sd_pe_inflight(pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine", (void *)pe);
	if (!sd_ctx_valid(ctx))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "ctx %p is NULL or not a live context", (void *)ctx);
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "context is %s, it can be connected only while IDLE (%s %p)",
				 sd_ctx_state_name(ctx->state), ctx->ops->type_name, (void *)ctx);
	if (ctx->pe != NULL)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED,
				 "context is already connected to pe %p; the connection is permanent (%s %p)",
				 (void *)ctx->pe, ctx->ops->type_name, (void *)ctx);
	/* Appended, so event and stop steps visit contexts in connection order. */
	struct doca_ctx **link = &pe->ctxs;

	while (*link != NULL)
		link = &(*link)->pe_next;
	ctx->pe = pe;
	ctx->pe_next = NULL;
	*link = ctx;
	pe->num_ctxs++;
	if (ctx->ops->event_pending != NULL || ctx->ops->start_complete != NULL)
		pe->event_ctxs++;
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode)
{
	if (!sd_pe_valid(pe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "pe %p is NULL or not a live progress engine", (void *)pe);
	if (event_mode != DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE && event_mode != DOCA_PE_EVENT_MODE_PROGRESS_ALL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "event mode %d is not a doca_pe_event_mode value (pe %p)",
				 (int)event_mode, (void *)pe);
	if (pe->dispatching)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, "the event mode cannot change inside a callback (pe %p)",
				 (void *)pe);
	pe->event_mode = event_mode;
	return DOCA_SUCCESS;
}
