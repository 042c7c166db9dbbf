/*
 * sd_debug.h - what a card cannot show: why a task failed, failures on
 * purpose (SOFTDOCA_FAULTS), a timeline (SOFTDOCA_TRACE), a progress
 * watchdog (SOFTDOCA_WATCHDOG) and the list of what is still alive.
 *
 * Everything lives in src/common/debug.  The context framework, the memory
 * layer and the device layer call in through the hooks below, each one
 * marked line on a path that is cold (creation, destruction, state
 * changes, failures) or that only tasks of a debugging run take:
 *
 *  - while faults or tracing are on (priv_doca_debug_flags != 0 when a
 *    context starts), every task of that context takes the framework's
 *    full submit and report paths (struct doca_task.early), where the
 *    hooks sit.  With both off, the default engine's per-task path has no
 *    hook at all;
 *  - the watchdog needs one counter bump per doca_pe_progress call
 *    (struct doca_pe.progress_calls), read by a thread that exists only
 *    once a context was started.
 *
 * The hooks are hidden functions of libdoca_common, where the framework
 * lives; only the flags word and the engine trace calls are exported.
 */
#ifndef SD_DEBUG_H
#define SD_DEBUG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_ctx.h>
#include <doca_error.h>

#include "sd_visibility.h"

struct doca_task;
struct doca_ctx;
struct doca_pe;
struct doca_dev;

/* ---- the switch ---------------------------------------------------------- */

/* Bits of priv_doca_debug_flags: the features that look at every task. */
#define SD_DEBUG_FAULTS 0x1u /* SOFTDOCA_FAULTS (or the topology's faults key) armed */
#define SD_DEBUG_TRACE 0x2u  /* SOFTDOCA_TRACE names a file */

/*
 * Set from the environment before main() and from the topology file when
 * it is read, so always before the first context starts; never cleared.
 * Exported with the trace calls below, for engines in other libraries.
 */
SD_PRIV extern uint32_t priv_doca_debug_flags;

/* ---- tasks (src/common/exec) ----------------------------------------------- */

/*
 * doca_task_submit/_ex/try_submit of a task whose context started with
 * debugging on, before the task is queued: stamps the trace's start time
 * and decides submit faults.  Returns the refusal the call must return
 * (the task stays with the application), or DOCA_SUCCESS.
 */
doca_error_t sd_debug_submit(struct doca_task *task);

/*
 * Before an early engine (worker threads, GPU queue, Comch) starts on a
 * submitted task: when a task fault fires, the task is made ready with the
 * injected status (no byte moves, nothing is sent) and true is returned.
 */
bool sd_debug_engine_fault(struct doca_task *task);

/*
 * A task of the default engine is about to execute inside
 * doca_pe_progress: when a task fault fires, *status is the injected error
 * and true is returned (the task is not executed).
 */
bool sd_debug_exec_fault(struct doca_task *task, doca_error_t *status);

/* A task is being reported with `status` (trace slice end). */
void sd_debug_report(struct doca_task *task, doca_error_t status);

/*
 * A task was executed and failed (not flushed): the one ERROR record that
 * names the task, the rule it broke in words and the fix.  For a task type
 * whose failure stops its context, the reason is kept for the follow-on
 * errors of the stopping context.  Called before the context leaves
 * RUNNING and before the error callback.
 */
void sd_debug_task_failed(struct doca_task *task, doca_error_t status);

/*
 * A task rule broken outside doca_task_try_submit (inside doca_pe_progress,
 * on a worker thread, at an asynchronous submit): kept as the reason of
 * sd_debug_task_failed when it is asking, else a DEBUG record.
 */
