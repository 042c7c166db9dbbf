/*
 * sd_exec.h - the generic context framework: contexts, tasks, progress
 * engines, and the ops tables through which a library plugs in.
 *
 * Core code (src/common/exec) knows nothing of DMA, Comch or advise.  A
 * library embeds `struct doca_ctx` in its instance and `struct doca_task` as
 * the FIRST member of each task type, describes itself with a
 * `struct sd_ctx_ops` and each task type with a `struct sd_task_ops`, and
 * lets the framework run the context state machine and the progress
 * algorithm (one unit of work per doca_pe_progress call).
 *
 * Threading: one progress domain (a PE with its contexts and tasks) is used
 * by one thread at a time; nothing here locks.  Engine threads only touch
 * the atomic `ready` word of a task and the PE's wake-up path.
 */
#ifndef SD_EXEC_H
#define SD_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_pe.h>
#include <doca_types.h>

#include "sd_lines.h"
#include "sd_visibility.h"

struct doca_dev;
struct sd_task_conf;

/* Who owns a task slot. */
enum sd_task_own {
	SD_TASK_FREE = 0,      /* in the pool */
	SD_TASK_APP = 1,       /* allocated, held by the application */
	SD_TASK_IN_FLIGHT = 2, /* submitted, callback not yet entered */
};

struct doca_task {
	/*
	 * SD_TASK_MAGIC for every slot of a live pool, first so that a pointer
	 * to anything else (another object, freed memory the allocator reused)
	 * is told apart with one load before any other field is trusted.
	 */
	uint32_t magic;
	struct doca_ctx *ctx;
	struct sd_task_conf *conf; /* task type of the owning context */
	struct doca_task *next;    /* PE FIFO link while in flight */
	union doca_data user_data;
	doca_error_t status;
	uint32_t slot;             /* index in its pool, fixed with the pool (engines' completion slots) */
	uint8_t own;               /* enum sd_task_own */
	uint8_t ready_counted;     /* settled by sd_task_settle_waiting: counted in ctx->waiting_ready */
	/*
	 * doca_task_free was called while the task was in flight: it goes back
	 * to its pool after the first report whose callback leaves it with the
	 * application (task.c, sd_task_release_after_report).
	 */
	uint8_t free_pending;
	/*
	 * The task type has an early engine (ops->on_submit != NULL), or the
	 * context started while faults or tracing were on (sd_debug.h); set
	 * with the pool, so the per-task paths test one byte of the task
	 * instead of following conf and ops.  Either way the task takes the
	 * full submit and report paths.
	 */
	bool early;
	/*
	 * Engines that execute ahead of reporting (worker threads) set this
	 * to 1 with release ordering once the task's outcome is known; the
	 * default engine never uses it (every task is ready at once).
	 */
	atomic_uchar ready;
	doca_error_t early_status; /* outcome recorded by an early engine */
	/*
	 * Non-NULL while a graph owns the task: its report goes
	 * to the PE's graph_task_report hook instead of the task callbacks.
	 */
	void *graph_node;
	uint64_t debug_t0; /* issue 12: submit time while tracing (sd_debug.h) */
};

#define SD_TASK_MAGIC 0x4b534154u /* "TASK" */

/* `task` is a task slot of a live pool (in any ownership state). */
static inline bool sd_task_is_task(const struct doca_task *task)
{
	return task != NULL && task->magic == SD_TASK_MAGIC;
}

