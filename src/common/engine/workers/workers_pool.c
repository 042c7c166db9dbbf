/*
 * workers_pool.c - the threads of the asynchronous cpu engine.
 *
 * Configuration (read once per process):
 *   SOFTDOCA_DMA_WORKERS=N       N threads (1..64) for devices whose topology
 *                                entry has no `dma_workers` key; 0 or unset:
 *                                those devices copy inside doca_pe_progress
 *   SOFTDOCA_DMA_WORKER_CPUS=L   pin worker i to the i-th CPU of the list L
 *                                ("2", "2,3", "4-7"), round robin
 *   SOFTDOCA_DMA_WORKER_SPIN_US  how long an idle worker polls before it
 *                                sleeps (default 100; 0 sleeps at once)
 *   SOFTDOCA_DMA_WORKER_POLL_NS  the pause between two looks at the queues
 *                                (default 250): longer batches more tasks per
 *                                hand-off, shorter answers a lone task sooner
 *
 * Placement without SOFTDOCA_DMA_WORKER_CPUS: a worker may run on any CPU
 * of the set the process started with (read when the library loads), so a
 * program that pins its own thread later does not drag the workers onto
 * that CPU; and if the thread that starts the first queue is pinned to a
 * single CPU while others are allowed, the workers leave that CPU to it.
 *
 * A worker serves the queues attached to it, each started DMA context
 * being attached to the least loaded of its device's first N workers.  It
 * polls them while there is work; idle, it spins for the spin time, then
 * sleeps on a futex that a producer wakes at most once per sleep.  A queue
 * whose program's thread is busy with it (submitting, or making its own
 * copies while it waits: workers_help.c) is not the worker's work: after
 * a few looks that find only such queues, the worker dozes (a futex sleep
 * of 50 us, doubling up to 1 ms while the program stays busy, that submits
 * do not cut short) instead of spinning beside it.  The
 * list of queues changes under a mutex and is published by a generation
 * number that the worker checks once per loop, so serving takes no lock.
 *
 * Threads start on the first queue that needs them, are restarted in a
 * child after fork, and are stopped and joined when the library unloads.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sd_dev.h"
#include "sd_log.h"
#include "sd_thread.h"
#include "../card_timing.h"
#include "workers_priv.h"

#define SD_SPIN_US_DEFAULT 100u
#define SD_SPIN_US_MAX 100000u
/*
 * A worker looks at its queues about this often: entries the program writes
 * in between are taken in one go, so each cache line crosses between the
 * two CPUs once per batch rather than once per task.
 */
#define SD_POLL_GAP_NS 250u
#define SD_POLL_GAP_MAX_NS 100000u
/* After work, the first sleep is bounded: a wake-up lost in a race costs at most this. */
#define SD_FIRST_SLEEP_NS 1000000L
/*
 * Looks that found the program's thread busy with its queues, with no copy
 * made by the worker since, before it dozes, and how long a doze lasts: the
 * first is short, so that copies a program leaves behind soon after start
 * soon; each doze that only finds the program still busy doubles the next,
 * up to the longest, so that a worker beside a program that drives its own
 * queue for a long time wakes up a thousand times a second at most.
 */
#define SD_BUSY_LOOKS_BEFORE_DOZE 4u
#define SD_DOZE_MIN_NS 50000L
#define SD_DOZE_MAX_NS 1000000L

