/*
 * workers_priv.h - the asynchronous cpu engine ("workers"): DMA copies run
 * on library threads while the program's thread goes on, and
 * doca_pe_progress only collects completions, as with a card's DMA engine.
 *
 * Shape (one concept per file):
 *   workers_queue.c  one queue per started DMA context: a single-producer,
 *                    single-consumer submission ring filled by the
 *                    program's thread and a completion counter published by
 *                    the worker that serves the queue; the engine's ops
 *   workers_pool.c   the threads: configuration, CPU placement, the serve
 *                    loop, spinning and sleeping on a futex, fork and exit
 *   workers_chaos.c  the optional completion delay (SOFTDOCA_DMA_CHAOS)
 *   workers_help.c   a program thread that waits on its copies makes them
 *                    itself; the worker takes the copies the program left
 * and the card timing model (../card_timing.h) holds completions the same way.
 *
 * Ownership of a queue's memory, so that no lock is needed per task:
 *   - the program's thread writes ring entries, `tail` and its own cursor
 *     fields; it reads `done` and the per-slot failure words;
 *   - the server (the worker, or for one pass a program thread that waits
 *     on the queue, see workers_help.c) claims the queue with
 *     `serving`, reads ring entries up to `tail`, copies, writes the
 *     failure word of a failed slot, then publishes `done` (release);
 *   - the hot fields of each side sit on their own cache lines.
 */
#ifndef SD_WORKERS_PRIV_H
#define SD_WORKERS_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "sd_clock.h"
#include "sd_engine.h"
#include "sd_lines.h"

struct sd_card;

#define SD_WORKERS_MAX 64u
/*
 * A copy this big costs more than handing it over between CPUs: it
 * publishes its completion on its own, and a pass that copied this much is
 * followed by the next look at the queues without a pause.
 */
#define SD_WQ_BIG_COPY (16u << 10)

/* A spin-wait hint to the CPU (lets a sibling hardware thread run). */
static inline void sd_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* What a ring entry describes. */
enum sd_wq_kind {
	SD_WQ_ONE = 0, /* one local range into one local range: addresses in the entry */
	SD_WQ_JOB = 1, /* any other copy: its segments are in the queue's arena */
};

/* One submitted copy: 32 bytes, two to a cache line. */
struct sd_wq_entry {
	union {
		struct {
			uint8_t *dst;
			const uint8_t *src;
		} one;
		struct {
			uint32_t first; /* arena index of the first source segment */
			uint32_t nsrc;  /* then nsrc sources and ndst destinations */
			uint32_t ndst;
		} job;
	} u;
	uint64_t total;
	uint32_t slot;
	uint32_t kind; /* enum sd_wq_kind */
};

struct sd_worker;

struct sd_engine_queue {
	/* ---- written by the program's thread, read by the worker ---- */
	_Alignas(SD_LINE) _Atomic uint64_t tail; /* entries published */
	_Atomic uint32_t polls; /* polls of an unfinished copy that tried to serve it (workers_help.c) */

	/* ---- written by the worker, read by the program's thread ---- */
	_Alignas(SD_LINE) _Atomic uint64_t done; /* entries finished (copied or skipped) */
	_Atomic uint64_t held_copied; /* held queues: entries copied, each with its ready_at set */
	/*
	 * The program's thread drives this queue itself (the worker dozed
	 * beside it, or the program made copies it waited for), and the worker
	 * has since neither had to make a copy of it nor found it untouched for
	 * its spin time: small copies are then made in submit (sd_wq_run_now).
	 * Written only when it changes (sd_wq_set_driven).
	 */
	_Atomic bool driven;