/* Per task type behaviour, supplied by the library. */
struct sd_task_ops {
	const char *name;  /* e.g. "memcpy", used in diagnostics */
	size_t task_size;  /* sizeof the library task (doca_task first) */
	/* Rule checks shared by try_submit and execution. */
	doca_error_t (*validate)(struct doca_task *task);
	/*
	 * Run the task now, inside doca_pe_progress (default engine).  Returns
	 * the final status; on failure nothing observable was changed except
	 * for genuine memory-access failures (IO_FAILED).
	 */
	doca_error_t (*execute)(struct doca_task *task);
	/*
	 * Optional: called by doca_task_submit after the task is queued, so an
	 * early engine can start on it.  Must not fail or validate.
	 */
	void (*on_submit)(struct doca_task *task);
	/*
	 * Optional, with on_submit: the task is being reported with `status`
	 * (DOCA_SUCCESS, its failure, or DOCA_ERROR_SHUTDOWN when flushed).
	 * On success apply the metadata changes (destination data_len) now, on
	 * the progress thread, so a task that ends up flushed leaves its
	 * buffers' metadata untouched; in every case release what the submit
	 * reserved.
	 */
	void (*complete)(struct doca_task *task, doca_error_t status);
	/*
	 * Optional, with on_submit: the task's context left RUNNING, so it will
	 * be flushed.  Withdraw the job if no worker took it yet, otherwise wait
	 * for the worker to finish with it; afterwards `ready` is set and no
	 * other thread touches the task (a flushed task is ready).
	 */
	void (*cancel)(struct doca_task *task);
	/*
	 * Optional, with on_submit, for engines that have no thread of their
	 * own to set `ready` (hardware queues): look whether the task has
	 * finished.  On true the hook has recorded early_status; the framework
	 * then marks the task ready.  Called by doca_pe_progress and by the
	 * notification calls, on the progress thread.
	 */
	bool (*poll)(struct doca_task *task);
	/*
	 * Optional, with poll: the PE was armed (doca_pe_request_notification)
	 * while this task is unfinished.  Arrange for priv_doca_pe_kick when it
	 * finishes, holding the PE (sd_pe_hold) until that kick is done.
	 */
	void (*arm)(struct doca_task *task);
	/*
	 * Invoke the application's callback with its typed signature.  `cb` is
	 * the function pointer the library stored in the conf.  It comes last
	 * so that the other arguments already sit where the callback expects
	 * its own: the hook compiles to one indirect jump.
	 */
	void (*invoke)(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud, void (*cb)(void));
	/*
	 * Optional, with on_submit: may the task be queued now?  Asked by the
	 * submit calls before anything changes; a refusal is the submit's
	 * result and the task stays with the application (a Comch producer's
	 * send answers DOCA_ERROR_AGAIN while its consumer has no buffer
	 * posted).  The hook logs the rules it enforces; AGAIN is back-pressure
	 * and logs nothing.
	 */
	doca_error_t (*admit)(struct doca_task *task);
	/*
	 * With on_submit: the engine settles the task at submit (its bytes
	 * left, as a card's send once posted), so a stop reports that outcome
	 * rather than DOCA_ERROR_SHUTDOWN.  Tasks the engine still holds must
	 * have their early status set by the library's on_stopping.
	 */
	bool outcome_survives_stop;
	/* Whether an execution failure of this type stops the context. */
	bool failure_is_fatal;
	/*
	 * With on_submit: an unfinished task of this type does not hold back
	 * the later tasks of its context (an RDMA receive waits for the peer's
	 * send, while the context's own sends and writes complete meanwhile).
	 */
	bool independent;
};

/* A fixed pool of task objects, sized at context start. */
struct sd_task_pool {
	uint8_t *slab;              /* capacity * stride bytes */
	struct doca_task **free_stack;
	size_t stride;
	uint32_t capacity;
	uint32_t nfree;
};

/* One configured task type of one context. */
struct sd_task_conf {
	const struct sd_task_ops *ops;
	void (*success_cb)(void);
	void (*error_cb)(void);
	uint32_t num_tasks;   /* pool size for the next start */
	bool configured;
	struct sd_task_pool pool;
};

/* Per library behaviour of a context. */
struct sd_ctx_ops {
	const char *type_name; /* "doca_dma", used in diagnostics */
	/*
	 * Library part of doca_ctx_start, after the generic checks (NULL,
	 * state, PE).  Returns DOCA_SUCCESS, or the error that doca_ctx_start
	 * returns with the context left IDLE.  Task pools of configured
	 * types are created by the framework after this succeeds.
	 */
	doca_error_t (*start)(struct doca_ctx *ctx);
	/* true: IDLE -> RUNNING inside start; false: IDLE -> STARTING. */
	bool sync_start;
	/* Library resources released when the context reaches IDLE. */
	void (*release)(struct doca_ctx *ctx);
	/* Outstanding library work that keeps a STOPPING context (Comch). */
	bool (*has_outstanding)(struct doca_ctx *ctx);
	/* Called when the context enters STOPPING (drop connections, ...). */
	void (*on_stopping)(struct doca_ctx *ctx);
	/* Event step; NULL when the library has no events. */
	bool (*event_pending)(struct doca_ctx *ctx);
	void (*event_dispatch)(struct doca_ctx *ctx);
	/* Asynchronous start: STARTING -> RUNNING is ready to be reported. */
	bool (*start_complete)(struct doca_ctx *ctx);
};