static struct {
	pthread_once_t once;
	unsigned configured;      /* SOFTDOCA_DMA_WORKERS */
	int cpus[SD_WORKERS_MAX]; /* SOFTDOCA_DMA_WORKER_CPUS, in order */
	unsigned ncpus;
	uint64_t spin_ns;
	unsigned gap_pauses;      /* pause instructions between two looks at the queues */
	cpu_set_t startup_set;    /* the CPUs the process started with */
	bool have_startup_set;
	pthread_mutex_t lock;     /* thread creation and queue placement */
	_Atomic bool stopping;
	struct sd_worker workers[SD_WORKERS_MAX];
} sd_pool = {
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

#define SD_CONFIG_LOG(...) \
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca engine selection", __VA_ARGS__)

/* ---- configuration ---- */


static bool sd_parse_uint(const char *text, unsigned long max, unsigned long *out)
{
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	*out = strtoul(text, &end, 10);
	return errno == 0 && *end == '\0' && *out <= max;
}

/* "2,4-6" -> {2, 4, 5, 6}; false on anything else. */
static bool sd_parse_cpu_list(const char *text, int *cpus, unsigned *n)
{
	const char *p = text;

	*n = 0;
	while (*p != '\0') {
		char *end;
		long lo = strtol(p, &end, 10), hi;

		if (end == p || lo < 0 || lo >= CPU_SETSIZE)
			return false;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi >= CPU_SETSIZE)
				return false;
		}
		for (long c = lo; c <= hi; c++) {
			if (*n == SD_WORKERS_MAX)
				return false;
			cpus[(*n)++] = (int)c;
		}
		if (*end == ',')
			end++;
		else if (*end != '\0')
			return false;
		p = end;
	}
	return *n != 0;
}

/*
 * How many pause instructions make about `ns` nanoseconds on this CPU (a
 * pause takes from a few to over a hundred cycles depending on the core).
 */
static unsigned sd_pool_pauses_for(uint64_t ns)
{
	const unsigned probe = 2000;
	uint64_t t0 = sd_mono_ns(), dt;

	for (unsigned i = 0; i < probe; i++)
		sd_cpu_relax();
	dt = sd_mono_ns() - t0;
	if (dt == 0)
		dt = 1;
	return ns * probe / dt == 0 ? 1 : (unsigned)(ns * probe / dt);
}

static void sd_pool_configure(void)
{
	const char *text = getenv("SOFTDOCA_DMA_WORKERS");
	unsigned long v;

	if (text != NULL && *text != '\0') {
		if (sd_parse_uint(text, SD_WORKERS_MAX, &v))
			sd_pool.configured = (unsigned)v;
		else
			SD_CONFIG_LOG("SOFTDOCA_DMA_WORKERS=%s is not a number from 0 to %u; copies stay inside "
				      "doca_pe_progress",
				      text, SD_WORKERS_MAX);
	}
	text = getenv("SOFTDOCA_DMA_WORKER_CPUS");
	if (text != NULL && *text != '\0' && !sd_parse_cpu_list(text, sd_pool.cpus, &sd_pool.ncpus)) {
		SD_CONFIG_LOG("SOFTDOCA_DMA_WORKER_CPUS=%s is not a CPU list such as 2 or 2,3 or 4-7; workers are "
			      "not pinned",
			      text);
		sd_pool.ncpus = 0;
	}
	v = SD_POLL_GAP_NS;
	text = getenv("SOFTDOCA_DMA_WORKER_POLL_NS");
	if (text != NULL && *text != '\0' && !sd_parse_uint(text, SD_POLL_GAP_MAX_NS, &v)) {
		SD_CONFIG_LOG("SOFTDOCA_DMA_WORKER_POLL_NS=%s is not a number from 0 to %u; using %u", text,
			      SD_POLL_GAP_MAX_NS, SD_POLL_GAP_NS);
		v = SD_POLL_GAP_NS;
	}
	sd_pool.gap_pauses = v == 0 ? 0 : sd_pool_pauses_for(v);
	sd_pool.spin_ns = SD_SPIN_US_DEFAULT * 1000ull;
	text = getenv("SOFTDOCA_DMA_WORKER_SPIN_US");
	if (text != NULL && *text != '\0') {
		if (sd_parse_uint(text, SD_SPIN_US_MAX, &v))
			sd_pool.spin_ns = v * 1000ull;
		else
			SD_CONFIG_LOG("SOFTDOCA_DMA_WORKER_SPIN_US=%s is not a number from 0 to %u; using %u", text,
				      SD_SPIN_US_MAX, SD_SPIN_US_DEFAULT);
	}
	for (unsigned i = 0; i < SD_WORKERS_MAX; i++) {
		struct sd_worker *w = &sd_pool.workers[i];

		pthread_mutex_init(&w->lock, NULL);
		w->index = i;
		w->cpu = sd_pool.ncpus != 0 ? sd_pool.cpus[i % sd_pool.ncpus] : -1;
	}
}

