/*
 * se_test.h - what the sync event tests share: a device, an event in a
 * chosen configuration, and a context with every task type configured and
 * its callbacks recording into `struct se_log`.
 */
#ifndef SE_TEST_H
#define SE_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "sd_devices.h"
#include "sd_test.h"

struct se_log {
	int ok, failed;
	doca_error_t last_status;
	struct doca_task *last;
};

static struct se_log se_log;

static inline void se_record(struct doca_task *task, bool ok)
{
	if (ok)
		se_log.ok++;
	else
		se_log.failed++;
	se_log.last_status = doca_task_get_status(task);
	se_log.last = task;
	doca_task_free(task);
}

#define SE_CALLBACKS(kind)                                                                              \
	static void se_##kind##_ok(struct doca_sync_event_task_##kind *t, union doca_data a, union doca_data b) \
	{                                                                                               \
		(void)a, (void)b;                                                                       \
		se_record(doca_sync_event_task_##kind##_as_doca_task(t), true);                          \
	}                                                                                               \
	static void se_##kind##_err(struct doca_sync_event_task_##kind *t, union doca_data a, union doca_data b) \
	{                                                                                               \
		(void)a, (void)b;                                                                       \
		se_record(doca_sync_event_task_##kind##_as_doca_task(t), false);                         \
	}

SE_CALLBACKS(get)
SE_CALLBACKS(notify_set)
SE_CALLBACKS(notify_add)
SE_CALLBACKS(wait_eq)
SE_CALLBACKS(wait_neq)

/* Configure every task type (8 tasks each), connect to a new PE and start. */
static inline doca_error_t se_start_ctx(struct doca_sync_event *ev, struct doca_pe **pe)
{
	struct doca_ctx *ctx = doca_sync_event_as_ctx(ev);
	doca_error_t err;

	if (ctx == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if ((err = doca_sync_event_task_get_set_conf(ev, se_get_ok, se_get_err, 8)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_task_notify_set_set_conf(ev, se_notify_set_ok, se_notify_set_err, 8)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_task_notify_add_set_conf(ev, se_notify_add_ok, se_notify_add_err, 8)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_task_wait_eq_set_conf(ev, se_wait_eq_ok, se_wait_eq_err, 8)) != DOCA_SUCCESS ||
	    (err = doca_sync_event_task_wait_neq_set_conf(ev, se_wait_neq_ok, se_wait_neq_err, 8)) != DOCA_SUCCESS)
		return err;
	if ((err = doca_pe_create(pe)) != DOCA_SUCCESS)
		return err;
	if ((err = doca_pe_connect_ctx(*pe, ctx)) != DOCA_SUCCESS)
		return err;
	return doca_ctx_start(ctx);
}

/* Stop the context, progress it to IDLE, destroy event and PE. */
static inline void se_stop_ctx(struct doca_sync_event *ev, struct doca_pe *pe)
{
	struct doca_ctx *ctx = doca_sync_event_as_ctx(ev);
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	(void)doca_ctx_stop(ctx);
	for (int i = 0; i < 100000 && doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE; i++)
		(void)doca_pe_progress(pe);
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_pe_destroy(pe));
}

static inline double se_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progress until a task reports or `limit_s` passes; true when one reported. */
static inline bool se_progress_one(struct doca_pe *pe, double limit_s)
{
	double end = se_now() + limit_s;

	while (se_now() < end)
		if (doca_pe_progress(pe) != 0)
			return true;
	return false;
}

#endif /* SE_TEST_H */