/* DOCA RDMA (eleven task types) and the sync event need more than 4. */
#define SD_CTX_MAX_TASK_TYPES 16

struct doca_ctx {
	uint32_t magic; /* SD_CTX_MAGIC while the instance exists */
	enum doca_ctx_states state;
	const struct sd_ctx_ops *ops;
	struct doca_dev *dev;      /* device the instance was created on */
	struct doca_pe *pe;        /* NULL until connected */
	struct doca_ctx *pe_next;  /* PE's list of connected contexts */
	union doca_data user_data;
	doca_ctx_state_changed_callback_t state_cb;
	uint64_t inflight;
	uint64_t allocated;
	uint32_t comp_vector;
	uint32_t num_task_types;
	struct sd_task_conf task_types[SD_CTX_MAX_TASK_TYPES];
	uint32_t scan_mark;        /* scratch for the PE's ordered scan */
	/*
	 * Queued tasks of "waiting" types (independent, no poll hook: only
	 * their library makes them ready, on the progress thread), and how many
	 * of those it settled (sd_task_settle_waiting).  While every queued
	 * task of a RUNNING context is one of these and none is settled, the
	 * PE's scan passes the context at its first task instead of visiting
	 * each (an RDMA receiver keeps hundreds of receives posted).
	 */
	uint32_t waiting_queued;
	uint32_t waiting_ready;
	/* Frees of in-flight tasks since the start (the first is a warning, the rest debug records). */
	uint32_t freed_in_flight;
};

#define SD_CTX_MAGIC 0x43545830u /* "CTX0" */

/* A task of this type waits for something outside its context and is made ready by its library alone. */
static inline bool sd_task_ops_waiting(const struct sd_task_ops *ops)
{
	return ops->independent && ops->poll == NULL;
}

/*
 * The library settles a queued task of a waiting type (sd_task_ops_waiting)
 * with `status`, on the progress thread: the only way such a task becomes
 * ready while its context runs, so that the PE's count stays exact.
 */
static inline void sd_task_settle_waiting(struct doca_task *task, doca_error_t status)
{
	task->early_status = status;
	task->ready_counted = 1;
	task->ctx->waiting_ready++;
	atomic_store_explicit(&task->ready, 1, memory_order_release);
}

/* `task` is a task of a context of the library described by `ops`. */
static inline bool sd_task_of_ctx_type(const struct doca_task *task, const struct sd_ctx_ops *ops)
{
	return sd_task_is_task(task) && task->ctx->ops == ops;
}

struct doca_pe {
	/*
	 * The first line (sd_lines.h; the PE is allocated on a line): what
	 * doca_pe_progress reads on every call.  Nothing another thread writes
	 * shares it (the watchdog only reads progress_calls).
	 */
	uint32_t magic; /* SD_PE_MAGIC while valid */
	uint32_t num_ctxs;
	struct doca_ctx *ctxs;   /* connected contexts */
	struct doca_task *fifo_head;
	struct doca_task *fifo_tail;
	/* issue 12 (sd_debug.h): calls of doca_pe_progress, read by the watchdog. */
	uint64_t progress_calls;
	uint32_t stopping;       /* connected contexts in STOPPING */
	uint32_t event_ctxs;     /* connected contexts with an event step */
	uint32_t bound_graphs;   /* graphs bound to this PE */
	uint32_t scan_epoch;
	bool dispatching;        /* a callback of this PE is running */
	enum doca_pe_event_mode event_mode;
	/* The first line ends here; workers touch what follows. */
	int efd;                 /* eventfd notification handle */
	atomic_bool armed;       /* doca_pe_request_notification armed it */
	/*
	 * Worker jobs that may still touch this PE (to wake it); destroy waits
	 * for them, since a worker publishes a task before it kicks the PE.
	 */
	atomic_uint jobs_touching;
	/* Optional graph engine hooks; NULL until a graph binds. */
	bool (*graph_pending)(struct doca_pe *pe);
	void (*graph_dispatch)(struct doca_pe *pe);
	/* A graph-owned task finished (status already set, task app-owned). */
	void (*graph_task_report)(struct doca_pe *pe, struct doca_task *task);
	void *graph_priv;
	uint32_t debug_id; /* issue 12 (sd_debug.h): trace track */
};