static void sd_pool_config(void)
{
	(void)pthread_once(&sd_pool.once, sd_pool_configure);
}

/* The CPU set the process started with, before the program pins threads. */
static void __attribute__((constructor)) sd_pool_note_startup_cpus(void)
{
	sd_pool.have_startup_set = sched_getaffinity(0, sizeof(sd_pool.startup_set), &sd_pool.startup_set) == 0;
}

unsigned priv_doca_engine_workers(void)
{
	sd_pool_config();
	return sd_pool.configured;
}

unsigned priv_doca_engine_workers_for(const struct sd_device *node)
{
	unsigned n;

	sd_pool_config();
	n = node != NULL && node->dma_workers >= 0 ? (unsigned)node->dma_workers : sd_pool.configured;
	/* A card timing model holds completions, which only the asynchronous engine can. */
	if (n == 0 && node != NULL && (node->card_timing[0] != '\0' || sd_card_model_selected()))
		n = 1;
	return n;
}

/* ---- sleeping and waking ---- */

static long sd_futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, (uint32_t *)word, op, val, timeout, NULL, 0);
}

static bool sd_worker_start(struct sd_worker *w, char *why, size_t why_len);
static void sd_pool_shutdown(void);

/* A child of fork() lost its workers: the first nudge starts the thread again. */
static void sd_worker_restart(struct sd_worker *w)
{
	char why[128];

	pthread_mutex_lock(&sd_pool.lock);
	if (!w->running && !atomic_load(&sd_pool.stopping) && !sd_worker_start(w, why, sizeof(why)))
		SD_CONFIG_LOG("%s after fork; its DMA copies wait until a thread can start", why);
	pthread_mutex_unlock(&sd_pool.lock);
}

