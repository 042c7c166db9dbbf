/*
 * workers.c - the opt-in worker threads of the cpu engine.
 *
 * SOFTDOCA_DMA_WORKERS=N (1..64) starts N threads on the first job; unset
 * or 0 keeps every copy inside doca_pe_progress, the default.  The queue is
 * a mutex-protected FIFO.  An idle worker first spins for a short while
 * (jobs usually come in bursts: a completion callback resubmits at once)
 * and only then sleeps on a condition variable; a post signals only when a
 * worker sleeps, so a busy pipeline makes no system call.  Workers are
 * stopped and joined at process exit so no thread outlives the library.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "sd_engine.h"
#include "sd_log.h"

#define SD_WORKERS_MAX 64u

static struct {
	pthread_once_t config_once;
	unsigned configured; /* N from the environment */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct sd_async_job *head, *tail;
	bool started;
	bool stopping;
	unsigned sleepers;     /* workers waiting on `wake` */
	atomic_uint queued;    /* jobs in the FIFO, read while spinning */
	unsigned running; /* threads actually created */
	pthread_t threads[SD_WORKERS_MAX];
} sd_workers = {
	.config_once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
};

static void sd_workers_configure(void)
{
	const char *text = getenv("SOFTDOCA_DMA_WORKERS");
	char *end;
	unsigned long n;

	if (text == NULL || *text == '\0')
		return;
	n = strtoul(text, &end, 10);
	if (*end != '\0' || n > SD_WORKERS_MAX) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca engine selection",
				     "SOFTDOCA_DMA_WORKERS=%s is not a number from 0 to %u; copies stay inside "
				     "doca_pe_progress",
				     text, SD_WORKERS_MAX);
		return;
	}
	sd_workers.configured = (unsigned)n;
}

unsigned priv_doca_engine_workers(void)
{
	(void)pthread_once(&sd_workers.config_once, sd_workers_configure);
	return sd_workers.configured;
}

/* Polls of the queue before an idle worker goes to sleep (a few microseconds). */
#define SD_WORKER_SPIN 2000

static inline void sd_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Spin a little while the queue is empty; true when a job showed up. */
static bool sd_worker_spin(void)
{
	for (int i = 0; i < SD_WORKER_SPIN; i++) {
		if (atomic_load_explicit(&sd_workers.queued, memory_order_relaxed) != 0)
			return true;
		sd_cpu_relax();
	}
	return false;
}

static void *sd_worker_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&sd_workers.lock);
	for (;;) {
		struct sd_async_job *job;

		if (sd_workers.head == NULL && !sd_workers.stopping) {
			pthread_mutex_unlock(&sd_workers.lock);
			(void)sd_worker_spin();
			pthread_mutex_lock(&sd_workers.lock);
		}
		while (sd_workers.head == NULL && !sd_workers.stopping) {
			sd_workers.sleepers++;
			pthread_cond_wait(&sd_workers.wake, &sd_workers.lock);
			sd_workers.sleepers--;
		}
		if (sd_workers.head == NULL)
			break; /* stopping, and nothing left to run */
		job = sd_workers.head;
		sd_workers.head = job->next;
		if (sd_workers.head == NULL)
			sd_workers.tail = NULL;
		atomic_fetch_sub_explicit(&sd_workers.queued, 1, memory_order_relaxed);
		pthread_mutex_unlock(&sd_workers.lock);
		job->run(job);
		pthread_mutex_lock(&sd_workers.lock);
	}
	pthread_mutex_unlock(&sd_workers.lock);
	return NULL;
}

/* Called with the lock held, on the first post. */
static void sd_workers_start(void)
{
	sd_workers.started = true;
	for (unsigned i = 0; i < sd_workers.configured; i++) {
		if (pthread_create(&sd_workers.threads[i], NULL, sd_worker_main, NULL) != 0)
			break;
		sd_workers.running++;
	}
	if (sd_workers.running == 0)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, "softdoca cpu engine",
				     "could not start any worker thread; jobs run on the submitting thread");
}

void priv_doca_engine_post(struct sd_async_job *job)
{
	bool run_here;

	job->next = NULL;
	pthread_mutex_lock(&sd_workers.lock);
	if (!sd_workers.started)
		sd_workers_start();
	run_here = sd_workers.running == 0;
	if (!run_here) {
		if (sd_workers.tail != NULL)
			sd_workers.tail->next = job;
		else
			sd_workers.head = job;
		sd_workers.tail = job;
		atomic_fetch_add_explicit(&sd_workers.queued, 1, memory_order_relaxed);
		if (sd_workers.sleepers != 0)
			pthread_cond_signal(&sd_workers.wake);
	}
	pthread_mutex_unlock(&sd_workers.lock);
	if (run_here)
		job->run(job); /* no thread could start: still correct, only slower */
}

bool priv_doca_engine_cancel(struct sd_async_job *job)
{
	struct sd_async_job *prev = NULL;
	bool removed = false;

	pthread_mutex_lock(&sd_workers.lock);
	for (struct sd_async_job *j = sd_workers.head; j != NULL; prev = j, j = j->next) {
		if (j != job)
			continue;
		if (prev == NULL)
			sd_workers.head = j->next;
		else
			prev->next = j->next;
		if (sd_workers.tail == j)
			sd_workers.tail = prev;
		atomic_fetch_sub_explicit(&sd_workers.queued, 1, memory_order_relaxed);
		removed = true;
		break;
	}
	pthread_mutex_unlock(&sd_workers.lock);
	return removed;
}

static void __attribute__((destructor)) sd_workers_shutdown(void)
{
	unsigned n;

	pthread_mutex_lock(&sd_workers.lock);
	sd_workers.stopping = true;
	n = sd_workers.running;
	pthread_cond_broadcast(&sd_workers.wake);
	pthread_mutex_unlock(&sd_workers.lock);
	for (unsigned i = 0; i < n; i++)
		pthread_join(sd_workers.threads[i], NULL);
}
