/*
 * watchdog.c - SOFTDOCA_WATCHDOG: a progress engine with tasks in flight
 * that nobody progresses.
 *
 * Tasks complete, and their callbacks run, only inside doca_pe_progress; a
 * program that submits and then waits for something else waits forever,
 * silently, on the card as here.  The watchdog says so: when a progress
 * engine has tasks in flight and doca_pe_progress was not called on it
 * for SOFTDOCA_WATCHDOG seconds (default 5, 0 turns the watchdog off), one
 * WARNING names the engine, its contexts and their tasks in flight.  The
 * next report of that engine comes only after it progressed again.  The
 * same thread reports a context that stays STOPPING that long with tasks
 * allocated and none in flight: it waits for doca_task_free, however often
 * the program progresses it.
 *
 * Cost: doca_pe_progress bumps a per-engine counter (struct
 * doca_pe.progress_calls), nothing else; no clock is read per task.  The
 * thread starts with the first doca_ctx_start of the process and samples
 * the counters a few times per period.  It reads counters that the
 * progress threads write without synchronisation: aligned 64-bit loads
 * and stores do not tear, and a stale value only delays a report by one
 * sample.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "debug_priv.h"
#include "sd_exec.h"
#include "sd_log.h"
#include "sd_thread.h"

#define SD_WATCHDOG_DEFAULT_S 5.0
#define SD_WATCHDOG_MAX_S 86400.0

static struct {
	pthread_mutex_t lock; /* guards the fields below (not the registry) */
	pthread_cond_t wake;
	bool wake_monotonic;  /* `wake` was set up to time out on CLOCK_MONOTONIC */
	double period_s;      /* 0: off */
	bool running;
	bool stopping;
	pid_t owner;          /* the process whose thread `thread` is */
	pthread_t thread;
} sd_wd = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
	.period_s = SD_WATCHDOG_DEFAULT_S,
};

bool sd_watchdog_configure(const char *text)
{
	char *end;
	double v;

	if (text == NULL || *text == '\0')
		return true;
	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0' || !(v >= 0.0 && v <= SD_WATCHDOG_MAX_S)) {
		fprintf(stderr, "softdoca: SOFTDOCA_WATCHDOG='%s' is not a number of seconds from 0 to %.0f; the "
				"default %.0f s applies\n",
			text, SD_WATCHDOG_MAX_S, SD_WATCHDOG_DEFAULT_S);
		return false;
	}
	sd_wd.period_s = v;
	return true;
}

/* Tasks in flight on `pe`, with a "doca_dma 0x..: 3" list of the contexts that hold them. */
static uint64_t sd_wd_inflight_locked(const struct doca_pe *pe, char *list, size_t len)
{
	uint64_t total = 0;
	size_t pos = 0;

	list[0] = '\0';
	for (size_t i = 0; i < sd_alive_count_locked(); i++) {
		const struct sd_alive_entry *e = sd_alive_at_locked(i);
		const struct doca_ctx *ctx = e->obj;
		uint64_t n;

		if (e->kind != SD_ALIVE_CTX || __atomic_load_n(&ctx->pe, __ATOMIC_RELAXED) != pe)
			continue;
		n = __atomic_load_n(&ctx->inflight, __ATOMIC_RELAXED);
		if (n == 0)
			continue;
		total += n;
		if (pos < len) {
			int w = snprintf(list + pos, len - pos, "%s%s %p: %llu", pos ? ", " : "", ctx->ops->type_name,
					 (const void *)ctx, (unsigned long long)n);

			pos = w > 0 && (size_t)w < len - pos ? pos + (size_t)w : len;
		}
	}
	return total;
}

/*
 * A context STOPPING with tasks allocated but none in flight waits for the
 * program to free them; one that stays so a whole period is reported.
 */
static bool sd_wd_stuck_stopping(struct sd_alive_entry *e, uint64_t now, uint64_t period_ns, char *report,
				 size_t len)
{
	const struct doca_ctx *ctx = e->obj;
	uint64_t allocated = __atomic_load_n(&ctx->allocated, __ATOMIC_RELAXED);

	if (__atomic_load_n(&ctx->state, __ATOMIC_RELAXED) != DOCA_CTX_STATE_STOPPING || allocated == 0 ||
	    __atomic_load_n(&ctx->inflight, __ATOMIC_RELAXED) != 0) {
		e->wd_idle_ns = 0;
		e->wd_warned = false;
		return false;
	}
	if (e->wd_idle_ns == 0)
		e->wd_idle_ns = now;
	if (e->wd_warned || now - e->wd_idle_ns < period_ns)
		return false;
	e->wd_warned = true;
	snprintf(report, len,
		 "%s %p has been STOPPING for %.1f s with %llu task(s) still allocated and none in flight: a context "
		 "reaches IDLE only when every task is freed; free them with doca_task_free (in their callbacks, "
		 "or before progressing)%s%s",
		 ctx->ops->type_name, (const void *)ctx, (double)(now - e->wd_idle_ns) / 1e9,
		 (unsigned long long)allocated, e->stop_reason != NULL ? "; it stops because " : "",
		 e->stop_reason != NULL ? e->stop_reason : "");
	return true;
}