void sd_worker_wake_slow(struct sd_worker *w)
{
	if (atomic_exchange_explicit(&w->sleeping, SD_WORKER_AWAKE, memory_order_acq_rel) == SD_WORKER_AWAKE)
		return; /* someone else woke it */
	if (!w->running) {
		sd_worker_restart(w);
		return;
	}
	atomic_fetch_add_explicit(&w->futex, 1, memory_order_release);
	(void)sd_futex(&w->futex, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* ---- the thread ---- */

struct sd_worker_view {
	struct sd_engine_queue **queues;
	uint32_t n, cap;
	uint32_t gen;
};

/* Take the current list of queues if it changed (once per loop, no lock otherwise). */
static void sd_pool_free_retired(struct sd_engine_queue *q)
{
	while (q != NULL) {
		struct sd_engine_queue *next = q->retired_next;

		sd_wq_free(q);
		q = next;
	}
}

static void sd_worker_refresh(struct sd_worker *w, struct sd_worker_view *v)
{
	struct sd_engine_queue *retired;
	uint32_t gen = atomic_load_explicit(&w->gen, memory_order_acquire);

	if (gen == v->gen)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->nqueues > v->cap) {
		struct sd_engine_queue **bigger = realloc(v->queues, w->nqueues * sizeof(*bigger));

		if (bigger == NULL) {
			pthread_mutex_unlock(&w->lock);
			return; /* try again next loop; the old list stays valid for what it holds */
		}
		v->queues = bigger;
		v->cap = w->nqueues;
		w->view_mem = bigger;
	}
	if (w->nqueues != 0) /* none yet: the thread may look before the first attach adds its queue */
		memcpy(v->queues, w->queues, w->nqueues * sizeof(*v->queues));
	v->n = w->nqueues;
	v->gen = atomic_load_explicit(&w->gen, memory_order_relaxed);
	atomic_store_explicit(&w->ack_gen, v->gen, memory_order_release);
	retired = w->retired; /* not in the new list: nothing here looks at them any more */
	w->retired = NULL;
	/* Under the lock, as the realloc above: a fork never finds a worker inside the allocator (see below). */
	sd_pool_free_retired(retired);
	pthread_mutex_unlock(&w->lock);
}

/*
 * One look at every queue the program's thread left alone since the
 * previous look (workers_help.c): 0 when there was nothing to do, else
 * 1 + the bytes copied.  *busy: some queue was the program's.
 */
static uint64_t sd_worker_serve_all(struct sd_worker_view *v, bool *busy)
{
	uint64_t work = 0;

	*busy = false;
	for (uint32_t i = 0; i < v->n; i++) {
		if (sd_wq_worker_turn(v->queues[i])) {
			uint64_t made = sd_wq_serve(v->queues[i], SD_WQ_ALL_BYTES);

			if (made != 0) /* the program left copies: it no longer drives the queue */
				sd_wq_set_driven(v->queues[i], false);
			work += made;
		} else {
			*busy = true;
		}
	}
	return work;
}

static bool sd_worker_has_work(const struct sd_worker *w, const struct sd_worker_view *v)
{
	if (atomic_load_explicit(&w->gen, memory_order_relaxed) != v->gen)
		return true;
	for (uint32_t i = 0; i < v->n; i++)
		if (sd_wq_has_work(v->queues[i]))
			return true;
	return false;
}

/* Nothing to do for the spin time: sleep until a producer wakes us. */
static void sd_worker_sleep(struct sd_worker *w, const struct sd_worker_view *v, bool bounded)
{
	uint32_t ticket = atomic_load_explicit(&w->futex, memory_order_acquire);
	struct timespec first = {.tv_sec = 0, .tv_nsec = SD_FIRST_SLEEP_NS};

	atomic_store_explicit(&w->sleeping, SD_WORKER_ASLEEP, memory_order_relaxed);
	/* Pairs with the producer's nudge: either it sees `sleeping` or we see its entry. */
	atomic_thread_fence(memory_order_seq_cst);
	if (!atomic_load(&sd_pool.stopping) && !sd_worker_has_work(w, v))
		(void)sd_futex(&w->futex, FUTEX_WAIT_PRIVATE, ticket, bounded ? &first : NULL);
	atomic_store_explicit(&w->sleeping, SD_WORKER_AWAKE, memory_order_relaxed);
}

/*
 * The program's thread makes its own copies (workers_help.c): step off the
 * CPU for a while instead of spinning beside it, unannounced to submits.
 */
static void sd_worker_doze(struct sd_worker *w, long ns)
{
	uint32_t ticket = atomic_load_explicit(&w->futex, memory_order_acquire);
	struct timespec t = {.tv_sec = 0, .tv_nsec = ns};

	atomic_store_explicit(&w->sleeping, SD_WORKER_DOZING, memory_order_relaxed);
	/* Pairs with sd_worker_nudge_strict: either it sees us dozing or we see its ticket. */
	atomic_thread_fence(memory_order_seq_cst);
	if (!atomic_load(&sd_pool.stopping))
		(void)sd_futex(&w->futex, FUTEX_WAIT_PRIVATE, ticket, &t);
	atomic_store_explicit(&w->sleeping, SD_WORKER_AWAKE, memory_order_relaxed);
}

_Thread_local bool sd_worker_thread;

static void *sd_worker_main(void *arg)
{
	struct sd_worker *w = arg;
	struct sd_worker_view v = {.gen = UINT32_MAX};
	uint64_t idle_since = 0;
	bool worked = true, busy;
	unsigned turns = 0, busy_looks = 0;
	long doze_ns = SD_DOZE_MIN_NS;

	sd_worker_thread = true;
	atomic_store_explicit(&w->up, true, memory_order_release);

	while (!atomic_load_explicit(&sd_pool.stopping, memory_order_relaxed)) {
		uint64_t work;

		sd_worker_refresh(w, &v);
		work = sd_worker_serve_all(&v, &busy);
		if (work != 0) {
			busy_looks = 0; /* the program left copies behind: the worker is needed */
			doze_ns = SD_DOZE_MIN_NS;
		} else if (busy) {
			busy_looks++;
			idle_since = 0; /* the program was here since the previous look: not idle */
		}
		if (busy_looks == SD_BUSY_LOOKS_BEFORE_DOZE) {
			/* The first look after a doze sees what changed during it: it takes a few looks in a row. */
			busy_looks = 0;
			idle_since = 0;
			for (uint32_t i = 0; i < v.n; i++)
				sd_wq_worker_dozes(v.queues[i]);
			sd_worker_doze(w, doze_ns);
			doze_ns = doze_ns < SD_DOZE_MAX_NS / 2 ? 2 * doze_ns : SD_DOZE_MAX_NS;
			continue;
		}
		/*
		 * After small copies (or none), pause before looking again so the
		 * program's next submits arrive together; after big ones the
		 * pause would only idle this CPU.
		 */
		if (work < SD_WQ_BIG_COPY)
			for (unsigned i = 0; i < sd_pool.gap_pauses; i++)
				sd_cpu_relax();
		if (work != 0) {
			idle_since = 0;
			worked = true;
			continue;
		}
		if ((++turns & 15) != 0)
			continue;
		if (idle_since == 0) {
			idle_since = sd_mono_ns();
			continue;
		}
		if (sd_mono_ns() - idle_since < sd_pool.spin_ns) {
			/* Idle: let a thread that shares this CPU (the program's, perhaps) run now and then. */
			if ((turns & 63) == 0)
				sched_yield();
			continue;
		}
		/* The program was away for the spin time: copies it leaves now are the worker's to make. */
		for (uint32_t i = 0; i < v.n; i++)
			sd_wq_set_driven(v.queues[i], false);
		sd_worker_sleep(w, &v, worked);
		worked = false;
		idle_since = 0;
	}
	pthread_mutex_lock(&w->lock);
	w->view_mem = NULL;
	pthread_mutex_unlock(&w->lock);
	free(v.queues);
	return NULL;
}

/* The CPUs a new worker may use (see the placement rules at the top). */
static void sd_worker_cpu_set(const struct sd_worker *w, cpu_set_t *set)
{
	cpu_set_t mine;

	CPU_ZERO(set);
	if (w->cpu >= 0) {
		CPU_SET(w->cpu, set);
		return;
	}
	if (sd_pool.have_startup_set)
		*set = sd_pool.startup_set;
	else if (sched_getaffinity(0, sizeof(*set), set) != 0)
		return;
	if (pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine) == 0 && CPU_COUNT(&mine) == 1 &&
	    CPU_COUNT(set) > 1) {
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &mine))
				CPU_CLR(c, set);
	}
}