void sd_debug_rule_vlog(const char *file, int line, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/* ---- contexts and progress engines ------------------------------------------ */

/* A context instance was initialised / is being torn down (registry). */
void sd_debug_ctx_created(struct doca_ctx *ctx);
void sd_debug_ctx_destroyed(struct doca_ctx *ctx);

/*
 * doca_ctx_start passed its generic checks: starts the watchdog, and
 * decides start faults (the refusal to return, logged, or DOCA_SUCCESS).
 */
doca_error_t sd_debug_ctx_start(struct doca_ctx *ctx);

/* A context changed state (trace instant; flush at IDLE; forget old reasons). */
void sd_debug_ctx_state(struct doca_ctx *ctx, enum doca_ctx_states prev, enum doca_ctx_states next);

/*
 * doca_ctx_stop met a context that is already STOPPING: after a failed
 * task, an INFO record says why and what to do (the first refused call
 * says it at ERROR).  Returns DOCA_ERROR_IN_PROGRESS.
 */
doca_error_t sd_debug_ctx_stop_again(struct doca_ctx *ctx);

/*
 * Text appended to the error of a call refused because of what is still
 * alive ("; it is STOPPING because ...: call doca_pe_progress ...").  The
 * result lives in a per-thread buffer until the next call of these.
 */
const char *sd_debug_ctx_note(const struct doca_ctx *ctx);
const char *sd_debug_pe_note(const struct doca_pe *pe);
const char *sd_debug_dev_note(const struct doca_dev *dev);

/* A progress engine was created / is being destroyed (registry, track id). */
void sd_debug_pe_created(struct doca_pe *pe);
void sd_debug_pe_destroyed(struct doca_pe *pe);

/* ---- objects of the memory and device layers (the alive report) ---------------- */

enum sd_alive_kind {
	SD_ALIVE_DEV = 0,
	SD_ALIVE_PE = 1,
	SD_ALIVE_CTX = 2,
	SD_ALIVE_MMAP = 3,
	SD_ALIVE_INVENTORY = 4,
	SD_ALIVE_POOL = 5,
};

/* An object came to life / is about to be freed. */
void sd_alive_add(enum sd_alive_kind kind, void *obj);
void sd_alive_remove(void *obj);

/*
 * How many buffers a pool or inventory holds and how many are free: given
 * by the memory layer with the object, so the exit report can count them
 * without this layer calling up into that one.
 */
typedef void (*sd_alive_bufs_fn)(const void *obj, uint32_t *total, uint32_t *free_n);

/* sd_alive_add for an inventory or a pool, with its counter. */
void sd_alive_add_bufs(enum sd_alive_kind kind, void *obj, sd_alive_bufs_fn count);

/*
 * doca_mmap_create_from_export passed its checks: an import fault's
 * refusal (logged) or DOCA_SUCCESS.
 */
doca_error_t sd_debug_import_fault(const char *func);

/* ---- the topology file's `faults = SPEC` key (src/common/dev) ----------------- */

/*
 * Check SPEC (the grammar of SOFTDOCA_FAULTS) while the file is parsed;
 * false with the problem in `err`.  The spec is kept until
 * sd_faults_topology_commit arms it (when the whole file was accepted).
 */
bool sd_faults_topology_stage(const char *spec, char *err, size_t err_len);
void sd_faults_topology_commit(void);

/* ---- the engines' side ---------------------------------------------------------- */

/*
 * The completion delay SOFTDOCA_FAULTS (or the topology's faults key)
 * armed: true with its bound (microseconds) and seed, false when none.
 * The worker engine reads it when it opens a queue; the fault injector
 * never reaches into an engine.
 */
bool sd_faults_delay(uint32_t *max_us, uint64_t *seed);

/*
 * Completion delay for chaos runs (SOFTDOCA_FAULTS `delay=MAX_US`): every
 * completion of an engine that supports it is held back a pseudo-random
 * 0..max_us microseconds, derived from `seed`.  This file declares it; the
 * definition in src/common/debug is a weak stub that says the engine has no
 * delay knob, which an engine replaces by defining the function.
 */

/*
 * Engine worker tracks of the trace.  An engine that runs copies on its own
 * threads calls, from the worker (any thread; thread-safe):
 *
 *	if (priv_doca_trace_enabled()) {
 *		uint64_t t0 = priv_doca_trace_now_ns();
 *		... run the job ...
 *		priv_doca_trace_worker_span(worker_index, "copy", t0, priv_doca_trace_now_ns());
 *	}
 *
 * Each worker index gets one track ("engine worker N"); spans of one worker
 * must not overlap.  `what` must be a string with static storage (a
 * literal): it is kept, not copied.  Costs one lock and a 48-byte record
 * per span; nothing at all while tracing is off.
 */
static inline bool priv_doca_trace_enabled(void)
{
	return (priv_doca_debug_flags & SD_DEBUG_TRACE) != 0;
}

SD_PRIV uint64_t priv_doca_trace_now_ns(void);
SD_PRIV void priv_doca_trace_worker_span(unsigned worker, const char *what, uint64_t t0_ns, uint64_t t1_ns);

#endif /* SD_DEBUG_H */
