/*
 * debug_priv.h - what the files of src/common/debug share: the registry of
 * live objects, the fault clauses, the trace buffer and the watchdog.
 * Private to the folder; the rest of softdoca sees sd_debug.h only.
 */
#ifndef SD_DEBUG_PRIV_H
#define SD_DEBUG_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <doca_error.h>

#include "sd_clock.h"
#include "sd_debug.h"

/* ---- the registry of live objects (alive.c) ---------------------------------- */

struct sd_alive_entry {
	void *obj;
	enum sd_alive_kind kind;
	pid_t pid;       /* process that created it (a forked child inherits the table) */
	uint32_t serial; /* per kind, from 1, in creation order */
	sd_alive_bufs_fn count_bufs; /* inventories and pools: their counter */
	/* Contexts: why the context is STOPPING after a failed task (malloc'd), and
	 * whether a follow-on error already told it. */
	char *stop_reason;
	bool reason_told;
	/*
	 * The watchdog's view.  Progress engines: since when nothing
	 * progressed with tasks in flight.  Contexts: since when the context
	 * is STOPPING with tasks still allocated and none in flight (it waits
	 * for doca_task_free).  0: not stalled.
	 */
	uint64_t wd_calls;    /* engines: progress_calls at the last sample */
	uint64_t wd_idle_ns;
	bool wd_warned;       /* this stall was reported */
};

/* One lock guards the table and every entry's fields. */
void sd_alive_lock(void);
void sd_alive_unlock(void);

/* The entry of `obj`, or NULL (lock held). */
struct sd_alive_entry *sd_alive_find_locked(const void *obj);

/* The entries, in creation order (lock held; valid until the lock is dropped). */
size_t sd_alive_count_locked(void);
struct sd_alive_entry *sd_alive_at_locked(size_t i);

/* The entry serial of a progress engine (its trace track), or 0. */
uint32_t sd_alive_pe_serial(const struct doca_pe *pe);

/* Short descriptions of live objects (alive_text.c), for notes and the exit report. */
size_t sd_describe_ctx(const struct doca_ctx *ctx, char *out, size_t len);
size_t sd_describe_entry(const struct sd_alive_entry *e, char *out, size_t len);

/* What is left at exit, one WARNING per object of this process (alive_text.c). */
void sd_alive_report_exit(void);

/* ---- the first failure and what follows from it (cascade.c) ------------------- */

/* SOFTDOCA_FAILURE_DETAIL: summary (default) or full; false with a message on stderr. */
bool sd_cascade_configure(const char *text);

/* A failed task stopped its context; `head` names task, context and error (the first one is kept). */
void sd_cascade_task_failed(const char *head);

/* A note for one refused call is being built (alive_text.c): the next follow_on counts. */
void sd_cascade_note_begin(void);

/* The record being built follows from that failure: counted once, and logged at INFO unless full. */
void sd_cascade_follow_on(void);

/* The level of the per-object lines of the exit report. */
uint32_t sd_cascade_exit_level(void);

/* At exit: one WARNING that counts the follow-ons and points to the first error. */
void sd_cascade_report_exit(size_t alive);

/* ---- faults (faults_parse.c, faults.c) ---------------------------------------- */

enum sd_fault_point {
	SD_FP_TASK = 0,   /* a task starts executing (any type, or one type) */
	SD_FP_SUBMIT = 1, /* doca_task_submit / _ex / try_submit */
	SD_FP_IMPORT = 2, /* doca_mmap_create_from_export */
	SD_FP_START = 3,  /* doca_ctx_start */
	SD_FP_COUNT = 4,
};

enum sd_fault_trigger {
	SD_FT_NTH = 0,   /* only the n-th occurrence */
	SD_FT_EVERY = 1, /* occurrences n, 2n, 3n, ... */
	SD_FT_SHARE = 2, /* each occurrence with probability `share` (seeded) */
};

#define SD_FAULT_TEXT_MAX 256
#define SD_FAULT_TYPE_MAX 32
#define SD_FAULT_CLAUSES_MAX 16