/* Called with the pool lock held. */
static bool sd_worker_start(struct sd_worker *w, char *why, size_t why_len)
{
	pthread_attr_t attr;
	cpu_set_t set;
	static bool exit_handler; /* guarded by the pool lock, like every start */
	char name[16];
	int err;

	if (w->running)
		return true;
	if (atomic_load(&sd_pool.stopping))
		return true; /* the process is exiting: the polling thread serves the queue */
	if (!exit_handler)
		exit_handler = atexit(sd_pool_shutdown) == 0;
	sd_worker_cpu_set(w, &set);
	pthread_attr_init(&attr);
	if (CPU_COUNT(&set) != 0)
		(void)pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	atomic_store(&w->sleeping, SD_WORKER_AWAKE);
	atomic_store(&w->up, false);
	snprintf(name, sizeof(name), "sd-dma-w%u", w->index);
	err = sd_thread_start(&w->thread, &attr, sd_worker_main, w, name);
	if (err == EINVAL && CPU_COUNT(&set) != 0) {
		/* The CPU asked for is not ours to use (cgroup, taskset): run unpinned, and say so. */
		SD_CONFIG_LOG("DMA worker %u cannot be placed on CPU %d; it runs on any CPU of the process", w->index,
			      w->cpu);
		pthread_attr_destroy(&attr);
		pthread_attr_init(&attr);
		err = sd_thread_start(&w->thread, &attr, sd_worker_main, w, name);
	}
	pthread_attr_destroy(&attr);
	if (err != 0) {
		snprintf(why, why_len, "cannot start DMA worker thread %u: %s", w->index, strerror(err));
		return false;
	}
	/*
	 * Until its function runs, a new thread may be inside the allocator
	 * (a sanitizer reads its stack bounds with pthread_getattr_np, which
	 * allocates); wait for that to end, so that the fork rule below holds
	 * from the moment doca_ctx_start returns.  Once per thread.
	 */
	while (!atomic_load_explicit(&w->up, memory_order_acquire))
		sched_yield();
	w->running = true;
	return true;
}

