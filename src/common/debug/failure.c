/*
 * failure.c - one ERROR record per failed task, in words.
 *
 * A task that breaks a rule (or whose memory cannot be reached) fails
 * wherever its engine runs it: inside doca_pe_progress (cpu engine), on a
 * worker thread (SOFTDOCA_DMA_WORKERS), inside doca_task_submit (the
 * asynchronous GPU path).  The record is written in one place for all of
 * them: when doca_pe_progress reports the failure, on the progress thread,
 * just before the context leaves RUNNING and the error callback runs.
 * There the task type's validate hook is asked again which rule the task
 * breaks; the hook's own message (rule, object, fix) becomes the reason.
 * The check only reads the task and its buffers, and nothing can have
 * changed them legitimately while the task was in flight.  A failure that
 * breaks no rule is a fault injected on purpose (faults.c knows) or a
 * memory access that failed, explained from its status.
 *
 * Flushed tasks (DOCA_ERROR_SHUTDOWN because their context stopped) are not
 * failures of their own and log nothing; the failed task's record says how
 * many will follow it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_priv.h"
#include "sd_exec.h"
#include "sd_log.h"

#define SD_REASON_MAX 768

/* Set while sd_debug_task_failed asks a validate hook for the broken rule. */
struct sd_explain {
	bool have;
	const char *file;
	int line;
	char text[SD_REASON_MAX];
};

static _Thread_local struct sd_explain *sd_explaining;

void sd_debug_rule_vlog(const char *file, int line, const char *fmt, va_list ap)
{
	struct sd_explain *ex = sd_explaining;
	char text[SD_REASON_MAX];

	if (ex != NULL) {
		if (!ex->have) { /* the first broken rule is the one that counts */
			vsnprintf(ex->text, sizeof(ex->text), fmt, ap);
			ex->file = file;
			ex->line = line;
			ex->have = true;
		}
		return;
	}
	/* Where the task actually failed (engine, worker, submit): detail at DEBUG. */
	if (!priv_doca_sdk_log_enabled(DOCA_LOG_LEVEL_DEBUG))
		return;
	vsnprintf(text, sizeof(text), fmt, ap);
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_DEBUG, file, line, "task execution", "%s", text);
}

/* The rule `task` breaks now, as its validate hook words it; false if none or another code. */
static bool sd_explain_rule(struct doca_task *task, doca_error_t status, struct sd_explain *ex)
{
	doca_error_t err;

	memset(ex, 0, sizeof(*ex));
	sd_explaining = ex;
	err = task->conf->ops->validate(task);
	sd_explaining = NULL;
	return ex->have && err == status;
}

/* A failure that breaks no rule, in words, from its status. */
static const char *sd_status_reason(doca_error_t status)
{
	switch (status) {
	case DOCA_ERROR_IO_FAILED:
		return "its memory could not be reached: an imported mmap whose export was stopped or destroyed, "
		       "whose exporter exited or shrank the memory, or a copy the engine refused; keep every export "
		       "started while tasks use it (SOFTDOCA_SDK_LOG=debug shows the access that failed)";
	case DOCA_ERROR_NOT_CONNECTED:
		return "its connection is gone: the peer disconnected or stopped";
	case DOCA_ERROR_AGAIN:
		return "the engine had no room for it";
	default:
		return doca_error_get_descr(status);
	}
}

/* Remember why `ctx` is about to stop, for its follow-on errors (alive_text.c). */
static void sd_keep_stop_reason(const struct doca_ctx *ctx, const char *reason)
{
	struct sd_alive_entry *e;
	char *copy = strdup(reason);

	sd_alive_lock();
	e = sd_alive_find_locked(ctx);
	if (e != NULL) {
		free(e->stop_reason);
		e->stop_reason = copy;
		e->reason_told = false;
		copy = NULL;
	}
	sd_alive_unlock();
	free(copy);
}

void sd_debug_task_failed(struct doca_task *task, doca_error_t status)
{
	const struct sd_task_ops *ops = task->conf->ops;
	const struct doca_ctx *ctx = task->ctx;
	const struct sd_fault_clause *clause;
	struct sd_explain ex;
	char why[SD_REASON_MAX + 160];
	char head[SD_REASON_MAX + 320];
	const char *file = __FILE__;
	int line = __LINE__;
	uint64_t occurrence = 0, others;
	char nth[32], flushed[96] = "";

	clause = sd_faults_take_injected(task, &occurrence);
	if (clause != NULL) {
		snprintf(why, sizeof(why),
			 "failed on purpose by SOFTDOCA_FAULTS clause '%s' (the %s matching task execution)",
			 clause->text, sd_ordinal(occurrence, nth, sizeof(nth)));
	} else if (sd_explain_rule(task, status, &ex)) {
		snprintf(why, sizeof(why), "%s", ex.text);
		file = ex.file;
		line = ex.line;
	} else {
		snprintf(why, sizeof(why), "%s", sd_status_reason(status));
	}
	snprintf(head, sizeof(head), "%s task %p of %s %p failed with %s: %s", ops->name, (void *)task,
		 ctx->ops->type_name, (const void *)ctx, doca_error_get_name(status), why);
	if (!ops->failure_is_fatal) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, file, line, "doca_pe_progress",
				     "%s; its error callback runs now and the context keeps running", head);
		return;
	}
	sd_keep_stop_reason(ctx, head);
	snprintf(why, sizeof(why), "%s task %p of %s %p failed with %s", ops->name, (void *)task, ctx->ops->type_name,
		 (const void *)ctx, doca_error_get_name(status));
	sd_cascade_task_failed(why);
	others = ctx->inflight > 0 ? ctx->inflight - 1 : 0;
	if (others != 0)
		snprintf(flushed, sizeof(flushed), " (%llu other task(s) in flight are flushed with DOCA_ERROR_SHUTDOWN)",
			 (unsigned long long)others);
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, file, line, "doca_pe_progress",
			     "%s; so the context is stopping: call doca_pe_progress until it is IDLE and free every "
			     "task with doca_task_free%s",
			     head, flushed);
}