	/* ---- the program's thread only ---- */
	_Alignas(SD_LINE) uint64_t next; /* next entry to write (tail once published) */
	uint64_t done_seen;                    /* last value of `done` read */
	uint64_t *slot_pos;                    /* ring position of each slot's latest copy */
	uint64_t *slot_arena_end;              /* arena position after each slot's segments */
	uint64_t arena_next;                   /* arena allocation cursor */
	uint64_t arena_free;                   /* arena segments before this are free again */
	uint32_t misses;                       /* polls of an unfinished copy since the last yield */
	uint32_t polls_made;                   /* the value of `polls` this thread last wrote */
	uint32_t large_now;                    /* copies over SD_WQ_NOW_BYTES that run_now was offered */
	uint64_t now_seen;                     /* held queues: the clock as this thread last read it */

	/* ---- the server only: the worker, or a program thread that helps (serving == 1) ---- */
	_Alignas(SD_LINE) _Atomic uint32_t serving; /* claimed for one pass (sd_wq_serve) */
	uint64_t head;                         /* next entry to copy */
	uint64_t copied;                       /* entries copied, not all published (chaos) */
	uint64_t *ready_at;                    /* chaos: per ring position, when it may complete */
	uint64_t chaos_state;                  /* chaos: the queue's random sequence */
	uint64_t chaos_last;                   /* chaos: when the latest copied entry completes */
	uint64_t card_last_end;                /* card model: when this machine finished the previous copy */
	uint64_t batch_skip_until;             /* entries before this were offered to a batched remote copy */

	/* ---- the worker thread only: what its previous look saw (workers_help.c) ---- */
	_Alignas(SD_LINE) uint64_t seen_tail;
	uint32_t seen_polls;
	bool looked_busy; /* that look found the program's thread busy with the queue */

	/* ---- written rarely, read by both ---- */
	_Alignas(SD_LINE) struct sd_wq_entry *ring;
	uint64_t mask;              /* ring capacity - 1 (a power of two >= depth) */
	struct sd_seg *arena;       /* segments of SD_WQ_JOB entries */
	uint32_t arena_cap;
	_Atomic int32_t *fail;      /* per slot: DOCA_SUCCESS or the failed copy's error */
	_Atomic uint32_t flushing;  /* the context left RUNNING: skip the remaining copies */
	struct sd_worker *worker;   /* the thread serving this queue */
	struct sd_engine_queue *retired_next; /* detached, on its worker's `retired` list */
	uint32_t chaos_max_ns;      /* 0: completions are published at once */
	struct sd_card *card;       /* the modelled card (SOFTDOCA_CARD_TIMING), or NULL */
	bool held;                  /* completions wait for ready_at (chaos or a card model) */
	uint64_t *arrive_at;        /* card model: per ring position, when the task was submitted */

	/* ---- arming (doca_pe_request_notification), behind a tiny lock ---- */
	_Alignas(SD_LINE) _Atomic uint32_t armed; /* read by the worker after each publish */
	atomic_flag arm_lock;
	uint64_t arm_pos;      /* wake once `done` passes this entry */
	uint32_t arm_holds;    /* wake calls owed (one per arm) */
	void (*arm_wake)(void *arg);
	void *arm_arg;
};

/*
 * What a worker's `sleeping` says: awake; asleep until someone wakes it;
 * or dozing, a short sleep with a time limit while the program's thread
 * makes its own copies (workers_help.c), which a submit leaves be (no
 * system call per batch) and only a stronger call (arming, flush, attach,
 * detach) cuts short.
 */
#define SD_WORKER_AWAKE 0u
#define SD_WORKER_ASLEEP 1u
#define SD_WORKER_DOZING 2u