/* One sample of every progress engine and context of this process; reports are formatted under the lock. */
static unsigned sd_wd_sample(uint64_t now, uint64_t period_ns, char (*reports)[768], unsigned max)
{
	unsigned nrep = 0;
	char list[512];

	sd_alive_lock();
	for (size_t i = 0; i < sd_alive_count_locked(); i++) {
		struct sd_alive_entry *e = sd_alive_at_locked(i);
		const struct doca_pe *pe = e->obj;
		uint64_t calls, inflight;

		if (e->pid != getpid())
			continue;
		if (e->kind == SD_ALIVE_CTX && nrep < max &&
		    sd_wd_stuck_stopping(e, now, period_ns, reports[nrep], sizeof(reports[0])))
			nrep++;
		if (e->kind != SD_ALIVE_PE)
			continue;
		calls = __atomic_load_n(&pe->progress_calls, __ATOMIC_RELAXED);
		inflight = sd_wd_inflight_locked(pe, list, sizeof(list));
		if (calls != e->wd_calls || inflight == 0) {
			e->wd_calls = calls;
			e->wd_idle_ns = 0;
			e->wd_warned = false;
			continue;
		}
		if (e->wd_idle_ns == 0)
			e->wd_idle_ns = now;
		if (e->wd_warned || now - e->wd_idle_ns < period_ns || nrep == max)
			continue;
		e->wd_warned = true;
		snprintf(reports[nrep++], sizeof(reports[0]),
			 "pe %p (pe%u) has %llu task(s) in flight (%s) and doca_pe_progress was not called on it for "
			 "%.1f s: tasks complete and their callbacks run only inside doca_pe_progress; call it in "
			 "your loop (or wait on its notification handle after doca_pe_request_notification)",
			 (const void *)pe, e->serial, (unsigned long long)inflight, list,
			 (double)(now - e->wd_idle_ns) / 1e9);
	}
	sd_alive_unlock();
	return nrep;
}

static void *sd_wd_main(void *arg)
{
	const uint64_t period_ns = (uint64_t)(sd_wd.period_s * 1e9);
	/* A few samples per period, at most one per second. */
	const uint64_t step_ns = period_ns / 4 < 1000000000ull ? period_ns / 4 : 1000000000ull;
	char reports[8][768];

	(void)arg;
	pthread_mutex_lock(&sd_wd.lock);
	while (!sd_wd.stopping) {
		struct timespec until;
		unsigned n;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += (time_t)(step_ns / 1000000000ull);
		until.tv_nsec += (long)(step_ns % 1000000000ull);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		(void)pthread_cond_timedwait(&sd_wd.wake, &sd_wd.lock, &until);
		if (sd_wd.stopping)
			break;
		pthread_mutex_unlock(&sd_wd.lock);
		n = sd_wd_sample(sd_mono_ns(), period_ns, reports, 8);
		for (unsigned i = 0; i < n; i++)
			priv_doca_sdk_log(DOCA_LOG_LEVEL_WARNING, "watchdog", "%s", reports[i]);
		pthread_mutex_lock(&sd_wd.lock);
	}
	pthread_mutex_unlock(&sd_wd.lock);
	return NULL;
}

void sd_watchdog_fork_lock(void)
{
	pthread_mutex_lock(&sd_wd.lock);
}

void sd_watchdog_fork_unlock(bool child)
{
	if (child) {
		/*
		 * The thread stayed in the parent: a child may start its own.  Its
		 * condition variable may still count the parent's waiter, which a
		 * destroy would wait for forever: start it afresh instead.
		 */
		sd_wd.running = false;
		sd_wd.stopping = false;
		memset(&sd_wd.wake, 0, sizeof(sd_wd.wake));
		sd_wd.wake_monotonic = false;
	}
	pthread_mutex_unlock(&sd_wd.lock);
}

void sd_watchdog_ensure(void)
{
	pthread_condattr_t attr;

	if (sd_wd.period_s <= 0.0)
		return;
	pthread_mutex_lock(&sd_wd.lock);
	if (sd_wd.running || sd_wd.stopping) {
		pthread_mutex_unlock(&sd_wd.lock);
		return;
	}
	if (!sd_wd.wake_monotonic) {
		/* Nobody waits on it yet: the thread that will is started below. */
		pthread_condattr_init(&attr);
		pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
		pthread_cond_destroy(&sd_wd.wake);
		pthread_cond_init(&sd_wd.wake, &attr);
		pthread_condattr_destroy(&attr);
		sd_wd.wake_monotonic = true;
	}
	if (sd_thread_start(&sd_wd.thread, NULL, sd_wd_main, NULL, "sd-watchdog") == 0) {
		sd_wd.running = true;
		sd_wd.owner = getpid();
	}
	pthread_mutex_unlock(&sd_wd.lock);
}

void sd_watchdog_stop(void)
{
	pthread_mutex_lock(&sd_wd.lock);
	if (!sd_wd.running || sd_wd.owner != getpid()) {
		sd_wd.stopping = true;
		pthread_mutex_unlock(&sd_wd.lock);
		return;
	}
	sd_wd.stopping = true;
	pthread_cond_signal(&sd_wd.wake);
	pthread_mutex_unlock(&sd_wd.lock);
	pthread_join(sd_wd.thread, NULL);
	sd_wd.running = false;
}