/* The least loaded of the first n workers. */
static struct sd_worker *sd_pool_pick(unsigned n)
{
	struct sd_worker *best = &sd_pool.workers[0];

	for (unsigned i = 1; i < n; i++)
		if (sd_pool.workers[i].nqueues < best->nqueues)
			best = &sd_pool.workers[i];
	return best;
}

static bool sd_worker_add(struct sd_worker *w, struct sd_engine_queue *q)
{
	pthread_mutex_lock(&w->lock);
	if (w->nqueues == w->cap) {
		uint32_t cap = w->cap != 0 ? 2 * w->cap : 4;
		struct sd_engine_queue **bigger = realloc(w->queues, cap * sizeof(*bigger));

		if (bigger == NULL) {
			pthread_mutex_unlock(&w->lock);
			return false;
		}
		w->queues = bigger;
		w->cap = cap;
	}
	w->queues[w->nqueues++] = q;
	atomic_fetch_add_explicit(&w->gen, 1, memory_order_release);
	pthread_mutex_unlock(&w->lock);
	return true;
}

bool sd_workers_attach(struct sd_engine_queue *q, const struct sd_device *node, char *why, size_t why_len)
{
	unsigned n = priv_doca_engine_workers_for(node);
	struct sd_worker *w;
	bool ok;

	if (n == 0)
		n = 1; /* the engine was chosen for this device, so it has at least one */
	pthread_mutex_lock(&sd_pool.lock);
	w = sd_pool_pick(n);
	ok = sd_worker_start(w, why, why_len);
	if (ok && !sd_worker_add(w, q)) {
		snprintf(why, why_len, "out of memory for the queue list of DMA worker %u", w->index);
		ok = false;
	}
	pthread_mutex_unlock(&sd_pool.lock);
	if (!ok)
		return false;
	q->worker = w;
	sd_worker_nudge_strict(w);
	return true;
}

static bool sd_worker_acked(struct sd_worker *w, uint32_t gen)
{
	return (int32_t)(atomic_load_explicit(&w->ack_gen, memory_order_acquire) - gen) >= 0;
}

/* Hand q to its worker to free at its next refresh; false when it already refreshed (free it now). */
static bool sd_worker_retire(struct sd_worker *w, struct sd_engine_queue *q, uint32_t gen)
{
	bool retired = false;

	pthread_mutex_lock(&w->lock);
	if (!sd_worker_acked(w, gen)) { /* the refresh takes this lock: it will see q */
		q->retired_next = w->retired;
		w->retired = q;
		retired = true;
	}
	pthread_mutex_unlock(&w->lock);
	if (retired)
		sd_worker_nudge_strict(w); /* a sleeping worker looks at its list once woken */
	return retired;
}

void sd_workers_detach(struct sd_engine_queue *q)
{
	struct sd_worker *w = q->worker;
	uint32_t gen;

	pthread_mutex_lock(&sd_pool.lock);
	pthread_mutex_lock(&w->lock);
	for (uint32_t i = 0; i < w->nqueues; i++) {
		if (w->queues[i] == q) {
			w->queues[i] = w->queues[--w->nqueues];
			break;
		}
	}
	gen = atomic_fetch_add_explicit(&w->gen, 1, memory_order_release) + 1;
	pthread_mutex_unlock(&w->lock);
	pthread_mutex_unlock(&sd_pool.lock);
	/*
	 * Until the worker serves the new list it may look at q.  While it is
	 * making a pass of q itself, wait (its copy is into q's memory); while
	 * it is elsewhere (another queue's long copy), leave q to it.
	 */
	while (w->running && !atomic_load(&sd_pool.stopping) && !sd_worker_acked(w, gen)) {
		if (atomic_load_explicit(&q->serving, memory_order_acquire) == 0 && sd_worker_retire(w, q, gen))
			return;
		sd_worker_nudge_strict(w);
		sched_yield();
	}
	sd_wq_free(q);
}

/* ---- fork and unload ---- */