/* One worker thread. */
struct sd_worker {
	/* The futex word the thread sleeps on, and whether it sleeps (SD_WORKER_*). */
	_Alignas(SD_LINE) _Atomic uint32_t sleeping;
	_Atomic uint32_t futex;
	/* The queues it serves: changed under `lock`, published by `gen`. */
	_Alignas(SD_LINE) pthread_mutex_t lock;
	struct sd_engine_queue **queues;
	uint32_t nqueues, cap;
	_Atomic uint32_t gen;     /* bumped by every change of `queues` */
	_Atomic uint32_t ack_gen; /* the generation the thread serves now */
	struct sd_engine_queue *retired; /* detached queues it may still see: freed at its next refresh */
	/* The thread's own copy of `queues` (its view), kept here too so that a forked child frees it. */
	struct sd_engine_queue **view_mem;
	/* The thread. */
	pthread_t thread;
	bool running;
	_Atomic bool up;          /* its thread reached sd_worker_main: the thread library's start-up is over */
	int cpu;                  /* pinned CPU, or -1 for the process's start-up CPU set */
	unsigned index;
};

/* workers_pool.c */
/* True on the engine's own threads (read only when tracing: the trace names who made a pass). */
extern _Thread_local bool sd_worker_thread;
/* Attach `q` to a worker (starting threads as needed); false with a reason when none can run. */
bool sd_workers_attach(struct sd_engine_queue *q, const struct sd_device *node, char *why, size_t why_len);
/*
 * Take `q` (every slot finished) off its worker and free it: at once when
 * the worker no longer sees it, else at the worker's next look at its list,
 * so that a worker stuck in another queue's copy never holds up a stop.
 */
void sd_workers_detach(struct sd_engine_queue *q);
void sd_worker_wake_slow(struct sd_worker *w);
/* The workers were stopped (the process is exiting): pollers serve their own queues. */
bool sd_workers_stopped(void);

/*
 * A submit: wake a worker that sleeps until woken (a relaxed look first;
 * the exchange makes one waker pay).  A dozing one comes back by itself.
 */
static inline void sd_worker_nudge(struct sd_worker *w)
{
	if (atomic_load_explicit(&w->sleeping, memory_order_relaxed) == SD_WORKER_ASLEEP)
		sd_worker_wake_slow(w);
}

/* Wake a sleeping or dozing worker, ordered after the caller's earlier stores (no missed sleep). */
static inline void sd_worker_nudge_strict(struct sd_worker *w)
{
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&w->sleeping, memory_order_relaxed) != SD_WORKER_AWAKE)
		sd_worker_wake_slow(w);
}

/*
 * workers_queue.c: copy what `q` holds (one pass: up to 64 entries, ending
 * with the entry that reaches `max_bytes`).  Returns 0 when there was
 * nothing to do or another thread holds the pass, else 1 + the bytes copied
 * (so a pass that only published delayed completions counts as work too).
 */
#define SD_WQ_ALL_BYTES UINT64_MAX
uint64_t sd_wq_serve(struct sd_engine_queue *q, uint64_t max_bytes);
/* Free a queue nobody serves or looks at any more. */
void sd_wq_free(struct sd_engine_queue *q);
/* Entries of `q` waiting for the worker (published but not finished). */
bool sd_wq_has_work(const struct sd_engine_queue *q);

/* workers_help.c: the program's thread polled an unfinished copy of `q`; true when it served a pass itself. */
bool sd_wq_help(struct sd_engine_queue *q);
/* workers_help.c: the worker's look at `q`: false while the program's thread is busy with it itself. */
bool sd_wq_worker_turn(struct sd_engine_queue *q);
/* Set the `driven` mark; a store only when it changes, so the line stays put while it holds. */
static inline void sd_wq_set_driven(struct sd_engine_queue *q, bool driven)
{
	if (atomic_load_explicit(&q->driven, memory_order_relaxed) != driven)
		atomic_store_explicit(&q->driven, driven, memory_order_relaxed);
}

/* workers_help.c: the worker dozes: the queues its latest look found busy are driven by their program. */
void sd_wq_worker_dozes(struct sd_engine_queue *q);

/* workers_chaos.c */
uint32_t sd_chaos_max_ns(void);
uint64_t sd_chaos_seed(void);
uint64_t sd_chaos_delay_ns(uint64_t *state, uint32_t max_ns);



#endif /* SD_WORKERS_PRIV_H */