_Static_assert(offsetof(struct doca_pe, efd) == SD_LINE, "doca_pe_progress's fields fill the PE's first line alone");

#define SD_PE_MAGIC 0x50454e47u /* "PENG" */

/*
 * Library side of the framework (exported to the other softdoca libraries).
 */

/* Initialise the embedded context of a new library instance (state IDLE). */
SD_PRIV void priv_doca_ctx_init(struct doca_ctx *ctx, const struct sd_ctx_ops *ops, struct doca_dev *dev);

/*
 * Tear down the embedded context when the instance is destroyed: checks
 * IDLE (BAD_STATE otherwise) and disconnects it from its PE.
 */
SD_PRIV doca_error_t priv_doca_ctx_fini(struct doca_ctx *ctx, const char *func);

/* Register a task type; returns its index or -1 when the table is full. */
SD_PRIV int priv_doca_ctx_add_task_type(struct doca_ctx *ctx, const struct sd_task_ops *ops);

/* Set the callbacks and pool size of task type `idx` (the ctx must be IDLE). */
SD_PRIV void priv_doca_ctx_conf_task_type(struct doca_ctx *ctx, int idx, void (*success_cb)(void),
					  void (*error_cb)(void), uint32_t num_tasks);

/*
 * Take a task of type `idx` from its pool.  Checks RUNNING (BAD_STATE) and
 * pool exhaustion (NO_MEMORY) and logs the rejection on behalf of `func`.
 * On success the task is application-owned with status DOCA_SUCCESS and the
 * given user data; the library fills its own fields.
 */
SD_PRIV doca_error_t priv_doca_task_alloc(struct doca_ctx *ctx, int idx, union doca_data user_data,
					  struct doca_task **task, const char *func);

/* Signal an armed PE if it has pending work (engine and library threads). */
SD_PRIV void priv_doca_pe_kick(struct doca_pe *pe);

/*
 * Early engines: take a hold on `pe` before handing a job to another
 * thread, and drop it as that thread's last touch of the PE (after its
 * kick).  doca_pe_destroy waits until no hold remains.
 */
static inline void sd_pe_hold(struct doca_pe *pe)
{
	atomic_fetch_add(&pe->jobs_touching, 1);
}

static inline void sd_pe_release(struct doca_pe *pe)
{
	atomic_fetch_sub(&pe->jobs_touching, 1);
}

/* Request an asynchronous STARTING -> RUNNING or fatal stop (Comch). */
SD_PRIV void priv_doca_ctx_fatal_stop(struct doca_ctx *ctx);

/*
 * Submit a task on behalf of a graph: the checks of doca_task_submit without
 * its logging, then queued like any task (counted in flight).
 */
SD_PRIV doca_error_t priv_doca_task_submit_internal(struct doca_task *task);

/*
 * Report a broken task rule from a task type's validate hook.  Inside
 * doca_task_try_submit the refusal is the call's result, so it is one ERROR
 * record on behalf of doca_task_try_submit (one ERROR record).  While a task executes
 * the text goes to src/common/debug: when doca_pe_progress reports the
 * failure it asks the hook again and logs the one ERROR record of the
 * failed task with this text as its reason (sd_debug.h).  Write the text
 * for a user: the object, the rule in words, the fix, and the rule's code
 * in brackets at the end.  Yields `code`.
 */
SD_PRIV void priv_doca_task_rule_log(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define SD_TASK_RULE_FAIL(code, ...) (priv_doca_task_rule_log(__FILE__, __LINE__, __VA_ARGS__), (code))

/* Name of a context state for diagnostics ("RUNNING"). */
static inline const char *sd_ctx_state_name(enum doca_ctx_states state)
{
	switch (state) {
	case DOCA_CTX_STATE_IDLE:
		return "IDLE";
	case DOCA_CTX_STATE_STARTING:
		return "STARTING";
	case DOCA_CTX_STATE_RUNNING:
		return "RUNNING";
	case DOCA_CTX_STATE_STOPPING:
		return "STOPPING";
	}
	return "UNKNOWN";
}

/* true when the current thread is inside a callback dispatched by `pe`. */
static inline bool sd_pe_dispatching(const struct doca_pe *pe)
{
	return pe != NULL && pe->dispatching;
}

#endif /* SD_EXEC_H */