struct sd_fault_clause {
	enum sd_fault_point point;
	enum sd_fault_trigger trigger;
	uint64_t n;            /* nth / every */
	double share;          /* share, 0..1 */
	uint64_t threshold;    /* share as a 64-bit fraction */
	uint64_t seed;
	bool own_seed;         /* seed= given in the clause */
	uint64_t limit;        /* count=: at most this many failures (0: no limit) */
	doca_error_t err;
	char type[SD_FAULT_TYPE_MAX]; /* task type filter; "" matches every type */
	char text[SD_FAULT_TEXT_MAX]; /* the clause as written */
	atomic_uint_fast64_t seen;    /* occurrences counted */
	atomic_uint_fast64_t fired;   /* failures injected */
};

struct sd_fault_spec {
	struct sd_fault_clause c[SD_FAULT_CLAUSES_MAX];
	unsigned n;
	uint64_t seed;      /* seed= clause: default of clauses without their own */
	uint32_t delay_us;  /* delay= clause (0: none) */
	bool has_delay;
};

/* Parse `text` into `spec`; false with the problem in `err`. */
bool sd_faults_parse(const char *text, struct sd_fault_spec *spec, char *err, size_t err_len);

/* The error a point fails with when the clause names none. */
doca_error_t sd_faults_default_error(enum sd_fault_point point);

/* A word for the point, as written in a clause ("task", "submit", ...). */
const char *sd_faults_point_name(enum sd_fault_point point);

/* Arm a parsed spec (faults.c); `origin` names where it came from. */
void sd_faults_arm(const struct sd_fault_spec *spec, const char *origin);

/* Log the armed clauses at INFO (once; the program has its backends by now). */
void sd_faults_announce(void);

/*
 * Count one occurrence of `point` (of a task of type `type`, or NULL) and
 * decide: true with the clause and the occurrence number when it fails.
 */
bool sd_faults_fire(enum sd_fault_point point, const char *type, const struct sd_fault_clause **clause,
		    uint64_t *occurrence);

/* The clause that failed `task` on purpose (forgotten once asked), or NULL. */
const struct sd_fault_clause *sd_faults_take_injected(const struct doca_task *task, uint64_t *occurrence);

/* Submit and start faults: the refusal to return (logged), or DOCA_SUCCESS. */
doca_error_t sd_faults_submit(struct doca_task *task);
doca_error_t sd_faults_ctx_start(struct doca_ctx *ctx);

/* How many failures were injected per clause, at INFO (exit). */
void sd_faults_report_exit(void);

/* "1st", "2nd", "3rd", "4th", ... into `out`. */
const char *sd_ordinal(uint64_t n, char *out, size_t len);

/* ---- the trace (trace.c) --------------------------------------------------------- */

enum sd_trace_kind {
	SD_TR_TASK = 0,  /* a task from submit to its report */
	SD_TR_STATE = 1, /* a context changed state */
	SD_TR_FAULT = 2, /* a fault was injected */
	SD_TR_SPAN = 3,  /* an engine worker ran something */
};

/* Open SOFTDOCA_TRACE's file; false (with a message on stderr) when it cannot be. */
bool sd_trace_open(const char *path);

/* Record one event (thread-safe). */
void sd_trace_task(const struct doca_task *task, uint64_t t0, uint64_t t1, doca_error_t status);
void sd_trace_state(const struct doca_ctx *ctx, enum doca_ctx_states prev, enum doca_ctx_states next);
void sd_trace_fault(const struct sd_fault_clause *clause, uint64_t occurrence, const struct doca_task *task,
		    const struct doca_pe *pe);

/* Write what is buffered and leave the file a complete JSON document. */
void sd_trace_flush(void);

/* Flush and close (exit). */
void sd_trace_close(void);

/* The file being written (announce). */
const char *sd_trace_path(void);

/* ---- the watchdog (watchdog.c) ------------------------------------------------------ */

/* Seconds from SOFTDOCA_WATCHDOG (0: off); false with a message on a bad value. */
bool sd_watchdog_configure(const char *text);

/* Start the thread if the watchdog is on and it does not run yet. */
void sd_watchdog_ensure(void);

/* Stop and join it (exit). */
void sd_watchdog_stop(void);

/* ---- fork(): every lock of the folder is held across it ------------------------------ */

void sd_watchdog_fork_lock(void);
void sd_watchdog_fork_unlock(bool child);
void sd_trace_fork_lock(void);
void sd_trace_fork_unlock(void);
void sd_faults_fork_lock(void);
void sd_faults_fork_unlock(void);

/* ---- shared helpers (debug_state.c) --------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds. */

/* Say once, at INFO, which debugging features are armed. */
void sd_debug_announce(void);

#endif /* SD_DEBUG_PRIV_H */