/*
 * A worker calls the allocator only under its lock (its list's realloc,
 * the free of retired queues) once its start-up is over (sd_worker_start
 * waits for that), and the fork holds every lock: so no worker is inside
 * malloc or free when the process forks.  glibc's own
 * fork handling would make that safe anyway; an allocator that has none
 * (AddressSanitizer's, in gcc 12) would leave its lock held in the
 * child, whose exit then waits for it forever (a program that forks
 * just after doca_ctx_start, while its worker takes its first list).
 */
static bool sd_pool_held_at_fork[SD_WORKERS_MAX]; /* the worker locks the forking thread took */

static void sd_pool_before_fork(void)
{
	pthread_mutex_lock(&sd_pool.lock); /* no thread starts meanwhile */
	for (unsigned i = 0; i < SD_WORKERS_MAX; i++) {
		sd_pool_held_at_fork[i] = sd_pool.workers[i].running;
		if (sd_pool_held_at_fork[i])
			pthread_mutex_lock(&sd_pool.workers[i].lock);
	}
}

static void sd_pool_fork_unlock(void)
{
	for (unsigned i = SD_WORKERS_MAX; i-- > 0;)
		if (sd_pool_held_at_fork[i])
			pthread_mutex_unlock(&sd_pool.workers[i].lock);
	pthread_mutex_unlock(&sd_pool.lock);
}

/*
 * In a child only the forking thread exists: forget the threads but keep
 * their queue lists, so inherited queues are served again once the next
 * nudge (marked here as "asleep") or attach starts a thread.
 */
static void sd_pool_after_fork_child(void)
{
	sd_pool_fork_unlock(); /* the locks sd_pool_before_fork took are this thread's */
	/*
	 * Fresh locks all the same.  Today every worker lock another thread
	 * takes is taken under the pool lock or belongs to a running worker,
	 * so all were free or this thread's; re-creating them keeps the child
	 * safe should a later change take one elsewhere.
	 */
	pthread_mutex_init(&sd_pool.lock, NULL);
	for (unsigned i = 0; i < SD_WORKERS_MAX; i++) {
		struct sd_worker *w = &sd_pool.workers[i];

		pthread_mutex_init(&w->lock, NULL);
		/* A pass some thread of the parent was making will never end here: release its claim. */
		for (uint32_t k = 0; k < w->nqueues; k++)
			atomic_store(&w->queues[k]->serving, 0);
		sd_pool_free_retired(w->retired); /* the thread that would have freed them is not here */
		w->retired = NULL;
		free(w->view_mem); /* nor the thread that held this list */
		w->view_mem = NULL;
		if (!w->running)
			continue;
		w->running = false;
		atomic_store(&w->ack_gen, atomic_load(&w->gen));
		atomic_store(&w->sleeping, SD_WORKER_ASLEEP);
	}
}

static void __attribute__((constructor)) sd_pool_register_fork(void)
{
	(void)pthread_atfork(sd_pool_before_fork, sd_pool_fork_unlock, sd_pool_after_fork_child);
}

/*
 * Stop and join the workers.  Runs from an atexit handler registered when
 * the first thread starts, so the threads are gone before handlers
 * registered earlier run (a leak checker's scan, a transport's teardown
 * that a worker could still be using), and again as the library's
 * destructor (dlclose).  Queues that still have copies afterwards are
 * served by the thread that polls them (sd_workers_stopped).
 */
static void sd_pool_shutdown(void)
{
	atomic_store(&sd_pool.stopping, true);
	for (unsigned i = 0; i < SD_WORKERS_MAX; i++) {
		struct sd_worker *w = &sd_pool.workers[i];

		if (!w->running)
			continue;
		atomic_store(&w->sleeping, SD_WORKER_ASLEEP);
		sd_worker_wake_slow(w);
		pthread_join(w->thread, NULL);
		w->running = false;
		sd_pool_free_retired(w->retired);
		w->retired = NULL;
		free(w->queues);
		w->queues = NULL;
		w->nqueues = 0;
		w->cap = 0;
	}
}

static void __attribute__((destructor)) sd_pool_unload(void)
{
	sd_pool_shutdown();
}

bool sd_workers_stopped(void)
{
	return atomic_load_explicit(&sd_pool.stopping, memory_order_relaxed);
}
