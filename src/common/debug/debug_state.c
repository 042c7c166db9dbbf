/*
 * debug_state.c - switching the debugging features on and off, and the
 * hooks that several of them share.
 *
 * The environment is read before main() (SOFTDOCA_FAULTS, SOFTDOCA_TRACE,
 * SOFTDOCA_WATCHDOG); a value that cannot be used is said on stderr at
 * once, as for SOFTDOCA_SDK_LOG, because no log backend exists yet.  What
 * is armed is logged at INFO by the first DOCA object the program creates,
 * when its own backends exist.  At exit: the trace is completed, injected
 * faults are counted, and what is still alive is listed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "debug_priv.h"
#include "sd_exec.h"
#include "sd_log.h"

SD_PRIV uint32_t priv_doca_debug_flags;

static atomic_bool sd_announced;

void sd_debug_announce(void)
{
	if (atomic_load_explicit(&sd_announced, memory_order_relaxed) || atomic_exchange(&sd_announced, true))
		return;
	sd_faults_announce();
	if (priv_doca_trace_enabled())
		priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, "SOFTDOCA_TRACE",
				  "writing every task, state change and fault to '%s' (Chrome "
				  "trace-event JSON; open it in Perfetto or chrome://tracing)",
				  sd_trace_path());
}

static void sd_debug_env_faults(void)
{
	const char *text = getenv("SOFTDOCA_FAULTS");
	struct sd_fault_spec spec;
	char err[256];

	if (text == NULL || *text == '\0')
		return;
	if (!sd_faults_parse(text, &spec, err, sizeof(err))) {
		fprintf(stderr, "softdoca: SOFTDOCA_FAULTS='%s': %s; no fault is injected\n", text, err);
		return;
	}
	sd_faults_arm(&spec, "the environment (SOFTDOCA_FAULTS)");
}

/* Locks are taken in this order across fork(), so the child finds them free. */
static void sd_debug_prefork(void)
{
	sd_watchdog_fork_lock();
	sd_alive_lock();
	sd_trace_fork_lock();
	sd_faults_fork_lock();
}

static void sd_debug_postfork_parent(void)
{
	sd_faults_fork_unlock();
	sd_trace_fork_unlock();
	sd_alive_unlock();
	sd_watchdog_fork_unlock(false);
}

static void sd_debug_postfork_child(void)
{
	sd_faults_fork_unlock();
	sd_trace_fork_unlock();
	sd_alive_unlock();
	sd_watchdog_fork_unlock(true);
}

/* After the log library's own environment backend (constructor 102). */
static void __attribute__((constructor(103))) sd_debug_init(void)
{
	const char *trace = getenv("SOFTDOCA_TRACE");

	(void)pthread_atfork(sd_debug_prefork, sd_debug_postfork_parent, sd_debug_postfork_child);
	sd_debug_env_faults();
	if (trace != NULL && *trace != '\0')
		(void)sd_trace_open(trace);
	(void)sd_watchdog_configure(getenv("SOFTDOCA_WATCHDOG"));
	(void)sd_cascade_configure(getenv("SOFTDOCA_FAILURE_DETAIL"));
}

static void __attribute__((destructor)) sd_debug_fini(void)
{
	sd_watchdog_stop();
	sd_alive_report_exit();
	sd_faults_report_exit();
	sd_trace_close();
}

/* ---- hooks shared by faults and tracing ---- */

doca_error_t sd_debug_submit(struct doca_task *task)
{
	doca_error_t err = sd_faults_submit(task);

	if (err == DOCA_SUCCESS && priv_doca_trace_enabled())
		task->debug_t0 = sd_mono_ns();
	return err;
}

void sd_debug_report(struct doca_task *task, doca_error_t status)
{
	if (priv_doca_trace_enabled())
		sd_trace_task(task, task->debug_t0, sd_mono_ns(), status);
}

doca_error_t sd_debug_ctx_start(struct doca_ctx *ctx)
{
	sd_debug_announce();
	sd_watchdog_ensure();
	return sd_faults_ctx_start(ctx);
}

void sd_debug_ctx_state(struct doca_ctx *ctx, enum doca_ctx_states prev, enum doca_ctx_states next)
{
	struct sd_alive_entry *e;

	if (next == DOCA_CTX_STATE_IDLE || next == DOCA_CTX_STATE_RUNNING) {
		/* A stop that ended (or a new start) forgets why the last stop happened. */
		sd_alive_lock();
		e = sd_alive_find_locked(ctx);
		if (e != NULL) {
			free(e->stop_reason);
			e->stop_reason = NULL;
		}
		sd_alive_unlock();
	}
	if (!priv_doca_trace_enabled())
		return;
	sd_trace_state(ctx, prev, next);
	if (next == DOCA_CTX_STATE_IDLE)
		sd_trace_flush();
}
